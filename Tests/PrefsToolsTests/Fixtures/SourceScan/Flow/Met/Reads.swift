import Foundation

// A getter with a fallback that a package's extension adds to UserDefaults (not in the tree).
func provisional() -> Bool {
  UserDefaults.standard.bool(forKey: "metProvisional", fallback: true)
}

// Trap: the same call on an object that is not user defaults.
struct Cache { func bool(forKey: String, fallback: Bool) -> Bool { fallback } }
func cached(_ cache: Cache) -> Bool { cache.bool(forKey: "metCached", fallback: true) }

// A stored property's initial value can name no member of the instance: the key a global
// constant makes is a constant too.
let lastVersionAsked = "024"
final class Rating {
  let countKey = "metRating" + lastVersionAsked
  func bump() {
    let d = UserDefaults.standard
    d.set(d.integer(forKey: countKey) + 1, forKey: countKey)
  }
}

// An array getter's answer cast to strings, and an empty array made as `[String]()`.
func names() -> [String] {
  if let v = UserDefaults.standard.array(forKey: "metNames") {
    return v as? [String] ?? []
  }
  let help = UserDefaults.standard.object(forKey: "metHelp") as? [String] ?? [String]()
  return help
}
