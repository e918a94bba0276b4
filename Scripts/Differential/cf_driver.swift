// The CoreFoundation reference of Scripts/differential.sh: reads each path named on standard
// input (one a line) with the toolchain Foundation's `PropertyListSerialization` (on Linux,
// swift-corelibs-foundation over CoreFoundation's `CFPropertyListCreateWithData`, the reader
// `CFPreferences` and `UserDefaults` read domain files with) and prints one line a path:
// `OK <value>` in the canonical form below, or `ERR <reason>`. Flushed line by line, so that
// the harness knows which input a crash was on.
//
// Canonical form (shared by every driver): `{k=v;…}` with entries sorted by their key's form,
// `(v,…)`, `s"…"` (printable ASCII but `"` and `\` as they are, every other UTF-16 unit as
// `\uXXXX`), `i` decimal, `r` %.17g (`rnan`, `rinf`, `r-inf`, `r-0`), `T`/`F`, `d` %.17g
// seconds since 2001, `x` hex, `u` decimal (a keyed-archiver UID).
//
// Build: swiftc -O cf_driver.swift -o cf-driver
import Foundation

func string(_ s: String) -> String {
  var out = "s\""
  for unit in s.utf16 {
    if unit >= 0x20, unit < 0x7F, unit != 0x22, unit != 0x5C {
      out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
    } else {
      out += String(format: "\\u%04x", unit)
    }
  }
  return out + "\""
}

func real(_ d: Double) -> String {
  if d.isNaN { return "rnan" }
  if d.isInfinite { return d < 0 ? "r-inf" : "rinf" }
  return "r" + String(format: "%.17g", d)
}

struct Unknown: Error { var what: String }

func uidValue(_ v: Any) throws -> String {
  // The UID class is internal to Foundation: its value is read back from its XML form,
  // `<dict><key>CF$UID</key><integer>N</integer></dict>`.
  let xml = try PropertyListSerialization.data(fromPropertyList: [v], format: .xml, options: 0)
  let text = String(decoding: xml, as: UTF8.self)
  guard let open = text.range(of: "<integer>"), let close = text.range(of: "</integer>")
  else { throw Unknown(what: "a UID without a value") }
  return "u" + text[open.upperBound..<close.lowerBound]
}

func canonical(_ v: Any) throws -> String {
  if type(of: v) == Bool.self, let b = v as? Bool { return b ? "T" : "F" }
  if let s = v as? String { return string(s) }
  if let n = v as? NSNumber {
    let t = String(cString: n.objCType)
    switch t {
    case "c" where type(of: v) != NSNumber.self: return n.boolValue ? "T" : "F"
    case "f", "d": return real(n.doubleValue)
    case "Q", "L", "I", "S", "C": return "i\(n.uint64Value)"
    default: return "i\(n.int64Value)"
    }
  }
  if let d = v as? Data { return "x" + d.map { String(format: "%02x", $0) }.joined() }
  if let d = v as? Date { return "d" + String(format: "%.17g", d.timeIntervalSinceReferenceDate) }
  if let a = v as? [Any] { return "(" + (try a.map(canonical)).joined(separator: ",") + ")" }
  if let d = v as? NSDictionary {
    var entries: [(String, String)] = []
    for (k, x) in d { entries.append((try canonical(k), try canonical(x))) }
    entries.sort { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }
    return "{" + entries.map { "\($0.0)=\($0.1);" }.joined() + "}"
  }
  if "\(type(of: v))".contains("KeyedArchiverUID") { return try uidValue(v) }
  throw Unknown(what: "a value of type \(type(of: v))")
}

setvbuf(stdout, nil, _IOLBF, 0)
while let path = readLine() {
  guard let data = FileManager.default.contents(atPath: path) else {
    print("ERR cannot read the file")
    continue
  }
  do {
    let value = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    print("OK " + (try canonical(value)))
  } catch let error as Unknown {
    print("ERR unknown: \(error.what)")
  } catch {
    print("ERR " + "\(error)".replacingOccurrences(of: "\n", with: " "))
  }
}
