import LegacyDefaults
import Observation
import PropertyList

/// The current value of one key of a store, observable: a read of ``value`` inside
/// `withObservationTracking` or a SwiftUI view's body is tracked, and the cell changes when
/// the store's value does, however it changed (through this store or a model over it, through
/// another store of the same domain, or by another process: the store follows its domain
/// without a synchronize).
///
/// A store keeps one cell per key name and value type (``PreferencesStore/cell(for:)``): every
/// model and view over the store shares it, and the value is decoded once per change, never
/// per read. A stored value that does not decode reads as the key's default and is reported
/// (``PreferencesStore/issues``), as the store's subscript does. Write through the store
/// (`store[key] = value`, or a ``Setting`` property): the cell follows.
///
/// The cell changes on the thread that reports the change (the writer's for a change made in
/// this process; the file watcher's thread for another process's); observation's handlers and
/// SwiftUI are told there.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
public final class PreferenceCell<Value: PreferenceValue>: Observable, @unchecked Sendable {
  /// The key this cell follows (the first one asked for with this name and type).
  public let key: Key<Value>
  private weak let store: PreferencesStore?
  private let registrar = ObservationRegistrar()
  private let lock = ThreadLock()
  private var current: Value  // guarded by `lock`
  /// What `current` was decoded from (nil: absent), and a count of the changes made to it.
  private var stored: PlistValue?  // guarded by `lock`
  private var generation: UInt64 = 0  // guarded by `lock`
  private let observation = Locked<DefaultsStore.Observation?>(nil)

  init(key: Key<Value>, store: PreferencesStore) {
    self.key = key
    self.store = store
    let stored = store.defaults.object(forKey: key.name)
    self.stored = stored
    self.current = store.decoded(stored, for: key)
  }

  /// Starts following the store (once the cell is the store's: a change between its first
  /// read and this is read again).
  func start() {
    guard let store else { return }
    let token = store.defaults.observe(key.name) { [weak self] _ in self?.storeChanged() }
    observation.withLock { $0 = token }
    storeChanged()
  }

  /// The key's value (its default when absent or when the stored value does not decode).
  public var value: Value {
    registrar.access(self, keyPath: \.value)
    lock.lock()
    defer { lock.unlock() }
    return current
  }

  /// The store's value of the key changed: read it (outside every lock: decoding may report
  /// an issue to the app's handler) and make it the cell's, unless another change was made
  /// meanwhile, in which case it is read again, so the cell always ends at the store's last
  /// value, whichever threads report the changes.
  private func storeChanged() {
    guard let store else { return }
    while true {
      let start = lock.withLock { generation }
      let latest = store.defaults.object(forKey: key.name)
      if lock.withLock({ generation == start && stored == latest }) { return }
      let value = store.decoded(latest, for: key)
      var made = false
      registrar.withMutation(of: self, keyPath: \.value) {
        lock.withLock {
          guard generation == start else { return }
          current = value
          stored = latest
          generation += 1
          made = true
        }
      }
      if made { return }
    }
  }
}

extension ThreadLock {
  fileprivate func withLock<T>(_ body: () -> T) -> T {
    lock()
    defer { unlock() }
    return body()
  }
}

/// A class whose ``Setting`` properties read and write a store: it names the store once.
///
/// ```swift
/// @MainActor @Observable
/// final class AppSettings: PreferencesModel {
///   @ObservationIgnored @Setting(Keys.username) var username
///   @ObservationIgnored @Setting(Keys.colorMode) var colorMode
///
///   let preferences: PreferencesStore
///   init(store: PreferencesStore) { preferences = store }
/// }
/// ```
public protocol PreferencesModel: AnyObject {
  /// The store the model's ``Setting`` properties read and write.
  var preferences: PreferencesStore { get }
}

/// A property backed by a key of the model's store, for an `@Observable` class (with
/// `@ObservationIgnored`, which keeps the macro off the wrapped property), as short as
/// `@AppStorage`:
///
/// ```swift
/// @ObservationIgnored @Setting(Keys.username) var username
/// ```
///
/// Reads are observed: they read the store's ``PreferenceCell`` for the key, so
/// `withObservationTracking` and SwiftUI see every change of the value, made through this
/// model, through another model or store over the same domain, or by another process.
/// Writes go through the store (`store[key] = value`: validated, then for a file written
/// through under the domain's cross-process lock, merged key by key, replaced atomically; a
/// failure is reported in ``PreferencesStore/issues``). An enum whose stored raw value names no
/// case reads as the key's default and is reported, as the store's subscript does.
///
/// The class conforms to ``PreferencesModel``, which names the store; the property's type is
/// the key's. (A wrapper cannot reach its enclosing object's store any other way: the store is
/// injected, never a global.)
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@propertyWrapper
public struct Setting<Value: PreferenceValue>: Sendable {
  public let key: Key<Value>

  public init(_ key: Key<Value>) { self.key = key }

  /// Not used: a `@Setting` property lives in a class, whose accessors go through the
  /// enclosing-instance subscript below (which finds the store).
  @available(
    *, unavailable,
    message: "@Setting is for a property of a class that conforms to PreferencesModel"
  )
  public var wrappedValue: Value {
    get { key.defaultValue }
    set {}
  }

  public static subscript<Model: PreferencesModel>(
    _enclosingInstance model: Model,
    wrapped wrappedKeyPath: ReferenceWritableKeyPath<Model, Value>,
    storage storageKeyPath: ReferenceWritableKeyPath<Model, Setting>
  ) -> Value {
    get { model.preferences.cell(for: model[keyPath: storageKeyPath].key).value }
    set { model.preferences[model[keyPath: storageKeyPath].key] = newValue }
  }
}
