import Foundation
import PropertyList
import TestSupport
import Testing

/// Every path takes the lock, says what failed and leaves nothing on failure; what is not a
/// regular file is refused at once.
@Suite struct NothingLeftBehindTests {
  static let binary = External.product("prefs")
  static let plan = External.packageRoot.appendingPathComponent(
    "Legacy/Samples/equizmo-plan.json"
  ).path

  /// A folder of the user's (not the preferences folder) with a 0644 dictionary file, and a
  /// preferences folder of its own.
  struct Scene {
    let folder: TemporaryFolder
    var file: String { folder.file("Info.plist").path }
    var config: URL { folder.file("config") }

    init() throws {
      folder = try TemporaryFolder()
      try PropertyList.write(["a": "1", "list": ["x"]], as: .xml).write(
        to: URL(fileURLWithPath: file))
      chmod(file, 0o644)
      try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
    }

    func run(_ arguments: [String], input: Data? = nil) throws -> ProcessResult {
      try External.run(
        NothingLeftBehindTests.binary, arguments.map { $0 == "FILE" ? file : $0 }, input: input,
        environment: ["XDG_CONFIG_HOME": config.path])
    }

    func tree() throws -> [String] {
      guard let walker = FileManager.default.enumerator(atPath: folder.url.path) else {
        return []
      }
      return walker.compactMap { $0 as? String }.sorted()
    }
  }

  /// Commands that fail change nothing and create nothing, not even a lock file.
  @Test(arguments: [
    ["plutil", "-remove", "nope", "FILE"], ["plutil", "-insert", "a", "-string", "x", "FILE"],
    ["plutil", "-replace", "list.7", "-string", "x", "FILE"],
    ["plutil", "-extract", "nope", "xml1", "FILE"], ["delete", "FILE", "nope"],
    ["rename", "FILE", "nope", "b"], ["rename", "FILE", "a", "list"],
    ["migrate", "--plan", "PLAN", "--in-place", "--backup", "MISSING", "FILE"],
  ])
  func aFailedCommandLeavesNothing(_ arguments: [String]) throws {
    let scene = try Scene()
    let before = try scene.tree()
    let bytes = try Data(contentsOf: URL(fileURLWithPath: scene.file))
    let result = try scene.run(
      arguments.map {
        $0 == "PLAN" ? Self.plan : $0 == "MISSING" ? scene.folder.file("no/such").path : $0
      })
    #expect(result.status != 0, "\(arguments) succeeded")
    #expect(try scene.tree() == before, "\(arguments) left something")
    #expect(try Data(contentsOf: URL(fileURLWithPath: scene.file)) == bytes)
  }

  /// The same, for a domain of the preferences folder (where a successful write leaves its
  /// lock file, as every store of the domain does).
  @Test(arguments: [
    ["plutil", "-remove", "nope", "DOMAIN"], ["delete", "com.example.d", "nope"],
    ["migrate", "--plan", "PLAN", "--in-place", "--backup", "MISSING", "com.example.d"],
  ])
  func aFailedCommandOnADomainLeavesNoLockFile(_ arguments: [String]) throws {
    let scene = try Scene()
    let domain = scene.config.appendingPathComponent("com.example.d.plist")
    try PropertyList.write(["a": "1"], as: .xml).write(to: domain)
    let before = try scene.tree()
    let result = try scene.run(
      arguments.map {
        switch $0 {
        case "PLAN": Self.plan
        case "MISSING": scene.folder.file("no/such").path
        case "DOMAIN": domain.path
        default: $0
        }
      })
    #expect(result.status != 0, "\(arguments) succeeded")
    #expect(try scene.tree() == before, "\(arguments) left something")
  }

  /// Editing a file of the user's (not a domain: outside the preferences folder, no lock
  /// beside it) keeps its mode and leaves no lock file.
  @Test(arguments: [
    ["plutil", "-replace", "a", "-string", "x", "FILE"],
    ["plutil", "-insert", "n", "-bool", "YES", "FILE"],
    ["plutil", "-remove", "a", "FILE"], ["plutil", "-convert", "binary1", "FILE"],
    ["write", "FILE", "k", "v"], ["delete", "FILE", "a"], ["rename", "FILE", "a", "b"],
  ])
  func editingAUsersFileLeavesNoLockFileAndKeepsItsMode(_ arguments: [String]) throws {
    let scene = try Scene()
    let result = try scene.run(arguments)
    #expect(result.status == 0, "\(arguments): \(result.stderr)")
    #expect(try scene.tree() == ["Info.plist", "config"], "\(arguments)")
    var info = stat()
    #expect(stat(scene.file, &info) == 0)
    #expect(
      info.st_mode & 0o777 == 0o644, "\(arguments): \(String(info.st_mode & 0o777, radix: 8))")
  }

  /// `defaults export DOMAIN PATH` into a domain waits for the domain's lock, as `convert -o`
  /// does: a writer holding the lock is never overwritten behind its back.
  @Test(.enabled(if: External.which("flock") != nil, "needs flock (util-linux)"))
  func defaultsExportIntoADomainTakesItsLock() throws {
    let scene = try Scene()
    let source = scene.config.appendingPathComponent("com.example.src.plist")
    try PropertyList.write(["k": "v"], as: .xml).write(to: source)
    let target = scene.config.appendingPathComponent("com.example.dst.plist")
    try PropertyList.write(["old": 1], as: .xml).write(to: target)
    // Another writer holds the target's lock for a second.
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
    holder.arguments = [target.path + ".lock", "sleep", "1"]
    try holder.run()
    usleep(200_000)
    let start = Date()
    let result = try scene.run(["defaults", "export", "com.example.src", target.path])
    let waited = Date().timeIntervalSince(start)
    holder.waitUntilExit()
    #expect(result.status == 0, "\(result.stderr)")
    #expect(waited > 0.5, "export did not wait for the lock (\(waited) s)")
    #expect(try PropertyList.read(Data(contentsOf: target)).value == ["k": "v"])
  }

  @Test func findJSONRefusesWhatJSONCannotHold() throws {
    let scene = try Scene()
    try PropertyList.write(["needle.ratio": .real(.nan), "word": "hay"], as: .binary).write(
      to: scene.config.appendingPathComponent("com.example.nan.plist"))
    let result = try scene.run(["find", "needle", "--json"])
    #expect(result.status == 65, "\(result.output)")
    #expect(result.output.isEmpty)
    #expect(result.stderr.contains("ratio"), "\(result.stderr)")
  }

  @Test func defaultsReadOfEveryDomainNamesOneThatDoesNotRead() throws {
    let scene = try Scene()
    try PropertyList.write(["k": "v"], as: .xml).write(
      to: scene.config.appendingPathComponent("com.example.good.plist"))
    try Data("<plist><dict><key>k".utf8).write(
      to: scene.config.appendingPathComponent("com.example.bad.plist"))
    let result = try scene.run(["defaults", "read"])
    #expect(result.output.contains("com.example.good"))
    #expect(result.stderr.contains("com.example.bad.plist"), "\(result.stderr)")
  }

  // MARK: - What is not a regular file

  /// A FIFO named like a domain file, a device, a folder: each verb answers at once, naming
  /// it, with its exit code (run under `timeout`: a verb that waited would be killed, 124).
  static let notRegular: [(arguments: [String], code: Int32)] = [
    (["read", "com.example.fifo"], 66), (["read", "com.example.fifo", "k"], 66),
    (["write", "com.example.fifo", "k", "v"], 66), (["lint", "com.example.fifo"], 66),
    (["defaults", "read", "com.example.fifo"], 66), (["plutil", "-p", "FIFO"], 1),
    (["migrate", "--plan", "PLAN", "--in-place", "com.example.fifo"], 66),
    (["read", "/dev/zero"], 66), (["convert", "/dev/zero", "--to", "xml"], 66),
    (["lint", "/dev/null"], 66),
  ]

  @Test(arguments: notRegular)
  func whatIsNotARegularFileIsRefusedAtOnce(_ arguments: [String], _ code: Int32) throws {
    let scene = try Scene()
    let fifo = scene.config.appendingPathComponent("com.example.fifo.plist").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let result = try External.run(
      "/usr/bin/timeout",
      ["-s", "KILL", "10", Self.binary]
        + arguments.map { $0 == "PLAN" ? Self.plan : $0 == "FIFO" ? fifo : $0 },
      environment: ["XDG_CONFIG_HOME": scene.config.path])
    #expect(result.status == code, "\(arguments): \(result.stderr)")
    #expect(result.stderr.contains("not a regular file"), "\(arguments): \(result.stderr)")
  }

  /// In a batch, a FIFO among the inputs or where an output goes is one failed file; the
  /// batch goes on.
  @Test func aFIFOInABatchIsOneFailedFile() throws {
    let scene = try Scene()
    let fleet = scene.folder.file("fleet")
    let out = scene.folder.file("out")
    for folder in [fleet, out] {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    let sample = External.packageRoot.appendingPathComponent(
      "Legacy/Samples/com.exmo.equizmo.plist")
    for name in ["a", "c"] {
      try FileManager.default.copyItem(
        at: sample, to: fleet.appendingPathComponent("\(name).plist"))
    }
    #expect(mkfifo(fleet.appendingPathComponent("b.plist").path, 0o600) == 0)
    #expect(mkfifo(out.appendingPathComponent("c.plist").path, 0o600) == 0)
    let result = try External.run(
      "/usr/bin/timeout",
      [
        "-s", "KILL", "20", Self.binary, "migrate", "--plan", Self.plan, "--to", out.path + "/",
        fleet.path + "/",
      ])
    // Both FIFOs are there: failed, not missing; the unreadable input exits as one (66).
    #expect(result.status == 66, "\(result.output)\(result.stderr)")
    #expect(result.output.contains("3 files: 1 migrated, 2 failed"), "\(result.output)")
    #expect(!result.output.contains("missing"), "\(result.output)")
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("a.plist").path))
    let infer = try External.run(
      "/usr/bin/timeout", ["-s", "KILL", "20", Self.binary, "plan", "infer", fleet.path + "/"])
    #expect(infer.status == 66, "\(infer.stderr)")
    #expect(infer.stderr.contains("b.plist: failed: "), "\(infer.stderr)")
  }

  /// `read FILE KEY` maps a large file only under the guard: a mapped file that another
  /// program truncates meanwhile would end the process with SIGBUS, so the guard's handler is
  /// installed right after the mapping (before any byte is read) and the action that was there
  /// put back right before the unmapping. (strace shows every mapping and signal action; that
  /// the handler contains the fault is MappedFileTests' and the race's `cut-*`.)
  @Test(.enabled(if: External.which("strace") != nil, "needs strace"))
  func readingOneKeyMapsTheFileOnlyUnderTheGuard() throws {
    let scene = try Scene()
    var values = PlistDictionary()
    for i in 0..<20_000 { values["key-\(i)"] = .integer(Int64(i)) }
    let file = scene.folder.file("large.plist")
    try PropertyList.write(.dictionary(values), as: .binary).write(to: file)
    let log = scene.folder.file("trace").path
    let result = try External.run(
      "/usr/bin/strace",
      [
        "-e", "trace=openat,mmap,munmap,close,rt_sigaction", "-o", log, Self.binary, "read",
        file.path, "key-7",
      ])
    #expect(result.output == "7\n", "\(result.stderr)")
    let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
      .map(String.init)
    let opened = try #require(lines.firstIndex { $0.contains("large.plist") })
    let fd = try #require(
      lines[opened].split(separator: "=").last?.trimmingCharacters(in: .whitespaces))
    let maps = lines.indices.filter {
      $0 > opened && lines[$0].hasPrefix("mmap(") && lines[$0].contains(", \(fd), 0)")
    }
    #expect(maps.count == 1, "\(maps.map { lines[$0] })")
    for at in maps {
      let address = try #require(
        lines[at].split(separator: "=").last?
          .trimmingCharacters(in: .whitespaces))
      // Installed next: the guard's handler (with its fault's address, SA_SIGINFO).
      #expect(lines[at + 1].hasPrefix("rt_sigaction(SIGBUS, {sa_handler="), "\(lines[at + 1])")
      #expect(lines[at + 1].contains("SA_SIGINFO"), "\(lines[at + 1])")
      // Put back last: the action before it (its handler, as strace prints it), right before
      // the unmapping.
      func handlers(_ line: String) -> [Substring] {
        line.split(separator: "sa_handler=").dropFirst().compactMap {
          $0.split(separator: ",").first
        }
      }
      let before = try #require(handlers(lines[at + 1]).last)
      let unmap = try #require(lines.firstIndex { $0.hasPrefix("munmap(\(address),") })
      #expect(unmap > at + 1)
      #expect(lines[unmap - 1].hasPrefix("rt_sigaction(SIGBUS, "), "\(lines[unmap - 1])")
      #expect(handlers(lines[unmap - 1]).first == before, "\(lines[unmap - 1])")
    }
  }
}
