// The README's hand-written model (`<!-- snippet: model-didset -->`), the seed-000 pattern
// the `@Setting` model replaces, compiled as written (ReadmeSnippetTests checks the block).
import Observation
import Preferences
import PreferencesExamples

// README BEGIN
@MainActor @Observable
final class UserSettingsByHand {
  var userName: String {
    didSet { if userName != oldValue, !applyingExternal { store[Keys.userName] = userName } }
  }
  var colorScheme: ColorModeOption {
    didSet {
      if colorScheme != oldValue, !applyingExternal { store[Keys.colorScheme] = colorScheme }
    }
  }

  @ObservationIgnored private let store: PreferencesStore
  @ObservationIgnored private var applyingExternal = false
  @ObservationIgnored private var observations: [AnyObject] = []

  init(store: PreferencesStore) {
    self.store = store
    self.userName = store[Keys.userName]
    self.colorScheme = store[Keys.colorScheme]
    observations = [
      store.observe(Keys.userName) { [weak self] value in
        Task { @MainActor in self?.applyExternal { $0.userName = value } }
      },
      store.observe(Keys.colorScheme) { [weak self] value in
        Task { @MainActor in self?.applyExternal { $0.colorScheme = value } }
      },
    ]
  }

  private func applyExternal(_ change: (UserSettingsByHand) -> Void) {
    applyingExternal = true
    change(self)
    applyingExternal = false
  }
}
// README END
