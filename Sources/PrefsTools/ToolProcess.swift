import LegacyDefaults

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What the command asks of its process and the system: its standard streams, whether it runs
/// as root, the lookups of users it went on without, the lock waits a signal ends, a thread
/// of its own, an editor. Each is the lower layers' (`LegacyDefaults`' system calls,
/// credentials and locks), offered here so that the command reaches them through its tools.
package enum ToolProcess {
  // MARK: Standard streams

  /// Writes every byte of `data` to `fd` (standard output, standard error), again after an
  /// interruption; the `errno` of a failure, or 0.
  @discardableResult
  package static func write(_ data: Data, to fd: Int32) -> Int32 {
    SystemCalls.writeAll(data, to: fd)
  }

  /// Writes the UTF-8 of `text` to `fd`, in place (no copy of a native string).
  @discardableResult
  package static func write(_ text: String, to fd: Int32) -> Int32 {
    SystemCalls.writeAll(text, to: fd)
  }

  // MARK: The process

  /// Whether the process runs as root (its credentials before any switch): what a run's
  /// policy is decided by (how long a write waits for a lock).
  package static var isPrivileged: Bool { Credentials.processIsPrivileged }

  /// The users and groups the system could not look up (getent timed out or failed) since
  /// the last call, each as its message: the command went on without them (no home, the
  /// folder's group only) and says so at its end.
  package static func takeLookupFailures() -> [String] {
    Accounts.takeFailures().map(\.description)
  }

  /// Domain names resolve as `platform` lays them out from now on: GNUstep's defaults lock is
  /// looked for where that layout keeps it (`--layout`).
  package static func useLayout(_ platform: DefaultsPlatform) {
    GNUstepLock.register(DomainLocator(platform: platform))
  }

  /// Runs `body` on a thread of its own that nobody joins: whether it started.
  package static func detach(_ body: @escaping @Sendable () -> Void) -> Bool {
    Threads.detach(body)
  }

  /// From now on a domain's lock wait ends when ``interruptLockWaits()`` is called (a
  /// signal's thread calls it): a lock a user holds for ever stalls nothing.
  package static func watchForInterruption() { LockWaits.watch() }

  /// Ends the lock waits in flight, and any begun after (a stop was asked for).
  package static func interruptLockWaits() { LockWaits.interrupt() }

  // MARK: Other programs and C's formats

  /// Runs `command FILE` through `/bin/sh` on this terminal, with `environment`: its exit
  /// status (128 + the signal that ended it; 127 when it could not be started). Never from a
  /// thread that works as another user (the editor would run as that user).
  package static func runEditor(_ command: String, file: String, environment: [String: String])
    -> Int32
  {
    assert(!Credentials.workingAsAnotherUser, "the editor would run as the user")
    return SystemCalls.spawnAndWait(
      ["/bin/sh", "-c", command + " \"$1\"", "sh", file],
      environment: environment.map { "\($0.key)=\($0.value)" })
  }

  /// `value` as C's `printf` formats it with `format` (`%0.16g`: `-[NSNumber description]`'s
  /// way; `%f`), or Swift's own text of it when the format gives more than 511 bytes.
  package static func format(_ value: Double, _ format: String) -> String {
    SystemCalls.printf(format, value) ?? String(value)
  }
}
