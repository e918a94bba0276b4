import Foundation

// A struct of closures standing for user defaults (replaced in tests), and one that is not.
public struct Environment {
  public var defaults = Defaults()
  public var cache = Cache()
}

nonisolated(unsafe) var Current = Environment()

public struct Defaults: Sendable {
  public var string: @Sendable (String) -> String? = { UserDefaults.standard.string(forKey: $0) }
  public func string(forKey key: String) -> String? {
    string(key)
  }

  public var set: @Sendable (Any?, String) -> Void = { UserDefaults.standard.set($0, forKey: $1) }
  public func set(_ value: Any?, forKey key: String) {
    set(value, key)
  }

  public var bool: @Sendable (String) -> Bool? = { key in UserDefaults.standard.bool(forKey: key) }
  public func bool(forKey key: String) -> Bool? { bool(key) }
}

public struct Cache: Sendable {
  public var set: @Sendable (Any?, String) -> Void = { _, _ in }
  public func set(_ value: Any?, forKey key: String) { set(value, key) }
}
