import Foundation
import PreferencesMigration
import PropertyList
import Testing

/// The JSON of plans, reports and the command's `--json` outputs (`JSONValue.text`) comes from
/// the one writer that prints property lists as JSON (`PropertyList.json`): one layout, one key
/// order (by UTF-8 bytes), one way of writing numbers and strings.
@Suite struct JSONTextTests {
  /// `{"b": {"y": [], "x": {}}, "a\"q\n": "line\u0001\\", "e\u0301t": -3, "f": 0.5,
  /// "ß": [true, false, "😀"], "Z": 18446744073709551615, "\u212b": 1e16}`.
  static let value: PlistValue = [
    "b": ["y": [], "x": .dictionary([:])], "a\"q\n": "line\u{1}\\", "e\u{301}t": -3,
    "f": .real(0.5), "\u{DF}": [true, false, "\u{1F600}"],
    "Z": .unsignedInteger(18_446_744_073_709_551_615), "\u{212B}": .real(1e16),
  ]

  /// What python prints for it: `json.dumps(d, indent=2, ensure_ascii=False, sort_keys=True)`.
  static let pretty = """
    {
      "Z": 18446744073709551615,
      "a\\"q\\n": "line\\u0001\\\\",
      "b": {
        "x": {},
        "y": []
      },
      "e\u{301}t": -3,
      "f": 0.5,
      "\u{DF}": [
        true,
        false,
        "\u{1F600}"
      ],
      "\u{212B}": 1e+16
    }
    """

  /// `json.dumps(d, separators=(",", ":"), ensure_ascii=False, sort_keys=True)`.
  static let compact =
    #"{"Z":18446744073709551615,"a\"q\n":"line\u0001\\","b":{"x":{},"y":[]},"e\#u{301}t":-3,"#
    + #""f":0.5,"\#u{DF}":[true,false,"\#u{1F600}"],"\#u{212B}":1e+16}"#

  @Test func bothPathsPrintWhatPythonPrints() throws {
    let model = try JSONValue(displaying: Self.value)
    for (compact, expected) in [(false, Self.pretty), (true, Self.compact)] {
      // Compared as bytes: String's == takes "e\u{301}t" for "ét".
      #expect(Array(model.text(compact: compact).utf8) == Array(expected.utf8))
      #expect(
        Array(try PropertyList.json(Self.value, lossless: true, compact: compact).utf8)
          == Array(expected.utf8))
    }
  }

  /// Dates, data and UIDs are shown alike by both paths (a UID is an object like any other).
  @Test func displayedValuesPrintAlike() throws {
    let value: PlistValue = [
      "when": .date(Date(timeIntervalSinceReferenceDate: 0)), "bytes": .data(Data([0xCA, 0xFE])),
      "uid": .uid(7), "list": [.uid(1)],
    ]
    let model = try JSONValue(displaying: value)
    for compact in [false, true] {
      #expect(
        model.text(compact: compact)
          == (try PropertyList.json(value, lossless: false, compact: compact)))
    }
    #expect(
      try PropertyList.json(value, lossless: false, compact: true)
        == #"{"bytes":"yv4=","list":[{"CF$UID":1}],"uid":{"CF$UID":7},"#
        + #""when":"2001-01-01T00:00:00Z"}"#)
  }

  /// JSON text is UTF-8 (RFC 8259, section 8.1): a string holding other bytes is refused, not
  /// read with U+FFFD in their place.
  @Test func aStringThatIsNotUTF8IsRefused() {
    #expect(throws: JSONValue.ParseError.self) {
      try JSONValue.parse(Data([0x22, 0x61, 0xFF, 0x22]))  // "a\xFF"
    }
    #expect(throws: JSONValue.ParseError.self) {
      try JSONValue.parse(Data([0x22, 0xC3, 0x5C, 0x6E, 0x22]))  // a cut sequence, then \n
    }
    #expect((try? JSONValue.parse(Data([0x22, 0xC3, 0xA9, 0x22]))) == .string("\u{E9}"))
  }

  /// A number JSON readers take for infinity is no number a plan or a value can hold.
  @Test func aNumberBeyondADoubleIsRefused() {
    #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(Data("1e999".utf8)) }
    #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(Data("[-1e400]".utf8)) }
    #expect(
      (try? JSONValue.parse(Data("1.7976931348623157e308".utf8)))
        == .number(.greatestFiniteMagnitude))
  }
}
