import Foundation

// A protocol UserDefaults is made to conform to, and a class that adopts it too, forwarding to
// what it is given: used as user defaults wherever the code uses it.
protocol LocalStorage: NSObject {
  func register(defaults: [String: Any])
  func bool(forKey: String) -> Bool
  func set(_ value: Any?, forKey: String)
}

extension UserDefaults: LocalStorage {}

class LocalStorageProvider: NSObject, LocalStorage {
  fileprivate let storage: LocalStorage

  init(storage: LocalStorage) {
    self.storage = storage
  }

  func register(defaults: [String: Any]) {
    storage.register(defaults: defaults)
  }

  func bool(forKey name: String) -> Bool {
    storage.bool(forKey: name)
  }

  func set(_ value: Any?, forKey name: String) {
    storage.set(value, forKey: name)
  }
}

enum UnseenPrefs {
  static let showMap = "un.show_map"
}

func registerUnseenPrefs(in localStorage: LocalStorageProvider) {
  localStorage.register(defaults: [UnseenPrefs.showMap: true])
}

extension LocalStorageProvider {
  @objc dynamic var showMap: Bool {
    get { bool(forKey: UnseenPrefs.showMap) }
    set { set(newValue, forKey: UnseenPrefs.showMap) }
  }
}

// Trap: another type's `storage`, a dictionary, is no user defaults.
final class InMemoryCache {
  private var storage: [String: Any] = [:]
  func remember() { storage["un.cached"] = true }
}
