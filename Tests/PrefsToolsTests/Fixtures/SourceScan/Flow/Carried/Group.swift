import Foundation

/// The app group's suite, a static member of UserDefaults; properties of an extension read
/// on whatever user defaults their accesses name.
extension UserDefaults {
  static var group: UserDefaults {
    UserDefaults(suiteName: "group.org.example.kept") ?? .standard
  }

  enum Keys {
    static let sharedLogging = "kept.sharedLogging"
  }

  @objc dynamic var sharedLogging: Bool {
    bool(forKey: Keys.sharedLogging)
  }

  @objc dynamic var localFlag: Bool {
    bool(forKey: "kept.localFlag")
  }

  @objc dynamic var libraryFlag: Bool {
    bool(forKey: "kept.libraryFlag")
  }
}

final class Logger {
  func log(_ text: String) {
    guard UserDefaults.group.sharedLogging else { return }
    // Trap: a type's member of the same name is no access of user defaults.
    print(UserDefaults.Keys.sharedLogging, text, UserDefaults.standard.localFlag)
  }

  func fromLibrary(_ identity: SDKIdentity) {
    // User defaults of a library's object: of no domain the tree shows.
    print(identity.shared.userDefaults?.libraryFlag ?? false)
  }
}

/// A property wrapper whose initializer seeds the key through its own static wrappers (called
/// on `Self`, their user defaults the group's), the answer held in a local first.
@propertyWrapper
struct Item<Value: Codable> {
  private let key: String
  let fallback: Value

  var wrappedValue: Value {
    get { Self.value(for: key) ?? fallback }
    set { Self.setValue(newValue, for: key) }
  }

  init(_ key: String, _ defaultValue: Value) {
    self.key = key
    self.fallback = defaultValue
    let loaded = Self.value(for: key)
    if loaded == nil {
      Self.setValue(defaultValue, for: key)
    }
  }
}

extension Item {
  static var userDefaults: UserDefaults { .group }

  static func value(for key: String) -> Value? {
    guard let data = userDefaults.data(forKey: key) else { return nil }
    return try? JSONDecoder().decode(Value.self, from: data)
  }

  static func setValue(_ value: Value?, for key: String) {
    if let value, let data = try? JSONEncoder().encode(value) {
      userDefaults.set(data, forKey: key)
    }
  }
}

final class Downloads {
  @Item("kept.maxActive", 4) var maxActive: Int
  @Item("kept.cellular", false) var cellular: Bool
}

func downloads(_ d: Downloads) {
  print(d.maxActive, d.cellular)
}
