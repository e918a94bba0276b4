import Foundation
import LegacyDefaults
import Preferences
import PreferencesExamples
import PreferencesMigration
import PropertyList
import Testing

@Suite struct PlanTests {
  static func plan(_ text: String) throws(PlanError) -> MigrationPlan {
    try MigrationPlan.load(json: Data(text.utf8))
  }

  @Test func theContractsExampleLoads() throws {
    let plan = try Self.plan(
      """
      {
        "plan": 1, "dialect": "apple", "schemaVersion": 2, "unmapped": "keep",
        "keys": [
          {"from": "PREFS_SOUND_ENABLED", "to": "sound.enabled", "type": "bool", "default": true},
          {"from": "PREFS_RANKING_SIZE", "to": "ranking.size", "type": "integer", "default": 5},
          {"from": "colorMode", "to": "appearance.colorMode", "type": "enum",
           "values": ["light", "dark", "system"], "default": "system"},
          {"from": "locationHistory", "to": "weather.locationHistory", "type": "json"}
        ]
      }
      """)
    #expect(plan.dialect == .apple)
    #expect(plan.schemaVersion == 2)
    #expect(plan.unmapped == .keep)
    #expect(plan.entries.map(\.type) == [.bool, .integer, .enum, .json])
    #expect(plan.entries[1].defaultValue == 5)
    #expect(plan.entries[2].values == ["light", "dark", "system"])
  }

  /// Each broken plan names the field that is wrong.
  @Test(arguments: [
    (#"{"plan": 2, "schemaVersion": 1, "keys": []}"#, "plan"),
    (#"{"schemaVersion": 1, "keys": []}"#, "plan"),
    (#"{"plan": 1, "schemaVersion": 1, "keys": [], "extra": 1}"#, "extra"),
    (#"{"plan": 1, "keys": []}"#, "schemaVersion"),
    (#"{"plan": 1, "schemaVersion": 1, "dialect": "windows", "keys": []}"#, "dialect"),
    (#"{"plan": 1, "schemaVersion": 1, "unmapped": "ignore", "keys": []}"#, "unmapped"),
    (#"{"plan": 1, "schemaVersion": 1}"#, "keys"),
    (
      #"{"plan": 1, "schemaVersion": 1, "keys": [{"from": "a", "to": "b", "type": "bool", "colour": 1}]}"#,
      "keys[0].colour"
    ),
    (
      #"{"plan": 1, "schemaVersion": 1, "keys": [{"from": "a", "to": "b", "type": "bool"}, {"from": "a", "to": "c", "type": "bool"}]}"#,
      "keys[1].from"
    ),
    (
      #"{"plan": 1, "schemaVersion": 1, "keys": [{"from": "a", "to": "b", "type": "bool"}, {"from": "c", "to": "b", "type": "bool"}]}"#,
      "keys[1].to"
    ),
    (
      #"{"plan": 1, "schemaVersion": 1, "keys": [{"from": "a", "to": "b", "type": "integer", "default": "5"}]}"#,
      "keys[0].default"
    ),
    (
      #"{"plan": 1, "schemaVersion": 1, "keys": [{"from": "a", "to": "b", "type": "bool", "default": 1}]}"#,
      "keys[0].default"
    ),
    (
      #"{"plan": 1, "schemaVersion": 1, "keys": [{"from": "a", "to": "b", "type": "enum", "values": ["x"], "default": "y"}]}"#,
      "keys[0].default"
    ),
    (
      #"{"plan": 1, "schemaVersion": 1, "keys": [{"from": "a", "to": "b", "type": "enum"}]}"#,
      "keys[0].values"
    ),
    (
      #"{"plan": 1, "schemaVersion": 1, "keys": [{"from": "a", "to": "b", "type": "float"}]}"#,
      "keys[0].type"
    ),
    (
      #"{"plan": 1, "schemaVersion": 1, "keys": [{"from": "a", "to": "b", "type": "string", "invalid": "default"}]}"#,
      "keys[0].invalid"
    ),
    (
      #"{"plan": 1, "schemaVersion": 1, "keys": [{"from": "a", "to": "prefs.schemaVersion", "type": "any"}]}"#,
      "keys[0].to"
    ),
    (#"{"plan": 1, "schemaVersion": 1, "keys": [], "drop": "old"}"#, "drop"),
    (#"{"plan": 1, "schemaVersion": 1, "keys": [], "drop": ["old", 3]}"#, "drop[1]"),
    (#"{"plan": 1, "schemaVersion": 1, "keys": [], "drop": ["old", "old"]}"#, "drop[1]"),
    (
      #"{"plan": 1, "schemaVersion": 1, "drop": ["b", "a"], "keys": [{"from": "a", "to": "b", "type": "bool"}]}"#,
      "drop[1]"
    ),
    ("not json", "(file)"),
  ])
  func brokenPlansNameTheField(text: String, field: String) {
    do {
      _ = try Self.plan(text)
      Issue.record("accepted: \(text)")
    } catch {
      #expect(error.field == field, "\(error)")
    }
  }

  @Test func typedPlansFromKeys() throws {
    let plan = try MigrationPlan(
      dialect: .gnustep, schemaVersion: 1,
      entries: [
        .map("PREFS_SOUND_ENABLED", to: Keys.soundEnabled),
        .map("PREFS_RANKING_SIZE", to: Keys.rankingSize),
        .map("colorMode", to: Keys.colorMode),
        .map("locationHistory", to: Keys.locationHistory),
        .map("currentLocation", to: Keys.currentLocation),
      ])
    #expect(plan.entries.map(\.type) == [.bool, .integer, .enum, .json, .json])
    #expect(plan.entries[0].defaultValue == true)
    #expect(plan.entries[1].defaultValue == 5)
    #expect(plan.entries[2].values == ["Light", "Dark", "System"])
    #expect(plan.entries[2].defaultValue == "System")
    #expect(plan.entries[3].defaultValue == ["history": []])
  }
}

/// A `Codable` default with no property-list form is a typed error when the plan is built,
/// not a default silently dropped.
struct Unencodable: CodablePreference, Hashable, Sendable {
  init() {}
  init(from decoder: any Decoder) throws { self.init() }
  func encode(to encoder: any Encoder) throws {
    throw EncodingError.invalidValue(
      self, .init(codingPath: [], debugDescription: "never encodes"))
  }
}

@Suite struct PlanDefaultTests {
  @Test func aDefaultThatDoesNotEncodeIsAnError() {
    #expect(throws: PreferenceError.self) {
      try MigrationPlan.Entry.map("x", to: Key("y", default: Unencodable()))
    }
  }
}

/// `Key<[String: PlistValue]>`, `Key<[PlistValue]>`, `Key<Date?>` and `Key<Data?>` have a
/// `.map` of their own (the key types `prefs plan swift` writes): each entry of the plan's
/// type for it, with the key's default, and a migration reads back through the same keys.
@Suite struct MapOverloadTests {
  static let settings = Key<[String: PlistValue]>("settings", default: ["mode": "auto"])
  static let recent = Key<[PlistValue]>("recent", default: [])
  static let lastSync = Key<Date?>("lastSync")
  static let token = Key<Data?>("token")

  @Test func eachKeyTypeMapsToItsPlanType() throws {
    let plan = MigrationPlan(
      schemaVersion: 1,
      entries: [
        .map("Settings", to: Self.settings), .map("Recent", to: Self.recent),
        .map("LastSync", to: Self.lastSync), .map("Token", to: Self.token),
      ])
    #expect(plan.entries.map(\.type) == [.dictionary, .array, .date, .data])
    #expect(plan.entries[0].defaultValue == ["mode": "auto"])
    #expect(plan.entries[1].defaultValue == [])
    #expect(plan.entries[2].defaultValue == nil && plan.entries[3].defaultValue == nil)

    let when = Date(timeIntervalSinceReferenceDate: 321_814_166)
    let legacy: [String: PlistValue] = [
      "Settings": ["mode": "manual", "size": 3], "Recent": ["a", 1],
      "LastSync": .date(when), "Token": .data(Data([0xCA, 0xFE])),
    ]
    let store = try PreferencesStore(storage: InMemoryStorage())
    let report = try store.migrate(plan, from: InMemoryStorage(legacy))
    #expect(report.files.first?.status == .migrated, "\(report.text())")
    #expect(store[Self.settings] == ["mode": "manual", "size": 3])
    #expect(store[Self.recent] == ["a", 1])
    #expect(store[Self.lastSync] == when)
    #expect(store[Self.token] == Data([0xCA, 0xFE]))

    // A file without them: the optional keys stay absent, the others read their defaults.
    let empty = try PreferencesStore(storage: InMemoryStorage())
    _ = try empty.migrate(plan, from: InMemoryStorage(["Other": 1]))
    #expect(empty[Self.lastSync] == nil && empty[Self.token] == nil)
    #expect(empty[Self.settings] == ["mode": "auto"])
  }
}
