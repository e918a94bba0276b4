import LegacyDefaults
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A plan file that does not follow the contract; names the field.
public struct PlanError: Error, Sendable, Hashable, CustomStringConvertible {
  public var field: String
  public var reason: String

  public var description: String { "plan: \(field): \(reason)" }
}

extension MigrationPlan {
  /// The field's word (`default` when the field is absent), or an error listing the words the
  /// type has (from `allCases`: a new case is listed by itself).
  static func word<Word: RawRepresentable & CaseIterable>(
    _ value: JSONValue?, field: String, default fallback: Word
  ) throws(PlanError) -> Word where Word.RawValue == String {
    guard let value else { return fallback }
    guard case .string(let name) = value, let word = Word(rawValue: name) else {
      throw PlanError(
        field: field, reason: "one of " + Word.allCases.map(\.rawValue).joined(separator: ", "))
    }
    return word
  }

  static let planFields: Set<String> = [
    "plan", "dialect", "schemaVersion", "unmapped", "drop", "materializeDefaults", "keys",
  ]
  static let entryFields: Set<String> = ["from", "to", "type", "default", "values", "invalid"]

  /// Loads the JSON plan file (its specification: `Docs/plan-format.md` in the repository).
  /// An unknown version, an unknown field, a duplicate `from` or `to`, a `default` of the wrong
  /// type, or a `drop` key that an entry maps is a ``PlanError`` naming the field.
  public static func load(json data: Data) throws(PlanError) -> MigrationPlan {
    let root: JSONValue
    do {
      root = try JSONValue.parse(data)
    } catch {
      throw PlanError(field: "(file)", reason: "not JSON: \(error)")
    }
    guard case .object(let object) = root else {
      throw PlanError(field: "(file)", reason: "the plan is a JSON object")
    }
    for field in object.keys where !planFields.contains(field) {
      throw PlanError(field: field, reason: "unknown field")
    }
    guard case .integer(let version)? = object["plan"] else {
      throw PlanError(field: "plan", reason: "missing (the plan format version, 1)")
    }
    guard version == 1 else {
      throw PlanError(field: "plan", reason: "version \(version) is not known (this prefs reads 1)")
    }
    let dialect = try word(object["dialect"], field: "dialect", default: Dialect.apple)
    guard case .integer(let schema)? = object["schemaVersion"], schema >= 1, schema < 1_000_000_000
    else {
      throw PlanError(field: "schemaVersion", reason: "a whole number of at least 1 is required")
    }
    let unmapped = try word(object["unmapped"], field: "unmapped", default: Unmapped.keep)
    var materialize = false
    if let value = object["materializeDefaults"] {
      guard case .bool(let b) = value else {
        throw PlanError(field: "materializeDefaults", reason: "true or false")
      }
      materialize = b
    }
    guard case .array(let list)? = object["keys"] else {
      throw PlanError(field: "keys", reason: "an array of entries is required")
    }
    var entries: [Entry] = []
    var froms: Set<String> = []
    var tos: Set<String> = [MigrationPlan.schemaVersionKey]
    for (index, item) in list.enumerated() {
      let entry = try Self.entry(item, at: "keys[\(index)]")
      guard froms.insert(entry.from).inserted else {
        throw PlanError(field: "keys[\(index)].from", reason: "\"\(entry.from)\" is mapped twice")
      }
      guard tos.insert(entry.to).inserted else {
        throw PlanError(
          field: "keys[\(index)].to",
          reason: "\"\(entry.to)\" is the target of two entries (or the schema version key)")
      }
      entries.append(entry)
    }
    var drop: Set<String> = []
    if let value = object["drop"] {
      guard case .array(let list) = value else {
        throw PlanError(field: "drop", reason: "an array of legacy keys")
      }
      for (index, item) in list.enumerated() {
        guard case .string(let key) = item, !key.isEmpty else {
          throw PlanError(field: "drop[\(index)]", reason: "a non-empty string is required")
        }
        if let mapping = entries.firstIndex(where: { $0.from == key }) {
          throw PlanError(
            field: "drop[\(index)]",
            reason:
              "\"\(key)\" is the from of keys[\(mapping)]: a key is migrated or dropped, not both")
        }
        guard drop.insert(key).inserted else {
          throw PlanError(field: "drop[\(index)]", reason: "\"\(key)\" is listed twice")
        }
      }
    }
    return MigrationPlan(
      dialect: dialect, schemaVersion: Int(schema), unmapped: unmapped, drop: drop,
      materializeDefaults: materialize, entries: entries)
  }

  private static func entry(_ item: JSONValue, at path: String) throws(PlanError) -> Entry {
    guard case .object(let object) = item else {
      throw PlanError(field: path, reason: "an entry is a JSON object")
    }
    for field in object.keys where !entryFields.contains(field) {
      throw PlanError(field: "\(path).\(field)", reason: "unknown field")
    }
    func string(_ field: String) throws(PlanError) -> String {
      guard case .string(let s)? = object[field], !s.isEmpty else {
        throw PlanError(field: "\(path).\(field)", reason: "a non-empty string is required")
      }
      return s
    }
    let from = try string("from")
    let to = try string("to")
    let typeName = try string("type")
    guard let type = ValueType(rawValue: typeName) else {
      throw PlanError(
        field: "\(path).type",
        reason: "\"\(typeName)\" is not one of "
          + ValueType.allCases.map(\.rawValue).joined(separator: ", "))
    }
    var values: [String] = []
    if let raw = object["values"] {
      guard type == .enum else {
        throw PlanError(field: "\(path).values", reason: "only an enum entry has values")
      }
      guard case .array(let list) = raw, !list.isEmpty else {
        throw PlanError(field: "\(path).values", reason: "a non-empty array of strings")
      }
      for element in list {
        guard case .string(let s) = element else {
          throw PlanError(field: "\(path).values", reason: "a non-empty array of strings")
        }
        values.append(s)
      }
    } else if type == .enum {
      throw PlanError(field: "\(path).values", reason: "an enum entry needs its values")
    }
    let invalid = try word(object["invalid"], field: "\(path).invalid", default: Invalid.refuse)
    var defaultValue: PlistValue?
    if let raw = object["default"] {
      guard let value = typedDefault(raw, type: type, values: values) else {
        throw PlanError(
          field: "\(path).default", reason: "\(raw.summary) is not a value of type \(type.rawValue)"
        )
      }
      defaultValue = value
    }
    if invalid == .default, defaultValue == nil {
      throw PlanError(field: "\(path).invalid", reason: "\"default\" needs a default")
    }
    return Entry(
      from: from, to: to, type: type, defaultValue: defaultValue, values: values, invalid: invalid)
  }

  /// The default in its stored form, when it has the entry's type (one arm a plan type, so
  /// that a new type is a case the compiler asks for here).
  static func typedDefault(_ raw: JSONValue, type: ValueType, values: [String]) -> PlistValue? {
    switch type {
    case .bool:
      if case .bool(let b) = raw { return .bool(b) }
    case .integer:
      if case .integer(let i) = raw { return .integer(i) }
    case .double:
      if case .number(let n) = raw { return .real(n) }
      if case .integer(let i) = raw { return .real(Double(i)) }
    case .string:
      if case .string(let s) = raw { return .string(s) }
    case .date:
      if case .string(let s) = raw, let date = ISO8601.parse(s) { return .date(date) }
    case .data:
      if case .string(let s) = raw, let data = Data(base64Encoded: s) { return .data(data) }
    case .url:
      if case .string(let s) = raw, URL(string: s) != nil { return .string(s) }
    case .stringArray:
      guard case .array(let list) = raw else { return nil }
      var strings: [PlistValue] = []
      for element in list {
        guard case .string(let s) = element else { return nil }
        strings.append(.string(s))
      }
      return .array(strings)
    case .enum:
      if case .string(let s) = raw, values.contains(s) { return .string(s) }
    case .array:
      if case .array = raw { return raw.plistValue }
    case .dictionary:
      if case .object = raw { return raw.plistValue }
    case .json, .any:
      return raw.plistValue
    }
    return nil
  }
}

/// ISO 8601 dates as plans and reports write them: `2011-03-14T15:09:26Z`, with optional
/// fractional seconds.
enum ISO8601 {
  static func parse(_ text: String) -> Date? {
    guard text.contains("T") else { return nil }
    return PropertyList.date(fromText: text)
  }
}
