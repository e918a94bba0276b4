import Foundation
import Macros
import SwiftUI

// Settings stored by a package's macro (not in the tree): each property's name is its key
// unless `key:` says another; the store is the type's member of user defaults, given by the
// initializer; the app group's name is read from Info.plist at run time.
protocol UserDefaultsProtocol: AnyObject {
  func object(forKey key: String) -> Any?
  func set(_ value: Any?, forKey key: String)
}

final class TrackedUserDefaults: UserDefaults {}

struct InfoPlistReader {
  static let main = InfoPlistReader()

  private enum Keys {
    static let appGroupIdentifier = "appGroupIdentifier"
  }

  func value(forKey key: String) -> String {
    Bundle.main.object(forInfoDictionaryKey: key) as? String ?? ""
  }

  var appGroupIdentifier: String {
    value(forKey: Keys.appGroupIdentifier)
  }
}

final class GivenSettings {
  static let suiteName: String = InfoPlistReader.main.appGroupIdentifier

  private let store: UserDefaultsProtocol

  init(store: UserDefaultsProtocol) {
    self.store = store
  }

  @UserPreference
  var givenLastVersion: String?

  @UserPreference(defaultValue: true)
  var givenSoundBanner: Bool

  @UserPreference(defaultValue: 0)
  var givenAttempts: Int

  @UserPreference(key: "givenLegacyTimeouts", defaultValue: [String: Double]())
  var timeouts: [String: Double]

  @UserPreference(defaultValue: Set<String>())
  var givenSeen: Set<String>
}

enum Coordinator {
  static func start() {
    guard let defaults = TrackedUserDefaults(suiteName: GivenSettings.suiteName) else { return }
    let settings = configure(GivenSettings(store: defaults))
    _ = settings
  }

  static func configure(_ settings: GivenSettings) -> GivenSettings { settings }
}

// Keys of nested enums of the same last name: each its own.
final class SessionStore {
  private enum Keys {
    enum V1 { static let session = "given.session.1" }
    enum V2 { static let session = "given.session.2" }
  }

  func load() -> Data? {
    UserDefaults.standard.data(forKey: Keys.V1.session)
      ?? UserDefaults.standard.data(forKey: Keys.V2.session)
  }
}

// `@AppStorage` declared without its key, given it by the initializer with a store.
struct GivenPane: View {
  @AppStorage var givenCollapse: Bool
  @AppStorage var givenWidth: Int

  init(defaults: UserDefaults) {
    self._givenCollapse = .init(wrappedValue: false, "givenCollapse", store: defaults)
    // Trap: a value read from the store is no fallback of its own.
    self._givenWidth = .init(wrappedValue: defaults.integer(forKey: "givenWidth"), "givenWidth")
  }

  var body: some View { Text("pane") }
}

// Trap: `@Preference` of a property wrapper the tree declares is that wrapper's (its own calls
// say where it stores the key), not a package's macro.
@propertyWrapper
struct Preference<T> {
  let key: String
  let defaultValue: T

  init(key: String, defaultValue: T) {
    self.key = key
    self.defaultValue = defaultValue
  }

  var wrappedValue: T {
    get {
      UserDefaults(suiteName: "group.given.wrapper")?.object(forKey: key) as? T ?? defaultValue
    }
    set { UserDefaults(suiteName: "group.given.wrapper")?.set(newValue, forKey: key) }
  }
}

enum Flags {
  @Preference(key: "givenWrapped", defaultValue: false)
  static var wrapped: Bool
}
