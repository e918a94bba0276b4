import Foundation
import Preferences
import PreferencesMigration
import PropertyList
import TestSupport
import Testing

@Suite struct InTheAppSnippetTests {
  static func lines(_ text: String, from begin: String, to end: String) -> [String] {
    let all = text.components(separatedBy: "\n")
    guard let start = all.firstIndex(where: { $0.contains(begin) }),
      let stop = all[start...].firstIndex(where: { $0.contains(end) })
    else { return [] }
    return Array(all[(start + 1)..<stop])
  }

  /// The README block under "In the app" is the compiled snippet, line for line.
  @Test func readmeShowsTheCompiledSnippet() throws {
    let root = External.packageRoot
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let source = try String(
      contentsOf: root.appendingPathComponent(
        "Tests/PreferencesMigrationTests/InTheAppSnippet.swift"),
      encoding: .utf8)
    let shown = Array(
      Self.lines(readme, from: "<!-- snippet: in-the-app -->", to: "<!-- end snippet -->")
        .drop { !$0.hasPrefix("```swift") }.dropFirst().prefix { $0 != "```" })
    let compiled = Self.lines(source, from: "// README BEGIN", to: "// README END")
    #expect(!compiled.isEmpty)
    #expect(shown == compiled)
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
      try PreferencesStore(suiteName: suite).migrate(
        MigrationPlan(schemaVersion: 2, entries: [])
      ).files.first?.status == .unchanged)
    #expect(try Data(contentsOf: file) == bytes)
  }
}
