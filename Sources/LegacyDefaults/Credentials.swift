internal import CSystemCalls

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whom the kernel sees when prefs touches a file: a user, its group and its supplementary
/// groups.
///
/// Root working in a folder another user owns works there as that user
/// (``HeldFolder/actor``), as logrotate's `su` and sudoedit do: every open, create, rename and
/// remove in that folder is then checked by the kernel against the user's own rights, so a link
/// the user planted, a file swapped in, a folder exchanged mid-run can lead only where the user
/// could go anyway. What the administrator named (a plan, `--backup DIR`, `--to DIR`) is read and
/// written with the process's own credentials (``asProcess(_:)``).
///
/// The switch is per thread (the kernel's credentials are a thread's; glibc's `setresuid` and
/// `setgroups` wrappers would change every thread of the process), so that a batch's workers
/// each work as the owner of the file in hand. The effective ids change and the saved ones stay
/// root's: the thread gets root back when the work is done. Linux only; elsewhere root works
/// with its own credentials, in the held folder.
package struct Credentials: Sendable, Hashable, CustomStringConvertible {
  package var user: uid_t
  package var group: gid_t
  /// Supplementary groups, the primary one included.
  package var groups: [gid_t]

  package init(user: uid_t, group: gid_t, groups: [gid_t]) {
    self.user = user
    self.group = group
    self.groups = groups
  }

  package var description: String { "uid \(user), gid \(group)" }

  /// The credentials of the owner of a folder (`owner`, its group `group`): the user's primary
  /// group and supplementary groups, as ``Accounts`` finds them (the local files, else the
  /// system's lookup: a user kept in LDAP or extrausers has the groups `id` shows); for a uid
  /// no database knows, or one whose lookup failed (noted, and reported by the command), the
  /// folder's group alone — a group the owner could give its folder, so one it belongs to —
  /// and no other.
  package static func of(owner: uid_t, group: gid_t) -> Credentials {
    let fallback = Credentials(user: owner, group: group, groups: [group])
    do throws(Accounts.Failure) {
      guard let user = try Accounts.user(uid: owner) else { return fallback }
      return Credentials(user: owner, group: user.gid, groups: try Accounts.groups(of: user))
    } catch {
      Accounts.note(error)
      return fallback
    }
  }

  /// Whether the calling thread works as another user now (inside ``acting(_:)``): nothing may
  /// be started from it, a thread or a process, which would inherit the user.
  package static var workingAsAnotherUser: Bool { prefs_thread_switched() != 0 }

  /// The one rule for "am I root": whether the calling thread has root's rights now, which is
  /// what the kernel judges its next system call by. Inside ``acting(_:)`` as a user it is
  /// false, and a thread started there would inherit the user (``Threads`` refuses to start
  /// one in debug builds); the process as a whole is ``processIsPrivileged``.
  package static var threadIsPrivileged: Bool { geteuid() == 0 }

  /// Whether the process runs as root (its credentials before any switch): what a run's
  /// policy (a lock's default wait, whether to work as a folder's owner) is decided by.
  package static var processIsPrivileged: Bool { process.user == 0 }

  /// Whether this process may work as another user on this platform: root, on Linux.
  package static var canSwitch: Bool {
    #if os(Linux)
      processIsPrivileged
    #else
      false
    #endif
  }

  /// The calling thread's credentials now.
  static func current() -> Credentials {
    Credentials(
      user: geteuid(), group: getegid(), groups: SystemCalls.supplementaryGroups())
  }

  /// Runs `body` with these credentials (effective user and group, supplementary groups), and
  /// gives the thread back the ones it had, on every path.
  ///
  /// Never on the main thread: its credentials are the ones `ps`, `pgrep -u`, `pkill -u` and
  /// the kernel's check of who may signal the process judge it by, so root's run must not be
  /// listed as a user's (a `pkill -u USER` while that user is removed would end the fleet run,
  /// and the user could signal it). Called there, `body` runs on a thread of its own, joined
  /// before this returns. Nothing may start a thread or a process from inside `body`: it would
  /// inherit the user (``Threads`` checks it in debug builds).
  package func acting<T>(_ body: () throws(DefaultsError) -> T) throws(DefaultsError) -> T {
    _ = Self.process  // taken before any switch
    let previous = Self.current()
    if previous == self { return try body() }
    if prefs_is_main_thread() != 0 {
      return try Threads.joined { () throws(DefaultsError) -> T in try acting(body) }
    }
    let wasSwitched = prefs_thread_switched()
    prefs_thread_set_switched(self == Self.process ? 0 : 1)
    defer { prefs_thread_set_switched(wasSwitched) }
    if let failure = Self.become(self, from: previous) {
      // Half switched: every step again, towards what the thread had.
      _ = Self.become(previous, from: nil)
      throw failure
    }
    // Getting root back cannot fail while the saved uid is root's; if it did, the thread would
    // go on as the user, with never more than the user's rights (what needs root then fails,
    // and says so).
    defer { _ = Self.become(previous, from: self) }
    return try body()
  }

  /// Runs `body` with the process's own credentials (what the administrator named: a backup
  /// folder, an output folder), from inside ``acting(_:)``.
  package static func asProcess<T>(_ body: () throws(DefaultsError) -> T) throws(DefaultsError)
    -> T
  {
    try process.acting(body)
  }

  /// The process's credentials, as they were when first asked for (before any switch).
  static let process = Credentials.current()

  /// Switches the thread from `current` (nil: unknown, every step is taken) to `target`; the
  /// failure, or nil.
  private static func become(_ target: Credentials, from current: Credentials?) -> DefaultsError? {
    #if os(Linux)
      func fail(_ what: String) -> DefaultsError {
        .cannotWrite(
          path: "(credentials)",
          reason: "cannot work as \(target): \(what): \(FileAccess.errnoText(errno))")
      }
      // Root first (it may change groups), then the groups, then the user last (it gives up
      // root's rights until the saved uid takes them back).
      if current.map({ $0.user != 0 && target.user != $0.user }) ?? true {
        guard prefs_thread_setresuid(uid_t.max, 0, uid_t.max) == 0 else {
          return fail("taking back uid 0")
        }
      }
      if target.groups != current?.groups {
        guard SystemCalls.setThreadGroups(target.groups) == 0 else { return fail("setgroups") }
      }
      if target.group != current?.group {
        guard prefs_thread_setresgid(gid_t.max, target.group, gid_t.max) == 0 else {
          return fail("setresgid")
        }
      }
      if target.user != 0 {
        guard prefs_thread_setresuid(uid_t.max, target.user, uid_t.max) == 0 else {
          return fail("setresuid")
        }
      }
      return nil
    #else
      _ = target
      _ = current
      return .cannotWrite(path: "(credentials)", reason: "working as another user needs Linux")
    #endif
  }
}
