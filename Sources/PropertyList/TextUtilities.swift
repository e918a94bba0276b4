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

extension Unicode.Scalar {
  /// Whether a terminal could act on this character rather than show it: C0 and C1 controls
  /// and DEL (line breaks, escape sequences, a carriage return that overwrites the line), the
  /// line and paragraph separators, and the bidirectional controls that reorder what follows.
  package var drivesTerminal: Bool {
    switch value {
    case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x061C, 0x200E, 0x200F, 0x202A...0x202E,
      0x2066...0x2069:
      true
    default: false
    }
  }
}

extension String {
  /// Whether the text holds a character a terminal could act on (``Unicode/Scalar/drivesTerminal``).
  package var drivesTerminal: Bool { unicodeScalars.contains(where: \.drivesTerminal) }

  /// The text in ANSI-C quoting, `$'…'`, as bash, zsh and ksh read it and GNU `ls` prints a
  /// name that is not plain: `\n`, `\t`, `\r`, `\e`, `\\`, `\'`, `\xHH` for other bytes below
  /// 0x80, `\u`/`\U` for characters above. Read back by a shell, it is the text exactly.
  package var ansiCQuoted: String {
    let escapes: [Unicode.Scalar: String] = [
      "\n": "\\n", "\t": "\\t", "\r": "\\r", "\u{1B}": "\\e", "\\": "\\\\", "'": "\\'",
    ]
    return quoted(open: "$'", close: "'", escapes: escapes) { scalar in
      guard scalar.drivesTerminal else { return nil }
      if scalar.value < 0x80 { return "\\x" + scalar.value.hex(width: 2) }
      return scalar.value > 0xFFFF
        ? "\\U" + scalar.value.hex(width: 8) : "\\u" + scalar.value.hex(width: 4)
    }
  }

  /// The text between `open` and `close`, a character `escapes` names as it says, another
  /// one as `escape` writes it, or itself when that gives nil: the one loop of the package's
  /// quoting (ANSI-C here, Swift string literals in the generated plan source).
  package func quoted(
    open: String, close: String, escapes: [Unicode.Scalar: String],
    escape: (Unicode.Scalar) -> String?
  ) -> String {
    var out = open
    for scalar in unicodeScalars {
      if let escaped = escapes[scalar] ?? escape(scalar) {
        out += escaped
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out + close
  }

  /// The text as a line of human-readable output may show it: itself, or, when it holds a
  /// character a terminal could act on, ``ansiCQuoted`` (a key, a value or a file name a user
  /// wrote then cannot print a line of its own or drive the terminal of who reads the report).
  package var shownSafely: String { drivesTerminal ? ansiCQuoted : self }

  /// A name that may not be UTF-8 (a file name's bytes) as a person may read it: as text when it
  /// is UTF-8 (``shownSafely``), else in ANSI-C quoting with each byte that is not part of a
  /// character as `\xHH` (`$'bad\xff.plist'`, which a shell reads back as those bytes).
  package static func shown(bytes: [UInt8]) -> String {
    if let text = String(validating: bytes, as: UTF8.self) { return text.shownSafely }
    var out = "$'"
    var index = 0
    while index < bytes.count {
      // The longest valid character at `index`, else the byte alone.
      var taken = 0
      for length in 1...Swift.min(4, bytes.count - index) {
        if let character = String(validating: bytes[index..<index + length], as: UTF8.self) {
          out += String(character.ansiCQuoted.dropFirst(2).dropLast())
          taken = length
          break
        }
      }
      if taken == 0 {
        out += "\\x" + bytes[index].hex(width: 2)
        taken = 1
      }
      index += taken
    }
    return out + "'"
  }

  /// A message's text with each character a terminal could act on written as its escape
  /// (`\n`, `\e`, `\x07`, `\u202E`), the rest as it is: a message that names a key or a file
  /// stays one line, whatever the name holds.
  package var withControlsEscaped: String { escapingControls(keepingLineBreaks: false) }

  /// ``withControlsEscaped``, but a line break kept (a message whose own text has lines, as
  /// macOS `defaults`' have: the names in it are what the administrator typed).
  package func escapingControls(keepingLineBreaks: Bool) -> String {
    guard drivesTerminal else { return self }
    var out = ""
    for scalar in unicodeScalars {
      guard scalar.drivesTerminal, !(keepingLineBreaks && scalar == "\n") else {
        out.unicodeScalars.append(scalar)
        continue
      }
      let quoted = String(scalar).ansiCQuoted
      out += quoted.dropFirst(2).dropLast()
    }
    return out
  }
}

extension String {
  /// The word with its indefinite article, for messages: "an integer", "a string", "an apple
  /// app" (by the first letter: the type and dialect names these messages use have no
  /// exceptions such as "an hour" or "a unit").
  package var withArticle: String {
    guard let first = unicodeScalars.first else { return self }
    return ("aeiouAEIOU".unicodeScalars.contains(first) ? "an " : "a ") + self
  }
}
