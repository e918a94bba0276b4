import Foundation

// A preferences class read through its own wrapper, each property's value bound by `if let`:
// the `else` branch's constant, or the case a conversion falls back to, is the default. The
// wrapper's user defaults are an app group's.
final class LoadedPreferences {
  static let userDefaults = UserDefaults(suiteName: "group.loaded") ?? .standard

  enum Keys: String {
    case Language
    case Icon
    case Words
  }

  enum Icon: String {
    case first = "Option1"
    case second = "Option2"
  }

  var language: String
  var icon: Icon
  var words: String

  init() {
    if let saved = LoadedPreferences.getValue(key: .Language) as? String {
      language = saved.replacingOccurrences(of: "_", with: "-")
    } else {
      language = "en-US"
    }
    icon = .first
    if let item = LoadedPreferences.getValue(key: .Icon) as? String {
      icon = Icon(rawValue: item) ?? .second
    }
    // Trap: the `else` branch reads again; its own `??` is the default, never the branch.
    if let list = LoadedPreferences.getValue(key: .Words) as? [String] {
      words = list.joined(separator: ",")
    } else {
      words = LoadedPreferences.getValue(key: .Words) as? String ?? ""
    }
  }

  private static func getValue(key: Keys) -> Any? {
    userDefaults.value(forKey: key.rawValue)
  }

  private static func setValue(value: Any?, key: Keys) {
    userDefaults.setValue(value, forKey: key.rawValue)
  }
}

// In group.loaded: Language (string, "en-US"), Icon (string, "Option2"), Words (string, "").
