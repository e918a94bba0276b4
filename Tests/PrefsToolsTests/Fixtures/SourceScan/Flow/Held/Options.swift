import Foundation

// Overloads of one name calling each other with their own parameter `key`.
extension UserDefaults {
  enum HDKey: String {
    case wideEditor = "hd.wideEditor"
  }

  func bool(forKey key: HDKey) -> Bool {
    return bool(forKey: key.rawValue)
  }

  func bool(forKey key: HDKey, defaultValue: Bool) -> Bool {
    guard object(forKey: key.rawValue) != nil else { return defaultValue }
    return bool(forKey: key)
  }
}

func hdEditorIsWide() -> Bool {
  UserDefaults.standard.bool(forKey: .wideEditor, defaultValue: true)
}

// Trap: a constant of another type named like the overloads' parameter (`key`) is no key of
// theirs: only its own property's.
enum HDCrashCache {
  static var cached: Data? {
    get { UserDefaults.standard.data(forKey: key) }
    set { UserDefaults.standard.set(newValue, forKey: key) }
  }

  private static let key = "hd.crashCache"
}
