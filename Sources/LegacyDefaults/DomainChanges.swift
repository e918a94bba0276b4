import PropertyList

/// Changes to a domain, key by key: a value set, or a key removed. What every update of a
/// storage returns (``DefaultsStorage/update(_:)``, `updateDomain(_:)`).
///
/// Keys are told apart by their bytes, as `PlistDictionary` and the files do. A later change of
/// a key replaces an earlier one. Write one as a literal, `nil` removing:
///
/// ```swift
/// let changes: DomainChanges = ["ranking.size": 12, "PREFS_RANKING_SIZE": nil]
/// ```
public struct DomainChanges: Sendable, Hashable, ExpressibleByDictionaryLiteral {
  /// The values set, in the order first set.
  package private(set) var assigned = PlistDictionary()
  /// The keys removed (as the keys of a dictionary, so that a key is found by its bytes at
  /// once; the values mean nothing).
  private var removals = PlistDictionary()

  public init() {}

  public init(dictionaryLiteral elements: (String, PlistValue?)...) {
    for (key, value) in elements { self[key] = value }
  }

  /// The changes that make `current` into `target`: every value of `target`, and the removal
  /// of every key `target` does not have.
  public init(replacing current: PlistDictionary, with target: PlistDictionary) {
    for (key, _) in current where !target.contains(key: key) { removals[key] = .bool(true) }
    assigned = target
  }

  /// The keys removed, in the order first removed.
  package var removed: [String] { removals.keys }

  /// No change at all.
  public var isEmpty: Bool { assigned.isEmpty && removals.isEmpty }

  /// The change of `key`: `.some(value)` sets it, `.some(nil)` removes it, nil leaves it.
  public subscript(key: String) -> PlistValue?? {
    get {
      if let value = assigned[key] { return .some(value) }
      return removals.contains(key: key) ? .some(nil) : nil
    }
    set {
      switch newValue {
      case .some(.some(let value)):
        removals[key] = nil
        assigned[key] = value
      case .some(.none):
        assigned[key] = nil
        removals[key] = .bool(true)
      case .none:
        assigned[key] = nil
        removals[key] = nil
      }
    }
  }

  /// Adds `other`'s changes, its change of a key replacing this one's.
  package mutating func merge(_ other: DomainChanges) {
    for key in other.removed { self[key] = .some(nil) }
    for (key, value) in other.assigned { self[key] = value }
  }

  /// `dictionary` with these changes made (the other entries keep their order).
  public func applied(to dictionary: PlistDictionary) -> PlistDictionary {
    var result =
      removals.isEmpty ? dictionary : dictionary.filter { !removals.contains(key: $0.key) }
    for (key, value) in assigned { result[key] = value }
    return result
  }

  /// Every change, removals first: `(key, nil)` removes.
  public var all: [(key: String, value: PlistValue?)] {
    removals.map { ($0.key, nil) } + assigned.map { ($0.key, .some($0.value)) }
  }
}

/// A key as a domain holds it: equal to another only when their UTF-8 bytes are (as
/// CoreFoundation compares a dictionary's string keys), where a Swift `String` is equal to any
/// string canonically equivalent to it (`"é"` precomposed and decomposed are one `String`,
/// two keys of a domain). The store keys its pending changes and observers by these.
package struct DomainKey: Hashable, Sendable {
  package let text: String

  package init(_ text: String) { self.text = text }

  package static func == (a: DomainKey, b: DomainKey) -> Bool {
    a.text.utf8.elementsEqual(b.text.utf8)
  }

  package func hash(into hasher: inout Hasher) {
    for byte in text.utf8 { hasher.combine(byte) }
  }
}
