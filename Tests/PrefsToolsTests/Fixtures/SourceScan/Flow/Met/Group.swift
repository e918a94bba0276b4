import Foundation

// The app group's name a closure gives for each build: the `#else` branch's is the default
// build's (`#if BETA`).
enum MetGlobals {
  static let bundleIdentifier: String = {
    #if BETA
      return "org.example.met.beta"
    #else
      return "org.example.met"
    #endif
  }()
  static let groupIdentifier = "group." + bundleIdentifier
}

// (`?? .standard`: the standard domain only where the suite cannot be made.)
let metGroup = UserDefaults(suiteName: MetGlobals.groupIdentifier) ?? .standard

// A property of an extension of UserDefaults observed through a key path on the group's
// defaults: that suite's key.
extension UserDefaults {
  @objc dynamic var metLogs: [Any]? {
    get { array(forKey: "metLogs") }
    set { set(newValue, forKey: "metLogs") }
  }
}

final class LogWatcher {
  var token: NSKeyValueObservation?
  func watch() {
    token = metGroup.observe(\.metLogs, options: [.new]) { _, _ in }
  }
}
