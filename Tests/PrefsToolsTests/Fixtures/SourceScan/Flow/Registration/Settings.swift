// Swift registrations through data flow.
import Foundation

enum Registration {
  static func makeDefaults() -> [String: Any] {
    ["swreg.fromFunc": "abc"]  // swreg.fromFunc: string, "abc"
  }

  static func register() {
    var defaults: [String: Any] = [:]
    defaults["swreg.count"] = 4  // swreg.count: integer, 4
    defaults["swreg.on"] = true  // swreg.on: bool, true
    UserDefaults.standard.register(defaults: defaults)
    UserDefaults.standard.register(defaults: makeDefaults())
  }
}
