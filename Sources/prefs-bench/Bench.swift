import Foundation
import LegacyDefaults
import LegacyDefaultsFoundation
import Preferences
import PreferencesMigration
import PropertyList

struct Case {
  var name: String
  var prefs: Double
  var baseline: String
  var baselineMs: Double
  var unit = "ms"
  var note: String?
  /// With `--check`, a ratio above this fails the run: a bound far above the target, to catch
  /// a gross regression (a quadratic reader) in CI's quick run, not to hold the target.
  var limit: Double?
  /// The ratio the issue sets (BENCHMARKS.md): met when the ratio is at or below it.
  var target: Double?
  var ratio: Double { baselineMs == 0 ? 0 : prefs / baselineMs }
  var met: Bool? { target.map { ratio <= $0 } }
}

struct BenchError: Error, CustomStringConvertible {
  var description: String
}

final class Bench {
  let quick: Bool
  let keyCount: Int
  let runs: Int
  let folder: URL
  var cases: [Case] = []

  init(quick: Bool) {
    self.quick = quick
    keyCount = quick ? 20_000 : 100_000
    runs = quick ? 3 : 7
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "prefs-bench-\(ProcessInfo.processInfo.processIdentifier)")
  }

  deinit { try? FileManager.default.removeItem(at: folder) }

  func runAll() throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    if CommandLine.arguments.contains("--latency") {
      try changeLatency()
      return
    }
    if CommandLine.arguments.contains("--scan") {
      try sourceScan()
      return
    }
    if CommandLine.arguments.contains("--small") {
      try wholeProcesses(onlyStarts: true)
      return
    }
    try loadAndWrite()
    try hotRead()
    try setAndSynchronize()
    try contendedModify()
    try migrateBatch()
    try peakMemory()
    try storeLoad()
    try singleKeyRead()
    try streaming()
    try wholeProcesses()
    try sourceScan()
    try changeLatency()
  }

  /// The median of `runs` timings of `body`, in milliseconds.
  func median(_ body: () throws -> Void) rethrows -> Double {
    var samples: [Double] = []
    for _ in 0..<runs {
      let start = DispatchTime.now().uptimeNanoseconds
      try body()
      samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    return samples.sorted()[samples.count / 2]
  }

  // MARK: - Output

  func table() -> String {
    var lines = [
      "case | prefs | baseline | baseline | ratio | target", "---|---|---|---|---|---",
    ]
    for c in cases {
      let target =
        c.target.map { "≤ \(String(format: "%.2f", $0)) \(c.met == true ? "met" : "NOT MET")" }
        ?? ""
      lines.append(
        "\(c.name) | \(String(format: "%.2f", c.prefs)) \(c.unit) | \(c.baseline) | "
          + "\(String(format: "%.2f", c.baselineMs)) \(c.unit) | \(String(format: "%.3f", c.ratio))"
          + (c.note.map { " (\($0))" } ?? "") + " | \(target)")
    }
    let targeted = cases.filter { $0.target != nil }
    let met = targeted.filter { $0.met == true }.count
    lines.append("")
    lines.append(
      quick
        ? "targets: held by the full run only (the quick run's sizes are smaller)"
        : "targets met: \(met) of \(targeted.count)")
    return lines.joined(separator: "\n")
  }

  /// The cases as JSON, through the project's one JSON writer (`JSONValue`).
  func json() -> String {
    // JSON has no NaN or infinity: a case that measured nothing is null.
    func number(_ d: Double) -> JSONValue {
      d.isFinite ? .number((d * 1000).rounded() / 1000) : .null
    }
    // "prefs_value" and "baseline_value" are in "unit" (ms, ns or MiB): no unit in the names.
    let rows = cases.map { c -> JSONValue in
      var row: [String: JSONValue] = [
        "name": .string(c.name), "prefs_value": number(c.prefs), "baseline": .string(c.baseline),
        "baseline_value": number(c.baselineMs), "unit": .string(c.unit), "ratio": number(c.ratio),
      ]
      if let target = c.target {
        row["target"] = number(target)
        row["met"] = .bool(target >= c.ratio)
      }
      if let note = c.note { row["note"] = .string(note) }
      return .object(row)
    }
    return JSONValue.object(["cases": .array(rows)]).text()
  }
}

/// A defaults-like domain: `count` keys with the value mix a real app has (≈ 37 bytes a key
/// in binary).
func makeDomain(_ count: Int) -> PlistDictionary {
  var dictionary = PlistDictionary(minimumCapacity: count)
  for i in 0..<count {
    let key = "setting.\(i)"
    switch i % 6 {
    case 0: dictionary[key] = .integer(Int64(i) * 7919)
    case 1: dictionary[key] = .string("value \(i)")
    case 2: dictionary[key] = .real(Double(i) / 3)
    case 3: dictionary[key] = .bool(i % 4 == 0)
    case 4: dictionary[key] = .date(Date(timeIntervalSinceReferenceDate: Double(i) * 60))
    default: dictionary[key] = .array([.string("a\(i)"), .integer(Int64(i))])
    }
  }
  return dictionary
}

/// The same value as Foundation objects, for the baselines (through the library's one bridge,
/// as `UserDefaultsStorage` converts).
func foundationObject(_ value: PlistValue) throws -> Any {
  try FoundationBridge.object(value, key: "bench")
}

/// Foundation objects back to PlistValue: the cost of the "wrap PropertyListSerialization"
/// option, on top of its parse.
func plistValue(_ object: Any) throws -> PlistValue {
  try FoundationBridge.value(object, key: "bench")
}
