import Foundation
import PropertyList
import Testing

/// The stand-ins for `String(format:)` and `CharacterSet` (the command links only
/// FoundationEssentials) against Foundation itself, over every Unicode scalar.
@Suite struct TextUtilitiesTests {
  static let scalars: [Unicode.Scalar] = (0...0x10FFFF).compactMap(Unicode.Scalar.init)

  @Test func characterClassesAreFoundationsSets() {
    var disagreements: [String] = []
    for scalar in Self.scalars {
      let checks: [(String, Bool, Bool)] = [
        (
          "whitespaces", CharacterClass.whitespace(scalar),
          CharacterSet.whitespaces.contains(scalar)
        ),
        ("newlines", CharacterClass.newline(scalar), CharacterSet.newlines.contains(scalar)),
        (
          "whitespacesAndNewlines", CharacterClass.whitespaceOrNewline(scalar),
          CharacterSet.whitespacesAndNewlines.contains(scalar)
        ),
      ]
      for (name, ours, foundation) in checks where ours != foundation {
        disagreements.append("\(name) U+\(String(scalar.value, radix: 16)): \(ours)")
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
  }

  @Test(arguments: [
    "", " ", "\t a b \t", "\u{3000}x\u{3000}", " \n x \r\n", "\u{85}y\u{2028}", "é ", " \u{1680}",
    "a\u{200B}", "\u{A0}\u{A0}", "x",
  ])
  func trimmingIsFoundations(_ text: String) {
    #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
    #expect(
      text.trimmingWhitespaceAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines))
    #expect(text.trimming(CharacterClass.newline) == text.trimmingCharacters(in: .newlines))
    #expect(text[...].trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
  }

  @Test(arguments: [0, 1, 0x0F, 0x10, 0xFF, 0x100, 0xFFFF, 0x10000, 0x10FFFF, UInt32.max])
  func hexIsPrintfs(_ value: UInt32) {
    #expect(value.hex(width: 2) == String(format: "%02x", value))
    #expect(value.hex(width: 4) == String(format: "%04x", value))
    #expect(value.hex(width: 4, uppercase: true) == String(format: "%04X", value))
    #expect(UInt8(truncatingIfNeeded: value).hex(width: 2) == String(format: "%02x", value & 0xFF))
  }

  @Test func codePointIsUnicodesSpelling() {
    for scalar in ["A", "é", "\u{1F600}", "\u{0}"].flatMap(\.unicodeScalars) {
      #expect(scalar.codePoint == String(format: "U+%04X", scalar.value))
    }
  }
}
