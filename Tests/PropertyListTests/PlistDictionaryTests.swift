import Foundation
import PropertyList
import TestSupport
import Testing

/// `PlistDictionary`: document order, keys by their bytes, and a `Dictionary`'s behaviour for
/// everything else (the standard library's `Dictionary` is the model the operations are
/// checked against).
@Suite struct PlistDictionaryTests {
  /// A seeded sequence of sets, overwrites and removals, checked after each step against a
  /// Swift dictionary (same keys and values) and an array of keys (the order: first set
  /// position, kept by overwrites, closed up by removals). Sizes cross the in-place limit.
  @Test(arguments: [5, 40, 3_000])
  func behavesAsADictionaryThatKeepsOrder(keyCount: Int) {
    var generator = SeededGenerator(seed: UInt64(keyCount))
    var ours = PlistDictionary()
    var model: [String: PlistValue] = [:]
    var order: [String] = []
    for step in 0..<(keyCount * 4) {
      let key = "k\(Int.random(in: 0..<keyCount, using: &generator))"
      if Int.random(in: 0..<4, using: &generator) == 0 {
        #expect(ours.removeValue(forKey: key) == model.removeValue(forKey: key))
        order.removeAll { $0 == key }
      } else {
        let value = PlistValue.integer(Int64(step))
        if model.updateValue(value, forKey: key) == nil { order.append(key) }
        ours[key] = value
      }
    }
    #expect(ours.keys == order)
    #expect(ours.count == model.count)
    #expect(ours.swiftDictionary == model)
    for key in order { #expect(ours[key] == model[key]) }
    #expect(ours["absent"] == nil)
    #expect(ours == PlistDictionary(model))
  }

  /// An index made ahead for a known count holds the first keys too (readers reserve the
  /// count they read from the file).
  @Test(arguments: [1, 12, 13, 200])
  func aReservedDictionaryFindsEveryKey(count: Int) {
    var d = PlistDictionary(minimumCapacity: count)
    for i in 0..<count { d["key\(i)"] = .int(i) }
    for i in 0..<count { #expect(d["key\(i)"] == .int(i)) }
    #expect(d["key\(count)"] == nil)
  }

  /// Large enough that a slot of the index keeps few bits of the hash (100,000 keys: 17 bits of
  /// position, 15 of hash; 200,000: 18 and 14), grown from empty and from a reserved count:
  /// every key found at its position, keys one character off not found, removals closed up.
  /// (Checked against the keys' own positions: the standard library is the model elsewhere.)
  @Test(arguments: [false, true])
  func aLargeDictionaryFindsEveryKeyAndNoOther(reserved: Bool) {
    let count = 140_000
    var d = reserved ? PlistDictionary(minimumCapacity: count) : PlistDictionary()
    for i in 0..<count { d["key.\(i)"] = .int(i) }
    var misplaced = 0
    var found = 0
    for i in 0..<count where d.index(forKey: "key.\(i)") != i { misplaced += 1 }
    for i in 0..<count where d["key:\(i)"] != nil || d["key.\(i) "] != nil { found += 1 }
    #expect(misplaced == 0)
    #expect(found == 0)
    #expect(d.count == count)
    // Every 7,000th key removed (each removal rebuilds the index): the rest keep their order
    // and are still found.
    for i in stride(from: 0, to: count, by: 7_000) { d.removeValue(forKey: "key.\(i)") }
    var lost = 0
    for i in 0..<count where (d["key.\(i)"] == nil) != i.isMultiple(of: 7_000) { lost += 1 }
    #expect(lost == 0)
    #expect(d.count == count - 20)
    #expect(d.keys.first == "key.1")
    #expect(d.index(forKey: "key.7001") == 6_999)
  }

  @Test func keysDifferingOnlyInNormalizationAreTwoKeys() {
    var d = PlistDictionary()
    d["\u{E9}"] = 1
    d["e\u{301}"] = 2
    d["K"] = 3
    d["\u{212A}"] = 4
    #expect(d.count == 4)
    #expect(d["\u{E9}"] == 1 && d["e\u{301}"] == 2 && d["K"] == 3 && d["\u{212A}"] == 4)
    #expect(d.indistinctKeys.map { [$0.0, $0.1] } == ["\u{E9}", "e\u{301}"])
    // A Swift dictionary merges them, as the `swiftDictionary` documentation says.
    #expect(d.swiftDictionary.count == 2)
  }

  /// XML's key order is CoreFoundation's, `CFStringCompare` without options: the keys'
  /// UTF-16 code units (Swift's `utf16` view is the reference), which differs from their bytes
  /// where characters U+E000...U+FFFF meet characters above U+FFFF. Keys given sorted by
  /// their bytes (the fast path) and shuffled (the sort) come out the same.
  @Test(arguments: [false, true])
  func xmlKeysAreInUTF16Order(shuffled: Bool) throws {
    var generator = SeededGenerator(seed: 11)
    let pieces = [
      "a", "Z", "é", "\u{E000}", "\u{FFFD}", "\u{FF21}", "\u{1F600}", "\u{10000}", "日", "",
    ]
    var keys = Set<String>()
    while keys.count < 300 {
      keys.insert(
        (0..<Int.random(in: 1...4, using: &generator)).map { _ in
          pieces[Int.random(in: 0..<pieces.count, using: &generator)]
        }.joined())
    }
    var given = keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    if shuffled { given.shuffle(using: &generator) }
    let dictionary = PlistDictionary(given.map { ($0, PlistValue.integer(1)) })
    let xml = String(
      decoding: try PropertyList.write(.dictionary(dictionary), as: .xml), as: UTF8.self)
    let written = xml.components(separatedBy: "<key>").dropFirst().map {
      String($0[..<($0.range(of: "</key>")?.lowerBound ?? $0.endIndex)])
    }
    #expect(written == keys.sorted { $0.utf16.lexicographicallyPrecedes($1.utf16) })
    #expect(written != keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
  }

  @Test func aCopyIsNotChangedByTheOriginal() {
    var a: PlistDictionary = ["x": 1, "y": 2]
    let b = a
    a["x"] = 10
    a["z"] = 3
    #expect(b == ["x": 1, "y": 2])
    #expect(a.keys == ["x", "y", "z"])
  }

  @Test func equalityAndHashingIgnoreOrder() {
    let a: PlistDictionary = ["x": 1, "y": ["z": true]]
    let b: PlistDictionary = ["y": ["z": true], "x": 1]
    #expect(a == b)
    #expect(a.hashValue == b.hashValue)
    #expect(Set([PlistValue.dictionary(a), .dictionary(b)]).count == 1)
    #expect(a != ["x": 1])
  }

  @Test func literalsAndIteration() {
    let d: PlistDictionary = ["b": 1, "a": 2, "b": 3]
    #expect(d.keys == ["b", "a"])
    #expect(d["b"] == 3)
    var seen: [String] = []
    for (key, _) in d { seen.append(key) }
    #expect(seen == ["b", "a"])
    #expect(d.sortedByKey.map(\.key) == ["a", "b"])
  }

  /// The file's order is kept on reading (plistlib writes keys unsorted with
  /// `sort_keys=False`, and python's dict keeps the file's order); writers sort by bytes, as
  /// plistlib's default does.
  @Test(
    .enabled(if: Tools.python || External.required, "needs python3 (plistlib writes the files)"),
    arguments: ["FMT_XML", "FMT_BINARY"])
  func readersKeepTheFilesOrderAndWritersSort(format: String) throws {
    let folder = try TemporaryFolder()
    let file = folder.file("unsorted.plist")
    let python = try #require(External.which("python3"))
    let keys = (0..<40).map { "key\(($0 * 7) % 40)" }
    let script = """
      import plistlib, sys
      keys = sys.argv[2].split(",")
      d = {k: i for i, k in enumerate(keys)}
      plistlib.dump(d, open(sys.argv[1], "wb"), fmt=plistlib.\(format), sort_keys=False)
      """
    let made = try External.run(python, ["-c", script, file.path, keys.joined(separator: ",")])
    #expect(made.status == 0, "\(made.stderr)")
    let value = try PropertyList.read(Data(contentsOf: file)).value
    let dictionary = try #require(value.dictionaryValue)
    #expect(dictionary.keys == keys)
    #expect(!dictionary.isSortedByKey)

    let written = folder.file("written.plist")
    try PropertyList.write(value, as: format == "FMT_XML" ? .xml : .binary).write(to: written)
    let order = try External.run(
      python,
      [
        "-c", "import plistlib, sys; print(','.join(plistlib.load(open(sys.argv[1], 'rb'))))",
        written.path,
      ])
    #expect(order.output == keys.sorted().joined(separator: ",") + "\n", "\(order.stderr)")
  }
}

/// A small deterministic generator (SplitMix64), so a failing sequence can be replayed.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
