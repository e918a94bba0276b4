import ComposableArchitecture
import Foundation

// swift-sharing (Point-Free's `Sharing`): keys declared once for the app in extensions of
// `SharedKey` whose `Self` is an `AppStorageKey<T>`: the key holds T.

enum Names: String {
  case tutorialShown = "tutorial-v1"
  case quality
  case prompt
  case group
  // Each case's key: "shared-" and its raw value.
  var id: String { "shared-\(rawValue)" }
  // Trap: another property of the instance in the key: only known at run time.
  var scoped: String { "\(prefix)-\(rawValue)" }
  var prefix: String { "p" }
}

extension SharedKey where Self == AppStorageKey<Bool> {
  static var tutorialShown: Self {
    appStorage(Names.tutorialShown.id, store: .standard)
  }
}

extension SharedKey where Self == AppStorageKey<Bool>.Default {
  // The subscript's `default:` is the value when the key is absent.
  static var tutorialShown: Self {
    Self[.appStorage(Names.tutorialShown.id, store: .standard), default: false]
  }
  static var soundOn: Self {
    Self[.appStorage("shared.soundOn"), default: true]
  }
}

extension SharedKey where Self == AppStorageKey<Float>.Default {
  static var quality: Self {
    Self[.appStorage(Names.quality.id), default: 0.7]
  }
}

extension SharedKey where Self == AppStorageKey<String?>.Default {
  // `default: nil` of an optional: no default.
  static var prompt: Self {
    Self[.appStorage(Names.prompt.id), default: nil]
  }
}

extension SharedKey where Self == AppStorageKey<Int>.Default {
  // An app group's suite.
  static var groupCount: Self {
    Self[
      .appStorage(Names.group.id, store: UserDefaults(suiteName: "group.org.example.shared")),
      default: 3
    ]
  }
}

// Traps: other stores of swift-sharing are not user defaults.
extension SharedKey where Self == FileStorageKey<[String]>.Default {
  static var recent: Self {
    Self[.fileStorage(.documentsDirectory.appending(component: "recent.json")), default: []]
  }
}

extension SharedKey where Self == InMemoryKey<Int>.Default {
  static var badge: Self { Self[.inMemory("shared.badge"), default: 0] }
}
