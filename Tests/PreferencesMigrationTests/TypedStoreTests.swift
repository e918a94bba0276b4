import Foundation
import Preferences
import PreferencesExamples
import PreferencesMigration
import PrefsTools
import PropertyList
import TestSupport
import Testing

/// The migrated sample is a store the typed keys read: the plan's targets are the seed ports'
/// keys.
@Suite struct TypedStoreTests {
  @Test func theMigratedSampleReadsThroughTheTypedKeys() throws {
    let samples = External.packageRoot.appendingPathComponent("Legacy/Samples")
    let plan = try MigrationPlan.load(
      json: Data(contentsOf: samples.appendingPathComponent("equizmo-plan.json")))
    let folder = try TemporaryFolder()
    let out = folder.file("store.plist")
    let outcome = MigrationRunner(plan: plan).run(
      samples.appendingPathComponent("com.exmo.equizmo.plist").path, to: .file(out.path))
    #expect(outcome.status == .migrated)
    let store = try PreferencesStore(url: out)
    #expect(try store.value(for: Keys.soundEnabled) == true)  // "YES"
    #expect(try store.value(for: Keys.rankingSize) == 12)  // " 12"
    #expect(try store.value(for: Keys.colorMode) == .system)  // "Sepia" fell back
    #expect(try store.value(for: Keys.username) == "Grijander")
    #expect(try store.value(for: Keys.currentLocation)?.address == "Seoul")
    #expect(
      try store.value(for: Keys.locationHistory).history.map(\.address) == ["Seoul", "Busan"])
    // Stored natively, not as JSON bytes.
    let raw = try PropertyList.read(Data(contentsOf: out)).value
    #expect(raw["weather.locationHistory"]?["history"]?.arrayValue?.count == 2)
  }
}
