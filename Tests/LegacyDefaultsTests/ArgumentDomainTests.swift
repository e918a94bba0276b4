import Foundation
import LegacyDefaults
import PropertyList
import TestSupport
import Testing

/// The argument domain per dialect, against the references themselves: GNUstep Base through
/// the Objective-C driver (`prefs-driver args …`) and swift-corelibs-foundation through
/// `defaults-probe args …`, each printing the argument domain it made of its own arguments.
@Suite struct ArgumentDomainTests {
  /// Argument lists of every shape (after the program name and the `args` verb).
  static let lists: [[String]] = [
    ["-k", "  plain  "], ["-k", " -3"], ["-k", "/*c*/ (x)"], ["-k", "('x', y)"],
    ["-k", "(a+b, c)"], ["-k", "-"], ["-k", "{a=1;}"], ["-k", "[1,2]"], ["-k", "<616263>"],
    ["-k", "\"q\""], ["-k", "12"], ["-k", "a b"], ["-k", "\"a\" = \"b\";"], ["-k", ""],
    ["-k", "\u{A0}x"], ["-flag", "-k", "v"], ["-", "v", "-k", "w"], ["-k"], ["-k", "-k2", "v"],
    ["-a", "1", "-b", "(2, 3)", "-c", "<*I5>"], ["-k", "<plist><true/></plist>"],
  ]

  /// What the store makes of `words` as `prefs-driver args words…` would be started.
  static func ours(_ words: [String], _ dialect: Dialect, program: String) -> [String: PlistValue] {
    DefaultsStore(inMemory: [:], dialect: dialect, arguments: [program, "args"] + words)
      .dictionaryRepresentation()
  }

  static func theirs(_ result: ProcessResult) throws -> [String: PlistValue] {
    try #require(PropertyList.read(result.stdout).value.dictionaryValue, "\(result.stderr)")
  }

  @Test(arguments: lists)
  func corelibsAsCorelibsReadsThem(_ words: [String]) throws {
    let probe = External.product("defaults-probe")
    let folder = try TemporaryFolder()
    let result = try External.run(
      probe, ["args"] + words, environment: ["XDG_CONFIG_HOME": folder.url.path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(Self.ours(words, .corelibs, program: probe) == (try Self.theirs(result)), "\(words)")
  }

  @Test(
    .enabled(if: Tools.gnustep || External.required, "needs GNUstep (the Objective-C driver)"),
    arguments: lists)
  func gnustepAsGNUstepReadsThem(_ words: [String]) throws {
    let driver = try LegacyDriver.require()
    let (result, _) = try driver.run(["args"] + words, file: nil)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      Self.ours(words, .gnustep, program: driver.executable) == (try Self.theirs(result)),
      "\(words)")
  }

  /// The cases of the issue, recorded from GNUstep 1.28, so they hold without GNUstep too.
  @Test func gnustepRecordedAnswers() {
    func one(_ value: String) -> PlistValue? {
      Self.ours(["-k", value], .gnustep, program: "prog")["k"]
    }
    #expect(one("  plain  ") == "plain")
    #expect(one(" -3") == "-3")
    #expect(one("/*c*/ (x)") == ["x"])
    #expect(one("-") == "-")
    #expect(one("('x', y)") == "('x', y)")
    #expect(one("\"a\" = \"b\";") == "\"a\" = \"b\";")
    #expect(one("(a+b, c)") == ["a+b", "c"])
  }
}
