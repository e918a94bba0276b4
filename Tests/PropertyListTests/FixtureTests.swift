import Foundation
import PropertyList
import TestSupport
import Testing

/// Files written by python plistlib, plistutil and GNUstep read to the values those tools
/// say they hold.
@Suite struct FixtureTests {
  static let validFiles = Fixtures.files(in: Fixtures.valid)

  @Test func fixturesArePresent() {
    #expect(Self.validFiles.count > 100)
  }

  @Test(arguments: validFiles)
  func readsToTheReferenceValue(name: String) throws {
    let data = try Data(contentsOf: Fixtures.valid.appendingPathComponent(name))
    let document = try PropertyList.read(data)
    let expected = try Fixtures.expectation(for: Self.coreFoundationReads[name] ?? name)
    #expect(document.value == expected, "\(name)")
    let ext = (name as NSString).pathExtension
    let format: PlistFormat? =
      switch ext {
      case "xml": .xml
      case "bplist": .binary
      default: nil
      }
    if let format { #expect(document.format == format, "\(name)") }
    if ext == "gnustep" { #expect(document.format == .gnustep || document.format == .openStep) }
  }

  /// Where python's expat-based reader and CoreFoundation disagree on a file, prefs reads as
  /// CoreFoundation does (checked on this machine with Foundation's PropertyListSerialization,
  /// which is CoreFoundation's parser): no XML line-end normalisation of a raw carriage return,
  /// and a one-key `CF$UID` dictionary is a UID. The file's value is then the one of the
  /// named fixture, which python wrote in binary, where the two readers agree.
  static let coreFoundationReads = [
    "special-strings.plistutil.xml": "special-strings.plistlib.bplist",
    "uid.plistutil.xml": "uid.plistlib.bplist",
  ]

  /// Every fixture converts to every format that can hold it and back to the same value, and
  /// writing the same value twice gives the same bytes.
  @Test(arguments: validFiles)
  func roundTripsThroughEveryFormat(name: String) throws {
    let data = try Data(contentsOf: Fixtures.valid.appendingPathComponent(name))
    let value = try PropertyList.read(data).value
    for format in PlistFormat.allCases {
      let written: Data
      do {
        written = try PropertyList.write(value, as: format)
      } catch let error {
        // Only a value that the format cannot hold may be refused, and then with a reason.
        guard case .unrepresentable = error else {
          Issue.record("\(name) → \(format): \(error)")
          continue
        }
        #expect(Self.needsRicherFormat(value, format), "\(name) → \(format): \(error)")
        continue
      }
      let back = try PropertyList.read(written)
      #expect(back.value == value, "\(name) → \(format)")
      #expect(try PropertyList.write(back.value, as: format) == written, "\(name) → \(format)")
    }
  }

  /// Whether `value` holds something the format has no lossless form for.
  static func needsRicherFormat(_ value: PlistValue, _ format: PlistFormat) -> Bool {
    switch value {
    case .array(let a): return a.contains { needsRicherFormat($0, format) }
    case .dictionary(let d):
      if format == .xml, d.count == 1, d["CF$UID"]?.typeName == "integer" { return true }
      if format == .xml, d.keys.contains(where: { $0.unicodeScalars.first == "\u{FEFF}" }) {
        return true
      }
      return d.values.contains { needsRicherFormat($0, format) }
    case .string(let s):
      return format == .xml
        && (s.unicodeScalars.first == "\u{FEFF}")
        || format == .xml
          && s.unicodeScalars.contains {
            ($0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r") || $0.value == 0xFFFE
              || $0.value == 0xFFFF
          }
    case .date(let d):
      let seconds = d.timeIntervalSinceReferenceDate
      return format == .openStep || (format != .binary && seconds != seconds.rounded(.down))
    case .integer, .unsignedInteger, .real, .bool: return format == .openStep
    case .uid: return format == .openStep || format == .gnustep
    case .data: return false
    }
  }

  @Test func gnustepTypedValuesReadAsTheirTypes() throws {
    let text = "{ a = <*I-7>; b = <*R1.5>; c = <*BY>; d = <*D2001-01-01 00:00:00 +0000>; }"
    let document = try PropertyList.read(Data(text.utf8))
    #expect(document.format == .gnustep)
    #expect(
      document.value
        == .dictionary([
          "a": .integer(-7), "b": .real(1.5), "c": .bool(true),
          "d": .date(Date(timeIntervalSinceReferenceDate: 0)),
        ]))
  }

  @Test func xmlWithUTF16AndBOMs() throws {
    let xml = """
      <?xml version="1.0" encoding="UTF-16"?>
      <plist version="1.0"><dict><key>é</key><string>日本</string></dict></plist>
      """
    let expected: PlistValue = ["é": "日本"]
    var be = Data([0xFE, 0xFF])
    var le = Data([0xFF, 0xFE])
    for unit in xml.utf16 {
      be.append(contentsOf: [UInt8(unit >> 8), UInt8(unit & 0xFF)])
      le.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)])
    }
    #expect(try PropertyList.read(be).value == expected)
    #expect(try PropertyList.read(le).value == expected)
    let utf8BOM =
      Data([0xEF, 0xBB, 0xBF]) + Data(xml.replacingOccurrences(of: "UTF-16", with: "UTF-8").utf8)
    #expect(try PropertyList.read(utf8BOM).value == expected)
  }

  /// UTF-32 after its byte-order mark, as CoreFoundation reads it (the toolchain's plutil:
  /// the oracle test's "encodings" input), XML and OpenStep text alike; a unit that is no
  /// scalar, or a length that is not a multiple of four, is refused at its byte offset.
  @Test func textInUTF32AfterItsMark() throws {
    let texts: [(String, PlistValue)] = [
      (
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>é😀</key><string>日本</string></dict></plist>",
        ["é😀": "日本"]
      ),
      ("{ k = \"vé😀\"; n = (1, 2); }", ["k": "vé😀", "n": ["1", "2"]]),
    ]
    for (text, expected) in texts {
      var be = Data([0, 0, 0xFE, 0xFF])
      var le = Data([0xFF, 0xFE, 0, 0])
      for scalar in text.unicodeScalars {
        let v = scalar.value
        be.append(contentsOf: [
          UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF),
        ])
        le.append(contentsOf: [
          UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24),
        ])
      }
      #expect(try PropertyList.read(be).value == expected)
      #expect(try PropertyList.read(le).value == expected)
      // A surrogate as a unit (at byte 8 after the mark), then a length cut short.
      var surrogate = le
      surrogate.replaceSubrange(12..<16, with: [0x00, 0xD8, 0, 0])
      #expect(throws: PlistError.self) { try PropertyList.read(surrogate) }
      #expect(throws: PlistError.self) { try PropertyList.read(le.dropLast()) }
    }
  }

  @Test func xmlDeclaredLatin1() throws {
    var data = Data("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><string>caf".utf8)
    data.append(0xE9)
    data.append(contentsOf: Data("</string></plist>".utf8))
    #expect(try PropertyList.read(data).value == "café")
  }
}
