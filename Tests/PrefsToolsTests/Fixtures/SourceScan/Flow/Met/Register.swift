import Foundation

// A function registers the dictionary its caller gives, its enum keys mapped to their raw
// values: each call's entries are registered defaults.
enum MetPreference: String {
  case autoRestart = "met_auto_restart"
  case language = "met_language"
  case unused = "met_unused"
}

enum MetPrefs {
  static func registerDefaults(_ configuration: [MetPreference: Any]) {
    let tuple = configuration.map { (key: MetPreference, value: Any) in (key.rawValue, value) }
    let defaults = Dictionary(uniqueKeysWithValues: tuple)
    UserDefaults.standard.register(defaults: defaults)
  }

  static func launch() {
    registerDefaults([.autoRestart: true, .language: ""])
  }

  // Trap: a function given a dictionary it does not register.
  static func log(_ values: [MetPreference: Any]) { print(values.count) }
  static func report() { log([.unused: false]) }
}
