import Foundation

// What a thirty-fifth set of never-seen apps showed (Swift).

// A subclass of UserDefaults made for a suite by its `convenience init()`, registering its
// defaults in its initializer with `register(defaults:)` on itself: in org.example.subclassed,
// SubclassedMode (integer, 3), SubclassedLayout (string, "qwerty").
enum SubclassedName {
  static let mode = "SubclassedMode"
  static let layout = "SubclassedLayout"
}

public final class SubclassedConfiguration: UserDefaults {
  public static let suiteName = "org.example.subclassed"
  public static let shared = SubclassedConfiguration()

  override init?(suiteName: String?) {
    super.init(suiteName: suiteName)
    register(defaults: [
      SubclassedName.mode: 3,
      SubclassedName.layout: "qwerty",
    ])
  }

  convenience init?() {
    self.init(suiteName: SubclassedConfiguration.suiteName)
  }

  public var mode: Int {
    get { integer(forKey: SubclassedName.mode) }
    set { set(newValue, forKey: SubclassedName.mode) }
  }

  public var layout: String? {
    string(forKey: SubclassedName.layout)
  }
}

func subclassedUse() -> Int {
  SubclassedConfiguration.shared?.mode += 1
  return SubclassedConfiguration.shared?.layout?.count ?? 0
}

// An enum's static computed property naming one of its cases, read for its raw value:
// SubclassedTheme (integer, 1), in the standard domain.
enum SubclassedTheme: Int {
  case system
  case light
  case dark

  static var defaultValue: Self { .light }
}

enum SubclassedSettings {
  static var theme: Int {
    UserDefaults.standard.object(forKey: "SubclassedTheme") as? Int
      ?? SubclassedTheme.defaultValue.rawValue
  }
}
