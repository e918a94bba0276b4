import Foundation
import LegacyDefaults
import Preferences
import PreferencesMigration
import PrefsTools
import PropertyList

extension Bench {
  /// Load and write a large domain, against PropertyListSerialization.
  func loadAndWrite() throws {
    let domain = PlistValue.dictionary(makeDomain(keyCount))
    let object = try foundationObject(domain)
    for format in [PlistFormat.binary, .xml] {
      let data = try PropertyList.write(domain, as: format)
      let foundationFormat: PropertyListSerialization.PropertyListFormat =
        format == .binary ? .binary : .xml
      let label =
        "\(keyCount) keys, \(format == .binary ? "binary" : "XML"), \(data.count / 1024) KiB"
      let readOurs = try median { _ = try PropertyList.read(data) }
      let readTheirs = try median {
        _ = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
      }
      cases.append(
        Case(
          name: "load \(label)", prefs: readOurs, baseline: "PropertyListSerialization",
          baselineMs: readTheirs, limit: 1, target: 0.25))
      let readWrapped = try median {
        _ = try plistValue(
          try PropertyListSerialization.propertyList(from: data, options: [], format: nil))
      }
      cases.append(
        Case(
          name: "load \(label)", prefs: readOurs,
          baseline: "PropertyListSerialization + conversion to PlistValue",
          baselineMs: readWrapped))
      let writeOurs = try median { _ = try PropertyList.write(domain, as: format) }
      let writeTheirs = try median {
        _ = try PropertyListSerialization.data(
          fromPropertyList: object, format: foundationFormat, options: 0)
      }
      cases.append(
        Case(
          name: "write \(label)", prefs: writeOurs, baseline: "PropertyListSerialization",
          baselineMs: writeTheirs, limit: 1))
    }
    let python = plistlibLoad(try PropertyList.write(domain, as: .binary))
    if let python {
      cases.append(
        Case(
          name: "load \(keyCount) keys, binary", prefs: cases[0].prefs,
          baseline: "python3 plistlib", baselineMs: python))
    }
  }

  /// python3 plistlib's load time for the same bytes (median, measured inside python).
  func plistlibLoad(_ data: Data) -> Double? {
    let file = folder.appendingPathComponent("domain.bplist")
    guard (try? data.write(to: file)) != nil else { return nil }
    let script = """
      import plistlib, time, sys
      data = open(sys.argv[1], 'rb').read()
      samples = []
      for _ in range(\(runs)):
          t = time.perf_counter(); plistlib.loads(data); samples.append(time.perf_counter() - t)
      samples.sort(); print(samples[len(samples) // 2] * 1000)
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, file.path]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = Pipe()
    guard (try? process.run()) != nil else { return nil }
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return process.terminationStatus == 0
      ? Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) : nil
  }

  /// A typed read of one key, in ns per read, against UserDefaults and a plain dictionary.
  func hotRead() throws {
    let reads = quick ? 200_000 : 2_000_000
    let domain = makeDomain(10_000)
    let store = PreferencesStore(DefaultsStore(inMemory: domain.swiftDictionary))
    let key = Key<Int>("setting.6000", default: 0)
    var sum = 0
    let ours = median {
      for _ in 0..<reads { sum &+= store[key] }
    }
    let suite = "prefs-bench-\(ProcessInfo.processInfo.processIdentifier)"
    guard let defaults = UserDefaults(suiteName: suite) else {
      throw BenchError(description: "UserDefaults(suiteName:) failed")
    }
    defaults.set(6000 * 7919, forKey: "setting.6000")
    let theirs = median {
      for _ in 0..<reads { sum &+= defaults.integer(forKey: "setting.6000") }
    }
    defaults.removePersistentDomain(forName: suite)
    let plain: [String: Any] = ["setting.6000": 6000 * 7919]
    let floor = median {
      for _ in 0..<reads { sum &+= plain["setting.6000"] as? Int ?? 0 }
    }
    let perRead = { (ms: Double) in ms * 1e6 / Double(reads) }
    cases.append(
      Case(
        name: "typed hot read of one key", prefs: perRead(ours),
        baseline: "UserDefaults.integer(forKey:)", baselineMs: perRead(theirs), unit: "ns"))
    cases.append(
      Case(
        name: "typed hot read of one key", prefs: perRead(ours),
        baseline: "[String: Any] lookup (the floor)", baselineMs: perRead(floor), unit: "ns",
        note: "checksum \(sum & 1)", target: 3))
  }

  /// Set one key and synchronize in a 10,000-key domain.
  func setAndSynchronize() throws {
    let domain = makeDomain(10_000)
    let file = folder.appendingPathComponent("sync.plist")
    try PropertyList.write(.dictionary(domain), as: .binary).write(to: file)
    let store = try DefaultsStore(url: file, flushAtExit: false)
    var n = 0
    let ours = try median {
      n += 1
      try store.set(n, forKey: "setting.42")
      try store.synchronizeOrThrow()
    }
    let suite = "prefs-bench-sync-\(ProcessInfo.processInfo.processIdentifier)"
    guard let defaults = UserDefaults(suiteName: suite) else {
      throw BenchError(description: "UserDefaults(suiteName:) failed")
    }
    for (key, value) in domain { defaults.set(try foundationObject(value), forKey: key) }
    defaults.synchronize()
    let theirs = median {
      n += 1
      defaults.set(n, forKey: "setting.42")
      defaults.synchronize()
    }
    defaults.removePersistentDomain(forName: suite)
    cases.append(
      Case(
        name: "set one key + synchronize, 10,000-key domain", prefs: ours,
        baseline: "UserDefaults.set + synchronize()", baselineMs: theirs,
        note:
          "prefs locks, merges per key, writes atomically and fsyncs; UserDefaults does none of these",
        target: 0.5))
  }

  /// Migrate many small legacy files with jobs = cores, against a python3 plistlib script that
  /// does the same mapping file by file.
  func migrateBatch() throws {
    let count = quick ? 1_000 : 10_000
    let input = folder.appendingPathComponent("legacy")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    var paths: [String] = []
    for n in 0..<count {
      var values: PlistDictionary = [
        "PREFS_SOUND_ENABLED": n % 3 == 0 ? "YES" : .bool(n % 2 == 0),
        "PREFS_RANKING_SIZE": n % 5 == 0 ? " 12" : .int(n % 50),
        "colorMode": ["Light", "Dark", "System", "Sepia"][n % 4] == "Sepia"
          ? "Sepia" : .string(["Light", "Dark", "System"][n % 3]),
      ]
      for k in 0..<27 { values["legacy.key.\(k)"] = k % 2 == 0 ? .int(k * n) : .string("v\(k)") }
      let path = input.appendingPathComponent("user\(n).plist").path
      try PropertyList.write(.dictionary(values), as: .binary).write(to: URL(fileURLWithPath: path))
      paths.append(path)
    }
    let plan = MigrationPlan(
      dialect: .apple, schemaVersion: 1,
      entries: [
        .init(from: "PREFS_SOUND_ENABLED", to: "sound.enabled", type: .bool, defaultValue: true),
        .init(from: "PREFS_RANKING_SIZE", to: "ranking.size", type: .integer, defaultValue: 5),
        .init(
          from: "colorMode", to: "appearance.colorMode", type: .enum, defaultValue: "System",
          values: ["Light", "Dark", "System"]),
      ])
    let jobs = ProcessInfo.processInfo.activeProcessorCount
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("plistlib_migrate.py").path
    // Rounds alternate prefs and the script, each into a new folder: the file system's speed
    // at creating files drifts as a run goes on (and after large deletions), and both sides
    // should meet the same drift.
    var oursSamples: [Double] = []
    var theirsSamples: [Double] = []
    var pythonWorks = Self.which("python3") != nil
    for round in 0..<max(3, runs / 2 + 1) {
      let output = folder.appendingPathComponent("out-\(round)").path
      try? FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
      let start = DispatchTime.now().uptimeNanoseconds
      _ = MigrationRunner(plan: plan).runBatch(paths, to: .folder(output), jobs: jobs)
      oursSamples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
      guard pythonWorks, let python = Self.which("python3") else { continue }
      let theirsOutput = folder.appendingPathComponent("py-\(round)").path
      do {
        theirsSamples.append(try time([python, script, input.path, theirsOutput]))
      } catch {
        pythonWorks = false
      }
    }
    let ours = oursSamples.sorted()[oursSamples.count / 2]
    let theirs = theirsSamples.isEmpty ? nil : theirsSamples.sorted()[theirsSamples.count / 2]
    guard let theirs else {
      FileHandle.standardError.write(
        Data("prefs-bench: python3 not found: migrate case skipped\n".utf8))
      return
    }
    cases.append(
      Case(
        name: "migrate \(count) files of 30 keys, jobs \(jobs)", prefs: ours,
        baseline: "python3 plistlib script, file by file", baselineMs: theirs,
        note:
          "throughput ratio \(String(format: "%.2f", theirs / ours))x; prefs writes each file "
          + "atomically and flushes the batch to disk before it reports; the script does neither",
        limit: 3, target: 1 / 1.5))
  }

  /// Peak memory of loading the large domain as a store loads it (`DomainFile.load`), in a
  /// child process: the peak resident size above the resident size before, against the file
  /// size.
  func peakMemory() throws {
    let file = folder.appendingPathComponent("rss.bplist")
    let data = try PropertyList.write(.dictionary(makeDomain(keyCount)), as: .binary)
    try data.write(to: file)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = [RSSChild.flag, file.path]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let parts = text.split(separator: " ").compactMap {
      Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    guard parts.count == 2 else { throw BenchError(description: "the memory child said \(text)") }
    let growthMiB = (parts[1] - parts[0]) / 1024
    let fileMiB = Double(data.count) / 1_048_576
    cases.append(
      Case(
        name: "peak memory loading \(keyCount) keys (max RSS above baseline)", prefs: growthMiB,
        baseline: "file size", baselineMs: fileMiB, unit: "MiB", target: 2))
  }
}

extension Bench {
  /// What loading a large domain as a store does (digest, then parse in windows) costs
  /// against reading the file whole and parsing it: the price of the memory case.
  func storeLoad() throws {
    let file = folder.appendingPathComponent("load.bplist")
    try PropertyList.write(.dictionary(makeDomain(keyCount)), as: .binary).write(to: file)
    let domain = DomainFile(url: file)
    let windowed = try median { _ = try domain.load() }
    let whole = try median {
      _ = try PropertyList.read(try FileAccess.readFile(file.path, limit: .max))
    }
    cases.append(
      Case(
        name: "a store loads \(keyCount) keys (`DomainFile.load`)", prefs: windowed,
        baseline: "read whole, parse", baselineMs: whole,
        note: "the memory case's load: from 1 MiB digested and parsed in windows", limit: 4))
  }
}

/// `prefs-bench --rss-child FILE`: prints the max RSS (KiB) before and after loading FILE.
enum RSSChild {
  static let flag = "--rss-child"

  /// A field of /proc/self/status in KiB (`VmRSS`: now, `VmHWM`: the peak so far).
  static func status(_ field: String) -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") })
    else { return 0 }
    return Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
  }

  static func runIfAsked() -> Int32? {
    let args = CommandLine.arguments
    guard args.count == 3, args[1] == flag else { return nil }
    // The baseline is taken after one small file went the same ways (read whole and parsed;
    // parsed in windows), so that the code pages the first use faults in (about 1 MiB) count
    // in it, not against the file.
    let warm = FileManager.default.temporaryDirectory.appendingPathComponent(
      "prefs-bench-warm-\(ProcessInfo.processInfo.processIdentifier).plist")
    do {
      try PropertyList.write(["warm": ["up", 1, 2.5, true]], as: .binary).write(to: warm)
      _ = try DomainFile(url: warm).load()
      let file = try FileAccess.openForReading(warm.path, limit: 1 << 20)
      _ = try file.digest()
      _ = try file.binaryDocument(limits: .default)?.get()
    } catch {
      // Measured anyway, from a cold baseline (about 1 MiB more): said, not hidden.
      FileHandle.standardError.write(
        Data("prefs-bench: the memory case's warm-up failed (\(error)); cold baseline\n".utf8))
    }
    try? FileManager.default.removeItem(at: warm)
    let before = status("VmRSS")
    // Loaded as a store loads its domain (`DomainFile.load`: a large binary file digested and
    // parsed in windows); the snapshot kept until the peak is read.
    let snapshot: DomainSnapshot
    do {
      snapshot = try DomainFile(url: URL(fileURLWithPath: args[2])).load()
    } catch {
      FileHandle.standardError.write(Data("prefs-bench: the memory child: \(error)\n".utf8))
      return 1
    }
    // The peak the kernel recorded, or the size now if larger (the peak is synced lazily).
    let peak = max(status("VmHWM"), status("VmRSS"))
    if ProcessInfo.processInfo.environment["PREFS_BENCH_RSS_DETAIL"] != nil {
      FileHandle.standardError.write(
        Data(
          "rss before \(before) peak \(peak) KiB, now \(status("VmRSS")) KiB; PlistValue stride \(MemoryLayout<PlistValue>.stride) bytes\n"
            .utf8))
    }
    print("\(before) \(peak)")
    return snapshot.values.count > 0 ? 0 : 1
  }
}

extension Bench {
  /// One key of a large binary domain: in process, the single-key lookup against the full
  /// read; as a whole process, `prefs read FILE KEY` against `prefs --version` (the start).
  func singleKeyRead() throws {
    let data = try PropertyList.write(.dictionary(makeDomain(keyCount)), as: .binary)
    let key = "setting.\(keyCount / 2)"
    let lookup = median { _ = PropertyList.binaryValue(forKey: key, in: data) }
    let full = try median { _ = try PropertyList.read(data) }
    cases.append(
      Case(
        name: "one key of \(keyCount), binary, in process", prefs: lookup,
        baseline: "the full read", baselineMs: full))
  }
}

extension Bench {
  /// A binary domain to XML in process: written straight from the object table (what `prefs
  /// convert` and `lint` do with a binary file) against reading it whole and writing that.
  func streaming() throws {
    let data = try PropertyList.write(.dictionary(makeDomain(keyCount)), as: .binary)
    let options = XMLWriteOptions.strict
    guard PropertyList.streamed(data, as: .xml, xml: options) != nil else {
      throw BenchError(description: "the streaming conversion declined the bench's domain")
    }
    let streamed = median { _ = PropertyList.streamed(data, as: .xml, xml: options) }
    let full = try median {
      _ = try PropertyList.write(PropertyList.read(data).value, as: .xml, xml: options)
    }
    cases.append(
      Case(
        name: "binary → XML of \(keyCount) keys, in process, streamed", prefs: streamed,
        baseline: "read whole, then write", baselineMs: full))
    let checked = median { _ = PropertyList.isCleanBinary(data) }
    let read = try median { _ = try PropertyList.read(data) }
    cases.append(
      Case(
        name: "check a \(keyCount)-key binary domain (lint), in process", prefs: checked,
        baseline: "read whole", baselineMs: read))
  }
}
