import KeyboardShortcuts
import ObservableUserDefault
import SwiftUI

// What a thirty-fourth set of never-seen apps showed (Swift).

// A package named for settings whose attribute takes one configuration, `.init(key:
// defaultValue: store:)`: observedTranslate (bool, false), observedDelay (integer, 400),
// observedLanguage (string, no default), observedUnused (bool, true: an instance's property,
// the object's state, though no code names it). Trap: observedStatic, a static property no
// code names.
@Observable
final class ObservedStorage {
  @ObservableUserDefault(.init(key: "observedStatic", defaultValue: 1, store: .standard))
  @ObservationIgnored static var neverNamedStatic: Int
  @ObservableUserDefault(.init(key: "observedTranslate", defaultValue: false, store: .standard))
  @ObservationIgnored var translate: Bool
  @ObservableUserDefault(.init(key: "observedDelay", defaultValue: 400, store: .standard))
  @ObservationIgnored var delay: Int
  @ObservableUserDefault(.init(key: "observedLanguage", store: .standard))
  @ObservationIgnored var language: String?
  @ObservableUserDefault(.init(key: "observedUnused", defaultValue: true, store: .standard))
  @ObservationIgnored var neverNamed: Bool
}

func observedUse(_ storage: ObservedStorage) -> Bool {
  storage.delay += 1
  storage.language = nil
  return storage.translate
}

// KeyboardShortcuts names made where the library is called: KeyboardShortcuts_observedKaraoke,
// KeyboardShortcuts_observedLyrics (json, no default).
@MainActor func observedShortcuts() {
  KeyboardShortcuts.onKeyUp(for: .init("observedKaraoke")) {}
  _ = KeyboardShortcuts.Recorder("Lyrics:", name: .init("observedLyrics"))
}

// A Codable value kept by `@AppStorage` through a generic struct the tree makes
// RawRepresentable as JSON text: observedAction (json); observedKodi (string, ""), a view's
// `@AppStorage` property no code names (its state all the same).
struct ObservedWrapper<Value: Codable> {
  var value: Value
}

extension ObservedWrapper: RawRepresentable {
  var rawValue: String {
    guard let data = try? JSONEncoder().encode(value) else { return "" }
    return String(decoding: data, as: UTF8.self)
  }

  init?(rawValue: String) {
    guard let decoded = try? JSONDecoder().decode(Value.self, from: Data(rawValue.utf8)) else {
      return nil
    }
    value = decoded
  }
}

struct ObservedSettingsView: View {
  @AppStorage("observedAction") var action: ObservedWrapper<[String]> = .init(value: [])
  @AppStorage("observedKodi") var kodiAddress = ""

  var body: some View {
    Text(action.value.joined())
  }
}
