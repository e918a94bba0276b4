import PrefsTools
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How the `plutil` personality prints values: `-extract … raw` and `-p`.
extension PlutilPersonality {

  /// `-extract … raw`: a string as it is, a number as C prints it (`%lld`, `%f`), `true` or
  /// `false`, a date in ISO 8601 to the second, data in base64, an array's count, a
  /// dictionary's keys a line each.
  static func raw(_ value: PlistValue) -> String {
    switch value {
    case .string(let s): s
    case .bool(let b): b ? "true" : "false"
    case .integer(let i): String(i)
    case .unsignedInteger(let u): String(u)
    case .real(let d): LiteralSource.fixed(d)
    case .date(let d): PlutilDate.iso8601(d)
    case .data(let d): d.base64EncodedString()
    case .array(let a): String(a.count)
    case .dictionary(let d): KeyOrder.sorted(d.keys).joined(separator: "\n")
    case .uid(let u): String(u)
    }
  }

  /// `plutil -p`: `"key" => value` a line, keys in plutil's order (``KeyOrder``), strings
  /// quoted as they are, arrays by index, a date as Foundation describes it, data as its
  /// length and bytes (beyond 24 bytes, the first 16 and the last 8), JSON's null as
  /// `<null>`.
  static func pretty(_ value: PlistValue, json: Bool, indent: Int) -> String {
    let pad = String(repeating: " ", count: indent)
    let close = String(repeating: " ", count: indent - 2)
    switch value {
    case .dictionary(let d):
      var out = "{\n"
      for key in KeyOrder.sorted(d.keys) {
        guard let member = d[key] else { continue }
        out += pad + "\"\(key)\" => " + pretty(member, json: json, indent: indent + 2)
      }
      return out + close + "}\n"
    case .array(let a):
      var out = "[\n"
      for (n, element) in a.enumerated() {
        out += pad + "\(n) => " + pretty(element, json: json, indent: indent + 2)
      }
      return out + close + "]\n"
    case .string(let s): return "\"\(s)\"\n"
    case .data(let d):
      let bytes = [UInt8](d)
      let shown =
        bytes.count > 24
        ? bytes[..<16].map { $0.hex(width: 2) }.joined() + "... "
          + bytes[(bytes.count - 8)...].map { $0.hex(width: 2) }.joined()
        : bytes.map { $0.hex(width: 2) }.joined()
      return "{length = \(bytes.count), bytes = 0x\(shown)}\n"
    case .date(let d): return PlutilDate.description(d) + "\n"
    case .bool(let b): return b ? "true\n" : "false\n"
    case .integer(let i): return "\(i)\n"
    case .unsignedInteger(let u): return "\(u)\n"
    case .real(let r): return "\(r)\n"
    case .uid(let u):
      return json && value == FoundationJSON.null
        ? "<null>\n" : "<CFKeyedArchiverUID>{value = \(u)}\n"
    }
  }
}

/// Dates as plutil prints them.
enum PlutilDate {
  /// `Date.description`: `2014-04-24 02:40:00 +0000`, to the second (toward 1970).
  static func description(_ date: Date) -> String {
    let since1970 = date.timeIntervalSince1970
    guard since1970 >= -62_135_769_600, since1970 <= 64_092_211_200 else {
      return "<description unavailable>"
    }
    let (day, time) = civil(Int64(since1970.rounded(.towardZero)))
    return "\(day) \(time) +0000"
  }

  /// ISO 8601 in UTC, to the second: `2014-04-24T02:40:00Z`.
  static func iso8601(_ date: Date) -> String {
    let (day, time) = civil(Int64(date.timeIntervalSince1970.rounded(.down)))
    return "\(day)T\(time)Z"
  }

  /// The day (`yyyy-MM-dd`) and time (`HH:mm:ss`) of a second since 1970, in UTC.
  static func civil(_ seconds: Int64) -> (String, String) {
    var days = seconds / 86_400
    var rest = seconds % 86_400
    if rest < 0 {
      rest += 86_400
      days -= 1
    }
    let (year, month, day) = CivilTime.civilFromDays(Int(days))
    return (
      "\(year.zeroPadded(width: 4))-\(month.zeroPadded(width: 2))-\(day.zeroPadded(width: 2))",
      "\((rest / 3600).zeroPadded(width: 2)):\((rest / 60 % 60).zeroPadded(width: 2)):"
        + (rest % 60).zeroPadded(width: 2)
    )
  }
}
