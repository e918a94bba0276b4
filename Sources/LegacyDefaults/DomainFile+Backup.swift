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
  // MARK: - Copies: the backup, and an unparseable file moved aside

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
  /// The copy of `bytes` (the file as read under the lock) that ``Backup`` describes; its path.
  func backup(
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
