import Foundation
import LegacyDefaults
import PreferencesMigration
import PrefsTools
import PropertyList
import Testing

/// Issue #22, finding 3: a typo in a plan never drops a setting silently.
@Suite struct TypoTests {
  /// The rule (MIGRATION.md, "Typos"): case folded first; then at most 2 edits (insert,
  /// delete, substitute, swap two neighbours) when the shorter key has 6 characters or more,
  /// 1 for 3 to 5, none (a case-only difference) for 1 or 2; identical keys are no typo.
  @Test(arguments: [
    ("PREFS_SOUND_ENABLE", "PREFS_SOUND_ENABLED", true),  // one deletion
    ("colorMode", "colormode", true),  // case only
    ("ENABLED", "enabled", true),  // case only
    ("colorMode", "colourMode", true),  // one insertion
    ("rankingSize", "rankignSize", true),  // one swap of neighbours
    ("rankingSize", "rnakignSize", true),  // two swaps
    ("rankingSize", "rankingSizes", true),
    ("abcdef", "bacdfe", true),  // two swaps, 6 characters
    ("abcdef", "badcfe", false),  // three swaps
    ("volume", "column", true),  // two substitutions at 6 characters: the rule's price
    ("fontSize", "fontSizeXYZ", false),  // three insertions
    ("ranking", "rankingSizeMax", false),
    ("theme", "Theme", true),
    ("theme", "there", true),  // one substitution, 5 characters
    ("theme", "thyne", false),  // two substitutions, 5 characters
    ("size", "sizes", true),
    ("size", "fizz", false),
    ("abc", "acb", true),  // one swap, 3 characters
    ("abc", "xyz", false),
    ("id", "ID", true),  // case only, 2 characters
    ("id", "ip", false),  // 2 characters: case only
    ("x", "X", true),
    ("x", "y", false),
    ("same", "same", false),  // identical: not a typo
    ("nickname", "nickName", true),
  ])
  func theNearMissRule(a: String, b: String, expected: Bool) {
    #expect(MigrationPlan.isNearMiss(a, b) == expected, "\(a) / \(b)")
    #expect(MigrationPlan.isNearMiss(b, a) == expected, "\(b) / \(a)")
  }

  static let legacy: [String: PlistValue] = ["PREFS_SOUND_ENABLED": "NO", "PREFS_RANKING_SIZE": 7]
  static func plan(_ unmapped: MigrationPlan.Unmapped, drop: Set<String> = []) -> MigrationPlan {
    MigrationPlan(
      schemaVersion: 2, unmapped: unmapped, drop: drop,
      entries: [
        .init(from: "PREFS_SOUND_ENABLE", to: "sound.enabled", type: .bool, defaultValue: true),
        .init(from: "PREFS_RANKING_SIZE", to: "ranking.size", type: .integer, defaultValue: 5),
      ])
  }

  static func report(_ migration: DomainMigration, _ key: String) -> KeyReport? {
    migration.keys.first { $0.from == key }
  }

  /// `unmapped: drop` would lose the setting: the domain is refused, and both keys are named.
  @Test func underDropATypoRefusesTheDomain() throws {
    let migration = Migrator(plan: Self.plan(.drop)).migrate(Self.legacy)
    let refusal = try #require(migration.refusal)
    #expect(refusal.contains(#"did you mean "PREFS_SOUND_ENABLED"?"#), "\(refusal)")
    #expect(refusal.contains(#""PREFS_SOUND_ENABLE""#))
    let key = try #require(Self.report(migration, "PREFS_SOUND_ENABLED"))
    #expect(key.action == .dropped)
    #expect(key.nearMiss == "PREFS_SOUND_ENABLE")
    #expect(key.note?.contains("did you mean") == true)
    let entry = try #require(Self.report(migration, "PREFS_SOUND_ENABLE"))
    #expect(entry.action == .defaulted)
    #expect(entry.nearMiss == "PREFS_SOUND_ENABLED")
    #expect(entry.note?.contains(#"did you mean "PREFS_SOUND_ENABLED"?"#) == true)
  }

  /// `unmapped: keep` loses nothing: the domain migrates with the key kept, and a warning.
  @Test func underKeepATypoMigratesWithAWarning() throws {
    let migration = Migrator(plan: Self.plan(.keep)).migrate(Self.legacy)
    #expect(
      migration.output == [
        "PREFS_SOUND_ENABLED": "NO", "ranking.size": 7, "prefs.schemaVersion": 2,
      ])
    #expect(migration.warnings.count == 1)
    #expect(migration.warnings.first?.contains(#"did you mean "PREFS_SOUND_ENABLED"?"#) == true)
    #expect(Self.report(migration, "PREFS_SOUND_ENABLED")?.action == .kept)
    #expect(Self.report(migration, "PREFS_SOUND_ENABLED")?.nearMiss == "PREFS_SOUND_ENABLE")
  }

  /// `unmapped: error` refused already; now it says "did you mean" too.
  @Test func underErrorTheRefusalSaysDidYouMean() throws {
    let migration = Migrator(plan: Self.plan(.error)).migrate(Self.legacy)
    let refusal = try #require(migration.refusal)
    #expect(refusal.contains("PREFS_SOUND_ENABLED: not in the plan"))
    #expect(refusal.contains(#"did you mean "PREFS_SOUND_ENABLED"?"#))
  }

  /// The plan's `drop` says the drop is meant, under every `unmapped`: no typo, no refusal.
  @Test(arguments: MigrationPlan.Unmapped.allCases)
  func aKeyThePlanDropsIsDroppedOnPurpose(_ unmapped: MigrationPlan.Unmapped) throws {
    let plan = Self.plan(unmapped, drop: ["PREFS_SOUND_ENABLED"])
    let migration = Migrator(plan: plan).migrate(Self.legacy)
    #expect(migration.output == ["ranking.size": 7, "prefs.schemaVersion": 2])
    #expect(migration.warnings.isEmpty)
    let key = try #require(Self.report(migration, "PREFS_SOUND_ENABLED"))
    #expect(key.action == .dropped)
    #expect(key.nearMiss == nil)
    #expect(key.note == "dropped on purpose (the plan's drop list)")
    #expect(Self.report(migration, "PREFS_SOUND_ENABLE")?.nearMiss == nil)
  }

  /// Only an entry the domain does not have can be a typo: a domain holding both the mapped
  /// key and a near miss of it drops the other as the plan says.
  @Test func anEntryTheDomainHasIsNoTypo() {
    let legacy: [String: PlistValue] = ["PREFS_SOUND_ENABLE": "YES", "PREFS_RANKING_SIZE": 7]
    var both = legacy
    both["PREFS_SOUND_ENABLED"] = "NO"
    let plan = MigrationPlan(
      schemaVersion: 1, unmapped: .drop,
      entries: [.init(from: "PREFS_SOUND_ENABLED", to: "sound", type: .bool)])
    // Without the mapped key, the file's near miss of it is refused …
    #expect(Migrator(plan: plan).migrate(legacy).refusal != nil)
    // … beside it, it is just an unmapped key.
    let migration = Migrator(plan: plan).migrate(both)
    #expect(migration.output == ["sound": false, "prefs.schemaVersion": 1])
    #expect(migration.keys.allSatisfy { $0.nearMiss == nil })
  }

  /// The JSON plan's `drop`, read and written back.
  @Test func theJSONPlanCarriesDrop() throws {
    let plan = try MigrationPlan.load(
      json: Data(
        #"""
        {"plan": 1, "schemaVersion": 1, "unmapped": "keep", "drop": ["old.b", "old.a"],
         "keys": [{"from": "x", "to": "y", "type": "bool"}]}
        """#.utf8))
    #expect(plan.drop == ["old.a", "old.b"])
    let text = plan.jsonText()
    let root = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    #expect(root?["drop"] as? [String] == ["old.a", "old.b"], "\(text)")
    #expect(try MigrationPlan.load(json: Data(text.utf8)) == plan)
    // No drop: no field.
    #expect(!Self.plan(.keep).jsonText().contains("drop"))
  }
}
