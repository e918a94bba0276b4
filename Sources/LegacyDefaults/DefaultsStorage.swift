import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where a ``DefaultsStore`` keeps its application domain: the seam between the store's one
/// code path (validation, pending changes, merge, notification, errors) and the medium.
///
/// Two storages ship: the domain file (the default; cross-process lock, atomic replacement)
/// and ``InMemoryStorage``. A storage has its own notion of "synchronize": ``update(_:)`` is
/// one atomic read-change-write, however the medium achieves it.
///
/// Contract for a conformer:
/// - ``load()`` returns what is stored now, without waiting on other writers and without
///   changing anything (no file is moved, created or rewritten).
/// - ``update(_:)`` calls `change` exactly once with what is stored at the moment it holds the
///   medium's exclusion (for a file: the `flock` of the domain), persists the key-by-key result
///   (``DomainChanges``: values set, keys removed) and returns what is stored afterwards. `change` may be
///   re-entered on the same thread (a nested update of the same domain from inside `change`
///   must not deadlock, and its writes must survive the outer one). When `change` throws,
///   nothing is written. A change that leaves every value as it was writes nothing.
/// - ``removeDomain()`` removes the whole domain.
public protocol DefaultsStorage: Sendable {
  /// Where the domain lives (for messages and ``DefaultsStore/location``).
  var location: DefaultsStore.Location { get }

  /// What is stored now.
  func load() throws(DefaultsError) -> DomainSnapshot

  /// One atomic read-change-write (see the protocol's contract).
  func update(
    _ change: (DomainSnapshot) throws(DefaultsError) -> DomainChanges
  ) throws(DefaultsError) -> DomainSnapshot

  /// Removes the whole domain.
  func removeDomain() throws(DefaultsError)

  /// Starts telling `handler` when the domain may have been changed by another writer the
  /// medium can announce (another `UserDefaults` instance of this process); the returned token
  /// keeps it going until released. nil: the medium announces nothing (a file's other writers
  /// are seen at the next synchronize).
  func observeChanges(_ handler: @escaping @Sendable () -> Void) -> (any Sendable)?

  /// The storage of another domain of the same medium, by name (`persistentDomain(forName:)`):
  /// the file of that name in the same folder, the suite of that name, another in-memory
  /// domain of the same medium. nil: the medium cannot reach it.
  func storage(forDomain name: String) -> (any DefaultsStorage)?
}

extension DefaultsStorage {
  public func observeChanges(_ handler: @escaping @Sendable () -> Void) -> (any Sendable)? {
    nil
  }

  public func storage(forDomain name: String) -> (any DefaultsStorage)? { nil }
}

/// What a storage holds for a domain at one moment.
public struct DomainSnapshot: Sendable, Hashable {
  /// The domain's keys and values (empty when absent or unreadable), as the medium holds them:
  /// for a file, its dictionary in document order, keys by their bytes.
  public var values: PlistDictionary
  /// The file's format; nil when there is no file (absent, unreadable, or not a file storage).
  public var format: PlistFormat?
  /// A file that exists but does not parse: why. Its domain reads as empty, and it is moved
  /// aside (never overwritten) by the first update that writes.
  public var unreadable: CorruptFileRecovery?
  /// Files moved aside by the update that returned this snapshot.
  public var recoveries: [CorruptFileRecovery]
  /// The bytes of the file as read (file storage only): the migration's backup copies these.
  package var bytes: Data?

  public init(
    values: PlistDictionary = PlistDictionary(), format: PlistFormat? = nil,
    unreadable: CorruptFileRecovery? = nil, recoveries: [CorruptFileRecovery] = []
  ) {
    self.values = values
    self.format = format
    self.unreadable = unreadable
    self.recoveries = recoveries
  }
}

/// An application domain in memory only (tests, previews). One instance may back several
/// stores, which then behave as several processes sharing one file do: each sees the others'
/// changes at its next ``DefaultsStore/synchronize()``.
public final class InMemoryStorage: DefaultsStorage, @unchecked Sendable {
  private let exclusion = ReentrantExclusion()
  private var values: PlistDictionary  // guarded by `exclusion`
  /// The other domains of the same medium, by name (shared by every domain of it).
  private let medium: Locked<[String: InMemoryStorage]>

  public init(_ values: [String: PlistValue] = [:]) {
    self.values = PlistDictionary(values)
    self.medium = Locked([:])
  }

  private init(medium: Locked<[String: InMemoryStorage]>) {
    self.values = PlistDictionary()
    self.medium = medium
  }

  public func storage(forDomain name: String) -> (any DefaultsStorage)? {
    medium.withLock { domains in
      if let existing = domains[name] { return existing }
      let created = InMemoryStorage(medium: medium)
      domains[name] = created
      return created
    }
  }

  public var location: DefaultsStore.Location { .memory }

  public func load() throws(DefaultsError) -> DomainSnapshot {
    exclusion.withLock { DomainSnapshot(values: values) }
  }

  public func update(
    _ change: (DomainSnapshot) throws(DefaultsError) -> DomainChanges
  ) throws(DefaultsError) -> DomainSnapshot {
    try exclusion.withLock { () throws(DefaultsError) -> DomainSnapshot in
      let changes = try change(DomainSnapshot(values: values))
      // A nested update wrote into `values` directly: this one applies on top of it.
      values = changes.applied(to: values)
      return DomainSnapshot(values: values)
    }
  }

  public func removeDomain() throws(DefaultsError) {
    exclusion.withLock { values = PlistDictionary() }
  }
}

/// The in-process half of a domain's exclusion: a recursive lock (so an update may be
/// re-entered on the same thread from user code it runs, where a second `flock` would wait on
/// itself), the nesting depth, and a write generation that tells an outer update that a nested
/// one wrote.
package final class ReentrantExclusion: @unchecked Sendable {
  private let lock = ThreadLock(recursive: true)
  private var depth = 0  // guarded by `lock`
  /// Bumped by every write; read and bumped only while holding the lock.
  private(set) var generation: UInt64 = 0

  package func bump() { generation &+= 1 }

  /// Runs `body` holding the lock; `outermost` wraps the outermost call only (it takes the
  /// cross-process lock, which nested calls on this thread already hold).
  package func withLock<T, Failure: Error>(
    outermost: ((() throws(Failure) -> T) throws(Failure) -> T)? = nil,
    _ body: () throws(Failure) -> T
  ) throws(Failure) -> T {
    lock.lock()
    defer { lock.unlock() }
    depth += 1
    defer { depth -= 1 }
    if depth == 1, let outermost { return try outermost(body) }
    return try body()
  }

  /// Whether this thread could take the lock now without waiting: nobody holds it, or this
  /// thread does (a nested call). A notification handler asks before it reads: the thread
  /// that holds the lock may be the one posting, waiting for a lock this thread holds.
  package var isFreeOrHeldHere: Bool {
    guard lock.tryLock() else { return false }
    lock.unlock()
    return true
  }
}
