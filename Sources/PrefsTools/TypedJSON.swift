import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Typed JSON: every property-list value as JSON and back without loss, for programs that
/// drive the command (`read --typed`, `write KEY -json VALUE`, the changes `write`, `delete`
/// and `diff` print with `--typed`).
///
/// Plain JSON where JSON can say it: a string, `true`/`false`, an integer (no fraction, no
/// exponent: 64 bits, signed or unsigned), a real (always with a fraction or an exponent:
/// `3.0`, `1e+300`; the shortest text that reads back as the same double), an array, an
/// object. The rest is an object of one tagged member:
///
/// | value | typed JSON |
/// |---|---|
/// | date | `{"$date": "2011-03-14T15:09:26Z"}` (a fraction when it has one); a date that text cannot give back exactly, as seconds since 2001-01-01 (`{"$date": 321814166.000123}`) |
/// | data | `{"$data": "BASE64"}` |
/// | NaN, infinity | `{"$real": "nan"}`, `{"$real": "inf"}`, `{"$real": "-inf"}` |
/// | UID (keyed archives) | `{"$uid": 7}` |
/// | a dictionary of one key that is one of these tags | `{"$dict": {"$date": "…"}}` |
///
/// Read back, a `$date` string is ISO 8601 or GNUstep's `2011-03-14 15:09:26 +0000`, and
/// `{"$real": 3}` is the real 3.0. `null` is refused: a property list has no null.
package enum TypedJSON {
  /// The tags of a tagged value.
  static let tags = ["$date", "$data", "$real", "$uid", "$dict"]

  /// `value` as typed JSON.
  package static func json(_ value: PlistValue) -> JSONValue {
    switch value {
    case .string(let s): return .string(s)
    case .integer(let i): return .integer(i)
    case .unsignedInteger(let u): return .unsigned(u)
    case .bool(let b): return .bool(b)
    case .real(let d):
      guard d.isFinite else {
        return .object(["$real": .string(d.isNaN ? "nan" : d > 0 ? "inf" : "-inf")])
      }
      return .number(d)
    case .date(let d):
      let text = PropertyList.iso8601(d)
      let back = PropertyList.date(fromText: text)?.timeIntervalSinceReferenceDate
      if back?.bitPattern == d.timeIntervalSinceReferenceDate.bitPattern {
        return .object(["$date": .string(text)])
      }
      return .object(["$date": .number(d.timeIntervalSinceReferenceDate)])
    case .data(let d): return .object(["$data": .string(d.base64EncodedString())])
    case .uid(let u): return .object(["$uid": .unsigned(u)])
    case .array(let a): return .array(a.map(json))
    case .dictionary(let d):
      var object: [String: JSONValue] = [:]
      for (key, element) in d { object[key] = json(element) }
      if object.count == 1, let key = object.keys.first, tags.contains(key) {
        return .object(["$dict": .object(object)])
      }
      return .object(object)
    }
  }

  /// `value` as typed JSON text (two-space indentation, or none when `compact`), keys in the
  /// one order every JSON of the command has.
  package static func text(_ value: PlistValue, compact: Bool = false) -> String {
    json(value).text(compact: compact)
  }

  /// The value typed JSON text holds; `flag` names the option it came with, in errors.
  package static func value(parsing text: String, flag: String) throws(ToolError) -> PlistValue {
    let parsed: JSONValue
    do {
      parsed = try JSONValue.parse(Data(text.utf8), exactIntegers: true)
    } catch {
      throw .invalidValue(flag: flag, text: text, expected: "typed JSON (\(error))")
    }
    do {
      return try value(parsed, at: [])
    } catch {
      throw .invalidValue(flag: flag, text: text, expected: "typed JSON (\(error))")
    }
  }

  /// Why typed JSON does not hold a property-list value, and where.
  struct Failure: Error, CustomStringConvertible {
    var path: [String]
    var reason: String
    var description: String {
      path.isEmpty ? reason : "at \(path.joined(separator: ".")): \(reason)"
    }
  }

  static func value(_ json: JSONValue, at path: [String]) throws(Failure) -> PlistValue {
    if let scalar = json.plistScalar { return scalar }
    switch json {
    case .array(let list):
      var values: [PlistValue] = []
      values.reserveCapacity(list.count)
      for (n, element) in list.enumerated() {
        values.append(try value(element, at: path + ["\(n)"]))
      }
      return .array(values)
    case .object(let object):
      if object.count == 1, let (tag, inner) = object.first, tags.contains(tag) {
        return try tagged(tag, inner, at: path)
      }
      return .dictionary(try dictionary(object, at: path))
    default:  // null
      throw Failure(path: path, reason: "null is not a property-list value")
    }
  }

  private static func dictionary(_ object: [String: JSONValue], at path: [String])
    throws(Failure) -> PlistDictionary
  {
    var result = PlistDictionary()
    for (key, element) in object { result[key] = try value(element, at: path + [key]) }
    return result
  }

  private static func tagged(_ tag: String, _ inner: JSONValue, at path: [String])
    throws(Failure) -> PlistValue
  {
    let here = path + [tag]
    switch (tag, inner) {
    case ("$date", .string(let text)):
      guard let date = TypedValue.date(text) else {
        throw Failure(
          path: here, reason: "\(text) is not a date (2011-03-14T15:09:26Z, or seconds since 2001)")
      }
      return .date(date)
    case ("$date", .number(let seconds)):
      return .date(Date(timeIntervalSinceReferenceDate: seconds))
    case ("$date", .integer(let seconds)):
      return .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
    case ("$data", .string(let text)):
      guard let data = Data(base64Encoded: text) else {
        throw Failure(path: here, reason: "not base64")
      }
      return .data(data)
    case ("$real", .string(let text)):
      switch text.lowercased() {
      case "nan": return .real(.nan)
      case "inf", "+inf", "infinity", "+infinity": return .real(.infinity)
      case "-inf", "-infinity": return .real(-.infinity)
      default:
        guard let d = Double(text) else {
          throw Failure(path: here, reason: "\(text) is not a real")
        }
        return .real(d)
      }
    case ("$real", .number(let d)): return .real(d)
    case ("$real", .integer(let i)): return .real(Double(i))
    case ("$real", .unsigned(let u)): return .real(Double(u))
    case ("$uid", .integer(let i)) where i >= 0: return .uid(UInt64(i))
    case ("$uid", .unsigned(let u)): return .uid(u)
    case ("$dict", .object(let object)): return .dictionary(try dictionary(object, at: here))
    default:
      throw Failure(path: here, reason: "\(tag) does not take \(inner.text(compact: true))")
    }
  }
}
