import Foundation
import PropertyList
import TestSupport
import Testing

/// An administrator (root) writing users' files: every writer keeps the owner, group and mode
/// of the file it replaces, a backup keeps the original's, a lock file belongs to the domain's
/// owner, and a new domain (and the preferences folder itself) belongs to the owner of the
/// folder it goes into. Files are owned by `nobody`, as a user's would be; the tests need root
/// (CI runs as root) and are reported as skipped without it.
@Suite(.enabled(if: geteuid() == 0, "needs root, to write files owned by nobody"))
struct OwnershipTests {
  static let binary = External.product("prefs")
  static let plan = External.packageRoot.appendingPathComponent(
    "Legacy/Samples/equizmo-plan.json"
  ).path
  static let nobody = (user: uid_t(65534), group: gid_t(65534))

  /// A user's folder and files: `home/` (0755), `home/a.plist` (0644, a legacy dictionary),
  /// `home/out.plist` (0644, an earlier output), all owned by nobody; `import.plist` beside the
  /// folder, owned by root.
  struct Scene {
    let folder: TemporaryFolder
    var home: URL { folder.file("home") }
    var file: String { home.appendingPathComponent("a.plist").path }
    var out: String { home.appendingPathComponent("out.plist").path }
    var other: String { folder.file("import.plist").path }

    init() throws {
      folder = try TemporaryFolder()
      try FileManager.default.createDirectory(
        at: folder.file("home"), withIntermediateDirectories: true)
      let legacy = try PropertyList.write(
        ["a": "1", "PREFS_SOUND_ENABLED": "YES", "PREFS_RANKING_SIZE": " 12"], as: .xml)
      try legacy.write(to: URL(fileURLWithPath: file))
      try PropertyList.write(["old": 1], as: .xml).write(to: URL(fileURLWithPath: out))
      try PropertyList.write(["imported": true], as: .xml).write(to: URL(fileURLWithPath: other))
      for path in [home.path, file, out] {
        try Self.own(path, mode: path == home.path ? 0o755 : 0o644)
      }
    }

    static func own(_ path: String, mode: mode_t) throws {
      guard chown(path, OwnershipTests.nobody.user, OwnershipTests.nobody.group) == 0,
        chmod(path, mode) == 0
      else { throw TypedJSONError(description: "cannot give \(path) to nobody") }
    }
  }

  static func owner(_ path: String) -> (user: uid_t, group: gid_t, mode: mode_t)? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return (info.st_uid, info.st_gid, info.st_mode & 0o7777)
  }

  /// Every writing verb of the three spellings, on the user's file (FILE; STEM is the path
  /// without `.plist`, as `defaults` takes it) or into the user's earlier output (OUT).
  static let writers: [[String]] = [
    ["write", "FILE", "k", "v"],
    ["delete", "FILE", "a"],
    ["rename", "FILE", "a", "renamed"],
    ["import", "FILE", "OTHER"],
    ["defaults", "write", "STEM", "k", "-int", "3"],
    ["defaults", "delete", "STEM", "a"],
    ["defaults", "rename", "STEM", "a", "b"],
    ["defaults", "import", "STEM", "OTHER"],
    ["defaults", "export", "STEM", "OUT"],
    ["plutil", "-replace", "a", "-string", "x", "FILE"],
    ["plutil", "-insert", "n", "-integer", "1", "FILE"],
    ["plutil", "-remove", "a", "FILE"],
    ["plutil", "-convert", "binary1", "FILE"],
    ["convert", "FILE", "--to", "binary", "-o", "OUT"],
    ["migrate", "--plan", "PLAN", "--in-place", "FILE"],
    ["migrate", "--plan", "PLAN", "--to", "OUT", "FILE"],
    ["export", "--plan", "PLAN", "FILE", "--to", "OUT"],
  ]

  @Test(arguments: writers)
  func aWriterAsRootKeepsTheUsersOwnerGroupAndMode(_ template: [String]) throws {
    let scene = try Scene()
    let arguments = template.map {
      switch $0 {
      case "FILE": scene.file
      case "STEM": String(scene.file.dropLast(".plist".count))
      case "OUT": scene.out
      case "OTHER": scene.other
      case "PLAN": Self.plan
      default: $0
      }
    }
    let before = try Data(contentsOf: URL(fileURLWithPath: scene.file))
    let result = try External.run(Self.binary, arguments)
    #expect(result.status == 0, "\(template): \(result.stderr)")
    let changed = try Data(contentsOf: URL(fileURLWithPath: scene.file)) != before
    let wroteOut = template.contains("OUT")
    #expect(changed || wroteOut, "\(template) changed nothing")
    for name in try FileManager.default.contentsOfDirectory(atPath: scene.home.path) {
      let path = scene.home.appendingPathComponent(name).path
      let owner = try #require(Self.owner(path))
      #expect(
        owner.user == Self.nobody.user && owner.group == Self.nobody.group,
        "\(template): \(name) belongs to \(owner.user):\(owner.group)")
      let expected: mode_t = name.hasSuffix(".lock") ? 0o600 : 0o644
      #expect(
        owner.mode == expected,
        "\(template): \(name) has mode \(String(owner.mode, radix: 8))")
    }
  }

  /// A backup beside the file keeps the original's owner, group and mode; one in the
  /// administrator's folder is the administrator's (root's), with the original's mode, at the
  /// source's path there: no user owns a file there, nor shares another's.
  @Test(arguments: [false, true]) func aBackupKeepsTheOriginalsMode(_ named: Bool) throws {
    let scene = try Scene()
    let backups = scene.folder.file("backups")
    try FileManager.default.createDirectory(at: backups, withIntermediateDirectories: true)
    let result = try External.run(
      Self.binary,
      ["migrate", "--plan", Self.plan, "--in-place"] + (named ? ["--backup", backups.path] : [])
        + [scene.file])
    #expect(result.status == 0, "\(result.stderr)")
    let place =
      named ? Backups.place(of: scene.file, in: backups).path : scene.file + ".backup"
    let backup = try #require(Self.owner(place))
    let owner = named ? (user: uid_t(0), group: gid_t(0)) : Self.nobody
    #expect(backup.user == owner.user && backup.group == owner.group)
    #expect(backup.mode == 0o644)
  }

  /// Root writing a new domain into a user's (missing) preferences folder: the folder, the
  /// file and its lock are the user's.
  @Test(arguments: [
    ["write", "com.example.new", "k", "v"], ["defaults", "write", "com.example.new", "k", "v"],
  ])
  func aNewDomainBelongsToTheOwnerOfItsFolder(_ arguments: [String]) throws {
    let scene = try Scene()
    let config = scene.home.appendingPathComponent(".config")
    let result = try External.run(
      Self.binary, arguments, environment: ["XDG_CONFIG_HOME": config.path])
    #expect(result.status == 0, "\(result.stderr)")
    let expected: [(String, mode_t)] = [
      (config.path, 0o700), (config.appendingPathComponent("com.example.new.plist").path, 0o600),
      (config.appendingPathComponent("com.example.new.plist.lock").path, 0o600),
    ]
    for (path, mode) in expected {
      let owner = try #require(Self.owner(path), "\(path) is missing")
      #expect(owner.user == Self.nobody.user && owner.group == Self.nobody.group, "\(path)")
      #expect(owner.mode == mode, "\(path): \(String(owner.mode, radix: 8))")
    }
  }

  /// What an administrator does: users' home folders, each user's domain file owned by that
  /// user, one `prefs migrate --in-place` over all of them as root; then each user's app
  /// (`PreferencesStore(url:)`, run as that user) reads its migrated setting and writes.
  @Test(.enabled(if: External.which("setpriv") != nil, "needs setpriv (util-linux)"))
  func anAdministratorMigratesEveryUsersDomainAndEachUserStillOwnsIt() throws {
    let folder = try TemporaryFolder()
    // Users every Debian system has: daemon, bin, sys, nobody.
    let users: [(name: String, user: uid_t, group: gid_t)] = [
      ("daemon", 1, 1), ("bin", 2, 2), ("sys", 3, 3), ("nobody", 65534, 65534),
    ]
    var files: [String] = []
    for (index, user) in users.enumerated() {
      let config = folder.file("homes/\(user.name)/.config")
      try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
      let file = config.appendingPathComponent("com.exmo.equizmo.plist").path
      try PropertyList.write(
        ["PREFS_RANKING_SIZE": .string(" \(10 + index)"), "PREFS_SOUND_ENABLED": "YES"],
        as: .xml
      ).write(to: URL(fileURLWithPath: file))
      for (path, mode) in [
        (folder.file("homes/\(user.name)").path, mode_t(0o755)), (config.path, 0o700),
        (file, 0o644),
      ] {
        #expect(chown(path, user.user, user.group) == 0 && chmod(path, mode) == 0)
      }
      files.append(file)
    }
    let migrated = try External.run(
      Self.binary, ["migrate", "--plan", Self.plan, "--in-place"] + files)
    #expect(migrated.status == 0, "\(migrated.stderr)")
    for (index, user) in users.enumerated() {
      let result = try External.run(
        "/usr/bin/setpriv",
        [
          "--reuid=\(user.user)", "--regid=\(user.group)", "--clear-groups",
          External.product("prefs-stress"), "user-check", files[index],
        ])
      #expect(result.status == 0, "\(user.name): \(result.stderr)")
      #expect(result.output == "ranking.size \(10 + index)\n", "\(user.name)")
      let folderEntries = try FileManager.default.contentsOfDirectory(
        atPath: URL(fileURLWithPath: files[index]).deletingLastPathComponent().path)
      for name in folderEntries {
        let path = URL(fileURLWithPath: files[index]).deletingLastPathComponent()
          .appendingPathComponent(name).path
        let owner = try #require(Self.owner(path))
        #expect(owner.user == user.user, "\(user.name): \(name) belongs to \(owner.user)")
      }
    }
  }
}
