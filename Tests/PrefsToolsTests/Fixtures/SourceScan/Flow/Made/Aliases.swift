import Foundation

// An alias of String names the elements of an array; keys the system writes have its types.

typealias PluginID = String
struct Plugin: Codable { var id: PluginID }

enum Store {
  // An array of an alias of String: string-array.
  static var disabled: [PluginID] {
    UserDefaults.standard.object(forKey: "made.disabled") as? [PluginID] ?? []
  }
  // Trap: an array of a struct stays an array.
  static var plugins: [Plugin] {
    UserDefaults.standard.object(forKey: "made.plugins") as? [Plugin] ?? []
  }
  // The system's own keys: the languages (strings), a window's saved frame (text).
  static var languages: [Any] { UserDefaults.standard.array(forKey: "AppleLanguages") ?? [] }
  static var hasFrame: Bool { UserDefaults.standard.object(forKey: "NSWindow Frame main") != nil }
}
