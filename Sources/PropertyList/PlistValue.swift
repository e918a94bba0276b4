#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One property-list value: the single intermediate model every reader builds and every writer
/// consumes. Everything above the property-list layer works on this type, never on `Any`.
///
/// Integers keep the full 64-bit range of both signs: values in `Int64` are `.integer`, values
/// above `Int64.max` (up to `UInt64.max`) are `.unsignedInteger`. Use ``PlistValue/int(_:)`` to
/// build an integer from any width; it picks the right case. Equality treats the two integer
/// cases numerically, so `.unsignedInteger(5) == .integer(5)`.
public enum PlistValue: Sendable {
  case string(String)
  case integer(Int64)
  case unsignedInteger(UInt64)
  case real(Double)
  case bool(Bool)
  case date(Date)
  case data(Data)
  case array([PlistValue])
  case dictionary(PlistDictionary)
  /// A keyed-archiver object reference (binary plists only; XML writes it as a `CF$UID` dict).
  case uid(UInt64)

  /// A dictionary of a Swift dictionary's entries, in the order of their keys' bytes.
  public static func dictionary(_ values: [String: PlistValue]) -> PlistValue {
    .dictionary(PlistDictionary(values))
  }

  /// An integer of any width, in the case that holds it.
  public static func int<T: BinaryInteger>(_ value: T) -> PlistValue {
    if let signed = Int64(exactly: value) { return .integer(signed) }
    if let unsigned = UInt64(exactly: value) { return .unsignedInteger(unsigned) }
    // Wider than 64 bits: clamp (only reachable from code, readers refuse such integers).
    return value < 0 ? .integer(.min) : .unsignedInteger(.max)
  }

  /// Why a UID above 32 bits is refused by the writers: CoreFoundation's keyed-archiver UIDs
  /// are 32 bits, and it refuses (binary) or cuts (XML) a wider one.
  package static func wideUIDReason(_ value: UInt64) -> String {
    "the UID \(value) is wider than 32 bits, which CoreFoundation refuses in a binary file "
      + "and reads as another UID from XML"
  }

  /// The name of the value's type as users see it in messages (`string`, `integer`, ...).
  public var typeName: String {
    switch self {
    case .string: "string"
    case .integer, .unsignedInteger: "integer"
    case .real: "real"
    case .bool: "bool"
    case .date: "date"
    case .data: "data"
    case .array: "array"
    case .dictionary: "dictionary"
    case .uid: "uid"
    }
  }

  /// Whether the value is a scalar a number or string getter can read (string, integer, real,
  /// bool), as opposed to a container, data or a date.
  public var isScalar: Bool {
    switch self {
    case .string, .integer, .unsignedInteger, .real, .bool: true
    default: false
    }
  }

  /// Whether the value is an integer (signed or above Int64.max).
  public var isInteger: Bool {
    switch self {
    case .integer, .unsignedInteger: true
    default: false
    }
  }

  /// The date, if the value is one.
  public var dateValue: Date? {
    if case .date(let d) = self { return d }
    return nil
  }

  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  public var arrayValue: [PlistValue]? {
    if case .array(let a) = self { return a }
    return nil
  }

  public var dictionaryValue: PlistDictionary? {
    if case .dictionary(let d) = self { return d }
    return nil
  }

  /// A dictionary's entries in the order every writer uses: by the keys' UTF-8 bytes, which
  /// is stable across platforms and Unicode versions.
  package static func sortedEntries(_ dictionary: [String: PlistValue]) -> [(
    key: String, value: PlistValue
  )] {
    let entries = Array(dictionary)
    return sortedOrder(entries.map(\.key)).map { entries[$0] }
  }

  /// The positions of `keys` in the order of their UTF-8 bytes, or (`utf16`) of their UTF-16
  /// code units: the same bytes with the leading bytes EE and EF (U+E000...U+FFFF) sorting
  /// above F0...F4 (characters above U+FFFF, surrogate pairs in UTF-16).
  static func sortedOrder(_ keys: [String], utf16: Bool = false) -> [Int] {
    guard keys.count > 1 else { return Array(keys.indices) }
    // Sort on the first 16 bytes of each key held as two integers (zero-padded, which keeps
    // the byte order), and compare whole keys only on a tie: far fewer string comparisons.
    struct SortKey {
      var high: UInt64
      var low: UInt64
      var index: Int
    }
    var order: [SortKey] = []
    order.reserveCapacity(keys.count)
    for (index, key) in keys.enumerated() {
      var high: UInt64 = 0
      var low: UInt64 = 0
      var n = 0
      for raw in key.utf8 {
        let byte = utf16 ? utf16SortByte(raw) : raw
        if n < 8 {
          high |= UInt64(byte) << (56 - 8 * UInt64(n))
        } else if n < 16 {
          low |= UInt64(byte) << (56 - 8 * UInt64(n - 8))
        } else {
          break
        }
        n += 1
      }
      order.append(SortKey(high: high, low: low, index: index))
    }
    order.sort { a, b in
      if a.high != b.high { return a.high < b.high }
      if a.low != b.low { return a.low < b.low }
      return utf16
        ? utf16Precedes(keys[a.index], keys[b.index])
        : utf8Precedes(keys[a.index], keys[b.index])
    }
    return order.map(\.index)
  }

  /// A UTF-8 byte mapped so that byte order is UTF-16 order: EE and EF (which lead only
  /// U+E000...U+FFFF, and never continue a character) move above F0...F4.
  @inline(__always)
  static func utf16SortByte(_ byte: UInt8) -> UInt8 {
    byte == 0xEE || byte == 0xEF ? byte &+ 0x10 : byte
  }

  /// Whether `key` has a character U+E000 or above (a UTF-8 byte EE or above), the only ones
  /// whose UTF-8 and UTF-16 orders differ.
  static func hasHighLeadByte(_ key: String) -> Bool {
    let utf8 = key.utf8
    if let found = ByteView.with(
      utf8: utf8,
      { bytes -> Bool in
        var high: UInt8 = 0
        for byte in bytes { high = Swift.max(high, byte) }
        return high >= 0xEE
      })
    {
      return found
    }
    return utf8.contains { $0 >= 0xEE }
  }

  /// Whether `a` sorts before `b` by their UTF-16 code units (CoreFoundation's
  /// `CFStringCompare` without options).
  static func utf16Precedes(_ a: String, _ b: String) -> Bool {
    var x = a.utf8.makeIterator()
    var y = b.utf8.makeIterator()
    while true {
      switch (x.next(), y.next()) {
      case (nil, nil): return false
      case (nil, _): return true
      case (_, nil): return false
      case (let p?, let q?):
        if p != q { return utf16SortByte(p) < utf16SortByte(q) }
      }
    }
  }

  /// Whether `a` sorts before `b` by UTF-8 bytes (a memcmp on native strings).
  @inline(__always)
  package static func utf8Precedes(_ a: String, _ b: String) -> Bool {
    if let order = ByteView.compareUTF8(a, b) { return order < 0 }
    return a.utf8.lexicographicallyPrecedes(b.utf8)
  }

  /// The value under `key` when this is a dictionary.
  public subscript(key: String) -> PlistValue? {
    if case .dictionary(let d) = self { return d[key] }
    return nil
  }
}

extension PlistValue: Equatable {
  public static func == (lhs: PlistValue, rhs: PlistValue) -> Bool {
    switch (lhs, rhs) {
    case (.string(let a), .string(let b)): return a == b
    case (.integer(let a), .integer(let b)): return a == b
    case (.unsignedInteger(let a), .unsignedInteger(let b)): return a == b
    case (.integer(let a), .unsignedInteger(let b)), (.unsignedInteger(let b), .integer(let a)):
      return a >= 0 && UInt64(a) == b
    case (.real(let a), .real(let b)):
      // Bitwise-identical NaNs compare equal so that values round-trip as equal.
      return a == b || (a.isNaN && b.isNaN)
    case (.bool(let a), .bool(let b)): return a == b
    case (.date(let a), .date(let b)): return a == b
    case (.data(let a), .data(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.dictionary(let a), .dictionary(let b)): return a == b
    case (.uid(let a), .uid(let b)): return a == b
    default: return false
    }
  }
}

extension PlistValue: Hashable {
  public func hash(into hasher: inout Hasher) {
    // The case's tag, then its payload. An integer and an unsigned integer that are equal
    // (see `==`) share a tag and hash the same payload.
    func combine(_ tag: Int, _ payload: some Hashable) {
      hasher.combine(tag)
      hasher.combine(payload)
    }
    switch self {
    case .string(let s): combine(0, s)
    case .integer(let i): if i >= 0 { combine(1, UInt64(i)) } else { combine(1, i) }
    case .unsignedInteger(let u): combine(1, u)
    case .real(let d): combine(2, d.isNaN ? Double.nan : d)
    case .bool(let b): combine(3, b)
    case .date(let d): combine(4, d)
    case .data(let d): combine(5, d)
    case .array(let a): combine(6, a)
    case .dictionary(let d): combine(7, d)
    case .uid(let u): combine(8, u)
    }
  }
}

extension PlistValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int64) { self = .integer(value) }
  public init(floatLiteral value: Double) { self = .real(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(arrayLiteral elements: PlistValue...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, PlistValue)...) {
    self = .dictionary(PlistDictionary(elements))
  }
}
