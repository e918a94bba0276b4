import Foundation
import TestSupport
import Testing

/// `prefs plan infer` and `prefs plan check` on a generated fleet whose intended types are known
/// by construction, and on the shipped sample.
@Suite struct PlanCommandTests {
  static let binary = External.product("prefs")
  static let sample = External.packageRoot.appendingPathComponent(
    "Legacy/Samples/com.exmo.equizmo.plist"
  ).path

  static func prefs(_ arguments: [String]) throws -> ProcessResult {
    try External.run(binary, arguments)
  }

  /// A small deterministic generator (the fleet is the same on every run).
  struct Generator {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    mutating func pick<T>(_ items: [T]) -> T { items[next(items.count)] }
  }

  /// The key each generated file may hold, the type the old app meant by it, and the forms the
  /// years of versions and hand edits left in users' files.
  static let intended: [String: String] = [
    "soundEnabled": "bool", "rankingSize": "integer", "volume": "double", "theme": "enum",
    "profile": "json", "avatar": "data", "lastLaunch": "date", "recentSearches": "string-array",
    "nickname": "string", "window": "dictionary", "legacyBlob": "any", "fontSize": "integer",
  ]

  /// Writes `count` legacy domains, XML and binary mixed, with Foundation's serializer.
  static func fleet(_ count: Int, in folder: TemporaryFolder) throws -> String {
    let root = folder.file("fleet")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    var g = Generator(state: 42)
    for n in 0..<count {
      var d: [String: Any] = [:]
      d["soundEnabled"] = g.pick([true, false, "YES", "NO", "yes", 1, 0, "1"] as [Any])
      if g.next(10) < 8 {
        d["rankingSize"] = g.pick([5, 12, " 12", "7", 12.0, 3] as [Any])
      }
      d["volume"] = g.pick([0.5, "0.75", 1, 0.25, "1.5"] as [Any])
      d["theme"] = g.pick(["light", "dark", "system", "dark"])
      d["profile"] =
        g.next(2) == 0
        ? "{\"name\":\"user\(n)\",\"age\":\(g.next(80))}" as Any
        : Data("{\"name\":\"user\(n)\",\"age\":\(g.next(80))}".utf8) as Any
      d["avatar"] = Data((0..<16).map { _ in UInt8(g.next(200) + 40) })
      d["lastLaunch"] = Date(timeIntervalSince1970: Double(1_500_000_000 + g.next(100_000_000)))
      // One old version stored a lone string; the getter of the new one reads an array.
      d["recentSearches"] =
        n % 25 == 7 ? "query" as Any : (0..<g.next(4)).map { "query \($0 + n)" } as Any
      d["nickname"] = "player-\(n)-\(g.next(1000))"
      d["window"] = ["x": g.next(800), "y": g.next(600)]
      // Half arrays, half strings: no single type holds both.
      d["legacyBlob"] = n % 2 == 0 ? [1, 2, n] as Any : "blob \(n)" as Any
      // An integer that a few hand edits spoiled (the integer getter reads "big" as 0).
      d["fontSize"] = n % 25 == 7 ? "big" as Any : 11 + g.next(6) as Any
      let format: PropertyListSerialization.PropertyListFormat =
        n % 2 == 0 ? .xml : .binary
      let data = try PropertyListSerialization.data(
        fromPropertyList: d, format: format, options: 0)
      try data.write(to: root.appendingPathComponent("com.example.app.\(n).plist"))
    }
    return root.path
  }

  static func entries(_ planJSON: Data) throws -> [String: [String: Any]] {
    let root = try #require(JSONSerialization.jsonObject(with: planJSON) as? [String: Any])
    let keys = try #require(root["keys"] as? [[String: Any]])
    var byKey: [String: [String: Any]] = [:]
    for entry in keys {
      byKey[try #require(entry["from"] as? String)] = entry
    }
    return byKey
  }

  @Test func inferTypesAFleetAsIntendedAndCheckProvesIt() throws {
    let folder = try TemporaryFolder()
    let fleet = try Self.fleet(300, in: folder)
    let infer = try Self.prefs(["plan", "infer", "--jobs", "2", fleet])
    #expect(infer.status == 0, "\(infer.stderr)")
    let entries = try Self.entries(infer.stdout)
    #expect(Set(entries.keys) == Set(Self.intended.keys))
    for (key, type) in Self.intended {
      #expect(entries[key]?["type"] as? String == type, "\(key): \(entries[key] ?? [:])")
      #expect(entries[key]?["to"] as? String == key)
    }
    #expect(Set(entries["theme"]?["values"] as? [String] ?? []) == ["light", "dark", "system"])
    #expect(entries["theme"]?["default"] as? String == "dark")
    #expect(entries["recentSearches"]?["invalid"] as? String == "default")
    // The evidence and the flag on the conflicting key are on standard error.
    #expect(infer.stderr.contains("legacyBlob"))
    #expect(infer.stderr.contains("conflicting kinds"))
    #expect(infer.stderr.contains("300 files"))

    let plan = folder.file("plan.json")
    try infer.stdout.write(to: plan)
    let check = try Self.prefs(["plan", "check", plan.path, fleet])
    #expect(check.status == 0, "\(check.output)\(check.stderr)")
    #expect(check.output.contains("300 files: 300 would migrate"))
    // The 12 lone strings read as the default, and the report says where.
    #expect(check.output.contains("recentSearches: 12 files"))
    // Nothing was written into the fleet.
    let names = try FileManager.default.contentsOfDirectory(atPath: fleet)
    #expect(names.count == 300)
  }

  @Test func aBrokenPlanFailsTheCheckWithCounts() throws {
    let folder = try TemporaryFolder()
    let fleet = try Self.fleet(120, in: folder)
    // rankingSize as a date refuses every file holding it; "ghost" is in no file; the plan
    // names nothing else, and drops the rest.
    let plan = folder.file("broken.json")
    try Data(
      """
      {"plan": 1, "dialect": "apple", "schemaVersion": 1, "unmapped": "keep",
       "keys": [{"from": "rankingSize", "to": "ranking", "type": "date"},
                {"from": "ghost", "to": "ghost", "type": "string"}]}
      """.utf8
    ).write(to: plan)
    let check = try Self.prefs(["plan", "check", plan.path, fleet])
    #expect(check.status == 65)
    // Which files hold rankingSize, counted independently of the tool.
    var holding = 0
    for name in try FileManager.default.contentsOfDirectory(atPath: fleet) {
      let data = try Data(contentsOf: URL(fileURLWithPath: fleet).appendingPathComponent(name))
      let d = try PropertyListSerialization.propertyList(from: data, format: nil)
      if (d as? [String: Any])?["rankingSize"] != nil { holding += 1 }
    }
    #expect(holding > 0 && holding < 120)
    #expect(check.output.contains("120 files: \(120 - holding) would migrate, \(holding) refused"))
    #expect(check.output.contains("rankingSize: \(holding) files"))
    #expect(check.output.contains("soundEnabled: 120 files"))
    #expect(check.output.contains("entries no file has: ghost"))
  }

  @Test func theSampleInferredThenDryRunAccountsForEveryKey() throws {
    let folder = try TemporaryFolder()
    let infer = try Self.prefs(["plan", "infer", Self.sample])
    #expect(infer.status == 0, "\(infer.stderr)")
    let plan = folder.file("plan.json")
    try infer.stdout.write(to: plan)
    let run = try Self.prefs([
      "migrate", "--plan", plan.path, "--to", folder.file("out.plist").path, "--dry-run",
      "--json", Self.sample,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let report = try #require(JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
    let file = try #require((report["files"] as? [[String: Any]])?.first)
    let keys = try #require(file["keys"] as? [[String: Any]])
    let legacy = try #require(
      PropertyListSerialization.propertyList(
        from: Data(contentsOf: URL(fileURLWithPath: Self.sample)), format: nil) as? [String: Any])
    for key in legacy.keys {
      let action = keys.first { $0["from"] as? String == key }?["action"] as? String
      #expect(action == "migrated" || action == "coerced", "\(key): \(action ?? "absent")")
    }
    #expect(file["status"] as? String == "migrated")
  }

  @Test(arguments: [
    ["plan"], ["plan", "guess"], ["plan", "infer"], ["plan", "check"],
    ["plan", "check", "--dialect", "apple", "p.json", "x"], ["plan", "infer", "--jobs", "0", "x"],
  ])
  func wrongInputIsAUsageError(_ arguments: [String]) throws {
    let run = try Self.prefs(arguments)
    #expect(run.status == 64, "\(arguments): \(run.stderr)")
  }

  @Test func missingFilesProposeNothing() throws {
    let folder = try TemporaryFolder()
    let run = try Self.prefs(["plan", "infer", folder.file("absent.plist").path])
    #expect(run.status == 66)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.contains("absent.plist"))
  }

  @Test func aMalformedFileIsNamedAndTheRestAreStillRead() throws {
    let folder = try TemporaryFolder()
    let good = folder.file("good.plist")
    try PropertyListSerialization.data(
      fromPropertyList: ["a": 1], format: .xml, options: 0
    ).write(to: good)
    let bad = folder.file("bad.plist")
    try Data("<?xml version=\"1.0\"?><plist><dict><key>a</key>".utf8).write(to: bad)
    let run = try Self.prefs(["plan", "infer", good.path, bad.path])
    #expect(run.status == 65)
    #expect(run.stderr.contains("bad.plist"))
    let entries = try Self.entries(run.stdout)
    #expect(entries["a"]?["type"] as? String == "integer")
  }

  /// A plan and a legacy file in which the plan's `PREFS_SOUND_ENABLE` is a typo of
  /// `PREFS_SOUND_ENABLED` (issue #22, finding 3).
  static func typo(_ folder: TemporaryFolder, unmapped: String) throws -> (String, String) {
    let legacy = folder.file("typo.plist")
    try PropertyListSerialization.data(
      fromPropertyList: ["PREFS_SOUND_ENABLED": "NO", "PREFS_RANKING_SIZE": 7], format: .xml,
      options: 0
    ).write(to: legacy)
    let plan = folder.file("typo.json")
    try Data(
      """
      {"plan": 1, "schemaVersion": 2, "unmapped": "\(unmapped)",
       "keys": [
         {"from": "PREFS_SOUND_ENABLE", "to": "sound.enabled", "type": "bool", "default": true},
         {"from": "PREFS_RANKING_SIZE", "to": "ranking.size", "type": "integer", "default": 5}]}
      """.utf8
    ).write(to: plan)
    return (plan.path, legacy.path)
  }

  /// check names the suspected typo with both keys, and fails (65) when a file would be
  /// refused for it (the key would be dropped).
  @Test func checkSaysDidYouMeanAndFailsWhenASettingWouldBeDropped() throws {
    let folder = try TemporaryFolder()
    let (plan, legacy) = try Self.typo(folder, unmapped: "drop")
    let check = try Self.prefs(["plan", "check", plan, legacy])
    #expect(check.status == 65, "\(check.output)\(check.stderr)")
    #expect(check.output.contains("1 refused"))
    #expect(
      check.output.contains("PREFS_SOUND_ENABLE: did you mean PREFS_SOUND_ENABLED?"),
      "\(check.output)")
    #expect(check.stderr.contains("did you mean"))
  }

  /// Under `unmapped: keep` the key is kept, so the check passes, but still names the typo.
  @Test func checkNamesATypoItDoesNotFailOn() throws {
    let folder = try TemporaryFolder()
    let (plan, legacy) = try Self.typo(folder, unmapped: "keep")
    let check = try Self.prefs(["plan", "check", plan, legacy])
    #expect(check.status == 0, "\(check.output)\(check.stderr)")
    #expect(
      check.output.contains("PREFS_SOUND_ENABLE: did you mean PREFS_SOUND_ENABLED?"),
      "\(check.output)")
  }

  /// infer keeps enum values that differ only in case apart, and flags them: in the
  /// evidence table and as a note.
  @Test func inferFlagsEnumValuesThatDifferOnlyInCase() throws {
    let folder = try TemporaryFolder()
    let themes = ["light", "light", "light", "Light", "Light", "dark", "dark", "dark"]
    var paths: [String] = []
    for (n, theme) in themes.enumerated() {
      let file = folder.file("f\(n).plist")
      try PropertyListSerialization.data(
        fromPropertyList: ["theme": theme], format: .xml, options: 0
      ).write(to: file)
      paths.append(file.path)
    }
    let infer = try Self.prefs(["plan", "infer"] + paths)
    #expect(infer.status == 0, "\(infer.stderr)")
    let entries = try Self.entries(infer.stdout)
    #expect(entries["theme"]?["type"] as? String == "enum")
    #expect(Set(entries["theme"]?["values"] as? [String] ?? []) == ["light", "Light", "dark"])
    let row = infer.stderr.split(separator: "\n").first { $0.hasPrefix("theme ") } ?? ""
    #expect(row.contains("differ only in case"), "\(infer.stderr)")
    #expect(
      infer.stderr.contains(#"note: theme: values that differ only in case: "Light", "light""#),
      "\(infer.stderr)")
  }
}
