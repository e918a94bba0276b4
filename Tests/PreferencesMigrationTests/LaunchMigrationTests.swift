import Foundation
import LegacyDefaults
import LegacyDefaultsFoundation
import Preferences
import PreferencesExamples
import PreferencesMigration
import PrefsTools
import PropertyList
import Synchronization
import TestSupport
import Testing

/// Migration at launch, inside the app, over real `UserDefaults` (swift-corelibs-foundation
/// here, on suites named by absolute paths in temporary folders) and over the file storage.
@Suite struct LaunchMigrationTests {
  static let samples = External.packageRoot.appendingPathComponent("Legacy/Samples")
  static let sample = samples.appendingPathComponent("com.exmo.equizmo.plist")
  static func samplePlan() throws -> MigrationPlan {
    try MigrationPlan.load(
      json: Data(contentsOf: samples.appendingPathComponent("equizmo-plan.json")))
  }

  /// A suite holding `values`, as the Objective-C app left it (corelibs reads `<suite>.plist`).
  static func suite(_ folder: TemporaryFolder, _ values: [String: PlistValue]) throws -> String {
    let suite = folder.file("app").path
    try PropertyList.write(.dictionary(values), as: .xml).write(to: folder.file("app.plist"))
    return suite
  }

  static func persisted(_ suite: String) throws -> [String: PlistValue] {
    try UserDefaultsStorage(suiteName: suite).load().values.swiftDictionary
  }

  /// The sample's legacy keys migrate in the app exactly as `prefs migrate` migrates the file,
  /// and a second launch reports `unchanged` and writes nothing.
  @Test func theSampleMigratesAtLaunchAsTheCommandMigratesTheFile() throws {
    let folder = try TemporaryFolder()
    let legacy = try #require(
      PropertyList.read(Data(contentsOf: Self.sample)).value.dictionaryValue?.swiftDictionary)
    let suite = try Self.suite(folder, legacy)
    let plan = try Self.samplePlan()
    let store = try PreferencesStore(storage: UserDefaultsStorage(suiteName: suite))
    let report = try store.migrate(plan)
    #expect(report.files.first?.status == .migrated, "\(report.text())")

    let command = MigrationRunner(plan: plan).run(
      Self.sample.path, to: .file(folder.file("command.plist").path))
    #expect(command.status == .migrated)
    let expected = try #require(
      PropertyList.read(Data(contentsOf: folder.file("command.plist"))).value.dictionaryValue?
        .swiftDictionary)
    #expect(try Self.persisted(suite) == expected)
    #expect(report.files.first?.keys == command.keys)
    // The typed keys read through the store (values from the spec's coercion table).
    #expect(store[Keys.rankingSize] == 12)  // " 12"
    #expect(store[Keys.soundEnabled] == true)  // "YES"
    #expect(store[Keys.username] == "Grijander")

    let bytes = try Data(contentsOf: folder.file("app.plist"))
    let again = try store.migrate(plan)
    #expect(again.files.first?.status == .unchanged)
    #expect(try Data(contentsOf: folder.file("app.plist")) == bytes)
    // What a launch prints: one line, not a table of every typed key as "kept".
    #expect(
      again.text()
        == "UserDefaults(\(suite)): unchanged (already migrated with schema version 2)\n"
        + "1 domain: 1 unchanged.\n")
    // The JSON report keeps the contract: every key of the domain, kept.
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(again.json().utf8)) as? [String: Any])
    let keys = (json["files"] as? [[String: Any]])?.first?["keys"] as? [[String: Any]] ?? []
    #expect(keys.count == (try Self.persisted(suite)).count)
    #expect(keys.allSatisfy { $0["action"] as? String == "kept" })
  }

  /// Every action of the plan format, in the store's own domain, reported as the file
  /// migration reports it.
  @Test(arguments: [StorageChoice.userDefaults, .file])
  func everyActionMatchesTheFileMigration(storage: StorageChoice) throws {
    let folder = try TemporaryFolder()
    let legacy: [String: PlistValue] = [
      "typed": true, "loose": "YES", "enumBad": "Purple", "other": "kept?",
      "big": .real(1e300),
    ]
    let plan = MigrationPlan(
      dialect: .apple, schemaVersion: 4, unmapped: .keep,
      entries: [
        .init(from: "typed", to: "t.bool", type: .bool),
        .init(from: "loose", to: "t.loose", type: .bool),
        .init(from: "absent", to: "t.absent", type: .integer, defaultValue: 3),
        .init(
          from: "enumBad", to: "t.mode", type: .enum, defaultValue: "System",
          values: ["Light", "Dark", "System"]),
        .init(from: "big", to: "t.int", type: .integer, defaultValue: 1, invalid: .default),
      ])
    let store = try storage.store(folder, legacy)
    let report = try store.migrate(plan)
    let file = folder.file("legacy.plist")
    try PropertyList.write(.dictionary(legacy), as: .xml).write(to: file)
    let command = MigrationRunner(plan: plan).run(file.path, to: .file(folder.file("o.plist").path))
    let outcome = try #require(report.files.first)
    #expect(outcome.status == command.status)
    #expect(outcome.keys == command.keys)
    #expect(Set(outcome.keys.map(\.action)) == [.migrated, .coerced, .defaulted, .fallback, .kept])
    let migrated = try PropertyList.read(Data(contentsOf: folder.file("o.plist"))).value
    #expect(store.persistentDomain() == migrated.dictionaryValue?.swiftDictionary)

    // Refusals write nothing: an unmapped key under `error`, an unconvertible value.
    let refusing = MigrationPlan(
      schemaVersion: 5, unmapped: .error, entries: [.init(from: "x", to: "y", type: .integer)])
    let other = try TemporaryFolder()
    let fresh = try storage.store(other, ["x": ["ten"], "z": 1])
    let refused = try fresh.migrate(refusing)
    #expect(refused.files.first?.status == .refused)
    #expect(
      Set(refused.files.first?.keys.map(\.action) ?? []) == [.unconvertible, .dropped])
    #expect(fresh.persistentDomain() == ["x": ["ten"], "z": 1])
  }

  enum StorageChoice: String, CaseIterable, Sendable {
    case userDefaults, file

    func store(_ folder: TemporaryFolder, _ values: [String: PlistValue]) throws -> DefaultsStore {
      switch self {
      case .userDefaults:
        return try DefaultsStore(suiteName: try LaunchMigrationTests.suite(folder, values))
      case .file:
        let file = folder.file("domain.plist")
        try PropertyList.write(.dictionary(values), as: .xml).write(to: file)
        return try DefaultsStore(url: file, flushAtExit: false)
      }
    }
  }

  /// `UserDefaults` whose synchronize fails once `failing` is set: the failure injected in the
  /// middle of the migration (after its keys are set, before they are durable).
  final class FailingDefaults: UserDefaults {
    let failing = Mutex(false)
    override func synchronize() -> Bool {
      failing.withLock { $0 } ? false : super.synchronize()
    }
  }

  @Test func aFailureInTheMiddleLeavesTheDomainAsItWas() throws {
    let folder = try TemporaryFolder()
    let legacy = try #require(
      PropertyList.read(Data(contentsOf: Self.sample)).value.dictionaryValue?.swiftDictionary)
    let suite = try Self.suite(folder, legacy)
    let defaults = try #require(FailingDefaults(suiteName: suite))
    let store = try DefaultsStore(userDefaults: defaults, domain: suite)
    let before = try UserDefaultsStorage(defaults, domain: suite).load().values.swiftDictionary
    #expect(before == legacy)
    defaults.failing.withLock { $0 = true }
    #expect(throws: DefaultsError.self) { try store.migrate(Self.samplePlan()) }
    #expect(
      try UserDefaultsStorage(defaults, domain: suite).load().values.swiftDictionary == before)
    #expect(store.persistentDomain() == before)
    // Once synchronize works again, the same call migrates.
    defaults.failing.withLock { $0 = false }
    #expect(try store.migrate(Self.samplePlan()).files.first?.status == .migrated)
  }

  /// An app moving to a new suite: the old suite is read, the new one gets the typed keys,
  /// the old one is left as it was.
  @Test func migratingFromAnotherSuite() throws {
    let old = try TemporaryFolder()
    let legacy: [String: PlistValue] = ["PREFS_SOUND_ENABLED": "NO", "PREFS_RANKING_SIZE": 9]
    let oldSuite = try Self.suite(old, legacy)
    let new = try TemporaryFolder()
    let store = try PreferencesStore(storage: UserDefaultsStorage(suiteName: new.file("new").path))
    let plan = MigrationPlan(
      schemaVersion: 1,
      entries: [
        .map("PREFS_SOUND_ENABLED", to: Keys.soundEnabled),
        .map("PREFS_RANKING_SIZE", to: Keys.rankingSize),
      ])
    let report = try store.migrate(plan, from: UserDefaultsStorage(suiteName: oldSuite))
    #expect(report.files.first?.status == .migrated)
    #expect(store[Keys.soundEnabled] == false)
    #expect(store[Keys.rankingSize] == 9)
    #expect(try Self.persisted(oldSuite) == legacy)
    #expect(
      try store.migrate(plan, from: UserDefaultsStorage(suiteName: oldSuite)).files.first?.status
        == .unchanged)
  }

  /// Two stores on one suite: a change through one reaches the other's observers without
  /// the other synchronizing.
  @Test func aChangeThroughOneStoreReachesTheOthersObservers() throws {
    let folder = try TemporaryFolder()
    let suite = folder.file("shared").path
    let first = try PreferencesStore(storage: UserDefaultsStorage(suiteName: suite))
    let second = try PreferencesStore(storage: UserDefaultsStorage(suiteName: suite))
    let seen = Mutex<[Int]>([])
    let observation = second.observe(Keys.rankingSize) { value in seen.withLock { $0.append(value) }
    }
    first[Keys.rankingSize] = 8
    first[Keys.rankingSize] = 9
    #expect(seen.withLock { $0 } == [8, 9])
    #expect(second[Keys.rankingSize] == 9)
    observation.cancel()
  }

  /// The Objective-C `Preference` over real `UserDefaults` loads hand-edited values as
  /// corelibs' own getters read them, which is what the corelibs dialect over the file reads.
  @Test func thePreferencePortOverUserDefaultsAgreesWithTheCorelibsDialect() throws {
    let loose: [PlistValue] = ["YES", "NO", " 12", "7x", "-3", "", "true", 2, 12.7, -2.5, 0.0]
    var compared = 0
    for a in loose {
      for b in loose {
        let folder = try TemporaryFolder()
        let values: [String: PlistValue] = ["PREFS_SOUND_ENABLED": a, "PREFS_RANKING_SIZE": b]
        let suite = try Self.suite(folder, values)
        let defaults = try #require(UserDefaults(suiteName: suite))
        let overDefaults = Preference.load(from: defaults)
        let overFile = Preference.load(
          from: try DefaultsStore(
            url: folder.file("app.plist"), dialect: .corelibs, flushAtExit: false))
        #expect(overDefaults == overFile, "\(a), \(b)")
        compared += 1
      }
    }
    // Absent keys give the class's defaults; save writes both keys and synchronizes.
    let folder = try TemporaryFolder()
    let defaults = try #require(UserDefaults(suiteName: folder.file("fresh").path))
    #expect(Preference.load(from: defaults) == Preference(isSoundEnabled: true, rankingSize: 5))
    #expect(Preference(isSoundEnabled: false, rankingSize: 12).save(to: defaults))
    #expect(
      try PropertyList.read(Data(contentsOf: folder.file("fresh.plist"))).value
        == ["PREFS_SOUND_ENABLED": false, "PREFS_RANKING_SIZE": 12])
    print(
      "Preference over UserDefaults: \(compared) hand-edited pairs agree with the corelibs dialect")
  }

  /// After a launch migration, `export` gives back what the Objective-C `Preference` (GNUstep)
  /// loads the same as before.
  @Test(.enabled(if: Tools.gnustep || External.required, "needs GNUstep (Legacy/build.sh)"))
  func exportAfterALaunchMigrationLoadsLikeTheOriginalInObjectiveC() throws {
    let driver = try LegacyDriver.require()
    let folder = try TemporaryFolder()
    let legacy: [String: PlistValue] = ["PREFS_SOUND_ENABLED": "NO", "PREFS_RANKING_SIZE": " 12"]
    let suite = try Self.suite(folder, legacy)
    let plan = MigrationPlan(
      dialect: .gnustep, schemaVersion: 1,
      entries: [
        .init(from: "PREFS_SOUND_ENABLED", to: "sound.enabled", type: .bool, defaultValue: true),
        .init(from: "PREFS_RANKING_SIZE", to: "ranking.size", type: .integer, defaultValue: 5),
      ])
    let store = try DefaultsStore(suiteName: suite)
    #expect(try store.migrate(plan).files.first?.status == .migrated)
    let exported = Exporter(plan: plan).export(store.persistentDomain())
    #expect(exported.problems.isEmpty)
    let back = folder.file("back.plist")
    try PropertyList.write(.dictionary(exported.legacy), as: .binary).write(to: back)
    let original = folder.file("original.plist")
    try PropertyList.write(.dictionary(legacy), as: .xml).write(to: original)
    let (before, _) = try driver.run(["load"], file: original)
    let (after, _) = try driver.run(["load"], file: back)
    #expect(before.status == 0 && after.status == 0)
    #expect(after.output == before.output, "\(before.output) vs \(after.output)")
  }
}
