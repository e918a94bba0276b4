import Foundation

// A presence test the app defines on UserDefaults, and the wrappers that call it before
// returning their caller's fallback.
extension UserDefaults {
  func valueExists(forKey key: String) -> Bool {
    return object(forKey: key) != nil
  }

  // Trap: true when the key is absent; the branch it takes is not the absent one.
  func isMissing(forKey key: String) -> Bool {
    object(forKey: key) == nil
  }

  // Trap: a flag's value, no presence test.
  func isLocked(forKey key: String) -> Bool {
    bool(forKey: key)
  }
}

enum PresenceStore {
  static func getBool(for key: String, defaultValue: Bool) -> Bool {
    if UserDefaults.standard.valueExists(forKey: key) {
      return UserDefaults.standard.bool(forKey: key)
    } else {
      return defaultValue
    }
  }

  static func getInt(for key: String, defaultValue: Int) -> Int {
    guard UserDefaults.standard.valueExists(forKey: key) else { return defaultValue }
    return UserDefaults.standard.integer(forKey: key)
  }

  static func getLevel(for key: String, defaultValue: Int) -> Int {
    if UserDefaults.standard.isMissing(forKey: key) {
      return UserDefaults.standard.integer(forKey: key)
    } else {
      return defaultValue
    }
  }

  static func getFlag(for key: String, defaultValue: Bool) -> Bool {
    if UserDefaults.standard.isLocked(forKey: key) {
      return UserDefaults.standard.bool(forKey: key)
    } else {
      return defaultValue
    }
  }
}

final class PresenceSettings {
  var showIcons = PresenceStore.getBool(for: "un.showIcons", defaultValue: true)
  var inset = PresenceStore.getInt(for: "un.inset", defaultValue: 5)
  var level = PresenceStore.getLevel(for: "un.level", defaultValue: 3)
  var locked = PresenceStore.getFlag(for: "un.locked", defaultValue: true)

  func reset() {
    let d = UserDefaults.standard
    if !d.valueExists(forKey: "un.zoom") { d.set(2.0, forKey: "un.zoom") }
  }
}
