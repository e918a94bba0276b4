import Foundation
import LegacyDefaults
import PrefsTools
import PropertyList
import TestSupport
import Testing

/// The command's tools as a library: the rule for names and paths, the one parser of typed
/// values, key paths, and a domain's reads and changes.
@Suite struct PrefsToolsTests {
  /// The rule, as the README states it.
  @Test(arguments: [
    ("com.example.app", false), ("./com.example.app", true), ("../x", true), ("a/b", true),
    ("/abs/x.plist", true), ("x.plist", true), ("com.x.plist", true), ("-g", false),
  ])
  func aWordWithASlashOrEndingInPlistIsAPath(_ word: String, _ isPath: Bool) {
    #expect(DomainResolver.isPath(word) == isPath, "\(word)")
  }

  @Test func aDomainNameIsInThePreferencesFolder() throws {
    let folder = try TemporaryFolder()
    let resolver = DomainResolver(
      locator: DomainLocator(platform: .linux, environment: ["XDG_CONFIG_HOME": folder.url.path]),
      userDefaults: nil)
    #expect(try resolver.path("com.x") == folder.file("com.x.plist").path)
    #expect(try resolver.path("./com.x") == "./com.x")
    #expect(resolver.isInPreferencesFolder(folder.file("com.x.plist").path))
    #expect(!resolver.isInPreferencesFolder("/elsewhere/com.x.plist"))
    #expect(throws: ToolError.self) { try resolver.path("com..x") }
  }

  /// `defaults write`'s and `plutil`'s types (defaults(1), plutil(1)): the same parser, each
  /// spelling's flags and data encoding.
  @Test(arguments: [
    (["-bool", "YES"], TypedValue.Spelling.defaults, PlistValue.bool(true)),
    (["-boolean", "no"], .defaults, .bool(false)),
    (["-int", "-5"], .defaults, .integer(-5)),
    (["-integer", "18446744073709551615"], .prefs, .unsignedInteger(.max)),
    (["-float", "2.5"], .defaults, .real(2.5)),
    (["-string", "YES"], .defaults, .string("YES")),
    (["-data", "0a0B"], .defaults, .data(Data([0x0a, 0x0b]))),
    (["-array", "a", "b"], .defaults, .array(["a", "b"])),
    (["-dict", "k", "v"], .defaults, .dictionary(["k": "v"])),
    (["plain"], .prefs, .string("plain")),
    (["(1, 2)"], .prefs, .array(["1", "2"])),
    (["-date", "2011-03-14T15:09:26Z"], .prefs, .date(Date(timeIntervalSince1970: 1_300_115_366))),
  ])
  func typedValuesParseAsTheirFlagSays(
    _ words: [String], _ spelling: TypedValue.Spelling, _ expected: PlistValue
  ) throws {
    #expect(try TypedValue.parse(words, spelling: spelling) == .set(expected))
  }

  /// defaults(1): "-array-add" appends to the array, "-dict-add" adds to the dictionary;
  /// `prefs write`'s `-array-union` appends what the array does not hold. The parse says so:
  /// an addition, not a value (the caller never looks at the flag again).
  @Test(arguments: [
    (["-array-add", "a"], TypedValue.Spelling.defaults, TypedValue.Assignment.add(["a"], .append)),
    (["-dict-add", "k", "v"], .defaults, .add(["k": "v"], .merge)),
    (["-array-add", "a"], .prefs, .add(["a"], .append)),
    (["-array-union", "a", "-int", "1"], .prefs, .add(["a", 1], .union)),
    (["-dict-add", "k", "-bool", "NO"], .prefs, .add(["k": false], .merge)),
  ])
  func additionsParseAsAdditions(
    _ words: [String], _ spelling: TypedValue.Spelling, _ expected: TypedValue.Assignment
  ) throws {
    #expect(try TypedValue.parse(words, spelling: spelling) == expected)
  }

  /// Inside -array and -dict, values as defaults(1) reads them: literals and typed values.
  @Test(arguments: [
    (
      ["-array", "-int", "1", "(a, b)", "{k = v;}"], PlistValue.array([1, ["a", "b"], ["k": "v"]])
    ),
    (["-array-add", "<integer>3</integer>", "-string", "-bool"], PlistValue.array([3, "-bool"])),
    (
      ["-dict", "General", "-bool", "true", "-string", "k", "-data", "0a"],
      PlistValue.dictionary(["General": true, "k": .data(Data([0x0a]))])
    ),
  ])
  func compositesHoldLiteralsAndTypedValues(_ words: [String], _ expected: PlistValue) throws {
    let assignment: TypedValue.Assignment =
      words[0] == "-array-add" ? .add(expected, .append) : .set(expected)
    #expect(try TypedValue.parse(words, spelling: .defaults) == assignment)
    #expect(try TypedValue.parse(words, spelling: .prefs) == assignment)
  }

  @Test(arguments: [
    (["-bool", "maybe"], TypedValue.Spelling.prefs), (["-int", "1.5"], .defaults),
    (["-data", "abc"], .defaults), (["-data", "zz"], .prefs), (["-dict", "k"], .defaults),
    (["-array-union", "x"], .defaults), (["-float", "x"], .prefs),
    (["-array", "a", "-array-add", "b"], .prefs), (["-array", "a", "-dict-add", "b"], .defaults),
    (["-array", "a", "-dict", "k", "v"], .defaults), (["-dict", "-int", "1", "v"], .defaults),
    (["-dict", "k", "-bool"], .defaults), (["-array", "{unclosed"], .defaults),
  ])
  func aValueThatIsNotWhatItsFlagSaysIsRefused(
    _ words: [String], _ spelling: TypedValue.Spelling
  ) {
    #expect(throws: ToolError.self) { try TypedValue.parse(words, spelling: spelling) }
  }

  /// Per-host domains: `ByHost/<domain>.<host>.plist` in the preferences folder (macOS:
  /// `ByHost/<domain>.<hardware UUID>.plist`), the machine ID written as a UUID.
  @Test func aHostsDomainsAreItsByHostFiles() throws {
    let folder = try TemporaryFolder()
    let locator = DomainLocator(
      platform: .linux, environment: ["XDG_CONFIG_HOME": folder.url.path])
    let resolver = DomainResolver(locator: locator, userDefaults: nil, host: .named("office"))
    let file = folder.url.appendingPathComponent("ByHost/com.x.office.plist").path
    #expect(try resolver.path("com.x") == file)
    #expect(try resolver.path("./com.x") == "./com.x")
    #expect(resolver.isInPreferencesFolder(file))
    _ = try DomainEditor(try resolver.domain("com.x"), resolver: resolver).set(1, forKey: "k")
    #expect(try resolver.domainNames().names == ["com.x"])
    #expect(try DomainResolver(locator: locator, userDefaults: nil).domainNames().names == [])
    #expect(throws: ToolError.self) {
      try DomainResolver(locator: locator, userDefaults: nil, host: .named("a/b")).path("com.x")
    }
    #expect(
      HostScope.uuid(fromMachineID: "3d1219c7c4c5404aaa1f6d2a48adfda4\n")
        == "3D1219C7-C4C5-404A-AA1F-6D2A48ADFDA4")
    #expect(HostScope.uuid(fromMachineID: "not an id") == nil)
  }

  /// plutil's `-data` is base64, decoded as Foundation decodes it for plutil (characters that
  /// are not base64 skipped); text that is no base64 at all is refused.
  @Test func plutilDataIsBase64() throws {
    #expect(
      try TypedValue.value(.data, "AAE=", flag: "-data", spelling: .plutil)
        == .data(Data([0, 1])))
    let skipping = try #require(Data(base64Encoded: "0a0b!", options: .ignoreUnknownCharacters))
    #expect(
      try TypedValue.value(.data, "0a0b!", flag: "-data", spelling: .plutil) == .data(skipping))
    #expect(throws: ToolError.self) {
      try TypedValue.value(.data, "A", flag: "-data", spelling: .plutil)
    }
  }

  /// plutil(1): "a numerical path component applied to an array will act on the object at
  /// that index in the array or insert it into the array if the numerical path component is
  /// the last one in the key path"; `\.` is a dot inside a key.
  @Test func keyPathsReadAndEditNestedValues() throws {
    var root: PlistValue = ["a": ["b.c": ["x", "y"]]]
    let path = KeyPath("a.b\\.c.1")
    #expect(path.components == ["a", "b.c", "1"])
    #expect(path.description == "a.b\\.c.1")
    #expect(path.value(in: root) == "y")
    try path.insert("z", in: &root, replacing: false, appending: false)
    #expect(KeyPath("a.b\\.c").value(in: root) == ["x", "z", "y"])
    try path.insert("w", in: &root, replacing: true, appending: false)
    #expect(KeyPath("a.b\\.c").value(in: root) == ["x", "w", "y"])
    try KeyPath("a.b\\.c").insert("v", in: &root, replacing: false, appending: true)
    #expect(KeyPath("a.b\\.c").value(in: root) == ["x", "w", "y", "v"])
    try KeyPath("a.b\\.c.0").remove(from: &root)
    #expect(KeyPath("a.b\\.c").value(in: root) == ["w", "y", "v"])
    #expect(KeyPath("a.nope").value(in: root) == nil)
    #expect(KeyPath("").value(in: root) == nil)
    #expect(throws: KeyPathError.exists(KeyPath("a"))) {
      try KeyPath("a").insert("v", in: &root, replacing: false, appending: false)
    }
    #expect(throws: KeyPathError.outOfBounds(9, KeyPath("a.b\\.c.9"))) {
      try KeyPath("a.b\\.c.9").insert("v", in: &root, replacing: false, appending: false)
    }
    #expect(throws: KeyPathError.nothingToRemove(KeyPath("a.x"))) {
      try KeyPath("a.x").remove(from: &root)
    }
  }

  /// A domain's changes through the editor: the one way in and out, nothing written on a
  /// refusal.
  @Test func anEditorChangesADomainKeyByKey() throws {
    let folder = try TemporaryFolder()
    let resolver = DomainResolver(
      locator: DomainLocator(platform: .linux, environment: ["XDG_CONFIG_HOME": folder.url.path]),
      userDefaults: nil)
    let editor = DomainEditor(try resolver.domain("com.x"), resolver: resolver)
    #expect(throws: ToolError.self) { try editor.existingValues() }
    _ = try editor.set(.integer(1), forKey: "a")
    _ = try editor.merge(["b": "2", "c": ["x"]])
    _ = try editor.rename("a", to: "z")
    _ = try editor.add(["y"], at: KeyPath(components: ["c"]), as: .append)
    _ = try editor.remove("b")
    let file = folder.file("com.x.plist")
    #expect(try PropertyList.read(Data(contentsOf: file)).value == ["z": 1, "c": ["x", "y"]])
    let before = try Data(contentsOf: file)
    #expect(throws: ToolError.self) { try editor.rename("nope", to: "q") }
    #expect(throws: ToolError.self) { try editor.rename("z", to: "c") }
    #expect(throws: ToolError.self) {
      try editor.add(["y"], at: KeyPath(components: ["z"]), as: .append)
    }
    #expect(throws: ToolError.self) { try editor.remove("nope") }
    #expect(try Data(contentsOf: file) == before)
    #expect(try editor.value(forKey: "z").value == 1)
  }
}

/// Changes as values: exact comparison, keys by their bytes.
@Suite struct DomainDiffTests {
  @Test func valuesAreComparedExactly() {
    #expect(DomainDiff.same(.real(.nan), .real(.nan)))
    #expect(!DomainDiff.same(.real(0.0), .real(-0.0)))
    #expect(!DomainDiff.same(.integer(1), .real(1)))
    #expect(!DomainDiff.same(["a": [1, 2]], ["a": [1, 3]]))
    #expect(DomainDiff.same(["a": [1, ["b": .real(.nan)]]], ["a": [1, ["b": .real(.nan)]]]))
  }

  @Test func aDiffSetsAndRemovesInKeyOrder() {
    let old: PlistDictionary = ["b": 1, "a": 2, "gone": true, "é": 1]
    let new: PlistDictionary = ["a": 2, "b": 3, "e\u{301}": 1, "é": 1, "new": []]
    let diff = DomainDiff(from: old, to: new)
    #expect(
      diff.changes == [
        .set(key: "b", old: 1, new: 3), .set(key: "e\u{301}", old: nil, new: 1),
        .removed(key: "gone", old: true), .set(key: "new", old: nil, new: []),
      ])
    #expect(diff.domainChanges.applied(to: old) == new)
  }

  /// The commands `defaults` reads back: shell words, and the literal of what no flag holds.
  @Test func commandsAreShellWordsDefaultsReadsBack() {
    #expect(
      DefaultsCommand.line(.set(key: "k", old: nil, new: "it's"), domain: "com.x")
        == #"defaults write com.x k -string 'it'\''s'"#)
    #expect(
      DefaultsCommand.line(.removed(key: "a b", old: 1), domain: "com.x")
        == "defaults delete com.x 'a b'")
    #expect(DefaultsCommand.argument(.real(2.5)) == "-float 2.5")
    #expect(DefaultsCommand.argument(.data(Data([0xca, 0xfe]))) == "-data cafe")
    #expect(
      DefaultsCommand.argument(["x": [1]])
        == "'<dict><key>x</key><array><integer>1</integer></array></dict>'")
  }
}

/// `plutil`'s key order against its reference: Foundation's own compare (corelibs'
/// CoreFoundation asking ICU, in this test process), with the options and locale the port
/// sorts with. The port's compare is not always antisymmetric (a key with a precomposed
/// accented letter against one with its base letter can compare greater both ways, so the
/// port's own order then changes from run to run): such pairs are left out.
@Suite struct KeyOrderTests {
  static func foundation(_ a: String, _ b: String) -> Int {
    switch a.compare(
      b, options: [.numeric, .caseInsensitive, .forcedOrdering], range: nil,
      locale: Locale(identifier: ""))
    {
    case .orderedAscending: -1
    case .orderedSame: 0
    case .orderedDescending: 1
    }
  }

  /// Keys that differ in case, accents, numbers, punctuation and script, and a few hundred
  /// drawn from all of them (a fixed sequence).
  static let keys: [String] = {
    var keys: Set<String> = [
      "apple", "Apple", "APPLE", "aPPle", "apples", "äpple", "Äpple", "a1", "a01", "a001", "a10",
      "a2", "a10b", "a9b", "a1b", "a01c", "x9", "x09", "x009a", "v1.10", "v1.9", "v1.09", "1", "01",
      "10", "9", "", " ", "_", "-", ".", "a b", "a_b", "a-b", "a.b", "ab", "a", "A", "é", "e", "E",
      "É", "ê", "ë", "e\u{301}", "resume", "résumé", "Résumé", "RESUME", "straße", "strasse",
      "STRASSE", "œuvre", "oeuvre", "Ωmega", "omega", "яблоко", "Яблоко", "ябл", "中文", "日本", "서울",
      "😀", "🔑key", "key🔑", "#tag", "@home", "$price", "€uro", "100%", "ñandú", "nandu",
      "ødegaard", "Odegaard", "æble", "aeble", "ß", "ss", "ﬁle", "file", "NSWindow Frame",
      "NSWindowFrame", "NS_Window", "com.apple.x", "com.Apple.y", "Z", "z", "zz", "Zz",
    ]
    let pool = Array(
      "abcXYZ019 _-.:/@#éÉèçÇñøØåæœßüÜαΩжЯ中日서😀\u{301}ạếĳŁ©®™°±×÷ʼאعकก가あアＡ１ǅ\u{200B}\u{FE0F}"
        .unicodeScalars)
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    while keys.count < 500 {
      var key = String.UnicodeScalarView()
      for _ in 0...next(6) { key.append(pool[next(pool.count)]) }
      keys.insert(String(key))
    }
    return keys.sorted()
  }()

  @Test func everyPairComparesAsFoundationCompares() {
    var wrong: [String] = []
    var skipped = 0
    for a in Self.keys {
      for b in Self.keys where a.utf8.elementsEqual(b.utf8) == false {
        let reference = Self.foundation(a, b)
        guard reference == -Self.foundation(b, a) else {
          skipped += 1
          continue
        }
        let order = KeyOrder.precedes(a, b) ? -1 : KeyOrder.precedes(b, a) ? 1 : 0
        if order != reference { wrong.append("\(a.debugDescription) \(b.debugDescription)") }
      }
    }
    if let path = ProcessInfo.processInfo.environment["KEYORDER_DUMP"] {
      try? wrong.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }
    #expect(wrong.isEmpty, "\(wrong.count) pairs, \(skipped) left out: \(wrong.prefix(20))")
  }
}
