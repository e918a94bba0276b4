import Combine
import Foundation

// Property wrappers whose members are declared after the accessors that use them, whose
// default user defaults are an app group's (a static member of an extension), and whose
// registered value is JSON of the wrapped value.

extension UserDefaults {
  static var group: UserDefaults {
    return UserDefaults(suiteName: "group.example.wrapped") ?? UserDefaults.standard
  }

  // A method of the extension: the user defaults it is called on.
  func set<T: Codable>(object: T, forKey key: String) {
    let data = try? JSONEncoder().encode(object)
    self.set(data, forKey: key)
  }
}

@propertyWrapper
struct Stored<T: Equatable> {
  var wrappedValue: T {
    get { defaults.object(forKey: key) as? T ?? defaultValue }
    set { defaults.set(newValue, forKey: key) }
  }

  let key: String
  let defaultValue: T
  private let defaults: UserDefaults

  init(key: String, defaultValue: T, defaults: UserDefaults = UserDefaults.group) {
    self.key = key
    self.defaultValue = defaultValue
    self.defaults = defaults
  }
}

@propertyWrapper
final class Encoded<T: Codable>: NSObject {
  var wrappedValue: T? {
    get {
      guard let data = userDefaults.data(forKey: key) else { return nil }
      return try? JSONDecoder().decode(T.self, from: data)
    }
    set {
      let data = try? JSONEncoder().encode(newValue)
      userDefaults.setValue(data, forKey: key)
    }
  }

  private let key: String
  private let userDefaults: UserDefaults

  init(wrappedValue defaultValue: T, _ key: String, userDefaults: UserDefaults = .standard) {
    self.key = key
    self.userDefaults = userDefaults
    super.init()
    do {
      try userDefaults.register(defaults: [key: JSONEncoder().encode(defaultValue)])
    } catch {
      print("Unable to register (\(error))")
    }
  }
}
