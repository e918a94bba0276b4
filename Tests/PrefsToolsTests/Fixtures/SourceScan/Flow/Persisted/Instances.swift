import Foundation

// One storage type made twice, with the app group's suite and with the standard domain: each
// call on an object goes to the user defaults that object was made with
// (persistedInstanceToken: string, standard domain; persistedInstanceFlag: bool, in
// group.persisted).
enum PersistedInstanceKey: String {
  case token = "persistedInstanceToken"
  case flag = "persistedInstanceFlag"
}

final class PersistedInstanceStorage {
  private let defaults: UserDefaults

  init(defaults: UserDefaults) {
    self.defaults = defaults
  }

  func string(for key: PersistedInstanceKey) -> String? {
    defaults.string(forKey: key.rawValue)
  }

  func save(_ value: Bool, for key: PersistedInstanceKey) {
    defaults.set(value, forKey: key.rawValue)
  }
}

final class PersistedInstanceMigration {
  private let shared = PersistedInstanceStorage(
    defaults: UserDefaults(suiteName: "group.persisted") ?? .standard)
  private let legacy = PersistedInstanceStorage(defaults: .standard)

  func migrate() -> String? {
    shared.save(true, for: .flag)
    return legacy.string(for: .token)
  }
}
