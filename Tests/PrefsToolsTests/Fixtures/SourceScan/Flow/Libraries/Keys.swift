// swift-format-ignore-file
// The libraries apps use for defaults, as the app's code names their keys.
import Defaults
import KeyboardShortcuts
import SwiftUI
import SwiftyUserDefaults

enum Layout: String, Defaults.Serializable {  // stored by its raw value: enum
  case grid, list
}

enum Density: Int, Defaults.Serializable {  // an Int raw value: integer
  case compact = 1, comfortable = 2
}

enum Unit: String, Codable, Defaults.Serializable {  // Codable and raw: JSON text
  case metric, imperial
}

struct Bookmark: Codable, Defaults.Serializable {
  var title: String
}

extension UserDefaults {
  static let group = UserDefaults(suiteName: "group.flow.shared")!
}

// sindresorhus/Defaults.
extension Defaults.Keys {
  static let launchAtLogin = Key<Bool>("launchAtLogin", default: false)  // bool, false
  static let refreshRate = Key<Double>("refreshRate", default: 1.5)  // double, 1.5
  static let lastOpened = Key<Date?>("lastOpened")  // date, none
  static let layout = Key<Layout>("layout", default: .grid)  // enum, "grid"
  static let density = Key<Density>("density", default: .comfortable)  // integer, 2
  static let unit = Key<Unit>("unit", default: .metric)  // json, "metric"
  static let bookmarks = Key<[Bookmark]>("bookmarks", default: [])  // json (each item JSON text), []
  static let tags = Key<[String]>("tags", default: ["inbox"])  // string-array, ["inbox"]
  static let sharedCount = Key<Int>("sharedCount", default: 0, suite: .group)  // the suite's
  // Declared, never used (Defaults registers a key only when its property is first used): not
  // in the plan, listed apart.
  static let neverUsed = Key<Bool>("neverUsed", default: true)
}

// SwiftyUserDefaults.
extension DefaultsKeys {
  var username: DefaultsKey<String?> { .init("username") }  // string, none
  var launchCount: DefaultsKey<Int> { .init("launchCount", defaultValue: 0) }  // integer, 0
}

// KeyboardShortcuts: stored as KeyboardShortcuts_<name>, a JSON string.
extension KeyboardShortcuts.Name {
  static let togglePanel = Self("togglePanel")
  // Its initial shortcut, written when the key is absent: Carbon's kVK_ANSI_K (0x28) with
  // cmdKey | optionKey (0x100 | 0x800).
  static let showSearch = Self("showSearch", default: .init(.k, modifiers: [.command, .option]))
  // kVK_F2 (0x78), controlKey | shiftKey (0x1000 | 0x200), the older API's label.
  static let capture = Self("capture", initial: Shortcut(.f2, modifiers: [.control, .shift]))
  // Traps: a key the table does not name; modifiers only the run knows.
  static let custom = Self("custom", default: .init(.customKey, modifiers: [.command]))
  static let chosen = Self("chosen", default: .init(.a, modifiers: chosenModifiers))
}

// The app makes arrays RawRepresentable (their JSON text): @AppStorage stores one as a string.
extension Array: RawRepresentable where Element: Codable {
  public init?(rawValue: String) { nil }
  public var rawValue: String { "[]" }
}

// The app's uses of its keys: each key above is named again, but the one never used.
func applyPreferences() {
  _ = Defaults[.launchAtLogin]
  _ = Defaults[.refreshRate] * 2
  _ = Defaults[.lastOpened]
  _ = Defaults[.layout]
  _ = Defaults[.density]
  Defaults[.unit] = .metric
  _ = Defaults[.bookmarks].count
  Defaults[.tags].append("work")
  _ = Defaults[.sharedCount]
  _ = Defaults[\.username]
  KeyboardShortcuts.onKeyUp(for: .togglePanel) {}
  KeyboardShortcuts.onKeyUp(for: .showSearch) {}
  KeyboardShortcuts.onKeyUp(for: .capture) {}
  KeyboardShortcuts.onKeyUp(for: .custom) {}
  KeyboardShortcuts.onKeyUp(for: .chosen) {}
  Defaults[\.launchCount] += 1
}

struct SettingsView: View {
  @AppStorage("recentQueries") var recentQueries: [String] = []  // json, []
  @AppStorage("groupFlag", store: .group) var groupFlag = false  // the suite's, bool
  @AppStorage("standardFlag", store: .standard) var standardFlag = true  // bool, true
  @AppStorage("appLayout") var appLayout: Layout = .list  // enum, "list"
  @SceneStorage("selectedTab") var selectedTab = 0  // scene state, not user defaults
  var body: some View { Text("") }
}
