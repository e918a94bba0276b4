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

/// The seed's `AppData`, as short as `@AppStorage` and observable: each property is one
/// line, `@Setting(key)`, inside an `@Observable` class (`@ObservationIgnored` keeps the macro
/// off the wrapped property). A read is tracked by `withObservationTracking` and SwiftUI (it
/// reads the store's observable cell of the key); a write goes through the store (locked,
/// merged, atomic); and the model follows changes made elsewhere, without a synchronize:
/// another model or store over the same domain, or another process writing the domain.
///
/// `@AppStorage` cannot live inside an `@Observable` class: the macro turns the property into
/// a computed one, and `@AppStorage` needs a stored one, ignored or not it cannot see the
/// class. `@Setting` reaches its store through the class (``PreferencesModel``).
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
@Observable
public final class AppSettings: PreferencesModel {
  @ObservationIgnored @Setting(Keys.username) public var username: String
  @ObservationIgnored @Setting(Keys.colorMode) public var colorMode: ColorModeOption

  public let preferences: PreferencesStore

  public init(store: PreferencesStore) { preferences = store }
}
