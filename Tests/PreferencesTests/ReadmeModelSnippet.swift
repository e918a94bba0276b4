// The README's observable model (`<!-- snippet: model -->`), compiled as written: the lines
// between the markers must equal the README's block (ReadmeSnippetTests checks).
import Observation
import Preferences
import PreferencesExamples

// README BEGIN
extension Keys {
  static let userName = Key<String>("nombreUsuario", default: "Lucas")
  static let colorScheme = Key<ColorModeOption>("colorMode", default: .system)
}

@MainActor @Observable
final class UserSettings: PreferencesModel {
  @ObservationIgnored @Setting(Keys.userName) var userName
  @ObservationIgnored @Setting(Keys.colorScheme) var colorScheme

  let preferences: PreferencesStore
  init(store: PreferencesStore) { preferences = store }
}
// README END
