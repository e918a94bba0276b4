import Foundation

/// A key object made through its generic type and `.init`.
public struct Setting<Value> {
  public let key: String
  public let fallback: Value

  public init(_ key: String, fallback: Value) {
    self.key = key
    self.fallback = fallback
  }

  func read() -> Value {
    (UserDefaults.standard.object(forKey: self.key) as? Value) ?? fallback
  }

  func write(_ value: Value) {
    UserDefaults.standard.set(value, forKey: self.key)
  }
}

enum Settings {
  static let generic = Setting<Bool>("kept.generic", fallback: true)
  static let viaInit = Setting.init("kept.viaInit", fallback: 3)
  static let both = Setting<String>.init("kept.both", fallback: "abc")
}

/// A JSON wrapper: every value encoded, read back through `flatMap` and given its default.
@propertyWrapper
struct Coded<Value: Codable> {
  let key: String
  let defaultValue: Value

  var wrappedValue: Value {
    get {
      let data = UserDefaults.standard.data(forKey: key)
      let value = data.flatMap { try? JSONDecoder().decode(Value.self, from: $0) }
      return value ?? defaultValue
    }
    set {
      let data = try? JSONEncoder().encode(newValue)
      UserDefaults.standard.set(data, forKey: key)
    }
  }
}

final class Timers {
  @Coded(key: "kept.workSeconds", defaultValue: 25 * 60)
  var work: Int
  @Coded(key: "kept.sound", defaultValue: "bell")
  var sound: String
}

func pomodoro(_ timers: Timers) {
  print(timers.work, timers.sound)
}
