import Foundation

// A subscript of an extension of UserDefaults, called in another file as `self[#function]` by
// properties of another extension, which the code reads on an app group's user defaults.
extension UserDefaults {
  static let givenShared = UserDefaults(suiteName: "group.given.shared") ?? .standard

  subscript<T>(key: String) -> T? {
    get { value(forKey: key) as? T }
    set { set(newValue, forKey: key) }
  }
}
