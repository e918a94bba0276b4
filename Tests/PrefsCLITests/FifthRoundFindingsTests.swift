import Foundation
import PropertyList
import TestSupport
import Testing

/// The smaller findings of trying `prefs` as a new user would, fifth round (issue 48's point
/// 10), each a test that failed on the behaviour it describes. Real processes, in temporary
/// folders.
@Suite struct FifthRoundFindingsTests {
  static let binary = External.product("prefs")
  static let samples = External.packageRoot.appendingPathComponent("Legacy/Samples")
  static let sample = samples.appendingPathComponent("com.exmo.equizmo.plist")
  static let plan = samples.appendingPathComponent("equizmo-plan.json").path

  static func run(_ arguments: [String], in folder: TemporaryFolder) throws -> ProcessResult {
    try External.run(binary, arguments, environment: ["XDG_CONFIG_HOME": folder.url.path])
  }

  /// The JSON summary of a run that finds every file migrated counts no key (nothing happened
  /// to them: Docs/plan-format.md), as the text report's totals do; the keys stay listed.
  @Test func anAllUnchangedRunCountsNoKey() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("com.exmo.equizmo.plist")
    try Data(contentsOf: Self.sample).write(to: file)
    let first = try Self.run(["migrate", "--plan", Self.plan, "--in-place", file.path], in: folder)
    #expect(first.status == 0, "\(first.stderr)")
    let again = try Self.run(
      ["migrate", "--json", "--plan", Self.plan, "--in-place", file.path], in: folder)
    #expect(again.status == 0, "\(again.stderr)")
    let report = try #require(JSONSerialization.jsonObject(with: again.stdout) as? [String: Any])
    let summary = try #require(report["summary"] as? [String: Any])
    #expect(summary["unchanged"] as? Int == 1)
    let keys = try #require(summary["keys"] as? [String: Int])
    #expect(keys.count == 7 && keys.values.allSatisfy { $0 == 0 }, "\(keys)")
    let files = try #require(report["files"] as? [[String: Any]])
    #expect((files.first?["keys"] as? [Any])?.isEmpty == false)
  }

  /// A dry run never says "migrated" about a file it did not write: its warnings on standard
  /// error say "would migrate (dry run)", as its report does.
  @Test func aDryRunSaysWouldMigrateOnStandardError() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("com.exmo.equizmo.plist")
    try Data(contentsOf: Self.sample).write(to: file)
    let typo = folder.file("typo.json")
    let text = try String(contentsOfFile: Self.plan, encoding: .utf8)
      .replacingOccurrences(of: "\"PREFS_SOUND_ENABLED\"", with: "\"PREFS_SOUND_ENABLE\"")
    try Data(text.utf8).write(to: typo)
    for json in [false, true] {
      let dry = try Self.run(
        ["migrate", "--dry-run", "--plan", typo.path, "--in-place", file.path]
          + (json ? ["--json"] : []), in: folder)
      #expect(dry.status == 0, "\(dry.stderr)")
      #expect(
        dry.stderr.contains(": would migrate (dry run): PREFS_SOUND_ENABLED"), "\(dry.stderr)")
      #expect(!dry.stderr.contains(": migrated:"), "\(dry.stderr)")
    }
    let wet = try Self.run(["migrate", "--plan", typo.path, "--in-place", file.path], in: folder)
    #expect(wet.stderr.contains(": migrated: PREFS_SOUND_ENABLED"), "\(wet.stderr)")
  }

  /// The report's action column leaves two spaces at least before what follows, after its
  /// longest word (`unconvertible`) too.
  @Test func theActionColumnNeverRunsIntoTheValue() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("legacy.plist")
    try PropertyList.write(
      ["PREFS_RANKING_SIZE": ["an", "array"], "PREFS_SOUND_ENABLED": true], as: .xml
    )
    .write(to: file)
    let result = try Self.run(
      [
        "migrate", "--dry-run", "--plan", Self.plan, "--to", folder.file("out.plist").path,
        file.path,
      ],
      in: folder)
    #expect(result.status == 65, "\(result.stderr)")
    let line = try #require(
      result.output.split(separator: "\n").first { $0.contains("unconvertible") },
      "\(result.output)")
    #expect(line.contains("unconvertible  ("), "\(line)")
    // Every action of the table starts in one column, and its detail in the next.
    let rows = result.output.split(separator: "\n").filter { $0.contains("  →  ") }
    let starts = Set(
      rows.compactMap { row in
        ["unconvertible", "defaulted", "migrated"].compactMap { word in
          row.range(of: "  " + word + " ").map {
            row.distance(from: row.startIndex, to: $0.lowerBound)
          }
        }.first
      })
    #expect(starts.count == 1, "\(rows)")
  }

  /// `-float` of a number written out that no double holds is refused (as `-int 0.5` is),
  /// never stored as infinity; the words inf and nan still say those values. The same for
  /// `defaults write`.
  @Test(arguments: [["write"], ["defaults", "write"]])
  func aFloatBeyondADoublesRangeIsRefused(verb: [String]) throws {
    let folder = try TemporaryFolder()
    for (text, status) in [("1e400", 64), ("-1e400", 64), ("inf", 0), ("1e308", 0), ("1e-400", 0)] {
      let result = try Self.run(verb + ["com.example.app", "r", "-float", text], in: folder)
      #expect(result.status == Int32(status), "\(text): \(result.stderr)")
      if status != 0 {
        #expect(result.stderr.contains("within a double's range"), "\(result.stderr)")
      }
    }
    let int = try Self.run(verb + ["com.example.app", "i", "-int", "0.5"], in: folder)
    #expect(int.status == 64)
  }

  /// `write D K hello world`: a value of two words is named as such, not as an unknown type.
  @Test(arguments: [["write"], ["defaults", "write"]])
  func aValueOfTwoWordsIsNamedAsSuch(verb: [String]) throws {
    let folder = try TemporaryFolder()
    let result = try Self.run(verb + ["com.example.app", "k", "hello", "world"], in: folder)
    #expect(result.status == 64)
    #expect(!result.stderr.contains("unknown type"), "\(result.stderr)")
    #expect(result.stderr.contains("world is a second"), "\(result.stderr)")
    #expect(result.stderr.contains("'hello world'"), "\(result.stderr)")
    let flag = try Self.run(verb + ["com.example.app", "k", "-flaot", "1"], in: folder)
    #expect(flag.status == 64)
    #expect(flag.stderr.contains("unknown type -flaot"), "\(flag.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
  }

  /// `-date` takes ISO 8601 with an offset (what Python and YAML print), a time without one
  /// as UTC, and a day alone as its midnight in UTC; plistlib reads the instant.
  @Test(.enabled(if: Tools.python || External.required, "needs python3"))
  func aDateTakesAnOffset() throws {
    let folder = try TemporaryFolder()
    let cases = [
      ("2011-03-14T16:09:26+01:00", "2011-03-14T15:09:26"),
      ("2011-03-14 10:09:26-05:00", "2011-03-14T15:09:26"),
      ("2011-03-14T15:09:26", "2011-03-14T15:09:26"), ("2011-03-14", "2011-03-14T00:00:00"),
      ("2011-03-14 15:09:26.5", "2011-03-14T15:09:26.500000"),
    ]
    // A binary file, which holds a date's fraction of a second.
    try PropertyList.write([:], as: .binary).write(to: folder.file("com.example.app.plist"))
    for (n, (text, _)) in cases.enumerated() {
      let result = try Self.run(["write", "com.example.app", "d\(n)", "-date", text], in: folder)
      #expect(result.status == 0, "\(text): \(result.stderr)")
    }
    for text in ["2011-03-14T16:09:26+25:00", "2011-03-14T16:09:26+0l:00", "14/03/2011"] {
      let result = try Self.run(["write", "com.example.app", "bad", "-date", text], in: folder)
      #expect(result.status == 64, "\(text)")
    }
    let script = """
      import plistlib, sys
      d = plistlib.load(open(sys.argv[1], "rb"))
      print(" ".join(d["d%d" % n].isoformat() for n in range(len(d))))
      """
    let read = try External.run(
      "/usr/bin/env", ["python3", "-c", script, folder.file("com.example.app.plist").path])
    #expect(read.output == cases.map(\.1).joined(separator: " ") + "\n", "\(read.stderr)")
  }
}
