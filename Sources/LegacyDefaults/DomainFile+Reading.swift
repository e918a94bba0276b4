import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension DomainFile {
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
  enum Contents {
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
  func contents(in held: HeldFolder, keepingBytes: Bool) throws(DefaultsError) -> Result<
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
      case .refused(_, let reason): throw .refused(path: path, reason: reason)
      default: throw .cannotRead(path: path, reason: error.reason)
      }
    }
  }

  /// The domain the file holds.
  func snapshot(of read: Result<Contents?, FileAccess.Failure>) throws(DefaultsError)
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
}
