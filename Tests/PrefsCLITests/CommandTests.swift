import Foundation
import PrefsCLI
import PropertyList
import TestSupport
import Testing

/// The `prefs` command end to end: the built binary, its standard output, standard error and
/// exit code, on committed fixtures.
@Suite struct CommandTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let valid = root.appendingPathComponent("Tests/PropertyListTests/Fixtures/valid")
  static let sample = root.appendingPathComponent("Legacy/Samples/com.exmo.equizmo.plist").path

  static let binary = External.product("prefs")

  struct Run {
    var status: Int32
    var stdout: String
    var stdoutData: Data
    var stderr: String
  }

  static func prefs(_ arguments: String...) throws -> Run {
    try prefsWithArguments(arguments)
  }

  static func prefsWithArguments(_ arguments: [String], environment: [String: String] = [:])
    throws -> Run
  {
    let result = try External.run(binary, arguments, environment: environment)
    return Run(
      status: result.status, stdout: result.output, stdoutData: result.stdout,
      stderr: result.stderr)
  }

  static func fixture(_ name: String) -> String { valid.appendingPathComponent(name).path }

  @Test func readPrintsLikeDefaults() throws {
    let run = try Self.prefs("read", Self.sample)
    #expect(run.status == 0)
    // The sample holds the hand-edited strings " 12" and "YES" (see make-sample.py).
    #expect(run.stdout.contains("PREFS_RANKING_SIZE = \" 12\";"))
    #expect(run.stdout.contains("PREFS_SOUND_ENABLED = YES;"))
    #expect(run.stdout.contains("lastLaunch = \"2014-05-02 18:30:05 +0000\";"))
    #expect(run.stderr.isEmpty)
  }

  @Test func readOneKey() throws {
    #expect(try Self.prefs("read", Self.sample, "colorMode").stdout == "Sepia\n")
    #expect(
      try Self.prefs("read", Self.sample, "PREFS_RANKING_SIZE", "--json").stdout == "\" 12\"\n")
    #expect(
      try Self.prefs("read", Self.sample, "PREFS_RANKING_SIZE", "--as", "integer").stdout == "12\n")
    #expect(
      try Self.prefs("read", Self.sample, "lastLaunch", "--json").stdout
        == "\"2014-05-02T18:30:05Z\"\n")
    #expect(
      try Self.prefs("read", Self.sample, "NSLanguages", "--json").stdout
        == "[\n  \"pt-BR\",\n  \"en\"\n]\n")
  }

  @Test func readJSONOfTheWholeFileIsValidJSON() throws {
    let run = try Self.prefs("read", Self.sample, "--json")
    #expect(run.status == 0)
    let object = try JSONSerialization.jsonObject(with: run.stdoutData) as? [String: Any]
    #expect(object?["PREFS_RANKING_SIZE"] as? String == " 12")
    #expect(object?["PREFS_SOUND_ENABLED"] as? String == "YES")
    #expect(
      object?["currentLocation"] as? String
        == Data(#"{"address":"Seoul","lat":"37.5665","lon":"126.9780"}"#.utf8)
        .base64EncodedString())
  }

  @Test func missingKeyIsExit1() throws {
    let run = try Self.prefs("read", Self.sample, "PREFS_NOPE")
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.contains("PREFS_NOPE"))
  }

  /// A missing input file of a file verb is 66; a missing domain of a `defaults` verb is 1.
  @Test func missingFileIsExit66() throws {
    let lint = try Self.prefs("lint", "/nonexistent/prefs-test.plist")
    #expect(lint.status == 66)
    #expect(lint.stderr.contains("/nonexistent/prefs-test.plist"))
    let read = try Self.prefs("read", "/nonexistent/prefs-test.plist")
    #expect(read.status == 1)
    #expect(read.stderr.contains("/nonexistent/prefs-test.plist"))
    #expect(try Self.prefs("convert", "/nonexistent/x.plist", "--to", "xml").status == 66)
  }

  @Test func usageErrorsAreExit64() throws {
    #expect(try Self.prefs().status == 64)
    #expect(try Self.prefs("frobnicate").status == 64)
    #expect(try Self.prefs("read").status == 64)
    #expect(try Self.prefs("read", Self.sample, "--bogus").status == 64)
    #expect(try Self.prefs("convert", Self.sample).status == 64)
    #expect(try Self.prefs("convert", Self.sample, "--to", "yaml").status == 64)
    #expect(try Self.prefs("lint").status == 64)
  }

  @Test func lintAcceptsEveryValidFixture() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.valid.path)
      .filter { !$0.hasSuffix(".json") }.sorted()
    let process = try Self.prefsWithArguments(["lint"] + names.map(Self.fixture))
    #expect(process.status == 0, "\(process.stderr)")
    #expect(process.stdout.split(separator: "\n").count == names.count)
  }

  /// Every file of the hostile corpus: exit 65, and each file named with a reason.
  @Test func lintRefusesEveryHostileFile() throws {
    let folder = Self.root.appendingPathComponent("Tests/PropertyListTests/Fixtures/hostile")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { !$0.hasSuffix(".json") }.sorted()
    #expect(names.count > 200)
    let run = try Self.prefsWithArguments(
      ["lint"] + names.map { folder.appendingPathComponent($0).path })
    #expect(run.status == 65)
    #expect(run.stdout.isEmpty, "a hostile file passed lint: \(run.stdout)")
    let lines = run.stderr.split(separator: "\n")
    for name in names {
      let line = lines.first { $0.contains("/\(name): ") }
      #expect(line != nil, "\(name) is not named on stderr")
      if let line {
        #expect(line.count > name.count + 20, "\(name): no reason given")
      }
    }
  }

  @Test func lintNamesTheFileAndThePlace() throws {
    let temporary = try TemporaryFolder()
    let folder = temporary.url
    let broken = folder.appendingPathComponent("broken.plist")
    try Data("<?xml version=\"1.0\"?>\n<plist>\n<dict>\n<key>a</key>\n</dict>\n</plist>\n".utf8)
      .write(to: broken)
    let truncated = folder.appendingPathComponent("truncated.plist")
    try Data("bplist00".utf8).write(to: truncated)
    let run = try Self.prefs("lint", broken.path, truncated.path, Self.sample)
    #expect(run.status == 65)
    #expect(run.stderr.contains("broken.plist: malformed XML property list at line 4"))
    #expect(run.stderr.contains("truncated.plist: binary property list is truncated"))
    #expect(run.stdout.contains("com.exmo.equizmo.plist: OK (binary)"))

    let json = try Self.prefs("lint", "--json", broken.path, Self.sample)
    let object = try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any]
    let files = object?["files"] as? [[String: Any]]
    #expect(files?.map { $0["status"] as? String } == ["malformed", "ok"])
  }

  @Test(arguments: ["xml", "binary", "gnustep"])
  func convertRoundTripsTheSample(format: String) throws {
    let temporary = try TemporaryFolder()
    let folder = temporary.url
    let out = folder.appendingPathComponent("out.plist")
    let run = try Self.prefs("convert", Self.sample, "--to", format, "-o", out.path)
    #expect(run.status == 0, "\(run.stderr)")
    let original = try PropertyList.read(Data(contentsOf: URL(fileURLWithPath: Self.sample)))
    let converted = try PropertyList.read(Data(contentsOf: out))
    #expect(converted.value == original.value)
    let mode = try FileManager.default.attributesOfItem(atPath: out.path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    // Back to the original format: the same bytes as writing the value directly.
    let back = folder.appendingPathComponent("back.plist")
    #expect(try Self.prefs("convert", out.path, "--to", "binary", "-o", back.path).status == 0)
    #expect(try Data(contentsOf: back) == PropertyList.write(original.value, as: .binary))
  }

  @Test func convertRefusesWhatTheFormatCannotHold() throws {
    // The sample holds numbers, bools, dates and data: OpenStep text holds none of them.
    let openstep = try Self.prefs("convert", Self.sample, "--to", "openstep")
    #expect(openstep.status == 65)
    #expect(openstep.stderr.contains("OpenStep cannot hold the value at"))
    #expect(openstep.stdout.isEmpty)
    let json = try Self.prefs("convert", Self.sample, "--to", "json")
    #expect(json.status == 65)
    #expect(json.stderr.contains("JSON has no"))
  }

  @Test func convertToAFolderThatCannotBeWrittenIs73() throws {
    let run = try Self.prefs(
      "convert", Self.sample, "--to", "xml", "-o", "/nonexistent-folder/out.plist")
    #expect(run.status == 73)
    #expect(run.stderr.contains("/nonexistent-folder/out.plist"))
  }

  @Test func convertToJSONWritesPlainJSON() throws {
    let run = try Self.prefs("convert", Self.fixture("integers.plistlib.xml"), "--to", "json")
    #expect(run.status == 0)
    let object = try JSONSerialization.jsonObject(with: run.stdoutData) as? [String: Any]
    #expect((object?["i64min"] as? NSNumber)?.int64Value == Int64.min)
    #expect(run.stdout.contains("\"u64max\": 18446744073709551615"))
  }

  @Test func inProcessRunMatchesTheBinary() {
    let console = CapturingConsole()
    let code = Prefs.run(["read", Self.sample, "PREFS_RANKING_SIZE"], console: console)
    #expect(code == .ok)
    #expect(console.output == " 12\n")
  }
}
