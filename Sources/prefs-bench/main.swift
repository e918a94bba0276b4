import Foundation
import PropertyList

// prefs-bench: prefs against the baselines a user would use instead, in one run, on the same
// data. Prints the median of several runs per case and the ratio prefs/baseline.
// Usage: swift run -c release prefs-bench [--quick] [--json]

let arguments = Set(CommandLine.arguments.dropFirst())
let quick = arguments.contains("--quick")
let keyCount = quick ? 20_000 : 100_000
let runs = quick ? 3 : 7

/// A defaults-like domain: `keyCount` keys with the value mix a real app has.
func makeDomain(_ count: Int) -> PlistValue {
  var dictionary: [String: PlistValue] = [:]
  dictionary.reserveCapacity(count)
  for i in 0..<count {
    let key = "com.example.setting.\(i)"
    switch i % 6 {
    case 0: dictionary[key] = .integer(Int64(i) * 7919)
    case 1: dictionary[key] = .string("value number \(i)")
    case 2: dictionary[key] = .real(Double(i) / 3)
    case 3: dictionary[key] = .bool(i % 4 == 0)
    case 4: dictionary[key] = .date(Date(timeIntervalSinceReferenceDate: Double(i) * 60))
    default: dictionary[key] = .array([.string("a\(i)"), .integer(Int64(i))])
    }
  }
  return .dictionary(dictionary)
}

/// The same value as Foundation objects, for the baselines.
func foundationObject(_ value: PlistValue) -> Any {
  switch value {
  case .string(let s): return s
  case .integer(let i): return NSNumber(value: i)
  case .unsignedInteger(let u): return NSNumber(value: u)
  case .real(let d): return NSNumber(value: d)
  case .bool(let b): return NSNumber(value: b)
  case .date(let d): return d
  case .data(let d): return d
  case .uid(let u): return NSNumber(value: u)
  case .array(let a): return a.map(foundationObject)
  case .dictionary(let d): return d.mapValues(foundationObject)
  }
}

/// Foundation objects back to PlistValue: the cost of the "wrap PropertyListSerialization"
/// option, on top of its parse.
func plistValue(_ object: Any) -> PlistValue {
  switch object {
  case let s as String: return .string(s)
  case let d as Date: return .date(d)
  case let d as Data: return .data(d)
  case let a as [Any]: return .array(a.map(plistValue))
  case let d as [String: Any]: return .dictionary(d.mapValues(plistValue))
  case let n as NSNumber:
    switch n.objCType.pointee {
    case CChar(UInt8(ascii: "c")), CChar(UInt8(ascii: "B")): return .bool(n.boolValue)
    case CChar(UInt8(ascii: "d")), CChar(UInt8(ascii: "f")): return .real(n.doubleValue)
    default: return .integer(n.int64Value)
    }
  default: return .string("\(object)")
  }
}

func median(_ body: () throws -> Void) rethrows -> Double {
  var samples: [Double] = []
  for _ in 0..<runs {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
  }
  return samples.sorted()[samples.count / 2]
}

struct Case {
  var name: String
  var prefs: Double
  var baseline: String
  var baselineMs: Double
  var ratio: Double { prefs / baselineMs }
}

var cases: [Case] = []
let domain = makeDomain(keyCount)

// `--profile-write FORMAT` / `--profile-read FORMAT`: only prefs' side, in a loop, for a profiler.
let argv = Array(CommandLine.arguments.dropFirst())
if let flag = argv.firstIndex(where: { $0.hasPrefix("--profile-") }), flag + 1 < argv.count {
  let format: PlistFormat = argv[flag + 1] == "xml" ? .xml : .binary
  do {
    let data = try PropertyList.write(domain, as: format)
    for _ in 0..<10 {
      if argv[flag] == "--profile-write" {
        _ = try PropertyList.write(domain, as: format)
      } else {
        _ = try PropertyList.read(data)
      }
    }
  } catch {
    FileHandle.standardError.write(Data("prefs-bench: \(error)\n".utf8))
    exit(1)
  }
  exit(0)
}

let object = foundationObject(domain)

do {
  for format in [PlistFormat.binary, .xml] {
    let data = try PropertyList.write(domain, as: format)
    let foundationFormat: PropertyListSerialization.PropertyListFormat =
      format == .binary ? .binary : .xml
    let name = format == .binary ? "binary" : "xml"
    let label = "\(keyCount) keys, \(name), \(data.count / 1024) KiB"

    let readOurs = try median { _ = try PropertyList.read(data) }
    let readTheirs = try median {
      _ = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    }
    cases.append(
      Case(
        name: "load \(label)", prefs: readOurs, baseline: "PropertyListSerialization",
        baselineMs: readTheirs))
    let readWrapped = try median {
      _ = plistValue(
        try PropertyListSerialization.propertyList(from: data, options: [], format: nil))
    }
    cases.append(
      Case(
        name: "load \(label)", prefs: readOurs,
        baseline: "PropertyListSerialization + conversion to PlistValue", baselineMs: readWrapped))

    let writeOurs = try median { _ = try PropertyList.write(domain, as: format) }
    let writeTheirs = try median {
      _ = try PropertyListSerialization.data(
        fromPropertyList: object, format: foundationFormat, options: 0)
    }
    cases.append(
      Case(
        name: "write \(label)", prefs: writeOurs, baseline: "PropertyListSerialization",
        baselineMs: writeTheirs))
  }
} catch {
  FileHandle.standardError.write(Data("prefs-bench: \(error)\n".utf8))
  exit(1)
}

if arguments.contains("--json") {
  let rows = cases.map {
    "{\"name\": \"\($0.name)\", \"prefs_ms\": \(($0.prefs * 1000).rounded() / 1000), "
      + "\"baseline\": \"\($0.baseline)\", \"baseline_ms\": \(($0.baselineMs * 1000).rounded() / 1000), "
      + "\"ratio\": \(($0.ratio * 1000).rounded() / 1000)}"
  }
  print("{\"cases\": [\n  " + rows.joined(separator: ",\n  ") + "\n]}")
} else {
  print("case | prefs ms | baseline | baseline ms | ratio")
  for c in cases {
    print(
      "\(c.name) | \(String(format: "%.1f", c.prefs)) | \(c.baseline) | "
        + "\(String(format: "%.1f", c.baselineMs)) | \(String(format: "%.3f", c.ratio))")
  }
}
