// The README's "In the app" block, compiled as written: the lines between the markers must
// equal the README's block (InTheAppSnippetTests checks), and the test runs it.
import Foundation
import LegacyDefaultsFoundation
import Preferences
import PreferencesMigration

// README BEGIN
extension Keys {
  static let soundOn = Key<Bool>("sound.on", default: true)
  static let ranking = Key<Int>("ranking", default: 5)
}

func launch(suiteName: String) throws -> PreferencesStore {
  // What the Objective-C app left in its defaults.
  let legacy = UserDefaults(suiteName: suiteName)
  legacy?.set("NO", forKey: "PREFS_SOUND_ENABLED")
  legacy?.set(" 12", forKey: "PREFS_RANKING_SIZE")

  let store = try PreferencesStore(storage: UserDefaultsStorage(suiteName: suiteName))
  let plan = MigrationPlan(
    schemaVersion: 2,
    entries: [
      .map("PREFS_SOUND_ENABLED", to: Keys.soundOn),  // read as boolForKey: read it
      .map("PREFS_RANKING_SIZE", to: Keys.ranking),  // read as integerForKey: read it
    ])
  let report = try store.migrate(plan)  // at every launch: after the first, "unchanged"
  print(report.text())
  print(store[Keys.soundOn], store[Keys.ranking])  // false 12
  return store
}
// README END
