import Foundation
import SwiftUI

let defaults = UserDefaults.standard

final class Settings {
  static let shared = UserDefaults(suiteName: "group.com.example.swift")

  var showTips: Bool {
    get { defaults.bool(forKey: Keys.showTips) }
    set { defaults.set(newValue, forKey: Keys.showTips) }
  }

  func load() {
    let max = UserDefaults.standard.integer(forKey: Keys.maxItems)
    let accent = defaults.string(forKey: PrefKey.accentColor.rawValue) ?? "blue"
    let scale = defaults.object(forKey: PrefKey.fontScale.rawValue) as? Double ?? 1.0
    let legacy = defaults.object(forKey: legacyKey)
    let opened = defaults.object(forKey: PrefKey.lastOpened.rawValue) as? Date
    if defaults.object(forKey: "onboarded") == nil {
      defaults.set(false, forKey: "onboarded")
    }
    if let data = defaults.data(forKey: "session") {
      let session = try? JSONDecoder().decode(Session.self, from: data)
      print(session as Any)
    }
    let token = Settings.shared?.string(forKey: "groupToken")
    let dynamic = defaults.bool(forKey: "row\(max)Expanded")
    print(max, accent, scale, legacy as Any, opened as Any, token as Any, dynamic)
  }

  func save(_ recents: [String]) {
    defaults.set(recents, forKey: "recents")
    defaults.set(3.5, forKey: "speed")
    defaults.register(defaults: [Keys.maxItems: 20, "speed": 1.0])
  }

  /// A wrapper: the key is its parameter.
  func flag(_ key: PrefKey) -> Bool {
    defaults.bool(forKey: key.rawValue)
  }

  func check() -> Bool {
    flag(.autoPlay) && flag(PrefKey.autoPlay)
  }
}

struct SettingsView: View {
  @AppStorage("compactMode") var compactMode = false
  @AppStorage("refreshMinutes") var refreshMinutes: Int = 15
  @AppStorage(Keys.showTips) var tips = true

  var body: some View {
    // Not keys: a dictionary's, and a string that looks like one.
    let info = ["compactMode": 1]
    Text("showTips \(info.count)")
  }
}
