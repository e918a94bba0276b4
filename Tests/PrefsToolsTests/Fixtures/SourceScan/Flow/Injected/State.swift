import Foundation

// User defaults reached through a struct of closures injected for tests (`Current.defaults`),
// defaults a property's initializing closure or an `if let … { return }` gives, a case of an
// enum from another module that a string fallback names.

final class AppState: ObservableObject {
  @Published var installPath = "" {
    didSet { Current.defaults.set(installPath, forKey: "inj.installPath") }
  }
  @Published var unxip = false {
    didSet { Current.defaults.set(unxip, forKey: "inj.unxip") }
  }

  func setUpDefaults() {
    unxip = Current.defaults.bool(forKey: "inj.unxip") ?? false
    installPath = Current.defaults.string(forKey: "inj.installPath") ?? "/Applications"
    // A type of another module: its case `.aria2` and the fallback "aria2" agree.
    let downloader =
      Downloader(rawValue: Current.defaults.string(forKey: "inj.downloader") ?? "aria2") ?? .aria2
    _ = downloader
  }

  // Trap: a cache's own `set(_:forKey:)` is no user defaults.
  func remember() { Current.cache.set(1, forKey: "inj.cached") }
}

enum Scheme: String { case system, light, dark }
enum Interval: String, Codable { case due, today, week }

final class Preferences: ObservableObject {
  private static let defaults = UserDefaults.standard

  // The closure that makes the property's first value: its guard's fallback.
  @Published var scheme: Scheme = {
    guard let s = defaults.string(forKey: "inj.scheme") else { return .system }
    return Scheme(rawValue: s) ?? .system
  }()
  {
    didSet { Preferences.defaults.set(scheme.rawValue, forKey: "inj.scheme") }
  }

  // JSON data the closure decodes and the observer encodes.
  @Published var interval: Interval = {
    guard let data = defaults.data(forKey: "inj.interval"),
      let interval = try? JSONDecoder().decode(Interval.self, from: data)
    else { return .today }
    return interval
  }()
  {
    didSet {
      let data = try? JSONEncoder().encode(interval)
      Preferences.defaults.set(data, forKey: "inj.interval")
    }
  }

  // A number's getter's 0 taken as absent.
  @Published var maxLength: Int = {
    let value = defaults.integer(forKey: "inj.maxLength")
    return value > 0 ? value : 10
  }()
  {
    didSet { Preferences.defaults.set(maxLength, forKey: "inj.maxLength") }
  }

  // `if let` of the typed object, then what the function returns when absent.
  static var alwaysOnTop: Bool {
    if let result = UserDefaults.standard.object(forKey: "inj.alwaysOnTop") as? Bool {
      return result
    }
    return false
  }
  static var previewWidth: String {
    if let result = UserDefaults.standard.object(forKey: "inj.previewWidth") as? String {
      return result
    }
    return "1000px"
  }
  // Trap: the body does not return: no default.
  static func lastCount() -> Int {
    var count = 3
    if let stored = UserDefaults.standard.object(forKey: "inj.count") as? Int {
      count = stored * 2
    }
    return count + 1
  }
}
