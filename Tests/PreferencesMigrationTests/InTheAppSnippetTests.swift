import Foundation
import LegacyDefaultsFoundation
import Preferences
import PreferencesMigration
import PropertyList
import TestSupport
import Testing

@Suite struct InTheAppSnippetTests {
  /// The README block is the compiled snippet, line for line.
  @Test func readmeShowsTheCompiledSnippet() throws {
    let compiled = try ReadmeSnippet.compiled(
      "Tests/PreferencesMigrationTests/InTheAppSnippet.swift")
    #expect(!compiled.isEmpty)
    #expect(try ReadmeSnippet.shown("in-the-app") == compiled)
  }

  /// It runs: the legacy values are migrated (the spec's coercions: "NO" → false, " 12" → 12),
  /// and a second launch changes nothing.
  @Test func theSnippetRuns() throws {
    let folder = try TemporaryFolder()
    let suite = folder.file("com.example.app").path
    let store = try launch(suiteName: suite)
    #expect(store[Keys.soundOn] == false)
    #expect(store[Keys.ranking] == 12)
    let file = folder.file("com.example.app.plist")
    let stored = try PropertyList.read(Data(contentsOf: file)).value
    #expect(stored["sound.on"] == false)
    #expect(stored["ranking"] == 12)
    #expect(stored["PREFS_SOUND_ENABLED"] == nil)
    #expect(stored["prefs.schemaVersion"] == 2)
    let bytes = try Data(contentsOf: file)
    // The second launch sets the legacy values again (the snippet does), then migrates:
    // the schema version says it is done, so nothing changes but those two keys.
    #expect(
      try PreferencesStore(storage: UserDefaultsStorage(suiteName: suite)).migrate(
        MigrationPlan(schemaVersion: 2, entries: [])
      ).files.first?.status == .unchanged)
    #expect(try Data(contentsOf: file) == bytes)
  }
}
