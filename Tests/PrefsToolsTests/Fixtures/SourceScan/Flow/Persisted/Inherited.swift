import Foundation

// A settings store whose user defaults are an initializer's parameter with a default value, an
// app group's suite (the standard domain only where it cannot be made), kept in a member its
// subclass writes through; keys collected in a static array of the enum's own cases, which
// another enum names too.
enum InheritedConstant {
  static let group = "group.persisted"

  enum setting {
    static let lockTime = InheritedLock.fiveMinutes
  }
}

enum InheritedLock: String {
  case fiveMinutes = "FiveMinutes"
  case never = "Never"
}

// Each key's first value: what the enum's computed property returns for its case.
enum InheritedKey: String {
  case lockTime = "inheritedLockTime"
  case forceLock = "inheritedForceLock"

  static var allValues: [InheritedKey] = [.lockTime, .forceLock]

  var defaultValue: Any? {
    switch self {
    case .lockTime: return InheritedConstant.setting.lockTime.rawValue
    case .forceLock: return false
    }
  }
}

// Trap: another enum's case of the same name, another raw value.
enum InheritedTelemetry: String {
  case forceLock = "inherited_force_lock"
}

class InheritedBaseStore {
  let userDefaults: UserDefaults

  init(
    dispatcher: Int = 0,
    sharedUserDefaults: UserDefaults = UserDefaults(suiteName: InheritedConstant.group)
      ?? UserDefaults.standard
  ) {
    self.userDefaults = sharedUserDefaults
  }

  func loadInitialValues() {
    for key in InheritedKey.allValues {
      if self.userDefaults.value(forKey: key.rawValue) == nil {
        self.userDefaults.set(key.defaultValue, forKey: key.rawValue)
      }
    }
  }
}

final class InheritedStore: InheritedBaseStore {
  static let shared = InheritedStore()

  func lockNow(_ enabled: Bool) {
    self.userDefaults.set(enabled, forKey: InheritedKey.forceLock.rawValue)
  }
}

// In group.persisted: inheritedLockTime (string, "FiveMinutes"), inheritedForceLock (bool,
// false).
