import LegacyDefaults
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A JSON document, parsed strictly (RFC 8259) with integers kept apart from reals so that
/// 64-bit integers survive. Used for plan files and for legacy values holding JSON.
package enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case integer(Int64)
  /// An integer above Int64.max.
  case unsigned(UInt64)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  package struct ParseError: Error, CustomStringConvertible {
    var offset: Int
    var reason: String
    package var description: String { "\(reason) at byte \(offset)" }
  }

  /// `exactIntegers`: an integer beyond 64 bits (no fraction, no exponent) is refused rather
  /// than read as the nearest real, for documents whose integers must stay integers (typed
  /// JSON).
  package static func parse(_ data: Data, exactIntegers: Bool = false) throws(ParseError)
    -> JSONValue
  {
    var parser = Parser(bytes: [UInt8](data), exactIntegers: exactIntegers)
    let value = try parser.value(depth: 0)
    parser.skipSpace()
    guard parser.i == parser.bytes.count else {
      throw ParseError(offset: parser.i, reason: "content after the JSON value")
    }
    return value
  }

  /// The value as a property list: `null` members of objects are left out; `null` anywhere
  /// else makes it unrepresentable (nil).
  package var plistValue: PlistValue? {
    if let scalar = plistScalar { return scalar }
    switch self {
    case .array(let list):
      var elements: [PlistValue] = []
      for element in list {
        guard let value = element.plistValue else { return nil }
        elements.append(value)
      }
      return .array(elements)
    case .object(let object):
      var dictionary = PlistDictionary()
      for (key, element) in object {
        if case .null = element { continue }
        guard let value = element.plistValue else { return nil }
        dictionary[key] = value
      }
      return .dictionary(dictionary)
    default:  // null
      return nil
    }
  }

  /// A boolean, a number or a string as the property-list value it is (a number as JSON
  /// holds it: an integer, an unsigned integer above Int64.max, a real); nil for `null`, an
  /// array and an object.
  package var plistScalar: PlistValue? {
    switch self {
    case .bool(let b): .bool(b)
    case .integer(let i): .integer(i)
    case .unsigned(let u): .unsignedInteger(u)
    case .number(let d): .real(d)
    case .string(let s): .string(s)
    case .null, .array, .object: nil
    }
  }

  /// A property-list value as JSON shows it to a person: data as base64, dates as ISO 8601,
  /// UIDs as `{"CF$UID": n}`; a non-finite real is refused (JSON has no such number).
  package init(displaying value: PlistValue) throws(PlistError) {
    switch value {
    case .string(let s): self = .string(s)
    case .integer(let i): self = .integer(i)
    case .unsignedInteger(let u): self = .unsigned(u)
    case .real(let d):
      guard d.isFinite else {
        throw .unrepresentableInJSON(keyPath: "", reason: "JSON has no number \(d)")
      }
      self = .number(d)
    case .bool(let b): self = .bool(b)
    case .date(let d): self = .string(PropertyList.iso8601(d))
    case .data(let d): self = .string(d.base64EncodedString())
    case .uid(let u): self = .object(["CF$UID": .unsigned(u)])
    case .array(let a):
      var list: [JSONValue] = []
      for element in a { list.append(try JSONValue(displaying: element)) }
      self = .array(list)
    case .dictionary(let d):
      var object: [String: JSONValue] = [:]
      for (key, element) in d { object[key] = try JSONValue(displaying: element) }
      self = .object(object)
    }
  }

  /// The JSON text, written by the one JSON writer (`JSONWriter`, in PropertyList): keys
  /// sorted by their UTF-8 bytes, two-space indentation (or none when `compact`), so equal
  /// values print alike, and as `read --json` prints the same value.
  package func text(compact: Bool = false) -> String {
    var writer = JSONWriter(compact: compact)
    write(to: &writer)
    return writer.text
  }

  /// An object's JSON text, as ``text(compact:)`` writes one, from members whose keys are
  /// compared by their bytes (two keys that differ only in Unicode normalization are two
  /// members, where an ``object(_:)`` would hold one).
  package static func objectText(_ members: PlistDictionaryLike, compact: Bool = false)
    -> String
  {
    var values: [DomainKey: JSONValue] = [:]
    for (key, value) in members { values[DomainKey(key)] = value }
    var writer = JSONWriter(compact: compact)
    writer.object(keys: members.map(\.0)) { values[DomainKey($1)]?.write(to: &$0) }
    return writer.text
  }

  /// Members of an object, in any order, keys by their bytes.
  package typealias PlistDictionaryLike = [(String, JSONValue)]

  private func write(to writer: inout JSONWriter) {
    switch self {
    case .null: writer.null()
    case .bool(let b): writer.bool(b)
    case .integer(let i): writer.integer(i)
    case .unsigned(let u): writer.unsigned(u)
    case .number(let d): writer.number(d)
    case .string(let s): writer.string(s)
    case .array(let list): writer.array(count: list.count) { list[$1].write(to: &$0) }
    case .object(let object):
      writer.object(keys: Array(object.keys)) { object[$1]?.write(to: &$0) }
    }
  }

  var summary: String {
    switch self {
    case .null: "null"
    case .bool(let b): String(b)
    case .integer(let i): String(i)
    case .unsigned(let u): String(u)
    case .number(let d): String(d)
    case .string(let s): "\"\(s)\""
    case .array: "an array"
    case .object: "an object"
    }
  }

  private struct Parser {
    let bytes: [UInt8]
    var exactIntegers = false
    var i = 0

    mutating func skipSpace() {
      while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
    }

    func fail(_ reason: String) -> ParseError { ParseError(offset: i, reason: reason) }

    mutating func literal(_ word: String, _ value: JSONValue) throws(ParseError) -> JSONValue {
      let utf8 = Array(word.utf8)
      guard i + utf8.count <= bytes.count, Array(bytes[i..<(i + utf8.count)]) == utf8 else {
        throw fail("unexpected text")
      }
      i += utf8.count
      return value
    }

    mutating func value(depth: Int) throws(ParseError) -> JSONValue {
      guard depth < 512 else { throw fail("nested deeper than 512") }
      skipSpace()
      guard i < bytes.count else { throw fail("unexpected end") }
      switch bytes[i] {
      case UInt8(ascii: "n"): return try literal("null", .null)
      case UInt8(ascii: "t"): return try literal("true", .bool(true))
      case UInt8(ascii: "f"): return try literal("false", .bool(false))
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "["):
        i += 1
        var list: [JSONValue] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
          i += 1
          return .array(list)
        }
        while true {
          list.append(try value(depth: depth + 1))
          skipSpace()
          guard i < bytes.count else { throw fail("unexpected end in an array") }
          if bytes[i] == UInt8(ascii: "]") {
            i += 1
            return .array(list)
          }
          guard bytes[i] == UInt8(ascii: ",") else { throw fail("expected , or ]") }
          i += 1
        }
      case UInt8(ascii: "{"):
        i += 1
        var object: [String: JSONValue] = [:]
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
          i += 1
          return .object(object)
        }
        while true {
          skipSpace()
          guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
            throw fail("expected a member name")
          }
          let key = try string()
          skipSpace()
          guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected :") }
          i += 1
          guard object.updateValue(try value(depth: depth + 1), forKey: key) == nil else {
            throw fail("the member \"\(key)\" appears twice")
          }
          skipSpace()
          guard i < bytes.count else { throw fail("unexpected end in an object") }
          if bytes[i] == UInt8(ascii: "}") {
            i += 1
            return .object(object)
          }
          guard bytes[i] == UInt8(ascii: ",") else { throw fail("expected , or }") }
          i += 1
        }
      default:
        return try number()
      }
    }

    mutating func number() throws(ParseError) -> JSONValue {
      let start = i
      var isInteger = true
      if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
      let digitsStart = i
      while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }
      guard i > digitsStart else { throw fail("unexpected character") }
      if bytes[digitsStart] == 0x30, i - digitsStart > 1 { throw fail("a leading zero") }
      if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
        isInteger = false
        i += 1
        let fraction = i
        while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }
        guard i > fraction else { throw fail("digits expected after .") }
      }
      if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
        isInteger = false
        i += 1
        if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
          i += 1
        }
        let exponent = i
        while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }
        guard i > exponent else { throw fail("digits expected in the exponent") }
      }
      let text = String(decoding: bytes[start..<i], as: UTF8.self)
      if isInteger, let integer = Int64(text) { return .integer(integer) }
      if isInteger, let unsigned = UInt64(text) { return .unsigned(unsigned) }
      if isInteger, exactIntegers {
        throw ParseError(offset: start, reason: "an integer beyond 64 bits")
      }
      guard let double = Double(text) else { throw fail("not a number") }
      // `1e999` parses as infinity, which no JSON (nor a plan's default) can hold.
      guard double.isFinite else { throw ParseError(offset: start, reason: "a number too large") }
      return .number(double)
    }

    mutating func string() throws(ParseError) -> String {
      i += 1
      var units: [UInt16] = []
      var runStart = i
      // JSON text is UTF-8 (RFC 8259): bytes that are not are refused, never replaced by
      // U+FFFD (a plan's key would silently match nothing).
      func flush(_ end: Int, _ units: inout [UInt16]) throws(ParseError) {
        guard let run = String(validating: bytes[runStart..<end], as: UTF8.self) else {
          throw ParseError(offset: runStart, reason: "a string that is not UTF-8")
        }
        units.append(contentsOf: run.utf16)
      }
      while true {
        guard i < bytes.count else { throw fail("unterminated string") }
        let c = bytes[i]
        if c == UInt8(ascii: "\"") {
          try flush(i, &units)
          i += 1
          guard let text = TextInput.string(fromUTF16: units) else {
            throw fail("an unpaired surrogate escape")
          }
          return text
        }
        if c < 0x20 { throw fail("a control character in a string") }
        guard c == UInt8(ascii: "\\") else {
          i += 1
          continue
        }
        try flush(i, &units)
        i += 1
        guard i < bytes.count else { throw fail("unterminated escape") }
        let e = bytes[i]
        i += 1
        switch e {
        case UInt8(ascii: "\""): units.append(0x22)
        case UInt8(ascii: "\\"): units.append(0x5C)
        case UInt8(ascii: "/"): units.append(0x2F)
        case UInt8(ascii: "b"): units.append(0x08)
        case UInt8(ascii: "f"): units.append(0x0C)
        case UInt8(ascii: "n"): units.append(0x0A)
        case UInt8(ascii: "r"): units.append(0x0D)
        case UInt8(ascii: "t"): units.append(0x09)
        case UInt8(ascii: "u"):
          guard i + 4 <= bytes.count,
            let unit = UInt16(String(decoding: bytes[i..<(i + 4)], as: UTF8.self), radix: 16)
          else { throw fail("a bad \\u escape") }
          units.append(unit)
          i += 4
        default: throw fail("a bad escape")
        }
        runStart = i
      }
    }
  }
}
