// swift-format-ignore-file
// (An app's code as written, force unwraps included: what the scan reads.)
import Foundation

public struct Generator: Codable {
  public var length = 15
  public init() {}
}

enum Layer: String, Codable { case clock, date }

@propertyWrapper struct Stored<T> {
  private let key: String
  private let defaultValue: T
  private let bundleID = Paths.preferences() + "com.example.unseen"

  init(key: String, defaultValue: T) {
    self.key = key
    self.defaultValue = defaultValue
  }

  var wrappedValue: T {
    get {
      if #available(macOS 10.15, *) {
        if let userDefaults = UserDefaults(suiteName: bundleID) {
          return userDefaults.object(forKey: key) as? T ?? defaultValue
        }
      }
      return defaultValue
    }
    set {
      if let userDefaults = UserDefaults(suiteName: bundleID) {
        userDefaults.set(newValue, forKey: key)
      }
    }
  }
}

@propertyWrapper struct Encoded<T: Codable> {
  private let key: String
  private let defaultValue: T

  init(key: String, defaultValue: T) {
    self.key = key
    self.defaultValue = defaultValue
  }

  var wrappedValue: T {
    get {
      if let jsonString = UserDefaults.standard.string(forKey: key) {
        guard let jsonData = jsonString.data(using: .utf8),
          let value = try? JSONDecoder().decode(T.self, from: jsonData)
        else { return defaultValue }
        return value
      }
      return defaultValue
    }
    set {
      let encoder = JSONEncoder()
      let jsonData = try? encoder.encode(newValue)
      let jsonString = String(bytes: jsonData!, encoding: .utf8)
      UserDefaults.standard.set(jsonString, forKey: key)
    }
  }
}

struct Prefs {
  @Stored(key: "un.muteSound", defaultValue: true)
  static var muteSound: Bool
  @Encoded(key: "un.layers", defaultValue: [Layer.clock, Layer.date])
  static var layers: [Layer]
}

func use() {
  var blocked = (UserDefaults.standard.object(forKey: "un.blocked") ?? []) as! [String]
  blocked.append("x")
  let hidden = (UserDefaults.standard.object(forKey: "un.hidden") as? [String]) ?? [String]()
  Prefs.muteSound.toggle()
  print(Prefs.layers)
  if let group = UserDefaults(suiteName: "group.example.unseen") {
    group.set(2, forKey: "un.launches")
  }
}
