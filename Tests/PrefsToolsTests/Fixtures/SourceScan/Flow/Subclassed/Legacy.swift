import Foundation

// A method of an extension of UserDefaults without parameters, called on an app group's suite
// whose name the run makes; and the extension's properties read by a class on the user
// defaults its initializer was given: each in that suite (`--suite` takes it), SubclassedLegacy
// (dictionary, removed and read), SubclassedOnboarded (bool).
extension Bundle {
  var subclassedGroup: String { object(forInfoDictionaryKey: "SubclassedGroup") as? String ?? "" }
}

extension UserDefaults {
  static let subclassedGroup = UserDefaults(suiteName: Bundle.main.subclassedGroup)

  var subclassedLegacy: [String: Any]? { dictionary(forKey: "SubclassedLegacy") }

  func removeSubclassedLegacy() {
    removeObject(forKey: "SubclassedLegacy")
  }

  var subclassedOnboarded: Bool {
    get { bool(forKey: "SubclassedOnboarded") }
    set { set(newValue, forKey: "SubclassedOnboarded") }
  }
}

final class SubclassedOnboarding {
  private let userDefaults: UserDefaults

  init(userDefaults: UserDefaults = .standard) {
    self.userDefaults = userDefaults
  }

  var done: Bool {
    get { userDefaults.subclassedOnboarded }
    set { userDefaults.subclassedOnboarded = newValue }
  }
}

func subclassedMigrate() -> SubclassedOnboarding? {
  if UserDefaults.subclassedGroup?.subclassedLegacy != nil {
    UserDefaults.subclassedGroup?.removeSubclassedLegacy()
  }
  guard let group = UserDefaults.subclassedGroup else { return nil }
  return SubclassedOnboarding(userDefaults: group)
}
