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

/// The local user and group databases, read as the files they are (`/etc/passwd`,
/// `/etc/group`), never through the name service switch: a statically linked prefs cannot load
/// NSS modules safely, and what the kernel is told about a user (its uid, its groups) must not
/// depend on a module another library loaded.
///
/// A user kept elsewhere (LDAP, sssd, systemd-homed) is not found here: the callers say what
/// they do without the entry (``Credentials/of(owner:group:)``: the owner's uid and the
/// folder's group, no supplementary groups).
package enum Accounts {
  /// One line of `/etc/passwd`.
  package struct User: Sendable, Hashable {
    package var name: String
    package var uid: uid_t
    package var gid: gid_t
    package var home: String
  }

  /// The files read (tests point them elsewhere).
  static let passwdFile = "/etc/passwd"
  static let groupFile = "/etc/group"

  /// The entry of `uid`, or nil.
  package static func user(uid: uid_t, passwd: String = passwdFile) -> User? {
    users(passwd).first { $0.uid == uid }
  }

  /// The entry of the user named `name`, or nil.
  package static func user(named name: String, passwd: String = passwdFile) -> User? {
    users(passwd).first { $0.name == name }
  }

  /// The groups a user belongs to: its primary group and every group of `/etc/group` that
  /// lists it as a member, in that order, each once.
  package static func groups(of user: User, group: String = groupFile) -> [gid_t] {
    var found: [gid_t] = [user.gid]
    for line in lines(group) {
      let fields = line.split(separator: ":", omittingEmptySubsequences: false)
      guard fields.count >= 4, let gid = gid_t(fields[2]) else { continue }
      let members = fields[3].split(separator: ",").map { $0.trimmingWhitespace() }
      if members.contains(user.name), !found.contains(gid) { found.append(gid) }
    }
    return found
  }

  private static func users(_ path: String) -> [User] {
    lines(path).compactMap { line in
      let fields = line.split(separator: ":", omittingEmptySubsequences: false)
      guard fields.count >= 7, let uid = uid_t(fields[2]), let gid = gid_t(fields[3]) else {
        return nil
      }
      return User(name: String(fields[0]), uid: uid, gid: gid, home: String(fields[5]))
    }
  }

  /// The lines of a database file that are entries (not comments, not NIS `+`/`-` lines); an
  /// absent or unreadable file has none.
  private static func lines(_ path: String) -> [Substring] {
    guard
      case .success(let data) = Result(catching: { () throws(FileAccess.Failure) in
        try FileAccess.readFile(path, limit: 64 << 20)
      })
    else { return [] }
    return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).filter {
      guard let first = $0.first else { return false }
      return first != "#" && first != "+" && first != "-"
    }
  }
}
