/// A typed preference key: its name in the domain and the value it reads as when absent.
/// Declare keys once, as static members of ``Keys``:
///
/// ```swift
/// extension Keys {
///   static let rankingSize = Key<Int>("ranking.size", default: 5)
/// }
/// ```
public struct Key<Value: PreferenceValue>: Sendable, Hashable, CustomStringConvertible {
  public let name: String
  public let defaultValue: Value

  public init(_ name: String, default defaultValue: Value) {
    self.name = name
    self.defaultValue = defaultValue
  }

  public static func == (lhs: Key, rhs: Key) -> Bool { lhs.name == rhs.name }
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }
  public var description: String { "Key<\(Value.self)>(\"\(name)\")" }
}

extension Key {
  /// An optional key, whose default is nil.
  public init<Wrapped>(_ name: String) where Value == Wrapped? {
    self.init(name, default: nil)
  }
}

/// The namespace where an app declares its keys (`extension Keys { static let … }`).
public enum Keys {}
