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
  package var url: URL { givenURL ?? PathText.fileURL(path, isDirectory: false) }
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

  package var identity: StorageIdentity { .file(path: path) }

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
      case .refused where !creating:
        throw .refused(path: path, reason: "its folder: \(error.description)")
      default:
        throw creating
          ? .cannotWrite(path: path, reason: "its folder: \(error.description)")
          : .cannotRead(path: path, reason: "its folder: \(error.description)")
      }
    }
  }
}
