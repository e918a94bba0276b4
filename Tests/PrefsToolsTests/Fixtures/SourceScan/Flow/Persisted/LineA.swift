import Foundation

// Two files calling one wrapper on the same line, each with its own fallback: each its own
// (persistedLineA: integer, 3; persistedLineB: integer, 4).
enum PersistedLineStore {
  static func get(_ key: String) -> Int? { UserDefaults.standard.object(forKey: key) as? Int }
}

let persistedLineA = PersistedLineStore.get("persistedLineA") ?? 3
