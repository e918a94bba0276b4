import Foundation

/// The text-to-number and number-to-text rules of the legacy getters, written out so that no
/// platform's `NSString` (which differs between Apple, GNUstep and corelibs) decides them.
enum NumberText {
  /// `NSCharacterSet.whitespaceAndNewlines`: Unicode white space (Zs), tab, and the line
  /// and paragraph separators.
  static func isWhitespaceOrNewline(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F,
      0x3000:
      true
    default: false
    }
  }

  /// Apple's `intValue(s)`: skip leading white space and newlines, one optional `+` or `-`,
  /// then ASCII decimal digits up to the first non-digit; no digits gives 0; overflow clamps.
  static func appleInteger(_ s: String) -> Int {
    var scalars = s.unicodeScalars.drop(while: isWhitespaceOrNewline)[...]
    var negative = false
    if let first = scalars.first, first == "+" || first == "-" {
      negative = first == "-"
      scalars = scalars.dropFirst()
    }
    var value = 0
    var overflow = false
    for scalar in scalars {
      guard scalar.value >= 0x30, scalar.value <= 0x39 else { break }
      let digit = Int(scalar.value - 0x30)
      if overflow { continue }
      let (m, o1) = value.multipliedReportingOverflow(by: 10)
      let (a, o2) =
        negative ? m.subtractingReportingOverflow(digit) : m.addingReportingOverflow(digit)
      if o1 || o2 {
        overflow = true
        value = negative ? .min : .max
      } else {
        value = a
      }
    }
    return value
  }

  /// The longest decimal floating-point prefix after `skip`: sign, digits, `.`, digits,
  /// exponent. Returns the text of that prefix (nil when it has no digit).
  static func decimalPrefix(_ scalars: Substring.UnicodeScalarView) -> String? {
    var text = ""
    var index = scalars.startIndex
    func peek() -> Unicode.Scalar? { index < scalars.endIndex ? scalars[index] : nil }
    func isDigit(_ c: Unicode.Scalar?) -> Bool {
      c.map { $0.value >= 0x30 && $0.value <= 0x39 } ?? false
    }
    if let c = peek(), c == "+" || c == "-" {
      text.unicodeScalars.append(c)
      index = scalars.index(after: index)
    }
    var digits = 0
    while isDigit(peek()), let c = peek() {
      text.unicodeScalars.append(c)
      digits += 1
      index = scalars.index(after: index)
    }
    if peek() == "." {
      var fraction = "."
      var lookahead = scalars.index(after: index)
      var fractionDigits = 0
      while lookahead < scalars.endIndex, isDigit(scalars[lookahead]) {
        fraction.unicodeScalars.append(scalars[lookahead])
        fractionDigits += 1
        lookahead = scalars.index(after: lookahead)
      }
      if digits + fractionDigits > 0 {
        text += fraction
        digits += fractionDigits
        index = lookahead
      }
    }
    guard digits > 0 else { return nil }
    if let c = peek(), c == "e" || c == "E" {
      var exponent = "e"
      var lookahead = scalars.index(after: index)
      if lookahead < scalars.endIndex, scalars[lookahead] == "+" || scalars[lookahead] == "-" {
        exponent.unicodeScalars.append(scalars[lookahead])
        lookahead = scalars.index(after: lookahead)
      }
      var exponentDigits = 0
      while lookahead < scalars.endIndex, isDigit(scalars[lookahead]) {
        exponent.unicodeScalars.append(scalars[lookahead])
        exponentDigits += 1
        lookahead = scalars.index(after: lookahead)
      }
      if exponentDigits > 0 { text += exponent }
    }
    return text
  }

  /// Apple's `doubleValue(s)`: skip leading white space and newlines, then the longest
  /// decimal floating prefix; none gives 0.0; no hex, no `inf`/`nan` words.
  static func appleDouble(_ s: String) -> Double {
    let rest = Substring(s).unicodeScalars.drop(while: isWhitespaceOrNewline)
    guard let prefix = decimalPrefix(Substring.UnicodeScalarView(rest)) else { return 0 }
    return Double(prefix) ?? 0
  }

  /// A double truncated toward zero into `Int`: NaN gives 0, out of range clamps.
  static func clampedInteger(_ d: Double) -> Int {
    if d.isNaN { return 0 }
    if d >= 9_223_372_036_854_775_808.0 { return .max }
    if d < -9_223_372_036_854_775_808.0 { return .min }
    return Int(d.rounded(.towardZero))
  }

  /// `%.17g` with the shortest digits that read back as the same double: `5.7`, `1`,
  /// `1e+20`, `1e-07`, `0.0001`, `1e+16` is `10000000000000000`. `nan`, `inf`, `-inf`.
  static func appleDescription(_ d: Double) -> String {
    if d.isNaN { return "nan" }
    if d.isInfinite { return d < 0 ? "-inf" : "inf" }
    if d == 0 { return d.sign == .minus ? "-0" : "0" }
    let (negative, digits, exponent) = shortestDigits(d)
    var text = negative ? "-" : ""
    if exponent < -4 || exponent >= 17 {
      text += String(digits.first ?? "0")
      if digits.count > 1 { text += "." + digits.dropFirst() }
      let e = abs(exponent)
      text += (exponent < 0 ? "e-" : "e+") + (e < 10 ? "0\(e)" : "\(e)")
    } else if exponent < 0 {
      text += "0." + String(repeating: "0", count: -exponent - 1) + digits
    } else if digits.count <= exponent + 1 {
      text += digits + String(repeating: "0", count: exponent + 1 - digits.count)
    } else {
      let split = digits.index(digits.startIndex, offsetBy: exponent + 1)
      text += digits[..<split] + "." + digits[split...]
    }
    return text
  }

  /// The shortest round-trip decimal digits of a finite, non-zero double and the decimal
  /// exponent of the first digit (`5.7` → ("57", 0); `1e-7` → ("1", -7)).
  static func shortestDigits(_ d: Double) -> (negative: Bool, digits: String, exponent: Int) {
    // Swift's description is the shortest round-trip form; normalize it to digits + exponent.
    let text = abs(d).description
    var mantissa = text
    var exponent = 0
    if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      mantissa = String(text[..<e])
      exponent = Int(text[text.index(after: e)...]) ?? 0
    }
    var integerPart = mantissa
    var fractionPart = ""
    if let dot = mantissa.firstIndex(of: ".") {
      integerPart = String(mantissa[..<dot])
      fractionPart = String(mantissa[mantissa.index(after: dot)...])
    }
    var digits = integerPart + fractionPart
    exponent += integerPart.count - 1
    while digits.hasPrefix("0"), digits.count > 1 {
      digits.removeFirst()
      exponent -= 1
    }
    while digits.hasSuffix("0"), digits.count > 1 { digits.removeLast() }
    return (d < 0, digits, exponent)
  }
}
