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
    try #require(
      PropertyList.read(result.stdout).value.dictionaryValue?.swiftDictionary, "\(result.stderr)")
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

/// Where GNUstep keeps its domains: from its configuration files (a relative directory under
/// the home folder), never from a GNUSTEP_USER_DEFAULTS_DIR environment variable. Checked
/// against GNUstep itself: the Objective-C driver saves, and the file is where the locator says.
@Suite struct GNUstepLayoutTests {
  @Test func theConfigurationFilesDecide() throws {
    let folder = try TemporaryFolder()
    let conf = folder.file("GNUstep.conf")
    // No user file, so that the test reads nothing of the real user's.
    try "# system\nGNUSTEP_USER_CONFIG_FILE=\nGNUSTEP_USER_DEFAULTS_DIR=rel/Defaults\n"
      .write(to: conf, atomically: true, encoding: .utf8)
    let environment = [
      "GNUSTEP_CONFIG_FILE": conf.path, "HOME": folder.url.path,
      "GNUSTEP_USER_DEFAULTS_DIR": "/ignored",
    ]
    let userHome = String(cString: getpwuid(getuid()).pointee.pw_dir)
    let locator = DomainLocator(platform: .gnustep, environment: environment)
    #expect(try locator.folder().path == userHome + "/rel/Defaults")
    try "GNUSTEP_USER_CONFIG_FILE=\nGNUSTEP_USER_DEFAULTS_DIR='\(folder.url.path)/abs'\n"
      .write(to: conf, atomically: true, encoding: .utf8)
    #expect(try locator.folder().path == folder.url.path + "/abs")
  }

  /// GNUstep saves where the locator looks (an absolute directory in its configuration; the
  /// environment variable of the same name is ignored by both).
  @Test(.enabled(if: Tools.gnustep || External.required, "needs GNUstep (the Objective-C driver)"))
  func gnustepSavesWhereTheLocatorLooks() throws {
    let driver = try LegacyDriver.require()
    let folder = try TemporaryFolder()
    let conf = folder.file("GNUstep.conf")
    let defaults = folder.file("Defaults")
    try FileManager.default.createDirectory(at: defaults, withIntermediateDirectories: true)
    try "GNUSTEP_USER_CONFIG_FILE=\nGNUSTEP_USER_DEFAULTS_DIR=\"\(defaults.path)\"\n"
      .write(to: conf, atomically: true, encoding: .utf8)
    let environment = [
      "GNUSTEP_CONFIG_FILE": conf.path, "HOME": folder.url.path,
      "GNUSTEP_USER_DEFAULTS_DIR": folder.file("ignored").path,
    ]
    let result = try External.run(driver.executable, ["save", "NO", "7"], environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    let expected = try DomainLocator(platform: .gnustep, environment: environment)
      .url(forDomain: "prefs-driver")
    #expect(FileManager.default.fileExists(atPath: expected.path), "\(expected.path)")
    #expect(!FileManager.default.fileExists(atPath: folder.file("ignored").path))
  }
}
