import Foundation
import Observation
import Preferences

// The three seed apps' settings, ported onto the typed store.

// MARK: - Seed 002: the Objective-C `Preference` class, as typed keys

extension Keys {
  /// `PREFS_SOUND_ENABLED` of the legacy class: play sounds when answers are corrected.
  public static let soundEnabled = Key<Bool>("sound.enabled", default: true)
  /// `PREFS_RANKING_SIZE` of the legacy class: how many users the ranking shows.
  public static let rankingSize = Key<Int>("ranking.size", default: 5)
}

// MARK: - Seed 000: `Storage` + `AppData`, one observable settings model

/// A color scheme, stored by its raw value.
public enum ColorModeOption: String, CaseIterable, Sendable, PreferenceValue {
  case light = "Light"
  case dark = "Dark"
  case system = "System"
}

extension Keys {
  /// The user's name (default "Lucas").
  public static let username = Key<String>("username", default: "Lucas")
  /// The color scheme; an unknown raw value reads as `.system` and is reported.
  public static let colorMode = Key<ColorModeOption>("appearance.colorMode", default: .system)
}

/// An `@Observable` settings model whose properties read from the store at
/// start, write through on every change (`didSet`), and follow changes made elsewhere (another
/// model on the same store, or another process, picked up at `synchronize()`).
///
/// `@AppStorage` cannot live inside an `@Observable` class (the macro turns the property into
/// a computed one, and property wrappers need a stored one); a plain stored property with a
/// write-through `didSet` keeps observation and persistence both.
@MainActor
@Observable
public final class AppSettings {
  public var username: String {
    didSet { if username != oldValue, !applyingExternal { store[Keys.username] = username } }
  }
  public var colorMode: ColorModeOption {
    didSet { if colorMode != oldValue, !applyingExternal { store[Keys.colorMode] = colorMode } }
  }

  @ObservationIgnored private let store: PreferencesStore
  @ObservationIgnored private var applyingExternal = false
  @ObservationIgnored private var observations: [AnyObject] = []

  public init(store: PreferencesStore) {
    self.store = store
    self.username = store[Keys.username]
    self.colorMode = store[Keys.colorMode]
    observations = [
      store.observe(Keys.username) { [weak self] value in
        Task { @MainActor in self?.applyExternal { $0.username = value } }
      },
      store.observe(Keys.colorMode) { [weak self] value in
        Task { @MainActor in self?.applyExternal { $0.colorMode = value } }
      },
    ]
  }

  private func applyExternal(_ change: (AppSettings) -> Void) {
    applyingExternal = true
    change(self)
    applyingExternal = false
  }
}
