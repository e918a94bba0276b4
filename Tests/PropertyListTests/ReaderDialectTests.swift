import Foundation
import PropertyList
import TestSupport
import Testing

/// The causes Scripts/differential.sh found of a file read to another value than the legacy
/// app's own reader gave it (issue 36), each as the reader reads it. Every expected value is
/// the reference's own answer, printed by Scripts/Differential's drivers on this machine:
/// `cf_driver.swift` (the toolchain Foundation's `PropertyListSerialization`, over
/// CoreFoundation) and `gnustep_driver.m` (GNUstep Base 1.28's `NSPropertyListSerialization`).
@Suite struct ReaderDialectTests {
  static func bplist(_ objects: [[UInt8]]) -> Data { BinaryList.bplist(objects: objects) }

  static func ascii(_ text: String) -> [UInt8] { BinaryList.ascii(text) }

  static func xml(_ body: String) -> Data {
    Data(
      ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n" + body
        + "\n</plist>\n").utf8)
  }

  static func read(_ data: Data, _ options: PlistReadOptions) throws -> PlistValue {
    try PropertyList.read(data, options: options).value
  }

  // MARK: 1. A key twice in a binary dictionary

  /// `{a = 1; a = 2}` in binary: CoreFoundation `OK {s"a"=i1;}`, GNUstep `OK {s"a"=i2;}`.
  static let binaryDuplicate = bplist([[0xD2, 1, 1, 2, 3], ascii("a"), [0x10, 1], [0x10, 2]])

  @Test func aBinaryDuplicateKeyKeepsTheFirstValueAsCoreFoundationDoes() throws {
    let document = try PropertyList.read(Self.binaryDuplicate)
    #expect(document.value == ["a": 1])
    #expect(document.warnings.contains { $0.description.contains("the first value was kept") })
    #expect(try Self.read(Self.binaryDuplicate, .coreFoundation) == ["a": 1])
  }

  @Test func aBinaryDuplicateKeyKeepsTheLastValueAsGNUstepDoes() throws {
    #expect(try Self.read(Self.binaryDuplicate, .gnustep) == ["a": 2])
  }

  @Test func xmlAndTextDuplicatesKeepTheLastValueInBothReaders() throws {
    let xml = Self.xml(
      "<dict><key>a</key><integer>1</integer><key>a</key><integer>2</integer></dict>")
    let text = Data("{a = 1; a = 2;}".utf8)
    for options in [PlistReadOptions.coreFoundation, .gnustep] {
      #expect(try Self.read(xml, options) == ["a": 2])
      #expect(try Self.read(text, options) == ["a": "2"])
    }
  }

  // MARK: 2. The OpenStep `\u` escape

  /// `("\u00e9", "\U00e9", "\u12", "\uzz")`: CoreFoundation `(s"u00e9",s"\u00e9",s"u12",s"uzz")`,
  /// GNUstep `(s"\u00e9",s"\u00e9",s"",s"\u0000zz")`.
  static let escapes = Data(#"("\u00e9", "\U00e9", "\u12", "\uzz")"#.utf8)

  @Test func aLowercaseUEscapeIsTheLetterUAsCoreFoundationReadsIt() throws {
    let document = try PropertyList.read(Self.escapes)
    #expect(document.value == ["u00e9", "é", "u12", "uzz"])
    #expect(document.warnings.contains { $0.description.contains("as the letter u") })
    #expect(try Self.read(Self.escapes, .coreFoundation) == ["u00e9", "é", "u12", "uzz"])
  }

  @Test func aLowercaseUEscapeIsACharacterAsGNUstepReadsIt() throws {
    #expect(try Self.read(Self.escapes, .gnustep) == ["é", "é", "", "\u{0}zz"])
    // A real GNUstep `Languages` file.
    let languages = Data(#"{ Languages = ("Fran\u00e7ais", English); }"#.utf8)
    #expect(try Self.read(languages, .gnustep) == ["Languages": ["Français", "English"]])
    #expect(
      try Self.read(languages, .coreFoundation) == ["Languages": ["Franu00e7ais", "English"]])
  }

  @Test func anUppercaseEscapeWithoutDigitsIsUPlus0000InBothReaders() throws {
    let text = Data(#"("\Ux")"#.utf8)
    #expect(try Self.read(text, .coreFoundation) == ["\u{0}x"])
    #expect(try Self.read(text, .gnustep) == ["\u{0}x"])
  }

  // MARK: 3. `CF$UID` dictionaries

  @Test(arguments: [
    // (the dictionary's value, CoreFoundation's UID)
    ("<integer>4294967296</integer>", UInt64(0)),
    ("<integer>-1</integer>", UInt64(4_294_967_295)),
    ("<real>1</real>", UInt64(1)),
    ("<integer>18446744073709551615</integer>", UInt64(4_294_967_295)),
  ])
  func aCFUIDDictionaryIsTheUIDCoreFoundationMakes(value: String, uid: UInt64) throws {
    let data = Self.xml("<dict><key>CF$UID</key>\(value)</dict>")
    #expect(try PropertyList.read(data).value == .uid(uid))
    #expect(try Self.read(data, .coreFoundation) == .uid(uid))
  }

  @Test func aCFUIDKeyTwiceIsAUIDOfTheLastValue() throws {
    let data = Self.xml(
      "<dict><key>CF$UID</key><integer>1</integer><key>CF$UID</key><integer>2</integer></dict>")
    #expect(try PropertyList.read(data).value == .uid(2))
  }

  @Test func aCFUIDDictionaryStaysADictionaryForGNUstep() throws {
    let data = Self.xml("<dict><key>CF$UID</key><integer>3</integer></dict>")
    #expect(try Self.read(data, .gnustep) == ["CF$UID": 3])
    // GNUstep reads a binary UID of one or two bytes as that dictionary, and refuses wider.
    let one = Self.bplist([[0xA1, 1], [0x80, 7]])
    #expect(try Self.read(one, .gnustep) == [["CF$UID": 7]])
    #expect(try Self.read(one, .coreFoundation) == [.uid(7)])
    let four = Self.bplist([[0xA1, 1], [0x83, 0, 0, 0, 7]])
    #expect(throws: PlistError.self) { try Self.read(four, .gnustep) }
    #expect(try Self.read(four, .coreFoundation) == [.uid(7)])
  }

  @Test func aBinaryUIDAbove32BitsIsRefusedAsCoreFoundationRefusesIt() throws {
    let wide = Self.bplist([[0xA1, 1], [0x87, 0, 0, 0, 1, 0, 0, 0, 5]])
    #expect(throws: PlistError.self) { try Self.read(wide, .coreFoundation) }
  }

  // MARK: 4. Keys that are not strings in a binary dictionary

  @Test func aNonStringBinaryKeyIsRefusedReadExactly() throws {
    // `{5 = v}`: both references keep the integer key (`OK {i5=s"v";}`), which a domain of
    // string keys cannot.
    let data = Self.bplist([[0xD1, 1, 2], [0x10, 5], Self.ascii("v")])
    for options in [PlistReadOptions.coreFoundation, .gnustep] {
      #expect(throws: PlistError.self) { try Self.read(data, options) }
    }
    // Read leniently (lint, convert): kept under its text, with a warning, as before.
    #expect(try PropertyList.read(data).value == ["5": "v"])
  }

  // MARK: 5. Base64 that is not whole groups of four

  @Test(arguments: [
    // (the <data> text, CoreFoundation's bytes, GNUstep's bytes)
    ("AA", [UInt8](), [UInt8]([0])),
    ("AAA", [], [0, 0]),
    ("AAAAAA", [0, 0, 0], [0, 0, 0, 0]),
    ("AA==AA==", [0, 0], [0, 0, 0]),
    ("QQ==QQ==", [0x41, 0x41], [0x41, 0x04, 0x10]),
    ("QUJD RA", [0x41, 0x42, 0x43], [0x41, 0x42, 0x43, 0x44]),
  ])
  func unpaddedBase64IsWhatEachReaderDecodes(text: String, cf: [UInt8], gnustep: [UInt8]) throws {
    let data = Self.xml("<data>\(text)</data>")
    let document = try PropertyList.read(data, options: .coreFoundation)
    #expect(document.value == .data(Data(cf)))
    #expect(document.warnings.contains { $0.description.contains("not whole groups of four") })
    #expect(try PropertyList.read(data).value == .data(Data(cf)))
    #expect(try Self.read(data, .gnustep) == .data(Data(gnustep)))
  }

  // MARK: 6. A strings file with a key CoreFoundation cannot read

  @Test func aStringsFileEndsWhereNoKeyStartsAsCoreFoundationReadsIt() throws {
    let data = Data("\"a\" = \"1\";\n* = \"2\";\n\"c\" = \"3\";\n".utf8)
    let document = try PropertyList.read(data)
    #expect(document.value == ["a": "1"])
    #expect(document.warnings.contains { $0.description.contains("only the entries before") })
    #expect(try Self.read(data, .coreFoundation) == ["a": "1"])
    // GNUstep reads no strings file at all.
    #expect(throws: PlistError.self) { try Self.read(data, .gnustep) }
    // The bare `key;` entry is the key as its value, for CoreFoundation.
    let bare = Data("\"a\" = \"1\";\nkey;\n".utf8)
    #expect(try Self.read(bare, .coreFoundation) == ["a": "1", "key": "key"])
  }

  // MARK: Lenient readers: values as they gave them, with a warning

  @Test(arguments: [
    // (the date, the seconds since 2001 both references read)
    ("2001-02-29T00:00:00Z", 5_097_600.0),
    ("2001-02-01T24:00:00Z", 2_764_800.0),
    ("2001-13-01T00:00:00Z", 31_536_000.0),
  ])
  func anImpossibleDateIsTheDateBothReadersNormaliseItTo(text: String, seconds: Double) throws {
    let data = Self.xml("<date>\(text)</date>")
    for options in [PlistReadOptions.coreFoundation, .gnustep, .lenient] {
      let document = try PropertyList.read(data, options: options)
      #expect(document.value == .date(Date(timeIntervalSinceReferenceDate: seconds)))
      #expect(document.warnings.contains { $0.description.contains("a field out of range") })
    }
  }

  @Test func whatCoreFoundationRefusesIsRefusedReadExactly() throws {
    let refused = [
      Self.xml("<date>2011-03-14T15:09:26.5Z</date>"),  // a fraction of a second
      Self.xml("<integer> 12 </integer>"),  // white space around an integer
      Data("{a = b}".utf8),  // no ';' after the last entry
      Data("{a = <*I5>;}".utf8),  // GNUstep's typed values
      Data(
        "<?xml version=\"1.0\"?><!DOCTYPE plist [ <!ENTITY e \"v\"> ]><plist><true/></plist>".utf8),
    ]
    for data in refused {
      #expect(throws: PlistError.self) { try Self.read(data, .coreFoundation) }
      #expect((try? PropertyList.read(data)) != nil)
    }
  }

  @Test func contentAfterThePlistIsWhatCoreFoundationLeavesUnread() throws {
    let data = Data("<?xml version=\"1.0\"?>\n<plist><true/></plist>junk".utf8)
    let document = try PropertyList.read(data, options: .coreFoundation)
    #expect(document.value == true)
    #expect(document.warnings.contains { $0.description.contains("nothing after it") })
  }

  @Test func gnustepDropsALeadingByteOrderMarkAndClampsLargeXMLIntegers() throws {
    #expect(try Self.read(Data("(\"\u{FEFF}bom\")".utf8), .gnustep) == ["bom"])
    #expect(try Self.read(Data("(\"\u{FEFF}bom\")".utf8), .coreFoundation) == ["\u{FEFF}bom"])
    let big = Self.xml("<integer>18446744073709551615</integer>")
    #expect(try Self.read(big, .gnustep) == .integer(.max))
    #expect(try Self.read(big, .coreFoundation) == .unsignedInteger(.max))
  }

  @Test func aSixteenByteIntegerIsItsLow64BitsAsCoreFoundationReadsIt() throws {
    // -1 in 16 bytes: CoreFoundation `OK (i18446744073709551615)`; GNUstep refuses it.
    let data = Self.bplist([[0xA1, 1], [0x14] + [UInt8](repeating: 0xFF, count: 16)])
    #expect(try Self.read(data, .coreFoundation) == [.unsignedInteger(.max)])
    #expect(throws: PlistError.self) { try Self.read(data, .gnustep) }
  }

  @Test func coreFoundationsOwnReadingsOfOddBytes() throws {
    // `{a; b = c;}`: `OK {s"a"=s"a";s"b"=s"c";}`.
    #expect(try Self.read(Data("{a; b = c;}".utf8), .coreFoundation) == ["a": "a", "b": "c"])
    #expect(throws: PlistError.self) { try Self.read(Data("{a; b = c;}".utf8), .gnustep) }
    // A <key> after a <key>: `OK {s"a"=s"a";}`; a <key> in an array: a string.
    let keys = Self.xml("<dict><key>a</key><key>a</key></dict>")
    #expect(try Self.read(keys, .coreFoundation) == ["a": "a"])
    #expect(try Self.read(Self.xml("<array><key>k</key></array>"), .coreFoundation) == ["k"])
    // A comment inside <key>, and an empty UTF-16 string object: refused.
    let comment = Self.xml("<dict><key><!-- c --></key><string>v</string></dict>")
    #expect(throws: PlistError.self) { try Self.read(comment, .coreFoundation) }
    #expect(try PropertyList.read(comment).value == ["": "v"])
    let empty = Self.bplist([[0xA1, 1], [0x60]])
    #expect(throws: PlistError.self) { try Self.read(empty, .coreFoundation) }
    // OpenStep text in UTF-16 without a byte-order mark: CoreFoundation drops a character of
    // its own guess (`$objects = "a+b";` is `OK {s"objects"=s"a+b";}`): refused.
    let utf16 = Data(#"$objects = "a+b";"#.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
    #expect(throws: PlistError.self) { try Self.read(utf16, .coreFoundation) }
    #expect(throws: PlistError.self) { try Self.read(utf16, .gnustep) }
  }

  @Test func gnustepDropsTwoByteOrderMarksFromXMLText() throws {
    // `<string>` of two U+FEFF and x: GNUstep `OK s"x"`, CoreFoundation `OK s"\ufeffx"`.
    let data = Self.xml("<string>\u{FEFF}\u{FEFF}x</string>")
    #expect(try Self.read(data, .gnustep) == "x")
    #expect(try Self.read(data, .coreFoundation) == "\u{FEFF}x")
  }

  // MARK: Round trips

  @Test func negativeZeroIsWrittenAsCoreFoundationReadsItBack() throws {
    // CoreFoundation writes -0.0 as `<real>0.0</real>` (the sign lost) and reads
    // `<real>-0.0</real>` back as -0.0.
    for options in [XMLWriteOptions.strict, .coreFoundation] {
      let xml = try PropertyList.write([.real(-0.0)], as: .xml, xml: options)
      #expect(String(decoding: xml, as: UTF8.self).contains("<real>-0.0</real>"))
      let back = try PropertyList.read(xml).value
      guard case .array(let elements) = back, case .real(let d) = elements.first else {
        Issue.record("not an array of one real: \(back)")
        return
      }
      #expect(d == 0 && d.sign == .minus)
    }
    #expect(
      String(decoding: try PropertyList.write([.real(0.0)], as: .xml), as: UTF8.self).contains(
        "<real>0.0</real>"))
  }

  @Test func aUIDAbove32BitsIsRefusedByEveryWriter() throws {
    for format in [PlistFormat.binary, .xml] {
      #expect(throws: PlistError.self) {
        try PropertyList.write([.uid(UInt64(UInt32.max) + 1)], as: format, xml: .coreFoundation)
      }
      _ = try PropertyList.write([.uid(UInt64(UInt32.max))], as: format, xml: .coreFoundation)
    }
  }

  @Test func aLeadingByteOrderMarkIsRefusedInText() throws {
    for format in [PlistFormat.openStep, .gnustep] {
      #expect(throws: PlistError.self) { try PropertyList.write(["\u{FEFF}x"], as: format) }
      #expect(throws: PlistError.self) { try PropertyList.write(["\u{FEFF}k": "v"], as: format) }
    }
  }
}
