import Foundation
import PropertyList
import TestSupport
import Testing

/// Each row of Docs/compatibility.md's refusals (issue 46: a narrow row, one cause each) made
/// by one input, read as the row says prefs refuses it: the refusal names that row. Every row
/// the readers can name has an example here.
@Suite struct RefusalRowTests {
  static let cf = PlistReadOptions.coreFoundation
  static let gs = PlistReadOptions.gnustep

  static func text(_ s: String) -> Data { Data(s.utf8) }
  /// XML GNUstep reads as XML: from its declaration on.
  static func xml(_ s: String) -> Data { Data(("<?xml version=\"1.0\"?>" + s).utf8) }

  /// A one-object binary file (`true`) whose trailer byte `at` (0 to 31) is `value`.
  static func trailer(_ at: Int, _ value: UInt8, objects: [[UInt8]] = [[0x09]]) -> Data {
    var data = BinaryList.bplist(objects: objects)
    data[data.count - 32 + at] = value
    return data
  }

  /// `data` with byte `at` set to `value`.
  static func patched(_ data: Data, _ at: Int, _ value: UInt8) -> Data {
    var data = data
    data[at] = value
    return data
  }

  static let examples: [(row: String, options: PlistReadOptions, input: Data)] = [
    ("empty-input", cf, Data()),
    ("utf16-without-bom", cf, Data([0x28, 0, 0x61, 0, 0x29, 0])),
    ("gnustep-encoding", gs, Data([0xEF, 0xBB, 0xBF]) + text("(a)")),
    ("xml-unknown-encoding", cf, text(#"<?xml version="1.0" encoding="iso-8859-2"?><plist/>"#)),
    (
      "xml-utf16-declared-over-8-bit", cf,
      text(#"<?xml version="1.0" encoding="UTF-16"?><plist><true/></plist>"#)
    ),
    ("xml-truncated", cf, xml("<plist><string>a")),
    ("xml-unterminated-doctype", cf, xml("<!DOCTYPE plist")),
    ("xml-unterminated-comment", cf, text("<plist><!-- x")),
    ("xml-unterminated-processing-instruction", cf, text(#"<?xml version="1.0""#)),
    ("xml-unterminated-cdata", cf, text("<plist><string><![CDATA[x")),
    ("xml-doctype-internal-subset", cf, text("<!DOCTYPE plist [ ]><plist><true/></plist>")),
    ("xml-malformed-tag", cf, text("<plist><true/></plist x>")),
    ("xml-lt-in-attribute", cf, text(#"<plist version="1<0"><true/></plist>"#)),
    ("xml-cdata", gs, xml("<plist><string><![CDATA[x]]></string></plist>")),
    ("xml-comment-in-text", cf, text("<plist><string>a<!-- c -->b</string></plist>")),
    ("xml-markup-in-text", cf, text("<plist><string>a<true/></string></plist>")),
    ("xml-bare-ampersand", cf, text("<plist><string>a & b</string></plist>")),
    ("xml-bad-character-reference", cf, text("<plist><string>&#;</string></plist>")),
    ("xml-undefined-entity", cf, text("<plist><string>&e;</string></plist>")),
    ("xml-control-character-in-number", cf, text("<plist><real>\u{0}.0</real></plist>")),
    ("xml-text-before-plist", cf, xml("x<plist><true/></plist>")),
    ("xml-empty-plist", cf, text("<plist/>")),
    ("xml-text-after-value", cf, text("<plist><true/>x</plist>")),
    ("xml-second-value", cf, text("<plist><true/><false/></plist>")),
    ("xml-content-after-end", gs, xml("<plist><true/></plist>x")),
    ("xml-text-outside-element", cf, text("<plist><array>x<true/></array></plist>")),
    ("xml-unexpected-close", cf, text("<plist></array></plist>")),
    ("xml-mismatched-close", cf, text("<plist><dict></array></plist>")),
    ("xml-key-without-value", cf, text("<plist><dict><key>k</key></dict></plist>")),
    ("xml-key-outside-dict", gs, xml("<plist><array><key>k</key></array></plist>")),
    ("xml-value-without-key", cf, text("<plist><dict><true/></dict></plist>")),
    ("xml-bad-integer", cf, text("<plist><integer>12abc</integer></plist>")),
    ("xml-hexadecimal-integer", gs, xml("<plist><integer>0x10</integer></plist>")),
    ("xml-bad-real", cf, text("<plist><real>abc</real></plist>")),
    ("xml-boolean-with-text", cf, text("<plist><true>x</true></plist>")),
    ("xml-bad-date", cf, text("<plist><date>yesterday</date></plist>")),
    ("xml-markup-in-data", cf, text("<plist><data>AA<![CDATA[x]]>AA</data></plist>")),
    ("xml-data-above-7f", cf, text("<plist><data>AAé</data></plist>")),
    ("xml-bad-base64", gs, xml("<plist><data>!!</data></plist>")),
    ("xml-unknown-element", cf, text("<plist><foo/></plist>")),
    ("truncated-binary", cf, text("bplist0")),
    ("binary-version", gs, patched(BinaryList.bplist(objects: [[0x09]]), 7, UInt8(ascii: "1"))),
    ("binary-offset-size", cf, trailer(6, 0)),
    ("binary-reference-size", cf, trailer(7, 9)),
    ("binary-object-count", cf, trailer(15, 0)),
    ("binary-top-object", cf, trailer(23, 5)),
    ("binary-table-offset", cf, trailer(31, 2)),
    ("binary-table-past-trailer", cf, trailer(31, 10)),
    ("binary-wide-fields", gs, trailer(7, 5)),
    ("binary-gap-before-trailer", cf, BinaryList.laidOut([[0x09]], gap: 2)),
    (
      "binary-offsets-too-narrow", cf,
      BinaryList.laidOut(
        [[0x4F, 0x11, 0x01, 0x2C] + Array(repeating: 0, count: 300)], offsetSize: 1)
    ),
    ("binary-offset-past-table", cf, BinaryList.laidOut([[0x09], [0x08]], offsets: [8, 10])),
    (
      "binary-references-too-narrow", cf,
      BinaryList.bplist(objects: Array(repeating: [0x09], count: 257))
    ),
    ("binary-offset-outside-objects", cf, BinaryList.laidOut([[0x09]], offsets: [2])),
    ("binary-object-past-table", cf, BinaryList.bplist(objects: [[0x13, 0x00]])),
    (
      "binary-count-marker", cf,
      BinaryList.bplist(objects: [[0x5F, 0x14, 0x03] + Array("abc".utf8)])
    ),
    ("binary-count-too-large", cf, BinaryList.bplist(objects: [[0x5F, 0x11, 0xFF, 0xFF]])),
    ("binary-dangling-reference", cf, BinaryList.bplist(objects: [[0xA1, 0x05]])),
    ("binary-null", cf, BinaryList.bplist(objects: [[0x00]])),
    ("binary-unknown-marker", cf, BinaryList.bplist(objects: [[0x0F]])),
    (
      "binary-integer-size", cf,
      BinaryList.bplist(objects: [[0x15] + Array(repeating: 0, count: 32)])
    ),
    (
      "binary-16-byte-integer", gs,
      BinaryList.bplist(objects: [[0x14] + Array(repeating: 0, count: 16)])
    ),
    ("binary-real-size", cf, BinaryList.bplist(objects: [[0x21, 0, 0]])),
    (
      "nonfinite-binary-date", cf,
      BinaryList.bplist(objects: [[0x33, 0x7F, 0xF0, 0, 0, 0, 0, 0, 0]])
    ),
    ("binary-empty-utf16-string", cf, BinaryList.bplist(objects: [[0x60]])),
    ("binary-set", gs, BinaryList.bplist(objects: [[0xC1, 1], [0x09]])),
    ("binary-uid-above-32-bits", cf, BinaryList.bplist(objects: [[0x84, 1, 2, 3, 4, 5]])),
    ("binary-wide-uid", gs, BinaryList.bplist(objects: [[0x82, 0, 0, 1]])),
    ("binary-container-key", cf, BinaryList.bplist(objects: [[0xD1, 1, 2], [0xA0], [0x09]])),
    ("binary-cycle", cf, BinaryList.bplist(objects: [[0xA1, 0x00]])),
    ("nonstring-key", cf, BinaryList.bplist(objects: [[0xD1, 1, 2], [0x10, 5], [0x09]])),
    ("openstep-truncated", cf, text("(a,")),
    ("openstep-unterminated-string", cf, text("(\"a")),
    ("openstep-data-odd-digits", cf, text("<abc>")),
    ("openstep-data-bad-character", cf, text("(<0z>)")),
    ("openstep-unexpected-character", cf, text("(a,,b)")),
    ("openstep-container-key", cf, text("{(a) = b;}")),
    ("openstep-missing-equals", cf, text("{a b;}")),
    ("openstep-missing-semicolon", cf, text("{a = b}")),
    ("openstep-junk-after-value", cf, text("{a = b c}")),
    ("openstep-content-after-end", cf, text("(a) b")),
    ("octal-escape-above-177", cf, text(#"("\351")"#)),
    ("unterminated-comment", cf, text("{ a = 1; } /* x")),
    ("gnustep-empty-document", gs, text(" /* c */ ")),
    ("gnustep-base64-empty", gs, text("<[^^]>")),
    ("gnustep-bad-base64", gs, text("<[====]>")),
    ("gnustep-typed-number", gs, text("<*Iabc>")),
    ("gnustep-typed-bool", gs, text("<*BX>")),
    ("gnustep-typed-date", gs, text("<*Dyesterday>")),
    ("gnustep-typed-unknown", gs, text("<*X1>")),
    ("invalid-text", cf, Data([0x28, 0x22, 0xFF, 0x22, 0x29])),
    (
      "safety-limits", cf,
      text(String(repeating: "(", count: 600) + String(repeating: ")", count: 600))
    ),
  ]

  @Test(arguments: examples.indices)
  func theRefusalNamesItsRow(_ n: Int) throws {
    let (row, options, input) = Self.examples[n]
    do {
      let document = try PropertyList.read(input, options: options)
      Issue.record("\(row): read as \(document.value)")
    } catch {
      #expect(error.compatibilityRow == row, "\(error)")
    }
  }

  /// Every row a refusal of the readers can name has its example above (the rows named only
  /// by a warning or by another layer are not refusals of these readers).
  @Test func everyRowHasAnExample() {
    let named = Set(Self.examples.map(\.row))
    let notRefusals: Set<String> = ["tools-read-more", "indistinct-keys"]
    let missing = Set(CompatibilityRow.allCases.map(\.rawValue)).subtracting(named)
      .subtracting(notRefusals)
    #expect(missing.isEmpty, "rows without an example: \(missing.sorted())")
  }
}
