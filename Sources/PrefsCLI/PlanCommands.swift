import LegacyDefaults
import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `prefs plan infer` and `prefs plan check`: a plan proposed from the legacy files, and
/// proved on all of them before anything is written.
enum PlanCommand {
  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    guard let sub = args.positional.first else {
      throw CommandFailure(.usage, "plan needs infer, check or swift")
    }
    let rest = Array(args.positional.dropFirst())
    switch sub {
    case "infer":
      guard args.value("--name") == nil else {
        throw CommandFailure(.usage, "--name goes with plan swift")
      }
      return try infer(args, rest, console: console)
    case "check":
      guard args.value("--dialect") == nil, args.value("--name") == nil else {
        throw CommandFailure(.usage, "plan check takes PLAN LEGACY... and --jobs only")
      }
      return try check(args, rest, console: console)
    case "swift":
      guard args.value("--dialect") == nil, args.value("--jobs") == nil else {
        throw CommandFailure(.usage, "plan swift takes PLAN [LEGACY...] and --name only")
      }
      return try swift(args, rest, console: console)
    default:
      throw CommandFailure(.usage, "plan takes infer, check or swift, not \(sub)")
    }
  }

  static func infer(_ args: Arguments, _ items: [String], console: Console) throws(CommandFailure)
    -> ExitCode
  {
    let dialect = try args.choice("--dialect", Target.dialects) ?? .apple
    let jobs =
      try Migrate.positiveInteger(args.value("--jobs"), "--jobs")
      ?? ProcessInfo.processInfo.activeProcessorCount
    let paths = try Migrate.expand(items, console: console)
    guard !paths.isEmpty else { throw CommandFailure(.usage, "plan infer needs legacy files") }

    let progress = Progress(console: console, total: paths.count)
    let show = console.errorIsTerminal && paths.count > 1
    let merged = Locked(PlanInference(dialect: dialect))
    let failures = Locked([(index: Int, status: FileStatus, message: String)]())
    let next = Locked(0)
    let finished = Locked(0)
    Threads.concurrentPerform(iterations: max(1, min(jobs, paths.count))) { _ in
      var local = PlanInference(dialect: dialect)
      while true {
        let index = next.withLock { n -> Int in
          defer { n += 1 }
          return n
        }
        guard index < paths.count else { break }
        switch readLegacy(paths[index]) {
        case .success(let values): local.add(values, file: paths[index])
        case .failure(let unread):
          failures.withLock { $0.append((index, unread.status, unread.message)) }
        }
        let done = finished.withLock { n -> Int in
          n += 1
          return n
        }
        if show { progress.update(done, paths.count) }
      }
      merged.withLock { $0.merge(local) }
    }
    progress.finish()
    let inference = merged.withLock { $0 }
    // With no file read there is nothing to propose: an empty plan would only mislead.
    if inference.domains > 0 {
      console.err(evidenceTable(inference))
      console.line(inference.plan().jsonText())
    }
    let failed = failures.withLock { $0.sorted { $0.index < $1.index } }
    for failure in failed {
      console.message("\(paths[failure.index]): \(failure.status.rawValue): \(failure.message)")
    }
    if failed.contains(where: { $0.status == .malformed }) { return .dataError }
    if !failed.isEmpty { return .noInput }
    return .ok
  }

  /// Why a legacy file gave no values, in `migrate`'s terms.
  struct Unread: Error {
    var status: FileStatus
    var message: String
  }

  /// One legacy domain's values: absent or unreadable files are failures, never empty domains.
  static func readLegacy(_ path: String) -> Result<[String: PlistValue], Unread> {
    let snapshot: DomainSnapshot
    do {
      snapshot = try DomainFile(url: URL(fileURLWithPath: path)).read()
    } catch {
      let status: FileStatus = if case .cannotRead = error { .missing } else { .malformed }
      return .failure(Unread(status: status, message: "\(error)"))
    }
    if let unreadable = snapshot.unreadable {
      return .failure(Unread(status: .malformed, message: unreadable.reason))
    }
    guard snapshot.bytes != nil else {
      return .failure(Unread(status: .missing, message: "no such file"))
    }
    return .success(snapshot.values.swiftDictionary)
  }

  /// The evidence behind each proposed entry, as a table on standard error.
  static func evidenceTable(_ inference: PlanInference) -> String {
    var rows: [[String]] = [["KEY", "FILES", "TYPE", "EVIDENCE"]]
    var notes: [String] = []
    for proposal in inference.proposals() {
      let key = proposal.entry.from
      guard let item = inference.evidence[key] else { continue }
      let kinds = item.kinds.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key.rawValue)" }
      var type = proposal.entry.type.rawValue
      if !proposal.entry.values.isEmpty {
        type += " (" + proposal.entry.values.joined(separator: "|") + ")"
      }
      var evidence = kinds.joined(separator: ", ")
      // A few distinct values are shown, most common first: they are what an enum or a
      // default is chosen from.
      if !item.tooManyDistinct, item.distinct.count <= 5 {
        let values = item.distinct.sorted {
          $0.value > $1.value || ($0.value == $1.value && "\($0.key)" < "\($1.key)")
        }
        evidence +=
          "; values "
          + values.map { "\(MigrationReport.short($0.key)) ×\($0.value)" }.joined(separator: ", ")
      }
      if proposal.entry.type == .enum {
        for group in PlanInference.differingOnlyInCase(proposal.entry.values) {
          evidence += "; differ only in case: " + group.joined(separator: "/")
        }
      }
      rows.append([key, "\(item.files)/\(inference.domains)", type, evidence])
      if let note = proposal.note { notes.append("\(key): \(note)") }
    }
    let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
    var out = ""
    for row in rows {
      for column in 0..<3 {
        out += row[column].padded(to: widths[column] + 2)
      }
      out += row[3] + "\n"
    }
    for note in notes { out += "note: \(note)\n" }
    out +=
      "\(inference.evidence.count) key\(inference.evidence.count == 1 ? "" : "s") in "
      + "\(inference.domains) file\(inference.domains == 1 ? "" : "s")\n"
    return out
  }

  static func check(_ args: Arguments, _ items: [String], console: Console) throws(CommandFailure)
    -> ExitCode
  {
    guard let planPath = items.first else {
      throw CommandFailure(.usage, "plan check needs PLAN and legacy files")
    }
    let plan = try Migrate.loadPlan(planPath)
    let jobs =
      try Migrate.positiveInteger(args.value("--jobs"), "--jobs")
      ?? ProcessInfo.processInfo.activeProcessorCount
    let paths = try Migrate.expand(Array(items.dropFirst()), console: console)
    guard !paths.isEmpty else { throw CommandFailure(.usage, "plan check needs legacy files") }
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
    return coverage.passes ? .ok : .dataError
  }

  static func swift(_ args: Arguments, _ items: [String], console: Console) throws(CommandFailure)
    -> ExitCode
  {
    guard let planPath = items.first else {
      throw CommandFailure(.usage, "plan swift needs PLAN")
    }
    let name = args.value("--name") ?? SwiftPlanSource.name(forPlanFile: planPath)
    guard SwiftPlanSource.isIdentifier(name) else {
      throw CommandFailure(.usage, "--name takes a Swift identifier, not \(name)")
    }
    let plan = try Migrate.loadPlan(planPath)
    var source = SwiftPlanSource(plan: plan, name: name)
    var status = ExitCode.ok
    for path in try Migrate.expand(Array(items.dropFirst()), console: console) {
      switch readLegacy(path) {
      case .success(let values): source.addSamples(from: values)
      case .failure(let unread):
        console.message("\(path): \(unread.message)")
        if unread.status == .malformed {
          status = .dataError
        } else if status == .ok {
          status = .noInput
        }
      }
    }
    console.out(source.source())
    return status
  }
}
