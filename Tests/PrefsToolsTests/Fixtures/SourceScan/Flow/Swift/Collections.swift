// Keys in collections: an enum's raw values collected and iterated, a literal array looped over.
import Foundation

enum Key: String, CaseIterable {
  case theme  // theme: string (as? String), default "" (?? "")
  case fontName = "font.name"  // font.name: the same
  case showGrid  // showGrid: the same
}

func dump() -> [String] {
  Key.allCases.map { UserDefaults.standard.object(forKey: $0.rawValue) as? String ?? "" }
}

func resetToggles() {
  let toggles = ["toggle.sound", "toggle.haptics"]  // bool
  toggles.forEach { UserDefaults.standard.set(false, forKey: $0) }
  for flag in ["flag.a", "flag.b"] {  // integer
    UserDefaults.standard.set(1, forKey: flag)
  }
}

struct Catalog {
  /// A computed list of keys, iterated elsewhere: list.one, list.two (double).
  static var keys: [String] { ["list.one", "list.two"] }

  func read() {
    for key in Self.keys {
      _ = UserDefaults.standard.double(forKey: key)
    }
  }
}
