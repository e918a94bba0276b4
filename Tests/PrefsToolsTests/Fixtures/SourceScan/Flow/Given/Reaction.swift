import Foundation

extension UserDefaults {
  private static let defaultKey = "given.default-reaction"

  var givenDefaultReaction: String? {
    string(forKey: UserDefaults.defaultKey)
  }
}
