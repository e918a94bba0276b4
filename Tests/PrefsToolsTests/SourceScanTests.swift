import Foundation
import LegacyDefaults
import PreferencesMigration
import PrefsTools
import PropertyList
import TestSupport
import Testing

/// `prefs plan scan` as a library: the fixtures' keys, types and defaults as their comments
/// say the legacy code meant them (Tests/PrefsToolsTests/Fixtures/SourceScan), and the traps
/// that are not keys.
@Suite struct SourceScanTests {
  static let fixtures = External.packageRoot.appendingPathComponent(
    "Tests/PrefsToolsTests/Fixtures/SourceScan")

  static func scan(_ paths: [String], suite: String? = nil) -> SourceScanResult {
    SourceScan.scan(paths, options: SourceScan.Options(suite: suite, jobs: 2))
  }

  static let objc = scan([fixtures.appendingPathComponent("ObjC").path])
  static let swift = scan([
    fixtures.appendingPathComponent("Swift").path,
    fixtures.appendingPathComponent("Resources").path,
  ])

  static func entries(_ result: SourceScanResult) -> [String: MigrationPlan.Entry] {
    Dictionary(result.keys.map { ($0.entry.from, $0.entry) }, uniquingKeysWith: { a, _ in a })
  }

  /// Each expected key's type and default in the scan's entries (which it returns).
  static func check(
    _ result: SourceScanResult, _ expected: [(String, MigrationPlan.ValueType, PlistValue?)]
  ) -> [String: MigrationPlan.Entry] {
    let found = entries(result)
    for (key, type, value) in expected {
      guard let entry = found[key] else {
        Issue.record("\(key) was not found")
        continue
      }
      #expect(entry.type == type, "\(key)")
      #expect(entry.defaultValue == value, "\(key)")
    }
    return found
  }

  /// The key, its type, and its default (nil: none written), as the fixture's code means them.
  static let objcExpected: [(String, MigrationPlan.ValueType, PlistValue?)] = [
    // Keys.h's macros, a macro naming a macro, adjacent literals; Keys.m's constants.
    ("soundEnabled", .bool, .bool(true)), ("volume", .double, .real(0.8)),
    ("app.theme", .string, .string("dark")), ("splitView", .bool, .bool(true)),
    ("userName", .string, .string("Anonymous")), ("fontSize", .integer, .integer(14)),
    // Each getter.
    ("recentSearches", .stringArray, nil), ("items", .stringArray, .array(["a", "b"])),
    ("windowFrame", .dictionary, nil), ("avatar", .data, nil), ("downloadFolder", .url, nil),
    ("zoom", .double, .real(1.5)),
    // objectForKey: typed by what the code does with it.
    ("showWelcome", .bool, nil), ("launchCount", .integer, nil), ("city", .string, nil),
    ("tags", .array, nil), ("layout", .dictionary, nil), ("ratio", .double, nil),
    ("blob", .any, nil), ("profile", .json, nil),
    // Setters.
    ("lastLaunch", .date, nil), ("history", .json, nil), ("speed", .double, nil),
    // Two types: any.
    ("mode", .any, nil),
    // Registrations in each form, a bundle file; computed and conditional ones not written.
    ("registeredOnly", .integer, .integer(5)), ("fromBundleFile", .integer, .integer(42)),
    ("installDate", .date, nil), ("logLevel", .integer, nil),
    // The fallback when absent, in each form.
    ("rankingSize", .integer, .integer(5)), ("hintsEnabled", .bool, .bool(true)),
    ("columns", .integer, .integer(3)), ("greeting", .string, .string("Hello")),
    ("nickname", .string, .string("Player")), ("darkIcons", .bool, nil),
    // Registered NO beats the Settings bundle's YES.
    ("autoSave", .bool, .bool(false)),
    // Settings panes, the child pane too.
    ("brightness", .double, .real(0.7)), ("quality", .integer, .integer(2)),
    ("serverAddress", .string, .string("example.com")),
    // A xib's bindings.
    ("showDockIcon", .bool, nil), ("refreshInterval", .integer, nil),
    // Receivers: a property, a macro, dot syntax, a category; a wrapper with a fallback.
    ("viaProperty", .bool, nil), ("viaMacro", .bool, nil), ("viaDotSyntax", .integer, nil),
    ("largeText", .bool, nil), ("syncEnabled", .bool, .bool(true)),
    ("betaFeatures", .bool, .bool(false)),
    // User defaults handed in (a parameter, a property set from it); a variadic list with an
    // #else element; dictionaryWithObjects:forKeys: of arrayWithObjects:.
    ("showsBadges", .bool, nil), ("compactLayout", .bool, nil), ("exportsToDesktop", .bool, nil),
    ("historyDays", .integer, .integer(7)), ("columnCount", .integer, .integer(2)),
    ("layoutName", .string, .string("grid")),
    // Objective-C++ (.mm): KVO of user defaults, a binding made in code; C: CFPreferences.
    ("watchedKey", .any, nil), ("showGrid", .bool, nil), ("nativeFlag", .bool, nil),
    ("nativeLevel", .integer, nil), ("nativeName", .string, nil),
  ]

  @Test func everyObjectiveCPatternGivesItsKeyTypeAndDefault() {
    let found = Self.check(Self.objc, Self.objcExpected)
    // Nothing more: every key of the plan is one the fixture means.
    let expected = Set(Self.objcExpected.map(\.0))
    #expect(
      Set(found.keys).subtracting(expected).isEmpty, "\(Set(found.keys).subtracting(expected))")
  }

  /// A notification's name, a KVO path on another object, a dictionary's keys, a key in a
  /// comment or `#if 0`, a string that merely looks like a key: none is a key, a pattern or a
  /// key of another domain.
  @Test(arguments: [
    "SoundDidChange", "VolumeDidChange", "playbackRate", "rate", "dictionaryFlag",
    "dictionaryTitle", "optionKey", "commentedOut", "blockCommented", "disabledCode",
    "soundEnabled is on", "lookalikeKey", "title", "size", "canRefresh", "self.canRefresh",
    // A pane of the Settings bundle that neither Root.plist nor a child pane names.
    "orphanPaneKey",
  ])
  func aTrapIsNotAKey(_ word: String) {
    let result = Self.objc
    #expect(!result.keys.contains { $0.entry.from == word })
    #expect(!result.removed.contains { $0.entry.from == word })
    #expect(!result.patterns.contains { $0.pattern == word })
    #expect(!result.otherDomains.contains { $0.keys.contains { $0.entry.from == word } })
  }

  @Test func runTimeKeysArePatternsNeverKeys() {
    let patterns = Set(Self.objc.patterns.map(\.pattern))
    #expect(patterns == ["Flag*Image", "cache.*"])
    #expect(
      !Self.objc.plan().entries.contains { $0.from.contains("*") || $0.from.hasPrefix("Flag") })
    #expect(Set(Self.swift.patterns.map(\.pattern)) == ["row*Expanded"])
  }

  @Test func aKeyTheCodeOnlyRemovesIsProposedForDrop() {
    #expect(Self.objc.removed.map(\.entry.from) == ["obsoleteBanner"])
    #expect(Self.objc.plan().drop == ["obsoleteBanner"])
  }

  @Test func anotherSuitesKeysAreListedApartAndScannedWithSuite() throws {
    let other = try #require(Self.objc.otherDomains.first)
    #expect(other.domain == .suite("group.com.example.app"))
    #expect(other.keys.map(\.entry.from) == ["sharedToken"])
    let suite = Self.scan(
      [Self.fixtures.appendingPathComponent("ObjC").path], suite: "group.com.example.app")
    #expect(suite.keys.map(\.entry.from) == ["sharedToken"])
    #expect(suite.keys.first?.entry.type == .string)
    #expect(suite.otherDomains.contains { $0.domain == .standard })
  }

  /// Two sources disagree: the registration is what the running app saw, and the evidence
  /// lists both.
  @Test func theRegistrationWinsAndTheEvidenceShowsEverySource() throws {
    let key = try #require(Self.objc.keys.first { $0.entry.from == "autoSave" })
    #expect(key.defaults.map(\.value) == ["false", "true"])
    #expect(key.defaults.last?.source.contains("iOS does not register") == true)
    #expect(key.notes.contains { $0.contains("hides the others") })
  }

  @Test func aDefaultThatDependsOnTheBuildOrTheOSIsReportedNotWritten() throws {
    for name in ["logLevel", "darkIcons", "installDate"] {
      let key = try #require(Self.objc.keys.first { $0.entry.from == name })
      #expect(key.entry.defaultValue == nil, "\(name)")
      #expect(!key.defaults.isEmpty, "\(name)")
      #expect(key.notes.contains { $0.contains("not written") }, "\(name)")
    }
  }

  @Test func aKeyUsedAsTwoTypesIsAnyWithBothPlaces() throws {
    let key = try #require(Self.objc.keys.first { $0.entry.from == "mode" })
    #expect(key.entry.type == .any)
    let note = try #require(key.notes.first)
    #expect(note.contains("integer (") && note.contains("string ("))
    #expect(note.contains("Getters.m:55") && note.contains("Getters.m:56"))
  }

  static let swiftExpected: [(String, MigrationPlan.ValueType, PlistValue?)] = [
    ("showTips", .bool, .bool(true)), ("maxItems", .integer, .integer(20)),
    ("accentColor", .string, .string("blue")), ("font.scale", .double, .real(1.0)),
    ("legacy.value", .any, nil), ("lastOpened", .date, nil), ("onboarded", .bool, .bool(false)),
    ("session", .json, nil), ("recents", .stringArray, nil), ("speed", .double, .real(1.0)),
    ("compactMode", .bool, .bool(false)), ("refreshMinutes", .integer, .integer(15)),
    ("autoPlay", .bool, nil),
    // Interface files: a storyboard's slider and color well, a designable.nib's checkbox.
    ("volumeSlider", .double, nil), ("highlightColor", .data, nil), ("legacyCheckbox", .bool, nil),
    // A designable.nib that a newer Xcode saved as a xib; a button enabled by whether a key
    // is set (`NSIsNotNil`) says nothing of its type.
    ("signatureText", .string, nil), ("recentMessage", .string, nil),
  ]

  @Test func everySwiftPatternGivesItsKeyTypeAndDefault() {
    let found = Self.check(Self.swift, Self.swiftExpected)
    #expect(Set(found.keys) == Set(Self.swiftExpected.map(\.0)))
    #expect(
      Self.swift.otherDomains.map(\.domain) == [.suite("group.com.example.swift")])
    // Not keys: a notification's name, a dictionary's key.
    #expect(found["RefreshNotification"] == nil)
  }

  /// The typed key is named after the property the code keeps the value in.
  @Test func theTypedKeyIsNamedAfterTheProperty() {
    let objc = Self.entries(Self.objc)
    #expect(objc["rankingSize"]?.to == "ranking.size")
    #expect(objc["hintsEnabled"]?.to == "hints.enabled")
    let swift = Self.entries(Self.swift)
    #expect(swift["compactMode"]?.to == "compact.mode")
    #expect(swift["refreshMinutes"]?.to == "refresh.minutes")
  }

  /// The plan is one the plan format takes: written, it loads back as it was.
  @Test func theDraftIsAPlanThePlanFormatTakes() throws {
    for result in [Self.objc, Self.swift] {
      let plan = result.plan()
      let loaded = try MigrationPlan.load(json: Data(plan.jsonText().utf8))
      #expect(loaded == plan)
    }
  }

  /// The evidence names every place a key is used, and where each default came from.
  @Test func theEvidenceListsEveryPlaceAndEachDefaultsSource() {
    let text = Self.objc.evidenceText()
    #expect(text.contains("Getters.m:8  boolForKey:  bool"))
    #expect(text.contains("Getters.m:43  setBool:forKey:  bool"))
    #expect(text.contains("default true: registered"))
    #expect(text.contains("Flag*Image"))
    #expect(text.contains("suite group.com.example.app"))
  }

  // MARK: - Files as found on disk

  /// MacRoman (python3's `mac_roman` codec is the reference), UTF-16 with a mark in either
  /// order, CRLF and CR line ends: the keys and their lines are the same.
  @Test(.enabled(if: Tools.python || External.required, "needs python3 for its mac_roman codec"))
  func legacyEncodingsAndLineEndsAreRead() throws {
    let folder = try TemporaryFolder()
    let source =
      "// Caf\u{E9} — the menu\nNSUserDefaults *d = [NSUserDefaults standardUserDefaults];\n"
      + "void f(void) {\n  [d setBool:YES forKey:@\"caf\u{E9}Open\"];\n}\n"
    let script =
      "import sys; sys.stdout.buffer.write(sys.stdin.buffer.read().decode('utf-8').encode('mac_roman'))"
    let roman = try External.run(
      "/usr/bin/env", ["python3", "-c", script], input: Data(source.utf8))
    #expect(roman.status == 0)
    try roman.stdout.write(to: folder.file("Roman.m"))
    var little = Data([0xFF, 0xFE])
    var big = Data([0xFE, 0xFF])
    for unit in source.replacing("caf\u{E9}Open", with: "wide").utf16 {
      little += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
      big += [UInt8(unit >> 8), UInt8(unit & 0xFF)]
    }
    try little.write(to: folder.file("Little.m"))
    try big.write(to: folder.file("Big.m"))
    try Data(source.replacing("caf\u{E9}Open", with: "crlf").replacing("\n", with: "\r\n").utf8)
      .write(to: folder.file("Windows.m"))
    try Data(source.replacing("caf\u{E9}Open", with: "classic").replacing("\n", with: "\r").utf8)
      .write(to: folder.file("Classic.m"))
    let result = Self.scan([folder.url.path])
    #expect(Set(result.keys.map(\.entry.from)) == ["caf\u{E9}Open", "wide", "crlf", "classic"])
    for key in result.keys {
      #expect(key.places.first?.location.hasSuffix(".m:4") == true, "\(key.places)")
    }
    #expect(result.warnings.isEmpty)
  }

  /// A binary file, a FIFO and a symbolic-link loop are named and skipped; the rest is read.
  @Test func unreadableFilesAreNamedAndSkipped() throws {
    let folder = try TemporaryFolder()
    try Data(
      "void g(void) { [[NSUserDefaults standardUserDefaults] setBool:YES forKey:@\"ok\"]; }\n".utf8
    )
    .write(to: folder.file("Good.m"))
    try Data([0x00, 0x01, 0x02, 0x55, 0x73, 0x65, 0x72, 0x44]).write(to: folder.file("Blob.m"))
    #expect(mkfifo(folder.file("Pipe.m").path, 0o600) == 0)
    try FileManager.default.createDirectory(
      at: folder.file("sub"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("sub/loop").path, withDestinationPath: folder.url.path)
    let result = Self.scan([folder.url.path])
    #expect(result.keys.map(\.entry.from) == ["ok"])
    let messages = result.warnings.map(\.description)
    #expect(messages.contains { $0.contains("Blob.m") && $0.contains("binary") }, "\(messages)")
    #expect(messages.contains { $0.contains("sub/loop") && $0.contains("loop") }, "\(messages)")
    #expect(
      messages.contains { $0.contains("Pipe.m") && $0.contains("not a regular file") },
      "\(messages)")
    #expect(result.filesRead >= 1)
  }

  /// The lexer leaves out what a condition never compiles, and keeps a string's escapes.
  @Test func conditionsCommentsAndEscapes() throws {
    let folder = try TemporaryFolder()
    let source = #"""
      #if 0
      void a(void) { [[NSUserDefaults standardUserDefaults] setBool:YES forKey:@"never"]; }
      #elif 1
      void b(void) { [[NSUserDefaults standardUserDefaults] setBool:YES forKey:@"tab\tand\x41\101\u00e9"]; }
      #else
      void c(void) { [[NSUserDefaults standardUserDefaults] setBool:YES forKey:@"elseOfOne"]; }
      #endif
      #ifdef FEATURE
      void d(void) { [[NSUserDefaults standardUserDefaults] registerDefaults:@{@"feature": @YES}]; }
      #else
      void e(void) { [[NSUserDefaults standardUserDefaults] registerDefaults:@{@"feature": @NO}]; }
      #endif
      """#
    try Data(source.utf8).write(to: folder.file("Conditions.m"))
    let result = Self.scan([folder.url.path])
    let keys = Self.entries(result)
    #expect(Set(keys.keys) == ["tab\tandAA\u{E9}", "feature"])
    // Both branches of an unknown condition are read; their defaults differ: not written.
    #expect(keys["feature"]?.defaultValue == nil)
  }
}

/// Bad input never crashes the scan, never hangs it: every fixture cut at many places and
/// with bytes changed, each read as Objective-C and as Swift, and random brackets.
@Suite struct SourceScanRobustnessTests {
  /// An enum case past Int64.max (the case after one of that value) and arithmetic that
  /// overflows are no constants: reported as computed, never a trap (the Swift reader trapped
  /// on the enum case until the fifth round's fuzz forms tried it).
  @Test func numbersPast64BitsAreNoConstants() throws {
    let folder = try TemporaryFolder()
    try Data(
      """
      import Foundation
      @objc enum Edge: Int { case top = 9223372036854775807, bottom }
      func f() {
        UserDefaults.standard.register(defaults: ["edge": Edge.bottom.rawValue, "area": 3 * 4])
        UserDefaults.standard.set(1, forKey: "edge")
        UserDefaults.standard.set(1, forKey: "area")
      }
      """.utf8
    ).write(to: folder.file("Edge.swift"))
    try Data(
      """
      void g(void) {
        [[NSUserDefaults standardUserDefaults] registerDefaults:@{
          @"big": @(9223372036854775807 * 2), @"small": @(2 * 1024 - 1) }];
        [[NSUserDefaults standardUserDefaults] setInteger:1 forKey:@"big"];
        [[NSUserDefaults standardUserDefaults] setInteger:1 forKey:@"small"];
      }
      """.utf8
    ).write(to: folder.file("Big.m"))
    let result = SourceScan.scan([folder.url.path])
    let found = Dictionary(
      result.keys.map { ($0.entry.from, $0.entry) }, uniquingKeysWith: { a, _ in a })
    #expect(found["edge"]?.type == .integer)
    #expect(found["edge"]?.defaultValue == nil)
    #expect(found["area"]?.defaultValue == .integer(12))
    #expect(found["big"]?.type == .integer)
    #expect(found["big"]?.defaultValue == nil)
    #expect(found["small"]?.defaultValue == .integer(2047))
  }

  /// A chain of 20,000 ternaries as a key and one of 5,000 `else if`s after a getter: read
  /// without recursion (each overflowed the stack until an attack on the ternaries of keys
  /// tried them), the chain walked once, not once per `if`; a chain of more than 16 arms is a
  /// pattern. 10,000 nested `if (d) if (d) … S; else …` are walked once too (36 s before).
  @Test func longTernaryAndElseIfChainsEnd() throws {
    let folder = try TemporaryFolder()
    let arms = (0..<20_000).map { "c ? @\"chain\($0)\" :" }.joined(separator: " ")
    let branches = (0..<5_000).map { "else if (d > \($0)) { n += 1; }" }
      .joined(separator: " ")
    let nested = String(repeating: "if (d) ", count: 10_000)
    try Data(
      """
      @implementation Chains
      - (void)f:(BOOL)c {
        [[NSUserDefaults standardUserDefaults] boolForKey:(\(arms) @"chainLast")];
        [[NSUserDefaults standardUserDefaults] boolForKey:(c ? @"chainA" : c ? @"chainB" : @"chainC")];
      }
      - (int)g:(int)d {
        int n = 0;
        NSString *v = [[NSUserDefaults standardUserDefaults] objectForKey:@"chainElse"];
        if (v) { return [v intValue]; } \(branches)
        \(nested)[[NSUserDefaults standardUserDefaults] setInteger:n forKey:@"chainNested"]; else n = 2;
        return n;
      }
      @end
      """.utf8
    ).write(to: folder.file("Chains.m"))
    let result = SourceScan.scan([folder.url.path])
    let keys = Set(result.keys.map(\.entry.from))
    #expect(keys == ["chainA", "chainB", "chainC", "chainElse", "chainNested"])
    #expect(result.patterns.count == 1)
  }

  /// Thousands of variables of one method (and a file's static variables) each given a
  /// getter's answer and tested for zero: each its own default (the variables waiting for a
  /// message's answer are found by the message, not by walking them all each time: 20,000
  /// statics took 254 s in a debug build before, 16 s after).
  @Test func thousandsOfVariablesGivenAnswersKeepTheirFallbacks() throws {
    let folder = try TemporaryFolder()
    let count = 2_000
    var body = ""
    for n in 0..<count {
      let name = n.isMultiple(of: 2) ? "g\(n)" : "int v\(n)"
      let variable = n.isMultiple(of: 2) ? "g\(n)" : "v\(n)"
      body += "  \(name) = [[NSUserDefaults standardUserDefaults] integerForKey:@\"many\(n)\"];\n"
      body += "  if (\(variable) <= 0) \(variable) = \(n + 1);\n"
    }
    try Data("@implementation Many\n+ (void)initialize {\n\(body)}\n@end\n".utf8)
      .write(to: folder.file("Many.m"))
    let keys = SourceScanTests.entries(SourceScan.scan([folder.url.path]))
    #expect(keys.count == count)
    #expect(keys["many0"]?.defaultValue == .integer(1))
    #expect(keys["many1999"]?.defaultValue == .integer(2000))
    #expect(keys.values.allSatisfy { $0.defaultValue != nil })
  }

  /// `else if (` left open at the end of a file (the smallest of a fuzz round's cut files of a
  /// real app): the statement ends with the tokens, never past them (it trapped until then).
  @Test(arguments: [
    "#define r()\nL(){if();else if(", "void f(void) { if (a) {} else if ((", "if(;else{",
  ])
  func aStatementLeftOpenEndsWithTheFile(_ source: String) throws {
    let folder = try TemporaryFolder()
    try Data((source + "\n[[NSUserDefaults standardUserDefaults] boolForKey:@\"k\"];").utf8)
      .write(to: folder.file("Cut.m"))
    let result = SourceScan.scan([folder.url.path])
    #expect(result.filesRead == 1)
    #expect(result.warnings.isEmpty, "\(result.warnings.map(\.message))")
  }

  /// A chain of thousands of operators (a fuzz round's mutated file took a minute to fold it,
  /// quadratic in its length): no constant of the code is that long; a short one still folds.
  @Test func aChainOfThousandsOfOperatorsIsNoConstant() throws {
    let folder = try TemporaryFolder()
    let chain = Array(repeating: "1", count: 4_000).joined(separator: " * ")
    let source = """
      import SwiftUI
      struct V: View {
        @AppStorage("chain") var chain = \(chain)
        @AppStorage("short") var short = 6 * 7
        var body: some View { Text("\\(chain) \\(short)") }
      }
      """
    try Data(source.utf8).write(to: folder.file("Chain.swift"))
    let found = SourceScanTests.entries(SourceScan.scan([folder.url.path]))
    #expect(found["chain"]?.defaultValue == nil)
    #expect(found["short"]?.defaultValue == .integer(42))
  }

  /// A decoder's argument cut off by a stray quote, running into a setter of a wrapper's
  /// parameter (a fuzz round's mutated file, a trap in the release build): the setter records
  /// no use, so nothing is refined (it took the last use made, none: index -1).
  @Test func aDecoderArgumentRunningIntoAWrappersSetterRefinesNothing() throws {
    let folder = try TemporaryFolder()
    let source = """
        func set<T: Codable>(object: T, forKey key: String) {
            return try? JSONDecoder().decode(T.self, from: data@")
            userDefaults.setValue(data, forKey: key)
      """
    try Data(source.utf8).write(to: folder.file("Cut.swift"))
    let result = SourceScan.scan([folder.url.path])
    #expect(result.keys.isEmpty)
    #expect(result.warnings.isEmpty, "\(result.warnings.map(\.message))")
  }

  struct Generator {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(max(1, bound)))
    }
  }

  @Test func cutAndChangedSourcesAreReadToTheirEnd() throws {
    let folder = try TemporaryFolder()
    let root = SourceScanTests.fixtures
    let names = [
      "ObjC/Getters.m", "ObjC/Defaults.m", "ObjC/Receivers.m", "ObjC/Injected.m", "ObjC/Keys.h",
      "Swift/Settings.swift", "Swift/Keys.swift",
    ]
    var g = Generator(state: 7)
    var n = 0
    for name in names {
      let bytes = try [UInt8](Data(contentsOf: root.appendingPathComponent(name)))
      for _ in 0..<60 {
        var variant = Array(bytes.prefix(g.next(bytes.count + 1)))
        for _ in 0..<g.next(6) where !variant.isEmpty {
          let marks = Array("[](){}\"'@#/*\\:;?\n".utf8)
          variant[g.next(variant.count)] = marks[g.next(marks.count)]
        }
        for ext in ["m", "swift"] {
          try Data(variant).write(to: folder.file("v\(n).\(ext)"))
          n += 1
        }
      }
    }
    // Interface files cut and changed.
    for name in [
      "ObjC/Preferences.xib", "Resources/Main.storyboard", "Resources/Old.nib/designable.nib",
    ] {
      let bytes = try [UInt8](Data(contentsOf: root.appendingPathComponent(name)))
      for k in 0..<30 {
        var variant = Array(bytes.prefix(g.next(bytes.count + 1)))
        for _ in 0..<g.next(6) where !variant.isEmpty {
          let marks = Array("<>/=\"' \n".utf8)
          variant[g.next(variant.count)] = marks[g.next(marks.count)]
        }
        let sub = folder.file("nib\(n)-\(k).nib")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try Data(variant).write(to: sub.appendingPathComponent("designable.nib"))
        try Data(variant).write(to: folder.file("i\(n)-\(k).xib"))
      }
      n += 60
    }
    // Brackets and quotes at random, and nothing but openers.
    for k in 0..<20 {
      let marks = Array("[](){}\"'@:;?# \nabc".utf8)
      let soup = (0..<400).map { _ in marks[g.next(marks.count)] }
      try Data(soup).write(to: folder.file("soup\(k).m"))
      try Data(soup).write(to: folder.file("soup\(k).swift"))
    }
    try Data(String(repeating: "[(", count: 5_000).utf8).write(to: folder.file("open.m"))
    try Data(String(repeating: "{(", count: 5_000).utf8).write(to: folder.file("open.swift"))
    // Brackets nested far deeper than any code: named and skipped (the readers' recursion
    // follows the nesting).
    let deep =
      "void f(void) { [[NSUserDefaults standardUserDefaults] setBool:YES forKey:"
      + String(repeating: "[", count: 60_000) + "@\"a\""
      + String(repeating: " stringByAppendingString:@\"b\"]", count: 60_000) + "]; }\n"
    try Data(deep.utf8).write(to: folder.file("deep.m"))
    let result = SourceScan.scan([folder.url.path])
    #expect(result.filesRead >= n)
    for name in ["open.swift"] {
      #expect(result.warnings.contains { $0.path.hasSuffix(name) && $0.message.contains("nested") })
    }
    #expect(
      result.warnings.contains { $0.path.hasSuffix("deep.m") && $0.message.contains("nested") })
  }

  /// An attribute whose `=` is followed by no quote (what Scripts/scan-fuzz.py made of a real
  /// xib, and the scan then never ended): passed over, the tags after it still read.
  @Test(
    .timeLimit(.minutes(1)),
    arguments: ["firstAttribute=\u{8C}-9\"bottom\"", "a=", "a=/", "==", "a= b=\"c\""])
  func anAttributeWithNoQuoteIsPassedOver(_ attribute: String) throws {
    let folder = try TemporaryFolder()
    let xib = """
      <?xml version="1.0" encoding="UTF-8"?>
      <document type="com.apple.InterfaceBuilder3.Cocoa.XIB" version="3.0">
        <objects>
          <constraint \(attribute) secondItem="TFC-xG-RlB" id="7dL-yz-Jec"/>
          <button id="b1">
            <connections>
              <binding destination="u1" name="value" keyPath="values.afterDamage" id="c1"/>
            </connections>
          </button>
          <userDefaultsController representsSharedInstance="YES" id="u1"/>
        </objects>
      </document>
      """
    try Data(xib.utf8).write(to: folder.file("Damaged.xib"))
    let result = SourceScan.scan([folder.url.path])
    #expect(result.keys.map(\.entry.from) == ["afterDamage"])
  }
}

/// A registered value is the default as the key's getter reads it, in the plan's dialect
/// (`"t"` is true to GNUstep's and corelibs' `boolForKey:`, false to Apple's: the dialect
/// tables of `Docs/plan-format.md`, "Dialects" in MIGRATION.md).
@Suite struct SourceScanDialectTests {
  // (`LegacyDefaults.Dialect`: PrefsTools names the type too, for the command, and a type
  // named by two imported modules is ambiguous where an expression names it, as @Test does.)
  @Test(arguments: [(Dialect.apple, false), (.gnustep, true), (.corelibs, true)])
  func aRegisteredStringIsReadAsTheGetterReadsIt(
    _ dialect: LegacyDefaults.Dialect, _ expected: Bool
  ) throws {
    let folder = try TemporaryFolder()
    let source = """
      void f(void) {
        NSUserDefaults *d = [NSUserDefaults standardUserDefaults];
        [d registerDefaults:@{@"flag": @"t", @"count": @"12", @"on": @1}];
        BOOL a = [d boolForKey:@"flag"];
        NSInteger b = [d integerForKey:@"count"];
        BOOL c = [d boolForKey:@"on"];
      }
      """
    try Data(source.utf8).write(to: folder.file("App.m"))
    let result = SourceScan.scan(
      [folder.url.path], options: SourceScan.Options(dialect: dialect, jobs: 1))
    let entries = SourceScanTests.entries(result)
    #expect(entries["flag"]?.defaultValue == .bool(expected))
    #expect(entries["count"]?.defaultValue == .integer(12))
    #expect(entries["on"]?.defaultValue == .bool(true))
    #expect(result.plan().dialect == dialect)
  }
}
