import LegacyDefaults
import PropertyList

/// Every way a typed read or write can fail. A missing value is never an error (the key's
/// default covers it); a value that is present but does not decode is, and says so.
public enum PreferenceError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The stored value has another type than the key's.
  case typeMismatch(key: String, expected: String, found: String)
  /// An enum key found a raw value that names no case.
  case unknownRawValue(key: String, type: String, raw: String)
  /// The stored value has the right shape but not a valid value (out of range, bad JSON, …).
  case invalidValue(key: String, reason: String)
  /// The value cannot be stored as a property list.
  case unrepresentable(key: String, reason: String)
  /// The defaults store below failed (locking, writing, …).
  case storage(DefaultsError)

  public var description: String {
    switch self {
    case .typeMismatch(let key, let expected, let found):
      "\"\(key)\": expected \(expected), found \(found)"
    case .unknownRawValue(let key, let type, let raw):
      "\"\(key)\": \(raw) is not \(type.withArticle); the key's default was used"
    case .invalidValue(let key, let reason): "\"\(key)\": \(reason)"
    case .unrepresentable(let key, let reason): "\"\(key)\" cannot be stored: \(reason)"
    case .storage(let error): error.description
    }
  }
}

/// Why a stored value did not decode, before the key is known.
public enum DecodeFailure: Error, Sendable, Hashable {
  case wrongType(expected: String)
  case unknownRawValue(type: String, raw: String)
  case invalid(String)

  func error(key: String, found: PlistValue) -> PreferenceError {
    switch self {
    case .wrongType(let expected):
      .typeMismatch(key: key, expected: expected, found: "\(found.typeName) \(Self.short(found))")
    case .unknownRawValue(let type, let raw): .unknownRawValue(key: key, type: type, raw: raw)
    case .invalid(let reason): .invalidValue(key: key, reason: reason)
    }
  }

  static func short(_ value: PlistValue) -> String {
    let text = PropertyList.describe(value)
    return text.count > 60 ? String(text.prefix(57)) + "..." : text
  }
}
