#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The wait of one write for its domain's locks (GNUstep's `.lck`, then prefs' `<file>.lock`):
/// one deadline, taken when the wait starts and shared by every turn of every lock's loop, so
/// that nothing a holder does — replacing the lock file with another it holds, breaking and
/// making `.lck` again — starts the wait over. A lock file found replaced once it is held sends
/// the wait round again at most ``maxRestarts`` times; then the file is busy. An interruption of
/// the process (``LockWaits/interrupt()``) ends every wait in flight within one poll.
struct LockWait {
  /// When the wait gives up; nil: never (it still ends at an interruption).
  let timeout: Double?
  let start = ContinuousClock.now
  /// How many times the lock file was found replaced and the wait went round again.
  private(set) var restarts = 0

  /// Far more than writers that take turns ever cause (each restart is another writer's whole
  /// write ending while this one waited), and a bound on a holder that replaces the lock for
  /// ever where no deadline is set.
  static let maxRestarts = 1_000

  init(timeout: Double?) { self.timeout = timeout }

  enum Failure: Error {
    /// Not had in `waited` seconds (or in ``maxRestarts`` turns).
    case busy(waited: Double)
    /// The process was interrupted (SIGINT, SIGTERM) while it waited.
    case interrupted
    case failed(Errno)
  }

  /// Seconds since the wait started.
  var waited: Double { start.duration(to: .now).seconds }

  /// Seconds left before the deadline (infinity: none).
  var remaining: Double { timeout.map { $0 - waited } ?? .infinity }

  /// Whether the wait must end now: past its deadline, or interrupted.
  func check() throws(Failure) {
    if LockWaits.interrupted { throw .interrupted }
    if let timeout, waited >= timeout { throw .busy(waited: waited) }
  }

  /// Counts one more turn of a lock's loop (the lock file was replaced or removed meanwhile).
  mutating func restart() throws(Failure) {
    restarts += 1
    if restarts > Self.maxRestarts { throw .busy(waited: waited) }
    try check()
  }

  /// An exclusive `flock` on `fd`, polled (1 ms, doubling to 50 ms) until the deadline or an
  /// interruption; without a deadline in a process that is not watching for interruptions,
  /// waited for in the kernel.
  func lock(_ fd: Int32) throws(Failure) {
    if timeout == nil, !LockWaits.watching {
      while flock(fd, LOCK_EX) != 0 {
        if errno != EINTR { throw .failed(Errno(errno)) }
      }
      return
    }
    var pause: UInt32 = 1_000
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR else { throw .failed(Errno(errno)) }
      try check()
      usleep(min(pause, UInt32(max(1, min(remaining, 1) * 1e6))))
      pause = min(pause * 2, 50_000)
    }
  }

  /// The store's error for `failure` of the wait for `lock`, a lock of the file at `path`.
  func error(_ failure: Failure, path: String, lock: String) -> DefaultsError {
    switch failure {
    case .busy(let waited): .busy(path: path, lock: lock, waited: waited)
    case .interrupted: .interrupted(path: path, lock: lock)
    case .failed(let code): .cannotLock(path: path, reason: "cannot lock \(lock): \(code.text)")
    }
  }
}

/// Lock waits of the whole process, ended together by an interruption: a batch asked to stop
/// (SIGINT, SIGTERM) prints its report within one poll interval, whatever lock a user holds.
package enum LockWaits {
  private static let state = Locked((watching: false, interrupted: false))

  /// From now on every lock wait polls, so that ``interrupt()`` ends it (a command that
  /// handles SIGINT and SIGTERM itself calls this before its work starts).
  package static func watch() { state.withLock { $0.watching = true } }

  /// Ends every lock wait in flight, and every one started after, with
  /// ``DefaultsError/interrupted(path:lock:)``.
  package static func interrupt() { state.withLock { $0.interrupted = true } }

  static var watching: Bool { state.withLock { $0.watching } }
  static var interrupted: Bool { state.withLock { $0.interrupted } }
}
