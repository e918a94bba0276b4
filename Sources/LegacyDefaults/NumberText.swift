#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The character sets and number pieces the dialects' getters share, written out so that no
/// platform's `NSString` (which differs between Apple, GNUstep and corelibs) decides them. Each
/// dialect's own text-to-number and number-to-text rules are in its file (`DialectApple.swift`,
/// `DialectGNUstep.swift`, `DialectCorelibs.swift`).
enum NumberText {
  /// `NSCharacterSet.whitespaceAndNewlines` (see the UTF-16 form below).
  static func isWhitespaceOrNewline(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value <= 0xFFFF && isWhitespaceOrNewline(UInt16(scalar.value))
  }

  /// The longest decimal floating-point prefix: sign, digits, `.`, digits, exponent. Returns
  /// the text of that prefix (nil when it has no digit). Finds the end first and copies once,
  /// so a long input costs one pass.
  static func decimalPrefix(_ scalars: Substring.UnicodeScalarView) -> String? {
    var index = scalars.startIndex
    let end = scalars.endIndex
    /// The end of the run of ASCII digits starting at `start`, and how many there were.
    func digitRun(from start: Substring.UnicodeScalarView.Index)
      -> (end: Substring.UnicodeScalarView.Index, count: Int)
    {
      var i = start
      var count = 0
      while i < end, scalars[i].value >= 0x30, scalars[i].value <= 0x39 {
        count += 1
        i = scalars.index(after: i)
      }
      return (i, count)
    }
    if index < end, scalars[index] == "+" || scalars[index] == "-" {
      index = scalars.index(after: index)
    }
    let integer = digitRun(from: index)
    var digits = integer.count
    index = integer.end
    if index < end, scalars[index] == "." {
      let fraction = digitRun(from: scalars.index(after: index))
      if digits + fraction.count > 0 {
        digits += fraction.count
        index = fraction.end
      }
    }
    guard digits > 0 else { return nil }
    if index < end, scalars[index] == "e" || scalars[index] == "E" {
      var lookahead = scalars.index(after: index)
      if lookahead < end, scalars[lookahead] == "+" || scalars[lookahead] == "-" {
        lookahead = scalars.index(after: lookahead)
      }
      let exponent = digitRun(from: lookahead)
      if exponent.count > 0 { index = exponent.end }
    }
    return String(scalars[scalars.startIndex..<index])
  }

  // MARK: - Character sets (UTF-16 code units)

  /// glibc `isspace` in the C locale.
  static func isCSpace(_ u: UInt16) -> Bool { u == 0x20 || (0x09...0x0D).contains(u) }

  /// `whitespaceCharacterSet`: U+0009, U+0020, U+00A0, U+1680, U+2000–U+200B, U+202F, U+205F,
  /// U+3000.
  static func isWhitespace(_ u: UInt16) -> Bool {
    switch u {
    case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: true
    default: false
    }
  }

  /// `whitespaceAndNewlineCharacterSet`: the white space above and U+000A–U+000D, U+0085,
  /// U+2028, U+2029.
  static func isWhitespaceOrNewline(_ u: UInt16) -> Bool {
    isWhitespace(u) || (0x0A...0x0D).contains(u) || u == 0x85 || u == 0x2028 || u == 0x2029
  }

  static func isDigit(_ u: UInt16) -> Bool { u >= 0x30 && u <= 0x39 }

  /// `strtol` of sign-and-digits text: clamps on overflow, no digits gives 0.
  static func clampedDecimal(_ text: String) -> Int {
    let negative = text.hasPrefix("-")
    let digits = text.drop { $0 == "+" || $0 == "-" }
    guard !digits.isEmpty else { return 0 }
    var value = 0
    for c in digits.utf8 {
      let digit = Int(c - UInt8(ascii: "0"))
      let (m, o1) = value.multipliedReportingOverflow(by: 10)
      let (a, o2) =
        negative ? m.subtractingReportingOverflow(digit) : m.addingReportingOverflow(digit)
      if o1 || o2 { return negative ? .min : .max }
      value = a
    }
    return value
  }

  /// The x86-64 `cvttsd2si` conversion GNUstep's and corelibs' `NSNumber` use: truncation,
  /// and Int64.min for NaN, infinities and everything outside [-2^63, 2^63).
  static func x86Integer(_ d: Double) -> Int {
    if d.isNaN || d >= 9_223_372_036_854_775_808.0 || d < -9_223_372_036_854_775_808.0 {
      return .min
    }
    return Int(d.rounded(.towardZero))
  }
}
