import Foundation
import PrefsCLI
import PropertyList
import TestSupport
import Testing

/// The findings of trying `prefs` as a new user would (issue 12's list), each a test that
/// failed on the behaviour it describes. Real processes, in temporary folders.
@Suite struct NewUserFindingsTests {
  static let binary = External.product("prefs")

  static func run(_ arguments: [String], in folder: TemporaryFolder) throws -> ProcessResult {
    try External.run(
      binary, arguments.map { $0.hasSuffix(".plist") ? folder.file($0).path : $0 },
      environment: ["XDG_CONFIG_HOME": folder.url.path])
  }

  static func write(
    _ value: PlistValue, _ name: String, as format: PlistFormat, in folder: TemporaryFolder
  ) throws {
    try PropertyList.write(value, as: format).write(to: folder.file(name))
  }

  /// 1. A JSON refusal names JSON, not XML.
  @Test func aJSONRefusalNamesJSON() throws {
    let folder = try TemporaryFolder()
    try Self.write(
      ["d": .date(Date(timeIntervalSinceReferenceDate: 0))], "date.plist", as: .binary, in: folder)
    let result = try Self.run(["convert", "date.plist", "--to", "json"], in: folder)
    #expect(result.status == 65)
    #expect(result.stderr.contains("JSON cannot hold the value at d"), "\(result.stderr)")
    #expect(!result.stderr.contains("XML"))
  }

  /// 3. `convert` and `lint` take domain names, as help and the README say.
  @Test func convertAndLintTakeDomainNames() throws {
    let folder = try TemporaryFolder()
    try Self.write(["a": 1], "com.example.app.plist", as: .xml, in: folder)
    #expect(try Self.run(["lint", "com.example.app"], in: folder).status == 0)
    let converted = try Self.run(["convert", "com.example.app", "--to", "json"], in: folder)
    #expect(converted.status == 0, "\(converted.stderr)")
    #expect(converted.output == "{\n  \"a\": 1\n}\n")
  }

  /// 4. One rule: a domain that does not exist is 1 for every `defaults` verb; an input file
  /// of a file verb that does not exist is 66.
  static let missing: [([String], Int32)] = [
    (["read", "com.nope"], 1), (["read", "com.nope", "k"], 1), (["read-type", "com.nope", "k"], 1),
    (["delete", "com.nope"], 1), (["delete", "com.nope", "k"], 1),
    (["rename", "com.nope", "a", "b"], 1), (["read", "nope.plist"], 1),
    (["lint", "nope.plist"], 66), (["convert", "nope.plist", "--to", "xml"], 66),
  ]

  @Test(arguments: missing)
  func aMissingDomainIsOneAMissingInputFileIs66(arguments: [String], status: Int32) throws {
    let folder = try TemporaryFolder()
    let result = try Self.run(arguments, in: folder)
    #expect(result.status == status, "\(result.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == [])
  }

  /// 5. A file that cannot be read (here: a folder where the file should be) is 66 for every
  /// verb, named once; migrate's summary has no empty "Keys:".
  @Test func anUnreadableFileIs66NamedOnce() throws {
    let folder = try TemporaryFolder()
    try FileManager.default.createDirectory(
      at: folder.file("dir.plist"), withIntermediateDirectories: false)
    let path = folder.file("dir.plist").path
    for arguments in [
      ["read", "dir.plist"], ["lint", "dir.plist"], ["write", "dir.plist", "k", "v"],
    ] {
      let result = try Self.run(arguments, in: folder)
      #expect(result.status == 66, "\(arguments): \(result.stderr)")
      #expect(result.stderr.components(separatedBy: path).count == 2, "\(result.stderr)")
    }
    // migrate takes a folder as a folder of files: a link it refuses to follow stands in. A
    // refused input has its cause's code, 65 (issue 45: it was 66, "missing"), and is named.
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("link.plist").path, withDestinationPath: "/nonexistent")
    let plan = External.packageRoot.appendingPathComponent("Legacy/Samples/equizmo-plan.json").path
    let migrate = try Self.run(
      ["migrate", "--plan", plan, "--to", "out.plist", "link.plist"], in: folder)
    #expect(migrate.status == 65, "\(migrate.stderr)")
    #expect(!migrate.output.contains("Keys: ."), "\(migrate.output)")
  }

  /// 6. A plan that is not JSON is malformed input (65); renaming onto an existing key cannot
  /// create it (73), not a usage error.
  @Test func aBadPlanIs65AndRenameOntoAKeyIs73() throws {
    let folder = try TemporaryFolder()
    try Data("not json".utf8).write(to: folder.file("plan.json"))
    try Self.write(["a": 1, "b": 2], "d.plist", as: .xml, in: folder)
    let plan = try Self.run(
      ["migrate", "--plan", folder.file("plan.json").path, "--to", "o.plist", "d.plist"], in: folder
    )
    #expect(plan.status == 65, "\(plan.stderr)")
    let rename = try Self.run(["rename", "d.plist", "a", "b"], in: folder)
    #expect(rename.status == 73, "\(rename.stderr)")
  }

  /// 7. One policy for fractional-second dates in every writer: refused by default naming the
  /// key and the flag, written to the whole second with --truncate-dates.
  @Test func fractionalDatesAreRefusedUnlessTruncated() throws {
    let folder = try TemporaryFolder()
    try Self.write(["name": "x"], "d.plist", as: .xml, in: folder)
    let refused = try Self.run(
      ["write", "d.plist", "when", "-date", "2011-03-14T15:09:26.5Z"], in: folder)
    #expect(refused.status == 65, "\(refused.stderr)")
    #expect(refused.stderr.contains("when") && refused.stderr.contains("--truncate-dates"))
    #expect(try PropertyList.read(Data(contentsOf: folder.file("d.plist"))).value == ["name": "x"])
    let written = try Self.run(
      ["write", "d.plist", "when", "-date", "2011-03-14T15:09:26.5Z", "--truncate-dates"],
      in: folder)
    #expect(written.status == 0, "\(written.stderr)")
    #expect(
      try PropertyList.read(Data(contentsOf: folder.file("d.plist"))).value["when"]
        == .date(Date(timeIntervalSince1970: 1_300_115_366)))

    try Self.write(
      ["when": .date(Date(timeIntervalSinceReferenceDate: 0.25))], "f.plist", as: .binary,
      in: folder)
    let convert = try Self.run(["convert", "f.plist", "--to", "xml"], in: folder)
    #expect(convert.status == 65)
    #expect(convert.stderr.contains("--truncate-dates"))
    let truncated = try Self.run(
      ["convert", "f.plist", "--to", "xml", "--truncate-dates"], in: folder)
    #expect(truncated.status == 0)
    #expect(
      try PropertyList.read(truncated.stdout).value == [
        "when": .date(Date(timeIntervalSinceReferenceDate: 0))
      ])

    let plan = folder.file("plan.json")
    try Data(
      #"{"plan": 1, "schemaVersion": 1, "keys": [{"from": "when", "to": "t.when", "type": "date"}]}"#
        .utf8
    ).write(to: plan)
    let migrate = try Self.run(
      ["migrate", "--plan", plan.path, "--format", "xml", "--to", "m.plist", "f.plist"], in: folder)
    #expect(migrate.status == 65, "\(migrate.stderr)")
    #expect(migrate.stderr.contains("--truncate-dates"))
    let migrated = try Self.run(
      [
        "migrate", "--plan", plan.path, "--format", "xml", "--truncate-dates", "--to", "m.plist",
        "f.plist",
      ], in: folder)
    #expect(migrated.status == 0, "\(migrated.stderr)")
  }

  /// 8. One policy for NaN and infinity in JSON: refused by `read --json` as by `convert`.
  @Test func nonFiniteRealsAreRefusedByEveryJSONOutput() throws {
    let folder = try TemporaryFolder()
    try Self.write(["x": .real(.nan), "y": .real(.infinity)], "n.plist", as: .binary, in: folder)
    for arguments in [
      ["read", "n.plist", "--json"], ["read", "n.plist", "x", "--json"],
      ["convert", "n.plist", "--to", "json"],
    ] {
      let result = try Self.run(arguments, in: folder)
      #expect(result.status == 65, "\(arguments)")
      #expect(result.stderr.contains("JSON has no number"), "\(result.stderr)")
    }
  }

  /// 9. `openstep` means the same format in `export` as in `convert`: numbers are refused;
  /// `gnustep` writes GNUstep's typed text.
  @Test func exportAndConvertAgreeOnFormatNames() throws {
    let folder = try TemporaryFolder()
    let plan = folder.file("plan.json")
    try Data(
      #"{"plan": 1, "schemaVersion": 1, "keys": [{"from": "N", "to": "n", "type": "integer"}]}"#
        .utf8
    ).write(to: plan)
    try Self.write(["n": 5, "prefs.schemaVersion": 1], "s.plist", as: .binary, in: folder)
    let openStep = try Self.run(
      ["export", "--plan", plan.path, "s.plist", "--to", "o.plist", "--format", "openstep"],
      in: folder)
    #expect(openStep.status == 65, "\(openStep.stderr)")
    let gnustep = try Self.run(
      ["export", "--plan", plan.path, "s.plist", "--to", "g.plist", "--format", "gnustep"],
      in: folder)
    #expect(gnustep.status == 0, "\(gnustep.stderr)")
    #expect(try PropertyList.read(Data(contentsOf: folder.file("g.plist"))).format == .gnustep)
  }

  /// 10. No raw Foundation error text; a write that cannot lock names the domain first.
  @Test func failuresSpeakPlainly() throws {
    let folder = try TemporaryFolder()
    try Data("x".utf8).write(to: folder.file("blocker"))
    let inside = folder.file("blocker").appendingPathComponent("d.plist").path
    let write = try External.run(Self.binary, ["write", inside, "k", "v"])
    #expect(write.status != 0)
    #expect(
      !write.stderr.contains("NSCocoaErrorDomain") && !write.stderr.contains("UserInfo"),
      "\(write.stderr)")
    try Self.write(["a": 1], "d.plist", as: .xml, in: folder)
    try FileManager.default.createDirectory(
      at: folder.file("d.plist.lock"), withIntermediateDirectories: false)
    let locked = try Self.run(["write", "d.plist", "k", "v"], in: folder)
    #expect(locked.status == 73)
    #expect(
      locked.stderr.hasPrefix("prefs: \(folder.file("d.plist").path): cannot write"),
      "\(locked.stderr)")
  }

  /// 11. `find` says when nothing matched; `help help` is the usage; `read --as string`
  /// quotes a value that bare would read as another; binary output never goes to a terminal.
  @Test func smallWordsOfAUsualTool() throws {
    let folder = try TemporaryFolder()
    try Self.write(["s": " 12", "t": "plain"], "com.example.app.plist", as: .xml, in: folder)
    let find = try Self.run(["find", "nothing-like-this"], in: folder)
    #expect(find.status == 1)
    #expect(find.stderr.contains("No domain, key, nor value containing 'nothing-like-this'"))
    let help = try Self.run(["help", "help"], in: folder)
    #expect(help.status == 0 && help.output.hasPrefix("usage: prefs"))
    let single = try Self.run(["read", "com.example.app", "s", "--as", "string"], in: folder)
    #expect(single.output == "\" 12\"\n")
    let all = try Self.run(["read", "com.example.app", "--as", "string"], in: folder)
    #expect(all.output == "s = \" 12\"\nt = plain\n")
    let console = CapturingConsole(outputIsTerminal: true)
    let code = Prefs.run(
      ["convert", folder.file("com.example.app.plist").path, "--to", "binary"], console: console)
    #expect(code == .usage)
    #expect(console.stdout.isEmpty)
    #expect(console.stderr.contains("terminal"))
  }

  /// 12. Text that is no property list says so first; JSON is named as JSON.
  @Test func notAPropertyListAndJSONSaySo() throws {
    let folder = try TemporaryFolder()
    try Data("hello world\n".utf8).write(to: folder.file("text.plist"))
    let text = try Self.run(["lint", "text.plist"], in: folder)
    #expect(text.status == 65)
    #expect(text.stderr.contains("not a property list"), "\(text.stderr)")
    try Data("{\"a\": 1}\n".utf8).write(to: folder.file("json.plist"))
    let json = try Self.run(["read", "json.plist"], in: folder)
    #expect(json.status == 65)
    #expect(json.stderr.contains("this is JSON"), "\(json.stderr)")
  }
}
