import Foundation
import TestSupport
import Testing

/// Whether Debian's libnss-extrausers module is installed.
enum ExtraUsers {
  static let installed = [
    "/usr/lib/libnss_extrausers.so.2", "/usr/lib/x86_64-linux-gnu/libnss_extrausers.so.2",
    "/usr/lib/aarch64-linux-gnu/libnss_extrausers.so.2",
    "/lib/x86_64-linux-gnu/libnss_extrausers.so.2",
  ].contains { FileManager.default.fileExists(atPath: $0) }
}

/// A user kept outside `/etc/passwd` and `/etc/group` (a directory user: LDAP, sssd,
/// systemd-homed; here Debian's `libnss-extrausers`, an NSS module loaded by `dlopen`, exactly
/// what a static prefs cannot load) is found the system's way: its home, uid and supplementary
/// groups are what `getent` and `id` say. Each command runs in a mount namespace of its own
/// (`unshare --mount`) where `nsswitch.conf` reads `files extrausers` and the extrausers folder
/// holds the test's user: the machine's own files are never changed.
@Suite(
  .enabled(if: geteuid() == 0, "needs root (a mount namespace, files owned by another user)"),
  .enabled(if: External.which("unshare") != nil, "needs unshare (util-linux)"),
  .enabled(if: ExtraUsers.installed, "needs libnss-extrausers"))
struct DirectoryUserTests {
  // The root-over-users suite's binary, plan and sample.
  static let binary = RootOverUsersTests.binary
  static let plan = RootOverUsersTests.plan
  static let sample = RootOverUsersTests.sample

  /// The user and groups, in no local file (ids far from the machine's own).
  static let name = "dirana"
  static let uid = 47_211
  static let groups: [(name: String, gid: Int)] = [
    ("dirana", 47_211), ("dirstaff", 47_300), ("dirdev", 47_301),
  ]

  /// `extrausers/` (its passwd and group), `nsswitch.conf`, `ns.sh` (the namespace, then the
  /// command) and the user's home `home/` (owned by the user) with `.config/com.x.plist`.
  struct Scene {
    let folder: TemporaryFolder
    var home: String { folder.file("home").path }
    var domain: String { home + "/.config/com.x.plist" }

    init() throws {
      folder = try TemporaryFolder()
      let extra = folder.file("extrausers")
      try FileManager.default.createDirectory(at: extra, withIntermediateDirectories: true)
      let passwd = "\(name):x:\(uid):\(uid):Directory Ana:\(home):/bin/sh\n"
      try Data(passwd.utf8).write(to: extra.appendingPathComponent("passwd"))
      let group = DirectoryUserTests.groups.enumerated().map { index, group in
        "\(group.name):x:\(group.gid):\(index == 0 ? "" : "bob,\(name)")\n"
      }.joined()
      try Data(group.utf8).write(to: extra.appendingPathComponent("group"))
      // The machine's own switch, with extrausers after the files for users and groups.
      let system = try String(contentsOfFile: "/etc/nsswitch.conf", encoding: .utf8)
      let switched = system.split(separator: "\n", omittingEmptySubsequences: false).map {
        line -> String in
        line.hasPrefix("passwd:")
          ? "passwd: files extrausers"
          : line.hasPrefix("group:") ? "group: files extrausers" : String(line)
      }.joined(separator: "\n")
      try Data(switched.utf8).write(to: folder.file("nsswitch.conf"))
      // A bind mount over the extrausers folder, or (when the machine has none) a tmpfs over
      // /var/lib first, in this namespace only.
      let script = """
        set -e
        mount --bind '\(folder.file("nsswitch.conf").path)' /etc/nsswitch.conf
        if [ ! -d /var/lib/extrausers ]; then
          mount -t tmpfs tmpfs /var/lib
          mkdir /var/lib/extrausers
        fi
        mount --bind '\(extra.path)' /var/lib/extrausers
        exec "$@"

        """
      try Data(script.utf8).write(to: folder.file("ns.sh"))
      try FileManager.default.createDirectory(
        atPath: home + "/.config", withIntermediateDirectories: true)
      try Data(contentsOf: sample).write(to: URL(fileURLWithPath: domain))
      for path in [home, home + "/.config", domain] {
        guard chown(path, uid_t(uid), gid_t(uid)) == 0 else {
          throw TypedJSONError(description: "cannot give \(path) away")
        }
      }
      chmod(home + "/.config", 0o700)
      chmod(domain, 0o600)
    }

    /// `command` run in the namespace, without HOME (nothing but the databases names a home);
    /// with `getent`, that script in place of `/usr/bin/getent` there (a lookup that fails).
    func run(_ command: [String], getent: String? = nil) throws -> ProcessResult {
      var words = ["--mount", "/bin/sh", folder.file("ns.sh").path]
      if let getent {
        let fake = folder.file("fake-getent")
        try Data(("#!/bin/sh\n" + getent + "\n").utf8).write(to: fake)
        chmod(fake.path, 0o755)
        words = [
          "--mount", "/bin/sh", "-c", "mount --bind \"$0\" /usr/bin/getent && exec \"$@\"",
          fake.path, "/bin/sh", folder.file("ns.sh").path,
        ]
      }
      return try External.run(
        try #require(External.which("unshare")), words + command,
        environment: ["HOME": "", "XDG_CONFIG_HOME": ""])
    }
  }

  /// What the system says of the user in the namespace (`getent passwd`, `id`): the reference.
  static func reference(_ scene: Scene) throws -> (home: String, uid: String, groups: Set<String>) {
    let entry = try scene.run(["/usr/bin/getent", "passwd", name])
    let fields = entry.output.trimmingCharacters(in: .newlines).split(
      separator: ":", omittingEmptySubsequences: false)
    try #require(entry.status == 0 && fields.count == 7, "getent: \(entry.output) \(entry.stderr)")
    let id = try scene.run(["/usr/bin/id", "-u", name])
    let groups = try scene.run(["/usr/bin/id", "-G", name])
    try #require(groups.status == 0, "id: \(groups.stderr)")
    return (
      String(fields[5]), id.output.trimmingCharacters(in: .whitespacesAndNewlines),
      Set(groups.output.split(whereSeparator: \.isWhitespace).map(String.init))
    )
  }

  /// `~dirana/…` is the home the system gives the user, and root writes there as the user
  /// (a uid the files do not know, looked up too).
  @Test func aDirectoryUsersHomeIsTheSystems() throws {
    let scene = try Scene()
    let reference = try Self.reference(scene)
    #expect(reference.home == scene.home)
    #expect(reference.uid == String(Self.uid))
    let written = try scene.run([
      Self.binary, "write", "~\(Self.name)/x.plist", "k", "-string", "v",
    ])
    #expect(written.status == 0, "\(written.stderr)")
    var info = stat()
    #expect(stat(reference.home + "/x.plist", &info) == 0, "not written in the user's home")
    #expect(info.st_uid == uid_t(Self.uid), "written as uid \(info.st_uid), not the user's")
    let read = try scene.run([Self.binary, "read", "~\(Self.name)/x.plist", "k"])
    #expect(read.output == "v\n", "\(read.stderr)")
    #expect(!read.stderr.contains("warning"), "\(read.stderr)")
  }

  /// Root's migration in the user's folder works with the user's uid and every group `id`
  /// gives it (the thread's `setgroups`, traced), not the folder's group alone.
  @Test(.enabled(if: External.which("strace") != nil, "needs strace"))
  func rootsMigrationRunsWithTheUsersGroups() throws {
    let scene = try Scene()
    let reference = try Self.reference(scene)
    #expect(reference.groups == Set(Self.groups.map { String($0.gid) }))
    let trace = scene.folder.file("trace").path
    let strace = try #require(External.which("strace"))
    let result = try scene.run([
      strace, "-f", "-qq", "-e", "trace=setgroups,setresuid", "-o", trace, Self.binary, "migrate",
      "--plan", Self.plan, "--in-place", scene.domain,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let log = try String(contentsOfFile: trace, encoding: .utf8)
    let sets = log.split(separator: "\n").compactMap { line -> Set<String>? in
      guard let open = line.firstIndex(of: "["), let close = line.firstIndex(of: "]"),
        line.contains("setgroups("), line.hasSuffix("= 0")
      else { return nil }
      return Set(
        line[line.index(after: open)..<close].split(separator: ",").map {
          $0.trimmingCharacters(in: .whitespaces)
        })
    }
    #expect(sets.contains(reference.groups), "setgroups: \(sets), id -G: \(reference.groups)")
    #expect(log.contains(", \(Self.uid), "), "never worked as uid \(Self.uid):\n\(log)")
  }

  /// A lookup the system cannot answer — getent printing what is not one entry, failing, or
  /// killed past its time — is a warning that names the query, and the command goes on
  /// without the entry (`~dirana/x.plist` is then a name in the current folder, whose folder
  /// does not exist: 73 for a write), never a crash and never taken for another user.
  @Test(arguments: [
    ("echo 'dirana:x:notanumber:1:x:/h:/bin/sh'", "what is not its entry"),
    ("echo 'root:x:0:0:root:/root:/bin/sh'", "what is not its entry"),
    ("printf 'dirana:x:47211:47211::/h:/bin/sh\\nsecond:x:1:1::/:/bin/sh\\n'", "not one line"),
    ("exit 5", "getent exited 5"),
  ])
  func aLookupThatFailsIsReported(_ script: String, _ reason: String) throws {
    let scene = try Scene()
    let result = try scene.run(
      [Self.binary, "write", "~\(Self.name)/x.plist", "k", "-string", "v"], getent: script)
    #expect(result.signal == nil)
    #expect(result.status == 73, "\(result.status): \(result.stderr)")
    #expect(
      result.stderr.contains("warning: cannot look up passwd \(Self.name)")
        && result.stderr.contains(reason), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: scene.home + "/x.plist"))
  }

  /// The release build's wraps (Scripts/build-release.sh's `--wrap` list, the functions of
  /// Sources/CSystemCalls/CSystemCalls.c) in a program linked as prefs is — fully static, lld,
  /// unused sections dropped — answer as the system does for the directory user and its
  /// groups (`getent`, `id -G`), fail for a host, a library, a conversion and a locale, and
  /// the program holds none of glibc's name service (Scripts/static-libc-check.sh): what
  /// Foundation or the Swift runtime would get if it asked, in the static prefs.
  @Test(.enabled(if: External.which("clang") != nil, "needs the toolchain's clang"))
  func theWrapsAnswerAsTheSystemDoes() throws {
    let scene = try Scene()
    let root = External.packageRoot
    let recipe = try String(
      contentsOf: root.appendingPathComponent("Scripts/build-release.sh"), encoding: .utf8)
    let list = try #require(
      recipe.firstRange(of: "for name in").flatMap { start in
        recipe[start.upperBound...].firstRange(of: "; do").map {
          recipe[start.upperBound..<$0.lowerBound]
        }
      })
    let names = list.split(whereSeparator: { $0 == " " || $0 == "\\" || $0 == "\n" })
    #expect(names.contains("getpwnam_r") && names.contains("dlopen"), "\(names)")
    let check = scene.folder.file("wraps-check").path
    let built = try External.run(
      try #require(External.which("clang")),
      [
        "-static", "-fuse-ld=lld", "-O1", "-ffunction-sections", "-fdata-sections",
        "-Wl,--gc-sections", "-I", root.appendingPathComponent("Sources/CSystemCalls/include").path,
        root.appendingPathComponent("Tests/StaticWraps/wraps-check.c").path,
        root.appendingPathComponent("Sources/CSystemCalls/CSystemCalls.c").path, "-o", check,
      ] + names.map { "-Wl,--wrap=\($0)" })
    try #require(built.status == 0, "\(built.stderr)")
    let linked = try External.run(
      "/bin/bash", [root.appendingPathComponent("Scripts/static-libc-check.sh").path, check])
    #expect(linked.status == 0, "\(linked.stderr)")
    let reference = try Self.reference(scene)
    let dirdev = Self.groups[2]
    let result = try scene.run([
      check, Self.name, String(Self.uid), Self.groups[1].name, String(dirdev.gid),
    ])
    #expect(result.status == 0 && result.signal == nil, "\(result.stderr)")
    var answers: [String: String] = [:]
    for line in result.output.split(separator: "\n") {
      let words = line.split(separator: " ", maxSplits: 1)
      answers[String(words[0])] = words.count > 1 ? String(words[1]) : ""
    }
    let rootHome = try #require(
      getpwnam("root").flatMap { $0.pointee.pw_dir }.map { String(cString: $0) })
    let expected: [String: String] = [
      "getpwnam": reference.home, "getpwnam.uid": reference.uid, "getpwuid": Self.name,
      "getpwnam_r.root": rootHome, "getpwuid_r": Self.name, "getpwnam.nosuchuser": "-",
      "getgrnam": String(Self.groups[1].gid), "getgrgid": dirdev.name,
      "getgrnam_r": String(Self.groups[1].gid), "getgrgid_r": dirdev.name,
      "getaddrinfo": "failed", "gethostbyname": "failed", "dlopen": "failed", "dlerror": "said",
      "iconv_open": "failed", "newlocale.C": "made", "newlocale.other": "failed",
    ]
    for (name, value) in expected {
      #expect(answers[name] == value, "\(name): \(answers[name] ?? "nothing") (\(result.output))")
    }
    let groups = Set((answers["getgrouplist"] ?? "").split(separator: " ").map(String.init))
    #expect(groups == reference.groups, "getgrouplist \(groups), id -G \(reference.groups)")
  }
}
