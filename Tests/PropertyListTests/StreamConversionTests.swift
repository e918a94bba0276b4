import Foundation
import Testing

@testable import PropertyList

/// The streaming conversion of a binary property list against the full path
/// (`PropertyList.read`, then the writer): the same bytes, or the full path fails or warns
/// and the stream leaves it to it. The expected bytes are the full path's; for XML the
/// full path is itself checked against the toolchain's plutil (PlutilOracleTests,
/// CoreFoundationWriterTests).
@Suite struct StreamConversionTests {
  /// What the converter writes: a property-list format (XML with its write options), or JSON.
  enum Target: Equatable, CustomStringConvertible {
    case plist(PlistFormat, xml: XMLWriteOptions = .strict)
    case json(lossless: Bool)

    static let xml = Target.plist(.xml)

    /// The stream, with why it stopped.
    func stream(_ data: Data, truncating: Bool = false, limits: PlistLimits = .default)
      -> Result<Data, StreamStop>
    {
      switch self {
      case .plist(let format, let options):
        PropertyList.streamResult(
          data, as: format, xml: options, truncatingDates: truncating, limits: limits)
      case .json(let lossless):
        PropertyList.streamResultJSON(data, lossless: lossless, limits: limits)
      }
    }

    var description: String {
      switch self {
      case .plist(let format, let options):
        options == .strict ? "\(format)" : "\(format) \(options)"
      case .json(let lossless): lossless ? "JSON" : "display JSON"
      }
    }
  }

  /// Every target the converter writes, with and without `--truncate-dates`: each format a
  /// binary file streams into (by its witness), XML also as CoreFoundation writes it, JSON
  /// either way.
  static let targets: [(Target, truncating: Bool)] = {
    var targets: [(Target, truncating: Bool)] = []
    for format in PlistFormat.allCases where streams(into: format) {
      targets.append((.plist(format), false))
      if format.holdsDatesToTheSecond { targets.append((.plist(format), true)) }
    }
    return targets + [
      (.plist(.xml, xml: .coreFoundation), false), (.json(lossless: true), false),
      (.json(lossless: false), false),
    ]
  }()

  /// Whether a binary file streams into `format` (its witness has a sink).
  static func streams(into format: PlistFormat) -> Bool {
    format.witness.streamSink(PlistWriteOptions(maxDepth: 512, xml: .strict), inputCount: 0) != nil
  }

  /// The repository's root.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// Dates floored to the second, as `DomainFile.storable` gives them to a text writer.
  static func floored(_ value: PlistValue) -> PlistValue {
    switch value {
    case .date(let d):
      .date(Date(timeIntervalSinceReferenceDate: d.timeIntervalSinceReferenceDate.rounded(.down)))
    case .array(let a): .array(a.map(floored))
    case .dictionary(let d): .dictionary(d.mapValues(floored))
    default: value
    }
  }

  /// The full path: read, then write; and whether the read warned.
  static func fullPath(
    _ data: Data, _ target: Target, truncating: Bool, limits: PlistLimits = .default
  ) -> (Result<Data, PlistError>, warned: Bool) {
    let document: PlistDocument
    do {
      document = try PropertyList.read(data, limits: limits)
    } catch {
      return (.failure(error), false)
    }
    var value = document.value
    do {
      switch target {
      case .plist(let format, let options):
        if truncating, format.holdsDatesToTheSecond { value = floored(value) }
        return (
          .success(try PropertyList.write(value, as: format, xml: options)),
          !document.warnings.isEmpty
        )
      case .json(let lossless):
        return (
          .success(Data(try PropertyList.json(value, lossless: lossless).utf8)),
          !document.warnings.isEmpty
        )
      }
    } catch {
      return (.failure(error), !document.warnings.isEmpty)
    }
  }

  /// What the stream did against the full path.
  enum Outcome: Equatable {
    /// The same bytes.
    case same
    /// Both stopped: the stream failed or left it to the full path, which failed or warned.
    case bothStopped
    /// The stream left a case the full path writes cleanly to it.
    case leftToFullPath
  }

  /// Compares the stream with the full path for one target; records an issue when they
  /// disagree.
  @discardableResult
  static func compare(
    _ data: Data, _ format: Target, truncating: Bool, label: String,
    limits: PlistLimits = .default, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) -> Outcome {
    let (full, warned) = fullPath(data, format, truncating: truncating, limits: limits)
    let stream = format.stream(data, truncating: truncating, limits: limits)
    switch (stream, full) {
    case (.success(let bytes), .success(let expected)):
      if bytes != expected {
        let got = String(decoding: bytes.prefix(600), as: UTF8.self)
        let want = String(decoding: expected.prefix(600), as: UTF8.self)
        Issue.record(
          "\(label) \(format): stream differs from the full path:\n\(got)\n--- full path:\n\(want)",
          sourceLocation: sourceLocation)
      }
      if warned {
        Issue.record(
          "\(label) \(format): stream wrote what the full path warns about",
          sourceLocation: sourceLocation)
      }
      return .same
    case (.success, .failure(let error)):
      Issue.record(
        "\(label) \(format): stream wrote, the full path fails: \(error)",
        sourceLocation: sourceLocation)
      return .same
    case (.failure(.failed(let error)), .success):
      if !warned {
        Issue.record(
          "\(label) \(format): stream fails (\(error)), the full path writes",
          sourceLocation: sourceLocation)
      }
      return warned ? .bothStopped : .leftToFullPath
    case (.failure(.undecided), .success):
      return warned ? .bothStopped : .leftToFullPath
    case (.failure, .failure):
      return .bothStopped
    }
  }

  /// Every input file in the repository's fixture folders, the legacy samples and the fuzz
  /// seeds.
  static func fixtureFiles() -> [URL] {
    var folders = [
      root.appendingPathComponent("Legacy"), root.appendingPathComponent("Fuzz/Seeds"),
    ]
    let tests = root.appendingPathComponent("Tests")
    for name in (try? FileManager.default.contentsOfDirectory(atPath: tests.path)) ?? [] {
      folders.append(tests.appendingPathComponent(name).appendingPathComponent("Fixtures"))
    }
    var files: [URL] = []
    for folder in folders {
      guard let walker = FileManager.default.enumerator(atPath: folder.path) else { continue }
      for case let relative as String in walker {
        let url = folder.appendingPathComponent(relative)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder),
          !isFolder.boolValue
        {
          files.append(url)
        }
      }
    }
    return files.sorted { $0.path < $1.path }
  }

  @Test func everyFixtureAndItsBinaryForm() throws {
    let files = Self.fixtureFiles()
    #expect(files.count > 150, "found \(files.count) fixture files")
    var binaries = 0
    var same = 0
    for url in files {
      let data = try Data(contentsOf: url)
      var inputs: [(Data, String)] = []
      if data.starts(with: BinaryPlist.magic) {
        inputs.append((data, url.lastPathComponent))
      }
      // A text fixture that reads: its binary form (the binary writer's, keys sorted by bytes,
      // scalars uniqued) goes through the stream too.
      if let document = try? PropertyList.read(data),
        let binary = try? PropertyList.write(document.value, as: .binary)
      {
        inputs.append((binary, url.lastPathComponent + " as binary"))
      }
      for (input, label) in inputs {
        binaries += 1
        for (format, truncating) in Self.targets
        where Self.compare(input, format, truncating: truncating, label: label) == .same {
          same += 1
        }
        Self.compareCheck(input, label: label)
      }
    }
    #expect(binaries > 100, "\(binaries) binary inputs")
    #expect(same > binaries * 2, "\(same) streamed conversions of \(binaries) inputs")
  }

  /// `lint`'s walk: clean exactly when the full read is (or it leaves it to the full read).
  static func compareCheck(
    _ data: Data, label: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    let stop = PropertyList.checkResult(data)
    let clean: Bool
    do {
      clean = try PropertyList.read(data).warnings.isEmpty
    } catch {
      clean = false
    }
    if stop == nil, !clean {
      Issue.record(
        "\(label): lint's walk passes what the full read refuses or warns about",
        sourceLocation: sourceLocation)
    }
    if case .failed(let error)? = stop, clean {
      Issue.record(
        "\(label): lint's walk refuses (\(error)) what the full read reads",
        sourceLocation: sourceLocation)
    }
  }

  // MARK: - Generated documents

  /// Keys whose orders differ: bytes against UTF-16 (U+E000 and U+FFFD against emoji), and
  /// ones XML escapes.
  static let keyPool = [
    "z", "é", "e", "a", "A", "Z", "😀", "\u{E000}", "\u{FFFD}", "key<&>", "ö", "setting.10",
    "setting.9", "", "with space", "tab\tkey", "日本", "a\"b", "back\\slash",
  ]

  static func randomScalar(_ rng: inout some RandomNumberGenerator) -> PlistValue {
    switch Int.random(in: 0..<10, using: &rng) {
    case 0: .string(keyPool.randomElement(using: &rng) ?? "")
    case 1: .string(String(repeating: "long text ", count: Int.random(in: 1...20, using: &rng)))
    case 2: .integer(Int64.random(in: .min ... .max, using: &rng))
    case 3: .integer(Int64.random(in: -300...300, using: &rng))
    case 4: .unsignedInteger(UInt64.max - UInt64.random(in: 0...5, using: &rng))
    case 5:
      .real(
        [0.1, 1.0 / 3, -2.5e300, 5e-324, 0, 1e16, 123_456.789][Int.random(in: 0..<7, using: &rng)])
    case 6: .bool(Bool.random(using: &rng))
    case 7:
      .date(
        Date(
          timeIntervalSinceReferenceDate: [0, 1.5, -86_400.25, 700_000_000][
            Int.random(in: 0..<4, using: &rng)]))
    case 8: .data(Data((0..<Int.random(in: 0...100, using: &rng)).map { UInt8($0 & 0xFF) }))
    default: .string("ascii \(Int.random(in: 0...1000, using: &rng))")
    }
  }

  static func randomValue(_ rng: inout some RandomNumberGenerator, depth: Int) -> PlistValue {
    guard depth < 5, Int.random(in: 0..<3, using: &rng) > 0 else { return randomScalar(&rng) }
    if Bool.random(using: &rng) {
      return .array(
        (0..<Int.random(in: 0...6, using: &rng)).map { _ in randomValue(&rng, depth: depth + 1) })
    }
    var d = PlistDictionary()
    for _ in 0..<Int.random(in: 0...8, using: &rng) {
      d[keyPool.randomElement(using: &rng) ?? "k"] = randomValue(&rng, depth: depth + 1)
    }
    return .dictionary(d)
  }

  @Test func generatedDocumentsThroughTheBinaryWriter() throws {
    var rng = SeededGenerator(seed: 26)
    var same = 0
    for n in 0..<300 {
      let value = Self.randomValue(&rng, depth: 0)
      let data = try PropertyList.write(value, as: .binary)
      for (format, truncating) in Self.targets
      where Self.compare(data, format, truncating: truncating, label: "generated \(n)") == .same {
        same += 1
      }
      Self.compareCheck(data, label: "generated \(n)")
    }
    #expect(same > 600)
  }

  // MARK: - Hand-made files: unsorted keys, sharing, refusals

  static func ascii(_ s: String) -> [UInt8] {
    let bytes = Array(s.utf8)
    return bytes.count < 15
      ? [0x50 | UInt8(bytes.count)] + bytes : [0x5F, 0x10, UInt8(bytes.count)] + bytes
  }

  static func utf16(_ s: String) -> [UInt8] {
    let units = Array(s.utf16)
    return [0x60 | UInt8(units.count)] + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
  }

  static func string(_ s: String) -> [UInt8] {
    s.utf8.allSatisfy { $0 < 0x80 } ? ascii(s) : utf16(s)
  }

  static func container(_ high: UInt8, _ refs: [Int]) -> [UInt8] {
    let count = high == 0xD ? refs.count / 2 : refs.count
    return [high << 4 | UInt8(count)] + refs.map { UInt8($0) }
  }

  /// A dictionary of `keys` in the given order (not sorted) with integer values, at the top.
  static func unsortedDictionary(_ keys: [String], shared: Bool = false) -> Data {
    var objects: [[UInt8]] = [[]]
    var keyRefs: [Int] = []
    var valueRefs: [Int] = []
    for key in keys {
      keyRefs.append(objects.count)
      objects.append(string(key))
    }
    // Values: integers, or one shared array used by every key.
    if shared {
      let leaf = objects.count
      objects.append(ascii("shared leaf"))
      let array = objects.count
      objects.append(container(0xA, [leaf, leaf]))
      valueRefs = keys.map { _ in array }
    } else {
      for n in keys.indices {
        valueRefs.append(objects.count)
        objects.append([0x10, UInt8(n)])
      }
    }
    objects[0] = container(0xD, keyRefs + valueRefs)
    return HostileInputTests.bplist(objects: objects)
  }

  /// Keys that differ late (the in-place walk compares eight bytes at a time and the last
  /// eight of a key again): two keys of every length to 40 differing at every position, in
  /// order and out of it, checked and converted as the full path orders them.
  @Test func keysThatDifferLateAreOrderedAsTheFullPathOrdersThem() {
    for length in 1...40 {
      let base = String((0..<length).map { Character(Unicode.Scalar(UInt8(0x61 + $0 % 26))) })
      for position in 0..<length {
        var other = Array(base.utf8)
        other[position] += 1
        let pair = [base, String(decoding: other, as: UTF8.self)]
        for keys in [pair, pair.reversed(), [pair[1], base + "x", base]] {
          let data = Self.unsortedDictionary(keys)
          Self.compare(data, Self.targets[0].0, truncating: false, label: "\(keys)")
          Self.compareCheck(data, label: "\(keys)")
        }
      }
    }
  }

  @Test(arguments: [
    ["z", "é", "a"], ["😀", "\u{E000}", "z"], ["\u{FFFD}", "😀"], ["b", "a", "c", "B"],
    ["setting.9", "setting.10", "setting.1"], ["é", "e\u{301}"], ["a", "b", "a"],
    ["K", "\u{212A}"],
    ["CF$UID"], ["z", "y", "x", "w", "v", "u", "t", "s", "r", "q", "p", "o", "n", "m"],
  ])
  func unsortedKeys(keys: [String]) {
    for shared in [false, true] {
      let data = Self.unsortedDictionary(keys, shared: shared)
      for (format, truncating) in Self.targets {
        Self.compare(data, format, truncating: truncating, label: "\(keys)")
      }
      Self.compareCheck(data, label: "\(keys)")
    }
  }

  @Test func keysInUTF16OrderAreStreamedInIt() throws {
    // U+E000 sorts before 😀 by bytes, after it by UTF-16 code units (XML's order).
    let data = Self.unsortedDictionary(["😀", "\u{E000}", "z", "é"])
    let xml = try Target.xml.stream(data).get()
    let text = String(decoding: xml, as: UTF8.self)
    let positions = ["z", "é", "😀", "\u{E000}"].map {
      text.range(of: "<key>\($0)</key>")?.lowerBound
    }
    #expect(positions.allSatisfy { $0 != nil })
    #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
    let json = String(
      decoding: try Target.json(lossless: true).stream(data).get(), as: UTF8.self)
    let jsonPositions = ["z", "é", "\u{E000}", "😀"].compactMap {
      json.range(of: "\"\($0)\"")?.lowerBound
    }
    #expect(jsonPositions.count == 4 && jsonPositions == jsonPositions.sorted())
  }

  @Test func refusalsAreTheFullPaths() {
    // A cycle, the same key twice, a set, a non-string key, an amplification, too deep.
    let selfArray = HostileInputTests.bplist(objects: [Self.container(0xA, [0])])
    let pair = HostileInputTests.bplist(objects: [
      Self.container(0xA, [1]), Self.container(0xA, [0]),
    ])
    let selfDict = HostileInputTests.bplist(objects: [
      Self.container(0xD, [1, 0]), Self.ascii("k"),
    ])
    let set = HostileInputTests.bplist(objects: [Self.container(0xC, [1]), Self.ascii("x")])
    let intKey = HostileInputTests.bplist(objects: [
      Self.container(0xD, [1, 2]), [0x10, 5], Self.ascii("v"),
    ])
    var laughs: [[UInt8]] = (0..<60).map { Self.container(0xA, [$0 + 1, $0 + 1]) }
    laughs.append(Self.ascii("x"))
    let amplified = HostileInputTests.bplist(objects: laughs)
    let deepData: Data = {
      // 600 nested arrays need 2-byte references: built by the binary writer's own rules.
      var value = PlistValue.array([])
      for _ in 0..<600 { value = .array([value]) }
      return (try? PropertyList.write(value, as: .binary, maxDepth: 1000)) ?? Data()
    }()
    let cases: [(Data, String)] = [
      (selfArray, "self array"), (pair, "two arrays"), (selfDict, "self dict"), (set, "set"),
      (intKey, "integer key"), (amplified, "billion laughs"), (deepData, "601 levels"),
    ]
    for (data, label) in cases {
      for (format, truncating) in Self.targets {
        let outcome = Self.compare(data, format, truncating: truncating, label: label)
        #expect(outcome == .bothStopped, "\(label) \(format)")
      }
      Self.compareCheck(data, label: label)
      #expect(PropertyList.checkResult(data) != nil, "\(label)")
    }
    // Where it can, the stream names the full read's own error.
    for (data, label) in [(selfArray, "self"), (pair, "pair"), (selfDict, "dict")] {
      guard
        case .failure(.failed(.cycle)) = Target.xml.stream(data)
      else {
        Issue.record("\(label): not a cycle")
        continue
      }
    }
    guard
      case .failure(.failed(.limitExceeded(_, _, .amplification))) = Target.xml.stream(amplified)
    else {
      Issue.record("laughs: not the amplification bound")
      return
    }
    guard
      case .failure(.failed(.limitExceeded(_, _, .depth(512)))) = Target.json(lossless: true)
        .stream(deepData)
    else {
      Issue.record("601 levels: not the depth limit")
      return
    }
  }

  @Test func limitsAreTheReadersLimits() throws {
    // 16 levels of sharing: 65,536 leaves. Fine by default, past a lower value limit.
    var objects: [[UInt8]] = (0..<16).map { Self.container(0xA, [$0 + 1, $0 + 1]) }
    objects.append(Self.ascii("x"))
    let data = HostileInputTests.bplist(objects: objects)
    #expect(
      Self.compare(data, Target.xml, truncating: false, label: "laughs 16") == .same)
    let tight = PlistLimits(maxObjects: 100_000)
    #expect(
      Self.compare(
        data, Target.xml, truncating: false, label: "laughs 16", limits: tight)
        == .bothStopped)
    let shallow = PlistLimits(maxDepth: 10)
    #expect(
      Self.compare(
        data, Target.xml, truncating: false, label: "laughs 16", limits: shallow)
        == .bothStopped)
  }

  @Test func theBenchDomainStreams() throws {
    // prefs-bench's mixed domain, smaller: every kind of value of it, and the same bytes.
    var d = PlistDictionary()
    for i in 0..<3000 {
      let key = "setting.\(i)"
      switch i % 6 {
      case 0: d[key] = .integer(Int64(i) * 7919)
      case 1: d[key] = .string("value \(i)")
      case 2: d[key] = .real(Double(i) / 3)
      case 3: d[key] = .bool(i % 4 == 0)
      case 4: d[key] = .date(Date(timeIntervalSinceReferenceDate: Double(i) * 60))
      default: d[key] = .array([.string("a\(i)"), .integer(Int64(i))])
      }
    }
    let data = try PropertyList.write(.dictionary(d), as: .binary)
    // (OpenStep text holds no numbers, lossless JSON no dates: both refuse the domain.)
    for (format, truncating) in Self.targets
    where format != .plist(.openStep) && format != .json(lossless: true) {
      #expect(Self.compare(data, format, truncating: truncating, label: "bench") == .same)
    }
    #expect(PropertyList.isCleanBinary(data))
  }
}
