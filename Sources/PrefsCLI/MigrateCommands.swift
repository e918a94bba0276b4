import LegacyDefaults
import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `prefs migrate` and `prefs export`: argument parsing and printing around
/// `PreferencesMigration`.
enum Migrate {
  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    let plan = try loadPlan(args.value("--plan"))
    let format =
      try args.choice("--format", ["xml": PlistFormat.xml, "binary": .binary]) ?? .binary
    let jobs =
      try positiveInteger(args.value("--jobs"), "--jobs")
      ?? ProcessInfo.processInfo.activeProcessorCount
    var legacy = try expand(args.positional, console: console)
    guard !legacy.isEmpty else { throw CommandFailure(.usage, "migrate needs legacy files") }
    if let shard = args.value("--shard") {
      let parts = shard.split(separator: "/").compactMap { Int($0) }
      guard parts.count == 2, parts[1] >= 1, (0..<parts[1]).contains(parts[0]) else {
        throw CommandFailure(.usage, "--shard takes I/N with 0 <= I < N, not \(shard)")
      }
      legacy = MigrationRunner.shard(legacy, index: parts[0], count: parts[1])
    }

    let destination: MigrationRunner.Destination
    switch (args.value("--to"), args.has("--in-place")) {
    case (let out?, false):
      let exists = FileManager.default.fileExists(atPath: out)
      let isFolder = exists && FileAccess.isFolder(out)
      if legacy.count > 1 || isFolder {
        if !exists, !args.has("--dry-run") {
          // The folder named, never the folders above it.
          do {
            try FileAccess.createFolder(out, intermediates: false)
          } catch {
            throw CommandFailure(.cannotCreate, "\(out): cannot create the folder: \(error.reason)")
          }
        } else if exists, !isFolder {
          throw CommandFailure(.usage, "--to \(out) is a file; several legacy files need a folder")
        }
        destination = .folder(out)
      } else {
        destination = .file(out)
      }
    case (nil, true):
      destination = .inPlace(backupFolder: args.value("--backup"))
    default:
      throw CommandFailure(.usage, "migrate takes exactly one of --to OUT and --in-place")
    }
    if args.value("--backup") != nil, !args.has("--in-place") {
      throw CommandFailure(.usage, "--backup goes with --in-place")
    }

    var runner = MigrationRunner(
      plan: plan, format: format, dryRun: args.has("--dry-run"),
      truncatingDates: args.has(DatePolicy.flag))
    // An output in the preferences folder (or one a prefs writer has locked) is a live
    // domain: written under its lock. Elsewhere, no lock file is made.
    runner.outputIsLive = Target.domainTest()
    let progress = Progress(console: console, total: legacy.count)
    let outcomes = runner.runBatch(
      legacy, to: destination, jobs: jobs,
      progress: console.errorIsTerminal && legacy.count > 1 ? progress.update : nil)
    progress.finish()
    let report = MigrationReport(files: outcomes, dryRun: args.has("--dry-run"))
    if args.has("--json") {
      console.line(report.json())
    } else {
      console.out(report.text())
    }
    for file in outcomes where file.message != nil && file.status != .unchanged {
      console.message(
        DatePolicy.hint("\(file.path): \(file.status.rawValue): \(file.message ?? "")"))
    }
    if report.count(.malformed) + report.count(.refused) > 0 { return .dataError }
    if report.count(.missing) > 0 { return .noInput }
    if report.count(.failed) > 0 { return .cannotCreate }
    return .ok
  }

  static func loadPlan(_ path: String?) throws(CommandFailure) -> MigrationPlan {
    guard let path else { throw CommandFailure(.usage, "--plan PLAN is required") }
    let data: Data
    do {
      data = try FileAccess.readFile(path, limit: 16 << 20)
    } catch {
      throw CommandFailure(error)
    }
    do {
      return try MigrationPlan.load(json: data)
    } catch {
      throw CommandFailure(.dataError, "\(path): \(error)")
    }
  }

  static func positiveInteger(_ text: String?, _ name: String) throws(CommandFailure) -> Int? {
    guard let text else { return nil }
    guard let n = Int(text), n >= 1 else {
      throw CommandFailure(.usage, "\(name) takes a whole number of at least 1")
    }
    return n
  }

  /// Paths, domain names, folders (their .plist files) and `-` (paths on standard input).
  static func expand(_ items: [String], console: Console) throws(CommandFailure) -> [String] {
    var paths: [String] = []
    for item in items {
      if item == "-" {
        let input: Data
        do {
          input = try FileAccess.readStandardInput(limit: Prefs.inputLimit)
        } catch {
          throw CommandFailure(error)
        }
        paths += String(decoding: input, as: UTF8.self).split(whereSeparator: \.isNewline)
          .map(String.init).filter { !$0.isEmpty }
        continue
      }
      if FileAccess.isFolder(item) {
        let names: [String]
        do {
          names = try FileManager.default.contentsOfDirectory(atPath: item)
        } catch {
          throw CommandFailure(
            .noInput, "\(item): cannot list the folder: \(FileAccess.reason(of: error))")
        }
        paths += names.filter { $0.hasSuffix(".plist") }.sorted().map {
          URL(fileURLWithPath: item).appendingPathComponent($0).path
        }
        continue
      }
      paths.append(try Target.path(item))
    }
    return paths
  }
}

/// Progress on standard error: count, rate and time left, at most ten times a second.
/// `@unchecked Sendable`: workers call ``update(_:_:)`` from many threads, and every use of the
/// console (which is not `Sendable`) happens inside `state`'s lock.
final class Progress: @unchecked Sendable {
  let console: Console
  let total: Int
  let start = Date()
  private let state = Locked((last: Date.distantPast, shown: false))

  init(console: Console, total: Int) {
    self.console = console
    self.total = total
  }

  func update(_ done: Int, _ total: Int) {
    let now = Date()
    state.withLock { s in
      guard now.timeIntervalSince(s.last) >= 0.1 || done == total else { return }
      s.last = now
      s.shown = true
      let elapsed = max(now.timeIntervalSince(start), 0.001)
      let rate = Double(done) / elapsed
      let left = rate > 0 ? Double(total - done) / rate : 0
      console.err(
        "\r\(done)/\(total) files, \(Int(rate.rounded())) files/s, \(Int(left.rounded()))s left   ")
    }
  }

  func finish() {
    state.withLock { s in if s.shown { console.err("\n") } }
  }
}

/// `prefs export --plan PLAN STORE --to LEGACY_OUT [--format xml|binary|openstep]`
enum Export {
  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    let plan = try Migrate.loadPlan(args.value("--plan"))
    guard args.positional.count == 1, let storeArgument = args.positional.first else {
      throw CommandFailure(.usage, "export takes exactly one store")
    }
    guard let out = args.value("--to") else { throw CommandFailure(.usage, "export needs --to") }
    // The same words name the same formats as `convert --to`: openstep holds only strings,
    // data, arrays and dictionaries; gnustep is OpenStep text with GNUstep's typed values.
    let format =
      try args.choice(
        "--format",
        [
          "xml": PlistFormat.xml, "binary": .binary, "openstep": .openStep, "gnustep": .gnustep,
        ]) ?? .binary
    let path = try Target.path(storeArgument)
    let document = try Prefs.load(path)
    let store = try Prefs.domain(document, path: path)
    let result = Exporter(plan: plan).export(store.swiftDictionary)
    guard result.problems.isEmpty else {
      throw CommandFailure(.dataError, "\(path): " + result.problems.joined(separator: "; "))
    }
    let legacy = DatePolicy.apply(
      .dictionary(PlistDictionary(result.legacy)), truncating: args.has(DatePolicy.flag),
      format: format)
    let data: Data
    do {
      data = try PropertyList.write(legacy, as: format)
    } catch {
      throw CommandFailure(.dataError, "\(path): \(error)")
    }
    try Target.write(data, to: out, value: legacy, console: console) { format }
    return .ok
  }
}
