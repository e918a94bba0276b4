#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A property-list dictionary: its keys and values in document order, in two flat arrays, with
/// a hash index for lookups once it holds more than a few entries.
///
/// Keys are compared by their UTF-8 bytes, as CoreFoundation compares them: two keys that
/// differ only in Unicode normalization (`"é"` precomposed and `"e"` + U+0301) are two keys
/// here, as they are two keys in the file. (Swift's `Dictionary` compares strings by canonical
/// equivalence and would merge them.) Setting a key that is already there replaces its value
/// in place; a new key goes at the end.
///
/// It reads like a `Dictionary` (subscript by `String`, `for (key, value) in`, a literal) and
/// costs about 45 bytes an entry (a 16-byte key, a 24-byte value, about 5 bytes of index)
/// where `[String: PlistValue]` costs about 100: a 100,000-key domain loads in 2.65 times its
/// file size. Equality and hashing ignore the order, as for `Dictionary`.
///
/// ```swift
/// var settings: PlistDictionary = ["name": "Ada", "size": 5]
/// settings["theme"] = "dark"
/// for (key, value) in settings { print(key, value.typeName) }
/// ```
public struct PlistDictionary: Sendable {
  /// The shared storage: replaced by a copy before a change when another value shares it.
  // Not checked for exclusive access at run time: a storage is changed only through its one
  // dictionary, when no other value shares it, so two accesses never overlap (the dynamic
  // checks were two thirds of a lookup's instructions: 550 of a typed read's 1,660).
  final class Storage: @unchecked Sendable {
    @exclusivity(unchecked) var keys: [String]
    @exclusivity(unchecked) var values: [PlistValue]
    /// Open-addressing table (linear probing) of 4-byte slots: each holds `index + 1` in its
    /// low bits, as many as the table's size takes (0 is an empty slot: the load is at most
    /// 4/5, so `index + 1` is below the size), and the key's hash's high bits above them, so a
    /// probe compares keys only when those agree (131,072 slots for 100,000 keys: 17 bits of
    /// index, 15 of hash). Empty while the dictionary is small enough to search in place.
    @exclusivity(unchecked) var slots: [UInt32]

    init(keys: [String], values: [PlistValue], slots: [UInt32]) {
      self.keys = keys
      self.values = values
      self.slots = slots
    }
  }

  var storage: Storage

  /// Up to this many entries a lookup compares keys in place; above it the hash index is kept.
  static let linearLimit = 12

  /// An empty dictionary.
  public init() {
    storage = Storage(keys: [], values: [], slots: [])
  }

  /// An empty dictionary with room for `minimumCapacity` entries.
  public init(minimumCapacity: Int) {
    self.init()
    reserveCapacity(minimumCapacity)
  }

  /// The entries of a Swift dictionary, in the order of their keys' UTF-8 bytes (a
  /// `Dictionary` has no order of its own, and this keeps output deterministic).
  public init(_ dictionary: [String: PlistValue]) {
    var keys: [String] = []
    var values: [PlistValue] = []
    keys.reserveCapacity(dictionary.count)
    values.reserveCapacity(dictionary.count)
    for (key, value) in PlistValue.sortedEntries(dictionary) {
      keys.append(key)
      values.append(value)
    }
    // A Swift dictionary never holds two keys with the same bytes.
    self.init(uncheckedKeys: keys, values: values)
  }

  /// Entries from a sequence of pairs, in its order; a key seen again replaces the value
  /// (the last one wins, as in a property-list file).
  public init<S: Sequence>(_ pairs: S) where S.Element == (String, PlistValue) {
    self.init()
    for (key, value) in pairs { self[key] = value }
  }

  /// Keys and values known to hold no two keys with the same bytes.
  init(uncheckedKeys keys: [String], values: [PlistValue]) {
    storage = Storage(keys: keys, values: values, slots: [])
    if keys.count > Self.linearLimit { storage.slots = Self.buildSlots(keys) }
  }

  /// The number of entries.
  public var count: Int { storage.keys.count }

  /// Whether there are no entries.
  public var isEmpty: Bool { storage.keys.isEmpty }

  /// The keys, in document order.
  public var keys: [String] { storage.keys }

  /// The values, in the order of ``keys``.
  public var values: [PlistValue] { storage.values }

  /// The value under `key` (matched by its bytes), or nil. Setting nil removes the entry.
  public subscript(key: String) -> PlistValue? {
    get {
      guard let i = index(forKey: key) else { return nil }
      return storage.values[i]
    }
    set {
      if let newValue {
        updateValue(newValue, forKey: key)
      } else {
        removeValue(forKey: key)
      }
    }
  }

  /// The value under `key`, or `defaultValue` when there is none.
  public subscript(key: String, default defaultValue: @autoclosure () -> PlistValue) -> PlistValue {
    self[key] ?? defaultValue()
  }

  /// The position of `key` in document order, or nil.
  public func index(forKey key: String) -> Int? {
    if case .found(let i) = Self.probe(key, keys: storage.keys, slots: storage.slots) {
      return i
    }
    return nil
  }

  /// Whether `key` is there (matched by its bytes).
  public func contains(key: String) -> Bool { index(forKey: key) != nil }

  /// Sets `value` under `key`: in place when the key is there, at the end when it is new.
  /// Returns the value it replaced.
  @discardableResult
  public mutating func updateValue(_ value: PlistValue, forKey key: String) -> PlistValue? {
    makeUnique()
    switch Self.probe(key, keys: storage.keys, slots: storage.slots) {
    case .found(let i):
      let old = storage.values[i]
      storage.values[i] = value
      return old
    case .vacant(let slot):
      storage.keys.append(key)
      storage.values.append(value)
      Self.place(storage.keys, in: &storage.slots, vacant: slot)
      return nil
    }
  }

  /// Removes `key` and returns its value; the other entries keep their order.
  @discardableResult
  public mutating func removeValue(forKey key: String) -> PlistValue? {
    guard let i = index(forKey: key) else { return nil }
    makeUnique()
    storage.keys.remove(at: i)
    let old = storage.values.remove(at: i)
    storage.slots =
      storage.keys.count > Self.linearLimit ? Self.buildSlots(storage.keys) : []
    return old
  }

  /// Removes every entry.
  public mutating func removeAll() { self = PlistDictionary() }

  /// Makes room for `minimumCapacity` entries.
  public mutating func reserveCapacity(_ minimumCapacity: Int) {
    makeUnique()
    storage.keys.reserveCapacity(minimumCapacity)
    storage.values.reserveCapacity(minimumCapacity)
    // The index sized once for the capacity: a reader that knows the count builds it once.
    if minimumCapacity > Self.linearLimit, storage.slots.count * 4 < minimumCapacity * 5 {
      storage.slots = Self.buildSlots(storage.keys, room: minimumCapacity)
    }
  }

  /// The same keys, in the same order, with each value transformed.
  public func mapValues(_ transform: (PlistValue) throws -> PlistValue) rethrows
    -> PlistDictionary
  {
    var result = self
    result.makeUnique()
    result.storage.values = try storage.values.map(transform)
    return result
  }

  /// The entries `isIncluded` keeps, in their order.
  public func filter(_ isIncluded: ((key: String, value: PlistValue)) throws -> Bool) rethrows
    -> PlistDictionary
  {
    var keys: [String] = []
    var values: [PlistValue] = []
    for i in storage.keys.indices where try isIncluded((storage.keys[i], storage.values[i])) {
      keys.append(storage.keys[i])
      values.append(storage.values[i])
    }
    return PlistDictionary(uncheckedKeys: keys, values: values)
  }

  /// Adds the entries of `other`; for a key in both, `combine` gives the value.
  public mutating func merge(
    _ other: PlistDictionary,
    uniquingKeysWith combine: (PlistValue, PlistValue) throws -> PlistValue
  ) rethrows {
    for (key, value) in other {
      if let existing = self[key] {
        self[key] = try combine(existing, value)
      } else {
        self[key] = value
      }
    }
  }

  /// This dictionary with the entries of `other` added; for a key in both, `combine` gives
  /// the value.
  public func merging(
    _ other: PlistDictionary,
    uniquingKeysWith combine: (PlistValue, PlistValue) throws -> PlistValue
  ) rethrows -> PlistDictionary {
    var result = self
    try result.merge(other, uniquingKeysWith: combine)
    return result
  }

  /// A Swift dictionary of the same entries. Keys that differ only in Unicode normalization
  /// become one (the later one's value), as Swift compares strings.
  public var swiftDictionary: [String: PlistValue] {
    var result: [String: PlistValue] = [:]
    result.reserveCapacity(count)
    for i in storage.keys.indices { result[storage.keys[i]] = storage.values[i] }
    return result
  }

  /// The first two keys that differ only in Unicode normalization (two keys here, one key in
  /// a Swift dictionary), or nil.
  public var indistinctKeys: (String, String)? {
    guard keys.contains(where: { !PlistDictionary.isASCII($0) }) else { return nil }
    var seen: [String: String] = [:]
    for key in keys {
      if let earlier = seen[key] { return (earlier, key) }
      seen[key] = key
    }
    return nil
  }

  /// Whether the keys are already in the order writers use (by their UTF-8 bytes).
  package var isSortedByKey: Bool {
    let keys = storage.keys
    guard keys.count > 1 else { return true }
    for i in 1..<keys.count where !PlistValue.utf8Precedes(keys[i - 1], keys[i]) { return false }
    return true
  }

  /// Calls `body` with each entry in the order every writer uses: by the keys' UTF-8 bytes.
  /// A dictionary read from a file written by prefs, plistlib or CoreFoundation is usually in
  /// that order already, and is then not sorted again.
  package func forEachSortedByKey<E: Error>(_ body: (String, PlistValue) throws(E) -> Void)
    throws(E)
  {
    let keys = storage.keys
    let values = storage.values
    if isSortedByKey {
      for i in keys.indices { try body(keys[i], values[i]) }
      return
    }
    for i in PlistValue.sortedOrder(keys) { try body(keys[i], values[i]) }
  }

  /// Calls `body` with each entry in the order of the keys' UTF-16 code units, the order
  /// CoreFoundation's XML writer uses (`CFStringCompare` without options). It is the UTF-8
  /// byte order except that characters U+E000...U+FFFF sort after those above U+FFFF (their
  /// UTF-16 code units, surrogates, are D800...DFFF), so a dictionary in byte order is in this
  /// order too unless a key has a character from both ranges' leading bytes (EE or EF, and F0
  /// to F4).
  package func forEachInUTF16Order<E: Error>(_ body: (String, PlistValue) throws(E) -> Void)
    throws(E)
  {
    let keys = storage.keys
    let values = storage.values
    if isSortedByKey, !keys.contains(where: PlistValue.hasHighLeadByte) {
      for i in keys.indices { try body(keys[i], values[i]) }
      return
    }
    for i in PlistValue.sortedOrder(keys, utf16: true) { try body(keys[i], values[i]) }
  }

  /// The entries in the order every writer uses: by their keys' UTF-8 bytes.
  public var sortedByKey: [(key: String, value: PlistValue)] {
    var result: [(key: String, value: PlistValue)] = []
    result.reserveCapacity(count)
    forEachSortedByKey { key, value in result.append((key, value)) }
    return result
  }

  // MARK: - Storage

  mutating func makeUnique() {
    if !isKnownUniquelyReferenced(&storage) {
      storage = Storage(keys: storage.keys, values: storage.values, slots: storage.slots)
    }
  }

  enum Probe {
    case found(Int)
    /// Not there: the slot a new key takes (its hash's tag included), or nil while the
    /// dictionary has no index.
    case vacant(slot: (index: Int, tag: UInt32)?)
  }

  /// Finds `key` by its bytes: in place while there is no index, else by one probe of the
  /// index (the hash's high bits in each slot spare most key comparisons).
  @inline(__always)
  static func probe(_ key: String, keys: [String], slots: [UInt32]) -> Probe {
    if slots.isEmpty {
      for i in keys.indices where sameBytes(keys[i], key) { return .found(i) }
      return .vacant(slot: nil)
    }
    let mask = slots.count - 1
    let entryMask = UInt32(truncatingIfNeeded: mask)
    let hash = hash(key)
    let tag = tag(hash, entryMask: entryMask)
    var slot = hash & mask
    while true {
      let packed = slots[slot]
      if packed == 0 { return .vacant(slot: (slot, tag)) }
      if packed & ~entryMask == tag {
        let entry = Int(packed & entryMask) - 1
        if sameBytes(keys[entry], key) { return .found(entry) }
      }
      slot = (slot + 1) & mask
    }
  }

  /// Indexes the key just appended to `keys`, in the slot the probe found for it, or builds
  /// the index when the dictionary has outgrown in-place search or the index its load.
  @inline(__always)
  static func place(_ keys: [String], in slots: inout [UInt32], vacant: (index: Int, tag: UInt32)?)
  {
    let count = keys.count
    if let vacant, count * 5 <= slots.count * 4 {
      slots[vacant.index] = vacant.tag | UInt32(truncatingIfNeeded: count)
    } else if !slots.isEmpty || count > linearLimit {
      slots = buildSlots(keys, room: count)
    }
  }

  /// The key's bytes hashed with the process's random seed (a hostile file cannot pick
  /// colliding keys).
  @inline(__always)
  static func hash(_ key: String) -> Int {
    var hasher = Hasher()
    hasher.combineUTF8(of: key)
    return hasher.finalize()
  }

  @inline(__always)
  static func isASCII(_ key: String) -> Bool {
    let fast = ByteView.with(utf8: key.utf8) { bytes -> Bool in
      var any: UInt8 = 0
      for byte in bytes { any |= byte }
      return any < 0x80
    }
    return fast ?? key.utf8.allSatisfy { $0 < 0x80 }
  }

  /// Whether two keys have the same UTF-8 bytes.
  @inline(__always)
  static func sameBytes(_ a: String, _ b: String) -> Bool {
    if let same = ByteView.sameUTF8(a, b) { return same }
    return a.utf8.elementsEqual(b.utf8)
  }

  /// An index of `keys` with room for `room` keys (at least `keys.count`) at a load of at
  /// most 4/5: 100,000 keys take 131,072 slots of 4 bytes.
  static func buildSlots(_ keys: [String], room: Int = 0) -> [UInt32] {
    let wanted = Swift.max(room, keys.count)
    var capacity = 16
    while capacity * 4 < wanted * 5 + 4 { capacity *= 2 }
    // A slot holds `index + 1` below the table's size in 32 bits: 3.4 billion entries at
    // most (their keys alone would take 55 GB).
    precondition(UInt64(capacity) <= 1 << 32, "PlistDictionary: more than 3.4 billion entries")
    var slots = [UInt32](repeating: 0, count: capacity)
    for i in keys.indices { insert(i, key: keys[i], into: &slots) }
    return slots
  }

  @inline(__always)
  static func insert(_ index: Int, key: String, into slots: inout [UInt32]) {
    let mask = slots.count - 1
    let hash = hash(key)
    var slot = hash & mask
    while slots[slot] != 0 { slot = (slot + 1) & mask }
    slots[slot] =
      tag(hash, entryMask: UInt32(truncatingIfNeeded: mask)) | UInt32(truncatingIfNeeded: index + 1)
  }

  /// The hash's high 32 bits without those a slot of a table of this size uses for the
  /// entry (`entryMask`: the size minus one), where a slot keeps them.
  @inline(__always)
  static func tag(_ hash: Int, entryMask: UInt32) -> UInt32 {
    UInt32(truncatingIfNeeded: UInt(bitPattern: hash) >> 32) & ~entryMask
  }
}

extension PlistDictionary: RandomAccessCollection {
  public typealias Element = (key: String, value: PlistValue)
  public var startIndex: Int { 0 }
  public var endIndex: Int { storage.keys.count }
  public subscript(position: Int) -> Element { (storage.keys[position], storage.values[position]) }
}

extension PlistDictionary: ExpressibleByDictionaryLiteral {
  /// The literal's entries in its order; a repeated key keeps the last value.
  public init(dictionaryLiteral elements: (String, PlistValue)...) {
    self.init(elements)
  }
}

extension PlistDictionary: Equatable {
  /// The same keys (by bytes) with equal values, in any order.
  public static func == (lhs: PlistDictionary, rhs: PlistDictionary) -> Bool {
    if lhs.storage === rhs.storage { return true }
    guard lhs.count == rhs.count else { return false }
    for (key, value) in lhs {
      guard let other = rhs[key], other == value else { return false }
    }
    return true
  }
}

extension PlistDictionary: Hashable {
  public func hash(into hasher: inout Hasher) {
    // Order-independent, as `==` is: the entries' own hashes combined commutatively.
    var combined = 0
    for (key, value) in self {
      var entry = Hasher()
      entry.combine(PlistDictionary.hash(key))
      entry.combine(value)
      combined ^= entry.finalize()
    }
    hasher.combine(count)
    hasher.combine(combined)
  }
}

extension PlistDictionary: CustomStringConvertible {
  public var description: String {
    "[" + map { "\(PropertyList.jsonString($0.key)): \($0.value)" }.joined(separator: ", ") + "]"
  }
}

extension PlistDictionary {
  /// Builds a dictionary as the readers do, reporting what CoreFoundation would report. It
  /// keeps its arrays itself (not in a shared storage) so that a reader's many inserts pay no
  /// uniqueness or exclusivity checks.
  package struct Builder {
    var keys: [String] = []
    var values: [PlistValue] = []
    var slots: [UInt32] = []
    /// Every key so far under Swift's comparison (canonical equivalence), to find two keys
    /// that only Unicode normalization tells apart: made at the first key that is not ASCII
    /// (two different ASCII keys are never such a pair, and most dictionaries have only those).
    var canonical: [String: String]?

    package init(minimumCapacity: Int = 0) {
      guard minimumCapacity > 0 else { return }
      keys.reserveCapacity(minimumCapacity)
      values.reserveCapacity(minimumCapacity)
      if minimumCapacity > PlistDictionary.linearLimit {
        slots = PlistDictionary.buildSlots([], room: minimumCapacity)
      }
    }

    /// A reader's entries in document order, built as storing each in turn would build them
    /// (``store(_:forKey:at:keepingFirst:)``: the last value of a repeated key wins, with the
    /// warnings, appended to `warnings`, that it gives). When every key is ASCII and none
    /// repeats (most dictionaries) the arrays become the dictionary's own, with no copy: a
    /// 100,000-key dictionary's entries were otherwise written twice into fresh memory.
    package static func dictionary(
      keys: [String], values: [PlistValue], at place: (Int) -> SourceLocation,
      warnings: inout [PlistWarning]
    ) -> PlistDictionary {
      precondition(keys.count == values.count, "PlistDictionary.Builder: one value per key")
      var slots =
        keys.count > PlistDictionary.linearLimit
        ? PlistDictionary.buildSlots([], room: keys.count) : []
      var plain = true
      for i in keys.indices {
        guard PlistDictionary.isASCII(keys[i]) else {
          plain = false
          break
        }
        if slots.isEmpty {
          if keys[..<i].contains(where: { PlistDictionary.sameBytes($0, keys[i]) }) {
            plain = false
            break
          }
        } else {
          guard case .vacant(let vacant?) = PlistDictionary.probe(keys[i], keys: keys, slots: slots)
          else {
            plain = false
            break
          }
          slots[vacant.index] = vacant.tag | UInt32(truncatingIfNeeded: i + 1)
        }
      }
      if plain {
        var result = PlistDictionary()
        result.storage = Storage(keys: keys, values: values, slots: slots)
        return result
      }
      var builder = Builder(minimumCapacity: keys.count)
      for i in keys.indices {
        if let warning = builder.store(values[i], forKey: keys[i], at: place(i)) {
          warnings.append(warning)
        }
      }
      return builder.dictionary
    }

    /// The dictionary built.
    package var dictionary: PlistDictionary {
      var result = PlistDictionary()
      result.storage = Storage(keys: keys, values: values, slots: slots)
      return result
    }

    /// Stores `value` under `key`; when the key is there already (same bytes), the last value
    /// wins as in CoreFoundation and the warning says so. A key equal to an earlier one only
    /// under Unicode normalization is kept as its own key, with a warning naming both.
    /// `keepingFirst`: the first value stays instead (CoreFoundation's binary reader).
    package mutating func store(
      _ value: PlistValue, forKey key: String, at place: @autoclosure () -> SourceLocation,
      keepingFirst: Bool = false
    ) -> PlistWarning? {
      if let existing = insert(value, forKey: key) {
        guard !keepingFirst else { return .duplicateKeyFirstKept(key, at: place()) }
        values[existing] = value
        return .duplicateKey(key, at: place())
      }
      if canonical == nil {
        guard !PlistDictionary.isASCII(key) else { return nil }
        var seen: [String: String] = [:]
        for earlier in keys.dropLast() { seen[earlier] = earlier }
        canonical = seen
      }
      if let earlier = canonical?[key] {
        return .indistinctKeys(earlier, key, at: place())
      }
      canonical?[key] = key
      return nil
    }

    /// Appends a new key, or returns the position of the key with the same bytes.
    private mutating func insert(_ value: PlistValue, forKey key: String) -> Int? {
      switch PlistDictionary.probe(key, keys: keys, slots: slots) {
      case .found(let i):
        return i
      case .vacant(let slot):
        keys.append(key)
        values.append(value)
        PlistDictionary.place(keys, in: &slots, vacant: slot)
        return nil
      }
    }
  }
}
