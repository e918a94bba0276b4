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

/// A test in parentheses, joined by `||` to another: true when the key is absent (its 0), so
/// the first branch is the fallback; one joined by `&&` depends on the other test: none.
func window() -> (Double, Double, Double) {
  let h = UserDefaults.standard.double(forKey: "sw.height")
  let height = (h <= 0 || h > 1) ? 0.9 : Double(h)  // sw.height: double, default 0.9
  let o = UserDefaults.standard.double(forKey: "sw.offset")
  let offset = (o <= 0) ? 30.0 : Double(o)  // sw.offset: double, default 30
  let g = UserDefaults.standard.double(forKey: "sw.gap")
  let gap = (g <= 0 && Bool.random()) ? 5.0 : g  // sw.gap: double, none
  return (height, offset, gap)
}
