import Foundation

// Two files each with a private constant of the same name in an extension of UserDefaults:
// each file's own.
extension UserDefaults {
  private static let defaultKey = "given.open-links-in-browser"

  var givenOpensLinksInBrowser: Bool {
    get { bool(forKey: UserDefaults.defaultKey) }
    set { set(newValue, forKey: UserDefaults.defaultKey) }
  }
}

enum Links {
  static func external() -> Bool { UserDefaults.standard.givenOpensLinksInBrowser }
}
