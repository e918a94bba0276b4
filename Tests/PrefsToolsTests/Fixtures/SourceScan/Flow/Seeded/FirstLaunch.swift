// swift-format-ignore-file
import Foundation

// At its first launch (a marker key absent) the app writes every option as it starts:
// those values are what the running app sees when the user never set a key.
final class GeneralDefaults {
  var hideIcon = false {
    didSet { print(hideIcon) }
  }
  var volume = 7
}

enum Group: CaseIterable { case general, sound }

final class Settings {
  var general = GeneralDefaults() {
    didSet { print("changed") }
  }
  var given: GeneralDefaults

  init(given: GeneralDefaults) { self.given = given }

  func read() {
    if UserDefaults.standard.object(forKey: "settingsExist") == nil { saveAll() }
    general.hideIcon = UserDefaults.standard.bool(forKey: "hideIcon")
    general.volume = UserDefaults.standard.integer(forKey: "volume")
    given.volume = UserDefaults.standard.integer(forKey: "givenVolume")
    _ = UserDefaults.standard.integer(forKey: "laterVolume")
    _ = UserDefaults.standard.bool(forKey: "migrated")
  }

  func saveAll() {
    UserDefaults.standard.set("settingsExist", forKey: "settingsExist")
    for group in Group.allCases { save(group: group) }
  }

  private func save(group: Group) {
    switch group {
    case .general: UserDefaults.standard.set(general.hideIcon, forKey: "hideIcon")
    case .sound:
      UserDefaults.standard.set(general.volume, forKey: "volume")
      // Trap: a property given by the initializer has no declared value.
      UserDefaults.standard.set(given.volume, forKey: "givenVolume")
    }
  }

  // Trap: written later, not at the first launch.
  func saveLater() {
    UserDefaults.standard.set(general.volume, forKey: "laterVolume")
  }

  // Trap: run when the marker is present, not absent.
  func upgrade() {
    if UserDefaults.standard.object(forKey: "settingsExist") != nil { markMigrated() }
  }

  func markMigrated() {
    UserDefaults.standard.set(true, forKey: "migrated")
  }
}
