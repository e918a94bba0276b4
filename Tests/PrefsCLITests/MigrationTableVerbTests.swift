import Foundation
import TestSupport
import Testing

/// MIGRATION.md's table "Where the two readers give different values" read here, and its
/// CoreFoundation column checked against what every verb does (issue 46): each row of the
/// table has examples below, and each example goes through `prefs lint`, `convert`, `read` and
/// the `plutil` personality, with CoreFoundation's answer taken from the toolchain's `plutil`
/// (over corelibs' CoreFoundation) on the same bytes, never from prefs:
///
/// - a file CoreFoundation reads: the verbs read it too, and the value `prefs convert` (and
///   `prefs plutil -convert`) writes is the value CoreFoundation read (`plutil -p` of both
///   files the same, a UID's address masked); `prefs read` prints what it prints of that file;
/// - a file CoreFoundation refuses: `prefs plutil` refuses it too, and `lint`, `convert` and
///   `read` either refuse it naming a row of Docs/compatibility.md's table, or read it (what
///   only GNUstep reads) with a warning naming `tools-read-more`, as both documents say.
@Suite(
  .enabled(if: Tools.toolchainPlutil != nil || External.required, "needs the toolchain's plutil"))
struct MigrationTableVerbTests {
  static let prefs = External.product("prefs")

  struct Example: Sendable, CustomStringConvertible {
    /// The start of the row's first cell in MIGRATION.md.
    let row: String
    let name: String
    let data: Data
    var description: String { name }
  }

  static func text(_ s: String) -> Data { Data(s.utf8) }
  static func xml(_ body: String) -> Data { Data("<plist>\(body)</plist>".utf8) }
  static func bytes(_ head: String, _ raw: [UInt8], _ tail: String) -> Data {
    Data(head.utf8) + Data(raw) + Data(tail.utf8)
  }
  static func int16(_ high: UInt64, _ low: UInt64) -> [UInt8] {
    [0x14] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: high >> ($0 * 8)) }
      + (0..<8).reversed().map { UInt8(truncatingIfNeeded: low >> ($0 * 8)) }
  }

  static let examples: [Example] = [
    Example(
      row: "a key twice in a binary dictionary", name: "binary-key-twice",
      data: BinaryList.bplist(objects: [
        [0xD2, 1, 1, 2, 3], BinaryList.ascii("k"), [0x10, 1], [0x10, 2],
      ])),
    Example(
      row: "a lowercase `\\u00e9` in an OpenStep string", name: "lowercase-u",
      data: text(#"("\u00e9", "\U00e9")"#)),
    Example(
      row: "a `\\u`, `\\U` or octal escape short of its digits", name: "short-U",
      data: text(#"("a\U41")"#)),
    Example(
      row: "a `\\u`, `\\U` or octal escape short of its digits", name: "short-octal",
      data: text(#"("a\12")"#)),
    Example(
      row: "a `CF$UID` dictionary in XML", name: "uid-xml",
      data: xml("<dict><key>CF$UID</key><integer>7</integer></dict>")),
    Example(
      row: "a `CF$UID` dictionary in XML", name: "uid-binary-4-bytes",
      data: BinaryList.bplist(objects: [[0x83, 0, 1, 0, 9]])),
    Example(
      row: "a `CF$UID` dictionary in XML", name: "uid-above-32-bits",
      data: BinaryList.bplist(objects: [[0x87, 0, 0, 0, 1, 0, 0, 0, 9]])),
    Example(row: "`<data>` base64", name: "base64-AA", data: xml("<data>AA</data>")),
    Example(row: "`<data>` base64", name: "base64-groups", data: xml("<data>QQ==QQ==</data>")),
    Example(row: "`<data>` base64", name: "base64-space", data: xml("<data>QUJD RA</data>")),
    Example(
      row: "an impossible `<date>`", name: "date-feb-29",
      data: xml("<date>2001-02-29T00:00:00Z</date>")),
    Example(
      row: "an impossible `<date>`", name: "date-hour-24",
      data: xml("<date>2001-01-01T24:00:00Z</date>")),
    Example(
      row: "an impossible `<date>`", name: "date-month-13",
      data: xml("<date>2001-13-01T00:00:00Z</date>")),
    Example(
      row: "a strings file with a key CoreFoundation cannot read", name: "strings-star",
      data: text(#"a = "1"; * = "2";"#)),
    Example(
      row: "a strings file with a key CoreFoundation cannot read", name: "strings-brace",
      data: text(#"a = "1"; }"#)),
    Example(
      row: "a strings file with a key CoreFoundation cannot read", name: "strings-open-key",
      data: text(#"a = "1"; "b"#)),
    Example(row: "a bare `key;` in a strings file", name: "strings-bare-key", data: text("a;")),
    Example(
      row: "content after the top value", name: "junk-after-plist",
      data: text("<plist><true/></plist>junk")),
    Example(
      row: "content after the top value", name: "doctype-quote",
      data: text(#"<!DOCTYPE plist "x><plist><true/></plist>"#)),
    Example(
      row: "content after the top value", name: "doctype-twice",
      data: text("<!DOCTYPE plist><!DOCTYPE plist><plist><true/></plist>")),
    Example(
      row: "a `<key>` where a value stands", name: "key-as-value",
      data: xml("<dict><key>k</key><key>v</key></dict>")),
    Example(
      row: "a `<key>` where a value stands", name: "key-in-array",
      data: xml("<array><key>k</key></array>")),
    Example(
      row: "white space around an XML `<integer>`", name: "integer-space-sign",
      data: xml("<integer>- 5</integer>")),
    Example(
      row: "white space around an XML `<integer>`", name: "integer-space-hex",
      data: xml("<integer> +0x10</integer>")),
    Example(
      row: "white space around an XML `<integer>`", name: "integer-space-after",
      data: xml("<integer>5 </integer>")),
    Example(
      row: "white space around an XML `<integer>`", name: "true-space",
      data: xml("<true> </true>")),
    Example(
      row: "white space around an XML `<integer>`", name: "real-space",
      data: xml("<real>1.5 </real>")),
    Example(
      row: "an XML declaration's `encoding=\"US-ASCII\"`", name: "us-ascii-utf8",
      data: bytes(
        #"<?xml version="1.0" encoding="US-ASCII"?><plist><string>"#, [0xC3, 0xA9],
        "</string></plist>")),
    Example(
      row: "`encoding=\"windows-1252\"`", name: "windows-1252",
      data: bytes(
        #"<?xml version="1.0" encoding="windows-1252"?><plist><string>"#, [0x80, 0xE9],
        "</string></plist>")),
    Example(
      row: "`encoding=\"windows-1252\"`", name: "cp1252",
      data: bytes(
        #"<?xml version="1.0" encoding="cp1252"?><plist><string>"#, [0x80],
        "</string></plist>")),
    Example(
      row: "`encoding=\"windows-1252\"`", name: "windows-1252-0x81",
      data: bytes(
        #"<?xml version="1.0" encoding="windows-1252"?><plist><string>"#, [0x81],
        "</string></plist>")),
    Example(
      row: "an `<integer>` above Int64.max in XML", name: "integer-uint64-max",
      data: xml("<integer>18446744073709551615</integer>")),
    Example(
      row: "a hexadecimal `<integer>`", name: "integer-hex", data: xml("<integer>0x10</integer>")),
    Example(
      row: "a CDATA section in XML", name: "cdata",
      data: xml("<string><![CDATA[a<b]]></string>")),
    Example(
      row: "a 16-byte binary integer", name: "int16-minus-2",
      data: BinaryList.bplist(objects: [int16(.max, .max - 1)])),
    Example(
      row: "a 16-byte binary integer", name: "int16-2^64+5",
      data: BinaryList.bplist(objects: [[0xA1, 1], int16(1, 5)])),
    Example(
      row: "a 16-byte binary integer", name: "int16-7",
      data: BinaryList.bplist(objects: [int16(0, 7)])),
    Example(
      row: "bytes between the offset table and the trailer", name: "binary-gap",
      data: BinaryList.laidOut([[0x09]], offsetSize: 1, gap: 2)),
    Example(
      row: "bytes between the offset table and the trailer", name: "binary-narrow-offsets",
      data: BinaryList.laidOut(
        [[0x5F, 0x11, 0x01, 0x2C] + [UInt8](repeating: 0x61, count: 300)], offsetSize: 1)),
    Example(
      row: "bytes between the offset table and the trailer", name: "binary-entry-past-table",
      data: BinaryList.laidOut([[0x09], [0x08]], offsets: [8, 10], offsetSize: 1)),
    Example(
      row: "bytes between the offset table and the trailer", name: "doctype-internal-subset",
      data: text(#"<!DOCTYPE plist [ <!ENTITY a "b"> ]><plist><true/></plist>"#)),
    Example(
      row: "a string starting with U+FFFE in OpenStep text", name: "openstep-fffe-escape",
      data: text(#"("\UFFFEab")"#)),
    Example(
      row: "a string starting with U+FFFE in OpenStep text", name: "openstep-fffe",
      data: text("(\"\u{FFFE}ab\")")),
    Example(
      row: "U+FEFF in a string; a byte-order mark", name: "openstep-feff",
      data: text("(\"\u{FEFF}ab\")")),
    Example(
      row: "U+FEFF in a string; a byte-order mark", name: "xml-feff",
      data: xml("<string>\u{FEFF}ab</string>")),
    Example(
      row: "U+FEFF in a string; a byte-order mark", name: "xml-bom",
      data: Data([0xEF, 0xBB, 0xBF]) + xml("<true/>")),
    Example(
      row: "U+FEFF in a string; a byte-order mark", name: "openstep-bom",
      data: Data([0xEF, 0xBB, 0xBF]) + text(#"("a")"#)),
  ]

  static func document(_ path: String) throws -> String {
    try String(contentsOf: External.packageRoot.appendingPathComponent(path), encoding: .utf8)
  }

  /// The first cells of MIGRATION.md's table of the two readers' values.
  static func tableRows() throws -> [String] {
    let lines = try document("MIGRATION.md").split(
      separator: "\n", omittingEmptySubsequences: false)
    let header = try #require(
      lines.firstIndex { $0.hasPrefix("| bytes | CoreFoundation (`apple`, `corelibs`, the tools)") }
    )
    var rows: [String] = []
    for line in lines[(header + 2)...] {
      guard line.hasPrefix("|") else { break }
      let cells = line.split(separator: "|", omittingEmptySubsequences: false)
      rows.append(cells[1].trimmingCharacters(in: .whitespaces))
    }
    return rows
  }

  /// The ids of Docs/compatibility.md's rows.
  static func compatibilityRows() throws -> Set<String> {
    let table = try document("Docs/compatibility.md").split(separator: "\n").filter {
      $0.hasPrefix("|")
    }.joined(separator: "\n")
    return Set(
      table.matches(of: /\[differential: ([a-z0-9-]+)\]/).map { String($0.output.1) })
  }

  @Test func everyRowOfTheTableHasExamples() throws {
    let rows = try Self.tableRows()
    #expect(rows.count >= 20)
    for row in rows {
      #expect(Self.examples.contains { row.hasPrefix($0.row) }, "no example of the row \(row)")
    }
    for example in Self.examples {
      #expect(
        rows.filter { $0.hasPrefix(example.row) }.count == 1,
        "\(example.name): \(example.row) names no one row of the table")
    }
  }

  /// `plutil -p`'s text with the addresses it prints for a UID masked (they differ each run).
  static func printed(_ result: ProcessResult) -> String {
    result.output.replacing(/_NSKeyedArchiverUID: 0x[0-9a-f]+/, with: "_NSKeyedArchiverUID")
  }

  @Test(arguments: examples)
  func theVerbsReadAsCoreFoundationReads(_ example: Example) async throws {
    let plutil = try #require(Tools.toolchainPlutil)
    let folder = try TemporaryFolder()
    let file = folder.file("example.plist")
    try example.data.write(to: file)
    let environment = ["XDG_CONFIG_HOME": folder.url.path]
    // Each process waited for off the cooperative pool: these are many, and short.
    func prefs(_ arguments: [String]) async throws -> ProcessResult {
      try await External.runOffPool(Self.prefs, arguments, environment: environment)
    }
    func cf(_ arguments: [String]) async throws -> ProcessResult {
      try await External.runOffPool(plutil, arguments)
    }
    let reference = try await cf(["-p", file.path])
    let lint = try await prefs(["lint", "--json", file.path])
    let converted = folder.file("converted.plist")
    let convert = try await prefs(["convert", file.path, "--to", "binary", "-o", converted.path])
    let read = try await prefs(["read", file.path])
    let personality = folder.file("personality.plist")
    let personalityConvert = try await prefs([
      "plutil", "-convert", "binary1", "-o", personality.path, file.path,
    ])
    let personalityXML = try await prefs(["plutil", "-convert", "xml1", "-o", "-", file.path])
    let personalityPrint = try await prefs(["plutil", "-p", file.path])

    guard reference.status == 0, reference.signal == nil else {
      // CoreFoundation refuses the file: so does the personality, every way.
      for result in [personalityConvert, personalityXML, personalityPrint] {
        #expect(
          result.status == 1, "\(example.name): plutil refuses it, prefs plutil: \(result.output)")
      }
      let rows = try Self.compatibilityRows()
      if lint.status == 0 {
        // What only GNUstep reads: the tools read it, with a warning naming their row.
        #expect(
          lint.output.contains("tools-read-more"), "\(example.name): no warning: \(lint.output)")
        #expect(convert.status == 0 && read.status == 0, "\(convert.stderr) \(read.stderr)")
        #expect(read.stderr.contains("[differential: tools-read-more]"), "\(read.stderr)")
        #expect(rows.contains("tools-read-more"))
      } else {
        #expect(lint.status == 65, "\(example.name): \(lint.output) \(lint.stderr)")
        let row = try #require(
          lint.output.firstMatch(of: /"row":"([a-z0-9-]+)"/)?.output.1,
          "\(example.name): the refusal names no row: \(lint.output)")
        #expect(rows.contains(String(row)), "\(example.name): \(row) is no row of the table")
        for result in [convert, read] {
          #expect(result.status == 65, "\(example.name): \(result.stderr)")
          #expect(result.stderr.contains("[differential: \(row)]"), "\(result.stderr)")
        }
      }
      return
    }
    // CoreFoundation reads it: every verb reads the value it read.
    #expect(lint.status == 0, "\(example.name): \(lint.output) \(lint.stderr)")
    #expect(convert.status == 0, "\(example.name): \(convert.stderr)")
    #expect(read.status == 0, "\(example.name): \(read.stderr)")
    // The personality converts what `plutil -convert` converts (neither writes a UID).
    let cfCopy = folder.file("cf.plist")
    let cfConvert = try await cf(["-convert", "binary1", "-o", cfCopy.path, file.path])
    #expect(
      personalityConvert.status == cfConvert.status,
      "\(example.name): \(personalityConvert.stderr) / \(cfConvert.output)")
    let expected = Self.printed(reference)
    for written in [converted] + (cfConvert.status == 0 ? [personality] : []) {
      let back = try await cf(["-p", written.path])
      #expect(back.status == 0, "\(example.name): \(back.stderr)")
      #expect(Self.printed(back) == expected, "\(example.name): \(written.lastPathComponent)")
    }
    // `read` prints that value: as it prints CoreFoundation's own file of it.
    let canonical = try await prefs(["read", converted.path])
    #expect(read.output == canonical.output, "\(example.name)")
    #expect(!read.output.isEmpty)
  }
}
