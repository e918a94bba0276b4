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
/// - ``update(format:durable:truncatingDates:_:)`` takes the in-process lock and the
///   cross-process `flock` of `<file>.lock` (opened `O_NOFOLLOW`), re-reads, applies the change
///   key by key, and only when a value changed: moves an unparseable file aside, writes a
///   temporary file (mode 0600), flushes it, renames it over the file and flushes the folder.
///   OpenStep text grows into GNUstep's typed text when a value needs it. A symbolic link is
///   refused, never followed or replaced.
///
/// Lock order: GNUstep's lock of the folder when the file is in GNUstep's defaults folder (the
/// `mkdir` lock `.lck/.GNUstepDefaults.lck` a running GNUstep app takes; see ``GNUstepLock``),
/// then the in-process lock of the path, then the `flock`; all held across the re-read, the
/// change and the write, and given back on every path, errors included. GNUstep's lock comes
/// first because it is one for the whole folder: a nested update of another domain there cannot
/// then wait for a domain whose holder waits for the folder. None is ever taken while a
/// ``DefaultsStore``'s state lock is held.
package struct DomainFile: DefaultsStorage, OrderedReloading {
  package let url: URL
  /// The format a new file gets.
  package let newFileFormat: PlistFormat
  package let limits: PlistLimits
  /// When the cross-process lock is taken (the in-process one always is).
  package var locking = Locking.always
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
    self.url = url
    self.newFileFormat = newFileFormat
    self.limits = limits
    // Worked out once: URL's path accessors are slow enough to show in a 10,000-file batch.
    path = url.path
    folder = url.deletingLastPathComponent().path
    lockKey = url.standardizedFileURL.path
  }

  package let path: String
  /// The folder the file is in.
  let folder: String
  var lockPath: String { path + ".lock" }
  /// The in-process lock's name: one per file, however the path was spelled.
  private let lockKey: String

  package var location: DefaultsStore.Location { .file(url) }

  /// The file of domain `name` in the same folder (the global domain's is
  /// `.GlobalPreferences.plist`).
  package func storage(forDomain name: String) -> (any DefaultsStorage)? {
    let file = name == DefaultsStore.globalDomain ? ".GlobalPreferences" : name
    guard
      case .success = Result(catching: { () throws(DefaultsError) in
        try DomainLocator.validate(file)
      })
    else { return nil }
    var sibling = DomainFile(
      url: url.deletingLastPathComponent().appendingPathComponent(file + ".plist"),
      newFileFormat: newFileFormat, limits: limits)
    sibling.readOptions = readOptions
    return sibling
  }

  // MARK: - Reading

  /// Reads the file, changing nothing. Absent: empty. Does not parse (or is larger than the
  /// input limit): empty, with ``DomainSnapshot/unreadable`` saying why. The snapshot keeps the
  /// file's bytes (``DomainSnapshot/bytes``: a migration's backup copies them).
  package func read() throws(DefaultsError) -> DomainSnapshot {
    try refuseSymbolicLink()
    return try snapshot(of: try contents(keepingBytes: true))
  }

  /// The binary files of this size and more that a store reads (``load()``,
  /// ``reload(_:)``) are parsed in windows and digested, never held whole: loading a
  /// 100,000-key domain then costs its values, not its values and its file.
  package static let windowedFrom = 1 << 20

  /// What the file holds, as read for a snapshot.
  private enum Contents {
    /// The whole file.
    case bytes(Data)
    /// A large binary file, open, and the digest of its bytes: parsed from the file.
    case windowed(FileAccess.OpenFile, ContentDigest)

    var version: DomainVersion {
      switch self {
      case .bytes(let data): .contents(ContentDigest(data))
      case .windowed(_, let digest): .contents(digest)
      }
    }
  }

  /// What the file holds, nil when there is no file, or the failure to read it (larger than
  /// the limit: the file is unreadable, not the read). `keepingBytes` false: a binary file of
  /// ``windowedFrom`` bytes and more is digested and left open, not read whole.
  private func contents(keepingBytes: Bool) throws(DefaultsError) -> Result<
    Contents?, FileAccess.Failure
  > {
    do {
      let file = try FileAccess.openForReading(path, limit: limits.maxInputBytes)
      if !keepingBytes, file.size >= Self.windowedFrom,
        file.starts(with: PropertyList.binaryMagic), let digest = try file.digest()
      {
        return .success(.windowed(file, digest))
      }
      // A smaller file, or one changing in place while digested: read whole.
      return .success(.bytes(try file.readAll()))
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
    case .bytes(let data):
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
          contents = .bytes(data)
          parsed = Result { () throws(PlistError) in
            try PropertyList.read(data, options: readOptions, limits: limits)
          }
        }
      } catch {
        throw .cannotRead(path: path, reason: error.reason)
      }
    }
    let document: PlistDocument
    switch parsed {
    case .success(let parsed): document = parsed
    case .failure(let error): return unreadable(error.description)
    }
    let values = try Self.domain(of: document, path: path)
    var snapshot = DomainSnapshot(values: values, format: document.format)
    if case .bytes(let data) = contents { snapshot.bytes = data }
    snapshot.warnings = document.warnings
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
      try refuseSymbolicLink()
      return (try contents(keepingBytes: false), known)
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

  /// A parsed document as a domain: its dictionary, or the one error for a top level that is
  /// not a dictionary, or keys a dictionary cannot keep apart. Every reader of domains (the
  /// store, the migration, the command's verbs) goes through this.
  package static func domain(of document: PlistDocument, path: String) throws(DefaultsError)
    -> PlistDictionary
  {
    let values = try dictionary(of: document, path: path)
    for case .indistinctKeys(let first, let second, _) in document.warnings {
      throw .indistinctKeys(path: path, keys: [first, second])
    }
    return values
  }

  /// The document's dictionary as the file has it (keys by their bytes), or the error for a
  /// top level that is not a dictionary: for a reader of one key, which need not refuse keys
  /// that a Swift dictionary could not keep apart.
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

  /// The domain for a store: as ``read()``, without the file's bytes, and a large binary
  /// file never whole in memory (see ``windowedFrom``).
  package func load() throws(DefaultsError) -> DomainSnapshot {
    try refuseSymbolicLink()
    return try snapshot(of: try contents(keepingBytes: false))
  }

  /// A domain file that is a symbolic link is refused: writes replace the file by renaming
  /// over it, which would silently turn the link into a plain file, and a link planted by
  /// someone else could point the domain anywhere.
  package func refuseSymbolicLink() throws(DefaultsError) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    if (info.st_mode & S_IFMT) == S_IFLNK {
      throw .cannotRead(
        path: path, reason: "it is a symbolic link (prefs replaces domain files, never links)")
    }
  }

  // MARK: - Changing

  package func update(
    _ change: (DomainSnapshot) throws(DefaultsError) -> DomainChanges
  ) throws(DefaultsError) -> DomainSnapshot {
    try update(WriteOptions(), change)
  }

  /// How one update writes (the store's: ``WriteOptions/init(format:durable:truncatingDates:always:createsFolder:)``'s
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

    package init(
      format: PlistFormat? = nil, durable: Bool = true, truncatingDates: Bool = true,
      always: Bool = false, createsFolder: Bool = true
    ) {
      self.format = format
      self.durable = durable
      self.truncatingDates = truncatingDates
      self.always = always
      self.createsFolder = createsFolder
    }
  }

  /// One atomic read-change-write under the domain's locks (see the type's documentation):
  /// `change` is given the file as it is under the lock and returns the changes, written as
  /// `options` say.
  package func update(
    _ options: WriteOptions,
    _ change: (DomainSnapshot) throws(DefaultsError) -> DomainChanges
  ) throws(DefaultsError) -> DomainSnapshot {
    try refuseSymbolicLink()
    if !options.createsFolder {
      guard FileAccess.isFolder(folder) else {
        throw .cannotWrite(path: path, reason: "the folder \(folder) does not exist")
      }
    }
    let gnustep = try GNUstepLock.acquire(for: self)
    defer { gnustep?.release() }
    let exclusion = ExclusionTable.files.acquire(lockKey)
    defer { ExclusionTable.files.release(lockKey) }
    return try exclusion.withLock(outermost: { body throws(DefaultsError) in
      try withFileLock(exclusion, body)
    }) { () throws(DefaultsError) in
      var snapshot = try read()
      let generation = exclusion.generation
      var changes = try change(snapshot)
      // A nested update (from user code inside `change`) wrote meanwhile: merge onto it.
      if exclusion.generation != generation { snapshot = try read() }
      let current = snapshot.format ?? newFileFormat
      let target =
        options.format ?? Self.format(for: changes.applied(to: snapshot.values), current: current)
      if options.truncatingDates, target == .xml || target == .gnustep {
        for (key, value) in changes.assigned { changes[key] = Self.storable(value, in: target) }
      }
      let merged = changes.applied(to: snapshot.values)
      let sameFormat = snapshot.format != nil && target == snapshot.format
      if !options.always, merged == snapshot.values,
        sameFormat || (snapshot.format == nil && options.format == nil)
      {
        snapshot.bytes = nil
        return snapshot
      }
      var recoveries: [CorruptFileRecovery] = []
      if let unreadable = snapshot.unreadable {
        recoveries.append(try moveAside(reason: unreadable.reason))
      }
      let written = try write(merged, format: target, durable: options.durable)
      exclusion.bump()
      var result = DomainSnapshot(values: merged, format: target, recoveries: recoveries)
      // What the file holds now: a store skips the announcement of its own write by these.
      result.version = .contents(ContentDigest(written))
      return result
    }
  }

  /// Deletes the file under the domain's locks.
  package func removeDomain() throws(DefaultsError) {
    try refuseSymbolicLink()
    let gnustep = try GNUstepLock.acquire(for: self)
    defer { gnustep?.release() }
    let exclusion = ExclusionTable.files.acquire(lockKey)
    defer { ExclusionTable.files.release(lockKey) }
    try exclusion.withLock(outermost: { body throws(DefaultsError) in
      try withFileLock(exclusion, body)
    }) { () throws(DefaultsError) in
      if unlink(path) == 0 {
        exclusion.bump()
      } else if errno != ENOENT {
        throw .cannotWrite(path: path, reason: FileAccess.errnoText(errno))
      }
    }
  }

  private func moveAside(reason: String) throws(DefaultsError) -> CorruptFileRecovery {
    let stamp = Self.utcStamp()
    var target = path + ".corrupt-" + stamp
    var attempt = 1
    while FileManager.default.fileExists(atPath: target) {
      target = path + ".corrupt-" + stamp + "-\(attempt)"
      attempt += 1
    }
    guard rename(path, target) == 0 else {
      throw .cannotWrite(
        path: path,
        reason: "it does not parse (\(reason)) and could not be moved aside: "
          + FileAccess.errnoText(errno))
    }
    return CorruptFileRecovery(path: path, movedTo: target, reason: reason)
  }

  static func utcStamp(_ date: Date = Date()) -> String {
    var seconds = time_t(date.timeIntervalSince1970)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    return (parts.tm_year + 1900).zeroPadded(width: 4) + (parts.tm_mon + 1).zeroPadded(width: 2)
      + parts.tm_mday.zeroPadded(width: 2) + "T" + parts.tm_hour.zeroPadded(width: 2)
      + parts.tm_min.zeroPadded(width: 2) + parts.tm_sec.zeroPadded(width: 2) + "Z"
  }

  /// Creates the folder (mode 0700, owned as its parent folder's owner when that is not this
  /// process's user) when it is missing.
  func ensureFolder() throws(DefaultsError) {
    do {
      try FileAccess.createFolder(folder)
    } catch {
      guard case .cannotCreate(let failed, let reason) = error else {
        throw .cannotWrite(path: path, reason: error.description)
      }
      throw .cannotWrite(path: path, reason: "cannot create the folder \(failed): \(reason)")
    }
  }

  /// Runs `body` holding an exclusive `flock` on `<file>.lock`, shared by every process that
  /// uses prefs on this domain.
  ///
  /// The lock file is opened without following a link and without waiting (a FIFO planted
  /// there is refused), and belongs to the domain file's owner (or, for a new domain, the
  /// folder's). A lock file this call created is removed again, still locked, when the call
  /// wrote nothing (it failed, or changed nothing): a command that fails leaves nothing behind;
  /// and, for ``Locking/transient``, always.
  /// Every locker therefore checks, once it holds the lock, that the path still names the
  /// file it locked, and starts again when it does not.
  private func withFileLock<T>(
    _ exclusion: ReentrantExclusion, _ body: () throws(DefaultsError) -> T
  ) throws(DefaultsError) -> T {
    try ensureFolder()
    while true {
      var created = false
      var fd = open(lockPath, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
      if fd < 0, errno == ENOENT {
        if locking == .whenShared { return try body() }
        fd = open(lockPath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        if fd < 0, errno == EEXIST { continue }
        created = fd >= 0
      }
      guard fd >= 0 else {
        throw .cannotLock(
          path: path,
          reason: "cannot open its lock file \(lockPath): \(FileAccess.errnoText(errno))")
      }
      defer { close(fd) }
      var info = stat()
      guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
        if created { unlink(lockPath) }
        throw .cannotLock(
          path: path,
          reason: "its lock file \(lockPath) is "
            + FileAccess.kindName(info.st_mode & S_IFMT) + ", not a regular file")
      }
      if created {
        let owner = FileAccess.Ownership.of(path) ?? .newFile(in: folder)
        let code = FileAccess.Ownership(user: owner.user, group: owner.group, mode: 0o600)
          .apply(to: fd)
        if code != 0 {
          unlink(lockPath)
          throw .cannotLock(
            path: path,
            reason: "cannot give its lock file \(lockPath) its owner: \(FileAccess.errnoText(code))"
          )
        }
      }
      while flock(fd, LOCK_EX) != 0 {
        if errno != EINTR {
          if created { unlink(lockPath) }
          throw .cannotLock(
            path: path, reason: "cannot lock \(lockPath): \(FileAccess.errnoText(errno))")
        }
      }
      defer { flock(fd, LOCK_UN) }
      // A locker that created the file and wrote nothing removed it while this one waited:
      // what this holds is no longer the domain's lock.
      var current = stat()
      guard stat(lockPath, &current) == 0, current.st_ino == info.st_ino,
        current.st_dev == info.st_dev
      else { continue }
      guard created else { return try body() }
      let generation = exclusion.generation
      do {
        let result = try body()
        if locking == .transient || exclusion.generation == generation { unlink(lockPath) }
        return result
      } catch {
        unlink(lockPath)
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
  func removeLeftoverTemporaryFiles() {
    let prefix = "." + url.lastPathComponent + ".tmp-"
    let mine = Self.temporaryNames.withLock { cache -> [String] in
      if cache[folder] == nil {
        // A folder that cannot be listed leaves leftovers for a later write: nothing is lost.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        cache[folder] = Set(names.filter { $0.hasPrefix(".") && $0.contains(".tmp-") })
      }
      let found = cache[folder, default: []].filter {
        $0.hasPrefix(prefix) && $0.count == prefix.count + 6
      }
      cache[folder]?.subtract(found)
      return Array(found)
    }
    for name in mine { unlink(folder + "/" + name) }
  }

  /// Per folder, the temporary-looking names its one listing found and no write removed yet.
  private static let temporaryNames = Locked([String: Set<String>]())

  /// How a domain file's XML is written (and a dry run checks it): text as CoreFoundation
  /// writes it, dates never truncated by the writer (``WriteOptions/truncatingDates`` decides
  /// before).
  package static let xmlOptions = XMLWriteOptions(truncatingDates: false, lenient: true)

  /// Replaces the file with `values` in `format`, atomically; returns the bytes written.
  ///
  /// XML is written as CoreFoundation writes a domain file, text included: a control
  /// character that a file (or an app) holds is written as it is, as CoreFoundation writes
  /// and reads it, never a reason to refuse to rewrite the domain (as is a leading U+FEFF,
  /// which CoreFoundation's reader and prefs' then drop). Dates are not truncated here:
  /// ``WriteOptions/truncatingDates`` decided before.
  private func write(_ values: PlistDictionary, format: PlistFormat, durable: Bool)
    throws(DefaultsError) -> Data
  {
    removeLeftoverTemporaryFiles()
    let data: Data
    do {
      data = try PropertyList.write(.dictionary(values), as: format, xml: Self.xmlOptions)
    } catch {
      throw .cannotEncode(path: path, error: error)
    }
    do {
      try FileAccess.atomicWrite(data, to: path, durable: durable)
    } catch {
      throw .cannotWrite(path: path, reason: error.description)
    }
    return data
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
    guard format == .xml || format == .gnustep else { return value }
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
