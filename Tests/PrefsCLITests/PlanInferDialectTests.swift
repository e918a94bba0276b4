import Foundation
import LegacyDefaults
import TestSupport
import Testing

/// `prefs plan infer --dialect D` types a key by what D's getters read from its values (issue
/// #25: `--dialect apple` and `--dialect gnustep` over the values printed the same plan,
/// both keys `string`). A string is bool text when it is a boolean word (`YES`, `no`, `t`, …)
/// that D's `boolForKey:` reads as the word says; integer text when D's `integerForKey:` takes
/// digits from it, `doubleForKey:` reads no more, and no digit follows.
@Suite struct PlanInferDialectTests {
  /// Each key's values, one per file (a fleet of four files). `count` and `flag` are the
  /// issue's; `offset` holds a sign apart from its digits, which only corelibs skips.
  static let values: [String: [String]] = [
    "count": [" 12", "7x", "3", "12abc"],
    "flag": ["YES", "no", "t", "Yes"],
    "offset": ["- 5", "+ 7", "- 12", "+ 3"],
  ]

  /// What `boolForKey:`, `integerForKey:` and `doubleForKey:` return for a value.
  struct Reading: Sendable, Equatable, CustomStringConvertible {
    var bool: Bool
    var integer: Int
    var double: Double
    var description: String { "bool \(bool), integer \(integer), double \(double)" }
  }

  static func r(_ bool: Bool, _ integer: Int, _ double: Double) -> Reading {
    Reading(bool: bool, integer: integer, double: double)
  }

  /// The getters' answers, never prefs':
  /// - apple: the table of `shared/spec/defaults-semantics.md` (`bool` is true for `YES` and
  ///   `yes`/`y`/`true` ignoring case, else `intValue(s) != 0`, and lists `"t"` as false;
  ///   `intValue` skips white space, takes one sign, then digits: `"5abc"` → 5, so `"7x"` → 7,
  ///   and `"- 5"`, whose sign a space follows, → 0; `doubleValue` the longest decimal prefix).
  /// - gnustep: `prefs-driver dump` (GNUstep Base 1.28 through `Legacy/`) of these values,
  ///   2026-12-01; ``readingsAreGNUsteps()`` runs it again.
  /// - corelibs: `defaults-probe dump` (swift-corelibs-foundation of Swift 6.3) of these
  ///   values, 2026-12-01; ``readingsAreCorelibs()`` runs it again.
  static let readings: [String: [String: Reading]] = [
    "apple": [
      " 12": r(true, 12, 12), "7x": r(true, 7, 7), "3": r(true, 3, 3), "12abc": r(true, 12, 12),
      "YES": r(true, 0, 0), "no": r(false, 0, 0), "t": r(false, 0, 0), "Yes": r(true, 0, 0),
      "- 5": r(false, 0, 0), "+ 7": r(false, 0, 0), "- 12": r(false, 0, 0), "+ 3": r(false, 0, 0),
    ],
    "gnustep": [
      " 12": r(true, 12, 12), "7x": r(true, 7, 7), "3": r(true, 3, 3), "12abc": r(true, 12, 12),
      "YES": r(true, 0, 0), "no": r(false, 0, 0), "t": r(true, 0, 0), "Yes": r(true, 0, 0),
      "- 5": r(true, 0, 0), "+ 7": r(true, 0, 0), "- 12": r(true, 0, 0), "+ 3": r(true, 0, 0),
    ],
    "corelibs": [
      " 12": r(true, 12, 12), "7x": r(true, 7, 7), "3": r(true, 3, 3), "12abc": r(true, 12, 12),
      "YES": r(true, 0, 0), "no": r(false, 0, 0), "t": r(true, 0, 0), "Yes": r(true, 0, 0),
      "- 5": r(true, -5, -5), "+ 7": r(true, 7, 7), "- 12": r(true, -12, -12),
      "+ 3": r(true, 3, 3),
    ],
  ]

  /// The type each dialect's plan gives each key, from the readings above:
  /// - `count`: every dialect's `integerForKey:` takes 12, 7, 3, 12 (and `doubleForKey:` the
  ///   same): integer text in all four files, so `integer`.
  /// - `flag`: gnustep and corelibs read `YES`, `no`, `t`, `Yes` as the words say: `bool`.
  ///   apple reads `"t"` as false: not a boolean to apple, so one file holds other text beside
  ///   three booleans, and the key is a `string`.
  /// - `offset`: only corelibs reads a number (-5, 7, -12, 3): `integer`; apple's and
  ///   GNUstep's parsers take no digit after the sign (0), so four distinct strings: `string`.
  static let expected: [String: [String: String]] = [
    "apple": ["count": "integer", "flag": "string", "offset": "string"],
    "gnustep": ["count": "integer", "flag": "bool", "offset": "string"],
    "corelibs": ["count": "integer", "flag": "bool", "offset": "integer"],
  ]

  /// Writes the fleet (XML, with Foundation's serializer) and returns the files' paths.
  static func fleet(in folder: TemporaryFolder) throws -> [String] {
    try (0..<4).map { n in
      var domain: [String: Any] = [:]
      for (key, list) in values { domain[key] = list[n] }
      let file = folder.file("com.example.app.\(n).plist")
      try PropertyListSerialization.data(fromPropertyList: domain, format: .xml, options: 0)
        .write(to: file)
      return file.path
    }
  }

  /// The plan `plan infer --dialect dialect` prints for the fleet: key → type.
  static func inferred(_ dialect: String, _ paths: [String]) throws -> [String: String] {
    let infer = try External.run(
      External.product("prefs"), ["plan", "infer", "--dialect", dialect] + paths)
    #expect(infer.status == 0, "\(infer.stderr)")
    let root = try #require(JSONSerialization.jsonObject(with: infer.stdout) as? [String: Any])
    #expect(root["dialect"] as? String == dialect)
    let keys = try #require(root["keys"] as? [[String: Any]])
    var types: [String: String] = [:]
    for entry in keys {
      types[try #require(entry["from"] as? String)] = try #require(entry["type"] as? String)
    }
    return types
  }

  /// Every dialect (a new one fails here until its readings and plan are written above).
  @Test(arguments: Dialect.allCases.map(\.rawValue))
  func eachKeyIsTypedAsTheDialectsGettersReadIt(dialect: String) throws {
    #expect(Self.readings[dialect] != nil, "the reference's readings of \(dialect)")
    let folder = try TemporaryFolder()
    #expect(try Self.inferred(dialect, Self.fleet(in: folder)) == Self.expected[dialect])
  }

  @Test func appleAndGNUstepPlansDiffer() throws {
    let folder = try TemporaryFolder()
    let paths = try Self.fleet(in: folder)
    let apple = try Self.inferred("apple", paths)
    let gnustep = try Self.inferred("gnustep", paths)
    #expect(apple != gnustep)
    #expect(apple["flag"] == "string" && gnustep["flag"] == "bool")
  }

  // MARK: - The readings are the references'

  /// One file holding every value, under keys `v00`… in the order of `all`.
  static let all = ["count", "flag", "offset"].flatMap { values[$0] ?? [] }

  static func corpus(_ file: URL) throws {
    var domain: [String: Any] = [:]
    for (n, value) in all.enumerated() { domain[String(format: "v%02d", n)] = value }
    try PropertyListSerialization.data(fromPropertyList: domain, format: .xml, options: 0)
      .write(to: file)
  }

  /// Compares a reference's `dump` with the table.
  static func compare(_ dump: Data, _ dialect: String) throws {
    let answers = try #require(
      JSONSerialization.jsonObject(with: dump) as? [String: [String: Any]])
    for (n, value) in all.enumerated() {
      let answer = try #require(answers[String(format: "v%02d", n)], "\(value)")
      let integer = try #require(answer["integer"] as? String)
      let double = try #require(answer["double"] as? String)
      let theirs = Reading(
        bool: try #require(answer["bool"] as? Bool), integer: try #require(Int(integer)),
        double: try #require(Double(double)))
      #expect(Self.readings[dialect]?[value] == theirs, "\(dialect) \"\(value)\"")
    }
  }

  @Test(.enabled(if: Tools.gnustep || External.required, "needs GNUstep (the Objective-C driver)"))
  func readingsAreGNUsteps() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("corpus.plist")
    try Self.corpus(file)
    try Self.compare(try LegacyDriver.require().dump(file), "gnustep")
  }

  @Test func readingsAreCorelibs() throws {
    let folder = try TemporaryFolder()
    try Self.corpus(folder.file("defaults-probe.plist"))
    let result = try External.run(
      External.product("defaults-probe"), ["dump"],
      environment: [
        "XDG_CONFIG_HOME": folder.url.path, "CFFIXED_USER_HOME": "/nonexistent/prefs-home",
        "HOME": "/nonexistent/prefs-home",
      ])
    #expect(result.status == 0, "\(result.stderr)")
    try Self.compare(result.stdout, "corelibs")
  }
}
