import Foundation
import LegacyDefaults
import PropertyList
import TestSupport
import Testing

/// prefs beside a running GNUstep app: GNUstep Base's writer takes its own lock, a directory
/// `<defaults folder>/.lck/.GNUstepDefaults.lck` made with `mkdir` (an `NSDistributedLock`),
/// and re-reads the domain under it; a prefs write into GNUstep's defaults folder takes that
/// lock too. Real processes: GNUstep's `defaults` and `prefs --layout gnustep`, in a defaults
/// folder of a temporary GNUstep configuration (never the user's).
@Suite struct GNUstepLockTests {
  static let binary = External.product("prefs")
  static let samples = External.packageRoot.appendingPathComponent("Legacy/Samples")
  static let sample = samples.appendingPathComponent("com.exmo.equizmo.plist")
  static let plan = samples.appendingPathComponent("equizmo-plan.json").path
  static let defaults = External.which("defaults") ?? "/usr/bin/defaults"

  /// A GNUstep configuration of its own: `GNUSTEP_CONFIG_FILE` names a file whose
  /// `GNUSTEP_USER_DEFAULTS_DIR` is a temporary folder (GNUstep ignores `HOME`; the user's
  /// `~/.GNUstep.conf` is switched off).
  struct Setup {
    let folder: TemporaryFolder
    let defaultsFolder: URL
    let environment: [String: String]

    init() throws {
      folder = try TemporaryFolder()
      defaultsFolder = folder.file("Defaults")
      try FileManager.default.createDirectory(
        at: defaultsFolder, withIntermediateDirectories: true)
      let conf = folder.file("GNUstep.conf")
      try """
      GNUSTEP_USER_CONFIG_FILE=
      GNUSTEP_USER_DEFAULTS_DIR=\(defaultsFolder.path)
      GNUSTEP_USER_DIR=\(folder.url.path)/GNUstep

      """.write(to: conf, atomically: true, encoding: .utf8)
      environment = [
        "GNUSTEP_CONFIG_FILE": conf.path, "HOME": folder.url.path, "LC_ALL": "C", "TZ": "UTC",
      ]
    }

    func domain(_ name: String) -> URL { defaultsFolder.appendingPathComponent(name + ".plist") }
    var lockFolder: URL { defaultsFolder.appendingPathComponent(".lck") }
    var lock: URL { lockFolder.appendingPathComponent(".GNUstepDefaults.lck") }
  }

  static func values(_ url: URL) throws -> [String: PlistValue] {
    try #require(PropertyList.read(Data(contentsOf: url)).value.dictionaryValue?.swiftDictionary)
  }

  /// A process of the test's, started with the setup's environment.
  static func start(
    _ executable: String, _ arguments: [String], _ setup: Setup
  ) throws -> (Process, Pipe) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(setup.environment) { $1 }
    let err = Pipe()
    process.standardError = err
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    return (process, err)
  }

  /// GNUstep's `synchronize` waits for the lock and then re-reads the domain file under it:
  /// a key written while it waited (as prefs writes under the same lock) is merged, not undone.
  @Test(.enabled(if: Tools.gnustep || External.required, "needs GNUstep"))
  func gnustepRereadsTheDomainUnderItsLock() throws {
    let setup = try Setup()
    let domain = setup.domain("com.example.gs")
    try PropertyList.write(["first": 1], as: .xml).write(to: domain)
    try FileManager.default.createDirectory(at: setup.lock, withIntermediateDirectories: true)
    let (writer, _) = try Self.start(
      Self.defaults, ["write", "com.example.gs", "fromGNUstep", "<*I2>"], setup)
    usleep(1_000_000)
    #expect(writer.isRunning, "GNUstep's defaults did not wait for its lock")
    // The change another writer makes while holding the lock: the file replaced.
    try PropertyList.write(["first": 1, "fromPrefs": 3], as: .xml).write(
      to: domain, options: .atomic)
    try FileManager.default.removeItem(at: setup.lock)
    writer.waitUntilExit()
    #expect(writer.terminationStatus == 0)
    #expect(try Self.values(domain) == ["first": 1, "fromPrefs": 3, "fromGNUstep": 2])
  }

  /// A prefs write waits while a GNUstep process holds the lock, then writes, and removes
  /// the lock it took.
  /// Through the gnustep layout, or by a path into a folder GNUstep has locked before (its
  /// `.lck` folder is there), without `--layout`.
  @Test(
    .enabled(if: Tools.gnustep || External.required, "needs GNUstep"), arguments: [true, false])
  func prefsWaitsForGNUstepsLock(throughTheLayout: Bool) throws {
    let setup = try Setup()
    let domain = setup.domain("com.example.gs")
    try PropertyList.write(["first": 1], as: .xml).write(to: domain)
    let before = try Data(contentsOf: domain)
    try FileManager.default.createDirectory(at: setup.lock, withIntermediateDirectories: true)
    let arguments =
      throughTheLayout
      ? ["--layout", "gnustep", "write", "com.example.gs", "k", "-int", "5"]
      : ["write", domain.path, "k", "-int", "5"]
    let (prefs, err) = try Self.start(Self.binary, arguments, setup)
    usleep(700_000)
    #expect(prefs.isRunning, "prefs did not wait for GNUstep's lock")
    #expect(try Data(contentsOf: domain) == before)
    try FileManager.default.removeItem(at: setup.lock)
    prefs.waitUntilExit()
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(prefs.terminationStatus == 0, "\(stderr)")
    #expect(try Self.values(domain) == ["first": 1, "k": 5])
    #expect(!FileManager.default.fileExists(atPath: setup.lock.path))
    #expect(try FileManager.default.contentsOfDirectory(atPath: setup.lockFolder.path).isEmpty)
  }

  /// A lock left by a crashed GNUstep process, dated more than 20 s ago, is stale: broken and
  /// taken at once, as GNUstep does. A domain named by its path in GNUstep's folder takes the
  /// lock too.
  @Test(.enabled(if: Tools.gnustep || External.required, "needs GNUstep"))
  func aStaleLockIsBroken() throws {
    let setup = try Setup()
    let domain = setup.domain("com.example.gs")
    try FileManager.default.createDirectory(at: setup.lock, withIntermediateDirectories: true)
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSinceNow: -30)], ofItemAtPath: setup.lock.path)
    let started = Date()
    let run = try External.run(
      Self.binary, ["--layout", "gnustep", "write", domain.path, "k", "-int", "5"],
      environment: setup.environment)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(Date().timeIntervalSince(started) < 5)
    #expect(try Self.values(domain) == ["k": 5])
    #expect(!FileManager.default.fileExists(atPath: setup.lock.path))

    // The same lock dated 5 s ago is another process's: prefs waits for it.
    try FileManager.default.createDirectory(at: setup.lock, withIntermediateDirectories: true)
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSinceNow: -5)], ofItemAtPath: setup.lock.path)
    let (prefs, _) = try Self.start(
      Self.binary, ["--layout", "gnustep", "write", "com.example.gs", "k", "-int", "6"], setup)
    usleep(500_000)
    #expect(prefs.isRunning)
    try FileManager.default.removeItem(at: setup.lock)
    prefs.waitUntilExit()
    #expect(prefs.terminationStatus == 0)
    #expect(try Self.values(domain) == ["k": 6])
  }

  /// A lock that cannot be made is an error (73, naming the lock and why) and nothing is
  /// written: `.lck` that is a file, and `.lck` this user may not write to.
  @Test(.enabled(if: Tools.gnustep || External.required, "needs GNUstep"))
  func aLockThatCannotBeMadeIsAnErrorAndNothingIsWritten() throws {
    let setup = try Setup()
    let domain = setup.domain("com.example.gs")
    try PropertyList.write(["first": 1], as: .xml).write(to: domain)
    try Data().write(to: setup.lockFolder)
    let before = try LiveDomainTests.listing(setup.defaultsFolder)
    let run = try External.run(
      Self.binary, ["--layout", "gnustep", "write", "com.example.gs", "k", "-int", "5"],
      environment: setup.environment)
    #expect(run.status == 73)
    #expect(run.stderr.contains("\(setup.lockFolder.path) is not a folder"), "\(run.stderr)")
    #expect(try LiveDomainTests.listing(setup.defaultsFolder) == before)

    // A `.lck` this user may not write to: as root, run prefs as nobody (when nobody may run
    // it: a checkout in a private home folder may not be reachable).
    try FileManager.default.removeItem(at: setup.lockFolder)
    try FileManager.default.createDirectory(at: setup.lockFolder, withIntermediateDirectories: true)
    let asRoot = geteuid() == 0
    if asRoot {
      let nobody = ["--reuid=65534", "--regid=65534", "--clear-groups"]
      guard let setpriv = External.which("setpriv"),
        try External.run(setpriv, nobody + ["/bin/sh", "-c", "test -x \"$0\"", Self.binary])
          .status == 0
      else { return }
      for (path, mode) in [
        (setup.folder.url.path, 0o755), (setup.defaultsFolder.path, 0o777), (domain.path, 0o666),
        (setup.lockFolder.path, 0o755), (setup.folder.file("GNUstep.conf").path, 0o644),
      ] {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
      }
      let denied = try External.run(
        setpriv,
        nobody + [
          Self.binary, "--layout", "gnustep", "write", "com.example.gs", "k", "-int", "5",
        ],
        environment: setup.environment)
      #expect(denied.status == 73, "\(denied.stderr)")
      #expect(
        denied.stderr.contains("cannot make GNUstep's lock \(setup.lock.path): Permission denied"),
        "\(denied.stderr)")
    } else {
      try FileManager.default.setAttributes(
        [.posixPermissions: 0o555], ofItemAtPath: setup.lockFolder.path)
      let denied = try External.run(
        Self.binary, ["--layout", "gnustep", "write", "com.example.gs", "k", "-int", "5"],
        environment: setup.environment)
      try FileManager.default.setAttributes(
        [.posixPermissions: 0o755], ofItemAtPath: setup.lockFolder.path)
      #expect(denied.status == 73, "\(denied.stderr)")
      #expect(denied.stderr.contains("Permission denied"), "\(denied.stderr)")
    }
    #expect(try Self.values(domain) == ["first": 1])
    #expect(!FileManager.default.fileExists(atPath: setup.lock.path))
  }

  /// The library: a store over a domain that a `gnustep` locator resolves holds GNUstep's
  /// lock across its re-read, change and write, gives it back when the change throws, takes
  /// it again (without waiting) for a nested update of another domain of the folder, and
  /// reports a lock it cannot make as ``DefaultsError/cannotLock(path:reason:)``.
  @Test(.timeLimit(.minutes(1))) func aStoreOverGNUstepsFolderTakesItsLock() throws {
    let setup = try Setup()
    let locator = DomainLocator(platform: .gnustep, environment: setup.environment)
    let store = try DefaultsStore(domain: "com.example.a", locator: locator, flushAtExit: false)
    let other = try DefaultsStore(domain: "com.example.b", locator: locator, flushAtExit: false)
    let lock = setup.lock.path
    var heldInside = false
    try store.updateDomain { _ throws(DefaultsError) in
      heldInside = FileManager.default.fileExists(atPath: lock)
      try other.updateDomain { _ in ["nested": 1] }
      return ["k": 1]
    }
    #expect(heldInside)
    #expect(!FileManager.default.fileExists(atPath: lock))
    #expect(try Self.values(setup.domain("com.example.a")) == ["k": 1])
    #expect(try Self.values(setup.domain("com.example.b")) == ["nested": 1])

    #expect(throws: DefaultsError.emptyKey) {
      try store.updateDomain { _ throws(DefaultsError) in throw .emptyKey }
    }
    #expect(!FileManager.default.fileExists(atPath: lock))

    try FileManager.default.removeItem(at: setup.lockFolder)
    try Data().write(to: setup.lockFolder)
    try store.set(2, forKey: "k")
    #expect {
      try store.synchronizeOrThrow()
    } throws: { error in
      guard case .cannotLock(let path, let reason) = error as? DefaultsError else { return false }
      return path == setup.domain("com.example.a").path && reason.contains(".lck is not a folder")
    }
    #expect(try Self.values(setup.domain("com.example.a")) == ["k": 1])
  }
}

/// Slow: skipped by the quick test line (`swift test --skip /Slow/`).
extension GNUstepLockTests {
  @Suite(.tags(.slow)) struct Slow {
    /// GNUstep's `defaults write` of distinct keys in a loop (one process per key, each
    /// acknowledged by exit 0) while `prefs --layout gnustep migrate --in-place` migrates the
    /// same domain. Every round: every acknowledged write is in the final file, the migration is
    /// not undone, and the file is the migration of the backup with the writes on top (before
    /// prefs took GNUstep's lock, five runs of 40 rounds lost 7 to 17 of 320 writes and undid 0
    /// to 2 migrations). PREFS_GNUSTEP_RACE_ROUNDS sets the rounds (default 40).
    @Test(.enabled(if: Tools.gnustep || External.required, "needs GNUstep"))
    func inPlaceMigrationBesideGNUstepsDefaultsWriteLosesNothing() throws {
      let rounds =
        Int(ProcessInfo.processInfo.environment["PREFS_GNUSTEP_RACE_ROUNDS"] ?? "") ?? 40
      let keys = 8
      let sampleBytes = try Data(contentsOf: GNUstepLockTests.sample)
      var generator = SystemRandomNumberGenerator()
      var acknowledged = 0
      var lost = 0
      var undone = 0
      var writesBeforeMigration = 0
      for round in 0..<rounds {
        let setup = try Setup()
        let domain = setup.domain("com.exmo.equizmo")
        let backups = setup.folder.file("backups")
        try FileManager.default.createDirectory(at: backups, withIntermediateDirectories: true)
        try sampleBytes.write(to: domain)
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/bash")
        writer.arguments = [
          "-c",
          "for n in $(seq 1 \(keys)); do \"$0\" write com.exmo.equizmo app.k$n \"<*I$n>\""
            + " && echo ack $n; done",
          GNUstepLockTests.defaults,
        ]
        writer.environment = ProcessInfo.processInfo.environment.merging(setup.environment) { $1 }
        let out = Pipe()
        writer.standardOutput = out
        writer.standardError = FileHandle.nullDevice
        try writer.run()
        usleep(UInt32.random(in: 0...250_000, using: &generator))
        let migration = try External.run(
          GNUstepLockTests.binary,
          [
            "--layout", "gnustep", "migrate", "--plan", GNUstepLockTests.plan, "--in-place",
            "--backup",
            backups.path, "com.exmo.equizmo",
          ],
          environment: setup.environment)
        let acks = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
          .split(separator: "\n").compactMap { Int($0.dropFirst(4)) }
        writer.waitUntilExit()
        #expect(migration.status == 0, "round \(round): \(migration.stderr)")
        acknowledged += acks.count
        #expect(acks.count == keys, "round \(round): GNUstep's writer failed")

        let final = try GNUstepLockTests.values(domain)
        for n in acks where final["app.k\(n)"] != .int(n) { lost += 1 }
        if final["prefs.schemaVersion"] != 2 || final["PREFS_SOUND_ENABLED"] != nil { undone += 1 }
        let names = Backups.files(in: backups)
        #expect(
          names == [Backups.place(of: domain.path, in: backups)], "round \(round): backups \(names)"
        )
        #expect(!FileManager.default.fileExists(atPath: setup.lock.path), "round \(round)")
        guard let backup = names.first else { continue }

        // The final file is the migration of the backup (the file as the migration found it
        // under the locks), with every acknowledged write on top. GNUstep writes XML, which
        // holds dates to the whole second.
        let writerKeys = try GNUstepLockTests.values(backup).keys.filter { $0.hasPrefix("app.k") }
        writesBeforeMigration += writerKeys.count
        let expected = setup.folder.file("expected.plist")
        let reference = try External.run(
          GNUstepLockTests.binary,
          ["migrate", "--plan", GNUstepLockTests.plan, "--to", expected.path, backup.path])
        #expect(reference.status == 0, "\(reference.stderr)")
        var wanted = try GNUstepLockTests.values(expected)
        for n in acks { wanted["app.k\(n)"] = .int(n) }
        let got = final.mapValues { DomainFile.storable($0, in: .xml) }
        let want = wanted.mapValues { DomainFile.storable($0, in: .xml) }
        let differing = Set(got.keys).union(want.keys).filter { got[$0] != want[$0] }.sorted()
        #expect(differing.isEmpty, "round \(round): not the migrated backup at \(differing)")
      }
      print(
        "GNUstep race: \(rounds) rounds, \(acknowledged) acknowledged `defaults write`s, "
          + "\(lost) lost, \(undone) migrations undone, \(writesBeforeMigration) writes landed "
          + "before the migration (and were migrated)")
      #expect(lost == 0)
      #expect(undone == 0)
      #expect(acknowledged == rounds * keys)
    }
  }
}
