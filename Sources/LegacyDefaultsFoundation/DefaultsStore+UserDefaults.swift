import Foundation
import LegacyDefaults

extension DefaultsStore {
  /// A store over a `UserDefaults` persistent domain (see ``UserDefaultsStorage``): the way
  /// for an app on Apple platforms, where `cfprefsd` owns the files.
  public convenience init(
    userDefaults: UserDefaults, domain: String, dialect: Dialect = .apple,
    arguments: [String] = []
  ) throws(DefaultsError) {
    try self.init(
      storage: UserDefaultsStorage(userDefaults, domain: domain), dialect: dialect,
      arguments: arguments, flushAtExit: true)
  }

  /// A store over `UserDefaults(suiteName:)`.
  public convenience init(suiteName: String, dialect: Dialect = .apple, arguments: [String] = [])
    throws(DefaultsError)
  {
    try self.init(
      storage: try UserDefaultsStorage(suiteName: suiteName), dialect: dialect,
      arguments: arguments, flushAtExit: true)
  }
}

extension Preference {
  /// `+[Preference load]` over a real `UserDefaults` (the Objective-C class used
  /// `standardUserDefaults`): `objectForKey:` nil gives the default, else Foundation's own
  /// `boolForKey:`/`integerForKey:` read the value, as they did for the Objective-C app.
  public static func load(from defaults: UserDefaults) -> Preference {
    var preference = Preference()
    if defaults.object(forKey: soundEnabledKey) != nil {
      preference.isSoundEnabled = defaults.bool(forKey: soundEnabledKey)
    }
    if defaults.object(forKey: rankingSizeKey) != nil {
      preference.rankingSize = defaults.integer(forKey: rankingSizeKey)
    }
    return preference
  }

  /// `-[Preference save]` over a real `UserDefaults`: `setBool:`, `setInteger:`,
  /// `synchronize`; returns what `synchronize` returned.
  @discardableResult
  public func save(to defaults: UserDefaults) -> Bool {
    defaults.set(isSoundEnabled, forKey: Self.soundEnabledKey)
    defaults.set(rankingSize, forKey: Self.rankingSizeKey)
    return defaults.synchronize()
  }
}
