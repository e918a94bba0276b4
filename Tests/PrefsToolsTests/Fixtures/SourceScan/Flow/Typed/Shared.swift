import Foundation

// Properties of an extension of UserDefaults, read on an app group's through a member given
// it as `.typedShared`; one that no code reads is taken in the domain the others are read on.
extension UserDefaults {
  static let typedShared = UserDefaults(suiteName: "group.typed.shared") ?? .standard

  @objc dynamic var typedBadgeCount: Int {
    get { integer(forKey: #function) }
    set { set(newValue, forKey: #function) }
  }
}

final class Badge {
  private let userDefaults: UserDefaults = .typedShared

  func count() -> Int { userDefaults.typedBadgeCount }
}
