import Foundation
import LegacyDefaults
import Preferences
import PreferencesMigration
import PropertyList

// prefs-bench: prefs against what a user would use instead, in one run on the same machine and
// the same data (generated in a temporary folder). Each case prints the median of several runs
// for prefs and for the baseline, and the ratio prefs/baseline: machines here are shared and
// noisy, so ratios within one run are what counts.
//
//   swift run -c release prefs-bench            full run (100,000-key domain, 10,000 files)
//   swift run -c release prefs-bench --quick    reduced sizes, under a minute
//   swift run -c release prefs-bench --check    exit 1 when a case is far above its target
//   swift run -c release prefs-bench --json     {"cases":[{"name","prefs_value","baseline",
//                                                 "baseline_value","unit","ratio","target","met"}]}
//   swift run -c release prefs-bench --latency  only the change latency: another process's
//                                                 `prefs write` → this one's `changes(for:)`
//   swift run -c release prefs-bench --scan     only `prefs plan scan` over a generated
//                                                 Objective-C tree, against `grep -rn`
//   swift run -c release prefs-bench --small    only the start and small-file rows (one
//                                                 process, one 1.7 KB file)
//
// The whole-process cases (start, one key, plistutil, GNUstep, plistlib) need the `prefs`
// binary beside prefs-bench: `swift build -c release` builds both.

let options = Set(CommandLine.arguments.dropFirst())

// `--scan-tree DIR`: only write the generated source tree of the scan case into DIR (to
// profile `prefs plan scan` on it).
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--scan-tree" {
  do {
    _ = try SourceTree.write(files: 5_000, to: URL(fileURLWithPath: CommandLine.arguments[2]))
    exit(0)
  } catch {
    FileHandle.standardError.write(Data("prefs-bench: \(error)\n".utf8))
    exit(1)
  }
}
let quick = options.contains("--quick")

if let child = RSSChild.runIfAsked() { exit(child) }
if let child = ModifyChild.runIfAsked() { exit(child) }

// `--profile write|read|load|digest binary|xml`: only prefs' side of a case, in a loop, for a
// profiler (`load`: as a store loads the file; `digest`: its digest alone).
let argv = Array(CommandLine.arguments.dropFirst())
// `--profile hotread`: only the typed hot read's loop (a store of 10,000 keys in memory).
if argv.count == 2, argv[0] == "--profile", argv[1] == "hotread" {
  let store = PreferencesStore(DefaultsStore(inMemory: makeDomain(10_000).swiftDictionary))
  let key = Key<Int>("setting.6000", default: 0)
  var sum = 0
  for _ in 0..<1_000_000 { sum &+= store[key] }
  exit(sum == 0 ? 1 : 0)
}
if argv.count >= 3, argv[0] == "--profile" {
  let format: PlistFormat = argv[2] == "xml" ? .xml : .binary
  let domain = PlistValue.dictionary(makeDomain(100_000))
  do {
    let data = try PropertyList.write(domain, as: format)
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "prefs-bench-profile-\(ProcessInfo.processInfo.processIdentifier)")
    defer { try? FileManager.default.removeItem(at: file) }
    try data.write(to: file)
    for _ in 0..<10 {
      if argv[1] == "load" {
        // As a store loads its domain (a large binary file: digested, parsed in windows).
        _ = try DomainFile(url: file).load()
      } else if argv[1] == "digest" {
        _ = try FileAccess.openForReading(file.path, limit: .max).digest()
      } else if argv[1] == "write" {
        _ = try PropertyList.write(domain, as: format)
      } else {
        _ = try PropertyList.read(data)
      }
    }
  } catch {
    exit(1)
  }
  exit(0)
}

let bench = Bench(quick: quick)
do {
  try bench.runAll()
} catch {
  FileHandle.standardError.write(Data("prefs-bench: \(error)\n".utf8))
  exit(1)
}
if quick {
  // The targets are set for the full sizes (100,000 keys, 10,000 files): at the quick run's
  // sizes fixed costs (a process's start) weigh more, so its ratios are not held to them.
  bench.cases = bench.cases.map { c in
    var c = c
    c.target = nil
    return c
  }
}
if options.contains("--json") {
  print(bench.json())
} else {
  print(bench.table())
}
if options.contains("--check") {
  let failed = bench.cases.filter { c in c.limit.map { c.ratio > $0 } ?? false }
  for c in failed {
    FileHandle.standardError.write(
      Data("prefs-bench: \(c.name): ratio \(c.ratio) is above \(c.limit ?? 0)\n".utf8))
  }
  if !failed.isEmpty { exit(1) }
}
