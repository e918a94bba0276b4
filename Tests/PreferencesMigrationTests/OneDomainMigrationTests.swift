import Foundation
import LegacyDefaults
import LegacyDefaultsFoundation
import Preferences
import PreferencesExamples
import PreferencesMigration
import PrefsTools
import PropertyList
import TestSupport
import Testing

/// Issue #22, finding 4: `prefs migrate` and the migration at launch are one operation, with
/// one set of rules for a legacy domain; a source that holds nothing is never taken for a
/// migrated one.
@Suite struct OneDomainMigrationTests {
  static let plan = MigrationPlan(
    schemaVersion: 2, unmapped: .drop,
    entries: [
      .map("PREFS_SOUND_ENABLED", to: Keys.soundEnabled),
      .map("PREFS_RANKING_SIZE", to: Keys.rankingSize),
    ])
  static let legacy: [String: PlistValue] = ["PREFS_SOUND_ENABLED": "NO", "PREFS_RANKING_SIZE": 9]

  /// The sources an app may name by mistake, all holding nothing, and the message each must
  /// give (the domain as the storage names it: a path, `UserDefaults(<suite>)`, `memory`).
  enum EmptySource: String, CaseIterable, Sendable {
    case misspeltSuite, inMemory, missingFile, emptyFile

    func storage(_ folder: TemporaryFolder) throws -> (any DefaultsStorage, message: String) {
      switch self {
      case .misspeltSuite:
        let suite = folder.file("typo").path
        return (try UserDefaultsStorage(suiteName: suite), "UserDefaults(\(suite)) holds no keys")
      case .inMemory:
        return (InMemoryStorage(), "memory holds no keys")
      case .missingFile:
        let file = folder.file("absent.plist")
        return (
          try DefaultsStore(url: file, flushAtExit: false).storage, "\(file.path): no such file"
        )
      case .emptyFile:
        let file = folder.file("empty.plist")
        try PropertyList.write([:], as: .xml).write(to: file)
        return (
          try DefaultsStore(url: file, flushAtExit: false).storage, "\(file.path) holds no keys"
        )
      }
    }
  }

  /// `migrate(_:from:)` given a source that holds nothing reports it `missing`, writes
  /// nothing (no schema version either), and the real legacy domain still migrates later.
  @Test(arguments: EmptySource.allCases)
  func aSourceThatHoldsNothingIsMissingAndStampsNothing(_ source: EmptySource) throws {
    let folder = try TemporaryFolder()
    let store = try PreferencesStore(
      storage: UserDefaultsStorage(suiteName: folder.file("app").path))
    store[Keys.username] = "Ana"
    let before = store.defaults.persistentDomain()
    let (storage, message) = try source.storage(folder)
    let report = try store.migrate(Self.plan, from: storage)
    let outcome = try #require(report.files.first)
    #expect(outcome.status == .missing, "\(report.text())")
    #expect(outcome.message == message)
    #expect(store.defaults.persistentDomain() == before)
    #expect(store.defaults.persistentDomain()[MigrationPlan.schemaVersionKey] == nil)

    // The right source, afterwards: migrated, not "unchanged".
    let real = InMemoryStorage(Self.legacy)
    #expect(try store.migrate(Self.plan, from: real).files.first?.status == .migrated)
    #expect(store[Keys.rankingSize] == 9)
    #expect(store[Keys.soundEnabled] == false)
  }

  /// A report about a domain that is not a file speaks of a domain.
  @Test func theReportOfASuiteSpeaksOfADomain() throws {
    let folder = try TemporaryFolder()
    let store = try PreferencesStore(
      storage: UserDefaultsStorage(suiteName: folder.file("app").path))
    let suite = folder.file("typo").path
    let text = try store.migrate(Self.plan, from: UserDefaultsStorage(suiteName: suite)).text()
    #expect(text.contains("UserDefaults(\(suite))"))
    #expect(text.hasSuffix("1 domain: 1 missing.\n"), "\(text)")
    #expect(!text.contains("file"), "\(text)")
  }

  /// The legacy domains the command and the launch path both meet, and how each ends.
  enum Legacy: String, CaseIterable, Sendable {
    case absent, empty, plain, typo, corrupt, stamped, otherSchema

    /// The file's bytes, or nil for no file.
    var bytes: Data? {
      get throws {
        switch self {
        case .absent: return nil
        case .empty: return try PropertyList.write([:], as: .xml)
        case .plain:
          return try PropertyList.write(.dictionary(OneDomainMigrationTests.legacy), as: .xml)
        case .typo:
          // The plan maps PREFS_SOUND_ENABLED; the file's key is one letter short of it and
          // would be dropped (unmapped: drop).
          return try PropertyList.write(
            ["PREFS_SOUND_ENABLE": "NO", "PREFS_RANKING_SIZE": 9], as: .xml)
        case .corrupt: return Data("<?xml version=\"1.0\"?><plist><dict><key>a".utf8)
        case .stamped: return try PropertyList.write(["prefs.schemaVersion": 2], as: .xml)
        case .otherSchema: return try PropertyList.write(["prefs.schemaVersion": 3], as: .xml)
        }
      }
    }

    /// How it ends (the rules of MIGRATION.md, "One legacy domain, every path").
    var status: FileStatus {
      switch self {
      case .absent, .empty: .missing
      case .plain: .migrated
      case .typo, .otherSchema: .refused
      case .corrupt: .malformed
      case .stamped: .unchanged
      }
    }
  }

  /// `prefs migrate --to` (``MigrationRunner``) and `store.migrate(plan, from:)` over the same
  /// legacy file end the same, with the same keys.
  @Test(arguments: Legacy.allCases)
  func theCommandAndTheLaunchPathAgree(_ legacy: Legacy) throws {
    let folder = try TemporaryFolder()
    let file = folder.file("legacy.plist")
    if let bytes = try legacy.bytes { try bytes.write(to: file) }
    let command = MigrationRunner(plan: Self.plan).run(
      file.path, to: .file(folder.file("out.plist").path))
    #expect(command.status == legacy.status, "\(command.message ?? "")")

    let store = DefaultsStore(inMemory: [:])
    let source = try DefaultsStore(url: file, flushAtExit: false).storage
    let launch = try #require(store.migrate(Self.plan, from: source).files.first)
    #expect(launch.status == legacy.status, "\(launch.message ?? "")")
    #expect(launch.keys == command.keys)
    #expect(launch.message == command.message)
    if legacy.status != .migrated {
      #expect(store.persistentDomain().isEmpty)
      #expect(!FileManager.default.fileExists(atPath: folder.file("out.plist").path))
    }
  }

  /// The store's own domain holding nothing is a fresh install: it is stamped, so that the
  /// typed keys the app writes afterwards are never taken for legacy keys (under
  /// `unmapped: drop` they would be dropped at the next launch).
  @Test func aFreshInstallIsStampedAndLaterLaunchesAreUnchanged() throws {
    let folder = try TemporaryFolder()
    let store = try PreferencesStore(
      storage: UserDefaultsStorage(suiteName: folder.file("app").path))
    let first = try #require(try store.migrate(Self.plan).files.first)
    #expect(first.status == .migrated)
    #expect(first.message?.contains("holds no legacy keys") == true, "\(first.message ?? "")")
    #expect(store.defaults.persistentDomain() == [MigrationPlan.schemaVersionKey: 2])
    store[Keys.username] = "Ana"
    let second = try #require(try store.migrate(Self.plan).files.first)
    #expect(second.status == .unchanged)
    #expect(store[Keys.username] == "Ana")
  }

  /// `--in-place` over an existing file holding no keys: the file becomes the store, as the
  /// app's own domain does; a file that is not there is missing.
  @Test func inPlaceAnEmptyFileIsStampedAndAnAbsentOneIsMissing() throws {
    let folder = try TemporaryFolder()
    let empty = folder.file("empty.plist")
    try PropertyList.write([:], as: .xml).write(to: empty)
    let runner = MigrationRunner(plan: Self.plan)
    let outcome = runner.run(empty.path, to: .inPlace(backupFolder: folder.url.path))
    #expect(outcome.status == .migrated, "\(outcome.message ?? "")")
    #expect(try PropertyList.read(Data(contentsOf: empty)).value == ["prefs.schemaVersion": 2])
    let absent = runner.run(folder.file("absent.plist").path, to: .inPlace(backupFolder: nil))
    #expect(absent.status == .missing)
  }
}
