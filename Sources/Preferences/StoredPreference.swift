/// A property backed by a typed key, for plain classes and structs:
///
/// ```swift
/// extension Keys { static let soundEnabled = Key<Bool>("sound.enabled", default: true) }
///
/// final class SoundSettings {
///   @StoredPreference var soundEnabled: Bool
///   init(store: PreferencesStore) {
///     _soundEnabled = StoredPreference(Keys.soundEnabled, in: store)
///   }
/// }
/// ```
///
/// Its reads are not observed. In an `@Observable` class, use ``Setting`` (with
/// `@ObservationIgnored`), whose reads `withObservationTracking` and SwiftUI track.
@propertyWrapper
public struct StoredPreference<Value: PreferenceValue>: Sendable {
  public let key: Key<Value>
  public let store: PreferencesStore

  public init(_ key: Key<Value>, in store: PreferencesStore) {
    self.key = key
    self.store = store
  }

  public var wrappedValue: Value {
    get { store[key] }
    nonmutating set { store[key] = newValue }
  }

  /// `$name`: the key's values as they change.
  public var projectedValue: AsyncStream<Value> { store.changes(for: key) }
}
