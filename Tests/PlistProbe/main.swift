// prefs' side of Scripts/differential.sh: reads each path named on standard input (one a
// line) as `--dialect D` reads a legacy file (`Dialect.readOptions(exact: true)`, what the
// migration reads with) and prints one line a path: `OK <value>\t<warnings>` in the canonical
// form of Scripts/Differential/cf_driver.swift, or `ERR <reason>`. With `--write FORMAT DIR`,
// each value read is also written in FORMAT (`PropertyList.write`, as `prefs convert` writes)
// to DIR/<n>.plist, and the line ends `\tW <path>` or `\tWERR <reason>`: the harness has the
// references read it back (a round trip). `--lenient` reads as the tools that name no dialect.
import Foundation
import LegacyDefaults
import PropertyList

func canonicalString(_ s: String) -> String {
  var out = "s\""
  for unit in s.utf16 {
    if unit >= 0x20, unit < 0x7F, unit != 0x22, unit != 0x5C {
      out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
    } else {
      let hex = String(unit, radix: 16)
      out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
  }
  return out + "\""
}

func g17(_ d: Double) -> String {
  if d == 0 { return d.sign == .minus ? "-0" : "0" }
  var text = String(format: "%.17g", d)
  if text.hasPrefix("+") { text.removeFirst() }
  return text
}

func canonical(_ value: PlistValue) -> String {
  switch value {
  case .string(let s): return canonicalString(s)
  case .integer(let i): return "i\(i)"
  case .unsignedInteger(let u): return "i\(u)"
  case .real(let d):
    if d.isNaN { return "rnan" }
    if d.isInfinite { return d < 0 ? "r-inf" : "rinf" }
    return "r" + g17(d)
  case .bool(let b): return b ? "T" : "F"
  case .date(let d): return "d" + g17(d.timeIntervalSinceReferenceDate)
  case .data(let d): return "x" + d.map { String(format: "%02x", $0) }.joined()
  case .uid(let u): return "u\(u)"
  case .array(let a): return "(" + a.map(canonical).joined(separator: ",") + ")"
  case .dictionary(let d):
    let entries = d.map { (canonicalString($0.key), canonical($0.value)) }
      .sorted { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }
    return "{" + entries.map { "\($0.0)=\($0.1);" }.joined() + "}"
  }
}

func oneLine(_ text: String) -> String {
  text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\t", with: " ")
}

var arguments = CommandLine.arguments.dropFirst()
var options = PlistReadOptions.lenient
var write: (format: PlistFormat, folder: String)? = nil
while let argument = arguments.popFirst() {
  switch argument {
  case "--dialect":
    guard let name = arguments.popFirst(), let dialect = Dialect(rawValue: name) else {
      FileHandle.standardError.write(Data("--dialect apple|gnustep|corelibs\n".utf8))
      exit(2)
    }
    options = dialect.readOptions(exact: true)
  case "--lenient": options = .lenient
  case "--write":
    guard let name = arguments.popFirst(), let format = PlistFormat(rawValue: name),
      let folder = arguments.popFirst()
    else {
      FileHandle.standardError.write(Data("--write xml|binary|openstep|gnustep DIR\n".utf8))
      exit(2)
    }
    write = (format, folder)
  default:
    FileHandle.standardError.write(Data("unknown argument \(argument)\n".utf8))
    exit(2)
  }
}

/// One line, written at once (unbuffered), so that a crash is known to be on the next input.
func emit(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

var count = 0
while let path = readLine() {
  count += 1
  guard let data = FileManager.default.contents(atPath: path) else {
    emit("ERR cannot read the file")
    continue
  }
  let document: PlistDocument
  do {
    document = try PropertyList.read(data, options: options)
  } catch {
    emit("ERR " + oneLine(error.description))
    continue
  }
  // As the migration reads a domain (`DomainFile.domain(of:path:)`): keys that only Unicode
  // normalization tells apart refuse the file, since a dictionary of Swift strings cannot keep
  // both.
  if let refusal = document.warnings.first(where: {
    if case .indistinctKeys = $0 { true } else { false }
  }) {
    emit("ERR the domain is refused: " + oneLine(refusal.description))
    continue
  }
  var line =
    "OK " + canonical(document.value) + "\t"
    + oneLine(document.warnings.map(\.description).joined(separator: " | "))
  if let (format, folder) = write {
    let out = folder + "/\(count).plist"
    do {
      let bytes = try PropertyList.write(document.value, as: format)
      try bytes.write(to: URL(fileURLWithPath: out))
      line += "\tW " + out
    } catch {
      line += "\tWERR " + oneLine("\(error)")
    }
  }
  emit(line)
}
