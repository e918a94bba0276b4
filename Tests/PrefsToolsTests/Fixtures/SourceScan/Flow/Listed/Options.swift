import Foundation

// A getter function whose fallback is a parameter with a default value: a call that leaves it
// out gets that value, a call that gives one gets its own. Its calls inside `.init(…)` of an
// array literal's elements are read like any others.

func listedString(forKey: String, defaultValue: String = "Visible") -> String {
  let defaults = UserDefaults.standard
  return defaults.string(forKey: forKey) ?? defaultValue
}

func listedBool(forKey: String, defaultValue: Bool = false) -> Bool {
  UserDefaults.standard.object(forKey: forKey) as? Bool ?? defaultValue
}

struct ListedOption {
  var value: String
  var key: String
}

struct ListedOptionsView {
  var options: [ListedOption] = [
    .init(value: listedString(forKey: "ListedDock"), key: "ListedDock"),
    .init(value: listedString(forKey: "ListedBar", defaultValue: "Hidden"), key: "ListedBar"),
  ]
  var shown = listedBool(forKey: "ListedShown")
  var animated = listedBool(forKey: "ListedAnimated", defaultValue: true)
}

// `??` binds tighter than a comparison: the fallback is `"Visible"`, not the comparison.
func listedDockColored() -> Bool {
  UserDefaults.standard.string(forKey: "ListedDockStyle") ?? "Visible" != "Visible"
}

// A wrapper whose key parameter defaults to `#function`: each property calling it without one
// is its own key.
final class ListedSettings {
  private let defaults = UserDefaults.standard

  private func read<T>(property: String = #function) -> T? {
    defaults.object(forKey: property) as? T
  }

  private func write<T>(value: T, to property: String = #function) {
    defaults.set(value, forKey: property)
  }

  var listedOnboarding: Bool {
    get { read() ?? true }
    set { write(value: newValue) }
  }
}
