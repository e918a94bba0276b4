import Foundation
import PropertyList
import TestSupport
import Testing

/// `prefs migrate` and `prefs export` end to end, on the shipped sample and generated files.
@Suite struct MigrateCommandTests {
  static let binary = External.product("prefs")
  static let samples = External.packageRoot.appendingPathComponent("Legacy/Samples")
  static let sample = samples.appendingPathComponent("com.exmo.equizmo.plist").path
  static let plan = samples.appendingPathComponent("equizmo-plan.json").path

  static func prefs(_ arguments: [String]) throws -> ProcessResult {
    try External.run(binary, arguments)
  }

  static func report(_ result: ProcessResult) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
  }

  /// A batch into a folder of the user's makes no lock files; an output whose lock file is
  /// there (a writer that takes prefs' lock has written it) is written under that lock: a
  /// migration started while another process holds it waits for it.
  @Test(.enabled(if: Tools.python || External.required, "needs python3 (holds the lock)"))
  func outputsAreLockedOnlyWhenShared() throws {
    let folder = try TemporaryFolder()
    let out = folder.file("out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    var inputs: [String] = []
    for n in 0..<3 {
      let file = folder.file("legacy\(n).plist")
      try PropertyList.write(["PREFS_RANKING_SIZE": .int(n)], as: .binary).write(to: file)
      inputs.append(file.path)
    }
    let batch = try Self.prefs(["migrate", "--plan", Self.plan, "--to", out.path] + inputs)
    #expect(batch.status == 0, "\(batch.stderr)")
    let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
    #expect(names == ["legacy0.plist", "legacy1.plist", "legacy2.plist"])

    // Another process holds legacy0.plist's lock for 1.5 s.
    let python = try #require(External.which("python3"))
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: python)
    holder.arguments = [
      "-c",
      "import fcntl, sys, time; f = open(sys.argv[1], 'a'); fcntl.flock(f, fcntl.LOCK_EX); "
        + "print('locked', flush=True); time.sleep(1.5)",
      out.appendingPathComponent("legacy0.plist.lock").path,
    ]
    let pipe = Pipe()
    holder.standardOutput = pipe
    try holder.run()
    let line = String(decoding: pipe.fileHandleForReading.availableData, as: UTF8.self)
    #expect(line.hasPrefix("locked"))
    let start = Date()
    let again = try Self.prefs([
      "migrate", "--plan", Self.plan, "--to", out.appendingPathComponent("legacy0.plist").path,
      folder.file("legacy1.plist").path,
    ])
    let waited = Date().timeIntervalSince(start)
    holder.waitUntilExit()
    #expect(again.status == 0, "\(again.stderr)")
    #expect(waited >= 1.0, "the migration did not wait for the lock (\(waited) s)")
  }

  @Test func theSampleMigratesAndASecondRunChangesNothing() throws {
    let folder = try TemporaryFolder()
    let out = folder.file("migrated.plist").path
    let original = try Data(contentsOf: URL(fileURLWithPath: Self.sample))
    let first = try Self.prefs(["migrate", "--plan", Self.plan, "--to", out, Self.sample])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.output.contains("\"YES\" → true"))
    #expect(first.output.contains("\" 12\" → 12"))
    #expect(first.output.contains("fallback"))
    let bytes = try Data(contentsOf: URL(fileURLWithPath: out))
    let second = try Self.prefs([
      "migrate", "--plan", Self.plan, "--to", out, Self.sample, "--json",
    ])
    #expect(second.status == 0)
    let files = try Self.report(second)["files"] as? [[String: Any]]
    #expect(files?.first?["status"] as? String == "unchanged")
    #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == bytes)
    // As text: one line, no key table, no key counts (nothing happened to any key).
    let third = try Self.prefs(["migrate", "--plan", Self.plan, "--to", out, Self.sample])
    #expect(third.status == 0)
    #expect(third.output == "\(Self.sample) → \(out): unchanged\n1 file: 1 unchanged.\n")
    // The legacy file was not touched.
    #expect(try Data(contentsOf: URL(fileURLWithPath: Self.sample)) == original)
  }

  @Test func theReportAccountsForEveryLegacyKey() throws {
    let folder = try TemporaryFolder()
    let legacy = try PropertyList.read(Data(contentsOf: URL(fileURLWithPath: Self.sample))).value
    let result = try Self.prefs([
      "migrate", "--plan", Self.plan, "--to", folder.file("o.plist").path, "--json", Self.sample,
    ])
    let report = try Self.report(result)
    let keys = (report["files"] as? [[String: Any]])?.first?["keys"] as? [[String: Any]] ?? []
    #expect(
      Set(keys.compactMap { $0["from"] as? String })
        == Set(legacy.dictionaryValue?.keys ?? []))
    let summary = report["summary"] as? [String: Any]
    let actions = summary?["keys"] as? [String: Int] ?? [:]
    #expect(actions.values.reduce(0, +) == legacy.dictionaryValue?.count)
  }

  @Test func dryRunWritesNothing() throws {
    let folder = try TemporaryFolder()
    let out = folder.file("never.plist").path
    let before = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
    let result = try Self.prefs([
      "migrate", "--plan", Self.plan, "--to", out, "--dry-run", Self.sample,
    ])
    #expect(result.status == 0)
    #expect(result.output.contains("would migrate (dry run)"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == before)
    let real = try Self.prefs(["migrate", "--plan", Self.plan, "--to", out, Self.sample])
    #expect(real.status == 0)
    let written = try Data(contentsOf: URL(fileURLWithPath: out))
    let dry = try Self.prefs([
      "migrate", "--plan", Self.plan, "--to", out, "--dry-run", Self.sample,
    ])
    #expect(dry.output.contains("unchanged"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == written)
  }

  /// `--backup DIR` makes DIR when it is not there, as `--to OUT` makes OUT (it failed every
  /// file: "…/backups/: no such file"); a dry run makes nothing.
  @Test func theBackupFolderIsMadeWhenItIsNotThere() throws {
    let folder = try TemporaryFolder()
    let legacy = folder.file("app.plist")
    let original = try Data(contentsOf: URL(fileURLWithPath: Self.sample))
    try original.write(to: legacy)
    let backups = folder.url.appendingPathComponent("backups")
    let dry = try Self.prefs([
      "migrate", "--plan", Self.plan, "--in-place", "--backup", backups.path, "--dry-run",
      legacy.path,
    ])
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(!FileManager.default.fileExists(atPath: backups.path))
    let result = try Self.prefs([
      "migrate", "--plan", Self.plan, "--in-place", "--backup", backups.path, legacy.path,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let copy = Backups.place(of: legacy.path, in: backups)
    #expect(try Data(contentsOf: copy) == original)
  }

  @Test func inPlaceOnlyAfterACompleteBackup() throws {
    let folder = try TemporaryFolder()
    let legacy = folder.file("app.plist")
    let original = try Data(contentsOf: URL(fileURLWithPath: Self.sample))
    try original.write(to: legacy)
    let backups = folder.url.appendingPathComponent("backups")
    try FileManager.default.createDirectory(at: backups, withIntermediateDirectories: true)
    let result = try Self.prefs([
      "migrate", "--plan", Self.plan, "--in-place", "--backup", backups.path, "--json", legacy.path,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try Data(contentsOf: Backups.place(of: legacy.path, in: backups)) == original)
    let migrated = try PropertyList.read(Data(contentsOf: legacy)).value
    #expect(migrated["prefs.schemaVersion"] == 2)
    // Again: the file is already a store of this plan.
    let again = try Self.prefs([
      "migrate", "--plan", Self.plan, "--in-place", "--json", legacy.path,
    ])
    let files = try Self.report(again)["files"] as? [[String: Any]]
    #expect(files?.first?["status"] as? String == "unchanged")
    // The JSON report still lists every key of the domain (kept as it is).
    let keys = files?.first?["keys"] as? [[String: Any]] ?? []
    #expect(keys.count == migrated.dictionaryValue?.count)
    #expect(keys.allSatisfy { $0["action"] as? String == "kept" })
    #expect(try PropertyList.read(Data(contentsOf: legacy)).value == migrated)
    // As text, one line saying why.
    let text = try Self.prefs(["migrate", "--plan", Self.plan, "--in-place", legacy.path])
    #expect(
      text.output
        == "\(legacy.path): unchanged (already migrated with schema version 2)\n"
        + "1 file: 1 unchanged.\n")
  }

  @Test func anOutputThatCannotBeCreatedLeavesNothing() throws {
    let folder = try TemporaryFolder()
    let blocker = folder.file("not-a-folder")
    try Data("x".utf8).write(to: blocker)
    let out = blocker.appendingPathComponent("out.plist").path
    let result = try Self.prefs(["migrate", "--plan", Self.plan, "--to", out, Self.sample])
    #expect(result.status == 73)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["not-a-folder"])
  }

  @Test func aMalformedFileInABatchIsReportedAndTheOthersMigrate() throws {
    let folder = try TemporaryFolder()
    let input = folder.url.appendingPathComponent("in")
    let output = folder.url.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    for n in 0..<3 {
      try PropertyList.write(["PREFS_RANKING_SIZE": .int(n)], as: .binary)
        .write(to: input.appendingPathComponent("good\(n).plist"))
    }
    let bad = Data("bplist00 not really".utf8)
    try bad.write(to: input.appendingPathComponent("bad.plist"))
    let result = try Self.prefs([
      "migrate", "--plan", Self.plan, "--to", output.path, "--jobs", "2", "--json", input.path,
    ])
    #expect(result.status == 65)
    let summary = try Self.report(result)["summary"] as? [String: Any]
    #expect(summary?["migrated"] as? Int == 3)
    #expect(summary?["malformed"] as? Int == 1)
    #expect(result.stderr.contains("bad.plist"))
    // Each domain written has its lock file beside it (shared with every other writer).
    let written = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
      .filter { !$0.hasSuffix(".lock") }
    #expect(written == ["good0.plist", "good1.plist", "good2.plist"])
    #expect(try Data(contentsOf: input.appendingPathComponent("bad.plist")) == bad)
  }

  @Test func shardsAreDisjointAndCoverTheList() throws {
    let folder = try TemporaryFolder()
    var paths: [String] = []
    for n in 0..<40 {
      let path = folder.file("f\(n).plist").path
      try PropertyList.write(["PREFS_RANKING_SIZE": .int(n)], as: .binary).write(
        to: URL(fileURLWithPath: path))
      paths.append(path)
    }
    var seen: [String] = []
    for shard in 0..<3 {
      let result = try Self.prefs(
        [
          "migrate", "--plan", Self.plan, "--to", folder.file("out\(shard)").path, "--dry-run",
          "--json",
          "--shard", "\(shard)/3",
        ] + paths)
      let files = try Self.report(result)["files"] as? [[String: Any]] ?? []
      seen += files.compactMap { $0["path"] as? String }
    }
    #expect(seen.sorted() == paths.sorted())
    #expect(
      try Self.prefs(["migrate", "--plan", Self.plan, "--to", "x", "--shard", "3/3"] + paths).status
        == 64)
  }

  @Test func migrateExportMigrateIsByteIdentical() throws {
    let folder = try TemporaryFolder()
    let first = folder.file("first.plist").path
    let legacy = folder.file("legacy.plist").path
    let second = folder.file("second.plist").path
    #expect(
      try Self.prefs(["migrate", "--plan", Self.plan, "--to", first, Self.sample]).status == 0)
    #expect(try Self.prefs(["export", "--plan", Self.plan, first, "--to", legacy]).status == 0)
    #expect(try Self.prefs(["migrate", "--plan", Self.plan, "--to", second, legacy]).status == 0)
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: first))
        == Data(contentsOf: URL(fileURLWithPath: second)))
  }

  @Test func planErrorsAreDataErrors() throws {
    let folder = try TemporaryFolder()
    let plan = folder.file("plan.json")
    try Data(#"{"plan": 1, "schemaVersion": 1, "keys": [], "bogus": true}"#.utf8).write(to: plan)
    let result = try Self.prefs([
      "migrate", "--plan", plan.path, "--to", folder.file("o").path, Self.sample,
    ])
    #expect(result.status == 65)
    #expect(result.stderr.contains("bogus"))
    #expect(
      try Self.prefs(["migrate", "--plan", "/nonexistent/plan.json", "--to", "o", Self.sample])
        .status == 66)
  }

  /// Issue #22, finding 3: the plan's `PREFS_SOUND_ENABLE` is a typo of the file's
  /// `PREFS_SOUND_ENABLED`. The legacy file and the plan, with `unmapped` and `drop` as given.
  static func typo(
    _ folder: TemporaryFolder, unmapped: String, drop: String? = nil
  ) throws -> (plan: String, legacy: String) {
    let legacy = folder.file("typo.plist")
    try PropertyList.write(["PREFS_SOUND_ENABLED": "NO", "PREFS_RANKING_SIZE": 7], as: .xml)
      .write(to: legacy)
    let plan = folder.file("typo-plan.json")
    try Data(
      """
      {"plan": 1, "schemaVersion": 2, "unmapped": "\(unmapped)",\(drop.map { " \"drop\": \($0)," } ?? "")
       "keys": [
         {"from": "PREFS_SOUND_ENABLE", "to": "sound.enabled", "type": "bool", "default": true},
         {"from": "PREFS_RANKING_SIZE", "to": "ranking.size", "type": "integer", "default": 5}]}
      """.utf8
    ).write(to: plan)
    return (plan.path, legacy.path)
  }

  /// A typo in a plan that drops unmapped keys refuses the file (65, nothing written), and
  /// says "did you mean" with both keys: in the text report, on standard error, in the JSON
  /// report's note on the key, and the same in a dry run.
  @Test func aTypoThatWouldDropASettingRefusesTheFile() throws {
    let folder = try TemporaryFolder()
    let (plan, legacy) = try Self.typo(folder, unmapped: "drop")
    let out = folder.file("out.plist").path
    let run = try Self.prefs(["migrate", "--plan", plan, "--to", out, legacy])
    #expect(run.status == 65, "\(run.output)\(run.stderr)")
    #expect(run.output.contains("refused"))
    #expect(run.stderr.contains("did you mean \"PREFS_SOUND_ENABLED\""), "\(run.stderr)")
    #expect(run.stderr.contains("\"PREFS_SOUND_ENABLE\""))
    #expect(!FileManager.default.fileExists(atPath: out))

    let json = try Self.prefs(["migrate", "--plan", plan, "--to", out, "--json", legacy])
    #expect(json.status == 65)
    let file = try #require((try Self.report(json)["files"] as? [[String: Any]])?.first)
    #expect(file["status"] as? String == "refused")
    #expect((file["message"] as? String)?.contains("did you mean") == true)
    let keys = file["keys"] as? [[String: Any]] ?? []
    let sound = keys.first { $0["from"] as? String == "PREFS_SOUND_ENABLED" }
    #expect(sound?["action"] as? String == "dropped")
    #expect((sound?["note"] as? String)?.contains("did you mean") == true, "\(sound ?? [:])")
    // The entry names the key it probably meant, too.
    let entry = keys.first { $0["from"] as? String == "PREFS_SOUND_ENABLE" }
    #expect((entry?["note"] as? String)?.contains("PREFS_SOUND_ENABLED") == true)

    // The dry run reports the same, and exits the same.
    let dry = try Self.prefs([
      "migrate", "--plan", plan, "--to", out, "--dry-run", "--json", legacy,
    ])
    #expect(dry.status == 65)
    let dryFile = try #require((try Self.report(dry)["files"] as? [[String: Any]])?.first)
    #expect(dryFile["status"] as? String == "refused")
    #expect(dryFile["message"] as? String == file["message"] as? String)
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  /// The plan says the drop is meant (`"drop"`): the file migrates, the key is dropped and
  /// the report says why.
  @Test func aDropThePlanMeansIsNotATypo() throws {
    let folder = try TemporaryFolder()
    let (plan, legacy) = try Self.typo(
      folder, unmapped: "drop", drop: #"["PREFS_SOUND_ENABLED"]"#)
    let out = folder.file("out.plist").path
    let run = try Self.prefs(["migrate", "--plan", plan, "--to", out, "--json", legacy])
    #expect(run.status == 0, "\(run.stderr)")
    let file = try #require((try Self.report(run)["files"] as? [[String: Any]])?.first)
    #expect(file["status"] as? String == "migrated")
    let keys = file["keys"] as? [[String: Any]] ?? []
    let sound = keys.first { $0["from"] as? String == "PREFS_SOUND_ENABLED" }
    #expect(sound?["action"] as? String == "dropped")
    #expect((sound?["note"] as? String)?.contains("drop") == true)
    #expect(!run.stderr.contains("did you mean"))
    #expect(
      try PropertyList.read(Data(contentsOf: URL(fileURLWithPath: out))).value
        == ["ranking.size": 7, "prefs.schemaVersion": 2])
  }

  /// Under `unmapped: keep` nothing is lost, so the file migrates; the typed key would read
  /// its default, so the report and standard error still say "did you mean".
  @Test func aTypoUnderKeepMigratesAndSaysDidYouMean() throws {
    let folder = try TemporaryFolder()
    let (plan, legacy) = try Self.typo(folder, unmapped: "keep")
    let out = folder.file("out.plist").path
    let run = try Self.prefs(["migrate", "--plan", plan, "--to", out, legacy])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.output.contains("did you mean \"PREFS_SOUND_ENABLED\""), "\(run.output)")
    #expect(run.stderr.contains("did you mean \"PREFS_SOUND_ENABLED\""), "\(run.stderr)")
    #expect(
      try PropertyList.read(Data(contentsOf: URL(fileURLWithPath: out))).value
        == ["PREFS_SOUND_ENABLED": "NO", "ranking.size": 7, "prefs.schemaVersion": 2])
  }
}

/// Slow: skipped by the quick test line (`swift test --skip /Slow/`).
extension MigrateCommandTests {
  @Suite(.tags(.slow)) struct Slow {
    @Test func aBatchOfTenThousandFilesSumsUp() throws {
      let folder = try TemporaryFolder()
      let input = folder.url.appendingPathComponent("in")
      try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
      var list = ""
      for n in 0..<10_000 {
        let path = input.appendingPathComponent("user\(n).plist")
        let legacy: PlistValue =
          n % 1000 == 999
          ? ["PREFS_RANKING_SIZE": ["an", "array"]]  // unconvertible: refused
          : [
            "PREFS_SOUND_ENABLED": n % 2 == 0 ? "YES" : .bool(false), "PREFS_RANKING_SIZE": .int(n),
          ]
        try PropertyList.write(legacy, as: .binary).write(to: path)
        list += path.path + "\n"
      }
      let listFile = folder.file("list.txt")
      try Data(list.utf8).write(to: listFile)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: MigrateCommandTests.binary)
      process.arguments = [
        "migrate", "--plan", MigrateCommandTests.plan, "--to",
        folder.url.appendingPathComponent("out").path,
        "--json", "-",
      ]
      process.standardInput = try FileHandle(forReadingFrom: listFile)
      let out = Pipe()
      process.standardOutput = out
      process.standardError = Pipe()
      try process.run()
      let data = out.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      #expect(process.terminationStatus == 65)
      let report = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
      let summary = try #require(report["summary"] as? [String: Any])
      #expect(summary["files"] as? Int == 10_000)
      #expect(summary["migrated"] as? Int == 9_990)
      #expect(summary["refused"] as? Int == 10)
      let keys = summary["keys"] as? [String: Int] ?? [:]
      #expect(keys["coerced"] == 5_000)  // "YES"
      // The 4,990 false bools of the odd good files, and the 9,990 good integers.
      #expect(keys["migrated"] == 4_990 + 9_990)
      #expect(keys["unconvertible"] == 10)
      // The plan's six keys: four absent from each good file, five from each refused one.
      #expect(keys["defaulted"] == 9_990 * 4 + 10 * 5)
      let outputs = try FileManager.default.contentsOfDirectory(
        atPath: folder.url.appendingPathComponent("out").path
      ).filter { $0.hasSuffix(".plist") }
      #expect(outputs.count == 9_990)
    }
  }
}
