internal import CSystemCalls
import Synchronization

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

/// The user and group databases: the local files read as the files they are (`/etc/passwd`,
/// `/etc/group`), never through the name service switch in this process (a statically linked
/// glibc prefs cannot load NSS modules: it would crash on the first user the files do not
/// hold); then, only for a user or group the files do not hold, the system's own answer,
/// asked of `/usr/bin/getent` (an absolute path, never `PATH`), a dynamically linked program
/// that loads the modules (LDAP, sssd, systemd-homed, extrausers) in a process of its own. Its
/// output is parsed strictly; a lookup it cannot answer (it timed out, failed, or printed what
/// is not one entry) is a ``Failure``, never taken for "no such user". Answers are kept for the
/// process's life: a batch of 10,000 files over one directory user asks once.
package enum Accounts {
  /// One line of `/etc/passwd` (or of `getent passwd`).
  package struct User: Sendable, Hashable {
    package var name: String
    package var uid: uid_t
    package var gid: gid_t
    package var home: String
    /// Where the entry came from: the local files (its groups are `/etc/group`'s), or the
    /// system's lookup (its groups are the system's, `getent initgroups`).
    package var isLocal = true

    package init(name: String, uid: uid_t, gid: gid_t, home: String, isLocal: Bool = true) {
      self.name = name
      self.uid = uid
      self.gid = gid
      self.home = home
      self.isLocal = isLocal
    }
  }

  /// A lookup the system could not answer.
  package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was looked up (`passwd 1234`, `initgroups ana`).
    package var query: String
    package var reason: String
    package var description: String { "cannot look up \(query): \(reason)" }
  }

  /// The files read (tests point them elsewhere).
  static let passwdFile = "/etc/passwd"
  static let groupFile = "/etc/group"
  /// The system's lookup, and how long it may take (an LDAP server that does not answer).
  static let getent = "/usr/bin/getent"
  static let getentTimeout: Int32 = 10_000

  /// The entry of `uid`: the local file's, else the system's; nil when neither has one.
  package static func user(uid: uid_t, passwd: String = passwdFile) throws(Failure) -> User? {
    if let local = users(passwd).first(where: { $0.uid == uid }) { return local }
    return try systemUser(key: String(uid)) { $0.uid == uid }
  }

  /// The entry of the user named `name`: the local file's, else the system's; nil when
  /// neither has one.
  package static func user(named name: String, passwd: String = passwdFile) throws(Failure)
    -> User?
  {
    if let local = users(passwd).first(where: { $0.name == name }) { return local }
    guard isPlainName(name) else { return nil }
    return try systemUser(key: name) { $0.name == name }
  }

  /// The groups a user belongs to, its primary group first, each once: for a user of the local
  /// files, every group of `/etc/group` that lists it as a member; for one of the system's,
  /// the groups the system gives it (`getent initgroups`, what `id` shows).
  package static func groups(of user: User, group: String = groupFile) throws(Failure) -> [gid_t] {
    var found: [gid_t] = [user.gid]
    if !user.isLocal {
      for gid in try systemGroups(of: user.name) where !found.contains(gid) { found.append(gid) }
      return found
    }
    for line in lines(group) {
      let fields = line.split(separator: ":", omittingEmptySubsequences: false)
      guard fields.count >= 4, let gid = gid_t(fields[2]) else { continue }
      let members = fields[3].split(separator: ",").map { $0.trimmingWhitespace() }
      if members.contains(user.name), !found.contains(gid) { found.append(gid) }
    }
    return found
  }

  private static func users(_ path: String) -> [User] {
    lines(path).compactMap(parseUser)
  }

  /// A passwd line's user, or nil when it is not one (fields missing, ids not numbers).
  private static func parseUser(_ line: Substring) -> User? {
    let fields = line.split(separator: ":", omittingEmptySubsequences: false)
    guard fields.count >= 7, let uid = uid_t(fields[2]), let gid = gid_t(fields[3]) else {
      return nil
    }
    return User(name: String(fields[0]), uid: uid, gid: gid, home: String(fields[5]))
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

  /// Whether `name` could be a user's or group's name to ask the system about: not empty, at
  /// most 256 bytes (LOGIN_NAME_MAX), no `:`, white space, control character or NUL (none can
  /// be in a database line), not a number (getent would take it for an id).
  static func isPlainName(_ name: String) -> Bool {
    let bytes = name.utf8
    guard !bytes.isEmpty, bytes.count <= 256, UInt32(name) == nil else { return false }
    return !bytes.contains { $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: ":") }
  }

  /// Failures of lookups whose callers go on without the answer (a home folder, a folder
  /// owner's groups), for the command to report when it is done (``takeFailures()``).
  private static let unreported = Locked<[Failure]>([])

  /// Whether anything was noted: every command asks at its end, and a load of this (statically
  /// initialized) flag is all it costs when nothing was, not the list's first use.
  private static let anyNoted = Atomic<Bool>(false)

  /// Keeps `failure` for ``takeFailures()``.
  package static func note(_ failure: Failure) {
    unreported.withLock { if !$0.contains(failure) { $0.append(failure) } }
    anyNoted.store(true, ordering: .releasing)
  }

  /// The failures noted since the last call, in the order they happened.
  package static func takeFailures() -> [Failure] {
    guard anyNoted.exchange(false, ordering: .acquiringAndReleasing) else { return [] }
    return unreported.withLock { list in
      defer { list.removeAll() }
      return list
    }
  }

  // MARK: - The system's lookup

  /// Answers kept for the process's life, by query (`passwd ana`); a failure is kept too (an
  /// LDAP server that timed out once is not asked 10,000 times).
  private static let answers = Locked<[String: Result<String?, Failure>]>([:])

  /// The system's passwd entry for `key` (a name or a uid) that `matches`, or nil.
  private static func systemUser(key: String, matches: (User) -> Bool) throws(Failure) -> User? {
    let query = "passwd " + key
    guard let line = try ask("passwd", key) else { return nil }
    // One entry, seven fields, numeric ids, the one asked for, a home from the root.
    let fields = line.split(separator: ":", omittingEmptySubsequences: false)
    guard fields.count == 7, var user = parseUser(line[...]), matches(user),
      user.home.utf8.first == UInt8(ascii: "/")
    else {
      throw Failure(
        query: query, reason: "getent printed what is not its entry: \(line.debugDescription)")
    }
    user.isLocal = false
    return user
  }

  /// The groups the system gives `name` (`getent initgroups NAME`: `NAME gid gid …`).
  private static func systemGroups(of name: String) throws(Failure) -> [gid_t] {
    guard isPlainName(name) else { return [] }
    guard let line = try ask("initgroups", name) else { return [] }
    let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
    guard let first = words.first, first == name else {
      throw Failure(
        query: "initgroups " + name,
        reason: "getent printed what is not its entry: \(line.debugDescription)")
    }
    var groups: [gid_t] = []
    for word in words.dropFirst() {
      guard let gid = gid_t(word) else {
        throw Failure(
          query: "initgroups " + name,
          reason: "getent printed a group that is not a number: \(word)")
      }
      groups.append(gid)
    }
    return groups
  }

  /// getent's one line for `database key` (without its newline), nil when it has none (exit
  /// 2, or no getent on this system: then the files are all there is).
  private static func ask(_ database: String, _ key: String) throws(Failure) -> String? {
    let query = database + " " + key
    let answer = answers.withLock { cache in
      if let known = cache[query] { return known }
      let fresh = run(database, key)
      cache[query] = fresh
      return fresh
    }
    return try answer.get()
  }

  private static func run(_ database: String, _ key: String) -> Result<String?, Failure> {
    let query = database + " " + key
    #if os(Linux)
      guard access(getent, X_OK) == 0 else { return .success(nil) }
      let spawn = { () -> Result<(output: [UInt8], status: Int32), SystemCalls.Errno> in
        // A process started by a thread that works as a user would run as that user.
        assert(prefs_thread_switched() == 0, "getent started by a thread working as a user")
        return SystemCalls.getent(database, key, capacity: 1 << 16, timeout: getentTimeout)
      }
      let ran: Result<(output: [UInt8], status: Int32), SystemCalls.Errno>
      if prefs_thread_switched() != 0 {
        // Asked while this thread works as a user (a folder held inside that work): getent is
        // started with the process's own credentials, then the thread is the user's again.
        switch Result(catching: { () throws(DefaultsError) in try Credentials.asProcess(spawn) }) {
        case .success(let result): ran = result
        case .failure(let error): return .failure(Failure(query: query, reason: error.description))
        }
      } else {
        ran = spawn()
      }
      let output: [UInt8]
      switch ran {
      case .success(let result):
        switch result.status {
        case 0: output = result.output
        case 2: return .success(nil)
        default: return .failure(Failure(query: query, reason: "getent exited \(result.status)"))
        }
      case .failure(let code):
        return .failure(
          Failure(query: query, reason: "getent: " + FileAccess.errnoText(code.code)))
      }
      let bytes = output[...]
      // Exactly one line, of text.
      guard bytes.last == UInt8(ascii: "\n"), !bytes.dropLast().contains(UInt8(ascii: "\n")),
        !bytes.contains(0), let text = String(validating: bytes.dropLast(), as: UTF8.self)
      else {
        return .failure(Failure(query: query, reason: "getent printed what is not one line"))
      }
      return .success(text)
    #else
      // Apple platforms ask Open Directory themselves (never a static executable).
      _ = query
      return .success(nil)
    #endif
  }
}
