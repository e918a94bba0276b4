import Foundation
import PropertyList
import TestSupport
import Testing

/// Files placed in a working folder (a folder: nil contents), and the command lines run there.
struct OracleInput: Sendable, CustomTestStringConvertible {
  var name: String
  var files: [String: Data?]
  var lines: [OracleLine]
  var testDescription: String { name }
}

/// One command line, its standard input, and the deliberate difference it shows, if any.
struct OracleLine: Sendable {
  var words: [String]
  var stdin: Data? = nil
  var difference: Difference? = nil
}

/// A row of Docs/compatibility.md's "deliberately differs" table: what prefs does instead.
struct Difference: Sendable {
  var row: String
  var prefsDoes: @Sendable (PlutilOracleTests.Outcome) -> Bool

  /// Refused with plutil's status (1), a message on standard error, no output.
  static func refuses(_ row: String, saying words: String) -> Difference {
    Difference(row: row) {
      $0.status == 1 && $0.stdout.isEmpty && $0.stderr.contains(words)
    }
  }
}

/// The command lines and inputs of the differential: documents that hold what real
/// preference files hold, the repository's fixtures, and every documented verb and option.
enum PlutilOracleCases {
  // MARK: - The deliberate differences (Docs/compatibility.md's rows)

  static let integerText = Difference.refuses(
    "-integer of text that is not an integer", saying: "-integer")
  static let boolText = Difference.refuses("-bool of a word that is not YES/NO", saying: "-bool")
  static let floatText = Difference.refuses(
    "-float of text that is not a number", saying: "-float")
  static let dateText = Difference.refuses(
    "-date of text that is not a date", saying: "-date")
  static let dateFraction = Difference(row: "-date with a fraction of a second") {
    !$0.crashed && !$0.stderr.contains("-date")
  }
  static let appendPastEnd = Difference.refuses(
    "-append at an index past an array's end", saying: "out of bounds")
  static let scalarJSON = Difference(row: "a scalar as JSON") {
    $0.status == 0 && $0.stderr.isEmpty
  }
  static let help = Difference(row: "-help") {
    $0.status == 0 && $0.text.contains("-bool: YES if passed \"YES\" or \"true\", NO if passed")
  }
  static let replaceAtIndex = Difference(row: "-replace at an array index") { $0.status == 0 }

  // MARK: - Generated documents

  static let keys: [String] = [
    "Zeta", "alpha", "Beta", "beta", "_private", "key10", "key9", "key09", "sp ace", "é",
    "Émile", "eagle", "ü", "😀", "中文", "", "a.b", "NSWindow Frame main", "2nd", "-dash",
    "UPPER", "x1y", "Straße", "strasse", "ñandú", "Ørsted", "œuvre", "Ω", "я",
  ]

  /// What a preferences file holds: every type, reals with 17 significant digits, whole
  /// reals, dates with and without a fraction of a second, data (bytes 0x10 and up, at most
  /// 24 of them: printed alike), Unicode and empty keys that sort differently by bytes and as
  /// CoreFoundation compares them.
  static let preferences: PlistValue = {
    var d = PlistDictionary()
    for (n, key) in keys.enumerated() { d[key] = .integer(Int64(n)) }
    d["name"] = "Lucas"
    d["quote"] = "say \"hi\" \\ back"
    d["lines"] = "one\ntwo\tthree"
    d["unicode"] = "é 中文 😀 e\u{301}"
    d["slash"] = "a/b <c> & d"
    d["emptyString"] = ""
    d["int"] = 42
    d["negative"] = -17
    d["max"] = .integer(.max)
    d["min"] = .integer(.min)
    d["real17"] = .real(0.15)
    d["timestamp"] = .real(495_885_944.976_127_03)
    d["whole"] = .real(3)
    d["half"] = .real(-2.5)
    d["big"] = .real(1e16)
    d["huge"] = .real(1e300)
    d["tiny"] = .real(.leastNonzeroMagnitude)
    d["tenth"] = .real(0.1)
    d["yes"] = true
    d["no"] = false
    d["launched"] = .date(Date(timeIntervalSinceReferenceDate: 420_000_000))
    d["fraction"] = .date(Date(timeIntervalSinceReferenceDate: 420_000_000.25))
    d["epoch"] = .date(Date(timeIntervalSince1970: 0))
    d["token"] = .data(Data([0xCA, 0xFE, 0xBA, 0xBE]))
    d["emptyData"] = .data(Data())
    d["colors"] = ["red", "green", "blue"]
    d["window"] = ["x": 10, "y": 20, "frame": ["w": .real(640.5), "h": 480]]
    d["emptyArray"] = []
    d["emptyDict"] = .dictionary(PlistDictionary())
    d["nested"] = [
      "level1": ["level2": ["level3": .data(Data([0x10, 0x20, 0x30])), "list": [1, 2, [3]]]]
    ]
    d["mixed"] = [1, "two", .real(3.5), true, .date(Date(timeIntervalSinceReferenceDate: 0))]
    return .dictionary(d)
  }()

  /// Data at several depths, long enough to wrap in XML, with bytes below 0x10: the port
  /// prints such data wrongly in `-p` (`<0102>` as `0x12`).
  static let data: PlistValue = [
    "short": .data(Data([0x01, 0x02])),
    "long": .data(Data((0..<100).map { UInt8($0) })),
    "inArray": [.data(Data((0..<60).map { UInt8($0 * 3 % 256) }))],
    "deep": ["a": ["b": ["c": .data(Data(repeating: 0xAB, count: 40))]]],
    "label": "data",
  ]

  /// A top-level array.
  static let array: PlistValue = [
    "first", 2, .real(3.25), false, ["k": "v", "K": "w"], ["inner", 1],
    .date(Date(timeIntervalSinceReferenceDate: 1_000_000)), [],
  ]

  /// Containers nested 20 deep, dictionaries and arrays in turn.
  static let deep: PlistValue = {
    var value: PlistValue = "bottom"
    for level in (0..<20).reversed() {
      value =
        level.isMultiple(of: 2) ? ["level\(level)": value, "n": .integer(Int64(level))] : [value]
    }
    return value
  }()

  static let string: PlistValue = "just a string"

  /// A binary and an XML copy of each document (dates whole in the XML one: XML holds whole
  /// seconds), JSON documents, and an OpenStep one.
  static let generated: [OracleInput] = {
    var inputs: [OracleInput] = []
    let documents: [(String, PlistValue)] = [
      ("preferences", preferences), ("data", data), ("array", array), ("deep", deep),
      ("string", string),
    ]
    for (name, value) in documents {
      for (suffix, format) in [("binary", PlistFormat.binary), ("xml", .xml)] {
        let stored = format == .xml ? wholeSeconds(value) : value
        guard let bytes = try? PropertyList.write(stored, as: format) else { continue }
        let file = "\(name).plist"
        inputs.append(
          OracleInput(
            name: "\(name).\(suffix)", files: [file: bytes],
            lines: lines(for: file, value: stored, full: format == .binary)))
      }
    }
    for (name, text) in json {
      let file = "\(name).json"
      // A document holding null gets its own lines: plutil reads null and writes none.
      let nulls = [
        ["-extract", "c", "raw", file], ["-extract", "b.1", "raw", file], ["-type", "a", file],
        ["-type", "b", file], ["-remove", "a", file], ["-extract", "b", "json", "-o", "-", file],
      ]
      let value = jsonValue(text)
      inputs.append(
        OracleInput(
          name: file, files: [file: Data(text.utf8)],
          lines: lines(for: file, value: value)
            + (value == nil ? nulls.map { OracleLine(words: $0) } : [])))
    }
    if let bytes = try? PropertyList.write(keyOrder, as: .binary) {
      inputs.append(
        OracleInput(
          name: "key-order", files: ["keys.plist": bytes],
          lines: [
            ["-p", "keys.plist"], ["-convert", "json", "-r", "-o", "-", "keys.plist"],
            ["-convert", "raw", "keys.plist"], ["-convert", "swift", "-o", "-", "keys.plist"],
          ].map { OracleLine(words: $0) }))
    }
    let openStep =
      "{ name = Lucas; list = (1, two, \"three four\"); data = <10203040>; sub = { k = v; }; }"
    inputs.append(
      OracleInput(
        name: "openstep", files: ["old.plist": Data(openStep.utf8)],
        lines: lines(for: "old.plist", value: nil, full: false)))
    inputs.append(contentsOf: [
      badFiles, stricter, encodings, severalFiles, standardInput, create, usage,
    ])
    if let twins {
      inputs.append(twins)
    }
    inputs.append(longNumber)
    return inputs
  }()

  /// Keys that sort differently by bytes, as Swift compares them and as CoreFoundation does:
  /// case, accents, numbers, punctuation, other scripts, and a few hundred drawn from all of
  /// them (a fixed sequence).
  static let keyOrder: PlistValue = {
    var keys: Set<String> = [
      "apple", "Apple", "APPLE", "aPPle", "apples", "äpple", "Äpple", "a1", "a01", "a001", "a10",
      "a2", "a10b", "a9b", "a1b", "a01c", "x9", "x09", "x009a", "v1.10", "v1.9", "v1.09", "1", "01",
      "10", "9", "", " ", "_", "-", ".", "a b", "a_b", "a-b", "a.b", "ab", "a", "A", "é", "e",
      "E", "É", "ê", "ë", "e\u{301}", "resume", "résumé", "Résumé", "RESUME", "straße", "strasse",
      "STRASSE", "œuvre", "oeuvre", "Ωmega", "omega", "яблоко", "Яблоко", "ябл", "中文", "日本",
      "서울", "😀", "🔑key", "key🔑", "#tag", "@home", "$price", "€uro", "100%", "ñandú", "nandu",
      "ødegaard", "Odegaard", "æble", "aeble", "ß", "ss", "ﬁle", "file", "NSWindow Frame",
      "NSWindowFrame", "NS_Window", "com.apple.x", "com.Apple.y", "Z", "z", "zz", "Zz",
    ]
    let pool = Array(
      "abcXYZ019 _-.:/@#éÉèçÇñøØåæœßüÜαΩжЯ中日서😀\u{301}".unicodeScalars)
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    while keys.count < 400 {
      var key = String.UnicodeScalarView()
      for _ in 0...next(6) { key.append(pool[next(pool.count)]) }
      keys.insert(String(key))
    }
    // A key the port's compare orders inconsistently against another (greater both ways:
    // a precomposed accented letter against its base letter, in some contexts) sorts
    // differently at each of the port's runs: left out (KeyOrderTests compares such keys
    // with Foundation's compare directly).
    let sorted = keys.sorted()
    let unstable = Set(
      sorted.flatMap { a in
        sorted.filter { b in a != b && compared(a, b) == compared(b, a) }
      })
    var d = PlistDictionary()
    for (n, key) in sorted.enumerated() where !unstable.contains(key) {
      d[key] = .integer(Int64(n))
    }
    return .dictionary(d)
  }()

  /// Foundation's compare as the port sorts keys with it.
  static func compared(_ a: String, _ b: String) -> ComparisonResult {
    a.compare(
      b, options: [.numeric, .caseInsensitive, .forcedOrdering], range: nil,
      locale: Locale(identifier: ""))
  }

  /// A JSON text's value as Foundation reads it (for choosing key paths); nil when it holds
  /// null.
  static func jsonValue(_ text: String) -> PlistValue? {
    guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) else {
      return nil
    }
    func value(_ object: Any) -> PlistValue? {
      switch object {
      case let s as String: return .string(s)
      case let n as NSNumber:
        switch String(cString: n.objCType) {
        case "c", "B": return .bool(n.boolValue)
        case "d", "f": return .real(n.doubleValue)
        default: return .integer(n.int64Value)
        }
      case let a as [Any]:
        let elements = a.compactMap(value)
        return elements.count == a.count ? .array(elements) : nil
      case let d as [String: Any]:
        let members = d.compactMapValues(value)
        return members.count == d.count ? .dictionary(PlistDictionary(members)) : nil
      default: return nil
      }
    }
    return value(object)
  }

  /// JSON documents: plutil reads JSON where a property list is expected.
  static let json: [(String, String)] = [
    (
      "settings",
      #"{"name":"Lucas","count":3,"ratio":0.5,"whole":2.0,"exp":1e3,"negative":-7,"on":true,"off":false,"list":[1,"two",[3]],"nested":{"a":{"b":"c"}},"escaped":"a\/b \u00e9\n\"q\"","":"empty","Zeta":1,"alpha":2,"é":3,"key10":4,"key9":5}"#
    ),
    ("top-array", #"[1, 2.5, "three", {"four": 4}, [5], true]"#),
    ("with-null", #"{"a": null, "b": [null, 1], "c": "kept"}"#),
    (
      "pretty",
      """
      {
        "CFBundleIdentifier" : "com.example.app",
        "CFBundleVersion" : "1.0",
        "LSMinimumSystemVersion" : "10.15",
        "NSHumanReadableCopyright" : "© 2026"
      }
      """
    ),
  ]

  static func wholeSeconds(_ value: PlistValue) -> PlistValue {
    switch value {
    case .date(let d):
      .date(Date(timeIntervalSinceReferenceDate: d.timeIntervalSinceReferenceDate.rounded(.down)))
    case .array(let a): .array(a.map(wholeSeconds))
    case .dictionary(let d): .dictionary(d.mapValues(wholeSeconds))
    default: value
    }
  }

  // MARK: - The repository's fixtures

  static let fixtures: [OracleInput] = {
    let root = External.packageRoot
    var files: [URL] = []
    for folder in [
      "Tests/PropertyListTests/Fixtures/valid", "Tests/PropertyListTests/Fixtures/hostile-ok",
      "Tests/LegacyDefaultsTests/Fixtures", "Legacy/Samples",
    ] {
      let url = root.appendingPathComponent(folder)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
      for name in names.sorted()
      where !name.hasSuffix(".json") && !name.hasSuffix(".md") && !name.hasSuffix(".py")
        && !name.hasSuffix(".sh") && !name.hasSuffix(".m")
      {
        files.append(url.appendingPathComponent(name))
      }
    }
    // The first file of each case (the text before the first dot) gets every reading and
    // converting line; its siblings, the same values in other formats, the reading ones.
    var seen: Set<Substring> = []
    return files.compactMap { url in
      guard let bytes = try? Data(contentsOf: url), bytes.count < 1 << 20 else { return nil }
      let value = try? PropertyList.read(bytes).value
      let file = "fixture." + url.pathExtension
      var lines: [[String]] = [
        ["-lint", file], ["-p", file], ["-convert", "xml1", "-o", "-", file],
      ]
      let caseName = url.lastPathComponent.prefix { $0 != "." }
      var differing: [OracleLine] = []
      if seen.insert(caseName).inserted {
        let json = ["-convert", "json", "-r", "-o", "-", file]
        if let value, !value.isContainer {
          differing.append(
            OracleLine(words: json, difference: value.isJSONScalar ? scalarJSON : nil))
        } else {
          lines.append(json)
        }
        lines += [
          ["-convert", "swift", "-o", "-", file],
          ["-convert", "objc", "-o", "-", file], ["-convert", "binary1", "-o", "out.plist", file],
        ]
        if let value, let first = paths(value, limit: 3).first {
          lines += [
            ["-extract", first.path, "raw", file], ["-type", first.path, file],
            ["-remove", first.path, file],
          ]
        }
      }
      return OracleInput(
        name: url.lastPathComponent, files: [file: bytes],
        lines: lines.map { OracleLine(words: $0) } + differing)
    }
  }()
}

extension PlistValue {
  var isContainer: Bool {
    switch self {
    case .array, .dictionary: true
    default: false
    }
  }

  /// A string, number or boolean: what JSON holds alone as a fragment.
  var isJSONScalar: Bool {
    switch self {
    case .string, .integer, .unsignedInteger, .real, .bool: true
    default: false
    }
  }
}

/// A key path's components as plutil splits it (`\.` a dot inside a key).
enum KeyPathText {
  static func components(_ path: String) -> [String] {
    path.replacingOccurrences(of: "\\.", with: "\u{0}").split(
      separator: ".", omittingEmptySubsequences: false
    ).map { $0.replacingOccurrences(of: "\u{0}", with: ".") }
  }
}
