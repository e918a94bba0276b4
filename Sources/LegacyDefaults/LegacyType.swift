import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The one vocabulary of "read this legacy value as T": the typed getters of
/// `NSUserDefaults`. `prefs read --as`, the migrator, the exporter and the typed store's reading
/// of legacy values all go through ``Dialect/read(_:as:)``.
public enum LegacyType: String, Sendable, Hashable, CaseIterable {
  case bool, integer, double, float, string
  case stringArray = "string-array"
  case array, dictionary, data, date, url, object
}

/// What a legacy getter returned for a stored value, and how it got there.
public struct LegacyReading: Sendable, Hashable {
  /// How the getter's answer relates to what was stored.
  public enum Conversion: Sendable, Hashable {
    /// The stored value already had the type: copied as it is.
    case exact
    /// A loose value read as the getter reads it (`"YES"` as true, `" 12"` as 12).
    case coerced
    /// The getter could not read this kind of value: it returned its empty answer (false, 0,
    /// or nil).
    case unreadable
  }

  /// The getter's answer in stored form (`url` as its absolute string); nil where the getter
  /// returned nil.
  public var value: PlistValue?
  public var conversion: Conversion
}

extension Dialect {
  /// What this dialect's getter for `type` returned for `value` (`boolForKey:` for `.bool`, …),
  /// with whether the value was already of that type. The number getters answer false or 0
  /// for what they cannot read (containers, data, dates); the others answer nil.
  public func read(_ value: PlistValue, as type: LegacyType) -> LegacyReading {
    let scalar = value.isScalar
    func number(_ answer: PlistValue, exact: Bool) -> LegacyReading {
      LegacyReading(
        value: answer, conversion: exact ? .exact : scalar ? .coerced : .unreadable)
    }
    func optional(_ answer: PlistValue?, exact: Bool) -> LegacyReading {
      guard let answer else { return LegacyReading(value: nil, conversion: .unreadable) }
      return LegacyReading(value: answer, conversion: exact ? .exact : .coerced)
    }
    switch type {
    case .bool:
      if case .bool = value { return number(.bool(bool(value)), exact: true) }
      return number(.bool(bool(value)), exact: false)
    case .integer:
      let exact: Bool =
        switch value {
        case .integer: true
        case .unsignedInteger(let u): u <= UInt64(Int.max)
        default: false
        }
      return number(.int(integer(value)), exact: exact)
    case .double:
      if case .real = value { return number(.real(double(value)), exact: true) }
      return number(.real(double(value)), exact: false)
    case .float:
      let answer = Double(float(value))
      if case .real(let d) = value { return number(.real(answer), exact: d == answer) }
      return number(.real(answer), exact: false)
    case .string:
      let exact = if case .string = value { true } else { false }
      return optional(string(value).map(PlistValue.string), exact: exact)
    case .stringArray:
      return optional(stringArray(value).map { .array($0.map(PlistValue.string)) }, exact: true)
    case .array: return optional(array(value).map(PlistValue.array), exact: true)
    case .dictionary: return optional(value.dictionaryValue.map(PlistValue.dictionary), exact: true)
    case .data: return optional(data(value).map(PlistValue.data), exact: true)
    case .date: return optional(date(value).map(PlistValue.date), exact: true)
    case .url: return optional(url(value).map { .string($0.absoluteString) }, exact: false)
    case .object: return LegacyReading(value: value, conversion: .exact)
    }
  }
}
