import Foundation

extension UserDefaults {
  private static let defaultKey = "given.default-reaction"

  var givenDefaultReaction: String? {
    string(forKey: UserDefaults.defaultKey)
  }
}

enum Reactions {
  static func preferred() -> String? { UserDefaults.standard.givenDefaultReaction }
}
