import Foundation
import PreferencesMigration
import PrefsTools
import PropertyList
import TestSupport
import Testing

/// `prefs plan scan` on real open-source apps no one here wrote, against labels written by
/// reading their code (Fixtures/SourceScan/Apps/*/labels.json). The code is not in this
/// repository: `Scripts/scan-apps.sh DEST` brings it, and `PREFS_SCAN_APPS=DEST` runs these
/// tests (without it they are reported as skipped).
@Suite struct SourceScanAccuracyTests {
  static let apps = ProcessInfo.processInfo.environment["PREFS_SCAN_APPS"].map {
    URL(fileURLWithPath: $0)
  }
  static let labels = External.packageRoot.appendingPathComponent(
    "Tests/PrefsToolsTests/Fixtures/SourceScan/Apps")

  struct Label: Decodable {
    var key: String
    var type: String
    var `default`: JSONValueBox?
    /// The suite the key lives in (an app group's); none for the standard domain.
    var suite: String?
  }

  struct Labels: Decodable {
    var app: String
    var scanned: [String]
    var keys: [Label]
    /// Where the app's measures are known to be below the target (and the labels say why),
    /// the floor that holds them there.
    var floor: [String: Double]?
  }

  /// A label's default, as the plan file would hold it.
  struct JSONValueBox: Decodable, Equatable {
    var value: PlistValue

    init(from decoder: any Decoder) throws {
      let c = try decoder.singleValueContainer()
      if let b = try? c.decode(Bool.self) {
        value = .bool(b)
      } else if let i = try? c.decode(Int64.self) {
        value = .integer(i)
      } else if let d = try? c.decode(Double.self) {
        value = .real(d)
      } else if let s = try? c.decode(String.self) {
        value = .string(s)
      } else if let a = try? c.decode([JSONValueBox].self) {
        value = .array(a.map(\.value))
      } else {
        let d = try c.decode([String: JSONValueBox].self)
        value = .dictionary(PlistDictionary(d.mapValues(\.value)))
      }
    }
  }

  /// The four measures of one app: recall and precision of its keys, and the share of the
  /// keys found whose type and default are the labels'. A key the scan proposes for `drop`
  /// (the code only removes it) is found; it has no type or default to compare.
  struct Measures: CustomStringConvertible {
    var labelled = 0
    var found = 0
    var both = 0
    /// The keys found and compared for their type and default (not only removed).
    var compared = 0
    var typed = 0
    var defaulted = 0
    var misses: [String] = []

    var recall: Double { Double(both) / Double(max(1, labelled)) }
    var precision: Double { Double(both) / Double(max(1, found)) }
    var types: Double { Double(typed) / Double(max(1, compared)) }
    var defaults: Double { Double(defaulted) / Double(max(1, compared)) }

    var description: String {
      "recall \(both)/\(labelled), precision \(both)/\(found), types \(typed)/\(compared), "
        + "defaults \(defaulted)/\(compared); \(misses.joined(separator: "; "))"
    }
  }

  /// Two defaults alike, a whole number in a collection equal to its real (JSON does not
  /// tell a column width `128` from a plist's `<real>128</real>`).
  static func same(_ a: PlistValue?, _ b: PlistValue?) -> Bool {
    switch (a, b) {
    case (.integer(let i)?, .real(let d)?), (.real(let d)?, .integer(let i)?): return Double(i) == d
    case (.array(let x)?, .array(let y)?):
      return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
    case (.dictionary(let x)?, .dictionary(let y)?):
      return x.count == y.count && x.keys.allSatisfy { same(x[$0], y[$0]) }
    default: return a == b
    }
  }

  static func labels(_ app: String) throws -> Labels {
    try JSONDecoder().decode(
      Labels.self,
      from: Data(
        contentsOf: Self.labels.appendingPathComponent(app).appendingPathComponent("labels.json")))
  }

  static func measure(_ app: String) throws -> Measures {
    let labels = try Self.labels(app)
    let root = try #require(Self.apps).appendingPathComponent(app)
    let result = SourceScan.scan(
      labels.scanned.map { root.appendingPathComponent($0).path },
      options: SourceScan.Options(jobs: 2))
    // The keys of every domain the code uses, each under its domain (`suite|key` for a
    // suite's), as a porting developer scans each (`--suite`).
    var all = result.keys.map { ($0.entry.from, $0.entry) }
    for (domain, keys) in result.otherDomains {
      guard case .suite(let name) = domain else { continue }
      all += keys.map { (name + "|" + $0.entry.from, $0.entry) }
    }
    // A labelled suite is scanned as the developer would (`--suite NAME`): that takes a suite
    // whose name the code makes at run time (`"group." + bundleID`) as NAME.
    let paths = labels.scanned.map { root.appendingPathComponent($0).path }
    var suiteRemoved: [(String, MigrationPlan.Entry)] = []
    for suite in Set(labels.keys.compactMap(\.suite)).sorted() {
      let scanned = SourceScan.scan(paths, options: SourceScan.Options(suite: suite, jobs: 2))
      all.removeAll { id, _ in
        guard let bar = id.firstIndex(of: "|") else { return false }
        let name = String(id[..<bar])
        return name == suite || name.contains("*") && SourcePlanMerge.matches(suite, pattern: name)
      }
      all += scanned.keys.map { (suite + "|" + $0.entry.from, $0.entry) }
      // The suite's keys the code only removes (proposed for drop) are found too.
      suiteRemoved += scanned.removed.map { (suite + "|" + $0.entry.from, $0.entry) }
    }
    let removed = Set(result.removed.map(\.entry.from) + suiteRemoved.map(\.0))
    all += result.removed.map { ($0.entry.from, $0.entry) } + suiteRemoved
    let found = Dictionary(all, uniquingKeysWith: { a, _ in a })
    var m = Measures(labelled: labels.keys.count, found: found.count)
    for label in labels.keys {
      let id = label.suite.map { $0 + "|" + label.key } ?? label.key
      guard let entry = found[id] else {
        m.misses.append("\(id) not found")
        continue
      }
      m.both += 1
      if removed.contains(id) { continue }
      m.compared += 1
      if entry.type.rawValue == label.type {
        m.typed += 1
      } else {
        m.misses.append("\(label.key) typed \(entry.type.rawValue), labelled \(label.type)")
      }
      // JSON does not tell 500 from 500.0: a labelled double's whole number is a real.
      var labelled = label.default?.value
      if label.type == "double", case .integer(let i)? = labelled { labelled = .real(Double(i)) }
      // Nor in a JSON-stored value (JSONEncoder writes a Double's 1.0 as 1).
      if label.type == "json", case .integer(let i)? = labelled,
        case .real(let d)? = entry.defaultValue, d == Double(i)
      {
        labelled = .real(d)
      }
      // A labelled date is its XML text (`0000-12-30T00:00:00Z`, as Foundation writes distantPast).
      if label.type == "date", case .string(let text)? = labelled,
        let date = PropertyList.date(fromText: text)
      {
        labelled = .date(date)
      }
      // A labelled data default is its base64 text (`""`: empty), as an XML plist writes it.
      if label.type == "data", case .string(let text)? = labelled,
        let data = Data(base64Encoded: text)
      {
        labelled = .data(data)
      }
      if Self.same(entry.defaultValue, labelled) {
        m.defaulted += 1
      } else {
        m.misses.append(
          "\(label.key) default \(entry.defaultValue.map(MigrationReport.short) ?? "none"), labelled \(label.default.map { MigrationReport.short($0.value) } ?? "none")"
        )
      }
    }
    let labelled = Set(labels.keys.map { l in l.suite.map { $0 + "|" + l.key } ?? l.key })
    for key in found.keys where !labelled.contains(key) { m.misses.append("\(key) is not a key") }
    return m
  }

  /// Every labelled app: a folder of Fixtures/SourceScan/Apps holding a labels.json (an app
  /// labelled later is measured without a change here).
  static let labelled: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: labels.path)) ?? []
    return names.filter {
      FileManager.default.fileExists(
        atPath: labels.appendingPathComponent($0).appendingPathComponent("labels.json").path)
    }.sorted()
  }()

  /// The labelled apps whose code Scripts/scan-apps.sh brought into PREFS_SCAN_APPS, and those
  /// it could not have (each reported by `theAppsNotBroughtAreSkipped`, never passed).
  static let brought = labelled.filter { app in
    apps.map { FileManager.default.fileExists(atPath: $0.appendingPathComponent(app).path) }
      ?? false
  }
  static let notBrought = labelled.filter { !brought.contains($0) }

  @Test func everyLabelledAppIsMeasured() {
    // A folder without labels.json, or a labels folder gone, would measure nothing and pass.
    #expect(Self.labelled.count >= 4, "\(Self.labelled)")
  }

  /// Each measure at least 0.95 on each app, or the floor its labels give with the reason
  /// (Flycut for iOS: Mac-only code under an `#ifdef`, two untyped values).
  @Test(
    .enabled(
      if: apps != nil, "PREFS_SCAN_APPS names no folder (Scripts/scan-apps.sh DEST brings the apps)"
    ),
    arguments: brought)
  func theScanFindsTheLabelledKeysTypesAndDefaults(_ app: String) throws {
    let m = try Self.measure(app)
    let floor = try Self.labels(app).floor ?? [:]
    print("\(app): \(m)")
    #expect(m.recall >= floor["recall", default: 0.95], "\(m)")
    #expect(m.precision >= floor["precision", default: 0.95], "\(m)")
    #expect(m.types >= floor["type", default: 0.95], "\(m)")
    #expect(m.defaults >= floor["default", default: 0.95], "\(m)")
    // A string reported as a key that is none: none, or as many as the labels' floor allows
    // and says why (`notAKey`).
    let notKeys = m.misses.filter { $0.hasSuffix(" is not a key") }.count
    #expect(Double(notKeys) <= floor["notAKey", default: 0], "\(m)")
  }

  @Test(
    .enabled(
      if: apps != nil, "PREFS_SCAN_APPS names no folder (Scripts/scan-apps.sh DEST brings the apps)"
    ),
    .disabled(if: notBrought.isEmpty, "every labelled app's code was brought"))
  func theAppsNotBroughtAreSkipped() throws {
    try Test.cancel("not brought, so not measured: \(Self.notBrought.joined(separator: ", "))")
  }

  /// The issue's targets over every app that could be brought, keys pooled: recall 0.92,
  /// precision 0.97, types 0.95, defaults 0.85.
  @Test(
    .enabled(
      if: apps != nil, "PREFS_SCAN_APPS names no folder (Scripts/scan-apps.sh DEST brings the apps)"
    ))
  func overAllTheAppsTheScanMeetsTheTargets() throws {
    var all = Measures()
    for app in Self.brought {
      let m = try Self.measure(app)
      all.labelled += m.labelled
      all.found += m.found
      all.both += m.both
      all.compared += m.compared
      all.typed += m.typed
      all.defaulted += m.defaulted
    }
    if all.labelled == 0 { try Test.cancel("no labelled app's code was brought") }
    print("all apps: \(all)")
    #expect(all.recall >= 0.92, "\(all)")
    #expect(all.precision >= 0.97, "\(all)")
    // (Known: since the thirtieth to thirty-third held-out sets, 0.946 pooled: GNUstep apps
    // whose numbers are kept as text, typed by the getter's conversion where their labellers
    // typed what is written; strings read from a fixed set, and Int-raw enums, some labellers
    // typed `enum`. Reported so, never hidden: met again, this known issue fails.)
    withKnownIssue("pooled types below 0.95 (issue 49)") {
      #expect(all.types >= 0.95, "\(all)")
    }
    #expect(all.defaults >= 0.85, "\(all)")
  }
}
