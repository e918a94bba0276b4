import Foundation
import LegacyDefaults
import PreferencesMigration
import PrefsTools
import PropertyList
import TestSupport
import Testing

/// The round trip a rollback depends on: legacy file → migrate → export → the Objective-C
/// `Preference` class (Legacy/, under GNUstep) loads the same values as from the original.
@Suite struct RollbackTests {
  struct Loaded: Decodable, Equatable {
    var isSoundEnabled: Bool
    var rankingSize: Int
  }

  static let plan = MigrationPlan(
    dialect: .gnustep, schemaVersion: 1, unmapped: .keep,
    entries: [
      .init(from: "PREFS_SOUND_ENABLED", to: "sound.enabled", type: .bool, defaultValue: true),
      .init(from: "PREFS_RANKING_SIZE", to: "ranking.size", type: .integer, defaultValue: 5),
    ])

  /// The spec's loose strings (both lists) and more, as values of both keys; numbers as reals
  /// and strings; absent keys.
  static let looseStrings = [
    "YES", "yes", "Y", "y", "true", "TRUE", "1", "2", "-1", "01", "+1", " 1", "\n7", "5abc", "5.7",
    "1e3", "1.0", "NO", "no", "false", "t", "f", "0", "00", "--1", "0-1", " YES", "\tYES", "abc",
    "",
    "0.5", "0x10", "-0", ".5", "yes please", " 12", "12 ", "-3", "99999999999999999999",
  ]

  static var legacyFiles: [(String, [String: PlistValue])] {
    var files: [(String, [String: PlistValue])] = [("empty", [:])]
    for (n, s) in looseStrings.enumerated() {
      files.append(
        ("string \(n)", ["PREFS_SOUND_ENABLED": .string(s), "PREFS_RANKING_SIZE": .string(s)]))
    }
    for x in [0.0, 0.5, -2.5, 12.9, 1e3] {
      files.append(
        ("real \(x)", ["PREFS_SOUND_ENABLED": .real(x), "PREFS_RANKING_SIZE": .real(x)]))
    }
    files.append(("only size", ["PREFS_RANKING_SIZE": 7]))
    files.append(("only sound", ["PREFS_SOUND_ENABLED": false, "other": "kept"]))
    files.append(("typed", ["PREFS_SOUND_ENABLED": false, "PREFS_RANKING_SIZE": 12]))
    return files
  }

  static func objectiveCLoad(_ file: URL, driver: LegacyDriver) throws -> Loaded {
    let (result, _) = try driver.run(["load"], file: file)
    guard result.status == 0 else {
      throw TypedJSONError(description: "prefs-driver load: \(result.stderr)")
    }
    return try JSONDecoder().decode(Loaded.self, from: result.stdout)
  }

  @Test(
    .enabled(if: Tools.gnustep || External.required, "needs GNUstep (the Objective-C class)"),
    arguments: [PlistFormat.xml, .binary, .gnustep])
  func exportAfterMigrateLoadsLikeTheOriginal(format: PlistFormat) throws {
    let driver = try LegacyDriver.require()
    let folder = try TemporaryFolder()
    var compared = 0
    for (n, (name, values)) in Self.legacyFiles.enumerated() {
      let original = folder.file("original-\(n).plist")
      try PropertyList.write(.dictionary(values), as: format).write(to: original)
      let migrated = folder.file("migrated-\(n).plist")
      let outcome = MigrationRunner(plan: Self.plan).run(original.path, to: .file(migrated.path))
      // A legacy file holding no keys has nothing to migrate (MIGRATION.md): no store is
      // written, and the app starts from the typed keys' defaults.
      #expect(
        outcome.status == (values.isEmpty ? .missing : .migrated),
        "\(name): \(outcome.message ?? "")")
      let store =
        values.isEmpty
        ? [:]
        : try PropertyList.read(Data(contentsOf: migrated)).value.dictionaryValue?
          .swiftDictionary ?? [:]
      let exported = Exporter(plan: Self.plan).export(store)
      #expect(exported.problems.isEmpty)
      let back = folder.file("back-\(n).plist")
      try PropertyList.write(.dictionary(exported.legacy), as: .binary).write(to: back)
      #expect(
        try Self.objectiveCLoad(back, driver: driver)
          == Self.objectiveCLoad(original, driver: driver),
        "\(name) as \(format)")
      compared += 1
    }
    print("rollback \(format): \(compared) legacy files load alike before and after")
  }
}
