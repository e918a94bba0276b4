import Foundation
import PropertyList
import TestSupport
import Testing

/// Issue 46: the tools that name no dialect (`PlistReadOptions.lenient`: `prefs lint`,
/// `convert`, `read`) read what CoreFoundation reads as it reads it, as the migration does
/// for `apple` and `corelibs` (`PlistReadOptions.coreFoundation`). Every expected value is
/// the reference's answer, printed by Scripts/Differential's drivers on this machine
/// (`cf_driver.swift`, over the toolchain's CoreFoundation, and `gnustep_driver.m`, GNUstep
/// Base 1.28), and for the 16-byte integers also by the toolchain's `plutil -p`.
@Suite struct ToolsReadAsCoreFoundationTests {
  static let both: [PlistReadOptions] = [.lenient, .coreFoundation]

  static func read(_ text: String, _ options: PlistReadOptions) throws -> PlistDocument {
    try PropertyList.read(Data(text.utf8), options: options)
  }

  /// (input, CoreFoundation's answer).
  static let xml: [(String, PlistValue)] = [
    // `OK {s"k"=s"v";}`: a <key> after a <key> is the value.
    ("<plist><dict><key>k</key><key>v</key></dict></plist>", ["k": "v"]),
    // `OK (s"k")`: a <key> in an array is a string.
    ("<plist><array><key>k</key></array></plist>", ["k"]),
    // `OK T`: CoreFoundation's `<!DOCTYPE` ends at the first `>`, quotes or not.
    ("<!DOCTYPE plist \"x><plist><true/></plist>", true),
    // `OK T`: what follows the top value is not read.
    ("<plist><true/></plist>junk", true),
    // `OK T`: two `<!DOCTYPE`s, and comments and processing instructions between them.
    ("<!DOCTYPE plist><!DOCTYPE plist><plist><true/></plist>", true),
    ("<!DOCTYPE plist><!-- c --><!DOCTYPE plist><?x y?><plist><true/></plist>", true),
    // `OK i-5`, `i5`, `i-5`, `i16`: white space before the sign and between it and the digits.
    ("<plist><integer>- 5</integer></plist>", -5),
    ("<plist><integer>+ 5</integer></plist>", 5),
    ("<plist><integer> -\t5</integer></plist>", -5),
    ("<plist><integer> +0x10</integer></plist>", 16),
    ("<plist><integer>- 9223372036854775808</integer></plist>", .integer(.min)),
    ("<plist><integer> 5</integer></plist>", 5),
  ]

  @Test(arguments: xml.indices)
  func xmlAsCoreFoundationReadsItForEveryVerb(_ index: Int) throws {
    let (text, expected) = Self.xml[index]
    for options in Self.both {
      #expect(try Self.read(text, options).value == expected, "\(text) \(options)")
    }
  }

  /// What CoreFoundation refuses of the same kinds (`ERR`): the tools refuse it too when no
  /// other reader reads it.
  @Test(arguments: [
    "<plist><integer>5 </integer></plist>".self, "<plist><integer>--5</integer></plist>",
    "<plist><integer>- -5</integer></plist>", "<plist><integer>-+5</integer></plist>",
    "<plist><integer>- 9223372036854775809</integer></plist>",
  ])
  func integersCoreFoundationRefuses(_ text: String) throws {
    #expect(throws: PlistError.self) { try Self.read(text, .coreFoundation) }
  }

  @Test func contentAfterTheValueIsReadWithAWarningByTheTools() throws {
    let document = try Self.read("<plist><true/></plist>junk", .lenient)
    #expect(document.warnings.contains { $0.description.contains("nothing after it") })
  }

  @Test func anInternalSubsetIsRefusedExactlyAndSkippedByTheTools() throws {
    let text = "<!DOCTYPE plist [ <!ENTITY e \"v\"> ]><plist><true/></plist>"
    #expect(throws: PlistError.self) { try Self.read(text, .coreFoundation) }
    #expect(try Self.read(text, .lenient).value == true)
  }

  /// GNUstep reads two `<!DOCTYPE`s too, with a comment and a processing instruction
  /// between them (`OK T`).
  @Test func gnustepReadsTwoDoctypes() throws {
    let text =
      "<?xml version=\"1.0\"?><!DOCTYPE plist><!-- c --><!DOCTYPE plist><?x y?><plist><true/>"
      + "</plist>"
    #expect(try Self.read(text, .gnustep).value == true)
  }

  // MARK: What the differential found the tools read otherwise

  /// `<data>AA&amp;AA</data>`: CoreFoundation `OK x0006a6` (the raw text, `&amp;` four
  /// characters of which it skips one), not the entity's `AA&AA`.
  @Test func dataIsCoreFoundationsRawTextForEveryVerb() throws {
    let text = "<plist><data>AA&amp;AA</data></plist>"
    for options in Self.both {
      #expect(try Self.read(text, options).value == .data(Data([0x00, 0x06, 0xA6])))
    }
  }

  /// `b\0p\0l\0i\0s\0t\0` (OpenStep text in UTF-16 without a mark): CoreFoundation
  /// `OK s"plist"`, its first character taken for the mark: refused by every verb.
  @Test func openStepInUTF16WithoutAMarkIsRefusedByTheTools() throws {
    let data = Data("bplist".utf16.flatMap { [UInt8($0), 0] })
    for options in Self.both {
      #expect(throws: PlistError.self) { try PropertyList.read(data, options: options) }
    }
  }

  /// A UID of 8 bytes above 32 bits: CoreFoundation `ERR`; refused by the tools too.
  @Test func aUIDAbove32BitsIsRefusedByTheTools() throws {
    let data = BinaryList.bplist(objects: [[0xA1, 1], [0x87, 0x80, 0, 0, 0, 0, 0, 0, 0]])
    for options in Self.both {
      #expect(throws: PlistError.self) { try PropertyList.read(data, options: options) }
    }
  }

  /// `encoding="utf-16"` over 8-bit text: CoreFoundation `ERR`; GNUstep reads it as UTF-8.
  @Test func utf16DeclaredOverUTF8IsRefusedAsCoreFoundationRefusesIt() throws {
    let data = Self.declared("utf-16", Array("é".utf8))
    for options in Self.both {
      #expect(throws: PlistError.self) { try PropertyList.read(data, options: options) }
    }
    #expect(try PropertyList.read(data, options: .gnustep).value == "é")
  }

  /// What the tools read beyond CoreFoundation says so, naming the row.
  @Test(arguments: [
    "<plist><integer>5 </integer></plist>",
    "<!DOCTYPE plist [ <!ENTITY e \"v\"> ]><plist><true/></plist>",
    "<plist><date>2011-03-14T15:09:26.5Z</date></plist>",
  ])
  func whatOnlyTheToolsReadIsAWarningNamingItsRow(_ text: String) throws {
    let document = try Self.read(text, .lenient)
    #expect(document.warnings.contains { $0.compatibilityRow == "tools-read-more" })
  }

  /// GNUstep drops up to two U+FEFF after the white space a string starts with (`\n` U+FEFF
  /// U+FEFF `b` is `OK s"\u000ab"`, `\t` U+FEFF `b` `s"\u0009b"`), not after other text
  /// (`a\n` U+FEFF `b` is kept); CoreFoundation keeps them.
  @Test func gnustepDropsAMarkAfterLeadingWhiteSpace() throws {
    let xml = { (s: String) in "<?xml version=\"1.0\"?><plist><string>\(s)</string></plist>" }
    #expect(try Self.read(xml("\n\u{FEFF}\u{FEFF}b"), .gnustep).value == "\nb")
    #expect(try Self.read(xml("\t\u{FEFF}b"), .gnustep).value == "\tb")
    #expect(try Self.read(xml("a\n\u{FEFF}b"), .gnustep).value == "a\n\u{FEFF}b")
    #expect(try Self.read(xml("\n 7"), .gnustep).value == "\n 7")
    #expect(try Self.read(xml("\n\u{FEFF}b"), .coreFoundation).value == "\n\u{FEFF}b")
  }

  // MARK: Declared encodings

  static func declared(_ encoding: String, _ bytes: [UInt8]) -> Data {
    Data("<?xml version=\"1.0\" encoding=\"\(encoding)\"?><plist><string>".utf8) + bytes
      + Data("</string></plist>".utf8)
  }

  /// windows-1252: CoreFoundation and GNUstep `OK s"\u00e9\u20ac"` for E9 80, `s"\u0178"` for
  /// 9F; `ERR` for 81 and 8D (unassigned). CoreFoundation also reads `cp1252`.
  @Test func windows1252IsReadAsBothReadersReadIt() throws {
    for options in Self.both + [.gnustep] {
      let text = try PropertyList.read(
        Self.declared("windows-1252", [0xE9, 0x80]), options: options)
      #expect(text.value == "é€")
      #expect(
        try PropertyList.read(Self.declared("windows-1252", [0x9F]), options: options).value == "Ÿ")
      for unassigned: UInt8 in [0x81, 0x8D] {
        #expect(throws: PlistError.self) {
          try PropertyList.read(Self.declared("windows-1252", [unassigned]), options: options)
        }
      }
    }
    #expect(
      try PropertyList.read(Self.declared("cp1252", [0x80]), options: .coreFoundation).value == "€")
  }

  /// US-ASCII holding UTF-8's `é` (C3 A9): CoreFoundation `OK s"\u00c3\u00a9"` (each byte its
  /// Latin-1 character; 80 is `s"\u0080"`), with a warning; GNUstep `OK s"\u00e9"`.
  @Test func usASCIIHoldingOtherBytesIsReadAsEachReaderReadsIt() throws {
    for options in Self.both {
      let document = try PropertyList.read(
        Self.declared("US-ASCII", [0xC3, 0xA9]), options: options)
      #expect(document.value == "Ã©")
      #expect(document.warnings.contains { $0.description.contains("declared US-ASCII") })
      #expect(
        try PropertyList.read(Self.declared("ascii", [0x80]), options: options).value == "\u{80}")
    }
    #expect(
      try PropertyList.read(Self.declared("US-ASCII", [0xC3, 0xA9]), options: .gnustep).value == "é"
    )
    let plain = try PropertyList.read(Self.declared("US-ASCII", Array("e".utf8)), options: .lenient)
    #expect(plain.warnings.isEmpty)
  }

  // MARK: Sixteen-byte binary integers

  /// An array of one 16-byte integer, `value` as 128-bit two's complement.
  static func sixteenBytes(high: UInt64, low: UInt64) -> Data {
    // Big-endian: the high word's most significant byte first.
    let bytes = [high, low].flatMap { word in
      (0..<8).map { UInt8(truncatingIfNeeded: word >> (56 - 8 * UInt64($0))) }
    }
    return BinaryList.bplist(objects: [[0xA1, 1], [0x14] + bytes])
  }

  /// CoreFoundation and the toolchain's `plutil -p`: -2 in 16 bytes `18446744073709551614`,
  /// 2^64 + 5 `5`, -2^63 `9223372036854775808`, 1 `1`; GNUstep refuses every one.
  @Test(
    arguments: [
      (UInt64.max, UInt64.max - 1, UInt64.max - 1, true), (1, 5, 5, true),
      (UInt64.max, 1 << 63, 1 << 63, true), (0, 1, 1, false),
    ] as [(UInt64, UInt64, UInt64, Bool)])
  func aSixteenByteIntegerIsItsLow64BitsUnsignedForEveryVerb(
    high: UInt64, low: UInt64, expected: UInt64, warns: Bool
  ) throws {
    let data = Self.sixteenBytes(high: high, low: low)
    for options in Self.both {
      let document = try PropertyList.read(data, options: options)
      #expect(document.value == [.int(expected)])
      #expect(document.warnings.contains { $0.description.contains("16-byte") } == warns)
    }
    #expect(throws: PlistError.self) { try PropertyList.read(data, options: .gnustep) }
  }
}
