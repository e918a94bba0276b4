import Foundation
import PropertyList
import TestSupport
import Testing

/// Root over users' files, second round (issue 45): each way through that an attacker found in
/// the first round's defences, tried again with real processes, an unprivileged user (nobody,
/// and daemon as a second user) racing or planting against root's run. Every test failed on
/// 2be0eba. The races of thousands of rounds are `Scripts/symlink-race.sh`'s `lock-replace`
/// and `rewrite-*` scenarios.
@Suite(
  .enabled(if: geteuid() == 0, "needs root, to act on files owned by other users"),
  .enabled(if: External.which("setpriv") != nil, "needs setpriv (util-linux)"),
  .serialized)
struct RootOverUsersSecondRoundTests {
  // The first round's binary, plan, sample and user.
  static let binary = RootOverUsersTests.binary
  static let plan = RootOverUsersTests.plan
  static let sample = RootOverUsersTests.sample
  static let nobody = RootOverUsersTests.nobody
  static let race = External.packageRoot.appendingPathComponent("Scripts/race")
  static let daemon = (user: uid_t(1), group: gid_t(1))
  static let marker = "ROOT-ONLY-SECRET-4545"

  static func folder(of path: String) -> String {
    URL(fileURLWithPath: path).deletingLastPathComponent().path
  }

  static func give(_ path: String, mode: mode_t, to user: (uid_t, gid_t) = nobody) throws {
    guard lchown(path, user.0, user.1) == 0, chmod(path, mode) == 0 else {
      throw TypedJSONError(description: "cannot give \(path) away")
    }
  }

  /// `base/` (root, 0755) holding `home/` (the user's, 0755) with `.config/` (0755) and the
  /// legacy sample at `.config/com.x.plist` (0644).
  static func home(
    in folder: TemporaryFolder, _ name: String = "home", user: (uid_t, gid_t) = nobody
  ) throws -> String {
    let config = folder.file(name + "/.config").path
    try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
    let domain = config + "/com.x.plist"
    try Data(contentsOf: sample).write(to: URL(fileURLWithPath: domain))
    try give(folder.file(name).path, mode: 0o755, to: user)
    try give(config, mode: 0o755, to: user)
    try give(domain, mode: 0o644, to: user)
    return domain
  }

  /// A process run as `user` (no groups), started now; its first line of output awaited.
  final class Attacker {
    let process = Process()
    let out = Pipe()

    init(_ arguments: [String], as user: (uid_t, gid_t) = nobody, awaiting line: String?) throws {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
      process.arguments =
        ["--reuid=\(user.0)", "--regid=\(user.1)", "--clear-groups"] + arguments
      process.standardOutput = out
      process.standardError = FileHandle.nullDevice
      try process.run()
      guard let line else { return }
      var seen = Data()
      while !String(decoding: seen, as: UTF8.self).contains(line) {
        let chunk = out.fileHandleForReading.availableData
        if chunk.isEmpty { throw TypedJSONError(description: "the attacker ended early") }
        seen += chunk
      }
    }

    deinit {
      // SIGKILL: the test process's threads block SIGTERM, and a child inherits the mask.
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  /// A prefs process started now, with its output collected when it ends.
  final class Root {
    let process = Process()
    let out = Pipe()
    let err = Pipe()

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
      process.executableURL = URL(fileURLWithPath: RootOverUsersSecondRoundTests.binary)
      process.arguments = arguments
      if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
      }
      process.standardOutput = out
      process.standardError = err
      try process.run()
    }

    /// The main thread's line `field` of `/proc/PID/status` (`Uid:`: real, effective, saved,
    /// file-system uids).
    func status(_ field: String) -> String? {
      guard
        let text = try? String(
          contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
      else { return nil }
      return text.split(separator: "\n").first { $0.hasPrefix(field) }.map(String.init)
    }

    /// Waits for the end: status, standard output, standard error, seconds from `start`. A
    /// run still going `limit` seconds after `start` is ended (SIGKILL) and reported by its
    /// status, 137: a stall, never a test that waits for ever.
    func finish(since start: Date, limit: Double = 30)
      -> (status: Int32, output: String, error: String, seconds: Double)
    {
      let pid = process.processIdentifier
      let watchdog = Thread {
        while Date().timeIntervalSince(start) < limit {
          if kill(pid, 0) != 0 { return }
          usleep(50_000)
        }
        kill(pid, SIGKILL)
      }
      watchdog.start()
      let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      let error = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      let status =
        process.terminationReason == .uncaughtSignal
        ? 128 + process.terminationStatus : process.terminationStatus
      return (status, output, error, Date().timeIntervalSince(start))
    }
  }

  // MARK: - 1. The lock's deadline

  /// Finding 1: the user renames a new lock file it holds over `<domain>.lock` every 1.5 s and
  /// lets the old one go, so that root, once it has the old lock, finds another and waits
  /// again. One deadline for the whole wait: `migrate --lock-timeout 2` (and root's `write`)
  /// end busy (75) within it, instead of waiting for as long as the user likes.
  @Test(arguments: ["migrate", "write"])
  func aLockReplacedForEverStillEndsAtTheDeadline(_ verb: String) throws {
    let folder = try TemporaryFolder()
    let domain = try Self.home(in: folder)
    let config = Self.folder(of: domain)
    let attacker = try Attacker(
      [
        "/usr/bin/python3", Self.race.appendingPathComponent("lock_replace.py").path, config,
        "com.x.plist.lock", "1.5",
      ], awaiting: "held")
    let start = Date()
    let arguments =
      verb == "migrate"
      ? ["migrate", "--plan", Self.plan, "--in-place", "--lock-timeout", "2", "--json", domain]
      : ["--lock-timeout", "2", "write", domain, "k", "-string", "v"]
    let run = try Root(arguments).finish(since: start)
    withExtendedLifetime(attacker) {}
    #expect(run.status == 75, "\(run.error)")
    #expect(run.seconds < 5, "root waited \(run.seconds) s")
    #expect(run.error.contains("busy"), "\(run.error)")
    if verb == "migrate" { #expect(run.output.contains("\"status\": \"busy\""), "\(run.output)") }
  }

  /// Finding 1, its second half: SIGTERM while root waits for a user's lock (a wait of 60 s)
  /// ends the run within a poll, with its report (143), the file busy, nothing written.
  @Test func aSignalEndsALockWaitInFlight() throws {
    let folder = try TemporaryFolder()
    let domain = try Self.home(in: folder)
    let before = try Data(contentsOf: URL(fileURLWithPath: domain))
    let attacker = try Attacker(
      [
        "/usr/bin/python3", Self.race.appendingPathComponent("lock_replace.py").path,
        Self.folder(of: domain), "com.x.plist.lock", "100",
      ], awaiting: "held")
    let root = try Root([
      "migrate", "--plan", Self.plan, "--in-place", "--lock-timeout", "60", "--jobs", "1",
      domain,
    ])
    usleep(800_000)
    let start = Date()
    kill(root.process.processIdentifier, SIGTERM)
    let run = root.finish(since: start)
    withExtendedLifetime(attacker) {}
    #expect(run.status == 143, "\(run.error)")
    #expect(run.seconds < 1, "the run went on \(run.seconds) s after SIGTERM")
    #expect(run.output.contains(": busy"), "\(run.output)")
    #expect(run.error.contains("interrupted"), "\(run.error)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: domain)) == before)
  }

  // MARK: - 2. Backups

  /// Finding 2: two users whose files hold the same bytes, and a third user with a file of
  /// the same name: each gets a backup of its own, at its source's path in the
  /// administrator's folder, owned by root, and the report names exactly that one.
  @Test func eachSourceHasABackupOfItsOwn() throws {
    let folder = try TemporaryFolder()
    let first = try Self.home(in: folder, "alice")
    let second = try Self.home(in: folder, "bob", user: Self.daemon)
    let backups = folder.file("backups")
    let run = try External.run(
      Self.binary,
      [
        "migrate", "--plan", Self.plan, "--in-place", "--backup", backups.path, "--json",
        first, second,
      ])
    #expect(run.status == 0, "\(run.stderr)")
    let original = try Data(contentsOf: Self.sample)
    let copies = Backups.files(in: backups)
    #expect(
      copies
        == [first, second].map { Backups.place(of: $0, in: backups) }.sorted {
          $0.path < $1.path
        }, "\(copies)")
    for source in [first, second] {
      let copy = Backups.place(of: source, in: backups).path
      #expect(run.output.contains("\"backup\": \"\(copy)\""), "\(run.output)")
      #expect(FileManager.default.contents(atPath: copy) == original)
      var info = stat()
      #expect(lstat(copy, &info) == 0)
      #expect(info.st_uid == 0 && info.st_gid == 0, "\(copy) is uid \(info.st_uid)'s")
    }
  }

  // MARK: - 3. Links in shared folders

  /// Finding 3: in a group-writable (2775) or a sticky world-writable (1777) folder, with
  /// `fs.protected_symlinks` 0, a user plants a link to a root-only property list; no verb
  /// run as root follows it, for reading or for writing its contents into the user's folder.
  @Test(arguments: [
    ["convert", "IN", "--to", "xml", "-o", "OUT"],
    ["plutil", "-convert", "xml1", "-o", "OUT", "IN"],
    ["plutil", "-extract", "secret", "xml1", "-o", "OUT", "IN"],
    ["read", "IN"], ["lint", "IN"], ["plutil", "-extract", "secret", "raw", "IN"],
    ["plutil", "-p", "IN"],
  ])
  func aLinkInASharedFolderIsNeverFollowed(_ command: [String]) throws {
    try Sysctl.with("fs/protected_symlinks", "0") {
      for mode: mode_t in [0o2775, 0o1777] {
        let folder = try TemporaryFolder()
        let secret = folder.file("secret.plist").path
        try PropertyList.write(["secret": .string(Self.marker)], as: .xml).write(
          to: URL(fileURLWithPath: secret))
        chmod(secret, 0o600)
        let shared = folder.file("shared").path
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        // Root's folder, its group the user's (2775) or everyone's (1777).
        guard chown(shared, 0, Self.nobody.group) == 0, chmod(shared, mode) == 0 else {
          throw TypedJSONError(description: "cannot share \(shared)")
        }
        let link = shared + "/in.plist"
        let planted = try External.run(
          "/usr/bin/setpriv",
          ["--reuid=65534", "--regid=65534", "--clear-groups", "ln", "-s", secret, link])
        #expect(planted.status == 0, "\(planted.stderr)")
        let home = folder.file("home").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try Self.give(home, mode: 0o755)
        let out = home + "/out.plist"
        let arguments = command.map { $0 == "IN" ? link : $0 == "OUT" ? out : $0 }
        let run = try External.run(Self.binary, arguments)
        #expect(run.status != 0, "\(String(mode, radix: 8)) \(command)")
        #expect(!run.output.contains(Self.marker), "\(String(mode, radix: 8)) \(command)")
        #expect(run.stderr.contains("symbolic link"), "\(command): \(run.stderr)")
        let leaked = FileManager.default.contents(atPath: out).map {
          String(decoding: $0, as: UTF8.self).contains(Self.marker)
        }
        #expect(leaked != true, "\(String(mode, radix: 8)) \(command) wrote the secret")
      }
    }
  }

  // MARK: - 4. A file its owner rewrites while root reads it

  /// Finding 4: root reads a user's large file (which prefs would map) while the user
  /// rewrites it in place between two versions of the same size, its modification time put
  /// back each time. Every answer is one version or the other, or "changed while it was read"
  /// (74): never half of each.
  @Test(arguments: [["convert", "FILE", "--to", "json"], ["read", "FILE"]])
  func aFileRewrittenInPlaceIsNeverAnsweredTorn(_ command: [String]) throws {
    let folder = try TemporaryFolder()
    let home = folder.file("home").path
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    try Self.give(home, mode: 0o755)
    let file = home + "/big.plist"
    // 6,000 keys, every value "AAAAAAAAAAAA": a 90 KB binary file, which prefs would map.
    let made = try External.run(
      "/usr/bin/env",
      [
        "python3", "-c",
        "import plistlib, sys; open(sys.argv[1], 'wb').write(plistlib.dumps("
          + "{'k%05d' % n: 'A' * 12 for n in range(6000)}, fmt=plistlib.FMT_BINARY))",
        file,
      ])
    #expect(made.status == 0, "\(made.stderr)")
    try Self.give(file, mode: 0o644)
    let attacker = try Attacker(
      ["/usr/bin/python3", Self.race.appendingPathComponent("rewrite.py").path, file],
      awaiting: "rewriting")
    var (whole, changed, torn) = (0, 0, 0)
    for _ in 0..<100 {
      let run = try External.run(Self.binary, command.map { $0 == "FILE" ? file : $0 })
      switch run.status {
      case 0:
        let a = run.output.contains("AAAAAAAAAAAA")
        let b = run.output.contains("BBBBBBBBBBBB")
        if a != b { whole += 1 } else { torn += 1 }
      case 74: changed += 1
      default:
        Issue.record("exit \(run.status): \(run.stderr)")
      }
    }
    withExtendedLifetime(attacker) {}
    #expect(torn == 0, "\(torn) torn answers (\(whole) whole, \(changed) changed)")
  }

  // MARK: - 5. Hard links

  /// Finding 5: with `fs.protected_hardlinks` 0, nobody hard-links daemon's readable domain
  /// into its own folder. Root still migrates and writes daemon's own domain (working as
  /// daemon, the kernel judges what it may do); the link in nobody's folder is daemon's file,
  /// not nobody's, and is refused (65), nothing of it read.
  @Test func anotherUsersHardLinkFreezesNoDomain() throws {
    try Sysctl.with("fs/protected_hardlinks", "0") {
      let folder = try TemporaryFolder()
      let victim = try Self.home(in: folder, "victim", user: Self.daemon)
      let attacker = try Self.home(in: folder, "attacker")
      try FileManager.default.removeItem(atPath: attacker)
      let linked = try External.run(
        "/usr/bin/setpriv",
        ["--reuid=65534", "--regid=65534", "--clear-groups", "ln", victim, attacker])
      #expect(linked.status == 0, "\(linked.stderr)")
      let write = try External.run(Self.binary, ["write", victim, "k", "-string", "v"])
      #expect(write.status == 0, "\(write.stderr)")
      let migrate = try External.run(
        Self.binary, ["migrate", "--plan", Self.plan, "--in-place", victim])
      #expect(migrate.status == 0, "\(migrate.stderr)")
      let theirs = try External.run(
        Self.binary, ["migrate", "--plan", Self.plan, "--in-place", "--json", attacker])
      #expect(theirs.status == 65, "\(theirs.stderr)")
      #expect(theirs.output.contains("\"status\": \"refused\""), "\(theirs.output)")
      #expect(theirs.stderr.contains("belongs to uid 1"), "\(theirs.stderr)")
    }
  }

  // MARK: - 6. Options only where options stand

  /// Finding 6: `--help` (and `--dry-run`) spelt as a key, after the options or after `--`,
  /// is that key: written, exit 0, never the help text with nothing done.
  @Test(arguments: [
    ["write", "FILE", "--help", "-string", "v"], ["write", "--", "FILE", "--help", "-string", "v"],
    ["write", "--json", "--", "FILE", "--help", "-string", "v"],
  ])
  func aKeySpeltLikeAnOptionIsAKey(_ command: [String]) throws {
    let folder = try TemporaryFolder()
    let file = folder.file("d.plist").path
    let run = try External.run(Self.binary, command.map { $0 == "FILE" ? file : $0 })
    #expect(run.status == 0, "\(run.stderr)")
    #expect(!run.output.contains("usage:"), "\(run.output)")
    let written = try PropertyList.read(Data(contentsOf: URL(fileURLWithPath: file))).value
    #expect(written["--help"] == "v")
  }

  // MARK: - 7. Root's process stays root's

  /// Finding 7: while root's `migrate --jobs 1` and `write` work in a user's folder (held
  /// there by the user's lock), the process `ps` and `pgrep -u` see — its main thread — is
  /// root's: real, effective, saved and file-system uids 0.
  @Test(arguments: ["migrate", "write"])
  func rootsProcessIsNeverListedAsTheUsers(_ verb: String) throws {
    let folder = try TemporaryFolder()
    let domain = try Self.home(in: folder)
    let attacker = try Attacker(
      [
        "/usr/bin/python3", Self.race.appendingPathComponent("lock_replace.py").path,
        Self.folder(of: domain), "com.x.plist.lock", "100",
      ], awaiting: "held")
    let arguments =
      verb == "migrate"
      ? [
        "migrate", "--plan", Self.plan, "--in-place", "--lock-timeout", "3", "--jobs", "1", domain,
      ]
      : ["--lock-timeout", "3", "write", domain, "k", "-string", "v"]
    let root = try Root(arguments)
    let start = Date()
    var seen: [String] = []
    while root.process.isRunning, Date().timeIntervalSince(start) < 2.5 {
      if let line = root.status("Uid:") { seen.append(line) }
      usleep(20_000)
    }
    let run = root.finish(since: start)
    withExtendedLifetime(attacker) {}
    #expect(run.status == 75, "\(run.error)")
    #expect(seen.count > 10)
    let ids = Set(seen.map { $0.split(whereSeparator: \.isWhitespace).dropFirst() })
    #expect(ids == [["0", "0", "0", "0"]], "the main thread was \(ids)")
  }

  // MARK: - 8. A folder a user made first in a shared folder

  /// Finding 8: nobody makes `SHARED/prefs-cache` first in a sticky shared folder; root's
  /// `write` of a secret to a new file there is refused (73), no file made, instead of a file
  /// of nobody's holding the secret.
  @Test func aFolderAUserMadeFirstTakesNoNewFileOfRoots() throws {
    let folder = try TemporaryFolder()
    let shared = folder.file("shared").path
    try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
    chmod(shared, 0o1777)
    let made = try External.run(
      "/usr/bin/setpriv",
      ["--reuid=65534", "--regid=65534", "--clear-groups", "mkdir", shared + "/prefs-cache"])
    #expect(made.status == 0, "\(made.stderr)")
    let run = try External.run(
      Self.binary,
      ["write", shared + "/prefs-cache/com.app.plist", "Token", "-string", Self.marker])
    #expect(run.status == 73, "\(run.stderr)")
    #expect(run.stderr.contains("any user could have made it first"), "\(run.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: shared + "/prefs-cache") == [])
  }

  // MARK: - 9. Exit codes by cause

  /// Finding 9: a legacy file refused for what it is (a link the user planted) is `refused`,
  /// exit 65, not `failed` with 66 ("missing"); `read` of it 65 too.
  @Test func aRefusedInputHasItsCausesExitCode() throws {
    let folder = try TemporaryFolder()
    let domain = try Self.home(in: folder)
    let other = Self.folder(of: domain) + "/other.plist"
    try FileManager.default.moveItem(atPath: domain, toPath: other)
    guard symlink(other, domain) == 0, lchown(domain, Self.nobody.user, Self.nobody.group) == 0
    else { throw TypedJSONError(description: "cannot plant the link") }
    let migrate = try External.run(
      Self.binary, ["migrate", "--plan", Self.plan, "--in-place", "--json", domain])
    #expect(migrate.status == 65, "\(migrate.stderr)")
    #expect(migrate.output.contains("\"status\": \"refused\""), "\(migrate.output)")
    let read = try External.run(Self.binary, ["write", domain, "k", "-string", "v"])
    #expect(read.status == 65, "\(read.stderr)")
  }
}

/// A kernel setting (`/proc/sys/<name>`) set for the time of `body`, then put back.
enum Sysctl {
  static func with(_ name: String, _ value: String, _ body: () throws -> Void) throws {
    let path = "/proc/sys/" + name
    let old = try String(contentsOfFile: path, encoding: .utf8)
    try Data((value + "\n").utf8).write(to: URL(fileURLWithPath: path))
    defer {
      do {
        try Data(old.utf8).write(to: URL(fileURLWithPath: path))
      } catch {
        Issue.record("\(path) could not be put back to \(old): \(error)")
      }
    }
    try body()
  }
}
