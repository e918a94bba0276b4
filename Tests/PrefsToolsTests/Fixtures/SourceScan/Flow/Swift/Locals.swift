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

func zoom() -> Double {
  var level = UserDefaults.standard.object(forKey: "sw.zoom") as? Double
  if level == nil { level = 1.25 }  // sw.zoom: double, default 1.25
  return level ?? 1
}
