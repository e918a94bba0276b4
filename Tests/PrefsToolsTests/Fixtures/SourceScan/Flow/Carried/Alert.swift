import Foundation

/// A key kept in a member by a method (not an initializer) and used by the type's others.
final class Alert {
  var suppressionKey: String?
  var title = ""

  func showSuppression(forKey key: String) {
    suppressionKey = key
    let checked = UserDefaults.standard.value(forKey: key) != nil
    print(checked)
  }

  func checkIfSuppressed() -> Bool {
    if let key = suppressionKey, UserDefaults.standard.value(forKey: key) != nil {
      return UserDefaults.standard.integer(forKey: key) == 1
    }
    return false
  }

  func remember(_ choice: Bool) {
    if let key = suppressionKey {
      UserDefaults.standard.set(choice ? 1 : 0, forKey: key)
    }
  }

  /// Trap: a member set from a parameter that no defaults call uses.
  func setTitle(_ text: String) {
    title = text
  }
}

func confirmDelete() {
  let alert = Alert()
  alert.showSuppression(forKey: "kept.deleteWithoutAsking")
  alert.setTitle("kept.notAKey")
}
