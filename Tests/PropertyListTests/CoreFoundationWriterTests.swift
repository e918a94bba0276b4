import Foundation
import PropertyList
import TestSupport
import Testing

/// The writers against CoreFoundation's own, run here: the toolchain's `plutil` (Apple's port
/// of Darwin's plutil over corelibs' CoreFoundation). Each document is written by prefs in
/// binary, converted by one `plutil -convert xml1` (and `binary1`) process for the whole batch,
/// and CoreFoundation's bytes compared with prefs' own XML of the same value.
@Suite(
  .enabled(if: Tools.toolchainPlutil != nil || External.required, "needs the toolchain's plutil"))
struct CoreFoundationWriterTests {
  static func plutil() throws -> String {
    guard let plutil = Tools.toolchainPlutil else {
      throw TypedJSONError(
        description: "the toolchain's plutil is not installed (it comes with swift)")
    }
    return plutil
  }

  /// `plutil -convert format -e ext FILE…`: one process converts every file into the file of
  /// the same name with extension `ext`. Returns the converted bytes, nil for a file plutil
  /// refused.
  static func convert(_ files: [URL], to format: String, extension ext: String) throws -> [Data?] {
    guard !files.isEmpty else { return [] }
    _ = try External.run(try plutil(), ["-convert", format, "-s", "-e", ext] + files.map(\.path))
    return files.map {
      try? Data(contentsOf: $0.deletingPathExtension().appendingPathExtension(ext))
    }
  }

  static let generated: [PlistValue] = {
    var generator = PreferenceFileGenerator(seed: 2026)
    return (0..<300).map { generator.document(index: $0) }
  }()

  /// A batch written in binary by prefs and converted by plutil: CoreFoundation's XML and
  /// binary of each value.
  struct Converted {
    var xml: [Data?]
    var binary: [Data?]
  }

  static func viaCoreFoundation(_ values: [PlistValue]) throws -> Converted {
    let folder = try TemporaryFolder()
    var files: [URL] = []
    for (i, value) in values.enumerated() {
      let file = folder.file(String(format: "doc-%03d.bplist", i))
      try PropertyList.write(value, as: .binary).write(to: file)
      files.append(file)
    }
    let converted = Converted(
      xml: try convert(files, to: "xml1", extension: "cfxml"),
      binary: try convert(files, to: "binary1", extension: "cfbin"))
    if let keep = ProcessInfo.processInfo.environment["PREFS_KEEP_CF_CORPUS"] {
      // For measuring by hand (another build of prefs on the same files): the batch is kept.
      try? FileManager.default.removeItem(atPath: keep)
      try FileManager.default.copyItem(atPath: folder.url.path, toPath: keep)
    }
    return converted
  }

  /// Every generated document: prefs' XML written as CoreFoundation writes is CoreFoundation's
  /// byte for byte; the strict writer (`PropertyList.write`, `prefs convert`) writes the same
  /// bytes or refuses exactly the documents that hold what XML would not give back.
  @Test func generatedDocumentsAreCoreFoundationsXML() throws {
    let values = Self.generated
    let converted = try Self.viaCoreFoundation(values)
    var identical = 0
    var strictIdentical = 0
    var strictRefused = 0
    for (i, value) in values.enumerated() {
      guard let theirs = converted.xml[i] else {
        Issue.record("doc \(i): plutil did not convert it")
        continue
      }
      let ours = Self.signLost(try PropertyList.write(value, as: .xml, xml: .coreFoundation))
      if ours == theirs {
        identical += 1
      } else {
        Issue.record("doc \(i): \(Self.firstDifference(ours, theirs))")
      }
      let needsLenience = Self.needsLenience(value)
      do {
        let strict = Self.signLost(try PropertyList.write(value, as: .xml))
        #expect(strict == theirs, "doc \(i) (strict)")
        #expect(
          !needsLenience,
          "doc \(i): written strictly though it holds \(Self.lenientPart(value) ?? "?")")
        strictIdentical += strict == theirs ? 1 : 0
      } catch {
        #expect(needsLenience, "doc \(i): refused: \(error)")
        strictRefused += 1
      }
    }
    #expect(identical == values.count)
    // The generator's mix: both kinds of document are there in numbers.
    #expect(strictIdentical > 100 && strictRefused > 50, "\(strictIdentical) \(strictRefused)")
  }

  /// Every fixture CoreFoundation reads: prefs' XML of prefs' reading of the file is
  /// CoreFoundation's `xml1` of the file.
  @Test func fixturesAreCoreFoundationsXML() throws {
    let folder = try TemporaryFolder()
    var names: [String] = []
    var files: [URL] = []
    for name in Fixtures.files(in: Fixtures.valid) {
      let file = folder.file(name.replacingOccurrences(of: ".", with: "_") + ".in")
      try FileManager.default.copyItem(at: Fixtures.valid.appendingPathComponent(name), to: file)
      names.append(name)
      files.append(file)
    }
    let converted = try Self.convert(files, to: "xml1", extension: "cfxml")
    var compared = 0
    var refusedByCoreFoundation: [String] = []
    for (i, name) in names.enumerated() {
      let value = try PropertyList.read(try Data(contentsOf: files[i])).value
      guard let theirs = converted[i] else {
        refusedByCoreFoundation.append(name)
        continue
      }
      compared += 1
      let ours = Self.signLost(try PropertyList.write(value, as: .xml, xml: .coreFoundation))
      #expect(ours == theirs, "\(name): \(Self.firstDifference(ours, theirs))")
    }
    // plutil converts every fixture but GNUstep's typed text (`<*I5>`, `<[…]>`) and those
    // holding a UID, which the port's validity check refuses to write (see
    // `coreFoundationsConventions` for the UID's form).
    #expect(
      refusedByCoreFoundation.allSatisfy { $0.hasSuffix(".gnustep") || $0.hasPrefix("uid.") },
      "\(refusedByCoreFoundation)")
    #expect(compared > 100, "\(compared)")
  }

  /// Binary: CoreFoundation's bytes depend on more than the value (its dictionaries in hash
  /// order, which the Swift bridge in the port seeds per process; its objects uniqued by
  /// identity), so what is compared is what can be: every value reads back the same both
  /// ways, and a document whose bytes are a function of its value (no dictionary of two
  /// keys or more, no repeated string, date or data, one `true` and one `false` at most) is
  /// written byte for byte as CoreFoundation writes it.
  @Test func binaryAgreesWithCoreFoundation() throws {
    var generator = PreferenceFileGenerator(seed: 77)
    let comparable = (0..<80).map { generator.binaryComparable(index: $0) }
    let values = Self.generated + comparable
    let converted = try Self.viaCoreFoundation(values)
    var identical = 0
    for (i, value) in values.enumerated() {
      guard let theirs = converted.binary[i] else {
        Issue.record("doc \(i): plutil did not convert it")
        continue
      }
      #expect(
        try PropertyList.read(theirs).value == value, "doc \(i): CoreFoundation's binary reads back"
      )
      let ours = try PropertyList.write(value, as: .binary)
      if i >= Self.generated.count {
        #expect(
          ours == theirs,
          "comparable doc \(i - Self.generated.count): \(Self.firstDifference(ours, theirs))")
      }
      identical += ours == theirs ? 1 : 0
    }
    #expect(identical >= comparable.count)
  }

  /// What the generator's documents check, on their own: CoreFoundation's words around
  /// `%.17g`, data at every depth, the years and text only CoreFoundation writes.
  @Test func coreFoundationsConventions() throws {
    var deep: PlistValue = .data(Data((0..<100).map { UInt8($0) }))
    var depths: [PlistValue] = []
    for _ in 0..<12 {
      deep = .array([deep, .data(Data([1, 2, 3, 4, 5]))])
      depths.append(deep)
    }
    let values: [PlistValue] = [
      .array([
        .real(0), .real(-0.0), .real(.nan), .real(.infinity), .real(-.infinity), .real(3),
        .real(-0.15), .real(1e100), .real(1e16), .real(1e17), .real(0.0001), .real(0.00001),
        .real(.leastNonzeroMagnitude), .real(.greatestFiniteMagnitude),
      ]),
      .array(depths),
      .dictionary([
        "past": .date(Date(timeIntervalSinceReferenceDate: -63_114_076_800)),
        "future": .date(Date(timeIntervalSinceReferenceDate: 63_113_904_000)),
        "year -1": .date(Date(timeIntervalSinceReferenceDate: -63_177_148_800)),
        "year 12141": .date(Date(timeIntervalSinceReferenceDate: 320_000_000_000)),
        "before 2001": .date(Date(timeIntervalSinceReferenceDate: -0.5)),
        "fraction": .date(Date(timeIntervalSinceReferenceDate: 86_399.999)),
        "controls": "a\u{1}b\u{0}c\u{1F}\u{7F}\r\n\t",
        "\u{FEFF}bom": "\u{FEFF}bom",
        "nonchar": "\u{FFFE}\u{FFFF}",
        "escapes": "]]> & <tag> \"quoted\" 'single'",
        "CF": ["CF$UID": 7],
        "empty": .dictionary([:]), "none": .array([]), "nothing": .data(Data()),
        "\u{E000}": 1, "\u{1F600}": 2, "\u{FF21}": 3, "é": 4, "": 5, "Z": 6, "a": 7,
      ]),
    ]
    let converted = try Self.viaCoreFoundation(values)
    for (i, value) in values.enumerated() {
      let ours = Self.signLost(try PropertyList.write(value, as: .xml, xml: .coreFoundation))
      #expect(
        ours == converted.xml[i], "\(i): \(Self.firstDifference(ours, converted.xml[i] ?? Data()))")
    }
    // Years beyond 0...9999 as CoreFoundation writes them read back as the same dates.
    let back = try PropertyList.read(try #require(converted.xml[2])).value
    for key in ["year -1", "year 12141", "past", "future"] {
      #expect(back[key] == values[2][key], "\(key)")
    }
    // A UID, which the port's plutil refuses to write, is written as `_CFAppendXML0` writes
    // one: the bytes CoreFoundation writes for the dictionary `{CF$UID = 7}` (above).
    let uid = try PropertyList.write(.dictionary(["CF": .uid(7)]), as: .xml)
    let dictionary = try PropertyList.write(
      .dictionary(["CF": ["CF$UID": 7]]), as: .xml, xml: .coreFoundation)
    #expect(uid == dictionary)
  }

  /// Whether a value holds what the strict writer refuses: a fractional second, a year
  /// outside 0...9999, a character XML 1.0 does not allow, a leading U+FEFF, a `CF$UID`
  /// dictionary.
  static func needsLenience(_ value: PlistValue) -> Bool { lenientPart(value) != nil }

  static func lenientPart(_ value: PlistValue) -> String? {
    switch value {
    case .string(let s): return textNeedsLenience(s) ? "text \(s.debugDescription)" : nil
    case .date(let d):
      let seconds = d.timeIntervalSinceReferenceDate
      if seconds != seconds.rounded(.down) { return "a fractional date" }
      // Years 0...9999: from 0000-01-01 (-63,145,526,400) to the end of 9999 (252,423,993,600).
      if seconds < -63_145_526_400 || seconds >= 252_423_993_600 {
        return "a year outside 0...9999"
      }
      // Year 0 (to 0001-01-01, -63,113,904,000), which GNUstep reads as year 1 (issue 46).
      if seconds < -63_113_904_000 { return "a date in year 0" }
      // -0.0, whose sign no XML reader gives back.
      if seconds == 0, seconds.sign == .minus { return "a date of -0.0" }
      return nil
    case .array(let a): return a.lazy.compactMap(lenientPart).first
    case .dictionary(let d):
      if d.count == 1, let only = d["CF$UID"], only.isInteger { return "a CF$UID dictionary" }
      for (key, element) in d {
        if textNeedsLenience(key) { return "key \(key.debugDescription)" }
        if let part = lenientPart(element) { return part }
      }
      return nil
    default: return nil
    }
  }

  static func textNeedsLenience(_ s: String) -> Bool {
    let scalars = Array(s.unicodeScalars)
    // U+FEFF right after a character written as an entity: GNUstep drops it (issue 46).
    let afterEntity = zip(scalars, scalars.dropFirst()).contains {
      "&<>".unicodeScalars.contains($0.0) && $0.1 == "\u{FEFF}"
    }
    // U+FEFF after the white space a string starts with: GNUstep drops it too.
    let afterSpace =
      s.unicodeScalars.drop(while: { " \t\n\r".unicodeScalars.contains($0) }).first == "\u{FEFF}"
    return afterEntity || afterSpace || s.unicodeScalars.first == "\u{FEFF}"
      || s.unicodeScalars.contains {
        ($0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r") || $0.value == 0xFFFE
          || $0.value == 0xFFFF
      }
  }

  /// Where two outputs part: the line of each.
  /// prefs' XML with -0.0 as CoreFoundation writes it, `0.0`: the one place prefs writes
  /// other bytes on purpose (CoreFoundation's loses the sign, and reads `-0.0` back as -0.0).
  static func signLost(_ xml: Data) -> Data {
    let text = String(decoding: xml, as: UTF8.self)
    guard text.contains("<real>-0.0</real>") else { return xml }
    return Data(text.replacingOccurrences(of: "<real>-0.0</real>", with: "<real>0.0</real>").utf8)
  }

  static func firstDifference(_ ours: Data, _ theirs: Data) -> String {
    let a = [UInt8](ours)
    let b = [UInt8](theirs)
    let common = zip(a, b).prefix { $0 == $1 }.count
    func line(_ bytes: [UInt8]) -> String {
      let start = bytes[..<min(common, bytes.count)].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
      let end = bytes[min(common, bytes.count)...].firstIndex(of: 0x0A) ?? bytes.count
      return String(decoding: bytes[start..<end], as: UTF8.self).debugDescription
    }
    return "at byte \(common) of \(a.count)/\(b.count): prefs \(line(a)), CoreFoundation \(line(b))"
  }
}

/// Documents that hold what real preference files hold: mostly a dictionary of settings (some
/// a top-level array), keys of identifiers, bundle names and words in any script (empty,
/// astral, private-use and full-width characters too, never two that differ only in Unicode
/// normalization), strings with XML's special characters and line ends, integers of every
/// size, reals with 17 significant digits and whole ones, booleans, dates with and without a
/// fraction of a second, data at every depth (the deepest beyond the eighth level) and empty
/// containers. About half hold something only CoreFoundation's leniency writes (a fraction of a
/// second, a year beyond 0...9999, a control character, a leading U+FEFF).
struct PreferenceFileGenerator {
  var random: SeededGenerator

  init(seed: UInt64) { random = SeededGenerator(seed: seed) }

  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
  mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

  /// Whether the document being made may hold what only CoreFoundation's leniency writes.
  var lenient = false

  mutating func document(index: Int) -> PlistValue {
    lenient = index % 2 == 1
    let count = int(0...(chance(10) ? 120 : 25))
    if index % 7 == 3 { return .array((0..<count).map { _ in value(depth: 1) }) }
    var d = dictionary(count: count, depth: 1)
    if index % 5 == 0 {
      // A deep container with data at the bottom.
      var deep: PlistValue = .data(data())
      for level in 0..<int(6...14) {
        deep = level % 3 == 0 ? .array([deep, value(depth: 20)]) : .dictionary([key(): deep])
      }
      d["deep"] = deep
    }
    return .dictionary(d)
  }

  mutating func dictionary(count: Int, depth: Int) -> PlistDictionary {
    var d = PlistDictionary()
    var seen = Set<String>()  // Swift's equality: no two keys that differ only in normalization.
    for _ in 0..<count {
      let k = key()
      guard seen.insert(k).inserted else { continue }
      d[k] = value(depth: depth)
    }
    return d
  }

  static let keyWords = [
    "NSWindow Frame Main", "AppleLanguages", "AppleLocale", "SUEnableAutomaticChecks",
    "SULastCheckTime", "NSNavLastRootDirectory", "com.apple.sound.beep.volume", "recentFiles",
    "LastUpdateCheck", "WebKitDefaultFontSize", "NSTableView Columns v2 Main", "showSidebar",
    "", "Größe", "Café", "日本語", "設定", "ключ", "مفتاح", "🙂 emoji", "\u{E000}private",
    "\u{FF21}\u{FF22} full width", "\u{1D11E} clef", "a&b<c>d", "tab\tkey", "line\nkey",
    "Z", "a", "_", "~", "0", "10", "9",
  ]

  mutating func key() -> String {
    if chance(55) {
      return Self.keyWords[int(0...(Self.keyWords.count - 1))]
        + (chance(50) ? "" : String(int(0...99)))
    }
    return text(length: int(1...20), keys: true)
  }

  static let alphabet: [Unicode.Scalar] = Array(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,-_/:;'\"!?()[]{}@#$%^*+=|~`"
      .unicodeScalars)
  static let specials: [Unicode.Scalar] = [
    "&", "<", ">", "\n", "\t", "\r", "é", "ß", "ü", "ø", "日", "本", "語", "ж", "ع", "\u{0301}",
    "\u{1F600}", "\u{1F1EB}", "\u{10FFFF}", "\u{E000}", "\u{F8FF}", "\u{FF21}", "\u{FFFD}",
    "\u{FEFF}", "\u{2028}", "\u{00A0}", "\u{D7FF}", "\u{10000}",
  ]
  static let controls: [Unicode.Scalar] = [
    "\u{0}", "\u{1}", "\u{7}", "\u{8}", "\u{B}", "\u{C}", "\u{1B}", "\u{1F}", "\u{FFFE}",
    "\u{FFFF}",
  ]

  mutating func text(length: Int, keys: Bool = false) -> String {
    var scalars = String.UnicodeScalarView()
    if lenient, chance(keys ? 2 : 4) { scalars.append("\u{FEFF}") }
    for _ in 0..<length {
      if lenient, chance(2) {
        scalars.append(Self.controls[int(0...(Self.controls.count - 1))])
      } else if chance(12) {
        scalars.append(Self.specials[int(0...(Self.specials.count - 1))])
      } else {
        scalars.append(Self.alphabet[int(0...(Self.alphabet.count - 1))])
      }
    }
    return String(scalars)
  }

  mutating func value(depth: Int) -> PlistValue {
    let roll = int(0...99)
    if roll < 10, depth < 6 {
      if chance(50) {
        return .array((0..<int(0...(chance(15) ? 0 : 8))).map { _ in value(depth: depth + 1) })
      }
      return .dictionary(dictionary(count: chance(15) ? 0 : int(1...8), depth: depth + 1))
    }
    switch roll {
    case ..<35: return .string(chance(10) ? "" : text(length: int(1...(chance(10) ? 200 : 30))))
    case ..<50: return integer()
    case ..<67: return .real(real())
    case ..<76: return .bool(chance(50))
    case ..<88: return .date(date())
    default: return .data(data())
    }
  }

  mutating func integer() -> PlistValue {
    switch int(0...9) {
    case 0: return .integer([Int64.min, Int64.max, -1, 0, 1, 255, 256, 65_535, 65_536][int(0...8)])
    case 1: return .unsignedInteger(UInt64(Int64.max) + UInt64(int(1...Int.max)))
    case 2: return .integer(Int64.random(in: .min ... .max, using: &random))
    case 3: return .integer(Int64(int(-1_000_000...0)))
    default: return .integer(Int64(int(0...100_000)))
    }
  }

  mutating func real() -> Double {
    switch int(0...11) {
    case 0...3:
      // 17 significant digits: a random significand at a preference file's magnitudes.
      let significand = 1 + Double(random.next() >> 12) / Double(UInt64(1) << 52)
      let value = Double(
        sign: chance(20) ? .minus : .plus, exponent: int(-30...40), significand: significand)
      return value
    case 4, 5: return Double(int(-100_000...100_000))  // whole reals: `3`
    case 6: return [0.1, 0.15, 0.2, 0.25, 0.5, 0.75, 1.5, 2.75, 0.3, 0.7, 99.9][int(0...10)]
    case 7: return Double(int(0...1_000_000)) / Double([3, 7, 10, 100, 1000][int(0...4)])
    case 8:
      // 1e17 and up, whole.
      return Double(Int64.random(in: -(1 << 62)...(1 << 62), using: &random)) * 100
    case 9:
      return [0, -0.0, .nan, .infinity, -.infinity, .leastNonzeroMagnitude, 1e-300, 1e300][
        int(0...7)]
    case 10: return Double(bitPattern: random.next())  // anything, subnormals included
    default: return Double(int(1...1_000_000)) * 1e-9
    }
  }

  mutating func date() -> Date {
    var seconds = Double(int(-3_000_000_000...3_000_000_000))
    switch int(0...9) {
    case 0: seconds = [-63_114_076_800, 63_113_904_000, 0, -1, 1, 978_307_200][int(0...5)]
    case 1, 2, 3:
      // A fraction of a second, as CFAbsoluteTimeGetCurrent() stores one (microseconds and
      // below), before 2001 too.
      if lenient { seconds += Double(random.next() >> 11) / Double(UInt64(1) << 53) }
    case 4:
      if lenient {
        seconds = Double(
          [-320_000_000_000, 320_000_000_000, -63_177_148_800, 999_999_999_999_999][int(0...3)])
      }
    default: break
    }
    return Date(timeIntervalSinceReferenceDate: seconds)
  }

  mutating func data() -> Data {
    let length = chance(10) ? 0 : chance(20) ? 57 * int(1...4) : int(1...300)
    return Data((0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) })
  }

  /// A document whose binary bytes CoreFoundation's writer gives as a function of the value:
  /// arrays and one-key dictionaries only, every string, date and data different, at most one
  /// `true` and one `false` (numbers may repeat: CoreFoundation's reader shares one object for
  /// one number, and its writer then uniques it as prefs does). Some are sized at the edges of
  /// the trailer's widths: 255 to 257 objects (1- or 2-byte references), an offset table just
  /// before or after byte 256 or 65,536.
  mutating func binaryComparable(index: Int) -> PlistValue {
    lenient = false
    var serial = 0
    var usedTrue = false
    var usedFalse = false
    var budget = 60
    func unique(_ generator: inout PreferenceFileGenerator, depth: Int) -> PlistValue {
      serial += 1
      budget -= 1
      switch generator.int(0...8) {
      case 0: return .string("s\(serial) " + generator.text(length: generator.int(0...40)))
      case 1:
        let seconds = Double(serial * 1000 + generator.int(0...999))
        return .date(Date(timeIntervalSinceReferenceDate: seconds))
      case 2:
        var bytes = generator.data()
        // The serial's eight bytes, least significant first: each data value is distinct.
        bytes.append(contentsOf: (0..<8).map { UInt8(truncatingIfNeeded: serial >> (8 * $0)) })
        return .data(bytes)
      case 3: return generator.integer()
      case 4: return .real(generator.real())
      case 5:
        let b = generator.chance(50)
        if b ? usedTrue : usedFalse { return .integer(Int64(serial)) }
        if b { usedTrue = true } else { usedFalse = true }
        return .bool(b)
      case 6 where depth < 10 && budget > 0:
        return .array((0..<generator.int(0...6)).map { _ in unique(&generator, depth: depth + 1) })
      case 7 where depth < 10 && budget > 0:
        return .dictionary(["k\(serial)": unique(&generator, depth: depth + 1)])
      default: return .string("t\(serial)")
      }
    }
    switch index % 8 {
    case 0, 1, 2:
      // 1 + (254 + index % 8) objects: the array and its strings.
      return .array((0..<(254 + index % 8)).map { .string("string \($0)") })
    case 3:
      // Data of a size that puts the offset table around byte 256 or 65,536.
      let size = [230, 240, 250, 65_500, 65_520, 65_540][int(0...5)]
      return .array([.data(Data(count: size)), .string("after")])
    default:
      return .array((0..<int(1...20)).map { _ in unique(&self, depth: 1) })
    }
  }
}
