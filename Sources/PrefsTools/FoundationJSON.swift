import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// JSON as `plutil` reads and writes it (through Foundation's `JSONSerialization`), where it
/// differs from the project's own JSON (PropertyList's `JSONWriter`): plutil reads a JSON
/// file where no property list parses, keeps JSON's `null`, and writes `"key" : value`,
/// `\/`, and an empty container across lines.
package enum FoundationJSON {
  /// JSON's `null`, which no property list holds and `plutil` cannot write: carried as a UID
  /// (the other value plutil reads but cannot write), the largest, which no JSON text makes
  /// otherwise. Only a document read as JSON holds it.
  package static let null = PlistValue.uid(.max)

  /// A JSON text as a value: integers as integers (above Int64.max: unsigned), other numbers
  /// as reals, `null` as ``null``. `fragments`: a text that is one string, number, boolean or
  /// null is a value too (plutil's `-json VALUE`); else only an object or an array is (a JSON
  /// file).
  package static func read(_ data: Data, fragments: Bool = false) throws(Failure) -> PlistValue {
    let json: JSONValue
    let text = try utf8(data)
    do {
      json = try JSONValue.parse(text)
    } catch {
      throw Failure(description: error.description)
    }
    if !fragments {
      switch json {
      case .object, .array: break
      default:
        throw Failure(
          description:
            "JSON text did not start with array or object and option to allow fragments not set.")
      }
    }
    return value(json)
  }

  /// JSON text as UTF-8 (``TextInput/utf8(json:)``), or `JSONSerialization`'s words for text
  /// that is not what its encoding says.
  static func utf8(_ data: Data) throws(Failure) -> Data {
    do {
      return try TextInput.utf8(json: data)
    } catch {
      throw Failure(
        description: "Unable to convert data to a string using the detected encoding.")
    }
  }

  /// Why a text is not JSON.
  package struct Failure: Error, Sendable, CustomStringConvertible {
    package var description: String
  }

  private static func value(_ json: JSONValue) -> PlistValue {
    switch json {
    case .null: null
    case .bool(let b): .bool(b)
    case .integer(let i): .integer(i)
    case .unsigned(let u): .unsignedInteger(u)
    case .number(let d): .real(d)
    case .string(let s): .string(s)
    case .array(let list): .array(list.map(value))
    case .object(let object): .dictionary(PlistDictionary(object.mapValues(value)))
    }
  }

  /// Whether `JSONSerialization` writes `value` inside a container: strings, numbers
  /// (finite), booleans, arrays and dictionaries (no dates, data, UIDs).
  package static func canHold(_ value: PlistValue) -> Bool {
    switch value {
    case .string, .integer, .unsignedInteger, .bool: true
    case .real(let d): d.isFinite
    case .date, .data, .uid: false
    case .array(let a): a.allSatisfy(canHold)
    case .dictionary(let d): d.values.allSatisfy(canHold)
    }
  }

  /// `value` as `JSONSerialization` writes it: compact, or `pretty` (two spaces, `"key" :
  /// value`, an empty container's brackets on lines of their own); keys in `plutil`'s order
  /// (``KeyOrder``); `/` written `\/`; a real as Swift prints it, without a trailing `.0`.
  /// The caller checks ``canHold(_:)`` first.
  package static func write(_ value: PlistValue, pretty: Bool) -> String {
    var out = ""
    append(value, to: &out, pretty: pretty, indent: 0)
    return out
  }

  private static func append(_ value: PlistValue, to out: inout String, pretty: Bool, indent: Int) {
    func newline(_ level: Int) {
      out += "\n" + String(repeating: " ", count: level)
    }
    switch value {
    case .string(let s): JSONWriter.appendQuoted(s, to: &out, escapingSlashes: true)
    case .integer(let i): out += String(i)
    case .unsignedInteger(let u): out += String(u)
    case .bool(let b): out += b ? "true" : "false"
    case .real(let d):
      var text = d.description
      if text.hasSuffix(".0") { text.removeLast(2) }
      out += text
    case .date, .data, .uid: out += "null"
    case .array(let elements):
      out += "["
      if pretty { out += "\n" }
      for (n, element) in elements.enumerated() {
        if n > 0 { out += pretty ? ",\n" : "," }
        if pretty { out += String(repeating: " ", count: indent + 2) }
        append(element, to: &out, pretty: pretty, indent: indent + 2)
      }
      if pretty { newline(indent) }
      out += "]"
    case .dictionary(let d):
      out += "{"
      if pretty { out += "\n" }
      for (n, key) in KeyOrder.sorted(d.keys).enumerated() {
        if n > 0 { out += pretty ? ",\n" : "," }
        if pretty { out += String(repeating: " ", count: indent + 2) }
        JSONWriter.appendQuoted(key, to: &out, escapingSlashes: true)
        out += pretty ? " : " : ":"
        if let member = d[key] { append(member, to: &out, pretty: pretty, indent: indent + 2) }
      }
      if pretty { newline(indent) }
      out += "}"
    }
  }
}
