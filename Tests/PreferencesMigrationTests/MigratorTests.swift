import Foundation
import LegacyDefaults
import Preferences
import PreferencesMigration
import PropertyList
import Testing

@Suite struct MigratorTests {
  static func entry(
    _ type: MigrationPlan.ValueType, default value: PlistValue? = nil,
    values: [String] = [], invalid: MigrationPlan.Invalid = .refuse
  ) -> MigrationPlan.Entry {
    MigrationPlan.Entry(
      from: "old", to: "new", type: type, defaultValue: value, values: values, invalid: invalid)
  }

  static func one(_ entry: MigrationPlan.Entry, _ legacy: PlistValue?, dialect: Dialect = .apple)
    -> (KeyReport, DomainMigration)
  {
    let plan = MigrationPlan(dialect: dialect, schemaVersion: 1, entries: [entry])
    let result = Migrator(plan: plan).migrate(legacy.map { ["old": $0] } ?? [:])
    return (result.keys[0], result)
  }

  /// The value is what the dialect's getter returned (values from the spec's apple table).
  @Test(arguments: [
    (
      MigrationPlan.ValueType.bool, PlistValue.string("YES"), PlistValue.bool(true),
      KeyAction.coerced
    ),
    (.bool, "yes please", false, .coerced),
    (.bool, .bool(false), false, .migrated),
    (.bool, .integer(2), true, .coerced),
    (.integer, " 12", 12, .coerced),
    (.integer, "5abc", 5, .coerced),
    (.integer, .real(5.7), 5, .coerced),
    (.integer, .integer(-3), -3, .migrated),
    (.double, "+5.5e1", 55.0, .coerced),
    (.double, .integer(2), 2.0, .coerced),
    (.string, .real(1e20), "1e+20", .coerced),
    (.string, .bool(true), "1", .coerced),
    (.string, "x", "x", .migrated),
    (.stringArray, PlistValue.array(["a", "b"]), PlistValue.array(["a", "b"]), .migrated),
    (.any, PlistValue.dictionary(["k": 1]), PlistValue.dictionary(["k": 1]), .migrated),
  ])
  func looseValuesReadAsTheDialectReadsThem(
    type: MigrationPlan.ValueType, legacy: PlistValue, expected: PlistValue, action: KeyAction
  ) {
    let (report, result) = Self.one(Self.entry(type), legacy)
    #expect(report.action == action)
    #expect(report.value == expected)
    #expect(result.output?["new"] == expected)
  }

  @Test func theDialectDecides() {
    // " YES" is false for Apple, true for GNUstep (the first character that counts is Y).
    #expect(Self.one(Self.entry(.bool), " YES", dialect: .apple).0.value == false)
    #expect(Self.one(Self.entry(.bool), " YES", dialect: .gnustep).0.value == true)
    // GNUstep's stringForKey: returns nil for numbers: the type cannot hold it.
    #expect(Self.one(Self.entry(.string), 5, dialect: .gnustep).0.action == .unconvertible)
  }

  @Test func unconvertibleRefusesTheFileUnlessTheEntrySaysDefault() {
    let (report, result) = Self.one(Self.entry(.string), ["an", "array"])
    #expect(report.action == .unconvertible)
    #expect(result.output == nil)
    #expect(result.refusal?.contains("old") == true)
    let (fallback, ok) = Self.one(Self.entry(.string, default: "d", invalid: .default), ["an"])
    #expect(fallback.action == .fallback)
    #expect(ok.output?["new"] == "d")
  }

  @Test func enumsFallBackToTheDefault() {
    let entry = Self.entry(.enum, default: "System", values: ["Light", "Dark", "System"])
    #expect(Self.one(entry, "Dark").0.action == .migrated)
    let (report, result) = Self.one(entry, "Sepia")
    #expect(report.action == .fallback)
    #expect(result.output?["new"] == "System")
  }

  @Test func jsonBecomesNativeStructure() {
    let json = Data(#"{"history":[{"address":"Seoul","n":3,"x":1.5,"ok":true,"gone":null}]}"#.utf8)
    let (report, result) = Self.one(Self.entry(.json), .data(json))
    #expect(report.action == .coerced)
    #expect(
      result.output?["new"] == ["history": [["address": "Seoul", "n": 3, "x": 1.5, "ok": true]]])
    #expect(Self.one(Self.entry(.json), .data(Data("{oops".utf8))).0.action == .unconvertible)
    #expect(Self.one(Self.entry(.json), .string("[1, 2]")).1.output?["new"] == [1, 2])
  }

  @Test func absentKeysAreDefaultedAndWrittenOnlyWhenAsked() {
    let entry = Self.entry(.integer, default: 5)
    let (report, result) = Self.one(entry, nil)
    #expect(report.action == .defaulted)
    #expect(result.output?["new"] == nil)
    let plan = MigrationPlan(schemaVersion: 1, materializeDefaults: true, entries: [entry])
    #expect(Migrator(plan: plan).migrate([:]).output?["new"] == 5)
  }

  @Test func unmappedKeys() {
    let legacy: [String: PlistValue] = ["old": 1, "other": "x"]
    let entry = Self.entry(.integer)
    let keep = Migrator(plan: MigrationPlan(schemaVersion: 3, unmapped: .keep, entries: [entry]))
      .migrate(legacy)
    #expect(keep.output == ["new": 1, "other": "x", "prefs.schemaVersion": 3])
    #expect(keep.keys.map(\.action) == [.migrated, .kept])
    let drop = Migrator(plan: MigrationPlan(schemaVersion: 3, unmapped: .drop, entries: [entry]))
      .migrate(legacy)
    #expect(drop.output == ["new": 1, "prefs.schemaVersion": 3])
    let error = Migrator(plan: MigrationPlan(schemaVersion: 3, unmapped: .error, entries: [entry]))
      .migrate(legacy)
    #expect(error.output == nil)
    #expect(error.refusal?.contains("other") == true)
  }

  @Test func exportWritesTheTypesTheLegacyCodeWrote() {
    let plan = MigrationPlan(
      schemaVersion: 1,
      entries: [
        Self.entryNamed("PREFS_SOUND_ENABLED", "sound.enabled", .bool),
        Self.entryNamed("PREFS_RANKING_SIZE", "ranking.size", .integer),
        Self.entryNamed("colorMode", "appearance.colorMode", .enum, values: ["Light", "Dark"]),
        Self.entryNamed("history", "weather.history", .json),
        Self.entryNamed("site", "site", .url),
      ])
    let store: [String: PlistValue] = [
      "sound.enabled": false, "ranking.size": 12, "appearance.colorMode": "Dark",
      "weather.history": ["a": [1, 2]], "site": "https://example.com/x", "extra": "kept",
      "prefs.schemaVersion": 1,
    ]
    let result = Exporter(plan: plan).export(store)
    #expect(result.problems.isEmpty)
    #expect(result.legacy["PREFS_SOUND_ENABLED"] == .bool(false))
    #expect(result.legacy["PREFS_RANKING_SIZE"] == .integer(12))
    #expect(result.legacy["colorMode"] == "Dark")
    #expect(result.legacy["history"] == .data(Data(#"{"a":[1,2]}"#.utf8)))
    #expect(result.legacy["extra"] == "kept")
    #expect(result.legacy["prefs.schemaVersion"] == nil)
    #expect(Dialect.apple.url(result.legacy["site"]) == URL(string: "https://example.com/x"))
    let wrong = Exporter(plan: plan).export(["ranking.size": "12"])
    #expect(!wrong.problems.isEmpty)
  }

  static func entryNamed(
    _ from: String, _ to: String, _ type: MigrationPlan.ValueType, values: [String] = []
  ) -> MigrationPlan.Entry {
    MigrationPlan.Entry(from: from, to: to, type: type, values: values)
  }
}
