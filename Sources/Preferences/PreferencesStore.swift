import LegacyDefaults
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Darwin)
  import LegacyDefaultsFoundation
#endif

/// The typed store: ``Key``s over a defaults domain, persisted through the same engine as
/// `DefaultsStore` (cross-process lock, per-key merge, atomic write).
///
/// ```swift
/// let store = try PreferencesStore(domain: "com.exmo.equizmo")
/// extension Keys { static let rankingSize = Key<Int>("ranking.size", default: 5) }
///
/// store[Keys.rankingSize] = 10          // written through (locked, merged, atomic)
/// let size = store[Keys.rankingSize]    // 10; the key's default when absent
/// ```
///
/// Reads through the subscript never fail: absent gives the default, and a value that does not
/// decode gives the default too and is *reported* (``issues``, ``onIssue``). Use
/// ``value(for:)`` to tell absent from corrupt.
public final class PreferencesStore: Sendable {
  /// The defaults store underneath (its dialect plays no part in typed reads).
  public let defaults: DefaultsStore
  /// Whether every write is synchronized at once (the default) or left for ``synchronize()``
  /// (and the flush at process exit).
  public let writesThrough: Bool

  private let reported = Locked<[PreferenceError]>([])
  private let issueHandler = Locked<(@Sendable (PreferenceError) -> Void)?>(nil)
  /// The observable cells of the keys models and views read (`PreferenceCell`), by name and
  /// value type; kept for the store's life.
  private let cells = Locked<[CellID: AnyObject]>([:])

  private struct CellID: Hashable {
    let name: String
    let type: ObjectIdentifier
  }

  public init(_ defaults: DefaultsStore, writesThrough: Bool = true) {
    self.defaults = defaults
    self.writesThrough = writesThrough
  }

  /// The store of a domain.
  ///
  /// Without a `locator`, the platform's own storage of the domain: on Apple platforms its
  /// `UserDefaults` suite (`cfprefsd` owns the files there; the app's bundle identifier is
  /// `UserDefaults.standard`), elsewhere its file in the platform's preferences folder.
  ///
  /// With a `locator`, the domain's file where that locator puts it, on every platform. On
  /// Apple platforms that file is read and written directly, not through `cfprefsd`: give a
  /// locator for a folder `cfprefsd` does not keep (a GNUstep layout, a test's folder), never
  /// for `~/Library/Preferences`, whose files `cfprefsd` caches and overwrites.
  public convenience init(
    domain: String, locator: DomainLocator? = nil, writesThrough: Bool = true
  ) throws(PreferenceError) {
    do {
      #if canImport(Darwin)
        if locator == nil {
          let storage: any DefaultsStorage =
            domain == Bundle.main.bundleIdentifier
            ? UserDefaultsStorage.standard() : try UserDefaultsStorage(suiteName: domain)
          self.init(try DefaultsStore(storage: storage), writesThrough: writesThrough)
          return
        }
      #endif
      self.init(
        try DefaultsStore(
          domain: domain, locator: locator ?? DomainLocator(), newFileFormat: .binary),
        writesThrough: writesThrough)
    } catch {
      throw .storage(error)
    }
  }

  /// The store of a domain kept by `storage`: a `DefaultsStorage` such as
  /// `UserDefaultsStorage(userDefaults, domain:)` or `UserDefaultsStorage(suiteName:)` (module
  /// `LegacyDefaultsFoundation`), a file, or memory.
  public convenience init(storage: any DefaultsStorage, writesThrough: Bool = true)
    throws(PreferenceError)
  {
    do {
      self.init(try DefaultsStore(storage: storage), writesThrough: writesThrough)
    } catch {
      throw .storage(error)
    }
  }

  /// The app's own store: `UserDefaults.standard` on Apple platforms; elsewhere the file of
  /// the domain named by the process name (an executable on Linux has no bundle identifier;
  /// name the domain with ``init(domain:locator:writesThrough:)`` when it should be another).
  public static func standard(writesThrough: Bool = true) throws(PreferenceError)
    -> PreferencesStore
  {
    #if canImport(Darwin)
      do {
        return PreferencesStore(
          try DefaultsStore(storage: UserDefaultsStorage.standard()), writesThrough: writesThrough)
      } catch {
        throw .storage(error)
      }
    #else
      return try PreferencesStore(
        domain: ProcessInfo.processInfo.processName,
        writesThrough: writesThrough)
    #endif
  }

  /// The store of a domain file.
  public convenience init(url: URL, writesThrough: Bool = true) throws(PreferenceError) {
    do {
      self.init(try DefaultsStore(url: url, newFileFormat: .binary), writesThrough: writesThrough)
    } catch {
      throw .storage(error)
    }
  }

  /// A store in memory only (tests, previews).
  public static func inMemory(_ values: [String: PlistValue] = [:]) -> PreferencesStore {
    PreferencesStore(DefaultsStore(inMemory: values))
  }

  // MARK: - Reading

  /// The value, or the key's default when absent or when the stored value does not decode
  /// (then reported).
  public subscript<Value>(key: Key<Value>) -> Value {
    get {
      do {
        return try value(for: key)
      } catch {
        report(error)
        return key.defaultValue
      }
    }
    set {
      do {
        try set(newValue, for: key)
      } catch {
        report(error)
      }
    }
  }

  /// The value: the key's default when absent, the stored value when it decodes, else a
  /// ``PreferenceError`` naming the key, the expected type and what was found.
  public func value<Value>(for key: Key<Value>) throws(PreferenceError) -> Value {
    guard let stored = defaults.object(forKey: key.name) else { return key.defaultValue }
    return try Self.decode(stored, for: key)
  }

  static func decode<Value>(_ stored: PlistValue, for key: Key<Value>) throws(PreferenceError)
    -> Value
  {
    do {
      return try Value.decode(stored)
    } catch {
      throw error.error(key: key.name, found: stored)
    }
  }

  /// Whether the domain holds a value for the key.
  public func contains<Value>(_ key: Key<Value>) -> Bool {
    defaults.object(forKey: key.name) != nil
  }

  // MARK: - Writing

  /// Stores `value` (an optional's nil removes the key) and, unless ``writesThrough`` is
  /// off, synchronizes.
  public func set<Value>(_ value: Value, for key: Key<Value>) throws(PreferenceError) {
    let stored: PlistValue?
    do {
      stored = try value.plistValue()
    } catch {
      throw Self.named(error, key.name)
    }
    do {
      try defaults.set(stored, forKey: key.name)
      if writesThrough { try defaults.synchronizeOrThrow() }
    } catch {
      throw .storage(error)
    }
  }

  /// Removes the stored value, so the key reads as its default again.
  public func reset<Value>(_ key: Key<Value>) throws(PreferenceError) {
    defaults.removeObject(forKey: key.name)
    if writesThrough { try synchronize() }
  }

  /// Reads, changes and writes the value as one step under the cross-process lock: two
  /// processes appending to the same list lose no append. The closure sees the value on disk
  /// (or the default); if the stored value does not decode, nothing is written and the error
  /// is thrown.
  public func modify<Value>(
    _ key: Key<Value>, _ body: (inout Value) throws(PreferenceError) -> Void
  ) throws(PreferenceError) {
    try change(key) { (value) throws(PreferenceError) in
      try body(&value)
      return true
    }
  }

  /// `modify(_:_:)` with a body that throws
  /// an error of yours: when it throws, nothing is written and its error is thrown as it is
  /// (the same value, of your type); the store's own failures are ``PreferenceError``s.
  ///
  /// ```swift
  /// try store.modify(Keys.history) { history in
  ///   guard history.indices.contains(index) else { throw HistoryError.noEntry(index) }
  ///   history.remove(at: index)
  /// }
  /// ```
  public func modify<Value, Failure: Error>(
    _ key: Key<Value>, _ body: (inout Value) throws(Failure) -> Void
  ) throws {
    var thrown: Failure?
    try change(key) { (value) throws(PreferenceError) in
      do throws(Failure) {
        try body(&value)
        return true
      } catch {
        thrown = error
        return false
      }
    }
    if let thrown { throw thrown }
  }

  /// The one read-change-write of `modify(_:_:)`:
  /// `body` returns false to write nothing.
  private func change<Value>(
    _ key: Key<Value>, _ body: (inout Value) throws(PreferenceError) -> Bool
  ) throws(PreferenceError) {
    var failure: PreferenceError?
    do {
      try defaults.update(key.name) { stored in
        do throws(PreferenceError) {
          var value =
            try stored.map { (s) throws(PreferenceError) in try Self.decode(s, for: key) }
            ?? key.defaultValue
          guard try body(&value) else { return stored }
          return try value.plistValue()
        } catch {
          failure = Self.named(error, key.name)
          return stored
        }
      }
    } catch {
      throw .storage(error)
    }
    if let failure { throw failure }
  }

  /// Writes pending changes and picks up other processes' changes; throws
  /// ``PreferenceError/storage(_:)`` with the reason when it fails (the changes stay pending).
  /// It has no `Bool` form: the store under it, `defaults` (a `DefaultsStore`), keeps
  /// `NSUserDefaults`' `synchronize() -> Bool` for ported code.
  public func synchronize() throws(PreferenceError) {
    do {
      try defaults.synchronizeOrThrow()
    } catch {
      throw .storage(error)
    }
  }

  static func named(_ error: PreferenceError, _ key: String) -> PreferenceError {
    if case .unrepresentable(let inner, let reason) = error {
      return .unrepresentable(key: key + (inner.isEmpty ? "" : inner), reason: reason)
    }
    return error
  }

  // MARK: - Observation

  /// Calls `handler` with the key's value each time it changes: by a write of this store, of
  /// another store over the same domain, or of another process, without a ``synchronize()``
  /// (a domain file is watched by the process's one file watcher; `UserDefaults` announces what
  /// Foundation delivers, see `UserDefaultsStorage`). `handler` runs on the thread that made or
  /// reported the change.
  public func observe<Value>(
    _ key: Key<Value>, handler: @escaping @Sendable (Value) -> Void
  ) -> DefaultsStore.Observation {
    defaults.observe(key.name) { [weak self] stored in
      guard let self else { return }
      handler(self.decoded(stored, for: key))
    }
  }

  /// The key's values: the current one, then each change.
  ///
  /// - Parameters:
  ///   - key: the key whose values to follow.
  ///   - initial: yield the current value first (the default, as Defaults'
  ///     `updates(_:initial:)`), so `for await` over it never waits for a first change.
  public func changes<Value>(for key: Key<Value>, initial: Bool = true) -> AsyncStream<Value> {
    AsyncStream { continuation in
      let order = Locked(())
      let observation = observe(key) { value in
        order.withLock { _ in _ = continuation.yield(value) }
      }
      if initial { order.withLock { _ in _ = continuation.yield(self[key]) } }
      continuation.onTermination = { _ in observation.cancel() }
    }
  }

  func decoded<Value>(_ stored: PlistValue?, for key: Key<Value>) -> Value {
    guard let stored else { return key.defaultValue }
    do {
      return try Self.decode(stored, for: key)
    } catch {
      report(error)
      return key.defaultValue
    }
  }

  /// The observable cell of `key`: its current value, which `withObservationTracking` and
  /// SwiftUI track, following every change of the key (see ``PreferenceCell``). One cell per
  /// key name and value type, shared by every caller: declare each key once (``Keys``).
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  public func cell<Value>(for key: Key<Value>) -> PreferenceCell<Value> {
    let id = CellID(name: key.name, type: ObjectIdentifier(Value.self))
    if let existing = cells.withLock({ $0[id] }) as? PreferenceCell<Value> { return existing }
    let made = PreferenceCell(key: key, store: self)
    let (cell, isNew) = cells.withLock { table -> (PreferenceCell<Value>, Bool) in
      if let existing = table[id] as? PreferenceCell<Value> { return (existing, false) }
      table[id] = made
      return (made, true)
    }
    // Outside the table's lock: it observes the store and reads the key.
    if isNew { cell.start() }
    return cell
  }

  // MARK: - Reports

  /// Values that did not decode (read as their key's default) and writes that failed through
  /// the subscript, most recent last (at most 100 kept).
  public var issues: [PreferenceError] { reported.withLock { $0 } }

  /// Called for each issue as it happens (for logging).
  public var onIssue: (@Sendable (PreferenceError) -> Void)? {
    get { issueHandler.withLock { $0 } }
    set { issueHandler.withLock { $0 = newValue } }
  }

  func report(_ error: PreferenceError) {
    reported.withLock { list in
      list.append(error)
      if list.count > 100 { list.removeFirst(list.count - 100) }
    }
    issueHandler.withLock { $0 }?(error)
  }
}
