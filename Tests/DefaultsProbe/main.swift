// defaults-probe: the `corelibs` reference of prefs' differential tests.
//
// Prints what swift-corelibs-foundation's `UserDefaults.standard` getters return
// for every key of the application's defaults file.  On Linux corelibs reads
// `$XDG_CONFIG_HOME/<processName>.plist` (else `~/.config/<processName>.plist`);
// processName is the executable's file name, so the binary must be named
// `defaults-probe` and the file `defaults-probe.plist`.
//
//   defaults-probe dump
//       one line of JSON, keys sorted:
//       {"KEY": {"bool": true, "integer": "123", "double": "%.17g|nan|inf|-inf",
//                "float": "%.9g|nan|inf|-inf", "string": "..." | null,
//                "url": "<absoluteString>" | null,
//                "stringArray": ["...", ...] | null}, ...}
//       A getter that traps (kills the process with a signal) is shown as the
//       string "<trap>" in place of its value.
//   defaults-probe entries KEY...   (internal) one line `"KEY": {...}` per key
//   defaults-probe get GETTER KEY   (internal) the JSON value of one getter
//   defaults-probe args ARG...      the argument domain corelibs made of this process's
//                                   arguments, as an XML property list
//
// Some getters trap on some stored values (`url` of a data value that is not a
// keyed archive; `integer` of some strings), and a trap cannot be caught in
// process.  So `dump` runs the getters in a child process (`entries`, all the
// keys at once, one line written per key as it is done); when the child dies by
// a signal, the key it was on is redone one getter per child (`get`), and a new
// `entries` child goes on with the keys after it.
//
// Build (standalone): swiftc -O Tests/DefaultsProbe/main.swift -o /tmp/defaults-probe

import Foundation

func standardError(_ message: String) {
  FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Unbuffered: what was written survives a trap that comes later.
func writeLine(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func jsonString(_ s: String) -> String {
  var out = "\""
  for unit in s.utf16 {
    switch unit {
    case 0x22: out += "\\\""
    case 0x5C: out += "\\\\"
    case 0x20..<0x7F:
      out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
    default:
      // control characters, DEL and everything non-ASCII as \uXXXX
      // (astral characters as surrogate pairs)
      let hex = String(unit, radix: 16)
      out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
  }
  return out + "\""
}

func realText(_ value: Double, digits: Int) -> String {
  if value.isNaN { return "nan" }
  if value.isInfinite { return value > 0 ? "inf" : "-inf" }
  return String(format: "%.\(digits)g", value)
}

let getters = ["bool", "integer", "double", "float", "string", "url", "stringArray"]

/// The JSON value of one getter's result.
func getterJSON(_ getter: String, _ key: String) -> String? {
  let defaults = UserDefaults.standard
  switch getter {
  case "bool":
    return defaults.bool(forKey: key) ? "true" : "false"
  case "integer":
    return "\"\(defaults.integer(forKey: key))\""
  case "double":
    return "\"\(realText(defaults.double(forKey: key), digits: 17))\""
  case "float":
    return "\"\(realText(Double(defaults.float(forKey: key)), digits: 9))\""
  case "string":
    return defaults.string(forKey: key).map(jsonString) ?? "null"
  case "url":
    return defaults.url(forKey: key).map { jsonString($0.absoluteString) } ?? "null"
  case "stringArray":
    guard let array = defaults.stringArray(forKey: key) else { return "null" }
    return "[" + array.map(jsonString).joined(separator: ", ") + "]"
  default:
    return nil
  }
}

func entry(_ key: String, _ values: [String]) -> String {
  let fields = zip(getters, values).map { "\"\($0)\": \($1)" }
  return "\(jsonString(key)): {\(fields.joined(separator: ", "))}"
}

/// The file corelibs reads for `UserDefaults.standard`.
func defaultsFileURL() -> URL {
  let name = ProcessInfo.processInfo.processName + ".plist"
  if let xdg = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
    return URL(fileURLWithPath: xdg).appendingPathComponent(name)
  }
  return URL(fileURLWithPath: NSHomeDirectory())
    .appendingPathComponent(".config").appendingPathComponent(name)
}

/// Top-level keys of the defaults file, read independently of UserDefaults
/// (so a key that corelibs drops still shows); falls back to
/// `persistentDomain(forName:)` when the file cannot be read that way.
func storedKeys() -> [String] {
  let url = defaultsFileURL()
  if let data = try? Data(contentsOf: url) {
    do {
      let plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
      if let dict = plist as? [String: Any] {
        return dict.keys.sorted()
      }
      standardError("defaults-probe: \(url.path): top level is not a dictionary")
    } catch {
      standardError("defaults-probe: \(url.path): \(error)")
    }
  } else {
    standardError("defaults-probe: cannot read \(url.path)")
  }
  let domain =
    UserDefaults.standard.persistentDomain(forName: ProcessInfo.processInfo.processName) ?? [:]
  return domain.keys.sorted()
}

struct ChildResult {
  var lines: [String]
  var trapped: Bool
  var failed: Bool
}

/// Runs this executable again with `arguments`.
func runChild(_ arguments: [String]) -> ChildResult {
  let child = Process()
  // Bundle.main.executablePath is the real file, so the child has the same
  // processName and reads the same defaults file.
  let path = Bundle.main.executablePath ?? CommandLine.arguments[0]
  child.executableURL = URL(fileURLWithPath: path)
  child.arguments = arguments
  let pipe = Pipe()
  child.standardOutput = pipe
  child.standardError = FileHandle.nullDevice
  do {
    try child.run()
  } catch {
    standardError("defaults-probe: cannot run \(path): \(error)")
    return ChildResult(lines: [], trapped: false, failed: true)
  }
  let output = pipe.fileHandleForReading.readDataToEndOfFile()
  child.waitUntilExit()
  let text = String(decoding: output, as: UTF8.self)
  var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
  if !text.isEmpty && !text.hasSuffix("\n") {
    lines.removeLast()  // a line cut short by the trap
  }
  let trapped = child.terminationReason == .uncaughtSignal
  return ChildResult(
    lines: lines, trapped: trapped, failed: !trapped && child.terminationStatus != 0)
}

func dump() -> Int32 {
  var pending = storedKeys()[...]
  var entries: [String] = []
  while !pending.isEmpty {
    let result = runChild(["entries"] + pending)
    if result.failed {
      standardError("defaults-probe: child failed")
      return 1
    }
    entries += result.lines
    pending = pending.dropFirst(result.lines.count)
    guard result.trapped, let key = pending.first else {
      if !pending.isEmpty {
        standardError("defaults-probe: child stopped early")
        return 1
      }
      break
    }
    // This key trapped: one child per getter.
    var values: [String] = []
    for getter in getters {
      let one = runChild(["get", getter, key])
      if one.trapped {
        values.append("\"<trap>\"")
      } else if let value = one.lines.first, !one.failed {
        values.append(value)
      } else {
        standardError("defaults-probe: get \(getter) \(key) failed")
        return 1
      }
    }
    entries.append(entry(key, values))
    pending = pending.dropFirst()
  }
  print("{" + entries.joined(separator: ", ") + "}")
  return 0
}

let arguments = CommandLine.arguments
if arguments.count == 2 && arguments[1] == "dump" {
  exit(dump())
} else if arguments.count >= 2 && arguments[1] == "entries" {
  for key in arguments.dropFirst(2) {
    writeLine(entry(key, getters.map { getterJSON($0, key) ?? "null" }))
  }
  exit(0)
} else if arguments.count == 4 && arguments[1] == "get",
  let value = getterJSON(arguments[2], arguments[3])
{
  writeLine(value)
  exit(0)
} else if arguments.count >= 2 && arguments[1] == "args" {
  let domain = UserDefaults.standard.volatileDomain(forName: UserDefaults.argumentDomain)
  do {
    let xml = try PropertyListSerialization.data(
      fromPropertyList: domain, format: .xml, options: 0)
    FileHandle.standardOutput.write(xml)
    exit(0)
  } catch {
    standardError("defaults-probe: \(error)")
    exit(1)
  }
} else {
  standardError("usage: defaults-probe dump | args ARG...")
  exit(2)
}
