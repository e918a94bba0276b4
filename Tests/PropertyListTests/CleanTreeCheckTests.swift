import Foundation
import Testing

@testable import PropertyList

/// `lint`'s quick check of the usual binary file (``BinaryPlistReader/isCleanTree(_:limits:rules:)``):
/// it says "clean" only where the full read reads the file without an error or a warning, and
/// it says it for the files most domains are. Everything else goes the longer way (the
/// streaming walk, then the full read), whose answers are the full read's; the contract over
/// every fixture, generated document and hostile file is `StreamConversionTests.compareCheck`.
@Suite struct CleanTreeCheckTests {
  static func quick(_ data: Data, limits: PlistLimits = .default) -> Bool {
    ByteView.with(data) { BinaryMemoryReader.isCleanTree($0, limits: limits, rules: .tools) }
  }

  static func fullReadIsClean(_ data: Data, limits: PlistLimits = .default) -> Bool {
    (try? PropertyList.read(data, limits: limits).warnings.isEmpty) ?? false
  }

  /// The usual files, written by Foundation (the reference writer: keys in its hash order)
  /// and by prefs (keys sorted): the quick check decides them.
  @Test func theUsualFilesAreDecidedByTheQuickCheck() throws {
    let domain: [String: Any] = [
      "name": "Ada", "size": 5, "ratio": 0.25, "small": Float(0.5), "on": true, "off": false,
      "when": Date(timeIntervalSinceReferenceDate: 1_000), "blob": Data([0, 1, 2]),
      "list": ["a", 1, [2, 3], ["k": "v"]], "nested": ["a": ["b": ["c": -1]]],
      "big": Int64.max, "negative": Int64.min, "empty": "", "nothing": [String](),
      String(repeating: "long key ", count: 10): String(repeating: "long value ", count: 40),
    ]
    let foundation = try PropertyListSerialization.data(
      fromPropertyList: domain, format: .binary, options: 0)
    let prefs = try PropertyList.write(try PropertyList.read(foundation).value, as: .binary)
    for data in [foundation, prefs] {
      #expect(Self.quick(data))
      #expect(Self.fullReadIsClean(data))
    }
  }

  /// Files outside its scope: left to the longer way (never called clean by the quick check),
  /// which still finds the clean ones clean.
  @Test(arguments: ["a UTF-16 string", "a UTF-16 key", "a 16-byte integer"])
  func outsideItsScope(label: String) throws {
    let domain: [String: Any] =
      switch label {
      case "a UTF-16 string": ["k": "é"]
      case "a UTF-16 key": ["é": 1]
      default: ["k": UInt64.max]
      }
    let data = try PropertyListSerialization.data(
      fromPropertyList: domain, format: .binary, options: 0)
    #expect(!Self.quick(data), "\(label)")
    #expect(PropertyList.isCleanBinary(data) == Self.fullReadIsClean(data), "\(label)")
  }

  /// A shared container, a set, a UID and a cycle, built by hand.
  @Test func sharedSetsUIDsAndCyclesGoTheLongerWay() {
    let shared = HostileInputTests.bplist(objects: [
      StreamConversionTests.container(0xA, [1, 1]), StreamConversionTests.container(0xA, [2]),
      StreamConversionTests.ascii("x"),
    ])
    let set = HostileInputTests.bplist(objects: [
      StreamConversionTests.container(0xC, [1]), StreamConversionTests.ascii("x"),
    ])
    let uid = HostileInputTests.bplist(objects: [
      StreamConversionTests.container(0xA, [1]), [0x80, 0x05],
    ])
    let cycle = HostileInputTests.bplist(objects: [
      StreamConversionTests.container(0xA, [1]), StreamConversionTests.container(0xA, [0]),
    ])
    for (label, data) in [
      ("shared", shared), ("set", set), ("uid", uid), ("cycle", cycle),
    ] {
      #expect(!Self.quick(data), "\(label)")
      #expect(PropertyList.isCleanBinary(data) == Self.fullReadIsClean(data), "\(label)")
    }
  }

  /// Keys in any order, each checked against the others by its bytes: a key there twice (in
  /// or out of order, next to it or far from it) is the full read's to report.
  @Test func keysInAnyOrderAreDistinctOrLeftToTheFullRead() {
    // (At most 14 keys: the hand-made dictionary holds its count in the marker.)
    let distinct = (0..<13).map { "key.\(($0 * 5) % 13)" }
    let cases: [(String, [String], Bool)] = [
      ("sorted", distinct.sorted(), true), ("unsorted", distinct, true),
      ("a repeat far away", distinct + ["key.3"], false),
      ("a repeat next to it", ["b", "a", "a"], false),
      ("in order but repeated", ["a", "a", "b"], false),
    ]
    for (label, keys, clean) in cases {
      let data = StreamConversionTests.unsortedDictionary(keys)
      #expect(Self.fullReadIsClean(data) == clean, "\(label)")
      #expect(Self.quick(data) == clean, "\(label)")
      #expect(PropertyList.isCleanBinary(data) == clean, "\(label)")
    }
  }

  /// The limits are the full read's: a document past the value limit, the amplification
  /// bound or the depth limit is never clean, however its objects look.
  @Test func theLimitsAreTheFullReads() throws {
    var d = PlistDictionary()
    for i in 0..<200 { d["k\(i)"] = .array([.string(String(repeating: "x", count: 50))]) }
    let data = try PropertyList.write(.dictionary(d), as: .binary)
    #expect(Self.quick(data))
    for limits in [
      PlistLimits(maxObjects: 300), PlistLimits(maxDepth: 1),
      PlistLimits(maxAmplification: 1, amplificationThreshold: 100),
    ] {
      #expect(!Self.fullReadIsClean(data, limits: limits))
      #expect(!Self.quick(data, limits: limits))
    }
  }
}
