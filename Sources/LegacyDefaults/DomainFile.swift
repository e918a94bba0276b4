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

/// The one way to a domain file. Every byte that reaches a domain file goes through here:
/// ``DefaultsStore/synchronize()``, `prefs write`/`delete`/`rename`/`import`/`export`/`convert -o`
/// and `prefs migrate` (to a new store and in place).
///
/// - ``read()`` parses the file with its format and reports a file that does not parse
///   (``DomainSnapshot/unreadable``) without touching it; a valid file whose top level is not a
///   dictionary is refused (``DefaultsError/notADictionary(path:type:)``) and left alone.
/// - ``update(_:_:)-(WriteOptions,_)`` takes the in-process lock and the cross-process `flock`
///   of `<file>.lock`, reads the file (once, under the lock), applies the change key by key, and
///   only when a value changed: copies the file first when asked (``Backup``), moves an
///   unparseable file aside, writes a temporary file (mode 0600), flushes it, renames it over
///   the file and flushes the folder. OpenStep text grows into GNUstep's typed text when a value
///   needs it. A symbolic link is refused, never followed or replaced.
/// - ``replaceContents(with:durable:createsFolder:)`` writes bytes a command encoded, exactly,
///   under the same locks.
///
/// Every call holds the file's folder (``HeldFolder``) once and makes every operation — the
/// read, the lock, the temporary file, the rename, the backup, GNUstep's `.lck` — relative to
/// it; root holding another user's folder does all of it as that user (``Credentials``).
///
/// Lock order: GNUstep's lock of the folder when the file is in GNUstep's defaults folder (the
/// `mkdir` lock `.lck/.GNUstepDefaults.lck` a running GNUstep app takes; see ``GNUstepLock``),
/// then the in-process lock of the path, then the `flock`; all held across the re-read, the
/// change and the write, and given back on every path, errors included. GNUstep's lock comes
/// first because it is one for the whole folder: a nested update of another domain there cannot
/// then wait for a domain whose holder waits for the folder. None is ever taken while a
/// ``DefaultsStore``'s state lock is held.
package struct DomainFile: DefaultsStorage, OrderedReloading {
  /// The file, as a URL (the one it was made with, else made from ``path`` when asked for).
  package var url: URL { givenURL ?? URL(fileURLWithPath: path) }
  private let givenURL: URL?
  /// The format a new file gets.
  package let newFileFormat: PlistFormat
  package let limits: PlistLimits
  /// When the cross-process lock is taken (the in-process one always is).
  package var locking = Locking.always
  /// How long a write waits for the domain's locks (prefs' `flock`, GNUstep's `.lck`) before it
  /// gives up with ``DefaultsError/busy(path:lock:waited:)``; nil: as long as it takes (GNUstep's
  /// lock: its own 66 s).
  package var lockTimeout: Double?
  /// Whose reader the file is read as (a store's: its dialect's; a legacy file a migration
  /// carries: its dialect's, exactly).
  package var readOptions = PlistReadOptions.lenient

  package enum Locking: Sendable {
    /// Always, creating `<file>.lock` when it is not there and leaving it once this wrote: a
    /// store's domain.
    case always
    /// Always, but a `<file>.lock` this call created is removed again at its end: a file of
    /// the user's that a command edits (an `Info.plist` in a repository) is locked against
    /// every other prefs writer while it changes, and no lock file is left beside it.
    case transient
    /// Only when `<file>.lock` is there, that is when a writer that takes prefs' lock has
    /// written this file: an output a command writes into a folder of the user's (a batch of
    /// 10,000 migrated files then leaves no 10,000 lock files, nor pays for creating them).
    case whenShared
  }

  package init(url: URL, newFileFormat: PlistFormat = .xml, limits: PlistLimits = .default) {
    self.init(
      parts: FilePathParts(url.path), url: url, newFileFormat: newFileFormat, limits: limits)
  }

  /// The file at `path` (relative: to the current folder), split as `URL(fileURLWithPath:)`
  /// splits it, without making the URL (see ``FilePathParts``): what the command names.
  package init(path: String, newFileFormat: PlistFormat = .xml, limits: PlistLimits = .default) {
    self.init(
      parts: FilePathParts(path), url: nil, newFileFormat: newFileFormat, limits: limits)
  }

  private init(parts: FilePathParts, url: URL?, newFileFormat: PlistFormat, limits: PlistLimits) {
    givenURL = url
    self.newFileFormat = newFileFormat
    self.limits = limits
    // Worked out once: URL's path accessors are slow enough to show in a 10,000-file batch.
    path = parts.path
    folder = parts.folder
    name = parts.name
    lockKey = parts.standardized
    lockName = FileAccess.sibling(of: name, adding: 5) + ".lock"
  }

  package let path: String
  /// The folder the file is in, as named.
  let folder: String
  /// The file's name in its folder.
  package let name: String
  /// The lock file's name in the folder: `<name>.lock`.
  let lockName: String
  /// The in-process lock's name: one per file, however the path was spelled (the path
  /// standardized).
  let lockKey: String

  package var identity: StorageIdentity { .file(url) }

  /// The file of domain `name` in the same folder (the global domain's is
  /// `.GlobalPreferences.plist`).
  package func storage(forDomain name: String) -> (any DefaultsStorage)? {
    let file = name == DefaultsStore.globalDomain ? ".GlobalPreferences" : name
    guard
      case .success = Result(catching: { () throws(DefaultsError) in
        try DomainLocator.validate(file)
      })
    else { return nil }
    var storage = DomainFile(
      url: url.deletingLastPathComponent().appendingPathComponent(file + ".plist"),
      newFileFormat: newFileFormat, limits: limits)
    storage.lockTimeout = lockTimeout
    storage.readOptions = readOptions
    return storage
  }

  // MARK: - The folder

  /// The file's folder, held (see ``HeldFolder``); nil when it does not exist and `creating` is
  /// off.
  package func holdFolder(creating: Bool) throws(DefaultsError) -> HeldFolder? {
    do {
      return try HeldFolder.open(folder, creating: creating)
    } catch {
      switch error {
      case .missing where !creating: return nil
      default:
        throw creating
          ? .cannotWrite(path: path, reason: "its folder: \(error.description)")
          : .cannotRead(path: path, reason: "its folder: \(error.description)")
      }
    }
  }

  // MARK: - Reading

  /// Reads the file, changing nothing. Absent: empty. Does not parse (or is larger than the
  /// input limit): empty, with ``DomainSnapshot/unreadable`` saying why. The snapshot keeps the
  /// file's bytes (``DomainSnapshot/bytes``: a migration's backup copies them).
  package func read() throws(DefaultsError) -> DomainSnapshot {
    try read(keepingBytes: true)
  }

  /// The domain for a store: as ``read()``, without the file's bytes, and a large binary
  /// file never whole in memory (see ``windowedFrom``).
  package func load() throws(DefaultsError) -> DomainSnapshot {
    try read(keepingBytes: false)
  }

  private func read(keepingBytes: Bool) throws(DefaultsError) -> DomainSnapshot {
    guard let held = try holdFolder(creating: false) else { return try snapshot(of: .success(nil)) }
    return try held.acting { () throws(DefaultsError) in
      try snapshot(of: try contents(in: held, keepingBytes: keepingBytes))
    }
  }

  /// The binary files of this size and more that a store reads (``load()``,
  /// ``reload(_:)``) are parsed in windows and digested, never held whole: loading a
  /// 100,000-key domain then costs its values, not its values and its file.
  package static let windowedFrom = 1 << 20

  /// What the file holds, as read for a snapshot.
  private enum Contents {
    /// The whole file.
    case bytes(Data, FileAccess.Ownership)
    /// A large binary file, open, and the digest of its bytes: parsed from the file.
    case windowed(FileAccess.OpenFile, ContentDigest)

    var version: DomainVersion {
      switch self {
      case .bytes(let data, _): .contents(ContentDigest(data))
      case .windowed(_, let digest): .contents(digest)
      }
    }
  }

  /// What the file holds, nil when there is no file, or the failure to read it (larger than
  /// the limit: the file is unreadable, not the read). `keepingBytes` false: a binary file of
  /// ``windowedFrom`` bytes and more is digested and left open, not read whole. Run as whom
  /// the folder is worked in.
  private func contents(in held: HeldFolder, keepingBytes: Bool) throws(DefaultsError) -> Result<
    Contents?, FileAccess.Failure
  > {
    do {
      let file = try held.openForReading(name, limit: limits.maxInputBytes)
      if !keepingBytes, file.size >= Self.windowedFrom,
        file.starts(with: PropertyList.binaryMagic), let digest = try file.digest()
      {
        return .success(.windowed(file, digest))
      }
      // A smaller file, or one changing in place while digested: read whole.
      return .success(.bytes(try file.readAll(), file.ownership))
    } catch {
      switch error {
      case .missing: return .success(nil)
      case .tooLarge: return .failure(error)
      default: throw .cannotRead(path: path, reason: error.reason)
      }
    }
  }

  /// The domain the file holds.
  private func snapshot(of read: Result<Contents?, FileAccess.Failure>) throws(DefaultsError)
    -> DomainSnapshot
  {
    var contents: Contents
    switch read {
    case .success(nil):
      var absent = DomainSnapshot()
      absent.version = .absent
      return absent
    case .success(let found?): contents = found
    case .failure(let error): return unreadable(error.reason)
    }
    let parsed: Result<PlistDocument, PlistError>
    switch contents {
    case .bytes(let data, _):
      parsed = Result { () throws(PlistError) in
        try PropertyList.read(data, options: readOptions, limits: limits)
      }
    case .windowed(let file, _):
      do {
        if let document = try file.binaryDocument(limits: limits, options: readOptions) {
          parsed = document
        } else {
          // Cut while read (a writer writing in place): read whole now, and judged as a
          // whole read is, unreadable if it does not parse.
          let data = try file.readAll()
          contents = .bytes(data, file.ownership)
          parsed = Result { () throws(PlistError) in
            try PropertyList.read(data, options: readOptions, limits: limits)
          }
        }
      } catch {
        throw .cannotRead(path: path, reason: error.reason)
      }
    }
    var snapshot: DomainSnapshot
    switch parsed {
    case .success(let document):
      let values = try Self.domain(of: document, path: path)
      snapshot = DomainSnapshot(values: values, format: document.format)
      snapshot.warnings = document.warnings
    case .failure(let error):
      snapshot = unreadable(error.description)
    }
    if case .bytes(let data, let ownership) = contents {
      snapshot.bytes = data
      snapshot.ownership = ownership
    }
    snapshot.version = contents.version
    return snapshot
  }

  /// The file as it is now (files are replaced atomically: never a half-written one from
  /// prefs or any atomic writer), read under the domain's in-process exclusion so that no
  /// update of this process is half done; nil when `decide` says to skip or the file still
  /// holds what it names (by digest; or is still absent). A file that does not parse comes
  /// back ``DomainSnapshot/unreadable``: a writer that writes in place may be in the middle.
  /// A large binary file is digested under the exclusion and parsed from the same open file
  /// after it (a rename over the path meanwhile does not change what that file holds).
  package func reload(_ decide: () -> ReloadDecision) throws(DefaultsError) -> DomainSnapshot? {
    let exclusion = ExclusionTable.files.acquire(lockKey)
    defer { ExclusionTable.files.release(lockKey) }
    let read = try exclusion.withLock {
      () throws(DefaultsError) -> (Result<Contents?, FileAccess.Failure>, DomainVersion?)? in
      guard case .read(let known) = decide() else { return nil }
      guard let held = try holdFolder(creating: false) else { return (.success(nil), known) }
      return (
        try held.acting { () throws(DefaultsError) in
          try contents(in: held, keepingBytes: false)
        }, known
      )
    }
    guard let (contents, known) = read else { return nil }
    if case .success(let found) = contents, known == found?.version ?? .absent {
      return nil
    }
    return try snapshot(of: contents)
  }

  /// Tells `handler` each time the file may have changed: written (by this process or
  /// another), replaced, created or removed, its folder included (see ``DomainWatcher``: one
  /// watcher for the process, and nothing while no file is observed). nil when this process
  /// cannot watch files.
  package func observeChanges(_ handler: @escaping @Sendable () -> Void) -> (any Sendable)? {
    DomainWatcher.shared.watch(path: lockKey, handler)
  }

  /// Follows the file: calls `handler` with the state before and the state after each change
  /// of its values (another process's write, this process's, a removal; not a rewrite that
  /// changes only the format), on the watcher's thread, one call at a time. A state that does not parse (a writer writing in place,
  /// caught in the middle) is skipped until the writer's close announces the whole file;
  /// announcements of a state already seen are skipped. `initial` is the state the caller
  /// starts from (``read()``). For a command that watches several domains: one call per file,
  /// all on the one watcher.
  package func follow(
    from initial: DomainSnapshot,
    _ handler: @escaping @Sendable (_ previous: DomainSnapshot, _ current: DomainSnapshot) -> Void
  ) -> DomainWatcher.Watch? {
    let last = Locked(initial)
    let file = self
    return DomainWatcher.shared.watch(path: lockKey) {
      let known = last.withLock { $0.version }
      let loaded = Result { () throws(DefaultsError) in
        try file.reload { .read(unlessAt: known) }
      }
      guard case .success(let current?) = loaded, current.unreadable == nil else { return }
      let previous = last.withLock { state -> DomainSnapshot in
        defer { state = current }
        return state
      }
      if previous.values != current.values { handler(previous, current) }
    }
  }

  /// A parsed document as a domain: its dictionary, keys as the file holds them (by their
  /// bytes: two keys that differ only in Unicode normalization are two keys, as CoreFoundation
  /// keeps them), or the one error for a top level that is not a dictionary. Every reader of
  /// domains (the store, the migration, the command's verbs) goes through this.
  package static func domain(of document: PlistDocument, path: String) throws(DefaultsError)
    -> PlistDictionary
  {
    try dictionary(of: document, path: path)
  }

  /// The document's dictionary as the file has it (keys by their bytes), or the error for a
  /// top level that is not a dictionary.
  package static func dictionary(of document: PlistDocument, path: String)
    throws(DefaultsError) -> PlistDictionary
  {
    guard case .dictionary(let values) = document.value else {
      throw .notADictionary(path: path, type: document.value.typeName)
    }
    return values
  }

  private func unreadable(_ reason: String) -> DomainSnapshot {
    DomainSnapshot(unreadable: CorruptFileRecovery(path: path, movedTo: nil, reason: reason))
  }

  // MARK: - Changing

  package func update(
    _ change: (DomainSnapshot) throws(DefaultsError) -> DomainChanges
  ) throws(DefaultsError) -> DomainSnapshot {
    try update(WriteOptions(), change)
  }

  /// How one update writes (the store's: ``WriteOptions/init(format:durable:truncatingDates:always:createsFolder:backup:)``'s
  /// defaults).
  package struct WriteOptions: Sendable {
    /// The format to write (nil: the file's own, or ``DomainFile/newFileFormat`` for a new
    /// file, OpenStep growing into GNUstep text when needed). A different format is written
    /// even when no value changes.
    package var format: PlistFormat?
    /// Flush the file and its folder (off for a batch that flushes once at its end).
    package var durable: Bool
    /// In XML and GNUstep text, drop the fraction of a changed date's second (as Apple's and
    /// GNUstep's writers do); off, such a date is refused by the writer.
    package var truncatingDates: Bool
    /// Write even when no value and not the format changes (a conversion whose output must
    /// be exactly the writer's bytes).
    package var always: Bool
    /// Create a missing folder (mode 0700), as a store does for the preferences folder; off,
    /// a missing folder is an error (an output path named by hand).
    package var createsFolder: Bool
    /// Before a write replaces the file, copy what it held (see ``Backup``); nil: no copy.
    package var backup: Backup?
    /// A change that removes the last key removes the file, as GNUstep's `defaults delete`
    /// and CoreFoundation do: an empty domain is no domain, however it became empty.
    package var removesWhenEmpty = false

    package init(
      format: PlistFormat? = nil, durable: Bool = true, truncatingDates: Bool = true,
      always: Bool = false, createsFolder: Bool = true, backup: Backup? = nil
    ) {
      self.format = format
      self.durable = durable
      self.truncatingDates = truncatingDates
      self.always = always
      self.createsFolder = createsFolder
      self.backup = backup
    }
  }

  /// A copy of the file as it was, made under the domain's locks just before the write that
  /// replaces it (a migration in place): `<name>.backup` (then `.backup-1`, `-2`, … when taken)
  /// beside the file, worked in as the file's folder is, or in `folder`, a folder the
  /// administrator named, with this process's own credentials. A backup there that already
  /// holds exactly these bytes is the copy (a rerun after a failed write makes no second one).
  /// The copy keeps the original's owner, group and mode.
  package struct Backup: Sendable {
    /// Where the copy goes (nil: beside the file).
    package var folder: String?
    /// Told where the copy is as soon as it is made (before the write, which may still fail).
    package var made: @Sendable (String) -> Void

    package init(folder: String?, made: @escaping @Sendable (String) -> Void = { _ in }) {
      self.folder = folder
      self.made = made
    }
  }

  /// One atomic read-change-write under the domain's locks (see the type's documentation):
  /// `change` is given the file as it is under the lock and returns the changes, written as
  /// `options` say.
  package func update(
    _ options: WriteOptions,
    _ change: (DomainSnapshot) throws(DefaultsError) -> DomainChanges
  ) throws(DefaultsError) -> DomainSnapshot {
    guard let held = try holdFolder(creating: options.createsFolder) else {
      throw .cannotWrite(path: path, reason: "the folder \(folder) does not exist")
    }
    return try update(options, in: held, change)
  }

  /// ``update(_:_:)-(WriteOptions,_)`` in `held`, the file's folder, held already.
  package func update(
    _ options: WriteOptions, in held: HeldFolder,
    _ change: (DomainSnapshot) throws(DefaultsError) -> DomainChanges
  ) throws(DefaultsError) -> DomainSnapshot {
    try underLocks(in: held) { (exclusion) throws(DefaultsError) in
      var snapshot = try snapshot(of: try contents(in: held, keepingBytes: true))
      let generation = exclusion.generation
      var changes = try change(snapshot)
      // A nested update (from user code inside `change`) wrote meanwhile: merge onto it.
      if exclusion.generation != generation {
        snapshot = try self.snapshot(of: try contents(in: held, keepingBytes: true))
      }
      let current = snapshot.format ?? newFileFormat
      let target =
        options.format ?? Self.format(for: changes.applied(to: snapshot.values), current: current)
      if options.truncatingDates, target.holdsDatesToTheSecond {
        for (key, value) in changes.assigned { changes[key] = Self.storable(value, in: target) }
      }
      let merged = changes.applied(to: snapshot.values)
      if options.removesWhenEmpty, merged.isEmpty, !snapshot.values.isEmpty,
        snapshot.unreadable == nil
      {
        if let code = held.remove(name), code.code != ENOENT {
          throw .cannotWrite(path: path, reason: code.text)
        }
        exclusion.bump()
        return DomainSnapshot(values: merged, version: .absent)
      }
      // Nothing changes: no write (a file in another format than asked is rewritten; an absent
      // one is never made empty).
      if !options.always, merged == snapshot.values,
        snapshot.format == nil || target == snapshot.format
      {
        snapshot.bytes = nil
        return snapshot
      }
      let data: Data
      do throws(PlistError) {
        data = try PropertyList.write(.dictionary(merged), as: target, xml: Self.xmlOptions)
      } catch {
        throw .cannotEncode(path: path, error: error)
      }
      var recoveries: [CorruptFileRecovery] = []
      var backup: String?
      if let options = options.backup, let bytes = snapshot.bytes {
        backup = try self.backup(bytes, of: snapshot, in: held, options)
      }
      if let unreadable = snapshot.unreadable {
        recoveries.append(try moveAside(in: held, reason: unreadable.reason))
      }
      try write(data, in: held, ownership: snapshot.ownership, durable: options.durable)
      exclusion.bump()
      var result = DomainSnapshot(values: merged, format: target, recoveries: recoveries)
      result.backup = backup
      // What the file holds now: a store skips the announcement of its own write by these.
      result.version = .contents(ContentDigest(data))
      return result
    }
  }

  /// Replaces the file with exactly `data` under the domain's locks (an output a command
  /// encoded: `convert -o`, `export`, `plutil -convert`), whatever the file held; a symbolic
  /// link, a folder or anything else that is not a regular file there is refused, never
  /// replaced. Keeps the owner, group and mode of the file it replaces. `syncingFolder` false:
  /// the file is flushed before its rename, the folder not after it (see
  /// ``HeldFolder/replace(_:with:ownership:durable:syncingFolder:replacing:)``).
  package func replaceContents(
    with data: Data, durable: Bool = true, syncingFolder: Bool = true,
    createsFolder: Bool = false
  ) throws(DefaultsError) {
    guard let held = try holdFolder(creating: createsFolder) else {
      throw .cannotWrite(path: path, reason: "the folder \(folder) does not exist")
    }
    try underLocks(in: held) { (exclusion) throws(DefaultsError) in
      var ownership: FileAccess.Ownership?
      do throws(FileAccess.Failure) {
        if let info = try held.entry(name) {
          guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw FileAccess.Failure.refused(
              path: path,
              reason: "it is \(FileAccess.kindName(info.st_mode & S_IFMT)) (prefs replaces "
                + "files, never links)")
          }
          try held.checkOwned(info, name)
          ownership = FileAccess.Ownership(
            user: info.st_uid, group: info.st_gid, mode: info.st_mode)
        }
      } catch {
        throw .cannotWrite(path: path, reason: error.reason)
      }
      try write(
        data, in: held, ownership: ownership, durable: durable, syncingFolder: syncingFolder)
      exclusion.bump()
    }
  }

  /// Deletes the file under the domain's locks.
  package func removeDomain() throws(DefaultsError) { _ = try removeFile() }

  /// Deletes the file under the domain's locks: whether there was one.
  package func removeFile() throws(DefaultsError) -> Bool {
    guard let held = try holdFolder(creating: false) else { return false }
    return try underLocks(in: held) { (exclusion) throws(DefaultsError) -> Bool in
      if let code = held.remove(name) {
        guard code.code == ENOENT else { throw .cannotWrite(path: path, reason: code.text) }
        return false
      }
      exclusion.bump()
      return true
    }
  }

  /// Runs `body` in `held` as whom the folder is worked in, holding the domain's locks in their
  /// order (see the type's documentation).
  private func underLocks<T>(
    in held: HeldFolder, _ body: (ReentrantExclusion) throws(DefaultsError) -> T
  ) throws(DefaultsError) -> T {
    try held.acting { () throws(DefaultsError) -> T in
      let gnustep = try GNUstepLock.acquire(for: self, in: held)
      defer { gnustep?.release() }
      let exclusion = ExclusionTable.files.acquire(lockKey)
      defer { ExclusionTable.files.release(lockKey) }
      return try exclusion.withLock(outermost: { body throws(DefaultsError) in
        try withFileLock(in: held, exclusion, body)
      }) { () throws(DefaultsError) in try body(exclusion) }
    }
  }

  /// The copy of `bytes` (the file as read under the lock) that ``Backup`` describes; its path.
  private func backup(
    _ bytes: Data, of snapshot: DomainSnapshot, in held: HeldFolder, _ backup: Backup
  ) throws(DefaultsError) -> String {
    func copy(in folder: () throws(FileAccess.Failure) -> HeldFolder) throws(DefaultsError)
      -> String
    {
      do throws(FileAccess.Failure) {
        return try keepCopy(bytes, ownership: snapshot.ownership, in: try folder())
      } catch {
        throw .cannotWrite(path: path, reason: "the backup failed: \(error.description)")
      }
    }
    let made: String
    if let folder = backup.folder {
      // A folder the administrator named: written with the process's own credentials.
      made = try Credentials.asProcess { () throws(DefaultsError) in
        try copy { () throws(FileAccess.Failure) in try HeldFolder.open(folder) }
      }
    } else {
      made = try copy { held }
    }
    backup.made(made)
    return made
  }

  /// `bytes` as `<name>.backup` (or the first `.backup-N` free) in `folder`, atomically, never
  /// over another file; an existing backup that holds exactly `bytes` is the copy.
  private func keepCopy(_ bytes: Data, ownership: FileAccess.Ownership?, in folder: HeldFolder)
    throws(FileAccess.Failure) -> String
  {
    let owner = ownership ?? FileAccess.Ownership.newFile(in: folder)
    for attempt in 0..<10_000 {
      let suffix = attempt == 0 ? ".backup" : ".backup-\(attempt)"
      let candidate = FileAccess.sibling(of: name, adding: suffix.utf8.count) + suffix
      if try folder.entry(candidate) != nil {
        // Already there: the copy, when it holds these bytes.
        if Self.holds(bytes, candidate, in: folder) { return folder.path(of: candidate) }
        continue
      }
      do {
        try folder.replace(candidate, with: bytes, ownership: owner, replacing: false)
        return folder.path(of: candidate)
      } catch {
        // Made meanwhile by another run: the next name.
        if case .cannotCreate(_, let reason) = error, reason == FileAccess.errnoText(EEXIST) {
          continue
        }
        throw error
      }
    }
    throw .cannotCreate(path: folder.path(of: name + ".backup"), reason: "no free backup name")
  }

  /// Whether the file `name` in `folder` holds exactly `bytes` (one that cannot be read, or is
  /// not a regular file, does not: the backup takes the next name, nothing is lost).
  private static func holds(_ bytes: Data, _ name: String, in folder: HeldFolder) -> Bool {
    do {
      let file = try folder.openForReading(name, limit: bytes.count)
      let data = try file.readAll()
      return data == bytes
    } catch {
      return false
    }
  }

  private func moveAside(in held: HeldFolder, reason: String) throws(DefaultsError)
    -> CorruptFileRecovery
  {
    let stamp = Self.utcStamp()
    for attempt in 0..<10_000 {
      let suffix = ".corrupt-" + stamp + (attempt == 0 ? "" : "-\(attempt)")
      let target = FileAccess.sibling(of: name, adding: suffix.utf8.count) + suffix
      guard let code = held.rename(name, toNew: target) else {
        return CorruptFileRecovery(path: path, movedTo: held.path(of: target), reason: reason)
      }
      if code.code == EEXIST { continue }
      throw .cannotWrite(
        path: path,
        reason: "it does not parse (\(reason)) and could not be moved aside: " + code.text)
    }
    throw .cannotWrite(
      path: path, reason: "it does not parse (\(reason)) and no name was free to move it aside")
  }

  static func utcStamp(_ date: Date = Date()) -> String {
    var seconds = time_t(date.timeIntervalSince1970)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    return (parts.tm_year + 1900).zeroPadded(width: 4) + (parts.tm_mon + 1).zeroPadded(width: 2)
      + parts.tm_mday.zeroPadded(width: 2) + "T" + parts.tm_hour.zeroPadded(width: 2)
      + parts.tm_min.zeroPadded(width: 2) + parts.tm_sec.zeroPadded(width: 2) + "Z"
  }

  /// Runs `body` holding an exclusive `flock` on `<file>.lock`, shared by every process that
  /// uses prefs on this domain.
  ///
  /// The lock file is opened in the held folder without following a link and without waiting
  /// (a FIFO planted there is refused), and judged on its descriptor as any file root reads
  /// in a user's folder is. A lock file this call created is removed again, still locked, when
  /// the call wrote nothing (it failed, or changed nothing): a command that fails leaves
  /// nothing behind; and, for ``Locking/transient``, always. Every locker therefore checks,
  /// once it holds the lock, that the name still names the file it locked, and starts again
  /// when it does not. The wait ends at ``lockTimeout``.
  private func withFileLock<T>(
    in held: HeldFolder, _ exclusion: ReentrantExclusion, _ body: () throws(DefaultsError) -> T
  ) throws(DefaultsError) -> T {
    let wait = LockWait(timeout: lockTimeout)
    while true {
      var created = false
      var opened = held.open(lockName, flags: O_RDWR)
      if case .failure(let code) = opened, code.code == ENOENT {
        if locking == .whenShared { return try body() }
        opened = held.open(lockName, flags: O_RDWR, create: true)
        if case .failure(let code) = opened, code.code == EEXIST { continue }
        if case .success = opened { created = true }
      }
      let fd: Int32
      switch opened {
      case .success(let opened): fd = opened
      case .failure(let code):
        throw .cannotLock(
          path: path, reason: "cannot open its lock file \(held.path(of: lockName)): \(code.text)")
      }
      defer { close(fd) }
      var info = stat()
      guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
        if created { held.remove(lockName) }
        throw .cannotLock(
          path: path,
          reason: "its lock file \(held.path(of: lockName)) is "
            + FileAccess.kindName(info.st_mode & S_IFMT) + ", not a regular file")
      }
      do {
        try held.checkOwned(info, lockName)
      } catch {
        throw .cannotLock(path: path, reason: "its lock file: \(error.reason)")
      }
      if created {
        let owner = FileAccess.Ownership.newFile(in: held, mode: 0o600)
        let code = owner.apply(to: fd)
        if code != 0 {
          held.remove(lockName)
          throw .cannotLock(
            path: path,
            reason: "cannot give its lock file \(held.path(of: lockName)) its owner: "
              + FileAccess.errnoText(code))
        }
      }
      do {
        try wait.lock(fd)
      } catch {
        if created { held.remove(lockName) }
        switch error {
        case .busy(let waited):
          throw .busy(path: path, lock: held.path(of: lockName), waited: waited)
        case .failed(let code):
          throw .cannotLock(
            path: path, reason: "cannot lock \(held.path(of: lockName)): \(code.text)")
        }
      }
      defer { flock(fd, LOCK_UN) }
      // A locker that created the file and wrote nothing removed it while this one waited:
      // what this holds is no longer the domain's lock.
      let now: stat?
      do {
        now = try held.entry(lockName)
      } catch {
        throw .cannotLock(path: path, reason: "its lock file: \(error.reason)")
      }
      guard let now, now.st_ino == info.st_ino, now.st_dev == info.st_dev else { continue }
      guard created else { return try body() }
      let generation = exclusion.generation
      do {
        let result = try body()
        if locking == .transient || exclusion.generation == generation { held.remove(lockName) }
        return result
      } catch {
        held.remove(lockName)
        throw error
      }
    }
  }

  /// Removes temporary files a writer killed between creating and renaming them left behind.
  /// Called holding the lock: every live writer of this domain holds it while its temporary
  /// file exists, so any other one is a leftover.
  ///
  /// A folder is listed once a process: listing it at every write made a batch of N files into
  /// one folder take N² directory reads (10,000 migrated files: 22 s instead of 0.8 s). A name
  /// listed then and still there while this domain's lock is held is a leftover (a live
  /// writer's temporary file exists only while it holds the lock); one left by a writer killed
  /// after the listing is removed by a later process.
  func removeLeftoverTemporaryFiles(in held: HeldFolder) {
    let prefix = HeldFolder.temporaryPrefix(for: name)
    let mine = Self.temporaryNames.withLock { cache -> [String] in
      if cache[held.path] == nil {
        // A folder that cannot be listed leaves leftovers for a later write: nothing is lost.
        let names = held.names(where: Self.isTemporaryLooking) ?? []
        cache[held.path] = Set(names)
      }
      let found = cache[held.path, default: []].filter {
        $0.hasPrefix(prefix) && $0.utf8.count == prefix.utf8.count + 6
      }
      cache[held.path]?.subtract(found)
      return Array(found)
    }
    for name in mine { held.remove(name) }
  }

  /// Whether a name's bytes look like a temporary file's: a leading `.` and `.tmp-` in it.
  private static func isTemporaryLooking(_ name: UnsafeRawBufferPointer) -> Bool {
    let marker: [UInt8] = Array(".tmp-".utf8)
    guard name.first == UInt8(ascii: "."), name.count >= marker.count + 1 else { return false }
    for start in 1...(name.count - marker.count) {
      var match = true
      for i in 0..<marker.count where name[start + i] != marker[i] {
        match = false
        break
      }
      if match { return true }
    }
    return false
  }

  /// Per folder, the temporary-looking names its one listing found and no write removed yet.
  private static let temporaryNames = Locked([String: Set<String>]())

  /// How a domain file's XML is written (and a dry run checks it): text as CoreFoundation
  /// writes it, dates never truncated by the writer (``WriteOptions/truncatingDates`` decides
  /// before).
  ///
  /// XML is written as CoreFoundation writes a domain file, text included: a control
  /// character that a file (or an app) holds is written as it is, as CoreFoundation writes
  /// and reads it, never a reason to refuse to rewrite the domain (as is a leading U+FEFF,
  /// which CoreFoundation's reader and prefs' then drop). Dates are not truncated here:
  /// ``WriteOptions/truncatingDates`` decided before.
  package static let xmlOptions = XMLWriteOptions(truncatingDates: false, lenient: true)

  /// Replaces the file with `data`, atomically, keeping `ownership` (the replaced file's; a new
  /// file's as ``FileAccess/Ownership/newFile(in:mode:)`` says).
  private func write(
    _ data: Data, in held: HeldFolder, ownership: FileAccess.Ownership?, durable: Bool,
    syncingFolder: Bool = true
  ) throws(DefaultsError) {
    removeLeftoverTemporaryFiles(in: held)
    do {
      try held.replace(
        name, with: data, ownership: ownership ?? .newFile(in: held), durable: durable,
        syncingFolder: syncingFolder)
    } catch {
      throw .cannotWrite(path: path, reason: error.description)
    }
  }

  /// The format to write `values` in, given the file's current format: the file's own, except
  /// that OpenStep text grows into GNUstep's typed text when a value needs it.
  package static func format(for values: PlistDictionary, current: PlistFormat) -> PlistFormat {
    guard current == .openStep else { return current }
    return values.values.allSatisfy(isOpenStepText) ? .openStep : .gnustep
  }

  private static func isOpenStepText(_ value: PlistValue) -> Bool {
    switch value {
    case .string, .data: true
    case .array(let a): a.allSatisfy(isOpenStepText)
    case .dictionary(let d): d.values.allSatisfy(isOpenStepText)
    default: false
    }
  }

  /// The values as a text format stores them: XML and GNUstep text hold dates to the whole
  /// second (as Apple's and GNUstep's writers do), so the fraction is dropped before writing and
  /// the in-memory view matches the file.
  package static func storable(_ value: PlistValue, in format: PlistFormat) -> PlistValue {
    guard format.holdsDatesToTheSecond else { return value }
    switch value {
    case .date(let d):
      return .date(
        Date(timeIntervalSinceReferenceDate: d.timeIntervalSinceReferenceDate.rounded(.down)))
    case .array(let a): return .array(a.map { storable($0, in: format) })
    case .dictionary(let d): return .dictionary(d.mapValues { storable($0, in: format) })
    default: return value
    }
  }
}

/// A wait for a lock that ends at a deadline.
struct LockWait {
  /// Seconds; nil: no deadline.
  var timeout: Double?

  enum Failure: Error {
    /// Not had in `waited` seconds.
    case busy(waited: Double)
    case failed(Errno)
  }

  /// An exclusive `flock` on `fd`: waited for without end, or polled (1 ms, doubling to 50 ms)
  /// until the deadline.
  func lock(_ fd: Int32) throws(Failure) {
    guard let timeout else {
      while flock(fd, LOCK_EX) != 0 {
        if errno != EINTR { throw .failed(Errno(errno)) }
      }
      return
    }
    let start = ContinuousClock.now
    var pause: UInt32 = 1_000
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR else { throw .failed(Errno(errno)) }
      let waited = start.duration(to: .now).seconds
      if waited >= timeout { throw .busy(waited: waited) }
      usleep(min(pause, UInt32(max(1, (timeout - waited) * 1e6))))
      pause = min(pause * 2, 50_000)
    }
  }
}

extension Duration {
  /// The duration in seconds.
  var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}

/// The in-process locks of one kind of domain (files by path, `UserDefaults` domains by name),
/// one per domain while someone uses it: threads of one process serialize here (before the
/// `flock`, for a file), and a thread that already holds a domain's lock (a nested update from
/// user code) goes on without taking the `flock` a second time.
package final class ExclusionTable: Sendable {
  static let files = ExclusionTable()
  package static let userDefaults = ExclusionTable()

  private let table = Locked<[String: (exclusion: ReentrantExclusion, users: Int)]>([:])

  package func acquire(_ name: String) -> ReentrantExclusion {
    table.withLock { entries in
      let entry = entries[name] ?? (ReentrantExclusion(), 0)
      entries[name] = (entry.exclusion, entry.users + 1)
      return entry.exclusion
    }
  }

  package func release(_ name: String) {
    table.withLock { entries in
      guard let entry = entries[name] else { return }
      entries[name] = entry.users > 1 ? (entry.exclusion, entry.users - 1) : nil
    }
  }
}
