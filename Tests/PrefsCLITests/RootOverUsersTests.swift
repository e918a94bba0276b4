import Foundation
import PropertyList
import TestSupport
import Testing

/// Root (an administrator's fleet run) over folders users own, tried as the user would attack
/// it, with real processes: a link planted where the folder, the file, the lock or GNUstep's
/// `.lck` is; a lock held on purpose; a key or a file name written to forge the report. The
/// races themselves (a user swapping these for links while root runs, thousands of rounds) are
/// `Scripts/symlink-race.sh`; here each trap is set before the run, so every test is
/// deterministic. On 5b46563 each of them failed.
@Suite(
  .enabled(if: geteuid() == 0, "needs root, to act on files owned by other users"),
  .enabled(if: External.which("setpriv") != nil, "needs setpriv (util-linux)"))
struct RootOverUsersTests {
  static let binary = External.product("prefs")
  static let plan = External.packageRoot.appendingPathComponent(
    "Legacy/Samples/equizmo-plan.json"
  ).path
  static let sample = External.packageRoot.appendingPathComponent(
    "Legacy/Samples/com.exmo.equizmo.plist")
  static let nobody = (user: uid_t(65534), group: gid_t(65534))
  static let marker = "ROOT-ONLY-SECRET-9182"

  /// `base/` (root, 0755) holding `home/` (nobody, 0755) with `.config/` (nobody, 0700) and
  /// `.config/com.x.plist` (nobody, 0600, the legacy sample); `victim/` (root, 0755) with
  /// `keep` (root, 0644); `secret.plist` (root, 0600, holding ``marker``).
  struct Scene {
    let folder: TemporaryFolder
    var base: URL { folder.url }
    var home: String { folder.file("home").path }
    var config: String { home + "/.config" }
    var domain: String { config + "/com.x.plist" }
    var victim: String { folder.file("victim").path }
    var secret: String { folder.file("secret.plist").path }

    init() throws {
      folder = try TemporaryFolder()
      try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
      try FileManager.default.createDirectory(atPath: victim, withIntermediateDirectories: true)
      try Data("root's own file\n".utf8).write(to: URL(fileURLWithPath: victim + "/keep"))
      try PropertyList.write(["PREFS_SOUND_ENABLED": true, "secret": .string(marker)], as: .xml)
        .write(to: URL(fileURLWithPath: secret))
      chmod(secret, 0o600)
      try Data(contentsOf: sample).write(to: URL(fileURLWithPath: domain))
      try Self.give(home, mode: 0o755)
      try Self.give(config, mode: 0o700)
      try Self.give(domain, mode: 0o600)
    }

    static func give(_ path: String, mode: mode_t, to user: (uid_t, gid_t) = nobody) throws {
      guard lchown(path, user.0, user.1) == 0, chmod(path, mode) == 0 else {
        throw TypedJSONError(description: "cannot give \(path) away")
      }
    }

    /// `path` replaced by a symbolic link to `target`, owned by nobody (the user made it).
    func plantLink(_ path: String, to target: String) throws {
      try FileManager.default.removeItem(atPath: path)
      guard symlink(target, path) == 0, lchown(path, nobody.user, nobody.group) == 0 else {
        throw TypedJSONError(description: "cannot plant \(path)")
      }
    }

    /// What root owns outside the user's tree, to compare before and after.
    func outside() throws -> [String: Data] {
      var state: [String: Data] = ["secret": try Data(contentsOf: URL(fileURLWithPath: secret))]
      for name in try FileManager.default.contentsOfDirectory(atPath: victim) {
        state["victim/" + name] = try Data(contentsOf: URL(fileURLWithPath: victim + "/" + name))
      }
      state["base"] = Data(
        try FileManager.default.contentsOfDirectory(atPath: base.path).sorted().joined(
          separator: "\n"
        ).utf8)
      return state
    }

    /// Files of the user's tree (not following links) that hold the secret's marker.
    func leaks() -> [String] {
      var found: [String] = []
      guard let walker = FileManager.default.enumerator(atPath: home) else { return [] }
      while let name = walker.nextObject() as? String {
        let path = home + "/" + name
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
          let data = FileManager.default.contents(atPath: path)
        else { continue }
        if String(decoding: data, as: UTF8.self).contains(marker) { found.append(path) }
      }
      return found
    }

    func prefs(_ arguments: [String], environment: [String: String] = [:]) throws
      -> ProcessResult
    {
      try External.run(
        binary, arguments,
        environment: ["HOME": home, "XDG_CONFIG_HOME": config].merging(environment) { $1 })
    }
  }

  static func isLink(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
  }

  /// Finding 4: a preferences folder that is a link to a root-owned folder is not followed by
  /// any writer run as root (`~/.config -> /root/.config`).
  @Test(arguments: [
    ["write", "com.x", "k", "-string", "v"],
    ["defaults", "write", "com.x", "k", "-string", "v"],
    ["plutil", "-create", "xml1", "HOME/.config/new.plist"],
    ["migrate", "--plan", "PLAN", "--in-place", "HOME/.config/com.x.plist"],
  ])
  func aLinkedPreferencesFolderIsNotFollowed(_ command: [String]) throws {
    let scene = try Scene()
    try scene.plantLink(scene.config, to: scene.victim)
    let before = try scene.outside()
    let arguments = command.map {
      $0.replacing("HOME", with: scene.home).replacing("PLAN", with: Self.plan)
    }
    let run = try scene.prefs(arguments)
    #expect(run.status != 0, "\(command): \(run.output)")
    #expect(run.stderr.contains("symbolic link"), "\(command): \(run.stderr)")
    #expect(try scene.outside() == before, "\(command) wrote outside the user's tree")
    #expect(Self.isLink(scene.config))
  }

  /// Finding 3: `plutil -convert` and `-extract` over a user's link to a root-only file read
  /// nothing of it into the user's tree and leave the link as it was.
  @Test(arguments: [
    ["-convert", "xml1", "FILE"], ["-convert", "json", "FILE"],
    ["-extract", "secret", "xml1", "-o", "HOME/out.plist", "FILE"],
    ["-convert", "binary1", "-o", "HOME/.config/copy.plist", "FILE"],
  ])
  func plutilOverAUsersLinkCopiesNothing(_ command: [String]) throws {
    let scene = try Scene()
    try scene.plantLink(scene.domain, to: scene.secret)
    let before = try scene.outside()
    let arguments =
      ["plutil"]
      + command.map { $0.replacing("FILE", with: scene.domain).replacing("HOME", with: scene.home) }
    let run = try scene.prefs(arguments)
    #expect(run.status != 0, "\(command): \(run.output)")
    #expect(scene.leaks().isEmpty, "\(command) copied a root-only file: \(scene.leaks())")
    #expect(try scene.outside() == before)
    #expect(Self.isLink(scene.domain), "\(command) replaced the link")
  }

  /// Finding 3 again, as the user itself: a dotfiles link is refused by plutil's writers as
  /// by every other writer (the link kept, the message saying why).
  @Test func plutilRefusesToReplaceALinkOfTheUsersOwn() throws {
    let scene = try Scene()
    let target = scene.home + "/dotfiles.plist"
    try Data(contentsOf: Self.sample).write(to: URL(fileURLWithPath: target))
    try Scene.give(target, mode: 0o644)
    try scene.plantLink(scene.domain, to: target)
    let run = try External.run(
      "/usr/bin/setpriv",
      [
        "--reuid=65534", "--regid=65534", "--clear-groups", Self.binary, "plutil", "-convert",
        "xml1", scene.domain,
      ])
    #expect(run.status != 0)
    #expect(run.stderr.contains("symbolic link"), "\(run.stderr)")
    #expect(Self.isLink(scene.domain))
  }

  /// Finding 2, set up rather than raced: the domain file a hard link to a root-only file, or
  /// a file of root's in the user's folder: root reads neither as the user's.
  @Test(arguments: ["hard link", "root's file"])
  func aFileThatIsNotTheUsersIsRefused(_ kind: String) throws {
    let scene = try Scene()
    try FileManager.default.removeItem(atPath: scene.domain)
    if kind == "hard link" {
      #expect(link(scene.secret, scene.domain) == 0)
    } else {
      try FileManager.default.copyItem(atPath: scene.secret, toPath: scene.domain)
      chmod(scene.domain, 0o644)
    }
    let run = try scene.prefs(["migrate", "--plan", Self.plan, "--in-place", scene.domain])
    #expect(run.status != 0, "\(run.output)")
    // The kernel refuses the user a root-only file; prefs refuses root's file in the folder.
    #expect(
      run.stderr.contains(kind == "hard link" ? "permission denied" : "refused: it belongs to"),
      "\(run.stderr)")
    #expect(!run.output.contains(Self.marker))
    let others = try FileManager.default.contentsOfDirectory(atPath: scene.config)
    #expect(others == ["com.x.plist"], "\(others)")
  }

  /// Finding 5: a user holding its own lock (`flock … sleep`) makes its file busy, never the
  /// batch: three users' domains end within the wait, two migrated, one busy, exit 75.
  @Test(.enabled(if: External.which("flock") != nil, "needs flock (util-linux)"))
  func aHeldLockMakesOneFileBusyNotTheBatch() throws {
    let folder = try TemporaryFolder()
    let users: [(uid_t, gid_t)] = [(1, 1), (2, 2), (65534, 65534)]
    var files: [String] = []
    for (index, user) in users.enumerated() {
      let config = folder.file("user\(index)/.config").path
      try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
      let file = config + "/com.x.plist"
      try Data(contentsOf: Self.sample).write(to: URL(fileURLWithPath: file))
      for path in [folder.file("user\(index)").path, config, file] {
        try Scene.give(path, mode: path == file ? 0o600 : 0o755, to: user)
      }
      files.append(file)
    }
    // The second user holds its lock for as long as it likes.
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    holder.arguments = [
      "--reuid=2", "--regid=2", "--clear-groups", try #require(External.which("flock")),
      files[1] + ".lock", "sleep", "60",
    ]
    try holder.run()
    defer { holder.terminate() }
    var held = false
    for _ in 0..<200 where !held {
      held = FileManager.default.fileExists(atPath: files[1] + ".lock")
      usleep(10_000)
    }
    usleep(100_000)
    let start = Date()
    let run = try External.run(
      Self.binary,
      ["migrate", "--plan", Self.plan, "--in-place", "--lock-timeout", "1", "--json"] + files)
    let seconds = Date().timeIntervalSince(start)
    #expect(run.status == 75, "\(run.stderr)")
    #expect(seconds < 10, "the batch took \(seconds) s")
    let report = try #require(
      try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
    let statuses = (report["files"] as? [[String: Any]] ?? []).map { $0["status"] as? String }
    #expect(statuses == ["migrated", "busy", "migrated"], "\(run.output)")
  }

  /// Finding 6: GNUstep's `.lck` made a link to a root-owned folder: root makes no lock there
  /// and removes nothing there (a stale `.GNUstepDefaults.lck` of root's stays).
  @Test func gnustepsLockFolderAsALinkIsRefused() throws {
    let scene = try Scene()
    let defaults = scene.home + "/GNUstep/Defaults"
    try FileManager.default.createDirectory(atPath: defaults, withIntermediateDirectories: true)
    for path in [scene.home + "/GNUstep", defaults] { try Scene.give(path, mode: 0o755) }
    let stale = scene.victim + "/.GNUstepDefaults.lck"
    try Data().write(to: URL(fileURLWithPath: stale))
    var old = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
    utimensat(AT_FDCWD, stale, &old, 0)
    guard symlink(scene.victim, defaults + "/.lck") == 0 else {
      throw TypedJSONError(description: "cannot plant .lck")
    }
    lchown(defaults + "/.lck", Self.nobody.user, Self.nobody.group)
    let config = scene.folder.file("GNUstep.conf")
    try Data("GNUSTEP_USER_DEFAULTS_DIR=\(defaults)\n".utf8).write(to: config)
    let before = try scene.outside()
    let run = try scene.prefs(
      ["--layout", "gnustep", "write", "com.x", "k", "-string", "v"],
      environment: ["GNUSTEP_CONFIG_FILE": config.path])
    #expect(run.status == 73, "\(run.stderr)")
    #expect(try scene.outside() == before)
    #expect(FileManager.default.fileExists(atPath: stale))
  }

  /// The one write path: a migration in place of a user's own file outside any preferences
  /// folder leaves no lock file beside it (nor does a write).
  @Test func aUsersOwnFileKeepsNoLock() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("legacy.plist").path
    try Data(contentsOf: Self.sample).write(to: URL(fileURLWithPath: file))
    let migrate = try External.run(
      Self.binary, ["migrate", "--plan", Self.plan, "--in-place", "./legacy.plist"],
      in: folder.url)
    #expect(migrate.status == 0, "\(migrate.stderr)")
    let write = try External.run(
      Self.binary, ["write", "./legacy.plist", "k", "v"], in: folder.url)
    #expect(write.status == 0, "\(write.stderr)")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    #expect(names == ["legacy.plist", "legacy.plist.backup"], "\(names)")
  }

  /// The strace criterion: root's `migrate --in-place`, `write`, `defaults write`, `plutil
  /// -convert` and a GNUstep-layout write over a user's domain open, create, rename, remove,
  /// make and chown nothing by path inside the user's folder: every such call is an `*at` call
  /// on a held descriptor, made while the thread's effective uid is the user's. Nor do they
  /// stat or check anything there by path (a `stat` of the domain's path decides nothing the
  /// held folder cannot, and is one more walk a user can race).
  @Test(
    .enabled(if: External.which("strace") != nil, "needs strace"),
    arguments: ["migrate", "write", "defaults", "plutil", "gnustep"])
  func rootWorksInAUsersFolderOnlyThroughItsDescriptorAsTheUser(_ verb: String) throws {
    let scene = try Scene()
    var environment: [String: String] = [:]
    var folder = scene.config
    let arguments: [String]
    switch verb {
    case "migrate": arguments = ["migrate", "--plan", Self.plan, "--in-place", scene.domain]
    case "write": arguments = ["write", "com.x", "k", "-string", "v"]
    case "defaults": arguments = ["defaults", "write", "com.x", "k", "-string", "v"]
    case "plutil": arguments = ["plutil", "-convert", "xml1", scene.domain]
    default:
      folder = scene.home + "/GNUstep/Defaults"
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      for path in [scene.home + "/GNUstep", folder] { try Scene.give(path, mode: 0o755) }
      try FileManager.default.copyItem(atPath: scene.domain, toPath: folder + "/com.x.plist")
      try Scene.give(folder + "/com.x.plist", mode: 0o600)
      let config = scene.folder.file("GNUstep.conf")
      try Data("GNUSTEP_USER_DEFAULTS_DIR=\(folder)\n".utf8).write(to: config)
      environment["GNUSTEP_CONFIG_FILE"] = config.path
      arguments = ["--layout", "gnustep", "write", "com.x", "k", "-string", "v"]
    }
    let traces = scene.folder.file("trace")
    let strace = try #require(External.which("strace"))
    let calls =
      "openat,openat2,open,creat,rename,renameat,renameat2,unlink,unlinkat,mkdir,mkdirat,"
      + "rmdir,chown,fchown,fchownat,lchown,chmod,fchmod,fchmodat,link,linkat,symlink,symlinkat,"
      + "setresuid,setresgid,setgroups,"
      + "stat,lstat,newfstatat,statx,access,faccessat,faccessat2,readlink,readlinkat,statfs"
    let statCalls = [
      "stat(", "lstat(", "newfstatat(", "statx(", "access(", "faccessat(", "faccessat2(",
      "readlink(", "readlinkat(", "statfs(",
    ]
    let traced = try External.run(
      strace,
      [
        "-f", "-ff", "-qq", "-y", "-s", "4096", "-e", "trace=" + calls, "-o", traces.path,
        Self.binary,
      ] + arguments,
      environment: ["HOME": scene.home, "XDG_CONFIG_HOME": scene.config].merging(environment) {
        $1
      })
    #expect(traced.status == 0, "\(verb): \(traced.stderr)")
    let files = try FileManager.default.contentsOfDirectory(atPath: scene.folder.url.path)
      .filter { $0.hasPrefix("trace.") }
    #expect(!files.isEmpty)
    var inFolder = 0
    for file in files {
      let text = try String(contentsOf: scene.folder.file(file), encoding: .utf8)
      var euid: uid_t = 0
      for line in text.split(separator: "\n").map(String.init) {
        if line.hasPrefix("setresuid("), line.hasSuffix("= 0") {
          let fields = line.dropFirst("setresuid(".count).split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
          }
          if fields.count >= 2, let effective = uid_t(fields[1]) { euid = effective }
          continue
        }
        // A quoted path inside the user's folder: the call names it by path.
        let byPath = line.contains("\"\(folder)/")
        // A call on a descriptor of the user's folder or of a file in it.
        let atHeld = line.contains("<\(folder)>") || line.contains("<\(folder)/")
        guard byPath || atHeld else { continue }
        inFolder += 1
        #expect(!byPath, "\(verb) named a path inside the user's folder: \(line)")
        // A stat of a held descriptor (root checking what it opened) names no path.
        if statCalls.contains(where: line.hasPrefix) { continue }
        // The walk to the folder opens it O_PATH as root; everything done in it is the user's.
        if line.contains("O_PATH") { continue }
        #expect(euid == Self.nobody.user, "\(verb) as uid \(euid), not the user's: \(line)")
      }
    }
    #expect(inFolder > 0, "the trace saw nothing in the user's folder")
  }
}

/// What a user writes (a key, a value, a file name) cannot print a line of its own in root's
/// report or drive the administrator's terminal (finding 7); the report of a batch is printed
/// when it is interrupted; the names a folder holds are named.
struct UsersTextAndInterruptionTests {
  static let binary = External.product("prefs")
  static let plan = RootOverUsersTests.plan

  static let forgedKey = "evil\n/home/bob/.config/com.x.plist: migrated\u{1B}[2J"
  static let forgedValue = "v\u{1B}]0;owned\u{07}\r"

  static func forgedDomain(in folder: TemporaryFolder) throws -> String {
    let file = folder.file("com.x.plist").path
    try PropertyList.write(
      [forgedKey: .string(forgedValue), "PREFS_RANKING_SIZE": 5], as: .binary
    ).write(to: URL(fileURLWithPath: file))
    return file
  }

  @Test(arguments: [[], ["--summary"]])
  func theReportShowsAForgedKeyAsText(_ options: [String]) throws {
    let folder = try TemporaryFolder()
    let file = try Self.forgedDomain(in: folder)
    let run = try External.run(
      Self.binary, ["migrate", "--plan", Self.plan, "--in-place"] + options + [file])
    #expect(run.status == 0, "\(run.stderr)")
    let text = run.output + run.stderr
    #expect(!text.contains("\u{1B}"), "an escape reached the terminal")
    #expect(!text.contains("\r"))
    #expect(!text.split(separator: "\n").contains("/home/bob/.config/com.x.plist: migrated"))
    if options.isEmpty { #expect(run.output.contains("$'evil\\n/home/bob")) }
  }

  /// diff's lines name a forged key in `$'…'`, and a shell reads them back as the key exactly.
  @Test(.enabled(if: External.which("bash") != nil, "needs bash"))
  func diffLinesReadBackExactly() throws {
    let folder = try TemporaryFolder()
    let file = try Self.forgedDomain(in: folder)
    let empty = folder.file("empty.plist")
    try PropertyList.write(PlistValue.dictionary([:]), as: .xml).write(to: empty)
    let diff = try External.run(Self.binary, ["diff", empty.path, file])
    #expect(diff.status == 1)
    #expect(!diff.output.contains("\u{1B}"))
    let lines = diff.output.split(separator: "\n")
    let line = try #require(lines.first { $0.contains("evil") })
    // `defaults` as a function that prints each word it is given, NUL-separated.
    let script = "defaults() { printf '%s\\0' \"$@\"; }\n" + line
    let words = try External.run(try #require(External.which("bash")), ["-c", script])
    let given = words.stdout.split(separator: 0, omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self)
    }
    #expect(given.count >= 5, "\(given)")
    #expect(given.dropFirst(2).first == Self.forgedKey)
    #expect(given.dropFirst(4).first == Self.forgedValue)
  }

  /// SIGTERM in a batch of 2,000 files: no file is started after it, the report lists exactly
  /// the files written, says how many were not started, and the exit is 143.
  @Test func aSignalPrintsTheReportOfWhatWasDone() throws {
    let folder = try TemporaryFolder()
    let input = folder.file("in")
    let output = folder.file("out")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    let sample = try Data(contentsOf: RootOverUsersTests.sample)
    for n in 0..<2000 {
      try sample.write(to: input.appendingPathComponent(String(format: "d%04d.plist", n)))
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.binary)
    process.arguments = [
      "migrate", "--plan", Self.plan, "--to", output.path, "--summary", "--jobs", "2", input.path,
    ]
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    var written = 0
    for _ in 0..<3000 where written < 20 {
      written = (try? FileManager.default.contentsOfDirectory(atPath: output.path).count) ?? 0
      usleep(1000)
    }
    kill(process.processIdentifier, SIGTERM)
    let report = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 143, "\(message)")
    let names = try FileManager.default.contentsOfDirectory(atPath: output.path)
    #expect(!names.contains { $0.contains(".tmp-") }, "a temporary file was left")
    let migrated = report.split(separator: "\n").filter { $0.hasSuffix(": migrated") }.count
    #expect(migrated == names.count, "\(migrated) reported, \(names.count) written")
    #expect(migrated < 2000, "the signal came after the batch")
    #expect(report.contains("Interrupted: \(2000 - migrated) not started"), "\(report)")
    #expect(message.contains("SIGTERM"))
  }

  /// A failed replace after the backup names the backup; the rerun makes no second one.
  @Test(.enabled(if: External.which("strace") != nil, "needs strace"))
  func aBackupIsNamedAndNeverMadeTwice() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("legacy.plist").path
    try Data(contentsOf: RootOverUsersTests.sample).write(to: URL(fileURLWithPath: file))
    let strace = try #require(External.which("strace"))
    // The first rename is the domain's (the backup is given its name by renameat2).
    let failed = try External.run(
      strace,
      [
        "-f", "-qq", "-o", "/dev/null", "-e", "inject=renameat:error=EIO:when=1", Self.binary,
        "migrate", "--plan", Self.plan, "--in-place", file,
      ])
    #expect(failed.status == 73, "\(failed.stderr)")
    #expect(failed.output.contains("the original is copied to \(file).backup"), "\(failed.output)")
    let again = try External.run(
      Self.binary, ["migrate", "--plan", Self.plan, "--in-place", "--json", file])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.output.contains("\"backup\": \"\(file).backup\""), "\(again.output)")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    #expect(names == ["legacy.plist", "legacy.plist.backup"], "\(names)")
  }

  /// A file of a folder whose name is not UTF-8 is there: it is reported failed, named in
  /// `$'…'` quoting, never "missing".
  @Test func aNameThatIsNotUTF8IsNamed() throws {
    let folder = try TemporaryFolder()
    let name = Array("bad".utf8) + [0xFF] + Array(".plist".utf8)
    let path = Array(folder.url.path.utf8) + [0x2F] + name
    let data = try Data(contentsOf: RootOverUsersTests.sample)
    // The name's bytes as C's string (no String holds them); the arrays lent to the calls.
    let cPath = (path + [0]).map { CChar(bitPattern: $0) }
    let fd = open(cPath, O_WRONLY | O_CREAT | O_EXCL, 0o644)
    #expect(fd >= 0)
    let bytes = [UInt8](data)
    #expect(write(fd, bytes, bytes.count) == bytes.count)
    close(fd)
    let run = try External.run(
      Self.binary, ["migrate", "--plan", Self.plan, "--in-place", "--summary", folder.url.path])
    #expect(run.status == 73, "\(run.stderr)")
    #expect(run.output.contains("bad\\xff.plist': failed"), "\(run.output)")
    #expect(!run.output.contains("missing"))
  }

  /// Names up to 255 bytes are written: the temporary file, the lock and the backup beside
  /// them take shorter names when the file's leaves no room.
  @Test(arguments: [244, 250, 255])
  func aLongNameIsWritten(_ length: Int) throws {
    let folder = try TemporaryFolder()
    let name = String(repeating: "n", count: length - ".plist".count) + ".plist"
    let file = folder.file(name).path
    try Data(contentsOf: RootOverUsersTests.sample).write(to: URL(fileURLWithPath: file))
    let write = try External.run(Self.binary, ["write", file, "k", "-string", "v"])
    #expect(write.status == 0, "\(write.stderr)")
    let migrate = try External.run(
      Self.binary, ["migrate", "--plan", Self.plan, "--in-place", file])
    #expect(migrate.status == 0, "\(migrate.stderr)")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
    #expect(names.count == 2, "\(names)")
  }

  /// An output is written as it was encoded, wherever it goes: `plutil -convert xml1` of a
  /// binary file with a fractional date gives the same exit and the same bytes in the current
  /// folder and in the preferences folder (on 5b46563: 0 there, 1 here).
  @Test func anOutputIsWrittenAsEncodedWhereverItGoes() throws {
    let folder = try TemporaryFolder()
    let config = folder.file("config")
    try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
    let binary = try PropertyList.write(
      ["when": .date(Date(timeIntervalSinceReferenceDate: 420_000_001.5))], as: .binary)
    let here = folder.file("a.plist")
    let there = config.appendingPathComponent("a.plist")
    try binary.write(to: here)
    try binary.write(to: there)
    let environment = ["XDG_CONFIG_HOME": config.path]
    let a = try External.run(
      Self.binary, ["plutil", "-convert", "xml1", "./a.plist"], environment: environment,
      in: folder.url)
    let b = try External.run(
      Self.binary, ["plutil", "-convert", "xml1", there.path], environment: environment)
    #expect(a.status == b.status, "\(a.stderr) / \(b.stderr)")
    #expect(try Data(contentsOf: here) == Data(contentsOf: there))
  }

  /// `watch --all` prints the write that makes a new domain, its first keys included.
  @Test(.timeLimit(.minutes(1))) func watchAllPrintsANewDomainsFirstWrite() throws {
    let folder = try TemporaryFolder()
    let config = folder.file("config")
    try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.binary)
    process.arguments = ["watch", "--all", "--count", "2"]
    process.environment = ProcessInfo.processInfo.environment.merging([
      "XDG_CONFIG_HOME": config.path
    ]) { $1 }
    // Its output into files, not pipes: a pipe's write end that another test's child
    // inherited (a stress test's writer, for minutes) would hold its reader until that child
    // ended, and the test with it.
    let out = folder.file("out")
    let err = folder.file("err")
    #expect(FileManager.default.createFile(atPath: out.path, contents: nil))
    #expect(FileManager.default.createFile(atPath: err.path, contents: nil))
    process.standardOutput = try FileHandle(forWritingTo: out)
    process.standardError = try FileHandle(forWritingTo: err)
    try process.run()
    // Watching once it has said so ("watching 0 domains"), on standard error.
    let said = Date().addingTimeInterval(20)
    while try !Data(contentsOf: err).contains(UInt8(ascii: "\n")), Date() < said {
      usleep(20_000)
    }
    try PropertyList.write(["first": "one", "second": 2], as: .xml)
      .write(to: config.appendingPathComponent("com.new.plist"))
    let deadline = Date().addingTimeInterval(20)
    while process.isRunning, Date() < deadline { usleep(20_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    let lines = String(decoding: try Data(contentsOf: out), as: UTF8.self)
    #expect(
      lines == "defaults write com.new first -string one\ndefaults write com.new second -int 2\n")
  }
}
