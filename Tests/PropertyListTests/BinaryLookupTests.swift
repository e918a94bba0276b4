import Foundation
import PropertyList
import TestSupport
import Testing

/// The single-key read of a binary file (`prefs read FILE KEY`) answers exactly what the full
/// read answers, or says that only the full read can.
@Suite struct BinaryLookupTests {
  /// Every binary fixture: where the full read gives a dictionary without warnings, each key
  /// is found with the same value and an absent key is absent; where it warns, the lookup
  /// declines. No file may crash or hang it.
  @Test func agreesWithTheFullReadOnEveryBinaryFixture() throws {
    let folders = [
      Fixtures.hostile, Fixtures.hostileOK,
      Fixtures.root.appendingPathComponent("fuzz-regressions"),
    ]
    var compared = 0
    var declined = 0
    for folder in folders {
      for name in Fixtures.files(in: folder) {
        let data = try Data(contentsOf: folder.appendingPathComponent(name))
        guard data.starts(with: Array("bplist00".utf8)) else { continue }
        let full = Result { () throws(PlistError) in try PropertyList.read(data) }
        switch full {
        case .success(let document):
          guard case .dictionary(let d) = document.value else { continue }
          guard document.warnings.isEmpty else {
            // The full read warned (a repeated key, a set, a key that is not a string): only
            // it reports that, so the lookup must decline.
            let key = d.keys.sorted().first ?? "a"
            #expect(PropertyList.binaryValue(forKey: key, in: data) == .undecided, "\(name)")
            declined += 1
            continue
          }
          for key in d.keys.sorted().prefix(64) {
            let found = PropertyList.binaryValue(forKey: key, in: data)
            #expect(found == .found(d[key] ?? .bool(false)), "\(name): \(key)")
            compared += 1
          }
          #expect(
            PropertyList.binaryValue(forKey: "no such key \u{1}", in: data) == .absent, "\(name)")
        case .failure:
          // Refused whole; the lookup need only not crash (the write path reads whole).
          _ = PropertyList.binaryValue(forKey: "a", in: data)
        }
      }
    }
    #expect(compared > 0)
    _ = declined
  }

  /// A dictionary Foundation wrote, with nested, shared and non-ASCII values.
  @Test func findsEveryKeyOfAFoundationWrittenDomain() throws {
    var d: [String: Any] = [:]
    for i in 0..<2_000 {
      switch i % 5 {
      case 0: d["k\(i)"] = i
      case 1: d["k\(i)"] = "shared"
      case 2:
        d["k\(i)"] = ["x": [i, "é\(i)", Data([1, 2, 3])], "y": Date(timeIntervalSince1970: 0)]
      case 3: d["ключ\(i)"] = Double(i) / 3
      default: d["k\(i)"] = [true, false, "🎉"]
      }
    }
    let data = try PropertyListSerialization.data(
      fromPropertyList: d, format: .binary, options: 0)
    guard case .dictionary(let full) = try PropertyList.read(data).value else {
      Issue.record("not a dictionary")
      return
    }
    #expect(full.count == 2_000)
    // Every 7th key (each lookup reads all 2,000 keys): every kind of value, first to last.
    for key in stride(from: 0, to: full.count, by: 7).map({ full.keys.sorted()[$0] }) {
      #expect(PropertyList.binaryValue(forKey: key, in: data) == .found(full[key] ?? .bool(false)))
    }
    #expect(PropertyList.binaryValue(forKey: "k3", in: data) == .absent)
  }

  /// Two keys that are the same string: the full read keeps the last and warns; the lookup
  /// declines rather than pick one silently.
  /// The in-place scan of ASCII keys: every length from 0 to 300 (short lengths sit in the
  /// marker, longer ones in an integer object after it), keys that share a prefix or a suffix,
  /// written by Foundation (the reference writer); found, or absent, as the full read says.
  @Test(arguments: [false, true])
  func findsKeysOfEveryLength(withNonASCIIKey: Bool) throws {
    var d: [String: Any] = [:]
    for length in 0...300 {
      d[String(repeating: "k", count: length)] = length
      d["p" + String(repeating: "x", count: length)] = -length
    }
    if withNonASCIIKey { d["ключ"] = "non-ASCII" }
    let data = try PropertyListSerialization.data(fromPropertyList: d, format: .binary, options: 0)
    guard case .dictionary(let full) = try PropertyList.read(data).value else {
      Issue.record("not a dictionary")
      return
    }
    var asked = Array(full.keys)
    asked += ["kx", "xk", String(repeating: "k", count: 301), "pxxxxxxxxxxy", "ключ!"]
    for key in asked {
      let expected: BinaryLookup = full[key].map { .found($0) } ?? .absent
      #expect(PropertyList.binaryValue(forKey: key, in: data) == expected, "\(key.count)")
    }
  }

  @Test func aRepeatedKeyIsLeftToTheFullRead() throws {
    var data = try PropertyListSerialization.data(
      fromPropertyList: ["a": 1, "b": 2], format: .binary, options: 0)
    // The one-character ASCII string object "b" (marker 0x51) becomes "a".
    let marker: [UInt8] = [0x51, UInt8(ascii: "b")]
    let at = try #require(
      (0..<(data.count - 1)).first { data[$0] == marker[0] && data[$0 + 1] == marker[1] })
    data[at + 1] = UInt8(ascii: "a")
    let document = try PropertyList.read(data)
    // (CoreFoundation keeps the first value of a binary dictionary's repeated key.)
    #expect(
      document.warnings.contains { if case .duplicateKeyFirstKept = $0 { true } else { false } })
    #expect(PropertyList.binaryValue(forKey: "a", in: data) == .undecided)
    // Another key's repetition is the full read's to report (and lint's), not this key's.
    #expect(PropertyList.binaryValue(forKey: "c", in: data) == .absent)
  }

  /// The same with key objects that are not ASCII (UTF-16 strings, which the in-place scan
  /// leaves to the general loop): a repeated key is still the full read's.
  @Test func aRepeatedNonASCIIKeyIsLeftToTheFullRead() throws {
    var data = try PropertyListSerialization.data(
      fromPropertyList: ["ä": 1, "ö": 2], format: .binary, options: 0)
    // The one-character UTF-16 string object "ö" (marker 0x61, U+00F6) becomes "ä" (U+00E4).
    let marker: [UInt8] = [0x61, 0x00, 0xF6]
    let at = try #require(
      (0..<(data.count - 2)).first {
        data[$0] == marker[0] && data[$0 + 1] == marker[1] && data[$0 + 2] == marker[2]
      })
    data[at + 2] = 0xE4
    let document = try PropertyList.read(data)
    // (CoreFoundation keeps the first value of a binary dictionary's repeated key.)
    #expect(
      document.warnings.contains { if case .duplicateKeyFirstKept = $0 { true } else { false } })
    #expect(PropertyList.binaryValue(forKey: "ä", in: data) == .undecided)
  }

  /// Keys compare as CoreFoundation and the full read's dictionary compare them: by their
  /// code points, so "K" and U+212A KELVIN SIGN are two keys. A key object equal to the key
  /// only under Unicode normalization is left to the full read (which warns about it).
  @Test(arguments: [
    ("K", "\u{212A}"), ("\u{212A}", "K"), ("\u{E9}", "e\u{301}"), ("e\u{301}", "\u{E9}"),
    ("\u{FC}", "\u{FC}"), ("K", "K"),
  ])
  func keysCompareByTheirBytes(stored: String, asked: String) throws {
    let data = try PropertyListSerialization.data(
      fromPropertyList: [stored: 7, "other": 8], format: .binary, options: 0)
    guard case .dictionary(let full) = try PropertyList.read(data).value else {
      Issue.record("not a dictionary")
      return
    }
    let same = stored.unicodeScalars.elementsEqual(asked.unicodeScalars)
    let expected: BinaryLookup = same ? .found(.integer(7)) : .absent
    #expect((full[asked].map { .found($0) } ?? .absent) == expected)
    let lookup = PropertyList.binaryValue(forKey: asked, in: data)
    #expect(lookup == expected || (!same && lookup == .undecided))
    if same { #expect(lookup == expected) }
  }

  @Test func otherFormatsAndTopLevelsAreLeftToTheFullRead() throws {
    let xml = try PropertyListSerialization.data(
      fromPropertyList: ["a": 1], format: .xml, options: 0)
    #expect(PropertyList.binaryValue(forKey: "a", in: xml) == .undecided)
    let array = try PropertyListSerialization.data(
      fromPropertyList: [1, 2], format: .binary, options: 0)
    #expect(PropertyList.binaryValue(forKey: "a", in: array) == .undecided)
    #expect(PropertyList.binaryValue(forKey: "a", in: Data("bplist00".utf8)) == .undecided)
  }
}
