#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension DomainFile {
  // MARK: - Locking

  /// Runs `body` in `held` as whom the folder is worked in, holding the domain's locks in their
  /// order (see the type's documentation).
  func underLocks<T>(
    in held: HeldFolder, _ body: (ReentrantExclusion) throws(DefaultsError) -> T
  ) throws(DefaultsError) -> T {
    // One deadline for every lock of this write and every turn of their loops: a holder that
    // keeps replacing a lock file, or GNUstep's `.lck`, cannot make the wait start again.
    var wait = LockWait(timeout: lockTimeout)
    return try held.acting { () throws(DefaultsError) -> T in
      let gnustep = try GNUstepLock.acquire(for: self, in: held, wait: wait)
      defer { gnustep?.release() }
      let exclusion = ExclusionTable.files.acquire(lockKey)
      defer { ExclusionTable.files.release(lockKey) }
      return try exclusion.withLock(outermost: { body throws(DefaultsError) in
        try withFileLock(in: held, exclusion, &wait, body)
      }) { () throws(DefaultsError) in try body(exclusion) }
    }
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
  /// when it does not: at most ``LockWait/maxRestarts`` times, then the file is busy. The wait
  /// ends at `wait`'s one deadline, or when the process is interrupted.
  private func withFileLock<T>(
    in held: HeldFolder, _ exclusion: ReentrantExclusion, _ wait: inout LockWait,
    _ body: () throws(DefaultsError) -> T
  ) throws(DefaultsError) -> T {
    var first = true
    while true {
      if !first {
        do {
          try wait.restart()
        } catch {
          throw wait.error(error, path: path, lock: held.path(of: lockName))
        }
      }
      first = false
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
        throw wait.error(error, path: path, lock: held.path(of: lockName))
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
