import Foundation
import PropertyList
import TestSupport
import Testing

/// What the fully static release build must never do, checked on whichever binary the tests
/// run (`PREFS_TEST_BINARY`: the shipped one): ask the name service switch (a static glibc
/// binary would load `libnss_*` and a second C library with it, and crashes on a user that
/// `/etc/passwd` does not hold), and what each kind of write flushes.
@Suite struct StaticBuildTests {
  static let binary = External.product("prefs")
  static let strace = External.which("strace")

  /// A folder with a small binary file, a preferences folder (XDG_CONFIG_HOME) holding a
  /// domain, and a link named `defaults` to the binary.
  struct Scene {
    let folder: TemporaryFolder
    var file: String { folder.file("small.plist").path }
    var config: URL { folder.file("config") }
    var defaults: String { folder.file("bin/defaults").path }

    init() throws {
      folder = try TemporaryFolder()
      let values: PlistDictionary = ["FontSize": 12, "name": "Ada", "sound": true]
      try PropertyList.write(.dictionary(values), as: .binary).write(
        to: URL(fileURLWithPath: file))
      try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
      try PropertyList.write(.dictionary(values), as: .binary).write(
        to: config.appendingPathComponent("com.example.small.plist"))
      try FileManager.default.createDirectory(
        at: folder.file("bin"), withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(
        atPath: defaults, withDestinationPath: StaticBuildTests.binary)
    }

    /// `arguments` (FILE: the file; CONFIG: the preferences folder) run under strace, its
    /// log's lines for `trace`.
    func traced(_ arguments: [String], trace: String, environment: [String: String] = [:])
      throws -> (result: ProcessResult, log: [String])
    {
      let log = folder.file("trace-\(UUID().uuidString)").path
      let words = arguments.map {
        $0 == "FILE" ? file : $0 == "CONFIG" ? config.path : $0 == "DEFAULTS" ? defaults : $0
      }
      // A word that is a path first (the `defaults` link, `env`) is the command itself.
      let command = words.first?.hasPrefix("/") == true ? words : [StaticBuildTests.binary] + words
      let result = try External.run(
        try #require(StaticBuildTests.strace), ["-f", "-e", "trace=\(trace)", "-o", log] + command,
        environment: ["XDG_CONFIG_HOME": config.path].merging(environment) { $1 })
      let text = try String(contentsOfFile: log, encoding: .utf8)
      return (result, text.split(separator: "\n").map(String.init))
    }
  }

  /// Every verb a small script runs, and the paths that look a user up (a domain name with
  /// HOME and without it, a quoted `~/`): none opens the name service switch's configuration
  /// or one of its modules.
  @Test(
    .enabled(if: strace != nil, "needs strace"),
    arguments: [
      ["read", "FILE", "FontSize"], ["read", "FILE"], ["write", "FILE", "FontSize", "-int", "13"],
      ["convert", "FILE", "--to", "xml"], ["convert", "FILE", "--to", "json", "-o", "FILE.json"],
      ["read", "com.example.small", "FontSize"], ["write", "com.example.small", "k", "v"],
      ["DEFAULTS", "read", "com.example.small", "FontSize"], ["DEFAULTS", "domains"],
      ["lint", "FILE"], ["delete", "FILE", "name"],
    ])
  func noVerbAsksTheNameServiceSwitch(_ arguments: [String]) throws {
    let scene = try Scene()
    let (result, log) = try scene.traced(
      arguments.map { $0 == "FILE.json" ? scene.file + ".json" : $0 }, trace: "open,openat,openat2")
    #expect(result.status == 0, "\(arguments): \(result.stderr)")
    let asked = log.filter(Self.asksTheSystem)
    #expect(asked.isEmpty, "\(arguments): \(asked)")
  }

  /// Whether an `open` of the trace is one a static glibc binary must not make: the name
  /// service switch's configuration or a module of it, the locale archive, a character set
  /// conversion module (`gconv`), or any shared library when the binary is fully static.
  static func asksTheSystem(_ line: String) -> Bool {
    let forbidden = ["nsswitch.conf", "libnss_", "/usr/lib/locale", "gconv"]
    if forbidden.contains(where: { line.contains($0) }) { return true }
    return isFullyStatic && line.contains(".so")
  }

  /// Whether the binary under test has no dynamic section (`readelf -d`).
  static let isFullyStatic: Bool = {
    guard let readelf = External.which("readelf"),
      let result = try? External.run(readelf, ["-d", binary])
    else { return false }
    return result.output.contains("no dynamic section")
  }()

  /// The shipped binary (`.ci/run` runs the command's tests again with `PREFS_TEST_BINARY` set
  /// to the Install build) is one fully static executable: no program interpreter (the
  /// dynamic loader never runs), no dynamic section, so no shared library it needs.
  @Test(
    .enabled(
      if: ProcessInfo.processInfo.environment["PREFS_TEST_BINARY"] != nil
        && External.which("readelf") != nil,
      "needs PREFS_TEST_BINARY (the release build of the README's Install) and readelf"))
  func theShippedBinaryIsFullyStatic() throws {
    let readelf = try #require(External.which("readelf"))
    let result = try External.run(readelf, ["-d", "-l", Self.binary])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.output.contains("There is no dynamic section"), "\(result.output)")
    #expect(!result.output.contains("(NEEDED)"))
    #expect(!result.output.contains("INTERP"), "a program interpreter: dynamically linked")
  }

  /// This user's home folder as the system's own lookup gives it (`getpwuid`, through the name
  /// service switch in this dynamically linked test), when `/etc/passwd` has the user's line
  /// (else the lookup may come from elsewhere, which the command does not ask).
  static func passwdHome() -> String? {
    guard let entry = getpwuid(getuid()), let name = entry.pointee.pw_name,
      let dir = entry.pointee.pw_dir
    else { return nil }
    let passwd = (try? String(contentsOfFile: "/etc/passwd", encoding: .utf8)) ?? ""
    guard
      passwd.split(separator: "\n").contains(where: { $0.hasPrefix(String(cString: name) + ":") })
    else { return nil }
    var home = String(cString: dir)
    while home.count > 1, home.hasSuffix("/") { home.removeLast() }
    return home.isEmpty ? nil : home
  }

  /// Without HOME and XDG_CONFIG_HOME, a domain is in the home folder of this user's
  /// `/etc/passwd` line: the one `getpwuid` gives (nothing is created: the domain does not
  /// exist, and the message names where it was looked for).
  @Test(.enabled(if: passwdHome() != nil, "this user has no line in /etc/passwd"))
  func withoutHOMEADomainIsInThePasswdHome() throws {
    let home = try #require(Self.passwdHome())
    let domain = "com.example.no-such-domain-\(UUID().uuidString)"
    let result = try External.run(
      "/usr/bin/env", ["-u", "HOME", "-u", "XDG_CONFIG_HOME", Self.binary, "read", domain])
    #expect(result.status == 1, "\(result.stderr)")
    let expected = (home == "/" ? "" : home) + "/.config/\(domain).plist"
    #expect(result.stderr.contains(expected), "\(result.stderr)")
  }

  /// `~/` quoted past the shell, and a domain with no HOME at all (the home folder then comes
  /// from /etc/passwd, read as a file): still no name service lookup.
  @Test(.enabled(if: strace != nil, "needs strace"))
  func aHomeFolderIsNeverLookedUp() throws {
    let scene = try Scene()
    let home = scene.folder.url.path
    let tilde = try scene.traced(
      ["read", "~/small.plist", "FontSize"], trace: "open,openat,openat2",
      environment: ["HOME": home])
    #expect(tilde.result.output == "12\n", "\(tilde.result.stderr)")
    let unset = try scene.traced(
      ["/usr/bin/env", "-u", "HOME", "-u", "XDG_CONFIG_HOME", Self.binary, "read", "com.x.none"],
      trace: "open,openat,openat2,execve")
    // What env(1) opens before it runs the binary (its own locale) is not the binary's.
    let start = try #require(unset.log.lastIndex { $0.contains("execve(\"\(Self.binary)\"") })
    for log in [tilde.log, Array(unset.log[start...])] {
      let asked = log.filter(Self.asksTheSystem)
      #expect(asked.isEmpty, "\(asked)")
    }
    // Without HOME, the home folder is /etc/passwd's: that file was read, as a file.
    #expect(unset.log.contains { $0.contains("\"/etc/passwd\"") })
  }

  /// A file owned by a user /etc/passwd does not hold (restored from a backup, copied from
  /// another machine, a container's): every verb reads and writes it. A static glibc binary
  /// that asked NSS for the owner's name would load libnss_systemd and crash here.
  @Test(
    .enabled(if: geteuid() == 0, "needs root (CI runs as root)"),
    arguments: [
      ["read", "FILE", "FontSize"], ["write", "FILE", "FontSize", "-int", "13"],
      ["convert", "FILE", "--to", "xml"], ["DEFAULTS", "read", "com.example.small", "FontSize"],
      ["DEFAULTS", "write", "com.example.small", "FontSize", "-int", "14"], ["lint", "FILE"],
    ])
  func aFileOfAnUnknownOwnerIsReadAndWritten(_ arguments: [String]) throws {
    let scene = try Scene()
    let stranger = try #require(Self.unknownUser())
    let domain = scene.config.appendingPathComponent("com.example.small.plist").path
    for path in [scene.file, scene.config.path, domain] {
      #expect(chown(path, stranger, stranger) == 0)
    }
    let words = arguments.map { $0 == "FILE" ? scene.file : $0 }
    let command =
      words.first == "DEFAULTS" ? [scene.defaults] + words.dropFirst() : [Self.binary] + words
    let result = try External.run(
      command[0], Array(command.dropFirst()), environment: ["XDG_CONFIG_HOME": scene.config.path])
    #expect(result.status == 0, "\(arguments): \(result.stderr)")
    var info = stat()
    #expect(stat(words.contains("com.example.small") ? domain : scene.file, &info) == 0)
    #expect(info.st_uid == stranger, "the file changed hands")
  }

  /// A user /etc/passwd does not hold, without HOME, naming a domain: a typed error saying
  /// there is no home folder, not a crash.
  @Test(
    .enabled(
      if: geteuid() == 0 && External.which("setpriv") != nil, "needs root and setpriv"))
  func aUserWithoutAnEntryGetsNoHomeFolderError() throws {
    let stranger = try #require(Self.unknownUser())
    // A copy the stranger may run, wherever the tested binary is.
    let folder = try TemporaryFolder()
    let copy = folder.file("prefs").path
    try FileManager.default.copyItem(atPath: Self.binary, toPath: copy)
    #expect(chmod(folder.url.path, 0o755) == 0 && chmod(copy, 0o755) == 0)
    let result = try External.run(
      "/usr/bin/setpriv",
      [
        "--reuid=\(stranger)", "--regid=\(stranger)", "--clear-groups", "/usr/bin/env", "-u",
        "HOME", "-u", "XDG_CONFIG_HOME", copy, "read", "com.example.small", "FontSize",
      ], in: URL(fileURLWithPath: "/"))
    #expect(result.status == 64, "\(result.status): \(result.stderr)")
    #expect(result.stderr.contains("no home folder"), "\(result.stderr)")
    // With HOME, the documented fallback: the domain is in HOME's preferences folder.
    let config = folder.file(".config")
    try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
    try PropertyList.write(.dictionary(["FontSize": 12]), as: .binary).write(
      to: config.appendingPathComponent("com.example.small.plist"))
    #expect(chmod(config.path, 0o755) == 0)
    #expect(chmod(config.appendingPathComponent("com.example.small.plist").path, 0o644) == 0)
    let withHome = try External.run(
      "/usr/bin/setpriv",
      [
        "--reuid=\(stranger)", "--regid=\(stranger)", "--clear-groups", "/usr/bin/env", "-u",
        "XDG_CONFIG_HOME", "HOME=\(folder.url.path)", copy, "read", "com.example.small",
        "FontSize",
      ], in: URL(fileURLWithPath: "/"))
    #expect(withHome.status == 0, "\(withHome.stderr)")
    #expect(withHome.output == "12\n")
  }

  /// What each write flushes (strace counts the fsyncs): a domain, and a file edited in place,
  /// its bytes before the rename and its folder after it; an output of `convert -o` outside
  /// the preferences folder, its bytes only (it is never torn; a crash soon after may bring
  /// back the output it replaced, which the command makes again).
  @Test(
    .enabled(if: strace != nil, "needs strace"),
    arguments: [
      (["write", "FILE", "FontSize", "-int", "13"], 2),
      (["write", "com.example.small", "FontSize", "-int", "13"], 2),
      (["convert", "FILE", "--to", "xml", "-o", "CONFIG/com.example.out.plist"], 2),
      (["convert", "FILE", "--to", "xml", "-o", "OUT"], 1),
      (["convert", "FILE", "--to", "json", "-o", "CONFIG/com.example.out.json"], 1),
    ])
  func eachWriteFlushesWhatItMust(_ arguments: [String], _ fsyncs: Int) throws {
    let scene = try Scene()
    let words = arguments.map {
      $0 == "OUT"
        ? scene.folder.file("out.xml").path
        : $0.replacingOccurrences(of: "CONFIG", with: scene.config.path)
    }
    let (result, log) = try scene.traced(words, trace: "fsync,fdatasync,sync,syncfs")
    #expect(result.status == 0, "\(arguments): \(result.stderr)")
    let flushes = log.filter { $0.contains("sync(") && !$0.contains("resumed") }
    #expect(flushes.count == fsyncs, "\(arguments): \(flushes)")
  }

  /// The command lines (issue 50): a path or a stored value that begins with the
  /// `~name` of no user. Each exits as Docs/commands.md says of a path that names nothing (1 for
  /// a domain or key that does not exist, 66 for an input of lint, convert and plan that
  /// cannot be read, 73 for an output whose folder does not exist; the personalities 1, as
  /// defaults and plutil do), on the debug build and the shipped one alike, and the command
  /// itself opens no part of the name service switch (the system's getent, which the command
  /// runs for a user the files do not hold, is a dynamically linked program of its own: its
  /// opens are not the command's).
  static let unknownTildeCases: [([String], Int32)] = [
    (["read", "~nosuchuser/x.plist"], 1), (["read", "~nosuchuser/x.plist", "k"], 1),
    (["lint", "~nosuchuser/x.plist"], 66),
    (["convert", "~nosuchuser/x.plist", "--to", "xml"], 66),
    (["write", "~nosuchuser/x.plist", "k", "v"], 73),
    (["plan", "infer", "~nosuchuser/x.plist"], 66),
    (["watch", "~nosuchuser/x.plist", "--count", "1"], 1),
    (["defaults", "read", "~nosuchuser/a"], 1), (["plutil", "-p", "~nosuchuser/a.plist"], 1),
  ]

  /// Each of ``unknownTildeCases``.
  @Test(arguments: unknownTildeCases)
  func anUnknownUsersTildeNamesNothing(_ arguments: [String], _ code: Int32) throws {
    let scene = try Scene()
    let result = try External.run(
      Self.binary, arguments, environment: ["XDG_CONFIG_HOME": scene.config.path],
      in: scene.folder.url)
    #expect(result.signal == nil, "\(arguments): signal \(result.signal ?? 0)")
    #expect(result.status == code, "\(arguments): \(result.status) \(result.stderr)")
    guard Self.strace != nil else { return }
    let (_, log) = try scene.traced(arguments, trace: "open,openat,openat2,execve")
    // The processes that became getent, by pid (`strace -f` lines begin with it).
    let getent = Set(
      log.filter { $0.contains("execve(\"/usr/bin/getent\"") }.compactMap {
        $0.split(separator: " ").first.map(String.init)
      })
    let asked = log.filter {
      !getent.contains($0.split(separator: " ").first.map(String.init) ?? "")
        && Self.asksTheSystem($0)
    }
    #expect(asked.isEmpty, "\(arguments): \(asked)")
  }

  /// `URLForKey:` of a stored `~nosuchuser_v2/x` is Apple's `file://<cwd>/~nosuchuser_v2/x`
  /// (`stringByExpandingTildeInPath` leaves an unknown user's tilde as it is, and
  /// `fileURLWithPath:` makes the relative path a file of the current folder), in every
  /// dialect, with and without HOME; never a signal.
  @Test(arguments: ["apple", "gnustep", "corelibs"])
  func aStoredTildeOfAnUnknownUserIsAFileHere(_ dialect: String) throws {
    let scene = try Scene()
    try PropertyList.write(.dictionary(["k": "~nosuchuser_v2/x"]), as: .binary).write(
      to: scene.folder.file("v.plist"))
    // The folder as the kernel names it (getcwd: no link in it).
    let cwd = try #require(
      realpath(scene.folder.url.path, nil).map { pointer in
        defer { free(pointer) }
        return String(cString: pointer)
      })
    for environment in [["HOME": scene.folder.url.path], ["HOME": ""]] {
      let result = try External.run(
        Self.binary, ["read", "./v.plist", "k", "--as", "url", "--dialect", dialect],
        environment: environment, in: URL(fileURLWithPath: cwd))
      #expect(result.signal == nil)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.output == "file://\(cwd)/~nosuchuser_v2/x\n", "\(environment)")
    }
  }

  /// The shipped binary holds no entry point to glibc's name service, dlopen, iconv or locale
  /// loading that the static link warns about, nor the switch itself
  /// (Scripts/static-libc-check.sh, which the release build runs after every link).
  @Test(
    .enabled(
      if: ProcessInfo.processInfo.environment["PREFS_TEST_BINARY"] != nil
        && External.which("nm") != nil && External.which("objdump") != nil,
      "needs PREFS_TEST_BINARY (the release build) and binutils"))
  func theShippedBinaryLinksNoNameService() throws {
    let script = External.packageRoot.appendingPathComponent("Scripts/static-libc-check.sh").path
    let result = try External.run("/bin/bash", [script, Self.binary])
    #expect(result.status == 0, "\(result.stderr)")
  }

  /// A uid and gid that /etc/passwd and /etc/group do not hold.
  static func unknownUser() -> uid_t? {
    let passwd = (try? String(contentsOfFile: "/etc/passwd", encoding: .utf8)) ?? ""
    let group = (try? String(contentsOfFile: "/etc/group", encoding: .utf8)) ?? ""
    let taken = Set(
      (passwd + "\n" + group).split(separator: "\n").compactMap {
        $0.split(separator: ":", omittingEmptySubsequences: false).dropFirst(2).first
          .flatMap { UInt32($0) }
      })
    return (42_420..<42_520).first { !taken.contains($0) }
  }
}
