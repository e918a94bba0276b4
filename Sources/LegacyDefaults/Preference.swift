#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The legacy app's Objective-C `Preference` class (`Legacy/Preference.m`), ported with its
/// behaviour intact: `load` keeps the explicit default-if-absent check per key
/// (`objectForKey:` nil → the default, else the typed getter, so a hand-edited `"NO"` or
/// `" 12"` reads as the legacy code read it), and `save` sets both keys and synchronizes.
///
/// The store is injected: `Preference.load(from: store)`, never a shared singleton.
public struct Preference: Sendable, Hashable {
  /// The key constants, string literals equal to their Objective-C macro names.
  public static let soundEnabledKey = "PREFS_SOUND_ENABLED"
  public static let rankingSizeKey = "PREFS_RANKING_SIZE"

  /// Whether sounds play when answers are corrected. Default `true` (`YES`).
  public var isSoundEnabled: Bool
  /// How many users the ranking shows. Default 5.
  public var rankingSize: Int

  public init(isSoundEnabled: Bool = true, rankingSize: Int = 5) {
    self.isSoundEnabled = isSoundEnabled
    self.rankingSize = rankingSize
  }

  /// `+[Preference load]`: each key's value through the store's dialect, or the default when
  /// the key is absent.
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
  /// `synchronize` returned; ``saveOrThrow(to:)`` says why it failed.
  @discardableResult
  public func save(to store: DefaultsStore) -> Bool {
    do {
      try saveOrThrow(to: store)
      return true
    } catch {
      return false
    }
  }

  public func saveOrThrow(to store: DefaultsStore) throws(DefaultsError) {
    try store.set(isSoundEnabled, forKey: Self.soundEnabledKey)
    try store.set(rankingSize, forKey: Self.rankingSizeKey)
    try store.synchronizeOrThrow()
  }
}
