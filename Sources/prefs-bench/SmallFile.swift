import Foundation
import LegacyDefaults
import PropertyList

/// One small preference file, one process (issue 37): what a shell script's `defaults read`
/// or `write` line, a hook converting one preference file, a fleet job run once per user
/// start. Every command runs in one rotation (as the start rows), so that each row and its
/// baseline see the same machine; the flush rows say what durability costs here.
extension Bench {
  /// The small file: 68 keys of every type a preference file holds (strings, integers,
  /// booleans, reals, data, dates, arrays), 1.7 KB in binary, `FontSize` among them.
  static func smallDomain() -> PlistDictionary {
    var values = PlistDictionary()
    var i = 0
    while values.count < 67 {
      let key = "Setting\(i < 10 ? "0" : "")\(i)"
      switch i % 7 {
      case 0: values[key] = .string("value number \(i)")
      case 1: values[key] = .integer(Int64(i) * 37)
      case 2: values[key] = .bool(i % 2 == 0)
      case 3: values[key] = .real(Double(i) * 1.25)
      case 4: values[key] = .data(Data((0...(i % 16)).map { UInt8($0) }))
      case 5: values[key] = .date(Date(timeIntervalSinceReferenceDate: 420_748_205 + Double(i)))
      default: values[key] = .array([.string("a\(i)"), .integer(Int64(i))])
      }
      i += 1
    }
    values["FontSize"] = .integer(12)
    return values
  }

  func smallFile(_ prefs: String, starts: Int) throws {
    guard let plistutil = Self.which("plistutil") else {
      skip("plistutil not found (apt-get install libplist-utils): small-file cases")
      return
    }
    let data = try PropertyList.write(.dictionary(Self.smallDomain()), as: .binary)
    let size = String(format: "%.1f KB", Double(data.count) / 1000)
    let small = folder.appendingPathComponent("small.bplist")
    try data.write(to: small)
    let written = folder.appendingPathComponent("written.bplist")
    try data.write(to: written)
    let out = folder.appendingPathComponent("small-out").path
    // The domain for `defaults read`: prefs (a link named `defaults`) finds it in
    // XDG_CONFIG_HOME, GNUstep in the folder its configuration file names.
    let domain = "com.example.small"
    let xdg = folder.appendingPathComponent("small-xdg")
    let gnustepFolder = folder.appendingPathComponent("small-gnustep")
    for place in [xdg, gnustepFolder] {
      try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
      try data.write(to: place.appendingPathComponent(domain + ".plist"))
    }
    let config = folder.appendingPathComponent("small-GNUstep.conf")
    try Data("GNUSTEP_USER_DEFAULTS_DIR=\(gnustepFolder.path)\n".utf8).write(to: config)
    let links = folder.appendingPathComponent("small-bin")
    try FileManager.default.createDirectory(at: links, withIntermediateDirectories: true)
    let defaults = links.appendingPathComponent("defaults").path
    try? FileManager.default.removeItem(atPath: defaults)
    try FileManager.default.createSymbolicLink(atPath: defaults, withDestinationPath: prefs)
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_CONFIG_HOME"] = xdg.path
    environment["GNUSTEP_CONFIG_FILE"] = config.path

    var commands: [[String]] = [
      [plistutil, "-i", small.path, "-f", "xml"],
      [prefs, "convert", small.path, "--to", "xml"],
      [prefs, "read", small.path, "FontSize"],
      [plistutil, "-i", small.path, "-f", "xml", "-o", out + "-plistutil.xml"],
      [prefs, "convert", small.path, "--to", "xml", "-o", out + ".xml"],
      // Two values in turn: a write of the value a file holds writes nothing.
      [prefs, "write", written.path, "FontSize", "-int", "13"],
      [prefs, "write", written.path, "FontSize", "-int", "14"],
      [defaults, "read", domain, "FontSize"],
    ]
    let gnustep = Self.gnustepDefaults()
    if let gnustep { commands.append([gnustep, "read", domain, "FontSize"]) }
    let samples = try rotatedSamples(starts, commands, environment: environment)
    func median(_ lists: [Double]...) -> Double {
      let all = lists.flatMap { $0 }.sorted()
      return all[all.count / 2]
    }
    let toStandardOutput = median(samples[0])
    let toFile = median(samples[3])
    let name = "small file (\(size), 68 keys)"
    let plistutilOut = "plistutil -i FILE -f xml (libplist, C; to standard output)"
    let plistutilFile = "plistutil -i FILE -f xml -o OUT (no flush, no rename)"
    cases.append(
      Case(
        name: "\(name): `prefs convert FILE --to xml` to standard output",
        prefs: median(samples[1]), baseline: plistutilOut, baselineMs: toStandardOutput,
        target: 1.0))
    cases.append(
      Case(
        name: "\(name): `prefs read FILE KEY`", prefs: median(samples[2]),
        baseline: plistutilOut, baselineMs: toStandardOutput, target: 0.8))
    cases.append(
      Case(
        name: "\(name): `prefs convert FILE --to xml -o OUT`", prefs: median(samples[4]),
        baseline: plistutilFile, baselineMs: toFile,
        note: "prefs replaces OUT atomically, its bytes flushed before the rename", target: 1.5))
    cases.append(
      Case(
        name: "\(name): `prefs write FILE KEY -int N`", prefs: median(samples[5], samples[6]),
        baseline: plistutilFile, baselineMs: toFile,
        note: "prefs locks, re-reads and replaces the file, flushing it and its folder",
        target: 1.5))
    cases.append(
      Case(
        name: "\(name): `defaults read DOMAIN KEY` (prefs as `defaults`)",
        prefs: median(samples[7]), baseline: plistutilOut, baselineMs: toStandardOutput))
    if gnustep != nil {
      cases.append(
        Case(
          name: "\(name): `defaults read DOMAIN KEY` (prefs as `defaults`)",
          prefs: median(samples[7]), baseline: "GNUstep `defaults read DOMAIN KEY`",
          baselineMs: median(samples[8])))
    } else {
      skip("GNUstep defaults not found (apt-get install gnustep-base-runtime): small defaults case")
    }
    try flushCost(data, runs: starts)
  }

  /// What the flushes of a small file's atomic replacement cost on this machine: the file's
  /// (`fsync` before the rename: never a torn file) and the folder's (after it: the rename
  /// survives a crash), against the same replacement without them.
  func flushCost(_ data: Data, runs: Int) throws {
    let held = try HeldFolder.open(folder.path)
    func replace(durable: Bool, syncingFolder: Bool) throws {
      try held.replace(
        "flush.plist", with: data, ownership: .newFile(in: held), durable: durable,
        syncingFolder: syncingFolder)
    }
    var samples = [[Double](), [], []]
    let variants = [(false, false), (true, false), (true, true)]
    for _ in 0..<runs {
      for (i, (durable, syncingFolder)) in variants.enumerated() {
        let start = DispatchTime.now().uptimeNanoseconds
        try replace(durable: durable, syncingFolder: syncingFolder)
        samples[i].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
      }
    }
    let medians = samples.map { $0.sorted()[$0.count / 2] }
    let bare = "the same replacement without a flush"
    cases.append(
      Case(
        name: "replace a \(data.count)-byte file atomically, the file flushed (outputs)",
        prefs: medians[1], baseline: bare, baselineMs: medians[0],
        note: String(format: "the file's fsync: %.2f ms", medians[1] - medians[0])))
    cases.append(
      Case(
        name: "replace a \(data.count)-byte file atomically, file and folder flushed (domains)",
        prefs: medians[2], baseline: bare, baselineMs: medians[0],
        note: String(format: "both fsyncs: %.2f ms", medians[2] - medians[0])))
  }

  /// Every sample of each command, run `count` times in rotation (after one warm-up run each,
  /// each program read from disk first: ``readFromDisk(_:)``).
  func rotatedSamples(
    _ count: Int, _ commands: [[String]], environment: [String: String]? = nil
  ) throws -> [[Double]] {
    Self.readFromDisk(commands.map { $0[0] })
    var samples = Array(repeating: [Double](), count: commands.count)
    for command in commands { _ = try time(command, environment: environment) }
    for _ in 0..<count {
      for (i, command) in commands.enumerated() {
        samples[i].append(try time(command, environment: environment))
      }
    }
    return samples
  }
}

extension Bench {
  /// Flushes everything written so far (`sync`), then drops each program's pages from the
  /// page cache, so that the warm-up run reads it from disk as the first start after a boot or
  /// an install does. How a file came into the cache decides how many faults a start takes: a
  /// binary as the linker wrote it starts with more faults (an empty program: 71) than a copy
  /// written in one piece (45) or one read from disk (70–71), enough to move a small command's
  /// ratio by a tenth; every program of a rotation, prefs and its peers alike, is measured in
  /// the read-from-disk state. The `sync` also keeps a command's flush from being the writeback
  /// of the cases before it (the small-file write took 2.4× plistutil's time after the
  /// 10,000-file migration, 1.5× in a run of its own), and lets the cache drop every page.
  static func readFromDisk(_ programs: [String]) {
    sync()
    #if os(Linux)
      for program in Set(programs.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }) {
        let fd = open(program, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { continue }
        posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)
        close(fd)
      }
    #endif
  }
}
