import LegacyDefaults
import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Several keys to set in one locked write (`prefs write --values FILE DOMAIN`): a JSON array
/// of assignments, each an object
///
///     {"key": "quota", "type": "integer", "value": "8589934592"}
///     {"key": ["window", "frame", 2], "value": 1440}
///     {"key": "AppleLanguages", "add": "array-union", "value": ["pt-BR"]}
///
/// `key` is one key (a string, dots and all) or a key path (an array of keys and array
/// indices). Without `type`, `value` is typed JSON (``TypedJSON``). With `type` (a type flag of
/// `write` without its dash: `bool`, `int`, `float`, `string`, `date`, `data`, `array`, `dict`
/// and their long spellings), a string `value` is read as the flag reads its word on the
/// command line (`"type": "bool", "value": "YES"`; `data` is base64 here, as JSON carries
/// bytes, where `-data` takes hex), and any other `value` must be of the type as typed JSON
/// says it (`12` for an integer; a real takes an integer too, a bool 0 or 1, a string an
/// integer's digits). `add` (`array-add`, `array-union`, `dict-add`) adds the value's elements
/// or entries as the flags of that name do. One set of rules: the command line's.
package struct Assignment: Sendable, Hashable {
  package var path: KeyPath
  package var value: PlistValue
  /// Nil: the value is set; else it is added to the container at the path.
  package var addition: Addition?

  package init(path: KeyPath, value: PlistValue, addition: Addition? = nil) {
    self.path = path
    self.value = value
    self.addition = addition
  }

  /// The assignments of a values file, every one typed before anything is written: the first
  /// that is not one is refused, naming its place (`[3] "quota"`) and why.
  package static func list(parsing data: Data, path: String) throws(ToolError) -> [Assignment] {
    func refused(_ reason: String) -> ToolError {
      .read(.malformed(path: path, reason: reason))
    }
    let json: JSONValue
    do {
      json = try JSONValue.parse(data, exactIntegers: true)
    } catch {
      throw refused("not JSON: \(error)")
    }
    guard case .array(let entries) = json else {
      throw refused(
        "not a JSON array of assignments ([{\"key\": …, \"value\": …, \"type\": …}, …])")
    }
    var result: [Assignment] = []
    result.reserveCapacity(entries.count)
    for (index, entry) in entries.enumerated() {
      do throws(Failure) {
        result.append(try assignment(entry))
      } catch {
        let key = error.key.map { " " + PropertyList.jsonString($0) } ?? ""
        throw refused("[\(index)]\(key): \(error.reason)")
      }
    }
    return result
  }

  /// Why an entry is not an assignment, and its key when it has one.
  struct Failure: Error {
    var key: String?
    var reason: String
  }

  static let members: Set<String> = ["key", "value", "type", "add"]

  static func assignment(_ entry: JSONValue) throws(Failure) -> Assignment {
    guard case .object(let object) = entry else {
      throw Failure(key: nil, reason: "an assignment is an object {\"key\": …, \"value\": …}")
    }
    let path = try keyPath(object["key"])
    let key = path.text
    if let unknown = object.keys.sorted().first(where: { !members.contains($0) }) {
      throw Failure(
        key: key, reason: "unknown member \(unknown) (an assignment has key, value, type, add)")
    }
    guard let value = object["value"] else { throw Failure(key: key, reason: "no value") }
    var addition: Addition?
    switch object["add"] {
    case nil: addition = nil
    case .string("array-add"): addition = .append
    case .string("array-union"): addition = .union
    case .string("dict-add"): addition = .merge
    case let other?:
      throw Failure(
        key: key,
        reason: "add takes array-add, array-union or dict-add, not \(other.text(compact: true))")
    }
    var kind: TypedValue.Kind?
    switch object["type"] {
    case nil: kind = nil
    case .string(let name):
      guard let named = TypedValue.kind(named: name) else {
        throw Failure(
          key: key,
          reason: "unknown type \(name) (\(TypedValue.typeNames.joined(separator: ", ")))")
      }
      kind = named
    case let other?:
      throw Failure(key: key, reason: "type is a name, not \(other.text(compact: true))")
    }
    let typed: PlistValue
    do throws(TypedValue.Refusal) {
      typed = try TypedValue.value(value, as: kind)
    } catch {
      throw Failure(key: key, reason: error.reason)
    }
    if let addition {
      let wanted = addition == .merge ? "dictionary" : "array"
      guard typed.typeName == wanted else {
        throw Failure(
          key: key,
          reason: "add: \(addition == .merge ? "dict-add" : "array-add") takes "
            + "\(wanted == "array" ? "an array" : "a dictionary") of what to add, not "
            + "\(article(typed.typeName))")
      }
    }
    return Assignment(path: path, value: typed, addition: addition)
  }

  static func keyPath(_ key: JSONValue?) throws(Failure) -> KeyPath {
    switch key {
    case .string(let text)?:
      guard !text.isEmpty else { throw Failure(key: nil, reason: "an empty key") }
      return KeyPath(components: [text])
    case .array(let parts)? where !parts.isEmpty:
      var components: [String] = []
      for part in parts {
        switch part {
        case .string(let text) where !text.isEmpty: components.append(text)
        case .integer(let index) where index >= 0: components.append(String(index))
        default:
          throw Failure(
            key: nil,
            reason: "a key path is keys (strings, not empty) and array indices (integers from 0),"
              + " not \(part.text(compact: true))")
        }
      }
      return KeyPath(components: components)
    case nil:
      throw Failure(key: nil, reason: "no key")
    case let other?:
      throw Failure(
        key: nil,
        reason: "key is a key (a string: quote it where YAML reads a word as a boolean or a "
          + "number, such as off or 1.0) or a key path (an array), not "
          + other.text(compact: true))
    }
  }
}

/// "an integer", "a string".
func article(_ name: String) -> String {
  ("aeiou".contains(name.prefix(1)) ? "an " : "a ") + name
}

extension TypedValue {
  /// The type names a values file's `type` takes: `write`'s type flags without their dash.
  package static let typeNames = [
    "bool", "boolean", "int", "integer", "float", "double", "real", "string", "date", "data",
    "array", "dict", "dictionary",
  ]

  /// The kind a type name of a values file names (nil: none).
  package static func kind(named name: String) -> Kind? {
    guard typeNames.contains(name) else { return nil }
    return kind(ofFlag: "-" + name, in: .prefs)
  }

  /// Why a JSON value is not a value of the type asked for.
  package struct Refusal: Error, Sendable, CustomStringConvertible {
    package var reason: String
    package var description: String { reason }
  }

  /// A value given as JSON, of `kind` when one is named: the one set of typing rules for every
  /// program that drives the command (see ``Assignment``).
  package static func value(_ json: JSONValue, as kind: Kind?) throws(Refusal) -> PlistValue {
    func typedJSON(_ json: JSONValue) throws(Refusal) -> PlistValue {
      do {
        return try TypedJSON.value(json, at: [])
      } catch {
        throw Refusal(reason: "not typed JSON: \(error)")
      }
    }
    guard let kind else { return try typedJSON(json) }
    let flag = flags(for: kind, in: .prefs).last ?? "-json"
    let name = kind.typeName
    let shown = json.text(compact: true)
    func notOfType(_ takes: String) -> Refusal {
      Refusal(reason: "type \(name) takes \(takes), not \(shown)")
    }
    // Text is the type's word, read as the command line reads it.
    if case .string(let text) = json {
      switch kind {
      case .string: return .string(text)
      case .data:
        // Base64, as JSON carries bytes (white space, as in a wrapped block, ignored).
        let compact = String(text.unicodeScalars.filter { !" \t\n\r".unicodeScalars.contains($0) })
        guard let data = Data(base64Encoded: compact) else { throw notOfType("base64 text") }
        return .data(data)
      case .array, .dictionary:
        throw notOfType(kind == .array ? "a JSON array" : "a JSON object")
      default:
        do {
          return try value(kind, text, flag: flag, spelling: .prefs)
        } catch {
          throw Refusal(reason: "type \(name): \(error)")
        }
      }
    }
    switch (kind, json) {
    case (.bool, .bool(let b)): return .bool(b)
    case (.bool, .integer(let i)) where i == 0 || i == 1: return .bool(i == 1)
    case (.bool, _): throw notOfType("true, false, 0, 1 or a word of -bool (YES, NO)")
    case (.integer, .integer(let i)): return .integer(i)
    case (.integer, .unsigned(let u)): return .unsignedInteger(u)
    case (.integer, _): throw notOfType("an integer (no fraction)")
    case (.real, .integer(let i)): return .real(Double(i))
    case (.real, .unsigned(let u)): return .real(Double(u))
    case (.string, .integer(let i)): return .string(String(i))
    case (.string, .unsigned(let u)): return .string(String(u))
    case (.string, _): throw notOfType("text (quote it)")
    case (.dictionary, .object(let object)) where object.count == 1 && object["$dict"] == nil:
      // A dictionary asked for: an object of one tag's name is that dictionary, not the tag.
      var entries = PlistDictionary()
      for (key, element) in object { entries[key] = try typedJSON(element) }
      return .dictionary(entries)
    case (.array, .array), (.dictionary, .object), (.real, _), (.date, _), (.data, _):
      let typed = try typedJSON(json)
      guard typed.typeName == name else { throw notOfType(article(name)) }
      return typed
    case (.array, _): throw notOfType("a JSON array")
    case (.dictionary, _): throw notOfType("a JSON object")
    default: throw notOfType(article(name))
    }
  }
}

extension TypedValue.Kind {
  /// The type's name as values print it (`integer`, `real`, `dictionary`).
  var typeName: String {
    switch self {
    case .bool: "bool"
    case .integer: "integer"
    case .real: "real"
    case .string: "string"
    case .date: "date"
    case .data: "data"
    case .array: "array"
    case .dictionary: "dictionary"
    case .propertyList, .json, .typedJSON, .addition: "value"
    }
  }
}

extension DomainEditor {
  /// Makes every assignment, in order (one may set a key path inside a key an earlier one
  /// set), as one locked update: the domain is read once, changed in memory, and written once
  /// when anything changed (nothing otherwise). A refused assignment (adding to a value of
  /// another type; with `sameType`, replacing a value of another type) writes nothing.
  package func apply(
    _ assignments: [Assignment], dryRun: Bool = false, truncatingDates: Bool = false,
    sameType: Bool = false
  ) throws(ToolError) -> ChangeOutcome {
    for assignment in assignments {
      do {
        try DefaultsStore.validate(assignment.value, forKey: assignment.path.text)
      } catch {
        throw .store(error)
      }
    }
    return try change(dryRun: dryRun, truncatingDates: truncatingDates) {
      current throws(ToolError) in
      var root = PlistValue.dictionary(current.values)
      var touched: [String] = []
      for assignment in assignments {
        let old = assignment.path.value(in: root)
        let new: PlistValue
        if let addition = assignment.addition {
          new = try added(assignment.value, to: old, at: assignment.path, as: addition)
        } else {
          if sameType, let old, old.typeName != assignment.value.typeName {
            throw .usage(
              "the key \(assignment.path.text) holds \(article(old.typeName)), not "
                + "\(article(assignment.value.typeName)): nothing written (--same-type)")
          }
          new = assignment.value
        }
        guard let first = assignment.path.components.first, !first.isEmpty else {
          throw .keyPath(.noValue(text: assignment.path.text))
        }
        do throws(KeyPathError) {
          try assignment.path.set(new, in: &root)
        } catch {
          throw .keyPath(error)
        }
        touched.append(first)
      }
      var changes = DomainChanges()
      let values = root.dictionaryValue ?? PlistDictionary()
      for key in touched { changes[key] = .some(values[key]) }
      return changes
    }
  }
}
