import LegacyDefaults
import Preferences
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How legacy flat keys become typed keys: the same plan drives the migration forward and the
/// export back. Build it in Swift (the `map(_:to:)` functions of ``Entry``) or load the JSON plan file
/// (``load(json:)``, the form MIGRATION.md and <doc:MigratingLegacyDefaults> describe).
public struct MigrationPlan: Sendable, Hashable {
  /// What happens to legacy keys no entry names.
  public enum Unmapped: String, Sendable, Hashable, CaseIterable {
    case keep, drop, error
  }

  /// The typed key's kind, which decides how a legacy value converts.
  public enum ValueType: String, Sendable, Hashable, CaseIterable {
    case bool, integer, double, string, date, data, url
    case stringArray = "string-array"
    case array, dictionary
    case `enum`
    case json, any

    /// The legacy getter this type reads through; nil for `enum` (a string with a fallback),
    /// `json` (parsed) and `any` (copied).
    public var legacyType: LegacyType? {
      if case .getter(let type) = reading { return type }
      return nil
    }

    /// How a legacy value becomes this type: through a legacy getter, or one of the ways
    /// that are not a getter's.
    package enum Reading: Sendable, Hashable {
      case getter(LegacyType)
      /// A string getter's answer, one of the entry's values or its default.
      case oneOf
      /// JSON in a string or data, parsed into a native structure.
      case json
      /// Copied as it is.
      case asIs
    }

    /// How a legacy value becomes this type (the one place a type says it).
    package var reading: Reading {
      switch self {
      case .bool: .getter(.bool)
      case .integer: .getter(.integer)
      case .double: .getter(.double)
      case .string: .getter(.string)
      case .date: .getter(.date)
      case .data: .getter(.data)
      case .url: .getter(.url)
      case .stringArray: .getter(.stringArray)
      case .array: .getter(.array)
      case .dictionary: .getter(.dictionary)
      case .enum: .oneOf
      case .json: .json
      case .any: .asIs
      }
    }
  }

  /// What a value the target type cannot hold does to the file.
  ///
  /// (ValueType keeps the plan file's JSON words; ``ValueType/legacyType`` is the getter each
  /// one reads through.)
  public enum Invalid: String, Sendable, Hashable, CaseIterable {
    /// The file is refused, nothing written (the default).
    case refuse
    /// The entry's default is used (reported as a fallback).
    case `default`
  }

  public struct Entry: Sendable, Hashable {
    public var from: String
    public var to: String
    public var type: ValueType
    /// The typed key's default, in its stored form.
    public var defaultValue: PlistValue?
    /// For `enum`: the raw values that name a case.
    public var values: [String]
    public var invalid: Invalid

    public init(
      from: String, to: String, type: ValueType, defaultValue: PlistValue? = nil,
      values: [String] = [], invalid: Invalid = .refuse
    ) {
      self.from = from
      self.to = to
      self.type = type
      self.defaultValue = defaultValue
      self.values = values
      self.invalid = invalid
    }
  }

  public var dialect: Dialect
  public var schemaVersion: Int
  public var unmapped: Unmapped
  /// Legacy keys the plan drops on purpose, whatever ``unmapped`` says (the JSON plan's
  /// `"drop"`). A key listed here is never taken for a typo of an entry (see
  /// ``isNearMiss(_:_:)``); a key an entry maps is migrated, never dropped (the JSON plan
  /// refuses a key in both).
  public var drop: Set<String>
  public var materializeDefaults: Bool
  public var entries: [Entry]

  public init(
    dialect: Dialect = .apple, schemaVersion: Int, unmapped: Unmapped = .keep,
    drop: Set<String> = [], materializeDefaults: Bool = false, entries: [Entry]
  ) {
    self.dialect = dialect
    self.schemaVersion = schemaVersion
    self.unmapped = unmapped
    self.drop = drop
    self.materializeDefaults = materializeDefaults
    self.entries = entries
  }

  /// The key of the new store that records the plan's schema version.
  public static let schemaVersionKey = "prefs.schemaVersion"
}

// MARK: - Typed entries from keys

extension MigrationPlan.Entry {
  /// A legacy key read as a bool (`boolForKey:`) into a `Bool` key.
  public static func map(_ from: String, to key: Key<Bool>) -> Self {
    Self(from: from, to: key.name, type: .bool, defaultValue: .bool(key.defaultValue))
  }
  /// A legacy key read as an integer (`integerForKey:`) into an `Int` key.
  public static func map(_ from: String, to key: Key<Int>) -> Self {
    Self(from: from, to: key.name, type: .integer, defaultValue: .int(key.defaultValue))
  }
  public static func map(_ from: String, to key: Key<Double>) -> Self {
    Self(from: from, to: key.name, type: .double, defaultValue: .real(key.defaultValue))
  }
  public static func map(_ from: String, to key: Key<String>) -> Self {
    Self(from: from, to: key.name, type: .string, defaultValue: .string(key.defaultValue))
  }
  public static func map(_ from: String, to key: Key<Date>) -> Self {
    Self(from: from, to: key.name, type: .date, defaultValue: .date(key.defaultValue))
  }
  public static func map(_ from: String, to key: Key<Data>) -> Self {
    Self(from: from, to: key.name, type: .data, defaultValue: .data(key.defaultValue))
  }
  public static func map(_ from: String, to key: Key<URL?>) -> Self {
    Self(from: from, to: key.name, type: .url)
  }
  /// A legacy date (`objectForKey:` of an `NSDate`) into an optional `Date` key: no default,
  /// so a file without it leaves the key absent.
  public static func map(_ from: String, to key: Key<Date?>) -> Self {
    Self(from: from, to: key.name, type: .date)
  }
  /// Legacy data (`dataForKey:`) into an optional `Data` key: no default.
  public static func map(_ from: String, to key: Key<Data?>) -> Self {
    Self(from: from, to: key.name, type: .data)
  }
  /// A legacy dictionary (`dictionaryForKey:`) into a key of property-list values, kept as
  /// they are (what `prefs plan swift` writes for a `dictionary` entry).
  public static func map(_ from: String, to key: Key<[String: PlistValue]>) -> Self {
    Self(
      from: from, to: key.name, type: .dictionary,
      defaultValue: .dictionary(PlistDictionary(key.defaultValue)))
  }
  /// A legacy array (`arrayForKey:`) into a key of property-list values, kept as they are.
  public static func map(_ from: String, to key: Key<[PlistValue]>) -> Self {
    Self(from: from, to: key.name, type: .array, defaultValue: .array(key.defaultValue))
  }
  public static func map(_ from: String, to key: Key<[String]>) -> Self {
    Self(
      from: from, to: key.name, type: .stringArray,
      defaultValue: .array(key.defaultValue.map(PlistValue.string)))
  }
  /// An enum stored by its `String` raw value; a raw value that names no case becomes the
  /// key's default.
  public static func map<E>(_ from: String, to key: Key<E>) -> Self
  where E: RawRepresentable & CaseIterable & PreferenceValue, E.RawValue == String {
    Self(
      from: from, to: key.name, type: .enum, defaultValue: .string(key.defaultValue.rawValue),
      values: E.allCases.map(\.rawValue))
  }
  /// A `Codable` value the legacy app stored as JSON (bytes or text), stored natively. Throws
  /// when the key's default has no property-list form (the plan would otherwise lose it).
  public static func map<C: CodablePreference>(_ from: String, to key: Key<C>)
    throws(PreferenceError) -> Self
  {
    Self(from: from, to: key.name, type: .json, defaultValue: try key.defaultValue.plistValue())
  }
  public static func map<C: CodablePreference>(_ from: String, to key: Key<C?>) -> Self {
    Self(from: from, to: key.name, type: .json)
  }
}
