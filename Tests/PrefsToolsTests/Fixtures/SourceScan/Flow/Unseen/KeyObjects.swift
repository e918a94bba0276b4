import SwiftUI

// Keys held by constant objects: a generic struct made with the key and its default, read
// through an extension of AppStorage and overloads of a UserDefaults method.
struct PreferenceKey<Value: Sendable>: Sendable {
  let name: String
  let defaultValue: Value

  init(_ name: String, default defaultValue: Value) {
    self.name = name
    self.defaultValue = defaultValue
  }
}

enum Palette: String { case warm, cool }

enum Preferences {
  static let showBadges = PreferenceKey("un.ko.showBadges", default: true)
  static let downloads = PreferenceKey("un.ko.downloads", default: "/Downloads")
  static let palette = PreferenceKey("un.ko.palette", default: Palette.cool)
  static let lastRefresh = PreferenceKey("un.ko.lastRefresh", default: 0.0)
  static let retries = PreferenceKey("un.ko.retries", default: 3)
}

// Trap: a constant of the member's last name, which no object holds.
enum Titles { static let title = "un.ko.notAKey" }

extension AppStorage {
  init(_ key: PreferenceKey<Value>) where Value == Bool {
    self.init(wrappedValue: key.defaultValue, key.name)
  }

  init(_ key: PreferenceKey<Value>) where Value == String {
    self.init(wrappedValue: key.defaultValue, key.name)
  }

  init(_ key: PreferenceKey<Value>) where Value: RawRepresentable, Value.RawValue == String {
    self.init(wrappedValue: key.defaultValue, key.name)
  }
}

extension UserDefaults {
  func value(for key: PreferenceKey<Bool>) -> Bool {
    object(forKey: key.name) as? Bool ?? key.defaultValue
  }

  func value(for key: PreferenceKey<Int>) -> Int {
    object(forKey: key.name) as? Int ?? key.defaultValue
  }

  func value(for key: PreferenceKey<Double>) -> Double {
    object(forKey: key.name) as? Double ?? key.defaultValue
  }

  func setValue<Value>(_ value: Value, for key: PreferenceKey<Value>) {
    set(value, forKey: key.name)
  }
}

struct Item { var title: String }

struct BadgesView: View {
  @AppStorage(Preferences.showBadges) var showBadges
  @AppStorage(Preferences.downloads) var downloads
  @AppStorage(Preferences.palette) var palette
  var body: some View { Text("badges") }
}

enum Refresher {
  static func due() -> Bool {
    let d = UserDefaults.standard
    let last = d.value(for: Preferences.lastRefresh)
    d.setValue(Date().timeIntervalSince1970, for: Preferences.lastRefresh)
    return last > 0 && d.value(for: Preferences.retries) > 0 && d.value(for: Preferences.showBadges)
  }

  // Trap: a member of a value only the run knows.
  static func label(for item: Item) -> String? {
    UserDefaults.standard.string(forKey: item.title)
  }

  static func current() -> String? { label(for: Item(title: "x")) }
}
