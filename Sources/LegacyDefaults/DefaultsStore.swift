import Foundation
import PropertyList

/// An `NSUserDefaults`-shaped store over one persistent domain, with the getters of a chosen
/// ``Dialect`` and persistence that does not lose values:
///
/// - reads look through the argument domain (`-key value`), the application domain (its
///   file, or memory), an optional global domain, and the registration domain;
/// - ``synchronize()`` takes an exclusive lock shared with other processes, re-reads the file,
///   applies this store's own pending changes key by key on top of it (so another process's
///   keys survive), writes a temporary file (mode 0600) in the same folder, flushes it,
///   renames it over the old one, and releases the lock;
/// - a file that does not parse is moved aside and reported (``recoveries``), never
///   overwritten;
/// - pending changes are written at normal process exit even without ``synchronize()``.
///
/// The store is `Sendable`: a lock guards its state, so any thread or task may use it.
public final class DefaultsStore: Sendable {
  /// Where the application domain lives.
  public enum Location: Sendable, Hashable {
    case file(URL)
    case memory
  }

  public let dialect: Dialect
  public let location: Location

  let file: DomainFile?
  private let globalFile: DomainFile?
  private let state: Locked<State>

  struct State {
    var arguments: [String: PlistValue] = [:]
    /// The application domain as last read from (or written to) disk.
    var base: [String: PlistValue] = [:]
    /// This store's changes not yet written: a value, or nil for a removal.
    var pending: [String: PlistValue?] = [:]
    var format: PlistFormat?
    var global: [String: PlistValue] = [:]
    var registration: [String: PlistValue] = [:]
    var observers: [String: [UInt64: @Sendable (PlistValue?) -> Void]] = [:]
    var nextObserver: UInt64 = 0
    var recoveries: [CorruptFileRecovery] = []

    func applicationValue(_ key: String) -> PlistValue? {
      if let change = pending[key] { return change }
      return base[key]
    }

    func value(_ key: String) -> PlistValue? {
      arguments[key] ?? applicationValue(key) ?? global[key] ?? registration[key]
    }
  }

  // MARK: - Opening

  /// A store over the domain file at `url` (read now; created on the first write).
  ///
  /// - Parameters:
  ///   - url: the domain file.
  ///   - dialect: whose getters decide what loose values mean.
  ///   - arguments: the process arguments that form the argument domain (`-key value`);
  ///     pass `CommandLine.arguments` to behave as NSUserDefaults does.
  ///   - globalDomain: an optional second file read after the application domain.
  ///   - newFileFormat: the format of a file this store creates (an existing file keeps its own).
  ///   - limits: the safety limits for reading the domain files.
  ///   - flushAtExit: write pending changes when the process exits normally.
  public init(
    url: URL, dialect: Dialect = .apple, arguments: [String] = [], globalDomain: URL? = nil,
    newFileFormat: PlistFormat = .xml, limits: PlistLimits = .default, flushAtExit: Bool = true
  ) throws(DefaultsError) {
    self.dialect = dialect
    self.location = .file(url)
    let file = DomainFile(url: url, newFileFormat: newFileFormat, limits: limits)
    self.file = file
    self.globalFile = globalDomain.map {
      DomainFile(url: $0, newFileFormat: newFileFormat, limits: limits)
    }
    var initial = State()
    initial.arguments = ArgumentDomain.parse(arguments)
    let contents = try file.read()
    initial.base = contents.values
    initial.format = contents.format
    if let recovery = contents.recovery { initial.recoveries.append(recovery) }
    if let globalFile {
      let global = try globalFile.read()
      initial.global = global.values
      if let recovery = global.recovery { initial.recoveries.append(recovery) }
    }
    self.state = Locked(initial)
    if flushAtExit { ExitFlush.register(self) }
  }

  /// A store over the domain named `name`, resolved to the platform's file by `locator`.
  public convenience init(
    domain name: String, locator: DomainLocator = DomainLocator(), dialect: Dialect = .apple,
    arguments: [String] = [], newFileFormat: PlistFormat = .xml, flushAtExit: Bool = true
  ) throws(DefaultsError) {
    try self.init(
      url: try locator.url(forDomain: name), dialect: dialect, arguments: arguments,
      newFileFormat: newFileFormat, flushAtExit: flushAtExit)
  }

  /// A store whose application domain lives in memory only (for tests and previews).
  public init(
    inMemory values: [String: PlistValue] = [:], dialect: Dialect = .apple,
    arguments: [String] = []
  ) {
    self.dialect = dialect
    self.location = .memory
    self.file = nil
    self.globalFile = nil
    var initial = State()
    initial.arguments = ArgumentDomain.parse(arguments)
    initial.base = values
    self.state = Locked(initial)
  }

  func withState<T>(_ body: (inout State) throws(DefaultsError) -> T) throws(DefaultsError) -> T {
    try state.withLock { s throws(DefaultsError) in try body(&s) }
  }

  /// Domain files found unparseable and moved aside, since this store was opened.
  public var recoveries: [CorruptFileRecovery] { state.withLock { $0.recoveries } }

  /// The format the domain file is in (nil while it does not exist, and in memory).
  public var fileFormat: PlistFormat? { state.withLock { $0.format } }

  /// Whether there are changes not yet written to the file.
  public var hasPendingChanges: Bool { state.withLock { !$0.pending.isEmpty } }

  // MARK: - Reading

  /// The value the search list finds for `key`, as it is stored.
  public func object(forKey key: String) -> PlistValue? { state.withLock { $0.value(key) } }

  public func bool(forKey key: String) -> Bool { dialect.bool(object(forKey: key)) }
  public func integer(forKey key: String) -> Int { dialect.integer(object(forKey: key)) }
  public func double(forKey key: String) -> Double { dialect.double(object(forKey: key)) }
  public func float(forKey key: String) -> Float { dialect.float(object(forKey: key)) }
  public func string(forKey key: String) -> String? { dialect.string(object(forKey: key)) }
  public func array(forKey key: String) -> [PlistValue]? { dialect.array(object(forKey: key)) }
  public func dictionary(forKey key: String) -> [String: PlistValue]? {
    dialect.dictionary(object(forKey: key))
  }
  public func data(forKey key: String) -> Data? { dialect.data(object(forKey: key)) }
  public func date(forKey key: String) -> Date? { dialect.date(object(forKey: key)) }
  public func stringArray(forKey key: String) -> [String]? {
    dialect.stringArray(object(forKey: key))
  }
  public func url(forKey key: String) -> URL? { dialect.url(object(forKey: key)) }

  /// Every key the search list can see, with the value it finds.
  public func dictionaryRepresentation() -> [String: PlistValue] {
    state.withLock { s in
      var all = s.registration
      all.merge(s.global) { $1 }
      all.merge(s.base) { $1 }
      for (key, change) in s.pending { all[key] = change }
      all.merge(s.arguments) { $1 }
      return all
    }
  }

  /// The application domain alone (what its file holds, with pending changes applied).
  public func persistentDomain() -> [String: PlistValue] {
    state.withLock { s in
      var all = s.base
      for (key, change) in s.pending { all[key] = change }
      return all
    }
  }

  // MARK: - Writing

  /// Sets `value` for `key` in the application domain; `nil` removes it. Throws for the empty
  /// key and for values that are not property-list values (UIDs).
  public func set(_ value: PlistValue?, forKey key: String) throws(DefaultsError) {
    guard !key.isEmpty else { throw .emptyKey }
    if let value, let bad = Self.unsupportedType(value) {
      throw .unsupportedValue(key: key, type: bad)
    }
    change(key, to: value)
  }

  /// Records a pending change (nil: a removal) and tells the key's observers.
  private func change(_ key: String, to value: PlistValue?) {
    let fire = state.withLock { s -> (@Sendable () -> Void)? in
      let before = s.value(key)
      s.pending[key] = .some(value)
      return Self.notification(for: key, before: before, in: s)
    }
    fire?()
  }

  public func set(_ value: Bool, forKey key: String) throws(DefaultsError) {
    try set(.bool(value), forKey: key)
  }
  public func set(_ value: Int, forKey key: String) throws(DefaultsError) {
    try set(.int(value), forKey: key)
  }
  public func set(_ value: Double, forKey key: String) throws(DefaultsError) {
    try set(.real(value), forKey: key)
  }
  public func set(_ value: Float, forKey key: String) throws(DefaultsError) {
    try set(.real(Double(value)), forKey: key)
  }
  public func set(_ value: String, forKey key: String) throws(DefaultsError) {
    try set(.string(value), forKey: key)
  }
  public func set(_ value: Date, forKey key: String) throws(DefaultsError) {
    try set(.date(value), forKey: key)
  }
  public func set(_ value: Data, forKey key: String) throws(DefaultsError) {
    try set(.data(value), forKey: key)
  }
  public func set(_ value: [PlistValue], forKey key: String) throws(DefaultsError) {
    try set(.array(value), forKey: key)
  }
  public func set(_ value: [String: PlistValue], forKey key: String) throws(DefaultsError) {
    try set(.dictionary(value), forKey: key)
  }

  /// Stores a URL without loss, as Apple's `setURL:forKey:` does: a file URL as its path with
  /// the home folder abbreviated to `~`, any other URL as a keyed-archived `NSURL`.
  public func set(_ url: URL, forKey key: String) throws(DefaultsError) {
    if url.isFileURL {
      try set(.string(PathText.abbreviatingHome(url.path)), forKey: key)
    } else {
      let data: Data
      do {
        data = try KeyedArchiveURL.encode(url)
      } catch {
        throw .unsupportedValue(key: key, type: "URL (\(error))")
      }
      try set(.data(data), forKey: key)
    }
  }

  /// Removes `key` from the application domain, so a registered default shows through.
  public func removeObject(forKey key: String) { change(key, to: nil) }

  /// Removes every key of the application domain.
  public func removeAll() {
    let keys = persistentDomain().keys
    for key in keys { removeObject(forKey: key) }
  }

  /// Adds `defaults` to the registration domain (memory only, never written).
  public func register(defaults: [String: PlistValue]) {
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

  /// Writes pending changes and picks up other processes' changes. Returns `true` on success
  /// (the legacy signature); ``synchronizeOrThrow()`` says why it failed.
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

  /// Reads, changes and writes one key as a single step under the cross-process lock: the
  /// value `transform` sees is the one on disk (with this store's pending changes applied), so
  /// two processes that both append to a list lose neither append. `transform` returns the new
  /// value (nil removes the key). Everything pending is written with it.
  public func update(
    _ key: String, _ transform: (PlistValue?) -> PlistValue?
  ) throws(DefaultsError) {
    guard !key.isEmpty else { throw .emptyKey }
    guard file != nil else {
      let fire = state.withLock { s -> (@Sendable () -> Void)? in
        let before = s.value(key)
        s.pending[key] = .some(transform(s.applicationValue(key)))
        return Self.notification(for: key, before: before, in: s)
      }
      fire?()
      return
    }
    try withoutActuallyEscaping(transform) { (escaping) throws(DefaultsError) in
      try synchronize(applying: (key, escaping))
    }
  }

  private func synchronize(applying update: (String, (PlistValue?) -> PlistValue?)?)
    throws(DefaultsError)
  {
    guard let file else { return }
    let fires = try state.withLock { s throws(DefaultsError) -> [@Sendable () -> Void] in
      var observed = Array(s.observers.keys)
      if let key = update?.0, !observed.contains(key), s.observers[key] != nil {
        observed.append(key)
      }
      let before = observed.map { s.value($0) }
      try file.withLock { () throws(DefaultsError) in
        let disk = try file.read()
        if let recovery = disk.recovery { s.recoveries.append(recovery) }
        var merged = disk.values
        for (key, change) in s.pending { merged[key] = change }
        var changes = s.pending
        if let (key, transform) = update {
          let value = transform(merged[key])
          if let value, let bad = Self.unsupportedType(value) {
            throw .unsupportedValue(key: key, type: bad)
          }
          merged[key] = value
          changes[key] = .some(value)
        }
        let current = disk.format ?? s.format ?? file.newFileFormat
        var format = current
        if !changes.isEmpty {
          format = DomainFile.format(for: merged, current: current)
          for (key, change) in changes {
            if let change { merged[key] = DomainFile.storable(change, in: format) }
          }
          try file.write(merged, format: format)
        }
        s.base = merged
        s.format = disk.format == nil && changes.isEmpty ? nil : format
        s.pending = [:]
      }
      if let globalFile {
        let global = try globalFile.read()
        s.global = global.values
        if let recovery = global.recovery { s.recoveries.append(recovery) }
      }
      return zip(observed, before).compactMap { Self.notification(for: $0.0, before: $0.1, in: s) }
    }
    for fire in fires { fire() }
  }

  // MARK: - Observation

  /// A handle that keeps an observation alive; ``cancel()`` (or releasing it) ends it.
  public final class Observation: Sendable {
    private let end: @Sendable () -> Void
    private let ended = Locked(false)

    init(end: @escaping @Sendable () -> Void) { self.end = end }

    public func cancel() {
      let first = ended.withLock { done -> Bool in
        defer { done = true }
        return !done
      }
      if first { end() }
    }

    deinit { cancel() }
  }

  /// Calls `handler` with the new value (nil: gone) each time the value the search list finds
  /// for `key` changes: by a local write, a registration, or another process's write picked up
  /// by ``synchronize()``.
  public func observe(
    _ key: String, handler: @escaping @Sendable (PlistValue?) -> Void
  ) -> Observation {
    let id = state.withLock { s -> UInt64 in
      s.nextObserver += 1
      s.observers[key, default: [:]][s.nextObserver] = handler
      return s.nextObserver
    }
    return Observation { [weak self] in
      self?.state.withLock { s in
        s.observers[key]?[id] = nil
        if s.observers[key]?.isEmpty == true { s.observers[key] = nil }
      }
    }
  }

  /// The values of `key` as they change (see ``observe(_:handler:)``). The stream ends when
  /// the consuming task is cancelled.
  public func changes(_ key: String) -> AsyncStream<PlistValue?> {
    AsyncStream { continuation in
      let observation = observe(key) { continuation.yield($0) }
      continuation.onTermination = { _ in observation.cancel() }
    }
  }

  private static func notification(for key: String, before: PlistValue?, in s: State)
    -> (@Sendable () -> Void)?
  {
    guard let handlers = s.observers[key], !handlers.isEmpty else { return nil }
    let after = s.value(key)
    guard after != before else { return nil }
    let list = Array(handlers.values)
    return { for handler in list { handler(after) } }
  }
}

extension PathText {
  /// `/home/me/x` → `~/x` (as `stringByAbbreviatingWithTildeInPath`).
  static func abbreviatingHome(_ path: String) -> String {
    guard let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty, home != "/"
    else { return path }
    if path == home { return "~" }
    if path.hasPrefix(home + "/") { return "~" + path.dropFirst(home.count) }
    return path
  }
}

extension DefaultsStore {
  /// Removes the whole application domain: its file is deleted under the lock, and pending
  /// changes are dropped.
  public func removePersistentDomain() throws(DefaultsError) {
    guard let file else {
      removeAll()
      return
    }
    try withState { s throws(DefaultsError) in
      try file.withLock { () throws(DefaultsError) in
        if unlink(file.path) != 0, errno != ENOENT {
          throw .cannotWrite(path: file.path, reason: FileAccess.errnoText(errno))
        }
        s.base = [:]
        s.pending = [:]
        s.format = nil
      }
    }
  }
}
