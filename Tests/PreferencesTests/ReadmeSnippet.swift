// The README's "use it as a library" snippet, compiled as written: the lines between the
// markers must equal the README's block (ReadmeSnippetTests checks), so the README cannot
// show code that does not build.
import Foundation
import Preferences
import PreferencesExamples

// README BEGIN
extension Keys {
  static let volume = Key<Double>("sound.volume", default: 0.8)
  static let lastPlace = Key<UserLocationData?>("weather.currentLocation")
  static let theme = Key<ColorModeOption>("appearance.colorMode", default: .system)
}

func readmeExample(store: PreferencesStore) async throws {
  store[Keys.volume] = 0.5  // written through: locked, merged, atomic
  let volume = store[Keys.volume]  // 0.5 (0.8 when absent)

  store[Keys.lastPlace] = UserLocationData(address: "Seoul", lat: "37.57", lon: "126.98")
  let theme = try store.value(for: Keys.theme)  // throws if the stored value is corrupt

  for await mode in store.changes(for: Keys.theme) {  // now, then each change
    print("theme is now \(mode) (was \(theme)), volume \(volume)")
    break
  }
}
// README END
