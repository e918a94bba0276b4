import Foundation
import PropertyList
import TestSupport
import Testing

/// The quick ways through a binary file (`lint`'s check, `convert`'s and `plutil -convert`'s
/// stream) read by the rules of the reader the full path reads with, never by their own: a
/// file CoreFoundation refuses (its offset table's flaws, a UTF-16 string of no characters,
/// each a row of Docs/compatibility.md; the toolchain's `plutil` refuses these bytes in
/// `MigrationTableVerbTests`) is never called clean nor streamed for CoreFoundation's rules,
/// and the tools, which read what GNUstep reads, read it with a warning naming
/// `tools-read-more` (GNUstep reads each: `gnustep` has no warning).
@Suite struct FastPathRulesTests {
  static let flawed: [(row: String, data: Data)] = [
    ("binary-gap-before-trailer", BinaryList.laidOut([[0x09]], gap: 2)),
    (
      "binary-offsets-too-narrow",
      BinaryList.laidOut(
        [[0x5F, 0x11, 0x01, 0x2C] + [UInt8](repeating: 0x61, count: 300)], offsetSize: 1)
    ),
    ("binary-offset-past-table", BinaryList.laidOut([[0x09], [0x08]], offsets: [8, 10])),
    ("binary-empty-utf16-string", BinaryList.bplist(objects: [[0xA1, 1], [0x60]])),
    (
      "binary-empty-utf16-string",
      BinaryList.bplist(objects: [[0xD1, 1, 2], [0x60], [0x09]])
    ),
  ]

  @Test(arguments: flawed.indices)
  func theQuickWaysReadByTheFullReadsRules(_ n: Int) throws {
    let (row, data) = Self.flawed[n]
    // CoreFoundation's rules: refused, named by its row; no quick way says otherwise.
    do {
      let document = try PropertyList.read(data, options: .coreFoundation)
      Issue.record("\(row): read as \(document.value)")
    } catch {
      #expect(error.compatibilityRow == row, "\(error)")
    }
    #expect(!PropertyList.isCleanBinary(data, options: .coreFoundation))
    #expect(PropertyList.streamed(data, as: .xml, options: .coreFoundation) == nil)
    #expect(PropertyList.streamedJSON(data, lossless: true, options: .coreFoundation) == nil)
    // The tools: read, with a warning naming the row of what they read beyond CoreFoundation.
    let tools = try PropertyList.read(data, options: .lenient)
    #expect(
      tools.warnings.contains { $0.compatibilityRow == "tools-read-more" }, "\(tools.warnings)")
    #expect(!PropertyList.isCleanBinary(data))
    #expect(PropertyList.streamed(data, as: .xml) == nil)
    // GNUstep reads it, as it is.
    let gnustep = try PropertyList.read(data, options: .gnustep)
    #expect(gnustep.warnings.isEmpty, "\(gnustep.warnings)")
    #expect(gnustep.value == tools.value)
  }

  /// A clean file is still decided by the quick ways, for either reader's rules.
  @Test func aCleanFileIsCleanForEveryRules() throws {
    let data = BinaryList.bplist(objects: [[0xD1, 1, 2], BinaryList.ascii("k"), [0x10, 5]])
    #expect(PropertyList.isCleanBinary(data, options: .coreFoundation))
    #expect(PropertyList.isCleanBinary(data))
    let streamed = try #require(PropertyList.streamed(data, as: .xml, options: .coreFoundation))
    #expect(streamed == (try PropertyList.write(try PropertyList.read(data).value, as: .xml)))
  }
}
