#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// The few text operations of Foundation's `String(format:)` and `CharacterSet` that the
// package needs, written against the standard library so that nothing but
// FoundationEssentials is linked (libFoundation and ICU double the command's start-up time).
// The tests compare each against Foundation itself.

extension BinaryInteger {
  /// The (non-negative) value zero-padded to at least `width` digits of `radix`: `%0<width>d`,
  /// or `%0<width>x` (`%0<width>X` when `uppercase`) in radix 16.
  package func zeroPadded(width: Int, radix: Int = 10, uppercase: Bool = false) -> String {
    let digits = String(self, radix: radix, uppercase: uppercase)
    return digits.count >= width
      ? digits : String(repeating: "0", count: width - digits.count) + digits
  }

  /// The value in hexadecimal, zero-padded to at least `width` digits: `%0<width>x`
  /// (`%0<width>X` when `uppercase`).
  package func hex(width: Int, uppercase: Bool = false) -> String {
    zeroPadded(width: width, radix: 16, uppercase: uppercase)
  }
}

extension Unicode.Scalar {
  /// `U+0041`: the code point as Unicode writes it (at least four uppercase digits).
  package var codePoint: String { "U+" + value.hex(width: 4, uppercase: true) }
}

/// Membership in Foundation's predefined character sets, by their documented definitions.
package enum CharacterClass {
  /// `CharacterSet.whitespaces`: general category Zs, CHARACTER TABULATION, and (as
  /// CoreFoundation has it, measured against Foundation) ZERO WIDTH SPACE.
  package static func whitespace(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "\t" || scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
  }

  /// `CharacterSet.newlines`: U+000A–U+000D, U+0085, U+2028 and U+2029.
  package static func newline(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
    default: false
    }
  }

  /// `CharacterSet.whitespacesAndNewlines`.
  package static func whitespaceOrNewline(_ scalar: Unicode.Scalar) -> Bool {
    newline(scalar) || whitespace(scalar)
  }
}

extension StringProtocol {
  /// The text without the leading and trailing scalars in `drop`, as
  /// `trimmingCharacters(in:)` with the matching character set.
  package func trimming(_ drop: (Unicode.Scalar) -> Bool) -> String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !drop($0) }) else { return "" }
    var end = scalars.endIndex
    while end > first {
      let before = scalars.index(before: end)
      if !drop(scalars[before]) { break }
      end = before
    }
    var kept = String.UnicodeScalarView()
    kept.append(contentsOf: scalars[first..<end])
    return String(kept)
  }

  /// `trimmingCharacters(in: .whitespaces)`.
  package func trimmingWhitespace() -> String { trimming(CharacterClass.whitespace) }

  /// `trimmingCharacters(in: .whitespacesAndNewlines)`.
  package func trimmingWhitespaceAndNewlines() -> String {
    trimming(CharacterClass.whitespaceOrNewline)
  }
}
