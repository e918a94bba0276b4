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

/// GNUstep Base's lock on its defaults folder, which every prefs write of a domain file in that
/// folder takes as well, so that a running GNUstep app's `synchronize` and prefs take turns.
///
/// What GNUstep Base does (libs-base 1.28: `lockPath()`, `-_lockDefaultsFile:`,
/// `-_unlockDefaultsFile` of `NSUserDefaults.m`; `-tryLock`, `-lockDate`, `-breakLock`,
/// `-unlock` of `NSDistributedLock.m`), and prefs with it:
/// - The lock is a directory, `<defaults folder>/.lck/.GNUstepDefaults.lck` (the `.lck` folder,
///   mode 0755, is made when missing, and keeps the defaults folder's own date still). Whoever
///   makes it with `mkdir` (mode 0755) holds it; it stays empty; its modification date is the
///   lock's date.
/// - Waiting: another try every 0.1 s. A lock dated more than 20 s ago is stale (its holder
///   crashed, or has held it too long) and is broken (removed), then taken. prefs removes it
///   only when it is still the one found stale, and only as an empty directory (or a file): one
///   that holds anything is not GNUstep's, and is reported. After 66 s GNUstep gives up waiting
///   and writes anyway; prefs fails with ``DefaultsError/cannotLock(path:reason:)`` and writes
///   nothing, as it does when the lock cannot be made at all (a folder it may not write, a
///   `.lck` that is not a folder).
/// - Releasing removes the directory only when it is still the one taken (GNUstep compares its
///   date; prefs its device, inode and date): one broken and made again by another process is
///   that process's.
/// - Under the lock GNUstep re-reads the domain file and applies only its own changed keys
///   before it writes (`-[GSPersistentDomain synchronize]`), so what prefs wrote while GNUstep
///   waited is kept, not undone.
///
/// The folders: every folder a ``DomainLocator`` of the `gnustep` layout resolves in this process
/// (`prefs --layout gnustep`, `DefaultsStore(domain:locator:)` with such a locator). In a
/// process the lock is one per folder; threads take turns on a mutex rather than polling, and the
/// thread holding it takes it again without waiting (a nested update of another domain there).
/// It is the outermost of a domain file's locks (see ``DomainFile``), held for one re-read,
/// change and write: far less than the 20 s after which a GNUstep process would break it.
package final class GNUstepLock: @unchecked Sendable {
  /// GNUstep's timings (`-_lockDefaultsFile:`), in seconds.
  static let staleAfter = 20.0
  static let giveUpAfter = 66.0
  static let retryMicroseconds: UInt32 = 100_000

  /// GNUstep's defaults folders resolved in this process, by standardized path.
  private static let folders = Locked([String: GNUstepLock]())

  /// The defaults folder.
  let folder: String
  /// `<folder>/.lck`.
  let lockFolder: String
  /// `<folder>/.lck/.GNUstepDefaults.lck`, the lock.
  let path: String

  /// Threads of this process take turns here; recursive, for the holding thread.
  private let turn = ThreadLock(recursive: true)
  /// How many holds the thread holding `turn` has (guarded by `turn`).
  private var depth = 0
  /// The lock directory this process made (guarded by `turn`).
  private var taken: Taken?

  private init(folder: String) {
    self.folder = folder
    lockFolder = folder + "/.lck"
    path = lockFolder + "/.GNUstepDefaults.lck"
  }

  /// Makes `folder` GNUstep's defaults folder for this process: writes of its domain files take
  /// GNUstep's lock from now on.
  static func register(folder: URL) { register(folder: folder.path) }

  /// ``register(folder:)-(URL)`` of the folder at `folder`.
  static func register(folder: String) {
    let path = FilePathParts(folder).standardized
    folders.withLock { folders in
      if folders[path] == nil { folders[path] = GNUstepLock(folder: path) }
    }
  }

  /// For a locator of the `gnustep` layout: resolves GNUstep's defaults folder, so that writes
  /// there take GNUstep's lock, paths named by hand included (resolving the folder does that).
  /// A folder that cannot be resolved has nothing to lock: the verb that needs it says why.
  package static func register(_ locator: DomainLocator) {
    guard locator.platform == .gnustep else { return }
    _ = Result { () throws(DefaultsError) in try locator.folder() }
  }

  /// The lock of the GNUstep defaults folder holding `file` (held as `held`), taken; nil when
  /// `file` is in no such folder. Give it back with ``release()`` on every path. Every step
  /// is made in the held folder (`mkdirat`, `unlinkat`; `.lck` held without following a link).
  static func acquire(for file: DomainFile, in held: HeldFolder, wait: LockWait)
    throws(DefaultsError) -> GNUstepLock?
  {
    let folder = FilePathParts(file.lockKey).folder
    var lock = folders.withLock { $0[folder] }
    if lock == nil,
      case .success(let info?) = Result(catching: { () throws(FileAccess.Failure) in
        try held.entry(".lck")
      }), (info.st_mode & S_IFMT) == S_IFDIR
    {
      // A GNUstep app has locked this folder before: it is GNUstep's defaults folder, however
      // the file was named (a path by hand, `DefaultsStore(url:)`).
      register(folder: folder)
      lock = folders.withLock { $0[folder] }
    }
    guard let lock else { return nil }
    try lock.acquire(for: file, in: held, wait: wait)
    return lock
  }

  private func acquire(for file: DomainFile, in held: HeldFolder, wait: LockWait)
    throws(DefaultsError)
  {
    turn.lock()
    if depth > 0 {
      depth += 1
      return
    }
    do {
      taken = try take(for: file, in: held, wait: wait)
    } catch {
      turn.unlock()
      throw error
    }
    depth = 1
  }

  /// Gives back a hold; the outermost removes the lock directory, if it is still the one made.
  func release() {
    depth -= 1
    if depth == 0, let taken {
      // Left alone when another process broke it (a hold past 20 s) and made its own.
      if FileStamp(in: taken.lck, Self.lockName) == taken.entry {
        taken.lck.remove(Self.lockName, folder: true)
      }
      self.taken = nil
    }
    turn.unlock()
  }

  /// The lock directory's name in `.lck`.
  static let lockName = ".GNUstepDefaults.lck"

  /// Makes the lock directory, waiting for another holder and breaking a stale lock as GNUstep
  /// does; gives up at the write's deadline (`wait`, the write's ``DomainFile/lockTimeout``)
  /// when it is sooner than GNUstep's 66 s (``DefaultsError/busy(path:lock:waited:)``), and at
  /// an interruption of the process.
  private func take(for file: DomainFile, in held: HeldFolder, wait: LockWait)
    throws(DefaultsError) -> Taken
  {
    var lck = try lockFolder(for: file, in: held)
    let limit = min(Self.giveUpAfter, wait.timeout ?? .infinity)
    var heldSince: Double?
    while true {
      // Every way round the loop counts: a lock that keeps vanishing and coming back too.
      let waited = wait.waited
      if LockWaits.interrupted { throw .interrupted(path: file.path, lock: path) }
      if waited > limit {
        if limit < Self.giveUpAfter {
          throw .busy(path: file.path, lock: path, waited: waited)
        }
        let age = heldSince.map { " (dated \(Int(Date().timeIntervalSince1970 - $0)) s ago)" }
        throw .cannotLock(
          path: file.path,
          reason: "GNUstep's lock \(path) is held by another process\(age ?? "") and was not "
            + "released in \(Int(Self.giveUpAfter)) s")
      }
      if mkdirat(lck.fd, Self.lockName, 0o755) == 0 {
        if let made = FileStamp(in: lck, Self.lockName) { return Taken(lck: lck, entry: made) }
        continue  // broken the moment it was made: again
      }
      let code = errno
      switch code {
      case EEXIST: break
      case EINTR: continue
      case ENOENT:
        // `.lck` was removed meanwhile; GNUstep makes it again too.
        lck = try lockFolder(for: file, in: held)
        continue
      default:
        throw .cannotLock(
          path: file.path,
          reason: "cannot make GNUstep's lock \(path): \(FileAccess.errnoText(code))")
      }
      if let found = FileStamp(in: lck, Self.lockName) {
        let age = Date().timeIntervalSince1970 - found.date
        if age > Self.staleAfter {
          try breakStale(found, in: lck, age: age, for: file)
          continue
        }
        heldSince = found.date
      }
      usleep(UInt32(min(Double(Self.retryMicroseconds), max(1, (limit - waited) * 1e6))))
    }
  }

  /// The lock taken: `.lck`, held, and the lock directory made in it.
  struct Taken {
    var lck: HeldFolder
    var entry: FileStamp
  }

  /// `.lck` in the defaults folder, made (mode 0755) when missing, and held; a `.lck` that is
  /// a symbolic link or not a folder is refused.
  private func lockFolder(for file: DomainFile, in held: HeldFolder) throws(DefaultsError)
    -> HeldFolder
  {
    do {
      return try held.makeFolder(".lck", mode: 0o755)
    } catch {
      switch error {
      case .refused, .cannotCreate(_, "it is not a folder"):
        throw .cannotLock(
          path: file.path,
          reason: "GNUstep's lock folder \(lockFolder) is not a folder (\(error.reason))")
      default:
        throw .cannotLock(
          path: file.path,
          reason: "cannot make GNUstep's lock folder \(lockFolder): \(error.reason)")
      }
    }
  }

  /// Removes a stale lock, checked again just before: one released and made again meanwhile
  /// is another holder's.
  private func breakStale(_ found: FileStamp, in lck: HeldFolder, age: Double, for file: DomainFile)
    throws(DefaultsError)
  {
    guard FileStamp(in: lck, Self.lockName) == found else { return }
    if let code = lck.remove(Self.lockName, folder: found.isFolder), code.code != ENOENT {
      throw .cannotLock(
        path: file.path,
        reason: "cannot break GNUstep's stale lock \(path) (dated \(Int(age)) s ago): "
          + code.text)
    }
  }
}
