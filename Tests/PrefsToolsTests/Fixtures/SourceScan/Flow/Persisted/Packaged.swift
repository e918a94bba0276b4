import SwiftUI
import SwiftyPreferenceStore

// A package named for keeping settings: its attribute given a key as text stores the property
// under that key (persistedPackagedFlag: bool, true; persistedPackagedName: string, no
// default). Traps: its attribute given no text, a language attribute given one.
struct PersistedPackaged {
  @Stored("persistedPackagedFlag", default: true) var flag: Bool
  @Stored(key: "persistedPackagedName") var name: String?
  @Stored(Self.computedKey) var computed: Int
  @available(*, deprecated, message: "persistedNotAKey") var old = 0

  static let computedKey = UUID().uuidString
}
