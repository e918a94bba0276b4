import Foundation

// The keys, as a Swift app names them.
struct Keys {
  static let showTips = "showTips"
  static let maxItems = "maxItems"
}

enum PrefKey: String {
  case accentColor  // the case's name: "accentColor"
  case fontScale = "font.scale"  // its raw value
  case lastOpened
  case autoPlay
}

let legacyKey = "legacy.value"

/// Not a key: a notification's name.
let refreshNotification = Notification.Name("RefreshNotification")
