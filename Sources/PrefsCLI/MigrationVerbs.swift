import PrefsTools
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `prefs migrate`: argument parsing and printing around `PreferencesMigration`.
enum Migrate {
  static let spec = CommandSpec(
    name: "migrate", summary: "move legacy files into the typed store, with a report",
    synopsis: [
      "--plan PLAN (--to OUT | --in-place) [options] LEGACY..."
    ],
    discussion: """
      Runs the plan over each legacy file (a path, a domain name, a folder of .plist files, or -
      for a list of paths on standard input). One file with --to OUT writes OUT; several write
      OUT/<name> each. The legacy file is never changed, unless --in-place, and then only after
      a backup copy is complete (--backup DIR, default beside the file), all under the domain's
      lock. Output is written atomically; running the same plan again changes nothing. Files
      run in parallel; a bad file does not stop the others.
      A legacy key no entry names beside an entry the file does not have, the two within a
      typo of each other (PREFS_SOUND_ENABLE for PREFS_SOUND_ENABLED), is reported as "did
      you mean"; when the plan would drop that key (unmapped: drop) the file is refused,
      unless the plan's "drop" lists the key. A file holding no keys has nothing to migrate
      with --to (missing); in place it becomes a store of the plan's schema version.
      A file whose lock another process holds for the whole --lock-timeout (default 10 s) is
      busy and the others go on. SIGINT or SIGTERM starts no new file, lets those in flight
      end, prints the report of what was done and exits 130 or 143.
      Run as root over folders users own, each user's files are read and written as that
      user, and no link a user could plant is followed (the README's "Security").
      Exit 65 when any input is malformed or refused, 66 when any is missing, 73 when any
      failed, 75 when any was busy.
      """,
    options: [
      Options.plan.spec, Options.migrateTo.spec, Options.inPlace.spec, Options.backup.spec,
      Options.dryRun.spec, Options.storeFormat.spec, Options.truncateDates.spec,
      Options.jobs.spec, Options.shard.spec, Options.lockTimeout.spec, Options.summary.spec,
      Options.json.spec,
    ],
    operands: [.file],
    run: { (i, c) throws(CommandFailure) in try Migrate.run(i.arguments, console: c) })

  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    let plan = try loadPlan(try args[Options.plan])
    let format = try args[Options.storeFormat] ?? .binary
    let jobs = try args[Options.jobs] ?? ProcessInfo.processInfo.activeProcessorCount
    let dryRun = args.has(Options.dryRun)
    let expansion = try expand(args.positional)
    var legacy = expansion.paths
    guard !legacy.isEmpty || !expansion.unnamable.isEmpty else {
      throw CommandFailure(.usage, "migrate needs legacy files")
    }
    if let shard = try args[Options.shard] {
      legacy = MigrationRunner.shard(legacy, index: shard.index, count: shard.count)
    }

    let destination: MigrationRunner.Destination
    switch (try args[Options.migrateTo], args.has(Options.inPlace)) {
    case (let out?, false):
      destination = try attempt { () throws(ToolError) in
        try MigrationOutput.destination(out, files: legacy.count, dryRun: dryRun)
      }
    case (nil, true):
      let backup = try args[Options.backup].map { folder throws(CommandFailure) in
        try attempt { () throws(ToolError) in
          try MigrationOutput.backupFolder(folder, dryRun: dryRun)
        }
      }
      destination = .inPlace(backupFolder: backup)
    default:
      throw CommandFailure(.usage, "migrate takes exactly one of --to OUT and --in-place")
    }
    if try args[Options.backup] != nil, !args.has(Options.inPlace) {
      throw CommandFailure(.usage, "--backup goes with --in-place")
    }

    var runner = MigrationRunner(
      plan: plan, format: format, dryRun: dryRun,
      truncatingDates: args.has(Options.truncateDates))
    // The run's one write policy (outputs in the preferences folder locked as live domains;
    // the lock waited for --lock-timeout, default 10 s).
    runner.resolver = Run.resolver(
      lockTimeout: try args[Options.lockTimeout] ?? Run.lockWait(migrating: true))
    let progress = Progress(console: console, total: legacy.count)
    let interruption = Interruption()
    // A domain name that names nothing, beside a file or folder of that name here: the hint
    // `read` gives too.
    let outcomes = runner.runBatch(
      legacy, to: destination, jobs: jobs,
      progress: console.errorIsTerminal && legacy.count > 1 ? progress.update : nil,
      stopping: { interruption.requested }
    ).map { outcome in
      var outcome = outcome
      if outcome.status == .missing, let message = outcome.message {
        outcome.message = expansion.message(message, forPath: outcome.path)
      }
      return outcome
    }
    progress.finish()
    // A file whose name is not UTF-8 failed: it is there, and nothing was done to it.
    let report = MigrationReport(
      files: outcomes + expansion.unnamedOutcomes, dryRun: dryRun,
      notStarted: legacy.count - outcomes.count)
    if args.has(Options.json) {
      console.line(report.json())
    } else {
      console.out(report.text(listingKeys: !args.has(Options.summary)))
    }
    for file in outcomes where file.message != nil && file.status != .unchanged {
      console.message(
        DatePolicy.hint("\(file.path): \(report.said(file.status)): \(file.message ?? "")"))
    }
    if let signal = interruption.signal {
      console.message(
        "interrupted by \(signal.name): \(report.notStarted) of \(legacy.count) files not "
          + "started; the report above is of the files done")
      return signal.name == "SIGINT" ? .interrupted : .terminated
    }
    return ExitCode(report)
  }

  /// The plan file (`--plan PLAN`), read as every input is and checked as the format says.
  static func loadPlan(_ path: String?) throws(CommandFailure) -> MigrationPlan {
    guard let path else { throw CommandFailure(.usage, "--plan PLAN is required") }
    return try attempt { () throws(ToolError) in try InputFile.plan(path) }
  }

  /// Paths, domain names, folders (their .plist files) and `-` (paths on standard input).
  static func expand(_ items: [String]) throws(CommandFailure) -> LegacyInputs.Expansion {
    let resolver = Run.resolver()
    return try attempt { () throws(ToolError) in
      try LegacyInputs.expand(
        items, resolver: resolver, inputLimit: PlistLimits.default.maxInputBytes)
    }
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

/// `prefs export --plan PLAN STORE --to LEGACY_OUT [--format xml|binary|openstep|gnustep]`
enum Export {
  static let spec = CommandSpec(
    name: "export", summary: "the plan backwards, for a rollback",
    synopsis: ["--plan PLAN STORE --to LEGACY_OUT [--format FORMAT] [--truncate-dates]"],
    discussion: """
      The plan backwards: each typed key back to its legacy key, in the type the legacy code
      wrote (setBool: a boolean, setInteger: an integer, an enum its raw string, JSON values as
      JSON bytes), so a release can be rolled back. Written atomically; binary by default.
      """,
    options: [
      Options.plan.spec, Options.exportTo.spec, Options.legacyFormat.spec,
      Options.truncateDates.spec,
    ],
    operands: [.file],
    run: { (i, c) throws(CommandFailure) in try Export.run(i.arguments, console: c) })

  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    let plan = try Migrate.loadPlan(try args[Options.plan])
    guard args.positional.count == 1, let storeArgument = args.positional.first else {
      throw CommandFailure(.usage, "export takes exactly one store")
    }
    guard let out = try args[Options.exportTo] else {
      throw CommandFailure(.usage, "export needs --to")
    }
    // The same words name the same formats as `convert --to`: openstep holds only strings,
    // data, arrays and dictionaries; gnustep is OpenStep text with GNUstep's typed values.
    let format = try args[Options.legacyFormat] ?? .binary
    let path = try Run.path(storeArgument)
    let store = try Read.domain(try Convert.load(path), path: path)
    let result = MigrationRunner.export(store, plan: plan)
    guard result.problems.isEmpty else {
      throw CommandFailure(.dataError, "\(path): " + result.problems.joined(separator: "; "))
    }
    let legacy = DatePolicy.apply(
      .dictionary(result.legacy), truncating: args.has(Options.truncateDates),
      format: format)
    let data: Data
    do {
      data = try PropertyList.write(legacy, as: format)
    } catch {
      throw CommandFailure(error, path: path)
    }
    let resolver = Run.resolver()
    console.report(
      try attempt { () throws(ToolError) in
        try OutputFile.write(data, to: out, value: legacy, format: format, resolver: resolver)
      })
    return .ok
  }
}

/// `prefs plan infer|check|swift`: a plan proposed from the legacy files, proved on all of
/// them before anything is written, and printed as Swift.
enum PlanCommand {
  static let spec = CommandSpec(
    name: "plan",
    summary:
      "propose a plan from the legacy files or the app's source, and prove it on the files",
    synopsis: [
      "infer [--dialect DIALECT] [--jobs N] [--source SRC]... LEGACY...",
      "scan [--dialect DIALECT] [--suite NAME] [--jobs N] PATH...",
      "check [--jobs N] PLAN LEGACY...",
      "swift [--name NAME] PLAN [LEGACY...]",
    ],
    discussion: """
      infer reads every legacy file (paths, domain names, folders, - for a list on standard
      input), gathers what each key holds across them (how many files, the stored kinds, the
      loose forms such as "YES" or " 12", the distinct values when few) and prints the plan
      that migrates them on standard output, the evidence as a table on standard error. A key
      holding "YES", 1 and true is a bool; " 12", 7 and 12.0 an integer; JSON in strings or
      data json; a few strings shared by many files an enum. A key whose files disagree is
      typed any and noted, never guessed. Enum values that differ only in case (light,
      Light) are kept apart and noted. Every entry maps the key to itself: renaming is your
      edit.
      scan reads the app's source instead (PATH: files and folders; .h .m .mm .c .pch .swift,
      the property lists it registers, Settings.bundle panes, .xib/.storyboard/designable.nib
      bindings to values.KEY) and prints the plan its code implies: each key the code uses
      with user defaults (macros, constants, enum cases and wrappers followed), typed by the
      getters and setters it calls, with the default the running app saw (registered, else
      the fallback when absent, else the Settings bundle's), named after the property it is
      kept in. The evidence on standard error lists every place each key is used and where
      each default came from; keys built at run time are listed as patterns (Flag*Image),
      never put in the plan. --suite NAME scans that suite's keys instead.
      infer --source SRC (again for each folder) makes one plan from the code and the files:
      the code's types and defaults, the keys only the code has, the files' keys no code
      uses any more proposed for "drop" (each named on standard error), the files' values
      where the code does not say a type.
      check runs PLAN as a dry run over every file and prints its coverage: suspected typos
      ("did you mean"), legacy keys no entry names, keys the plan drops on purpose, entries
      no file has, values that would read as the default or be refused, each with a count
      and example files. Nothing is written.
      swift prints the plan as Swift source: an extension of Keys with a typed key per entry
      (an enum for each enum entry, a Codable struct for each json entry, its fields from
      the JSON the LEGACY files hold), and the same plan as MigrationPlan.NAME (default: the
      plan file's name).
      Exit 65 when a file is malformed or (check) any file would not migrate, 66 when one is
      missing (scan: when no source file could be read).
      """,
    options: [
      Options.inferDialect.spec, Options.source.spec, Options.suite.spec, Options.jobs.spec,
      Options.name.spec,
    ],
    operands: [.word, .file],
    run: { (i, c) throws(CommandFailure) in try PlanCommand.run(i.arguments, console: c) })

  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    guard let sub = args.positional.first else {
      throw CommandFailure(.usage, "plan needs infer, scan, check or swift")
    }
    let rest = Array(args.positional.dropFirst())
    if sub != "scan", try args[Options.suite] != nil,
      sub != "infer" || args.values(Options.source.spec.name).isEmpty
    {
      throw CommandFailure(.usage, "--suite goes with plan scan (or plan infer --source)")
    }
    if sub != "infer", !args.values(Options.source.spec.name).isEmpty {
      throw CommandFailure(.usage, "--source goes with plan infer")
    }
    switch sub {
    case "infer":
      guard try args[Options.name] == nil else {
        throw CommandFailure(.usage, "--name goes with plan swift")
      }
      return try infer(args, rest, console: console)
    case "scan":
      return try PlanScan.run(args, rest, console: console)
    case "check":
      guard try args[Options.inferDialect] == nil, try args[Options.name] == nil else {
        throw CommandFailure(.usage, "plan check takes PLAN LEGACY... and --jobs only")
      }
      return try check(args, rest, console: console)
    case "swift":
      guard try args[Options.inferDialect] == nil, try args[Options.jobs] == nil else {
        throw CommandFailure(.usage, "plan swift takes PLAN [LEGACY...] and --name only")
      }
      return try swift(args, rest, console: console)
    default:
      throw CommandFailure(.usage, "plan takes infer, scan, check or swift, not \(sub)")
    }
  }

  static func infer(_ args: Arguments, _ items: [String], console: Console) throws(CommandFailure)
    -> ExitCode
  {
    let dialect = try args[Options.inferDialect] ?? .apple
    let jobs = try args[Options.jobs] ?? ProcessInfo.processInfo.activeProcessorCount
    let expansion = try Migrate.expand(items)
    let paths = expansion.paths
    guard !paths.isEmpty || !expansion.unnamable.isEmpty else {
      throw CommandFailure(.usage, "plan infer needs legacy files")
    }
    let progress = Progress(console: console, total: paths.count)
    let (inference, unread) = PlanInference.infer(
      paths, dialect: dialect, jobs: jobs,
      progress: console.errorIsTerminal && paths.count > 1 ? progress.update : nil)
    progress.finish()
    let sources = args.values(Options.source.spec.name)
    if !sources.isEmpty {
      // One plan from the code and the files: the code's keys, types and defaults, checked
      // against what the files hold.
      let scan = SourceScan.scan(
        sources,
        options: SourceScan.Options(dialect: dialect, suite: try args[Options.suite], jobs: jobs))
      console.err(scan.evidenceText())
      guard scan.filesRead > 0 else {
        console.message(
          "plan infer: no source file could be read in \(sources.joined(separator: " "))")
        return .noInput
      }
      if inference.domains > 0 { console.err(inference.evidenceTable()) }
      let merged = SourcePlanMerge(scan: scan, files: inference)
      console.err(merged.text())
      console.line(merged.plan.jsonText())
      for file in unread {
        console.message(
          "\(file.path): \(file.status.rawValue): "
            + expansion.message(file.message, forPath: file.path))
      }
      return ExitCode(unread: unread)
    }
    // With no file read there is nothing to propose: an empty plan would only mislead.
    if inference.domains > 0 {
      console.err(inference.evidenceTable())
      console.line(inference.plan().jsonText())
    }
    let all = unread + expansion.unread
    for file in all {
      console.message(
        "\(file.path): \(file.status.rawValue): "
          + expansion.message(file.message, forPath: file.path))
    }
    return ExitCode(unread: all)
  }

  static func check(_ args: Arguments, _ items: [String], console: Console) throws(CommandFailure)
    -> ExitCode
  {
    guard let planPath = items.first else {
      throw CommandFailure(.usage, "plan check needs PLAN and legacy files")
    }
    let plan = try Migrate.loadPlan(planPath)
    let jobs = try args[Options.jobs] ?? ProcessInfo.processInfo.activeProcessorCount
    let expansion = try Migrate.expand(Array(items.dropFirst()))
    let paths = expansion.paths
    guard !paths.isEmpty || !expansion.unnamable.isEmpty else {
      throw CommandFailure(.usage, "plan check needs legacy files")
    }
    let runner = MigrationRunner(plan: plan, dryRun: true)
    let progress = Progress(console: console, total: paths.count)
    let outcomes = runner.runBatch(
      paths, to: .inPlace(backupFolder: nil), jobs: jobs,
      progress: console.errorIsTerminal && paths.count > 1 ? progress.update : nil)
    progress.finish()
    let coverage = PlanCoverage(plan: plan, outcomes: outcomes)
    console.out(coverage.text())
    for file in outcomes where file.status != .migrated && file.status != .unchanged {
      console.message("\(file.path): \(file.status.rawValue): \(file.message ?? "")")
    }
    let unnamed = expansion.unread
    for file in unnamed {
      console.message("\(file.path): \(file.status.rawValue): \(file.message)")
    }
    return coverage.passes && unnamed.isEmpty ? .ok : .dataError
  }

  static func swift(_ args: Arguments, _ items: [String], console: Console) throws(CommandFailure)
    -> ExitCode
  {
    guard let planPath = items.first else {
      throw CommandFailure(.usage, "plan swift needs PLAN")
    }
    let name = try args[Options.name] ?? SwiftPlanSource.name(forPlanFile: planPath)
    guard SwiftPlanSource.isIdentifier(name) else {
      throw CommandFailure(.usage, "--name takes a Swift identifier, not \(name)")
    }
    let plan = try Migrate.loadPlan(planPath)
    var source = SwiftPlanSource(plan: plan, name: name)
    let expansion = try Migrate.expand(Array(items.dropFirst()))
    var unread = expansion.unread
    for file in unread { console.message("\(file.path): \(file.message)") }
    for path in expansion.paths {
      switch PlanInference.legacyValues(at: path, dialect: plan.dialect) {
      case .success(let values): source.addSamples(from: values)
      case .failure(let file):
        console.message("\(path): \(file.message)")
        unread.append(file)
      }
    }
    console.out(source.source())
    return ExitCode(unread: unread)
  }
}

/// The options of `migrate`, `export` and `plan`.
extension Options {
  static let inferDialect = Option<Dialect>.choice(
    "--dialect", value: "DIALECT", among: { Dialect.allCases },
    help: "infer, scan: the getters the old app used (default apple)")
  static let migrateTo = Option<String>.text(
    "--to", value: "OUT", files: true, help: "the new store (a folder for several files)")
  static let inPlace = Option<Bool>.flag(
    "--in-place", help: "replace each legacy file, after its backup")
  static let backup = Option<String>.text(
    "--backup", value: "DIR", files: true, help: "where --in-place copies the originals")
  static let dryRun = Option<Bool>.flag("--dry-run", help: "write nothing; print the same report")
  static let storeFormat = Option<PlistFormat>.choice(
    "--format", value: "FORMAT", among: { [.binary, .xml] },
    help: "the new store's format (default binary)")
  static let shard = Option<Shard>(
    spec: OptionSpec(
      name: "--shard", value: "I/N", help: "the I-th of N disjoint parts of the list")
  ) { (text) throws(CommandFailure) in
    let parts = text.split(separator: "/").compactMap { Int($0) }
    guard parts.count == 2, parts[1] >= 1, (0..<parts[1]).contains(parts[0]) else {
      throw CommandFailure(.usage, "--shard takes I/N with 0 <= I < N, not \(text)")
    }
    return Shard(index: parts[0], count: parts[1])
  }
  static let summary = Option<Bool>.flag(
    "--summary", help: "print each file's line and the totals, not every key")
  static let exportTo = Option<String>.text(
    "--to", value: "LEGACY_OUT", files: true, help: "the legacy file to write")
  static let legacyFormat = Option<PlistFormat>.choice(
    "--format", value: "FORMAT", among: { PlistFormat.allCases },
    help: "the legacy file's format (openstep: strings, data, arrays, dictionaries only)")
  static let name = Option<String>.text(
    "--name", value: "NAME", files: false, help: "swift: the plan's name in Swift")
}

/// The I-th of N disjoint parts of a list (`--shard I/N`).
struct Shard: Sendable, Hashable {
  var index: Int
  var count: Int
}
