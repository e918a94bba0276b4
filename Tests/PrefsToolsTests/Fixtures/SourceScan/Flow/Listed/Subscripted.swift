import Foundation

// A settings struct whose keys an enum names, read and written through its own subscript
// (`self[.item]`), each made a type by a cast (`as String?`) or a fallback (`?? false`).
public struct ListedPreferences {
  private let userDefaults: UserDefaults = .standard
}

public extension ListedPreferences {
  var colorScheme: String {
    get { self[.colorScheme] as String? ?? "system" }
    set { self[.colorScheme] = newValue }
  }

  var animate: Bool {
    get { self[.animate] ?? false }
    set { self[.animate] = newValue }
  }
}

private extension ListedPreferences {
  enum Item: String {
    case colorScheme = "listedColorScheme"
    case animate = "listedAnimateThings"
  }

  subscript<T>(index: Item) -> T? {
    get { userDefaults.value(forKey: index.rawValue) as? T }
    set { userDefaults.set(newValue, forKey: index.rawValue) }
  }
}

// Traps: another type's subscript (`self["listedNotAKey"]` is its own, not a key); a settings
// struct given its user defaults by another object (`environment.userDefaults`): not known,
// never taken for the standard domain.
struct ListedTable {
  var items: [String: String] = [:]
  subscript(name: String) -> String? { items[name] }
  func title() -> String? { self["listedNotAKey"] }
}

struct ListedEnvironment {
  let userDefaults: UserDefaults
}

struct ListedGivenPreferences {
  private let userDefaults: UserDefaults

  init(environment: ListedEnvironment) {
    self.userDefaults = environment.userDefaults
  }

  var sound: Bool {
    get { self[.sound] ?? true }
    set { self[.sound] = newValue }
  }

  enum Item: String {
    case sound = "listedElsewhere"
  }

  subscript<T>(index: Item) -> T? {
    get { userDefaults.value(forKey: index.rawValue) as? T }
    set { userDefaults.set(newValue, forKey: index.rawValue) }
  }
}
