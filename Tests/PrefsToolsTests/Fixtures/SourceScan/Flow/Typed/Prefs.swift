import Foundation

// Objects keeping their key, made through their generic type: each key stored as that type.
class Pref<T> {
  let key: String

  init(key: String, ubiquitous: Bool = false) {
    self.key = key
  }

  var value: T? {
    get { UserDefaults.standard.value(forKey: key) as? T }
    set { UserDefaults.standard.set(newValue, forKey: key) }
  }
}

final class TypedPrefs {
  static let shared = TypedPrefs()

  let userName = Pref<String>(key: "typedUserName")
  let uploads = Pref<Int>(key: "typedUploads", ubiquitous: true)
  let history = Pref<[String]>(key: "typedHistory")
}

// An app group's user defaults a computed static property makes in statements.
extension UserDefaults {
  static var typedGroup: UserDefaults {
    guard let defaults = UserDefaults(suiteName: "group.typed") else {
      fatalError("no app group")
    }
    return defaults
  }

  // `standard` in a static function of the extension, over a local array's keys.
  static func enableCheckersOnce() {
    let flag = "typedCheckersEnabled"
    guard !standard.bool(forKey: flag) else { return }
    let keys = ["TypedSpellChecking", "TypedGrammarChecking"]
    for key in keys {
      standard.set(true, forKey: key)
    }
    standard.set(true, forKey: flag)
  }
}

enum GroupStore {
  static func save(_ token: String) {
    UserDefaults.typedGroup.set(token, forKey: "typedToken")
  }

  // Trap: a member of UserDefaults the tree does not declare is no known domain.
  static func legacy() -> Bool {
    UserDefaults.typedElsewhere.bool(forKey: "typedElsewhereFlag")
  }
}

// Trap: a type's method named as a collection's is not called by a collection's `contains`.
final class KeyValueManager {
  private let defaults = UserDefaults.standard

  func contains(_ key: String) -> Bool {
    defaults.object(forKey: key) != nil
  }

  func isOnboarded() -> Bool { contains("typedOnboarded") }
}

enum Names {
  static func unique(_ names: [String], _ name: String) -> Bool {
    names.contains(name) || names.contains("typedNotAKey")
  }
}
