import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where a ``DefaultsStore`` keeps its application domain: the seam between the store's one
/// code path (validation, pending changes, merge, notification, errors) and the medium.
///
/// Storages ship for the domain file (the default; cross-process lock, atomic replacement),
/// memory (``InMemoryStorage``) and `UserDefaults` (module `LegacyDefaultsFoundation`); a
/// storage of yours is a conformer like them: it says who it is (``identity``), and by
/// conforming to ``OrderedReloading`` it is followed exactly as the built-in ones are. A storage has its own notion of "synchronize": ``update(_:)`` is
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
  /// Who the storage is: what tells its domain from every other, and how messages name it.
  var identity: StorageIdentity { get }

  /// What is stored now.
  func load() throws(DefaultsError) -> DomainSnapshot

  /// One atomic read-change-write (see the protocol's contract).
  func update(
    _ change: (DomainSnapshot) throws(DefaultsError) -> DomainChanges
  ) throws(DefaultsError) -> DomainSnapshot

  /// Removes the whole domain.
  func removeDomain() throws(DefaultsError)

  /// Starts telling `handler` when the domain may have been changed by a writer other than
  /// the caller: another process or another store on the same domain. The returned token keeps
  /// it going until released; nil: the medium announces nothing (its other writers' changes
  /// are seen at the next synchronize).
  ///
  /// A domain file announces every change of the file (one watcher per process: inotify on
  /// Linux, kqueue on Apple platforms); memory, every update made through any store over it;
  /// `UserDefaults`, what Foundation delivers (see `UserDefaultsStorage`). `handler` may be
  /// called on any thread, with no lock of the medium held, and may be called for a change
  /// the caller made itself or for none at all: it is a hint to read again.
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

/// Who a storage is (``DefaultsStorage/identity``): what tells its domain from every other
/// storage's, and how messages and reports name it. Open: a storage of yours describes itself
/// as the built-in ones do.
///
/// ```swift
/// var identity: StorageIdentity {
///   StorageIdentity(id: "sqlite:\(path)#\(table)", description: "\(path) (\(table))",
///     domainName: table, noun: "table")
/// }
/// ```
public struct StorageIdentity: Sendable, Hashable, CustomStringConvertible {
  /// Two storages with the same `id` hold the same domain: a file's path (`file:/…`), a suite
  /// (`UserDefaults:com.example.app`), one in-memory domain (`memory:…`).
  public var id: String
  /// How messages and reports name the domain: a path, `memory`, `UserDefaults(<suite>)`.
  public var description: String
  /// The persistent domain's name (``DefaultsStore/domainName``): the file's name without
  /// `.plist`, the suite name.
  public var domainName: String
  /// What a report calls one such storage: `file`, `domain`.
  public var noun: String

  public init(id: String, description: String, domainName: String, noun: String = "domain") {
    self.id = id
    self.description = description
    self.domainName = domainName
    self.noun = noun
  }

  /// The identity of the domain file at the absolute `path`: a path, never a `URL` (making one
  /// is not free, and on some platforms asks the file system what the path names).
  public static func file(path: String) -> StorageIdentity {
    let name =
      path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
    return StorageIdentity(
      id: "file:" + path, description: path,
      domainName: name.hasSuffix(".plist") ? String(name.dropLast(6)) : name, noun: "file")
  }
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
  /// The bytes of the file as ``DomainFile``'s `read()` read them (file storage only; a
  /// store's `load()` keeps a digest instead): the migration's backup copies these.
  package var bytes: Data?
  /// What the reader noticed in the file (file storage only): a migration reports where the
  /// reader was lenient (``PlistWarning/readAs(_:_:at:)``).
  package var warnings: [PlistWarning] = []
  /// What tells this state of the domain from another without comparing values (nil: the
  /// medium cannot tell). ``DomainVersion/absent`` says the medium holds no domain at all (no
  /// file), which is not an empty one: a migration reports such a source `missing`.
  public var version: DomainVersion?
  /// The owner, group and mode of the file read (file storage only): a write that replaces it
  /// keeps them.
  package var ownership: FileAccess.Ownership?
  /// Where the update that returned this snapshot copied the file before replacing it
  /// (``DomainFile/Backup``).
  package var backup: String?

  public init(
    values: PlistDictionary = PlistDictionary(), format: PlistFormat? = nil,
    unreadable: CorruptFileRecovery? = nil, recoveries: [CorruptFileRecovery] = [],
    version: DomainVersion? = nil
  ) {
    self.values = values
    self.format = format
    self.unreadable = unreadable
    self.recoveries = recoveries
    self.version = version
  }

  /// Whether the medium holds no domain at all (``version`` is ``DomainVersion/absent``).
  public var isAbsent: Bool { version == .absent }
}

/// What tells two states of a domain apart without comparing their values: a digest of a
/// file's bytes or its absence, memory's count of writes. A store keeps the version of what it
/// last read or wrote, and skips an announcement of a state it already has (its own write,
/// most often) without parsing it.
public enum DomainVersion: Sendable, Hashable {
  /// No domain at all (no file).
  case absent
  /// The digest of the stored bytes (``ContentDigest/init(_:)``).
  case contents(ContentDigest)
  /// A count of writes the medium keeps.
  case count(UInt64)
}

/// What a store decides when it reads its storage again after an announcement, at the moment
/// of the read (under the domain's in-process exclusion, so in order with this process's
/// updates): not to read (a write of its own is in flight and will be followed by another
/// look), or to read, skipping a state of version `unlessAt`.
public enum ReloadDecision: Sendable {
  case skip
  case read(unlessAt: DomainVersion?)
}

/// A storage a store can follow exactly: one that reads again in order with this process's
/// own updates of the domain (the file, memory and `UserDefaults` storages conform; a storage
/// that does not is read with ``DefaultsStorage/load()`` at each announcement and compared by
/// value).
///
/// A conformer holds the in-process exclusion its ``DefaultsStorage/update(_:)`` holds, calls
/// `decide` under it, and returns nil for ``ReloadDecision/skip`` or when the domain's version
/// is the one `decide` names:
///
/// ```swift
/// func reload(_ decide: () -> ReloadDecision) throws(DefaultsError) -> DomainSnapshot? {
///   lock.withLock {
///     guard case .read(let known) = decide(), known != .count(writes) else { return nil }
///     return DomainSnapshot(values: values, version: .count(writes))
///   }
/// }
/// ```
public protocol OrderedReloading: DefaultsStorage {
  /// The domain as it is now, read under its in-process exclusion (never the cross-process
  /// lock: a reader does not wait for another process) right after `decide` ran there; nil
  /// when `decide` says to skip or the domain still has the version it names.
  func reload(_ decide: () -> ReloadDecision) throws(DefaultsError) -> DomainSnapshot?
}

/// An announcement token (``DefaultsStorage/observeChanges(_:)``) that announces only the keys
/// it is told about (`UserDefaults`' key-value observing): a store tells it the keys its
/// observers follow, each time they change; `version` orders the calls.
package protocol KeyedAnnouncements: Sendable {
  func announce(keys: Set<String>, version: UInt64)
}

/// An application domain in memory only (tests, previews). One instance may back several
/// stores, which then behave as several processes sharing one file do: each writes through its
/// own synchronize, and each is told of the others' writes (``observeChanges(_:)``) and reads
/// them without a synchronize.
public final class InMemoryStorage: DefaultsStorage, OrderedReloading, @unchecked Sendable {
  private let exclusion = ReentrantExclusion()
  private var values: PlistDictionary  // guarded by `exclusion`
  /// Counts the writes that changed a value (guarded by `exclusion`): the version.
  private var writes: UInt64 = 0
  /// A write made inside another update of this domain, announced when the outermost ends.
  private var unannounced = false  // guarded by `exclusion`
  private let listeners = Locked<(next: UInt64, all: [UInt64: @Sendable () -> Void])>((0, [:]))
  /// The other domains of the same medium, by name (shared by every domain of it).
  private let medium: Locked<[String: InMemoryStorage]>
  /// The domain's name: `memory` for the first, the name asked for for the others.
  private let name: String

  public init(_ values: [String: PlistValue] = [:]) {
    self.values = PlistDictionary(values)
    self.medium = Locked([:])
    self.name = "memory"
  }

  private init(medium: Locked<[String: InMemoryStorage]>, name: String) {
    self.values = PlistDictionary()
    self.medium = medium
    self.name = name
  }

  public func storage(forDomain name: String) -> (any DefaultsStorage)? {
    medium.withLock { domains in
      if let existing = domains[name] { return existing }
      let created = InMemoryStorage(medium: medium, name: name)
      domains[name] = created
      return created
    }
  }

  /// `memory`, one identity per domain of the medium.
  public var identity: StorageIdentity {
    StorageIdentity(
      id: "memory:\(UInt(bitPattern: ObjectIdentifier(self).hashValue))", description: "memory",
      domainName: name)
  }

  public func load() throws(DefaultsError) -> DomainSnapshot {
    exclusion.withLock { snapshot() }
  }

  private func snapshot() -> DomainSnapshot {
    var snapshot = DomainSnapshot(values: values)
    snapshot.version = .count(writes)
    return snapshot
  }

  public func reload(_ decide: () -> ReloadDecision) throws(DefaultsError) -> DomainSnapshot? {
    exclusion.withLock { () -> DomainSnapshot? in
      guard case .read(let known) = decide(), known != .count(writes) else { return nil }
      return snapshot()
    }
  }

  public func update(
    _ change: (DomainSnapshot) throws(DefaultsError) -> DomainChanges
  ) throws(DefaultsError) -> DomainSnapshot {
    var announce = false
    let result = try exclusion.withLock { () throws(DefaultsError) -> DomainSnapshot in
      let changes = try change(snapshot())
      // A nested update wrote into `values` directly: this one applies on top of it.
      let changed = changes.applied(to: values)
      if changed != values {
        values = changed
        writes += 1
        unannounced = true
      }
      announce = exclusion.isOutermost && unannounced
      if announce { unannounced = false }
      return snapshot()
    }
    if announce { announceChange() }
    return result
  }

  public func removeDomain() throws(DefaultsError) {
    let announce = exclusion.withLock { () -> Bool in
      guard !values.isEmpty else { return false }
      values = PlistDictionary()
      writes += 1
      unannounced = true
      guard exclusion.isOutermost else { return false }
      unannounced = false
      return true
    }
    if announce { announceChange() }
  }

  /// Every store over this domain is told, on the writer's thread, after the write.
  private func announceChange() {
    for listener in listeners.withLock({ Array($0.all.values) }) { listener() }
  }

  public func observeChanges(_ handler: @escaping @Sendable () -> Void) -> (any Sendable)? {
    let id = listeners.withLock { list -> UInt64 in
      list.next += 1
      list.all[list.next] = handler
      return list.next
    }
    return DefaultsStore.Observation { [weak self] in
      self?.listeners.withLock { list in list.all[id] = nil }
    }
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

  /// Whether the call holding the lock is the outermost one (ask only while holding it): a
  /// write made then is complete, not a nested part of another update.
  package var isOutermost: Bool { depth == 1 }

  /// Whether no thread (this one included) holds the lock now.
  package var isFree: Bool {
    guard lock.tryLock() else { return false }
    defer { lock.unlock() }
    return depth == 0
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
