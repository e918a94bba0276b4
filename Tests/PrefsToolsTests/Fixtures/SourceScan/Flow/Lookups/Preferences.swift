import Foundation

// What a thirty-first set of never-seen apps showed (Swift).

// A tool reading managed settings: every key through one function, its suite made with
// `UserDefaults.init(suiteName:)`, the fallback an entry of a dictionary the tree declares.
var lookupsDomain = "org.example.lookups"
var lookupsFallbacks: [String: Any] = [
  "LookupsAccount": "admin",
  "LookupsLength": 12,
  "LookupsRemove": true,
]

func lookupsPreference(key: String) -> Any? {
  let plist = UserDefaults.init(suiteName: lookupsDomain)
  var value = plist?.value(forKey: key)
  if value == nil {
    value = lookupsFallbacks[key]
    return value
  }
  return value
}

// In org.example.lookups: LookupsAccount (string, "admin"), LookupsLength (integer, 12),
// LookupsRemove (bool, true), LookupsMethod (string, no entry: no default).
enum LookupsConstants {
  static let account = lookupsPreference(key: "LookupsAccount") as? String
  static let length = lookupsPreference(key: "LookupsLength") as? Int
  static let remove = lookupsPreference(key: "LookupsRemove") as? Bool
  static let method = lookupsPreference(key: "LookupsMethod") as? String
}

// An app group's user defaults given to a private initializer by a static property: the
// member holds them. In group.lookups: lookupsReload (string-array).
extension UserDefaults {
  static var lookupsShared: UserDefaults? { UserDefaults(suiteName: "group.lookups") }
}

final class LookupsCommunicator {
  static let shared = LookupsCommunicator(userDefaults: UserDefaults.lookupsShared)

  private var userDefaults: UserDefaults?

  private init(userDefaults: UserDefaults?) {
    self.userDefaults = userDefaults
  }

  var reload: [String]? {
    get { userDefaults?.stringArray(forKey: "lookupsReload") }
    set { userDefaults?.set(newValue, forKey: "lookupsReload") }
  }
}

// A key chosen by a ternary of two literals, and one interpolated: lookups.dark, lookups.light
// (data), lookupsTheme.dark, lookupsTheme.light (integer).
func lookupsSave(dark: Bool, data: Data, id: Int) {
  UserDefaults.standard.set(data, forKey: dark ? "lookups.dark" : "lookups.light")
  UserDefaults.standard.set(id, forKey: "lookupsTheme\(dark ? ".dark" : ".light")")
}

// A number read through NSNumber: lookupsCalls (bool, false), lookupsSorting (integer, 3),
// lookupsSync (bool, no default).
func lookupsFlags() -> Bool {
  let calls =
    (UserDefaults.standard.object(forKey: "lookupsCalls") as? NSNumber)?.boolValue ?? false
  let sorting = (UserDefaults.standard.object(forKey: "lookupsSorting") as? NSNumber)?.intValue ?? 3
  if (UserDefaults.standard.object(forKey: "lookupsSync") as? NSNumber)?.boolValue == true {
    return calls
  }
  return sorting > 0
}
