import Foundation

extension UserDefaults {
  @objc dynamic var givenTabStyle: Int {
    get {
      guard let style: Int = self[#function] else { return 0 }
      return style
    }
    set { self[#function] = newValue }
  }
}

enum Tabs {
  static func style() -> Int { UserDefaults.givenShared.givenTabStyle }
}

// A suite made in an initializer written before its member's declaration; keys of an older
// format (a dictionary) read once and written in the current one (archived data).
final class ShortcutsPane {
  init() {
    let name = (Bundle.main.bundleIdentifier ?? "org.given") + ".shortcuts"
    self.store = UserDefaults(suiteName: name)
  }

  func migrate(_ transformer: ValueTransformer) {
    for id in ["given.shortcut.copy", "given.shortcut.paste"] {
      let old = store?.value(forKey: id) as? [String: Any]
      let data = transformer.reverseTransformedValue(old) as? NSData
      store?.set(data, forKey: id)
    }
  }

  private let store: UserDefaults?
}
