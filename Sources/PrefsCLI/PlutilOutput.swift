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
    case .date(let d): CivilTime.plutilRaw(d)
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
    case .date(let d): return CivilTime.foundationDescription(d) + "\n"
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
