import Foundation
import PropertyList

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One persistent domain's file: reading it (a file that does not parse is moved aside, never
/// overwritten), holding the cross-process lock, and replacing it atomically in its own format.
struct DomainFile: Sendable {
  let url: URL
  /// The format a new file gets.
  let newFileFormat: PlistFormat
  let limits: PlistLimits

  var path: String { url.path }
  var lockPath: String { path + ".lock" }

  /// What the file held when read: its values and format, or nothing (absent, or moved aside).
  struct Contents {
    var values: [String: PlistValue]
    var format: PlistFormat?
    var recovery: CorruptFileRecovery?
  }

  /// Reads the file. Absent: empty. Unparseable, or not a dictionary: moved aside to
  /// `<name>.corrupt-<UTC time>` and reported, and the domain reads as empty.
  func read() throws(DefaultsError) -> Contents {
    try refuseSymbolicLink()
    let data: Data
    do {
      data = try FileAccess.readFile(path, limit: limits.maxInputBytes)
    } catch {
      switch error {
      case .missing(_, let reason) where reason == "no such file":
        return Contents(values: [:], format: nil, recovery: nil)
      case .tooLarge:
        return try moveAside(reason: error.description)
      default:
        throw .cannotRead(path: path, reason: error.description)
      }
    }
    let document: PlistDocument
    do {
      document = try PropertyList.read(data, limits: limits)
    } catch {
      return try moveAside(reason: error.description)
    }
    guard case .dictionary(let values) = document.value else {
      return try moveAside(
        reason: "the top level is a \(document.value.typeName), not a dictionary")
    }
    return Contents(values: values, format: document.format, recovery: nil)
  }

  /// A domain file that is a symbolic link is refused: writes replace the file by renaming
  /// over it, which would silently turn the link into a plain file, and a link planted by
  /// someone else could point the domain anywhere.
  func refuseSymbolicLink() throws(DefaultsError) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    if (info.st_mode & S_IFMT) == S_IFLNK {
      throw .cannotRead(
        path: path, reason: "it is a symbolic link (prefs replaces domain files, never links)")
    }
  }

  private func moveAside(reason: String) throws(DefaultsError) -> Contents {
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
    return Contents(
      values: [:], format: nil,
      recovery: CorruptFileRecovery(path: path, movedTo: target, reason: reason))
  }

  static func utcStamp(_ date: Date = Date()) -> String {
    var seconds = time_t(date.timeIntervalSince1970)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    return String(
      format: "%04d%02d%02dT%02d%02d%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
      Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
  }

  /// Creates the folder (mode 0700) when it is missing.
  func ensureFolder() throws(DefaultsError) {
    let folder = url.deletingLastPathComponent().path
    var info = stat()
    if stat(folder, &info) == 0 { return }
    do {
      try FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    } catch {
      throw .cannotWrite(path: folder, reason: "cannot create the folder: \(error)")
    }
  }

  /// Runs `body` holding an exclusive `flock` on `<file>.lock`, shared by every process that
  /// uses prefs on this domain.
  func withLock<T>(_ body: () throws(DefaultsError) -> T) throws(DefaultsError) -> T {
    try ensureFolder()
    let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard fd >= 0 else { throw .cannotLock(path: lockPath, reason: FileAccess.errnoText(errno)) }
    defer { close(fd) }
    while flock(fd, LOCK_EX) != 0 {
      if errno != EINTR { throw .cannotLock(path: lockPath, reason: FileAccess.errnoText(errno)) }
    }
    defer { flock(fd, LOCK_UN) }
    return try body()
  }

  /// Removes temporary files a writer killed between creating and renaming them left behind.
  /// Called holding the lock: every live writer of this domain holds it while its temporary
  /// file exists, so any other one is a leftover.
  func removeLeftoverTemporaryFiles() {
    let folder = url.deletingLastPathComponent().path
    let prefix = "." + url.lastPathComponent + ".tmp-"
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
    for name in names where name.hasPrefix(prefix) && name.count == prefix.count + 6 {
      unlink(folder + "/" + name)
    }
  }

  /// Replaces the file with `values` in `format`, atomically.
  func write(_ values: [String: PlistValue], format: PlistFormat) throws(DefaultsError) {
    removeLeftoverTemporaryFiles()
    let data: Data
    do {
      data = try PropertyList.write(.dictionary(values), as: format)
    } catch {
      throw .cannotEncode(path: path, error: error)
    }
    do {
      try FileAccess.atomicWrite(data, to: path)
    } catch {
      throw .cannotWrite(path: path, reason: error.description)
    }
  }

  /// The format to write `values` in, given the file's current format: the file's own, except
  /// that OpenStep text grows into GNUstep's typed text when a value needs it.
  static func format(for values: [String: PlistValue], current: PlistFormat) -> PlistFormat {
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
  static func storable(_ value: PlistValue, in format: PlistFormat) -> PlistValue {
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
