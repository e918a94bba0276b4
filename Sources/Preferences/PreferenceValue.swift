import LegacyDefaults
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A type a preference key can hold: how it is stored as a property-list value and read back.
///
/// Conformances exist for `Bool`, every integer width, `Double`, `Float`, `String`, `Date`,
/// `Data`, `URL`, `UUID`, `Optional`, arrays and string-keyed dictionaries of values, enums
/// with `String` or `Int` raw values (declare `enum Mode: String, PreferenceValue`), and
/// `Codable` types (declare `struct Place: Codable, CodablePreference`), which are stored as
/// native property-list structures.
public protocol PreferenceValue: Sendable {
  /// The stored form; nil stores nothing (the key is removed).
  func plistValue() throws(PreferenceError) -> PlistValue?
  /// The value from its stored form.
  static func decode(_ stored: PlistValue) throws(DecodeFailure) -> Self
}

extension Bool: PreferenceValue {
  public func plistValue() -> PlistValue? { .bool(self) }
  public static func decode(_ stored: PlistValue) throws(DecodeFailure) -> Bool {
    guard case .bool(let b) = stored else { throw .wrongType(expected: "a bool") }
    return b
  }
}

extension String: PreferenceValue {
  public func plistValue() -> PlistValue? { .string(self) }
  public static func decode(_ stored: PlistValue) throws(DecodeFailure) -> String {
    guard case .string(let s) = stored else { throw .wrongType(expected: "a string") }
    return s
  }
}

extension Double: PreferenceValue {
  public func plistValue() -> PlistValue? { .real(self) }
  public static func decode(_ stored: PlistValue) throws(DecodeFailure) -> Double {
    switch stored {
    case .real(let d): return d
    case .integer(let i): return Double(i)
    case .unsignedInteger(let u): return Double(u)
    default: throw .wrongType(expected: "a number")
    }
  }
}

extension Float: PreferenceValue {
  public func plistValue() -> PlistValue? { .real(Double(self)) }
  public static func decode(_ stored: PlistValue) throws(DecodeFailure) -> Float {
    Float(try Double.decode(stored))
  }
}

/// Integers of every width: stored as integers, read back only when the stored integer fits.
public protocol PreferenceInteger: FixedWidthInteger, PreferenceValue {}

extension PreferenceInteger {
  public func plistValue() -> PlistValue? { .int(self) }
  public static func decode(_ stored: PlistValue) throws(DecodeFailure) -> Self {
    let result: Self?
    switch stored {
    case .integer(let i): result = Self(exactly: i)
    case .unsignedInteger(let u): result = Self(exactly: u)
    default: throw .wrongType(expected: "an integer")
    }
    guard let result else {
      throw .invalid("\(PropertyList.describe(stored)) does not fit in \(Self.self)")
    }
    return result
  }
}

extension Int: PreferenceInteger {}
extension Int8: PreferenceInteger {}
extension Int16: PreferenceInteger {}
extension Int32: PreferenceInteger {}
extension Int64: PreferenceInteger {}
extension UInt: PreferenceInteger {}
extension UInt8: PreferenceInteger {}
extension UInt16: PreferenceInteger {}
extension UInt32: PreferenceInteger {}
extension UInt64: PreferenceInteger {}

extension Date: PreferenceValue {
  public func plistValue() -> PlistValue? { .date(self) }
  public static func decode(_ stored: PlistValue) throws(DecodeFailure) -> Date {
    guard case .date(let d) = stored else { throw .wrongType(expected: "a date") }
    return d
  }
}

extension Data: PreferenceValue {
  public func plistValue() -> PlistValue? { .data(self) }
  public static func decode(_ stored: PlistValue) throws(DecodeFailure) -> Data {
    guard case .data(let d) = stored else { throw .wrongType(expected: "data") }
    return d
  }
}

extension URL: PreferenceValue {
  /// Stored as its absolute string, which keeps every URL exactly.
  public func plistValue() -> PlistValue? { .string(absoluteString) }

  /// Reads the absolute string; also what legacy code stored: a path (`~` expanded) or a
  /// keyed-archived `NSURL`.
  public static func decode(_ stored: PlistValue) throws(DecodeFailure) -> URL {
    if case .string(let s) = stored, s.hasPrefix("/") || s.hasPrefix("~") {
      guard let url = legacyURL(stored) else { throw .invalid("not a path: \(s)") }
      return url
    }
    if case .string(let s) = stored {
      guard let url = URL(string: s) else { throw .invalid("not a URL: \(s)") }
      return url
    }
    if case .data = stored {
      guard let url = legacyURL(stored) else {
        throw .invalid("data that is not a keyed-archived URL")
      }
      return url
    }
    throw .wrongType(expected: "a URL string")
  }

  /// What `URLForKey:` read from a legacy value, through the one vocabulary of legacy types.
  private static func legacyURL(_ stored: PlistValue) -> URL? {
    guard case .string(let text)? = Dialect.apple.read(stored, as: .url).value else { return nil }
    return URL(string: text)
  }
}

extension UUID: PreferenceValue {
  public func plistValue() -> PlistValue? { .string(uuidString) }
  public static func decode(_ stored: PlistValue) throws(DecodeFailure) -> UUID {
    guard case .string(let s) = stored else { throw .wrongType(expected: "a UUID string") }
    guard let uuid = UUID(uuidString: s) else { throw .invalid("not a UUID: \(s)") }
    return uuid
  }
}

extension Optional: PreferenceValue where Wrapped: PreferenceValue {
  public func plistValue() throws(PreferenceError) -> PlistValue? {
    switch self {
    case .none: nil
    case .some(let wrapped): try wrapped.plistValue()
    }
  }
  public static func decode(_ stored: PlistValue) throws(DecodeFailure) -> Wrapped? {
    try Wrapped.decode(stored)
  }
}

extension Array: PreferenceValue where Element: PreferenceValue {
  public func plistValue() throws(PreferenceError) -> PlistValue? {
    var elements: [PlistValue] = []
    elements.reserveCapacity(count)
    for (i, element) in enumerated() {
      guard let stored = try element.plistValue() else {
        throw .unrepresentable(key: "[\(i)]", reason: "an array cannot hold nil")
      }
      elements.append(stored)
    }
    return .array(elements)
  }
  public static func decode(_ stored: PlistValue) throws(DecodeFailure) -> [Element] {
    guard case .array(let a) = stored else { throw .wrongType(expected: "an array") }
    var result: [Element] = []
    result.reserveCapacity(a.count)
    for element in a { result.append(try Element.decode(element)) }
    return result
  }
}

extension Dictionary: PreferenceValue where Key == String, Value: PreferenceValue {
  public func plistValue() throws(PreferenceError) -> PlistValue? {
    var stored: [String: PlistValue] = [:]
    for (key, value) in self {
      if let element = try value.plistValue() { stored[key] = element }
    }
    return .dictionary(PlistDictionary(stored))
  }
  public static func decode(_ stored: PlistValue) throws(DecodeFailure) -> [String: Value] {
    guard case .dictionary(let d) = stored else { throw .wrongType(expected: "a dictionary") }
    var result: [String: Value] = [:]
    for (key, element) in d { result[key] = try Value.decode(element) }
    return result
  }
}

/// Enums stored by raw value (`String` or `Int`). A raw value that names no case reads as the
/// key's default, and is reported (what `Mode(rawValue: raw) ?? .default` did by hand, made
/// visible).
extension PreferenceValue where Self: RawRepresentable, RawValue: PreferenceValue {
  public func plistValue() throws(PreferenceError) -> PlistValue? { try rawValue.plistValue() }
  public static func decode(_ stored: PlistValue) throws(DecodeFailure) -> Self {
    let raw = try RawValue.decode(stored)
    guard let value = Self(rawValue: raw) else {
      throw .unknownRawValue(type: "\(Self.self)", raw: "\(raw)")
    }
    return value
  }
}

/// `Codable` values, stored as native property-list structures (readable by Objective-C and
/// by `prefs read`), not as JSON text. Reading also accepts what apps commonly stored before:
/// JSON bytes in a data value, or a JSON string.
public protocol CodablePreference: Codable, PreferenceValue {}

extension CodablePreference {
  public func plistValue() throws(PreferenceError) -> PlistValue? {
    do {
      return try PlistValueEncoder().encode(self)
    } catch {
      throw .unrepresentable(key: "", reason: "\(error)")
    }
  }

  public static func decode(_ stored: PlistValue) throws(DecodeFailure) -> Self {
    let native: Error
    do {
      return try PlistValueDecoder().decode(Self.self, from: stored)
    } catch {
      native = error
    }
    let json: Data
    switch stored {
    case .data(let d): json = d
    case .string(let s): json = Data(s.utf8)
    default: throw .invalid("does not decode as \(Self.self): \(native)")
    }
    do {
      return try JSONDecoder().decode(Self.self, from: json)
    } catch {
      throw .invalid("neither a \(Self.self) structure nor its JSON: \(error)")
    }
  }
}

/// Any property-list value, as it is stored: for a key whose files disagree on its type (a
/// plan's `any`), or a nested array or dictionary read without a schema.
extension PlistValue: PreferenceValue {
  public func plistValue() -> PlistValue? { self }
  public static func decode(_ stored: PlistValue) -> PlistValue { stored }
}
