#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The legacy app's Objective-C `Preference` class (`Legacy/Preference.m`), ported with its
/// behaviour intact.
///
/// | Objective-C | Swift |
/// |---|---|
/// | `+ (Preference *) load` | ``load(from:)`` |
/// | `- (void) save` | ``save(to:)`` (or ``saveOrThrow(to:)``) |
/// | `BOOL isSoundEnabled`, default `YES` | ``isSoundEnabled``, default `true` |
/// | `NSInteger rankingSize`, default 5 | ``rankingSize``, default 5 |
/// | `PREFS_SOUND_ENABLED`, `PREFS_RANKING_SIZE` | ``soundEnabledKey``, ``rankingSizeKey`` |
///
/// ``load(from:)`` keeps the legacy check of each key: `objectForKey:` nil gives that key's
/// default, else the typed getter reads the value through the store's ``Dialect``, so a
/// hand-edited `"NO"` or `" 12"` reads as the legacy code read it. ``save(to:)`` sets both keys
/// and synchronizes.
///
/// The store is injected (`Preference.load(from: store)`), never a shared singleton:
///
/// ```swift
/// let store = try DefaultsStore(domain: "com.exmo.equizmo", dialect: .apple)
/// var preference = Preference.load(from: store)   // true and 5 when the keys are absent
/// preference.rankingSize = 10
/// try preference.saveOrThrow(to: store)
/// ```
///
/// `import LegacyDefaultsFoundation` adds `load(from:)` and `save(to:)` over a real
/// `UserDefaults` (Foundation's own getters, as the Objective-C class used them).
public struct Preference: Sendable, Hashable {
  /// The key of ``isSoundEnabled``: `"PREFS_SOUND_ENABLED"`, the Objective-C macro's name
  /// (the legacy code never shows the macro's value; it is taken to be its name).
  public static let soundEnabledKey = "PREFS_SOUND_ENABLED"
  /// The key of ``rankingSize``: `"PREFS_RANKING_SIZE"`, the Objective-C macro's name.
  public static let rankingSizeKey = "PREFS_RANKING_SIZE"

  /// Whether sounds play when answers are corrected. Default `true` (`YES`).
  public var isSoundEnabled: Bool
  /// How many users the ranking shows. Default 5.
  public var rankingSize: Int

  /// A preference with these values; `Preference()` holds the legacy defaults (`true`, 5).
  public init(isSoundEnabled: Bool = true, rankingSize: Int = 5) {
    self.isSoundEnabled = isSoundEnabled
    self.rankingSize = rankingSize
  }

  /// `+[Preference load]`: for each key, `store.object(forKey:)` nil gives the default
  /// (``isSoundEnabled`` `true`, ``rankingSize`` 5); else `store.bool(forKey:)` or
  /// `store.integer(forKey:)` reads the value through the store's dialect, as `boolForKey:` and
  /// `integerForKey:` read it. The check is per key: one key absent, the other stored, gives one
  /// default and one stored value. A stored value the getter cannot read (an array for the
  /// bool) gives what the getter gives (`false`, 0), not the default, as in Objective-C.
  public static func load(from store: DefaultsStore) -> Preference {
    var preference = Preference()
    if store.object(forKey: soundEnabledKey) != nil {
      preference.isSoundEnabled = store.bool(forKey: soundEnabledKey)
    }
    if store.object(forKey: rankingSizeKey) != nil {
      preference.rankingSize = store.integer(forKey: rankingSizeKey)
    }
    return preference
  }

  /// `-[Preference save]`: `setBool:`, `setInteger:`, `synchronize`. Returns what
  /// `synchronize` returned (the Objective-C method ignored it; so may you: the result is
  /// discardable); ``saveOrThrow(to:)`` says why it failed.
  @discardableResult
  public func save(to store: DefaultsStore) -> Bool {
    do {
      try saveOrThrow(to: store)
      return true
    } catch {
      return false
    }
  }

  /// ``save(to:)``, throwing the reason it failed: both keys are set, then
  /// ``DefaultsStore/synchronizeOrThrow()`` writes them (on failure the changes stay pending in
  /// the store for its next synchronize).
  public func saveOrThrow(to store: DefaultsStore) throws(DefaultsError) {
    try store.set(isSoundEnabled, forKey: Self.soundEnabledKey)
    try store.set(rankingSize, forKey: Self.rankingSizeKey)
    try store.synchronizeOrThrow()
  }
}
