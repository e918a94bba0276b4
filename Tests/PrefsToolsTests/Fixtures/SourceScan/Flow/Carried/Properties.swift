import Foundation

/// A protocol whose static requirement is the key, each conforming type giving its own.
protocol PreferenceProperty {
  associatedtype T
  static var key: String { get }
}

extension PreferenceProperty {
  static func save(value: T) {
    UserDefaults.standard.set(value, forKey: key)
  }

  static func read() -> T? {
    UserDefaults.standard.value(forKey: key) as? T
  }
}

final class CharactersProperty: PreferenceProperty {
  typealias T = String
  static var key = "kept.characters"
}

final class ReversedProperty: PreferenceProperty {
  typealias T = Bool
  static var key = "kept.reversed"
}

/// Trap: a type with a `key` of its own that does not conform.
enum Unrelated {
  static let key = "kept.unrelated"
}

enum Flags {
  static var hideContent: Bool {
    UserDefaults.standard.object(forKey: "kept.hide") == nil
      ? true
      : UserDefaults.standard.bool(forKey: "kept.hide")
  }

  static var limit: Int {
    let d = UserDefaults.standard
    return d.object(forKey: "kept.limit") != nil ? d.integer(forKey: "kept.limit") : 5
  }

  /// Trap: the other side reads another key.
  static var mixed: Bool {
    UserDefaults.standard.object(forKey: "kept.mixed") == nil
      ? false
      : UserDefaults.standard.bool(forKey: "kept.hide")
  }
}
