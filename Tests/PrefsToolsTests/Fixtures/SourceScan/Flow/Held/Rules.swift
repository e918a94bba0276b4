import Foundation

// Codable values kept as a property list's bytes (PropertyListEncoder): data, not JSON.
struct HDRule: Codable, Hashable {
  var domain: String
}

final class HDRuleManager {
  var rules = Set<HDRule>() {
    didSet {
      UserDefaults.standard.set(try? PropertyListEncoder().encode(rules), forKey: "hd.rules")
    }
  }

  func load() {
    // Empty data registered: a constant default.
    UserDefaults.standard.register(defaults: ["hd.rules": NSData()])
    if let data = UserDefaults.standard.value(forKey: "hd.rules") as? Data {
      rules = (try? PropertyListDecoder().decode(Set<HDRule>.self, from: data)) ?? []
    }
    // Kept as JSON: still JSON.
    if let data = UserDefaults.standard.data(forKey: "hd.recent") {
      _ = try? JSONDecoder().decode([HDRule].self, from: data)
    }
  }
}
