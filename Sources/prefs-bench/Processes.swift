import Foundation
import PropertyList

/// Whole-process cases: `prefs` started as a user starts it, against the peers a user would
/// start instead (libplist's `plistutil`, GNUstep's `defaults`, python3 `plistlib`) and against
/// the start of a Swift program that imports nothing. A peer that is missing is skipped with a
/// message; `.ci/run` installs them.
extension Bench {
  func wholeProcesses(onlyStarts: Bool = false) throws {
    guard let prefs = prefsBeside(skipping: "process cases") else { return }
    let domain = makeDomain(keyCount)
    let binary = folder.appendingPathComponent("big.plist")
    try PropertyList.write(.dictionary(domain), as: .binary).write(to: binary)
    let xml = folder.appendingPathComponent("big.xml")
    try PropertyList.write(.dictionary(domain), as: .xml).write(to: xml)
    let small = folder.appendingPathComponent("small.plist")
    try PropertyList.write(["name": "Ada", "size": 5, "sound": true], as: .binary).write(to: small)
    let out = folder.appendingPathComponent("out").path
    let key = "setting.\(keyCount / 2)"
    // Start-up cases are short and noisy: many runs, interleaved with their baseline (two
    // full runs with 61 had the same binary at 1.32× and 1.40× its floor; each run is ~3 ms).
    let starts = quick ? 21 : 301

    // The floor is an empty program linked as this prefs is: fully static (`-static-executable`,
    // the release build), with the runtime inside (`--static-swift-stdlib`), or against the
    // toolchain's shared runtime (swiftc's default). The other floor is reported beside it,
    // without a target. `--version` of the fully static build is held to 1.1× its floor (issue
    // 37); the other start rows to 1.4× theirs, as before.
    let linked = Self.linking(of: prefs)
    for (floorLinking, held) in [(linked, true), (linked.other, false)] {
      guard let empty = try emptySwiftProgram(floorLinking) else { continue }
      let floorName =
        "a Swift program that imports nothing (swiftc -O\(floorLinking.flags.map { " " + $0 }.joined()))"
      // One rotation of the three, so that both rows are held to the same floor samples (two
      // separate pairings gave the floor 1.84 and 2.04 ms in one run, and `read`, faster than
      // `--version` in absolute time, the larger ratio).
      let medians = try rotated(
        starts, [[empty], [prefs, "--version"], [prefs, "read", small.path, "size"]])
      let floor = medians[0]
      cases.append(
        Case(
          name: "start: `prefs --version` (\(linked.name))", prefs: medians[1],
          baseline: floorName, baselineMs: floor,
          target: held ? (linked == .executable ? 1.1 : 1.4) : nil))
      cases.append(
        Case(
          name: "start: `prefs read FILE KEY`, 3-key domain (\(linked.name))", prefs: medians[2],
          baseline: floorName, baselineMs: floor, target: held ? 1.4 : nil))
    }

    try smallFile(prefs, starts: starts)
    if onlyStarts { return }

    // One key of the large domain, against the start and, in the same rotation, against the
    // floor of the work itself: a C program that maps the file and walks its keys
    // (`CFloor`), and an empty C program, the C floor's own start.
    var oneKey: [[String]] = [[prefs, "read", binary.path, key], [prefs, "--version"]]
    var floor = try CFloor.build(in: folder, bench: self)
    if let built = floor, (try? time([built.floor, binary.path, key])) == nil {
      skip("the C floor did not read \(binary.path): the C floor of one key")
      floor = nil
    }
    if let floor { oneKey += [[floor.floor, binary.path, key], [floor.empty]] }
    let medians = try rotated(starts, oneKey)
    // The row is held to the C floor, the work itself (issue 47): against prefs' own start
    // (1.5× until then) it held prefs to less than an exact C reader takes from the same start.
    cases.append(
      Case(
        name: "`prefs read FILE KEY`, one key of \(keyCount), binary", prefs: medians[0],
        baseline: "`prefs --version` (the start)", baselineMs: medians[1]))
    if floor != nil {
      cases.append(
        Case(
          name: "`prefs read FILE KEY`, one key of \(keyCount), binary", prefs: medians[0],
          baseline:
            "the C floor: mmap, the offset table's check and the key walk alone (cc -O2 -static, CFloor.swift)",
          baselineMs: medians[2], target: 1.4))
      cases.append(
        Case(
          name:
            "the C floor of one key of \(keyCount) (mmap, the offset table's check and the key walk)",
          prefs: medians[2], baseline: "an empty C program (cc -O2 -static)",
          baselineMs: medians[3],
          note: String(
            format: "the floor is %.2f× prefs' own start", medians[2] / medians[1])))
    }

    if let plistutil = Self.which("plistutil") {
      peer(
        "convert \(keyCount) keys binary → XML", "plistutil (libplist, C)", runs,
        ours: [prefs, "convert", binary.path, "--to", "xml", "-o", out + ".xml"],
        theirs: [plistutil, "-i", binary.path, "-o", out + "-plistutil.xml", "-f", "xml"],
        note: "prefs writes atomically and fsyncs; plistutil does neither", target: 0.5)
      peer(
        "convert \(keyCount) keys XML → binary", "plistutil (libplist, C)", runs,
        ours: [prefs, "convert", xml.path, "--to", "binary", "-o", out + ".bplist"],
        theirs: [plistutil, "-i", xml.path, "-o", out + "-plistutil.bplist", "-f", "bin"],
        target: 0.1)
    } else {
      skip("plistutil not found (apt-get install libplist-utils): plistutil cases")
    }

    // Apple's own code: the toolchain's plutil (Darwin's plutil over corelibs' CoreFoundation).
    if let plutil = Self.toolchainPlutil() {
      peer(
        "convert \(keyCount) keys binary → XML", "the toolchain's plutil (CoreFoundation)", runs,
        ours: [prefs, "convert", binary.path, "--to", "xml", "-o", out + ".xml"],
        theirs: [plutil, "-convert", "xml1", "-o", out + "-plutil.xml", binary.path])
      peer(
        "convert \(keyCount) keys XML → binary", "the toolchain's plutil (CoreFoundation)", runs,
        ours: [prefs, "convert", xml.path, "--to", "binary", "-o", out + ".bplist"],
        theirs: [plutil, "-convert", "binary1", "-o", out + "-plutil.bplist", xml.path])
      // JSON holds no dates: the domain without its dates (5/6 of the keys).
      var jsonDomain = PlistDictionary()
      for (key, value) in domain {
        if case .date = value { continue }
        jsonDomain[key] = value
      }
      let jsonable = folder.appendingPathComponent("big-nodates.plist")
      try PropertyList.write(.dictionary(jsonDomain), as: .binary).write(to: jsonable)
      peer(
        "convert \(jsonDomain.count) keys binary → JSON", "the toolchain's plutil (CoreFoundation)",
        runs, ours: [prefs, "convert", jsonable.path, "--to", "json", "-o", out + ".json"],
        theirs: [plutil, "-convert", "json", "-o", out + "-plutil.json", jsonable.path])
      peer(
        "`prefs lint` of the \(keyCount)-key binary domain", "the toolchain's `plutil -lint`",
        runs, ours: [prefs, "lint", binary.path], theirs: [plutil, "-lint", binary.path])
    } else {
      skip("the toolchain's plutil not found beside swiftc: plutil cases")
    }

    // Checking a file: against the start (a binary domain is read at its speed), and an XML
    // one against the time 100 MB/s would take.
    let (lintBinary, start2) = try interleaved(
      runs * 3, [prefs, "lint", binary.path], [prefs, "--version"])
    cases.append(
      Case(
        name: "`prefs lint` of the \(keyCount)-key binary domain", prefs: lintBinary,
        baseline: "`prefs --version` (the start)", baselineMs: start2, target: 10))
    let xmlBytes = Double(
      (try FileManager.default.attributesOfItem(atPath: xml.path)[.size] as? Int) ?? 0)
    let (lintXML, _) = try interleaved(runs * 3, [prefs, "lint", xml.path], [prefs, "--version"])
    cases.append(
      Case(
        name:
          "`prefs lint` of the \(keyCount)-key XML domain (\(String(format: "%.1f", xmlBytes / 1e6)) MB: \(String(format: "%.0f", xmlBytes / 1e3 / lintXML)) MB/s)",
        prefs: lintXML, baseline: "the time at 100 MB/s", baselineMs: xmlBytes / 1e5,
        target: 1))

    if let python = Self.which("python3") {
      let script =
        "import plistlib, sys; d = plistlib.load(open(sys.argv[1], 'rb')); "
        + "open(sys.argv[2], 'wb').write(plistlib.dumps(d))"
      peer(
        "convert \(keyCount) keys binary → XML", "python3 plistlib (load + dumps)", runs,
        ours: [prefs, "convert", binary.path, "--to", "xml", "-o", out + ".xml"],
        theirs: [python, "-c", script, binary.path, out + "-plistlib.xml"])
    } else {
      skip("python3 not found: plistlib process case")
    }

    if let defaults = Self.gnustepDefaults() {
      // GNUstep reads DOMAIN.plist from the folder its config file names (it ignores HOME).
      let gsFolder = folder.appendingPathComponent("gnustep-defaults")
      try FileManager.default.createDirectory(at: gsFolder, withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        at: small, to: gsFolder.appendingPathComponent("prefsbench.plist"))
      let config = folder.appendingPathComponent("GNUstep.conf")
      try Data("GNUSTEP_USER_DEFAULTS_DIR=\(gsFolder.path)\n".utf8).write(to: config)
      var environment = ProcessInfo.processInfo.environment
      environment["GNUSTEP_CONFIG_FILE"] = config.path
      peer(
        "read one key of a 3-key domain", "GNUstep `defaults read DOMAIN KEY`", starts,
        ours: [prefs, "read", small.path, "size"],
        theirs: [defaults, "read", "prefsbench", "size"],
        environment: environment)
    } else {
      skip("GNUstep defaults not found (apt-get install gnustep-base-runtime): defaults case")
    }
  }

  /// A case against a peer's process. A peer that fails (a tool too old, a GNUstep without
  /// its defaults folder) is skipped with its message, as a missing one is: the run reports
  /// prefs' own cases regardless.
  func peer(
    _ name: String, _ baseline: String, _ count: Int, ours: [String], theirs: [String],
    environment: [String: String]? = nil, note: String? = nil, target: Double? = nil
  ) {
    do {
      let (a, b) = try interleaved(count, ours, theirs, environment: environment)
      cases.append(
        Case(
          name: name, prefs: a, baseline: baseline, baselineMs: b, note: note, target: target))
    } catch {
      skip("\(name) against \(baseline) failed (\(error)):")
    }
  }

  /// The toolchain's own plutil: beside `swiftc` once its links are followed (/usr/bin/plutil
  /// on Debian is GNUstep's, another tool).
  static func toolchainPlutil() -> String? {
    guard let swiftc = which("swiftc") else { return nil }
    let path = URL(fileURLWithPath: swiftc).resolvingSymlinksInPath().deletingLastPathComponent()
      .appendingPathComponent("plutil").path
    return FileManager.default.isExecutableFile(atPath: path) ? path : nil
  }

  /// The release `prefs` beside prefs-bench; nil, and `cases` skipped, when it is not there.
  func prefsBeside(skipping cases: String) -> String? {
    let prefs = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("prefs").path
    guard FileManager.default.isExecutableFile(atPath: prefs) else {
      skip("no prefs beside prefs-bench (swift build -c release builds it): \(cases)")
      return nil
    }
    return prefs
  }

  func skip(_ message: String) {
    FileHandle.standardError.write(Data("prefs-bench: \(message) skipped\n".utf8))
  }

  /// How a Swift executable is linked: to the Swift runtime's shared library, with the
  /// runtime inside, or fully static (no dynamic loader, no shared library at all).
  enum Linking {
    case shared, `static`, executable

    var name: String {
      switch self {
      case .shared: "runtime shared"
      case .static: "runtime inside"
      case .executable: "fully static"
      }
    }

    var flags: [String] {
      switch self {
      case .shared: []
      case .static: ["-static-stdlib"]
      case .executable: ["-static-executable"]
      }
    }

    /// The floor reported beside this one: the build it replaced.
    var other: Linking { self == .shared ? .static : self == .static ? .shared : .static }
  }

  /// How `binary` is linked (its dynamic section, as `readelf -d` shows it; without readelf,
  /// or on Apple platforms, shared).
  static func linking(of binary: String) -> Linking {
    guard let readelf = which("readelf"),
      let output = try? capture([readelf, "-d", binary])
    else { return .shared }
    if output.contains("no dynamic section") { return .executable }
    return output.contains("[libswiftCore.so]") ? .shared : .static
  }

  /// An empty Swift program built with the toolchain's `swiftc -O`, linked as asked: the floor
  /// of a Swift process's start.
  func emptySwiftProgram(_ linking: Linking) throws -> String? {
    guard let swiftc = Self.which("swiftc") else {
      skip("swiftc not found: the start-up floor")
      return nil
    }
    let source = folder.appendingPathComponent("empty.swift")
    try Data("print(\"\")\n".utf8).write(to: source)
    let program = folder.appendingPathComponent("empty-\(linking)").path
    guard (try? time([swiftc, "-O"] + linking.flags + [source.path, "-o", program])) != nil else {
      skip("swiftc could not build an empty program (\(linking.name)): the start-up floor")
      return nil
    }
    return program
  }

  /// The medians of `count` runs of each command, run alternately so that both see the same
  /// machine (it is shared and its speed drifts).
  /// The median wall time of each command, run `count` times in rotation (after one warm-up
  /// run each).
  func rotated(_ count: Int, _ commands: [[String]]) throws -> [Double] {
    try rotatedSamples(count, commands).map { $0.sorted()[$0.count / 2] }
  }

  func interleaved(
    _ count: Int, _ ours: [String], _ theirs: [String], environment: [String: String]? = nil
  ) throws -> (Double, Double) {
    Self.readFromDisk([ours[0], theirs[0]])
    var a: [Double] = []
    var b: [Double] = []
    _ = try time(ours, environment: environment)
    _ = try time(theirs, environment: environment)
    for _ in 0..<count {
      a.append(try time(ours, environment: environment))
      b.append(try time(theirs, environment: environment))
    }
    return (a.sorted()[a.count / 2], b.sorted()[b.count / 2])
  }

  /// Runs a command to its end, output discarded, and returns its wall time in ms. It is
  /// started with posix_spawn: Foundation's Process adds about 45 ms on Linux, more than some
  /// of the work measured.
  @discardableResult
  func time(_ command: [String], environment: [String: String]? = nil) throws -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    let (status, _) = try Self.spawnQuietly(command, environment: environment)
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    guard status == 0 else {
      throw BenchError(description: "\(command.joined(separator: " ")) failed (status \(status))")
    }
    return elapsed
  }

  /// Runs `command` with its output and errors to /dev/null and waits for it: its status,
  /// and its resource usage (`wait4`).
  static func spawnQuietly(_ command: [String], environment: [String: String]? = nil) throws
    -> (Int32, rusage)
  {
    // Darwin's posix_spawn_file_actions_t is an opaque pointer; glibc's and musl's a struct.
    #if canImport(Darwin)
      var actions: posix_spawn_file_actions_t? = nil
    #else
      var actions = posix_spawn_file_actions_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = command.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    // This process's environment when none is given (`environ` is not declared on Darwin).
    let envp =
      (environment ?? ProcessInfo.processInfo.environment).map {
        strdup("\($0.key)=\($0.value)")
      } + [nil]
    defer { for pointer in envp { free(pointer) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, envp)
    guard spawned == 0 else { throw BenchError(description: "cannot start \(command[0])") }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) == -1, errno == EINTR {}
    return (status, usage)
  }

  /// A command's standard output (Foundation's Process: for set-up, never timed).
  static func capture(_ command: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: command[0])
    process.arguments = Array(command.dropFirst())
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw BenchError(description: "\(command.joined(separator: " ")) failed")
    }
    return String(decoding: data, as: UTF8.self)
  }

  static func which(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
      let candidate = "\(folder)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// GNUstep's `defaults` (not a `defaults` that is prefs itself, linked under that name).
  static func gnustepDefaults() -> String? {
    for candidate in ["/usr/bin/defaults", "/usr/local/bin/defaults"]
    where FileManager.default.isExecutableFile(atPath: candidate) {
      let resolved = URL(fileURLWithPath: candidate).resolvingSymlinksInPath().lastPathComponent
      if resolved != "prefs" { return candidate }
    }
    return nil
  }
}
