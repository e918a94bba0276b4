import PrefsTools

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `prefs plan scan [--dialect D] [--suite NAME] [--jobs N] PATH...`: the plan drafted from
/// the app's source, the evidence on standard error.
enum PlanScan {
  static func run(_ args: Arguments, _ items: [String], console: Console) throws(CommandFailure)
    -> ExitCode
  {
    guard try args[Options.name] == nil else {
      throw CommandFailure(.usage, "--name goes with plan swift")
    }
    guard !items.isEmpty else {
      throw CommandFailure(.usage, "plan scan needs source files or folders")
    }
    let options = SourceScan.Options(
      dialect: try args[Options.inferDialect] ?? .apple, suite: try args[Options.suite],
      jobs: try args[Options.jobs] ?? ProcessInfo.processInfo.activeProcessorCount)
    let result = SourceScan.scan(items, options: options)
    console.err(result.evidenceText())
    // Nothing read: no plan (an empty one would only mislead).
    guard result.filesRead > 0 else {
      console.message("plan scan: no source file could be read in \(items.joined(separator: " "))")
      return .noInput
    }
    console.line(result.plan().jsonText())
    return .ok
  }
}

extension Options {
  static let source = Option<String>.text(
    "--source", value: "SRC", files: true,
    help: "infer: the app's source as well (files, folders; again for more): one plan from both")
  static let suite = Option<String>.text(
    "--suite", value: "NAME", files: false,
    help: "scan: the keys of this suite (initWithSuiteName:) instead of the standard domain")
}
