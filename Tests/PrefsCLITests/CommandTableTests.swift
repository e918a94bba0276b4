import Foundation
import PrefsCLI
import TestSupport
import Testing

/// What the command table declares once reaches every place that reads it: the scanner, the
/// completions, the outputs a user chooses.
@Suite struct CommandTableTests {
  static let binary = External.product("prefs")
  static let samples = External.packageRoot.appendingPathComponent("Legacy/Samples")

  /// Every option whose value is a path completes files, in bash as in zsh (bash completed
  /// nothing after --plan: a rule guessed from the value's name).
  @Test(arguments: ["--plan", "--backup", "--output"])
  func aPathOptionCompletesFilesInBothShells(_ option: String) throws {
    let bash = try External.run(Self.binary, ["completion", "bash"]).output
    let zsh = try External.run(Self.binary, ["completion", "zsh"]).output
    let bashLines = bash.split(separator: "\n").filter {
      $0.trimmingCharacters(in: .whitespaces).hasPrefix(option + ")")
        || $0.contains("|" + option + ")") || $0.contains(option + "|")
    }
    #expect(!bashLines.isEmpty, "\(option) is not in the bash completion")
    for line in bashLines { #expect(line.contains("compgen -f"), "\(line)") }
    let zshLines = zsh.split(separator: "\n").filter { $0.contains("$prev == \(option)") }
    #expect(!zshLines.isEmpty)
    for line in zshLines { #expect(line.contains("_files"), "\(line)") }
  }

  /// `migrate --summary`: a line a file and the totals, the same totals as the full report.
  @Test func aSummaryPrintsTheFilesAndTheTotalsOnly() throws {
    let folder = try TemporaryFolder()
    let fleet = folder.file("fleet")
    try FileManager.default.createDirectory(at: fleet, withIntermediateDirectories: true)
    let sample = Self.samples.appendingPathComponent("com.exmo.equizmo.plist")
    for n in 0..<3 {
      try FileManager.default.copyItem(at: sample, to: fleet.appendingPathComponent("u\(n).plist"))
    }
    let plan = Self.samples.appendingPathComponent("equizmo-plan.json").path
    let arguments = ["migrate", "--plan", plan, "--to", folder.file("out").path, "--dry-run"]
    let full = try External.run(Self.binary, arguments + [fleet.path + "/"])
    let summary = try External.run(Self.binary, arguments + ["--summary", fleet.path + "/"])
    #expect(summary.status == full.status)
    let lines = summary.output.split(separator: "\n")
    #expect(lines.count == 4, "\(summary.output)")
    #expect(lines.last == full.output.split(separator: "\n").last)
    #expect(lines.dropLast().allSatisfy { $0.contains(": would migrate (dry run)") })
  }
}
