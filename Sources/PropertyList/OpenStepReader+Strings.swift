#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// OpenStep strings: bare, or quoted with their escapes as each reader reads them.
extension OpenStepReader {
  mutating func readUnquoted() -> String {
    let start = i
    var beyondCoreFoundation = false
    while i < b.count, isUnquoted(b[i]) {
      if !OpenStepWriter.isUnquotedCharacter(b[i]) { beyondCoreFoundation = true }
      i += 1
    }
    let text = String(decoding: b[start..<i], as: UTF8.self)
    if beyondCoreFoundation, case .gnustep(beyondCoreFoundation: .warned) = rules.unquoted {
      warnings.append(.unquotedBeyondCoreFoundation(text, at: location(start)))
    }
    return text
  }

  /// Whether `c` may stand in an unquoted string in this grammar.
  func isUnquoted(_ c: UInt8) -> Bool {
    switch rules.unquoted {
    case .coreFoundation: OpenStepWriter.isUnquotedCharacter(c)
    case .gnustep: Self.isGNUstepUnquoted(c)
    }
  }

  /// GNUstep's unquoted characters (`quotables` in NSPropertyList.m): printable ASCII but
  /// space and `" ' ( ) , ; < = > [ \ ] ` { }`. CoreFoundation's are fewer (letters, digits and
  /// `_ $ / : . -`); a string using the others is read, with a warning.
  static func isGNUstepUnquoted(_ c: UInt8) -> Bool {
    guard c > 0x20, c < 0x7F else { return false }
    switch c {
    case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
      UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "<"), UInt8(ascii: "="),
      UInt8(ascii: ">"), UInt8(ascii: "["), UInt8(ascii: "\\"), UInt8(ascii: "]"),
      UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "}"):
      return false
    default: return true
    }
  }

  mutating func readQuoted() throws(PlistError) -> String {
    let start = i
    let quote = b[i]
    i += 1
    var runStart = i
    // After the first escape, text is collected as UTF-16 so that \U escapes of surrogate
    // halves pair up.
    var units: [UInt16] = []
    var escaped = false
    while true {
      guard i < b.count else {
        throw .truncated(
          format: format, at: location(start),
          expected: "a closing quote for the string started here"
            .naming(.openStepUnterminatedString))
      }
      let c = b[i]
      if c == quote {
        defer { i += 1 }
        guard escaped else {
          return try asGNUstepReads(String(decoding: b[runStart..<i], as: UTF8.self), start: start)
        }
        units.append(contentsOf: String(decoding: b[runStart..<i], as: UTF8.self).utf16)
        return try asGNUstepReads(try string(fromUTF16: units, start: start), start: start)
      }
      guard c == UInt8(ascii: "\\") else {
        i += 1
        continue
      }
      escaped = true
      units.append(contentsOf: String(decoding: b[runStart..<i], as: UTF8.self).utf16)
      i += 1
      guard i < b.count else { throw eof("an escaped character") }
      let e = b[i]
      i += 1
      var unit: UInt16
      switch e {
      case UInt8(ascii: "a"): unit = 0x07
      case UInt8(ascii: "b"): unit = 0x08
      case UInt8(ascii: "f"): unit = 0x0C
      case UInt8(ascii: "n"): unit = 0x0A
      case UInt8(ascii: "r"): unit = 0x0D
      case UInt8(ascii: "t"): unit = 0x09
      case UInt8(ascii: "v"): unit = 0x0B
      case UInt8(ascii: "0")...UInt8(ascii: "7"):
        unit = UInt16(e - UInt8(ascii: "0"))
        var digits = 1
        while digits < 3, i < b.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(b[i]) {
          unit = unit * 8 + UInt16(b[i] - UInt8(ascii: "0"))
          i += 1
          digits += 1
        }
        if rules.escapes == .gnustep {
          // GNUstep: the code point itself (`\351` is é), dropped when it ends the string short
          // of its three digits.
          if digits < 3, droppedAtEnd(quote: quote, escapeStart: i - digits - 1) {
            runStart = i
            continue
          }
        } else {
          // Octal escapes name bytes; above 0x7F CoreFoundation maps them through the NeXTSTEP
          // encoding, which this reader does not carry: it refuses rather than guess.
          guard unit < 0x80 else {
            throw .unsupported(
              format: format, at: location(i - digits - 1),
              feature: "an octal escape above \\177 (a NeXTSTEP-encoded byte)"
                .naming(.octalEscapeAbove177))
          }
        }
      case UInt8(ascii: "U"),
        UInt8(ascii: "u") where e == UInt8(ascii: "U") || rules.escapes == .gnustep:
        // Up to four hex digits; none is U+0000, as both readers read it. GNUstep alone takes
        // the lowercase `\u` too, and drops an escape that ends the string short of its digits.
        unit = 0
        var digits = 0
        while digits < 4, i < b.count, let h = Self.hexValue(b[i]) {
          unit = unit * 16 + UInt16(h)
          i += 1
          digits += 1
        }
        if rules.escapes == .gnustep, digits < 4,
          droppedAtEnd(quote: quote, escapeStart: i - digits - 2)
        {
          runStart = i
          continue
        }
      case UInt8(ascii: "u"):
        // CoreFoundation: `\u` is no escape, the letter stands for itself (`\u00e9` is the text
        // `u00e9`), where GNUstep reads a character.
        if i < b.count, Self.hexValue(b[i]) != nil {
          warnings.append(
            .readAs(
              .coreFoundation,
              "the escape \\u as the letter u (GNUstep reads \\u and the hex "
                + "digits after it as one character)", at: location(i - 2)))
        }
        unit = UInt16(UInt8(ascii: "u"))
      default:
        // Any other escaped character stands for itself (it may be a multi-byte one).
        let charStart = i - 1
        var end = i
        while end < b.count, b[end] & 0xC0 == 0x80 { end += 1 }
        units.append(contentsOf: String(decoding: b[charStart..<end], as: UTF8.self).utf16)
        i = end
        runStart = i
        continue
      }
      units.append(unit)
      runStart = i
    }
  }

  /// A quoted string as the reader gives it: GNUstep drops one U+FEFF that starts it, and
  /// takes a U+FFFE that starts it for a byte-swapped byte-order mark: it drops it and swaps
  /// the bytes of every UTF-16 unit after it (`"\UFFFEab"` is U+6100 U+6200; GNUstep Base
  /// 1.28), with a warning. (Elsewhere in a string both are kept.)
  private mutating func asGNUstepReads(_ text: String, start: Int) throws(PlistError) -> String {
    guard rules.escapes == .gnustep, let first = text.unicodeScalars.first else { return text }
    if first == "\u{FEFF}" { return String(text.unicodeScalars.dropFirst()) }
    guard first == "\u{FFFE}" else { return text }
    warnings.append(
      .readAs(
        .gnustep,
        "a string starting with U+FFFE as the rest of its UTF-16 units byte-swapped (GNUstep "
          + "takes U+FFFE for a swapped byte-order mark)", at: location(start)))
    return try string(fromUTF16: text.utf16.dropFirst().map(\.byteSwapped), start: start)
  }

  /// Whether a numeric escape ends right before the closing quote, short of its digits:
  /// GNUstep drops such a character (its loop ends before the character is stored).
  private mutating func droppedAtEnd(quote: UInt8, escapeStart: Int) -> Bool {
    guard i < b.count, b[i] == quote else { return false }
    warnings.append(
      .readAs(
        .gnustep, "no character for the escape that ends the string short of its digits",
        at: location(escapeStart)))
    return true
  }

  private func string(fromUTF16 units: [UInt16], start: Int) throws(PlistError) -> String {
    guard let text = TextInput.string(fromUTF16: units) else {
      throw .invalidText(format: format, at: location(start), encoding: "UTF-16 (\\U escapes)")
    }
    return text
  }
}
