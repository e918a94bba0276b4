import Foundation
import PrefsCLI
import PropertyList
import TestSupport
import Testing

/// The `defaults` verbs beyond read/write/delete, and the packaging: help, version,
/// completion, the manual page.
@Suite struct ParityCommandTests {
  static let binary = External.product("prefs")

  static func prefs(_ arguments: [String], env: [String: String] = [:], input: Data? = nil)
    throws -> ProcessResult
  {
    try External.run(binary, arguments, input: input, environment: env)
  }

  @Test func domainsAndFind() throws {
    let folder = try TemporaryFolder()
    let env = ["XDG_CONFIG_HOME": folder.url.path]
    try PropertyList.write(["PREFS_RANKING_SIZE": 12, "name": "Grijander"], as: .binary)
      .write(to: folder.file("com.exmo.equizmo.plist"))
    try PropertyList.write(["greeting": "hello Grijander"], as: .xml)
      .write(to: folder.file("com.example.other.plist"))
    try Data("garbage".utf8).write(to: folder.file("broken.plist.corrupt-1"))
    let domains = try Self.prefs(["domains"], env: env)
    #expect(domains.output == "com.example.other\ncom.exmo.equizmo\n")
    let found = try Self.prefs(["find", "grijander", "--json"], env: env)
    #expect(found.status == 0)
    let object = try JSONSerialization.jsonObject(with: found.stdout) as? [String: [String: String]]
    #expect(object?["com.exmo.equizmo"] == ["name": "Grijander"])
    #expect(object?["com.example.other"] == ["greeting": "hello Grijander"])
    #expect(try Self.prefs(["find", "nowhere"], env: env).status == 1)
  }

  @Test func renameReadTypeAndImport() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("d.plist")
    try PropertyList.write(["old": 5, "flag": true], as: .binary).write(to: file)
    #expect(try Self.prefs(["rename", file.path, "old", "new"]).status == 0)
    #expect(try PropertyList.read(Data(contentsOf: file)).value == ["new": 5, "flag": true])
    #expect(try Self.prefs(["rename", file.path, "old", "other"]).status == 1)
    #expect(try Self.prefs(["rename", file.path, "new", "flag"]).status == 73)
    #expect(try Self.prefs(["read-type", file.path, "flag"]).output == "Type is boolean\n")
    #expect(try Self.prefs(["read-type", file.path, "new"]).output == "Type is integer\n")
    #expect(try Self.prefs(["read-type", file.path, "missing"]).status == 1)
    let plist = Data("{ imported = yes; new = <*I7>; }".utf8)
    #expect(try Self.prefs(["import", file.path, "-"], input: plist).status == 0)
    #expect(
      try PropertyList.read(Data(contentsOf: file)).value
        == ["new": 7, "flag": true, "imported": "yes"])
    #expect(try Self.prefs(["import", file.path, "-"], input: Data("(1, 2)".utf8)).status == 65)
  }

  @Test func helpVersionAndUnknownVerbs() throws {
    #expect(try Self.prefs(["--version"]).output == "prefs 0.1.0\n")
    let help = try Self.prefs(["help"])
    for verb in [
      "migrate", "export", "read", "write", "delete", "rename", "read-type", "import",
      "domains", "find", "lint", "convert", "completion", "man",
    ] {
      #expect(help.output.contains("  \(verb) "), "\(verb) missing from help")
      let one = try Self.prefs(["help", verb])
      #expect(one.status == 0 && one.output.hasPrefix("usage: prefs \(verb)"), "\(verb)")
    }
    #expect(try Self.prefs(["help", "frob"]).status == 64)
  }

  @Test func bashCompletionIsValidBash() throws {
    let script = try Self.prefs(["completion", "bash"])
    #expect(script.status == 0)
    let folder = try TemporaryFolder()
    let file = folder.file("prefs.bash")
    try script.stdout.write(to: file)
    let check = try External.run("/bin/bash", ["-n", file.path])
    #expect(check.status == 0, "\(check.stderr)")
    // Completing the first word offers the verbs.
    let run = try External.run(
      "/bin/bash",
      [
        "-c",
        "source \(file.path); COMP_WORDS=(prefs mi); COMP_CWORD=1; _prefs; echo ${COMPREPLY[@]}",
      ])
    #expect(run.output == "migrate\n")
    #expect(try Self.prefs(["completion", "zsh"]).output.hasPrefix("#compdef prefs"))
    #expect(try Self.prefs(["completion", "fish"]).status == 64)
  }

  /// Completion comes from the command table: a verb's options, an option's values, and
  /// for a domain operand the names `prefs domains` lists.
  @Test func bashCompletionKnowsOptionsValuesAndDomains() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("prefs.bash")
    try Self.prefs(["completion", "bash"]).stdout.write(to: file)
    try PropertyList.write(["a": 1], as: .xml).write(to: folder.file("com.example.app.plist"))
    let bin = URL(fileURLWithPath: Self.binary).deletingLastPathComponent().path
    func complete(_ words: [String]) throws -> String {
      let quoted = words.map { "'\($0)'" }.joined(separator: " ")
      let run = try External.run(
        "/bin/bash",
        [
          "-c",
          "export PATH=\(bin):$PATH XDG_CONFIG_HOME=\(folder.url.path); cd \(folder.url.path); "
            + "source \(file.path); COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); "
            + "_prefs; echo ${COMPREPLY[@]}",
        ])
      return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    #expect(try complete(["prefs", "convert", "--t"]) == "--to --truncate-dates")
    #expect(try complete(["prefs", "convert", "x", "--to", "bin"]) == "binary binary1")
    #expect(try complete(["prefs", "read", "com.ex"]).hasPrefix("com.example.app"))
    #expect(try complete(["prefs", "read", "x", "--as", "string"]) == "string string-array")
  }

  /// A start finds its verb by a switch, not by making the whole table: the switch names every
  /// verb of the table, and the personalities as the table marks them; an unknown word is none.
  @Test func dispatchSwitchesAgreeWithTheTable() throws {
    #expect(Prefs.dispatchDisagreements == [])
    #expect(Prefs.commandNames.count >= 20)
    let unknown = try Self.prefs(["no-such-verb"])
    #expect(unknown.status == 64)
  }

  /// Every option a verb's help shows is one it accepts, and an option it does not show is a
  /// usage error: both come from the one declaration.
  @Test func helpAndScannerAgreeForEveryVerb() throws {
    for verb in Prefs.commandNames {
      let help = try Self.prefs(["help", verb])
      #expect(help.status == 0)
      // plutil's every failure is its status 1, as the port's (the oracle test compares them).
      let refused: Int32 = verb == "plutil" ? 1 : 64
      #expect(try Self.prefs([verb, "--no-such-option"]).status == refused, "\(verb)")
    }
    let convert = try Self.prefs(["help", "convert"]).output
    for option in ["--to FORMAT", "--output, -o OUT", "--truncate-dates"] {
      #expect(convert.contains(option), "\(option)")
    }
  }

  /// The committed manual page is what `prefs man` generates from the help texts.
  @Test func theManualPageIsGenerated() throws {
    let committed = try Data(
      contentsOf: External.packageRoot.appendingPathComponent("man/prefs.1"))
    #expect(try Self.prefs(["man"]).stdout == committed, "regenerate with: prefs man > man/prefs.1")
  }
}
