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

extension DomainFile {
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
  private static func isTemporaryLooking(_ name: [UInt8]) -> Bool {
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
  package static let xmlOptions = {
    var options = XMLWriteOptions.coreFoundation
    options.truncatingDates = false
    return options
  }()

  /// Replaces the file with `data`, atomically, keeping `ownership` (the replaced file's; a new
  /// file's as ``FileAccess/Ownership/newFile(in:mode:)`` says).
  private func write(
    _ data: Data, in held: HeldFolder, ownership: FileAccess.Ownership?, durable: Bool,
    syncingFolder: Bool = true
  ) throws(DefaultsError) {
    removeLeftoverTemporaryFiles(in: held)
    do {
      if ownership == nil { try held.checkMayCreate(name) }
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

extension DomainFile {
  // MARK: - Copies: the backup, and an unparseable file moved aside

  /// A copy of the file as it was, made under the domain's locks just before the write that
  /// replaces it (a migration in place): `<name>.backup` (then `.backup-1`, `-2`, … when taken)
  /// beside the file, worked in as the file's folder is and keeping the original's owner,
  /// group and mode; or in `folder`, a folder the administrator named, laid out by the source's
  /// path (`/home/alice/.config/com.x.plist` → `folder/home/alice/.config/com.x.plist.backup`,
  /// the folders on the way made mode 0700), written with this process's own credentials and
  /// owned by this process's user with the original's mode: one user's backup is never
  /// another's, nor owned by another user. A backup at that place that already holds exactly
  /// these bytes is the copy (a rerun after a failed write makes no second one).
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
  /// The copy of `bytes` (the file as read under the lock) that ``Backup`` describes; its path.
  func backup(
    _ bytes: Data, of snapshot: DomainSnapshot, in held: HeldFolder, _ backup: Backup
  ) throws(DefaultsError) -> String {
    func copy(
      owned ownership: FileAccess.Ownership?,
      in folder: () throws(FileAccess.Failure) -> HeldFolder
    ) throws(DefaultsError) -> String {
      do throws(FileAccess.Failure) {
        return try keepCopy(bytes, ownership: ownership, in: try folder())
      } catch {
        throw .cannotWrite(path: path, reason: "the backup failed: \(error.description)")
      }
    }
    let made: String
    if let folder = backup.folder {
      // A folder the administrator named: written with the process's own credentials, each
      // source's backup at a place of its own, the administrator's.
      let process = Credentials.process
      let owned = FileAccess.Ownership(
        user: process.user, group: process.group, mode: snapshot.ownership?.mode ?? 0o600)
      made = try Credentials.asProcess { () throws(DefaultsError) in
        try copy(owned: owned) { () throws(FileAccess.Failure) in
          // Only the administrator may make or change what is in it: nobody else can have
          // laid a user's place there first.
          let top = try HeldFolder.open(folder)
          guard top.owner == process.user, top.mode & (S_IWGRP | S_IWOTH) == 0 else {
            throw .refused(
              path: folder,
              reason: "a backup folder must be this process's user's own, and writable by "
                + "nobody else (uid \(top.owner), mode \(String(top.mode & 0o7777, radix: 8)))")
          }
          // The source's path below it, each folder made (0700, root's) or held in turn.
          var place = top
          for component in held.path.split(separator: "/") {
            place = try place.makeFolder(String(component))
          }
          return place
        }
      }
    } else {
      made = try copy(owned: snapshot.ownership) { held }
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

  func moveAside(in held: HeldFolder, reason: String) throws(DefaultsError)
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
}
