import Foundation
import LegacyDefaults
import LegacyDefaultsFoundation
import PrefsCLI
import PrefsTools
import PropertyList
import TestSupport
import Testing

/// `prefs` beside a running app: in-place migration under the domain's lock, and commands that
/// change nothing leaving every file as it was. Real processes throughout.
@Suite struct LiveDomainTests {
  static let binary = External.product("prefs")
  static let samples = External.packageRoot.appendingPathComponent("Legacy/Samples")
  static let sample = samples.appendingPathComponent("com.exmo.equizmo.plist")
  static let plan = samples.appendingPathComponent("equizmo-plan.json").path

  static func values(_ url: URL) throws -> [String: PlistValue] {
    try #require(PropertyList.read(Data(contentsOf: url)).value.dictionaryValue?.swiftDictionary)
  }

  /// With no writer, the backup is byte-identical to the legacy file.
  @Test func theBackupIsByteIdentical() throws {
    let folder = try TemporaryFolder()
    let domain = folder.file("com.exmo.equizmo.plist")
    let bytes = try Data(contentsOf: Self.sample)
    try bytes.write(to: domain)
    let run = try External.run(
      Self.binary, ["migrate", "--plan", Self.plan, "--in-place", "--json", domain.path])
    #expect(run.status == 0, "\(run.stderr)")
    let backup = folder.file("com.exmo.equizmo.plist.backup")
    #expect(try Data(contentsOf: backup) == bytes)
    #expect(try Self.values(domain)["prefs.schemaVersion"] == 2)
  }

  // MARK: - Commands that change nothing move nothing

  /// Every file's bytes, by name: the folder as a user would compare it.
  static func listing(_ folder: URL) throws -> [String: Data] {
    var result: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
      result[name] = try Data(contentsOf: folder.appendingPathComponent(name))
    }
    return result
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    var status: Int32
    var testDescription: String { "prefs " + arguments.joined(separator: " ") + " → \(status)" }
  }

  /// `D` is a good domain, `C` a corrupt one, `A` a valid array plist, all in XDG_CONFIG_HOME.
  static let cases: [Case] = [
    Case(arguments: ["read", "D"], status: 0),
    Case(arguments: ["read", "D", "missing"], status: 1),
    Case(arguments: ["read", "C"], status: 65),
    Case(arguments: ["lint", "D.plist", "C.plist", "A.plist"], status: 65),
    Case(arguments: ["find", "Lucas"], status: 0),
    Case(arguments: ["domains"], status: 0),
    Case(arguments: ["read-type", "D", "name"], status: 0),
    Case(arguments: ["delete", "D", "missing"], status: 1),
    Case(arguments: ["delete", "C", "name"], status: 65),
    Case(arguments: ["delete", "Nope", "name"], status: 1),
    Case(arguments: ["delete", "A", "name"], status: 65),
    Case(arguments: ["rename", "D", "missing", "other"], status: 1),
    Case(arguments: ["rename", "D", "name", "size"], status: 73),
    Case(arguments: ["rename", "C", "name", "other"], status: 65),
    Case(arguments: ["write", "A", "k", "v"], status: 65),
    Case(arguments: ["import", "A", "D.plist"], status: 65),
    Case(arguments: ["write", "D", "", "v"], status: 64),
    Case(arguments: ["write", "D", "k", "-int", "x"], status: 64),
  ]

  @Test(arguments: cases)
  func aCommandThatChangesNothingMovesNothing(_ test: Case) throws {
    let folder = try TemporaryFolder()
    try PropertyList.write(["name": "Lucas", "size": 5], as: .xml).write(to: folder.file("D.plist"))
    try Data("<plist><dict><key>name</key>".utf8).write(to: folder.file("C.plist"))
    try PropertyList.write(["a", "b"], as: .binary).write(to: folder.file("A.plist"))
    let before = try Self.listing(folder.url)
    let arguments = test.arguments.map { argument in
      argument.hasSuffix(".plist") ? folder.file(argument).path : argument
    }
    let result = try External.run(
      Self.binary, arguments, environment: ["XDG_CONFIG_HOME": folder.url.path])
    #expect(result.status == test.status, "\(result.stderr)")
    #expect(try Self.listing(folder.url) == before)
    if test.arguments.first == "write", test.arguments[1] == "A" {
      #expect(result.stderr.contains("holds an array, not a dictionary of preferences"))
    }
  }

  /// A write on a corrupt domain moves it aside (once, said once) and writes a fresh file.
  @Test func aWriteOnACorruptDomainMovesItAsideAndSaysSoOnce() throws {
    let folder = try TemporaryFolder()
    let corrupt = Data("<plist><dict><key>name</key>".utf8)
    try corrupt.write(to: folder.file("C.plist"))
    let result = try External.run(
      Self.binary, ["write", "C", "k", "-int", "1"],
      environment: ["XDG_CONFIG_HOME": folder.url.path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.components(separatedBy: "moved to").count == 2, "\(result.stderr)")
    #expect(try Self.values(folder.file("C.plist")) == ["k": 1])
    let moved = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
      .filter { $0.hasPrefix("C.plist.corrupt-") }
    #expect(moved.count == 1)
    if let name = moved.first {
      #expect(try Data(contentsOf: folder.file(name)) == corrupt)
    }
  }

  /// `convert -o` and `export --to` write a domain (in the preferences folder, or with a lock
  /// file beside it) under the domain's lock; a file elsewhere is replaced atomically with no
  /// lock file left beside it.
  @Test func convertWritesADomainUnderItsLockAndAPlainFileWithout() throws {
    let config = try TemporaryFolder()
    let elsewhere = try TemporaryFolder()
    let source = elsewhere.file("source.plist")
    try PropertyList.write(["name": "Lucas"], as: .xml).write(to: source)
    let env = ["XDG_CONFIG_HOME": config.url.path]
    let plain = elsewhere.file("plain.plist")
    let first = try External.run(
      Self.binary, ["convert", source.path, "--to", "binary", "-o", plain.path], environment: env)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: elsewhere.url.path).sorted()
        == ["plain.plist", "source.plist"])
    let domain = config.file("com.example.app.plist")
    let second = try External.run(
      Self.binary, ["convert", source.path, "--to", "binary", "-o", domain.path], environment: env)
    #expect(second.status == 0, "\(second.stderr)")
    #expect(FileManager.default.fileExists(atPath: domain.path + ".lock"))
    #expect(try Data(contentsOf: domain) == Data(contentsOf: plain))
  }

  /// Deleting a whole domain removes it whatever it holds; a missing one exits 1.
  @Test func deletingAWholeCorruptDomainRemovesIt() throws {
    let folder = try TemporaryFolder()
    try Data("<plist><dict><key>name</key>".utf8).write(to: folder.file("C.plist"))
    let env = ["XDG_CONFIG_HOME": folder.url.path]
    let result = try External.run(Self.binary, ["delete", "C"], environment: env)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.file("C.plist").path))
    #expect(try External.run(Self.binary, ["delete", "C"], environment: env).status == 1)
  }

  /// A symbolic link as a domain file is refused by every writer, the link left as it was.
  @Test(arguments: [
    ["write", "L", "k", "v"], ["delete", "L", "name"], ["rename", "L", "name", "n2"],
    ["import", "L", "D.plist"],
  ])
  func writersRefuseASymbolicLink(_ arguments: [String]) throws {
    let folder = try TemporaryFolder()
    try PropertyList.write(["name": "Lucas"], as: .xml).write(to: folder.file("D.plist"))
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("L.plist").path, withDestinationPath: folder.file("D.plist").path)
    let before = try Self.listing(folder.url)
    let result = try External.run(
      Self.binary,
      arguments.map { $0.hasSuffix(".plist") ? folder.file($0).path : $0 },
      environment: ["XDG_CONFIG_HOME": folder.url.path])
    #expect(result.status != 0)
    #expect(result.stderr.contains("symbolic link"), "\(result.stderr)")
    #expect(try Self.listing(folder.url) == before)
  }
}

/// The `defaults` verbs given a domain name go through `UserDefaults(suiteName:)` on Apple
/// platforms (so `cfprefsd` sees the change). The Linux command is built without
/// `UserDefaults` (it links FoundationEssentials only); the same code path runs here in-process
/// over corelibs' `UserDefaults`, handed in as a ``UserDefaultsAccess`` whose suites are named
/// by paths in a temporary folder: corelibs keeps each in `<suite>.plist` there, and never
/// beside it the lock file prefs' own file storage would leave.
@Suite struct UserDefaultsCommandTests {
  @Test func writeReadRenameDeleteThroughUserDefaults() throws {
    let folder = try TemporaryFolder()
    let base = folder.url.path
    let access = UserDefaultsAccess(isDefault: true) { name throws(DefaultsError) in
      try UserDefaultsStorage(suiteName: base + "/" + name)
    }
    func prefs(_ arguments: String...) -> (code: ExitCode, output: String, stderr: String) {
      let console = CapturingConsole()
      let code = Prefs.run(arguments, console: console, userDefaults: access)
      return (code, console.output, console.stderr)
    }
    #expect(prefs("read", "com.example.ud").code == .notFound)
    #expect(prefs("write", "com.example.ud", "size", "-int", "12").code == .ok)
    #expect(prefs("write", "com.example.ud", "name", "Lucas").code == .ok)
    let file = folder.file("com.example.ud.plist")
    #expect(try PropertyList.read(Data(contentsOf: file)).value == ["size": 12, "name": "Lucas"])
    #expect(!FileManager.default.fileExists(atPath: file.path + ".lock"))
    #expect(prefs("read", "com.example.ud", "size").output == "12\n")
    #expect(prefs("read-type", "com.example.ud", "name").output == "Type is string\n")
    #expect(prefs("rename", "com.example.ud", "name", "user").code == .ok)
    #expect(prefs("rename", "com.example.ud", "nope", "x").code == .notFound)
    #expect(prefs("delete", "com.example.ud", "size").code == .ok)
    #expect(prefs("delete", "com.example.ud", "size").code == .notFound)
    #expect(try PropertyList.read(Data(contentsOf: file)).value == ["user": "Lucas"])
    #expect(prefs("delete", "com.example.ud").code == .ok)
    #expect(prefs("read", "com.example.ud").code == .notFound)
  }

  /// The command as built here has no `UserDefaults`: asking for it is a usage error that says
  /// so, and nothing is written anywhere.
  @Test(.enabled(if: !External.isApplePlatform, "Apple platforms build it with UserDefaults"))
  func theLinuxCommandRefusesUserDefaultsStorage() throws {
    let folder = try TemporaryFolder()
    let result = try External.run(
      External.product("prefs"), ["write", "com.example.ud", "size", "-int", "12"],
      environment: ["XDG_CONFIG_HOME": folder.url.path, "PREFS_DOMAIN_STORAGE": "userdefaults"])
    #expect(result.status == 64)
    #expect(result.stderr.contains("built without UserDefaults"), "\(result.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
  }

  /// What makes the command start fast: on Linux it holds FoundationEssentials, never
  /// libFoundation (nor ICU under it). Linked against the shared runtime (a debug build), its
  /// dynamic section loads FoundationEssentials only; with the runtime inside (the release
  /// build, `--static-swift-stdlib`), its symbols include FoundationEssentials' and no
  /// Foundation's. As `readelf` (binutils) shows them.
  @Test(
    .enabled(if: !External.isApplePlatform, "an ELF question"),
    .enabled(if: External.which("readelf") != nil, "readelf (binutils) is not installed"))
  func theCommandDoesNotLinkFoundation() throws {
    let readelf = try #require(External.which("readelf"))
    let prefs = External.product("prefs")
    let result = try External.run(readelf, ["-d", prefs])
    #expect(result.status == 0, "\(result.stderr)")
    let needed = result.output.split(separator: "\n").filter { $0.contains("(NEEDED)") }
    #expect(!needed.contains { $0.contains("[libFoundation.so]") }, "\(needed)")
    #expect(!needed.contains { $0.contains("ICU") }, "\(needed)")
    if needed.contains(where: { $0.contains("[libswiftCore.so]") }) {
      #expect(needed.contains { $0.contains("[libFoundationEssentials.so]") }, "\(needed)")
    } else {
      let symbols = try External.run(readelf, ["-sW", prefs]).output
      #expect(symbols.contains("$s20FoundationEssentials"))
      #expect(!symbols.contains("$s10Foundation"))
      #expect(!symbols.contains("ucol_open"))
    }
  }
}

/// `--layout` chooses where domain names resolve; `domains` says which folder it listed.
@Suite struct LayoutTests {
  @Test func gnustepLayoutFollowsGNUstepsConfiguration() throws {
    let folder = try TemporaryFolder()
    let defaults = folder.file("Defaults")
    try FileManager.default.createDirectory(at: defaults, withIntermediateDirectories: true)
    let conf = folder.file("GNUstep.conf")
    try "GNUSTEP_USER_CONFIG_FILE=\nGNUSTEP_USER_DEFAULTS_DIR=\(defaults.path)\n"
      .write(to: conf, atomically: true, encoding: .utf8)
    try PropertyList.write(["k": "v"], as: .openStep).write(
      to: defaults.appendingPathComponent("com.gnustep.app.plist"))
    let env = ["GNUSTEP_CONFIG_FILE": conf.path, "XDG_CONFIG_HOME": folder.file("xdg").path]
    let binary = External.product("prefs")
    let listed = try External.run(binary, ["--layout", "gnustep", "domains"], environment: env)
    #expect(listed.output == "com.gnustep.app\n")
    #expect(listed.stderr.contains(defaults.path), "\(listed.stderr)")
    let read = try External.run(
      binary, ["--layout", "gnustep", "read", "com.gnustep.app", "k"], environment: env)
    #expect(read.output == "v\n", "\(read.stderr)")
    let json = try External.run(
      binary, ["--layout", "gnustep", "domains", "--json"], environment: env)
    #expect(json.output.contains("\"folder\": \"\(defaults.path)\""))
    #expect(try External.run(binary, ["--layout", "amiga", "domains"]).status == 64)
  }
}

/// Slow: skipped by the quick test line (`swift test --skip /Slow/`).
extension LiveDomainTests {
  @Suite(.tags(.slow)) struct Slow {
    /// A writer process keeps setting 12 keys with `prefs write` (each acknowledged by exit 0)
    /// while `prefs migrate --in-place` runs on the same domain. Every round: every acknowledged
    /// write is in the final file, the migration is not undone, and the final file is exactly
    /// the migration of the backup plus the writer's keys. PREFS_RACE_ROUNDS sets the rounds
    /// (default 24; Scripts/torture.sh runs more).
    @Test func inPlaceMigrationBesideALiveWriterLosesNothing() throws {
      let rounds = Int(ProcessInfo.processInfo.environment["PREFS_RACE_ROUNDS"] ?? "") ?? 24
      let legacy = try LiveDomainTests.values(LiveDomainTests.sample)
      let sampleBytes = try Data(contentsOf: LiveDomainTests.sample)
      var generator = SystemRandomNumberGenerator()
      var acknowledged = 0
      var lost = 0
      var undone = 0
      var writesBeforeMigration = 0
      var identicalBackups = 0
      for round in 0..<rounds {
        let folder = try TemporaryFolder()
        let domain = folder.file("com.exmo.equizmo.plist")
        let backups = folder.file("backups")
        try FileManager.default.createDirectory(at: backups, withIntermediateDirectories: true)
        try sampleBytes.write(to: domain)
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/bash")
        writer.arguments = [
          "-c",
          "for n in $(seq 1 12); do \"$0\" write \"$1\" app.k$n -int $n && echo ack $n; done",
          LiveDomainTests.binary, domain.path,
        ]
        let out = Pipe()
        writer.standardOutput = out
        try writer.run()
        usleep(UInt32.random(in: 0...150_000, using: &generator))
        let migration = try External.run(
          LiveDomainTests.binary,
          [
            "migrate", "--plan", LiveDomainTests.plan, "--in-place", "--backup", backups.path,
            domain.path,
          ])
        writer.waitUntilExit()
        #expect(migration.status == 0, "round \(round): \(migration.stderr)")
        let acks = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
          .split(separator: "\n").compactMap { Int($0.dropFirst(4)) }
        acknowledged += acks.count
        #expect(acks.count == 12, "round \(round): the writer failed")

        let final = try LiveDomainTests.values(domain)
        for n in acks where final["app.k\(n)"] != .int(n) { lost += 1 }
        if final["prefs.schemaVersion"] != 2 || final["PREFS_SOUND_ENABLED"] != nil { undone += 1 }

        // The backup: the legacy file exactly as the migration found it under the lock.
        let names = Backups.files(in: backups)
        #expect(
          names == [Backups.place(of: domain.path, in: backups)], "round \(round): backups \(names)"
        )
        guard let backup = names.first else { continue }
        var backedUp = try LiveDomainTests.values(backup)
        let writerKeys = backedUp.keys.filter { $0.hasPrefix("app.k") }
        writesBeforeMigration += writerKeys.count
        if writerKeys.isEmpty, try Data(contentsOf: backup) == sampleBytes { identicalBackups += 1 }
        for key in writerKeys { backedUp[key] = nil }
        #expect(backedUp == legacy, "round \(round): the backup is not the legacy file")

        // The final file is the migration of the backup, with every acknowledged write on top.
        let expected = folder.file("expected.plist")
        let reference = try External.run(
          LiveDomainTests.binary,
          ["migrate", "--plan", LiveDomainTests.plan, "--to", expected.path, backup.path])
        #expect(reference.status == 0, "\(reference.stderr)")
        var wanted = try LiveDomainTests.values(expected)
        for n in acks { wanted["app.k\(n)"] = .int(n) }
        #expect(final == wanted, "round \(round)")
      }
      print(
        "race: \(rounds) rounds, \(acknowledged) acknowledged writes, \(lost) lost, "
          + "\(undone) migrations undone, \(writesBeforeMigration) writes landed before the "
          + "migration (and were migrated), \(identicalBackups) backups byte-identical to the sample"
      )
      #expect(lost == 0)
      #expect(undone == 0)
      #expect(acknowledged == rounds * 12)
    }
  }
}
