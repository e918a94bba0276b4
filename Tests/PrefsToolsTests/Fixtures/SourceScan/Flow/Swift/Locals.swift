// Fallbacks held in a local, and a guard.
import Foundation

func appearance() -> String {
  let stored = UserDefaults.standard.string(forKey: "sw.theme")
  let theme = stored ?? "Light"  // sw.theme: string, default "Light"
  return theme
}

func userName() -> String {
  guard let name = UserDefaults.standard.string(forKey: "sw.name") else {
    return "Anonymous"  // sw.name: string, default "Anonymous"
  }
  return name
}

func columns() -> Int {
  var count = UserDefaults.standard.integer(forKey: "sw.columns")
  if count == 0 { count = 3 }  // sw.columns: integer, default 3 (0 when absent)
  return count
}

func fontSize() -> Int {
  let size = UserDefaults.standard.integer(forKey: "sw.fontSize")
  return size > 0 ? size : 12  // sw.fontSize: integer, default 12
}

/// `??` after a number getter is the optional receiver's, not the key's: no default.
func optionalCount(_ store: UserDefaults?) -> Int {
  store?.integer(forKey: "sw.optionalCount") ?? 5  // sw.optionalCount: integer, none
}

func zoom() -> Double {
  var level = UserDefaults.standard.object(forKey: "sw.zoom") as? Double
  if level == nil { level = 1.25 }  // sw.zoom: double, default 1.25
  return level ?? 1
}
