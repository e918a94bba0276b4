import Foundation

// What a thirty-second set of never-seen apps showed (Swift): keys as cases of small enums
// grouped by the type they hold (named like the standard types they hide: `enum Bool:
// Swift.String`), read and written through typed subscripts of an extension of a protocol
// UserDefaults is made to conform to, called on user defaults with a case.

public protocol SubscriptedDefaults: AnyObject {
  func object(forKey defaultName: String) -> Any?
  func bool(forKey defaultName: String) -> Bool
  func set(_ value: Any?, forKey defaultName: String)
}

extension UserDefaults: SubscriptedDefaults {}

public enum SubscriptedKeys {
  public enum Bool: Swift.String {
    case synced = "subscriptedSynced"
    case seenTips = "subscriptedSeenTips"
  }

  public enum Date: Swift.String {
    case lastOpen = "subscriptedLastOpen"
  }
}

extension UserDefaults {
  static var subscriptedGroup: UserDefaults? { UserDefaults(suiteName: "group.subscripted") }
}

public extension SubscriptedDefaults {
  subscript(bool: SubscriptedKeys.Bool) -> Bool {
    get { return self.bool(forKey: bool.rawValue) }
    set { set(newValue, forKey: bool.rawValue) }
  }

  subscript(date: SubscriptedKeys.Date) -> Date? {
    get { return self.object(forKey: date.rawValue) as? Date }
    set { set(newValue, forKey: date.rawValue) }
  }
}

// Trap: another type's subscript called with a case of its own enum: no key.
enum SubscriptedSlot { case thumbnails }

final class SubscriptedCache {
  subscript(slot: SubscriptedSlot) -> Int { 0 }
}

// In the standard domain: subscriptedSynced (bool), subscriptedLastOpen (date); in
// group.subscripted: subscriptedSeenTips (bool). No subscriptedThumbnails.
func subscriptedLaunch(cache: SubscriptedCache) {
  UserDefaults.standard[.synced] = true
  UserDefaults.standard[.lastOpen] = Date()
  if UserDefaults.subscriptedGroup?[.seenTips] == true { return }
  _ = cache[.thumbnails]
}
