import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An `NSUserDefaults`-shaped store over one persistent domain, with the getters of a chosen
/// ``Dialect`` and persistence that does not lose values:
///
/// - reads look through the argument domain (`-key value`), the application domain (its
///   storage: a file, memory, or a storage of yours), an optional global domain, and the
///   registration domain;
/// - ``synchronize()`` runs one atomic update of the storage: for a file, it takes an exclusive
///   lock shared with other processes, re-reads the file, applies this store's own pending
///   changes key by key on top of it (so another process's keys survive), writes a temporary
///   file (mode 0600) in the same folder, flushes it, renames it over the old one, and
///   releases the lock;
/// - a file that does not parse reads as empty and is moved aside at the first write, never
///   overwritten (``recoveries``); a valid file that is not a dictionary is refused;
/// - pending changes are written at normal process exit even without ``synchronize()``, and a
///   failure to do so is reported;
/// - the store follows its storage without a ``synchronize()``: another process's write of
///   the file (or another store's, over the same file or memory) reaches reads, observers and
///   change streams as soon as the storage announces it (``DefaultsStorage/observeChanges(_:)``;
///   for a file, the process's one file watcher, a few milliseconds), read whole, and told to
///   observers only for the keys whose value changed; this store's own writes are recognised
///   by the bytes it wrote and never read back.
///
/// The store is `Sendable`: a lock guards its state, so any thread or task may use it. That
/// lock is never held while user code runs (observers, `update` transforms) nor across the
/// cross-process lock or the disk: readers never wait for a write.
public final class DefaultsStore: Sendable {
  public let dialect: Dialect
  /// The home folder `~` stands for in file URLs (from the environment the store was given).
  let home: String?
  /// The storage of the application domain.
  public let storage: any DefaultsStorage
  /// Who the storage of the application domain is (its path, `memory`, a suite).
  public var identity: StorageIdentity { storage.identity }

  let globalFile: DomainFile?
  let state: Locked<State>
  private let exitFlushFailure: (@Sendable (DefaultsError) -> Void)?
  /// Keeps the storage's change announcements coming (nil when it has none).
  let announcements = Locked<(any Sendable)?>(nil)

  // MARK: - Opening

  /// A store over `storage`.
  ///
  /// - Parameters:
  ///   - storage: where the application domain lives.
  ///   - dialect: whose getters decide what loose values mean.
  ///   - arguments: the process arguments that form the argument domain (`-key value`);
  ///     pass `CommandLine.arguments` to behave as NSUserDefaults does.
  ///   - globalDomain: an optional second file read after the application domain.
  ///   - limits: the safety limits for reading the global domain's file.
  ///   - flushAtExit: write pending changes when the process exits normally.
  ///   - exitFlushFailure: told when that write fails (default: a line on standard error;
  ///     nil: silent).
  ///   - environment: where `HOME` (and, for corelibs, `CFFIXED_USER_HOME`) come from, for
  ///     `~` in file URLs.
  public convenience init(
    storage: any DefaultsStorage, dialect: Dialect = .apple, arguments: [String] = [],
    globalDomain: URL? = nil, limits: PlistLimits = .default, flushAtExit: Bool = true,
    exitFlushFailure: (@Sendable (DefaultsError) -> Void)? = DefaultsStore.reportOnStandardError,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(DefaultsError) {
    let globalFile = globalDomain.map { url in
      var file = DomainFile(url: url, limits: limits)
      file.readOptions = dialect.readOptions(exact: false)
      return file
    }
    self.init(
      storage: storage, loaded: try storage.load(), globalFile: globalFile,
      global: try globalFile?.read(), dialect: dialect, arguments: arguments,
      flushAtExit: flushAtExit, exitFlushFailure: exitFlushFailure, environment: environment)
  }

  private init(
    storage: any DefaultsStorage, loaded: DomainSnapshot, globalFile: DomainFile?,
    global: DomainSnapshot?, dialect: Dialect, arguments: [String], flushAtExit: Bool,
    exitFlushFailure: (@Sendable (DefaultsError) -> Void)?, environment: [String: String]
  ) {
    self.dialect = dialect
    self.home = environment[dialect.rules.homeVariable] ?? PathText.homeOf(user: nil)
    self.storage = storage
    self.globalFile = globalFile
    self.exitFlushFailure = exitFlushFailure
    var initial = State()
    initial.arguments = PlistDictionary(ArgumentDomain.parse(arguments, dialect: dialect))
    initial.base = dialect.adopting(loaded.values, readFrom: loaded.format)
    initial.format = loaded.format
    initial.known = loaded.version
    initial.record(loaded.unreadable.map { [$0] } ?? [])
    if let global {
      initial.global = dialect.adopting(global.values, readFrom: global.format)
      initial.record(global.unreadable.map { [$0] } ?? [])
    }
    self.state = Locked(initial)
    if flushAtExit { ExitFlush.register(self) }
    let token = storage.observeChanges { [weak self] in self?.refresh() }
    announcements.withLock { $0 = token }
    // A change between the load above and the start of the announcements: looked for once
    // (for a file, one read compared with the bytes loaded; nothing is parsed again).
    if token != nil, storage is any OrderedReloading { refresh() }
  }

  /// The storage announced a change (another process's, another store's, or this store's own
  /// write): read it again and tell this store's observers of the values that changed. What
  /// this store already has (its own write, by the bytes it wrote) is skipped unparsed; a file
  /// that does not parse (a writer caught writing in place) is skipped until it does, so
  /// observers never see a torn or intermediate state. A failure to read is left for the next
  /// synchronize to report.
  private func refresh() {
    var ticket: UInt64 = 0
    let loaded = Result { () throws(DefaultsError) -> DomainSnapshot? in
      guard let ordered = storage as? any OrderedReloading else {
        ticket = state.withLock { $0.takeTicket() }
        return try storage.load()
      }
      // Decided under the storage's in-process exclusion: no write of this process is half
      // done, and the ticket orders this read after every write published before it.
      return try ordered.reload { () -> ReloadDecision in
        state.withLock { s in
          guard s.inFlight == 0 else {
            // This store's own write is done but not yet published: its end looks again.
            s.refreshAgain = true
            return .skip
          }
          ticket = s.takeTicket()
          return .read(unlessAt: s.known)
        }
      }
    }
    // A read that fails here fails again, with its error, at the next synchronize.
    guard case .success(let snapshot?) = loaded, snapshot.unreadable == nil else { return }
    state.withLock { $0.rereads += 1 }
    publish(snapshot, ticket: ticket, written: [:], global: nil)
  }

  /// How many announced changes this store has read and published (tests: its own writes are
  /// recognised by their bytes and never read back).
  package var announcedReads: Int { state.withLock { $0.rereads } }

  /// Runs one write of this store (a synchronize, a removal of the domain) with
  /// announcements read meanwhile put off to its end (see ``refresh()``).
  func writing<T>(_ body: () throws(DefaultsError) -> T) throws(DefaultsError) -> T {
    state.withLock { $0.inFlight += 1 }
    defer {
      let again = state.withLock { s -> Bool in
        s.inFlight -= 1
        guard s.inFlight == 0, s.refreshAgain else { return false }
        s.refreshAgain = false
        return true
      }
      if again { refresh() }
    }
    return try body()
  }

  /// A store over the domain file at `url` (read now; created on the first write).
  ///
  /// - Parameters:
  ///   - url: the domain file.
  ///   - dialect: whose getters decide what loose values mean.
  ///   - arguments: the process arguments that form the argument domain (`-key value`).
  ///   - globalDomain: an optional second file read after the application domain.
  ///   - newFileFormat: the format of a file this store creates (an existing file keeps its own).
  ///   - limits: the safety limits for reading the domain files.
  ///   - flushAtExit: write pending changes when the process exits normally.
  ///   - exitFlushFailure: told when that write fails (default: a line on standard error;
  ///     nil: silent).
  ///   - environment: where `HOME` (and, for corelibs, `CFFIXED_USER_HOME`) come from, for
  ///     `~` in file URLs.
  public convenience init(
    url: URL, dialect: Dialect = .apple, arguments: [String] = [], globalDomain: URL? = nil,
    newFileFormat: PlistFormat = .xml, limits: PlistLimits = .default, flushAtExit: Bool = true,
    exitFlushFailure: (@Sendable (DefaultsError) -> Void)? = DefaultsStore.reportOnStandardError,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(DefaultsError) {
    // The file read as the dialect's reader reads it, and what only another reader reads
    // too (the store may have written it: an OpenStep domain grows GNUstep's typed values).
    var file = DomainFile(url: url, newFileFormat: newFileFormat, limits: limits)
    file.readOptions = dialect.readOptions(exact: false)
    try self.init(
      storage: file,
      dialect: dialect, arguments: arguments, globalDomain: globalDomain, limits: limits,
      flushAtExit: flushAtExit, exitFlushFailure: exitFlushFailure, environment: environment)
  }

  /// A store over the domain named `name`, resolved to the platform's file by `locator`.
  public convenience init(
    domain name: String, locator: DomainLocator = DomainLocator(), dialect: Dialect = .apple,
    arguments: [String] = [], newFileFormat: PlistFormat = .xml, flushAtExit: Bool = true
  ) throws(DefaultsError) {
    try self.init(
      url: try locator.url(forDomain: name), dialect: dialect, arguments: arguments,
      newFileFormat: newFileFormat, flushAtExit: flushAtExit, environment: locator.environment)
  }

  /// A store whose application domain lives in memory only (for tests and previews): an
  /// ``InMemoryStorage`` of its own, run by the same code as a file.
  public convenience init(
    inMemory values: [String: PlistValue] = [:], dialect: Dialect = .apple,
    arguments: [String] = []
  ) {
    self.init(
      storage: InMemoryStorage(values), loaded: DomainSnapshot(values: PlistDictionary(values)),
      globalFile: nil,
      global: nil, dialect: dialect, arguments: arguments, flushAtExit: false,
      exitFlushFailure: nil, environment: ProcessInfo.processInfo.environment)
  }

  /// The flush at process exit: a failure goes to ``exitFlushFailure`` (never lost silently
  /// unless the store was opened with nil).
  func flushAtExit() {
    do {
      try synchronizeOrThrow()
    } catch {
      exitFlushFailure?(error)
    }
  }

  /// Writes a failed flush at exit to standard error.
  public static let reportOnStandardError: @Sendable (DefaultsError) -> Void = { error in
    FileAccess.writeAll(
      Data("prefs: pending changes were not written at exit: \(error)\n".utf8), to: STDERR_FILENO)
  }

  /// Domain files found unparseable (moved aside once a write replaced them), since this store
  /// was opened.
  public var recoveries: [CorruptFileRecovery] { state.withLock { $0.recoveries } }

  /// Whether there are changes not yet written to the storage.
  public var hasPendingChanges: Bool { state.withLock { !$0.pending.isEmpty } }

  // MARK: - Writing

  /// Sets `value` for `key` in the application domain; `nil` removes it. Throws for the empty
  /// key and for values that are not property-list values (UIDs).
  public func set(_ value: PlistValue?, forKey key: String) throws(DefaultsError) {
    try Self.validate(value, forKey: key)
    change(key, to: value)
  }

  /// Refuses the empty key and values that are not property-list values (UIDs), as
  /// ``set(_:forKey:)`` does; every writer of a domain checks with this.
  package static func validate(_ value: PlistValue?, forKey key: String) throws(DefaultsError) {
    guard !key.isEmpty else { throw .emptyKey }
    if let value, let bad = unsupportedType(value) {
      throw .unsupportedValue(key: key, type: bad)
    }
  }

  /// Records a pending change (nil: a removal) and tells the key's observers.
  func change(_ key: String, to value: PlistValue?) {
    let fire = state.withLock { s -> (@Sendable () -> Void)? in
      let before = s.value(key)
      s.nextGeneration += 1
      s.pending[DomainKey(key)] = Pending(value: value, generation: s.nextGeneration)
      return Self.notification(for: key, before: before, in: s)
    }
    fire?()
  }

  /// Removes `key` from the application domain, so a registered default shows through.
  public func removeObject(forKey key: String) { change(key, to: nil) }

  /// Removes every key of the application domain.
  public func removeAll() {
    let keys = persistentValues().keys
    for key in keys { removeObject(forKey: key) }
  }

  /// Adds `defaults` to the registration domain (memory only, never written).
  public func register(defaults: [String: PlistValue]) {
    register(PlistDictionary(defaults))
  }

  /// ``register(defaults:)`` with keys as given, by their bytes.
  public func register(_ defaults: PlistDictionary) {
    let fires = state.withLock { s -> [@Sendable () -> Void] in
      let before = defaults.keys.map { ($0, s.value($0)) }
      s.registration.merge(defaults) { $1 }
      return before.compactMap { Self.notification(for: $0.0, before: $0.1, in: s) }
    }
    for fire in fires { fire() }
  }

  static func unsupportedType(_ value: PlistValue) -> String? {
    switch value {
    case .uid: return "UID"
    case .array(let a):
      for element in a { if let bad = unsupportedType(element) { return bad } }
      return nil
    case .dictionary(let d):
      for element in d.values { if let bad = unsupportedType(element) { return bad } }
      return nil
    default: return nil
    }
  }

  // MARK: - Persistence

  /// Writes pending changes and picks up other processes' changes. Returns `true` on success,
  /// as `-[NSUserDefaults synchronize]` does, so that ported code keeps its shape (the result
  /// is discardable, and nothing is thrown); ``synchronizeOrThrow()`` is the same call,
  /// throwing the reason it failed. (The typed store's `PreferencesStore.synchronize()`
  /// throws.)
  @discardableResult
  public func synchronize() -> Bool {
    do {
      try synchronizeOrThrow()
      return true
    } catch {
      return false
    }
  }

  /// ``synchronize()``, throwing the reason it failed. On failure nothing on disk changed and
  /// the pending changes are kept for the next attempt.
  public func synchronizeOrThrow() throws(DefaultsError) {
    try synchronize(applying: nil)
  }

  /// Reads, changes and writes one key as a single step under the storage's exclusion (for a
  /// file, the cross-process lock): the value `transform` sees is the stored one (with this
  /// store's pending change applied), so two processes that both append to a list lose neither
  /// append. `transform` returns the new value (nil removes the key). Everything pending is
  /// written with it.
  ///
  /// `transform` runs without this store's state lock: it may read this store and others, and
  /// set other keys of this store (even synchronizing them), without deadlock. Like any lock,
  /// the domain's may deadlock if two threads nest updates of two domains in opposite orders.
  public func update(
    _ key: String, _ transform: (PlistValue?) -> PlistValue?
  ) throws(DefaultsError) {
    guard !key.isEmpty else { throw .emptyKey }
    try updateDomain { values in [key: transform(values[key])] }
  }

  /// Reads, changes and writes several keys as one step under the storage's exclusion (for a
  /// file, one hold of the cross-process lock; for `UserDefaults`, all or nothing). `change`
  /// gets the application domain as stored, with this store's pending changes applied, and
  /// returns the changes key by key (nil removes); they are validated as
  /// ``set(_:forKey:)-(PlistValue?,_)`` validates, and everything pending is written with them. When `change` throws, nothing is
  /// written. `change` runs without this store's state lock (see `update(_:_:)`).
  public func updateDomain(
    _ change: (PlistDictionary) throws(DefaultsError) -> DomainChanges
  ) throws(DefaultsError) {
    try withoutActuallyEscaping(change) { (escaping) throws(DefaultsError) in
      try synchronize(applying: escaping)
    }
  }

  /// ``update(_:_:)`` with a transform that throws an error of yours: when it throws, nothing
  /// is written and its error is thrown as it is; the store's own failures are
  /// ``DefaultsError``s.
  public func update<Failure: Error>(
    _ key: String, _ transform: (PlistValue?) throws(Failure) -> PlistValue?
  ) throws {
    guard !key.isEmpty else { throw DefaultsError.emptyKey }
    try updateDomain { (values) throws(Failure) -> DomainChanges in
      [key: try transform(values[key])]
    }
  }

  /// ``updateDomain(_:)`` with a change that throws an error of yours: when it throws, nothing
  /// is written and its error is thrown as it is; the store's own failures are
  /// ``DefaultsError``s.
  public func updateDomain<Failure: Error>(
    _ change: (PlistDictionary) throws(Failure) -> DomainChanges
  ) throws {
    var thrown: Failure?
    do {
      try updateDomain { (values) throws(DefaultsError) -> DomainChanges in
        do throws(Failure) {
          return try change(values)
        } catch {
          thrown = error
          // Abandons the update as a failing change does (nothing is written); this stand-in
          // never leaves: the caller's error replaces it below.
          throw .emptyKey
        }
      }
    } catch {
      if let thrown { throw thrown }
      throw error
    }
  }

  private func synchronize(
    applying change: ((PlistDictionary) throws(DefaultsError) -> DomainChanges)?
  ) throws(DefaultsError) {
    if change == nil, !hasPendingChanges {
      // Nothing to write: read what is there, without the lock (files are replaced atomically).
      let ticket = state.withLock { $0.takeTicket() }
      try publish(try storage.load(), ticket: ticket, written: [:])
      return
    }
    try writing { () throws(DefaultsError) in try write(applying: change) }
  }

  /// The write of ``synchronize(applying:)``: one update of the storage, published.
  private func write(
    applying change: ((PlistDictionary) throws(DefaultsError) -> DomainChanges)?
  ) throws(DefaultsError) {
    var written: [DomainKey: UInt64] = [:]
    var ticket: UInt64 = 0
    let snapshot = try storage.update { (current) throws(DefaultsError) -> DomainChanges in
      var requested = DomainChanges()
      if let change {
        var view = current.values
        for (key, pending) in state.withLock({ $0.pending }) {
          if let value = pending.value {
            view[key.text] = value
          } else {
            view.removeValue(forKey: key.text)
          }
        }
        requested = try change(view)
        for (key, value) in requested.all { try Self.validate(value, forKey: key) }
      }
      // Taken after `change`: what its body set is written too.
      let pending = state.withLock { s -> [DomainKey: Pending] in
        ticket = s.takeTicket()
        return s.pending
      }
      var changes = DomainChanges()
      written = [:]
      for (key, entry) in pending {
        changes[key.text] = .some(entry.value)
        written[key] = entry.generation
      }
      changes.merge(requested)
      return changes
    }
    try publish(snapshot, ticket: ticket, written: written)
  }

  /// ``publish(_:ticket:written:global:)`` with the global domain read again; a global file that
  /// cannot be read is thrown after the application domain's snapshot is published (what was
  /// written is not pending any more).
  private func publish(_ snapshot: DomainSnapshot, ticket: UInt64, written: [DomainKey: UInt64])
    throws(DefaultsError)
  {
    switch Result(catching: { () throws(DefaultsError) in try globalFile?.read() }) {
    case .success(let global):
      publish(snapshot, ticket: ticket, written: written, global: global)
    case .failure(let error):
      publish(snapshot, ticket: ticket, written: written, global: nil)
      throw error
    }
  }

  /// Makes a storage snapshot this store's view: drops the pending changes it holds (those
  /// changed again meanwhile stay pending), takes the global domain, and tells observers.
  private func publish(
    _ snapshot: DomainSnapshot, ticket: UInt64, written: [DomainKey: UInt64],
    global: DomainSnapshot?
  ) {
    let fires = state.withLock { s -> [@Sendable () -> Void] in
      let observed = Array(s.observers.keys)
      let before = observed.map { s.value($0.text) }
      for (key, generation) in written where s.pending[key]?.generation == generation {
        s.pending[key] = nil
      }
      if ticket > s.publishedTicket {
        s.publishedTicket = ticket
        s.base = dialect.adopting(snapshot.values, readFrom: snapshot.format)
        s.format = snapshot.format
        s.known = snapshot.version
        if let global {
          s.global = dialect.adopting(global.values, readFrom: global.format)
        }
      }
      s.record(snapshot.recoveries)
      s.record(snapshot.unreadable.map { [$0] } ?? [])
      s.record(global?.unreadable.map { [$0] } ?? [])
      return zip(observed, before).compactMap {
        Self.notification(for: $0.0.text, before: $0.1, in: s)
      }
    }
    for fire in fires { fire() }
  }
}
