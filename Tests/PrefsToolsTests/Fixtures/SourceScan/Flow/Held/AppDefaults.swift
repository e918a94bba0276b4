import Foundation

// Registered through a class method (`class func`, a member's modifier, not a class).
let HDThemeKey = "hd.theme"

class HDAppDefaults {
  class func start() {
    UserDefaults.standard.register(defaults: defaultsDictionary())
  }

  private class func defaultsDictionary() -> [String: Any] {
    return [HDThemeKey: 0, "hd.upcoming": "YES"]
  }

  class var theme: Int { UserDefaults.standard.integer(forKey: HDThemeKey) }
  class var upcoming: String? { UserDefaults.standard.string(forKey: "hd.upcoming") }
}
