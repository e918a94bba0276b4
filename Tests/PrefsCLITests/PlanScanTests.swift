import Foundation
import TestSupport
import Testing

/// `prefs plan scan` as a user runs it: the plan on standard output, the evidence on standard
/// error, the exit codes of bad input.
@Suite struct PlanScanTests {
  static let binary = External.product("prefs")
  static let root = External.packageRoot

  static func prefs(_ arguments: [String]) throws -> ProcessResult {
    try External.run(binary, arguments, in: root)
  }

  /// The issue's test: the legacy app's source gives exactly the sample plan's first two
  /// entries, through the header's macros and the `else` branches.
  @Test func theLegacySourceGivesTheSamplePlansFirstTwoEntries() throws {
    let run = try Self.prefs(["plan", "scan", "Legacy/"])
    #expect(run.status == 0, "\(run.stderr)")
    let plan = try #require(JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
    let keys = try #require(plan["keys"] as? [[String: Any]])
    let sample = try JSONSerialization.jsonObject(
      with: Data(contentsOf: Self.root.appendingPathComponent("Legacy/Samples/equizmo-plan.json")))
    let expected = try #require(
      ((sample as? [String: Any])?["keys"] as? [[String: Any]])?.prefix(2))
    #expect(keys.count == 2)
    #expect(NSArray(array: keys).isEqual(to: Array(expected)))
    // The evidence: each place, the getter or setter, the default and where it came from.
    #expect(run.stderr.contains("Legacy/Preference.m:14  setBool:forKey:  bool"))
    #expect(run.stderr.contains("default true: the fallback when absent, Legacy/Preference.m:24"))
    #expect(run.stderr.contains("default 5: the fallback when absent, Legacy/Preference.m:29"))
    // PrefsDriver.m's keys come from its input: patterns, not keys.
    #expect(run.stderr.contains("keys built at run time"))
  }

  /// `plan swift` of a scanned plan: the `Keys` with the code's defaults.
  @Test func planSwiftOfAScannedPlanGivesTheCodesDefaults() throws {
    let folder = try TemporaryFolder()
    let scan = try Self.prefs(["plan", "scan", "Legacy/"])
    try scan.stdout.write(to: folder.file("legacy.json"))
    let swift = try Self.prefs(["plan", "swift", folder.file("legacy.json").path])
    #expect(swift.status == 0, "\(swift.stderr)")
    #expect(
      swift.output.contains(#"static let soundEnabled = Key<Bool>("sound.enabled", default: true)"#)
    )
    #expect(
      swift.output.contains(#"static let rankingSize = Key<Int>("ranking.size", default: 5)"#))
    // And the plan proves itself on the shipped legacy file.
    let check = try Self.prefs([
      "plan", "check", folder.file("legacy.json").path, "Legacy/Samples/com.exmo.equizmo.plist",
    ])
    #expect(check.status == 0, "\(check.output)")
  }

  @Test func badInputIsNamedAndOnlyNothingReadFails() throws {
    let folder = try TemporaryFolder()
    #expect(try Self.prefs(["plan", "scan"]).status == 64)
    #expect(try Self.prefs(["plan", "infer", "--suite", "x", "Legacy/Samples/"]).status == 64)
    try Data([0, 1, 2, 3]).write(to: folder.file("Binary.m"))
    let binary = try Self.prefs(["plan", "scan", folder.url.path])
    #expect(binary.status == 66)
    #expect(binary.stderr.contains("Binary.m: binary, not text: skipped"))
    #expect(binary.stdout.isEmpty)
    let missing = try Self.prefs(["plan", "scan", folder.file("nothing-here").path])
    #expect(missing.status == 66)
    #expect(missing.stderr.contains("nothing-here"))
    // One good file among the bad: a plan, and the bad ones named.
    try Data(
      "void f(void) { [[NSUserDefaults standardUserDefaults] setBool:YES forKey:@\"k\"]; }\n".utf8
    )
    .write(to: folder.file("Good.m"))
    let mixed = try Self.prefs(["plan", "scan", folder.url.path])
    #expect(mixed.status == 0)
    #expect(mixed.stderr.contains("Binary.m"))
    #expect(mixed.output.contains(#""from": "k""#))
  }

  /// `plan infer --source`: the code's two keys with the code's defaults, the sample's keys no
  /// code uses proposed for drop and named, the system's kept.
  @Test func inferWithTheSourceMakesOnePlan() throws {
    let run = try Self.prefs([
      "plan", "infer", "--source", "Legacy/Preference.h", "--source", "Legacy/Preference.m",
      "Legacy/Samples/com.exmo.equizmo.plist",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let plan = try #require(JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
    let keys = try #require(plan["keys"] as? [[String: Any]])
    #expect(
      keys.compactMap { $0["from"] as? String } == ["PREFS_SOUND_ENABLED", "PREFS_RANKING_SIZE"])
    #expect(keys.first?["default"] as? Bool == true)
    let drop = try #require(plan["drop"] as? [String])
    #expect(
      drop == ["colorMode", "currentLocation", "lastLaunch", "locationHistory", "nombreUsuario"])
    #expect(run.stderr.contains("colorMode: no code uses it any more: proposed for drop"))
    #expect(run.stderr.contains("NSLanguages: written by the system frameworks"))
    #expect(try Self.prefs(["plan", "check", "--source", "Legacy/", "x.json"]).status == 64)
  }
}
