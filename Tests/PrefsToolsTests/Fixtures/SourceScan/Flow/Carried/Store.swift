import Foundation

/// Static wrappers over an enum of keys, a first launch seeding through them.
extension UserDefaults {
  enum Option: String {
    case keptLaunch
    case keptPort
    case keptLevel
    case keptOther
  }

  static func setBool(forKey key: Option, value: Bool) {
    UserDefaults.standard.set(value, forKey: key.rawValue)
  }

  static func getBool(forKey key: Option) -> Bool {
    UserDefaults.standard.bool(forKey: key.rawValue)
  }

  static func set(forKey key: Option, value: String) {
    UserDefaults.standard.set(value, forKey: key.rawValue)
  }

  static func get(forKey key: Option) -> String? {
    UserDefaults.standard.string(forKey: key.rawValue)
  }
}

final class Config {
  var port = ""
  var level = ""

  init() {
    self.port = UserDefaults.get(forKey: .keptPort) ?? "8"
    self.level = UserDefaults.get(forKey: .keptLevel) ?? "info"
  }
}

func firstLaunch() {
  if UserDefaults.get(forKey: .keptLaunch) == nil {
    UserDefaults.setBool(forKey: .keptLaunch, value: true)
    // Trap: another key written in that branch is no default of its own.
    UserDefaults.setBool(forKey: .keptOther, value: false)
  }
  if UserDefaults.getBool(forKey: .keptLaunch) { print(UserDefaults.getBool(forKey: .keptOther)) }
}

enum SoundTheme: String {
  case off, chime
}

/// An enum made from the getter's `?? ""`: no case is empty, so the enum's own fallback.
func soundTheme() -> SoundTheme {
  SoundTheme(rawValue: UserDefaults.standard.string(forKey: "kept.soundTheme") ?? "") ?? .off
}

/// Read as a flag and as a number; the registration says which.
func gamepad() {
  let d = UserDefaults.standard
  d.register(defaults: ["kept.padSound": true])
  if d.bool(forKey: "kept.padSound") { print(d.integer(forKey: "kept.padSound")) }
  // Trap: nothing says which.
  if d.bool(forKey: "kept.padHaptics") { print(d.integer(forKey: "kept.padHaptics")) }
}
