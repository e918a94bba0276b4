// swift-format-ignore-file
import Defaults
import Foundation

// Values written at launch by a helper whose guard returns when the key is already there.
final class SettingsRepository {
  private let userDefaults: UserDefaults = .standard

  init() {
    setDefaultIfNeeded(true, forKey: "ShowThumbnails")
    setDefaultIfNeeded(2, forKey: "TextSize")
  }

  private func setDefaultIfNeeded(_ value: Any, forKey key: String) {
    guard userDefaults.object(forKey: key) == nil else { return }
    userDefaults.set(value, forKey: key)
  }

  // Trap: the code after the guard writes no key: no default.
  func migrate() {
    guard userDefaults.object(forKey: "Migrated") == nil else { return }
    let marker = 5
    print(marker)
  }

  func read() -> (Bool, Int, String?) {
    let thumbnails = userDefaults.bool(forKey: "ShowThumbnails")
    let size = userDefaults.integer(forKey: "TextSize")
    let migrated = userDefaults.string(forKey: "Migrated")
    return (thumbnails, size, migrated)
  }
}

// sindresorhus/Defaults' key of an object it archives (NSKeyedArchiver data).
extension Defaults.Keys {
  static let colorSpace = NSSecureCodingKey<NSColorSpace>("colorSpace", default: .sRGB)
}

func space() -> NSColorSpace { Defaults[.colorSpace] }

// Constants of one name in two types: each type reads its own.
final class PreferenceStore {
  private let storageKey = "preference"
  func load() -> Data? { UserDefaults.standard.data(forKey: storageKey) }
}

final class LayoutStore {
  private let storageKey = "layout"
  func load() -> Data? { UserDefaults.standard.data(forKey: storageKey) }
}
