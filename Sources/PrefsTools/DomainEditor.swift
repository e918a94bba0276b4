import LegacyDefaults
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

/// The command's reads and changes of one domain, the same for every verb and spelling
/// (`prefs write`, `defaults write`, `plutil -replace`, …): reads go through the domain file's
/// one way in, changes through its one way out (lock, re-read, key-by-key change, atomic
/// write). A change that fails, or finds nothing to do, writes and creates nothing.
package struct DomainEditor: Sendable {
  package let domain: Domain
  /// For the hint of a missing domain.
  let resolver: DomainResolver

  package init(_ domain: Domain, resolver: DomainResolver) {
    self.domain = domain
    self.resolver = resolver
  }

  // MARK: - Reading

  /// The domain as it is now, read without locking, moving or creating anything.
  package func inspect() throws(ToolError) -> DomainSnapshot {
    // Reading needs no routing: a file is read as it is.
    let storage: any DefaultsStorage =
      if case .file(let path) = domain.place {
        DomainFile(path: path)
      } else {
        domain.storage
      }
    do {
      return try storage.load()
    } catch {
      throw .store(error)
    }
  }

  /// Whether the domain exists: its file (even one that does not parse), or a `UserDefaults`
  /// domain with a key.
  package func exists(_ snapshot: DomainSnapshot) -> Bool {
    switch domain.place {
    case .file: snapshot.format != nil || snapshot.unreadable != nil
    case .storage: !snapshot.values.isEmpty
    }
  }

  /// The domain's values, for a change that needs it to exist (delete, rename): a missing
  /// domain is ``ToolError/noSuchDomain(_:hint:)``, a file that does not parse is an error.
  package func existingValues() throws(ToolError) -> PlistDictionary {
    let snapshot = try inspect()
    if let unreadable = snapshot.unreadable {
      throw .read(.malformed(path: domain.name, reason: unreadable.reason))
    }
    guard exists(snapshot) else { throw resolver.missing(domain) }
    return snapshot.values
  }

  /// The domain as a document, for the verbs that print it: a file as it parses (any top
  /// level, with its format and warnings), a `UserDefaults` domain as its dictionary.
  package func document() throws(ToolError) -> PlistDocument {
    switch domain.place {
    case .file(let path):
      do {
        return try DomainFile.document(atPath: path)
      } catch {
        throw missingOr(error)
      }
    case .storage:
      let snapshot = try inspect()
      guard exists(snapshot) else { throw resolver.missing(domain) }
      return PlistDocument(value: .dictionary(snapshot.values), format: .binary)
    }
  }

  /// The value of one key, with the warnings of a full read when one was needed (a binary
  /// file decodes only that value). A missing domain or key is an error.
  package func value(forKey key: String) throws(ToolError) -> (
    value: PlistValue, warnings: [PlistWarning]
  ) {
    let (value, warnings, _) = try lookUp(key)
    return (value, warnings)
  }

  /// The value of one key as `dialect`'s store reads it from this domain (see
  /// ``adopted(_:readFrom:by:)``), with the warnings of a full read.
  package func value(forKey key: String, as dialect: Dialect) throws(ToolError) -> (
    value: PlistValue, warnings: [PlistWarning]
  ) {
    let (value, warnings, format) = try lookUp(key)
    return (Self.adopted([key: value], readFrom: format, by: dialect)[key] ?? value, warnings)
  }

  /// What `dialect`'s store holds after reading `values` from a file of `format`: its reader's
  /// adjustments, made by the store itself (`Dialect.adopting`: GNUstep's XML reader clamps an
  /// integer above Int64.max to Int64.max). The one place the command applies them, so that a
  /// getter run by the command answers what the same getter answers in an app.
  package static func adopted(
    _ values: PlistDictionary, readFrom format: PlistFormat?, by dialect: Dialect
  ) -> PlistDictionary {
    dialect.adopting(values, readFrom: format)
  }

  /// One key's value, the warnings of a full read, and the format it was read from (nil: not a
  /// file).
  private func lookUp(_ key: String) throws(ToolError) -> (
    value: PlistValue, warnings: [PlistWarning], format: PlistFormat?
  ) {
    let missingKey = ToolError.noSuchKey(key, domain: domain.name)
    guard case .file(let path) = domain.place else {
      guard let value = try document().value.dictionaryValue?[key] else { throw missingKey }
      return (value, [], nil)
    }
    let lookup: KeyLookup
    do {
      lookup = try DomainFile.value(forKey: key, atPath: path)
    } catch {
      throw missingOr(error)
    }
    switch lookup {
    // Only a binary file's key is decoded alone.
    case .found(let value): return (value, [], .binary)
    case .absent: throw missingKey
    case .read(let document):
      // The key as the file has it, by its bytes (as the lookup and CoreFoundation match).
      let values: PlistDictionary
      do {
        values = try DomainFile.dictionary(of: document, path: path)
      } catch {
        throw .store(error)
      }
      guard let value = values[key] else { throw missingKey }
      return (value, document.warnings, document.format)
    }
  }

  /// A domain given by path that is not there is a missing domain (1), not a missing file.
  private func missingOr(_ error: DomainReadError) -> ToolError {
    if case .file(.missing) = error { return resolver.missing(domain) }
    return .read(error)
  }

  // MARK: - Changing

  /// Changes the domain through its one way in and out: the file is read once, under its lock
  /// (a lock file this made beside a file that is not a domain is removed again). `change` sees
  /// the domain as it is under the lock; a failure it throws writes nothing. Returns the files
  /// moved aside (to be said once).
  ///
  /// A date with a fraction of a second is refused by XML and GNUstep text files (naming the
  /// key) unless `truncatingDates`, which writes it to the whole second.
  ///
  /// `existing`: the change needs the domain to exist (delete, rename): a missing domain is
  /// ``ToolError/noSuchDomain(_:hint:)`` and a file that does not parse an error, found under
  /// the lock; no folder is created.
  package func update(
    truncatingDates: Bool = false, existing: Bool = false,
    _ change: (DomainSnapshot) throws(ToolError) -> DomainChanges
  ) throws(ToolError) -> [CorruptFileRecovery] {
    try updated(truncatingDates: truncatingDates, existing: existing, change).recoveries
  }

  /// ``update(truncatingDates:existing:_:)``, returning the domain as the update left it.
  func updated(
    truncatingDates: Bool, existing: Bool = false,
    _ change: (DomainSnapshot) throws(ToolError) -> DomainChanges
  ) throws(ToolError) -> DomainSnapshot {
    if existing, domain.file == nil { _ = try existingValues() }
    var failure: ToolError?
    func body(_ current: DomainSnapshot) -> DomainChanges {
      do throws(ToolError) {
        if existing, domain.file != nil {
          if let unreadable = current.unreadable {
            throw .read(.malformed(path: domain.name, reason: unreadable.reason))
          }
          guard current.format != nil else { throw resolver.missing(domain) }
        }
        return try change(current)
      } catch {
        failure = error
        return [:]
      }
    }
    let snapshot: DomainSnapshot
    if let file = domain.file {
      var options = DomainFile.WriteOptions(
        truncatingDates: truncatingDates, createsFolder: !existing && domain.inPreferencesFolder)
      // An edit of an existing domain that removes its last key removes the domain.
      options.removesWhenEmpty = existing
      let held: HeldFolder?
      do {
        held = try file.holdFolder(creating: options.createsFolder)
      } catch {
        throw .store(error)
      }
      guard let held else {
        // No folder: no domain (for a change that needs one), or a folder named by hand.
        if existing { throw resolver.missing(domain) }
        throw .store(
          .cannotWrite(
            path: file.path,
            reason: "the folder \(file.url.deletingLastPathComponent().path) does not exist"))
      }
      do {
        snapshot = try file.update(options, in: held, body)
      } catch {
        throw .store(error)
      }
    } else {
      do {
        snapshot = try domain.storage.update(body)
      } catch {
        throw .store(error)
      }
    }
    if let failure { throw failure }
    return snapshot
  }

  /// Sets one key (`prefs write`, `defaults write`).
  package func set(_ value: PlistValue, forKey key: String, truncatingDates: Bool = false)
    throws(ToolError) -> [CorruptFileRecovery]
  {
    do {
      try DefaultsStore.validate(value, forKey: key)
    } catch {
      throw .store(error)
    }
    return try update(truncatingDates: truncatingDates) { _ in [key: value] }
  }

  /// Removes one key, which must be there (checked under the lock: a delete of nothing writes
  /// nothing).
  package func remove(_ key: String) throws(ToolError) -> [CorruptFileRecovery] {
    try update(existing: true) { (current) throws(ToolError) -> DomainChanges in
      guard current.values[key] != nil else { throw .noSuchKey(key, domain: domain.name) }
      return [key: nil]
    }
  }

  /// Removes the whole domain, whatever it holds (a corrupt file too).
  package func removeDomain() throws(ToolError) {
    guard let file = domain.file else {
      _ = try existingValues()
      do {
        try domain.storage.removeDomain()
      } catch {
        throw .store(error)
      }
      return
    }
    let removed: Bool
    do {
      removed = try file.removeFile()
    } catch {
      throw .store(error)
    }
    if !removed { throw resolver.missing(domain) }
  }

  /// Renames a key, its value unchanged: `old` must exist and `new` must not (checked under
  /// the lock: a refused rename writes nothing).
  package func rename(_ old: String, to new: String) throws(ToolError) -> [CorruptFileRecovery] {
    try update(existing: true) { (current) throws(ToolError) -> DomainChanges in
      guard let value = current.values[old] else { throw .noSuchKey(old, domain: domain.name) }
      guard current.values[new] == nil else { throw .keyExists(new, domain: domain.name) }
      return [new: value, old: nil]
    }
  }

  /// Merges `values` into the domain key by key (`import`).
  package func merge(_ values: PlistDictionary) throws(ToolError) -> [CorruptFileRecovery] {
    try validate(values)
    return try update { _ in DomainChanges(replacing: PlistDictionary(), with: values) }
  }

  /// Makes the domain exactly `values` (`defaults write DOMAIN 'PLIST'`).
  package func replace(with values: PlistDictionary) throws(ToolError) -> [CorruptFileRecovery] {
    try validate(values)
    return try update { current in DomainChanges(replacing: current.values, with: values) }
  }

  private func validate(_ values: PlistDictionary) throws(ToolError) {
    do {
      for (key, value) in values { try DefaultsStore.validate(value, forKey: key) }
    } catch {
      throw .store(error)
    }
  }
}

/// A key both an edit and another writer changed: the other writer's value is kept.
package struct EditConflict: Sendable, Hashable {
  package var key: String
  /// What the domain holds now (nil: removed).
  package var now: PlistValue?
  /// What the edit wanted (nil: removed).
  package var yours: PlistValue?
}

extension DomainEditor {
  /// Applies `diff`, made against `base` (the domain as it was when the edit began), as one
  /// locked update: a key another writer changed since `base` keeps its value and is
  /// returned as a conflict, never overwritten; every other key takes the edit's value.
  package func apply(_ diff: DomainDiff, over base: PlistDictionary) throws(ToolError) -> (
    recoveries: [CorruptFileRecovery], conflicts: [EditConflict]
  ) {
    func same(_ a: PlistValue?, _ b: PlistValue?) -> Bool {
      switch (a, b) {
      case (nil, nil): true
      case (let a?, let b?): DomainDiff.same(a, b)
      default: false
      }
    }
    var conflicts: [EditConflict] = []
    let recoveries = try update { current in
      conflicts = []
      var changes = DomainChanges()
      for change in diff.changes {
        let key = change.key
        let yours: PlistValue? = if case .set(_, _, let new) = change { new } else { nil }
        let now = current.values[key]
        if same(now, yours) { continue }
        guard same(now, base[key]) else {
          conflicts.append(EditConflict(key: key, now: now, yours: yours))
          continue
        }
        changes[key] = .some(yours)
      }
      return changes
    }
    return (recoveries, conflicts)
  }
}

extension DomainEditor {
  // MARK: - Following a domain's file

  /// The stamp of the domain's file now (nil: a domain of another storage, or no file): what
  /// tells whether the file may have changed without reading it.
  package var stamp: FileStamp? {
    guard case .file(let path) = domain.place else { return nil }
    return FileStamp(atPath: path)
  }

  /// Watches the domain's file: `handler` is called (on the watcher's thread) when it may
  /// have changed, until the watch is cancelled or released; nil for a domain of another
  /// storage, or where the file cannot be watched (the caller looks at it now and then).
  package func watchFile(_ handler: @escaping @Sendable () -> Void) -> FileWatch? {
    guard case .file(let path) = domain.place else { return nil }
    return DomainWatcher.shared.watch(path: path, handler)
  }

  // MARK: - How a domain's file is written

  /// The format to write `values` in, given the file's current format: the file's own, except
  /// that OpenStep text grows into GNUstep's typed text when a value needs it.
  package static func format(for values: PlistDictionary, current: PlistFormat) -> PlistFormat {
    DomainFile.format(for: values, current: current)
  }

  /// `value` as a file of `format` stores it: XML and GNUstep text hold dates to the whole
  /// second, so their fractions are dropped.
  package static func storable(_ value: PlistValue, in format: PlistFormat) -> PlistValue {
    DomainFile.storable(value, in: format)
  }
}

/// A temporary file holding text to edit (mode 0600, in `folder`), read back after.
package struct TemporaryText: Sendable {
  package let path: String

  package init(_ text: String, suffix: String, in folder: String) throws(ToolError) {
    let fd: Int32
    switch SystemCalls.makeTemporaryFile(
      template: folder + "/prefs-edit-XXXXXX" + suffix, suffixLength: suffix.utf8.count)
    {
    case .success(let made): (fd, path) = made
    case .failure(let failure):
      throw .output(.cannotCreate(path: folder, reason: FileAccess.errnoText(failure.code)))
    }
    defer { close(fd) }
    let written = FileAccess.writeAll(Data(text.utf8), to: fd)
    if written != 0 {
      unlink(path)
      throw .output(.io(path: path, reason: FileAccess.errnoText(written)))
    }
  }

  package func read() throws(ToolError) -> Data {
    do {
      return try FileAccess.readFile(path, limit: PlistLimits.default.maxInputBytes)
    } catch {
      throw .read(.file(error))
    }
  }

  package func remove() { unlink(path) }
}
