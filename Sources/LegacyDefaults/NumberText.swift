#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The text-to-number and number-to-text rules of the legacy getters, written out so that no
/// platform's `NSString` (which differs between Apple, GNUstep and corelibs) decides them.
enum NumberText {
  /// `NSCharacterSet.whitespaceAndNewlines` (see the UTF-16 form below).
  static func isWhitespaceOrNewline(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value <= 0xFFFF && isWhitespaceOrNewline(UInt16(scalar.value))
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

  /// Apple's `doubleValue(s)`: skip leading white space and newlines, then the longest
  /// decimal floating prefix; none gives 0.0; no hex, no `inf`/`nan` words.
  static func appleDouble(_ s: String) -> Double {
    let rest = Substring(s).unicodeScalars.drop(while: isWhitespaceOrNewline)
    guard let prefix = decimalPrefix(rest) else { return 0 }
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

// MARK: - The three dialects' string rules

extension NumberText {
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

  /// Apple: `YES`, or `yes`, `y`, `true` ignoring case; otherwise `intValue(s) != 0`.
  static func appleBool(_ s: String) -> Bool {
    if s == "YES" { return true }
    switch s.lowercased() {
    case "yes", "y", "true": return true
    default: return appleInteger(s) != 0
    }
  }

  /// GNUstep `-[GSString boolValue]`: walking the UTF-16 units, a unit above `y` is NO, one
  /// of `123456789yYtT` (or NUL) is YES, C white space, `0`, `+`, `-` are skipped anywhere,
  /// anything else is NO.
  static func gnustepBool(_ s: String) -> Bool {
    for u in s.utf16 {
      if u > 0x79 { return false }
      switch UInt8(u) {
      case 0, UInt8(ascii: "1")...UInt8(ascii: "9"), UInt8(ascii: "y"), UInt8(ascii: "Y"),
        UInt8(ascii: "t"), UInt8(ascii: "T"):
        return true
      case UInt8(ascii: "0"), UInt8(ascii: "+"), UInt8(ascii: "-"): continue
      default: if !isCSpace(u) { return false }
      }
    }
    return false
  }

  /// GNUstep `-[GSString integerValue]`: skip C white space, one optional sign, ASCII
  /// digits, the sign and digits cut at 20 characters, then `strtol` (clamping). Units above
  /// U+00FF are neither space nor digit (GNUstep's behaviour there is undefined).
  static func gnustepInteger(_ s: String) -> Int {
    let u = Array(s.utf16)
    var i = 0
    while i < u.count, isCSpace(u[i]) { i += 1 }
    var text = ""
    if i < u.count, u[i] == 0x2B || u[i] == 0x2D {
      text.unicodeScalars.append(Unicode.Scalar(UInt8(u[i])))
      i += 1
    }
    while i < u.count, text.utf8.count < 20, isDigit(u[i]) {
      text.unicodeScalars.append(Unicode.Scalar(UInt8(u[i])))
      i += 1
    }
    return clampedDecimal(text)
  }

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

  private static let gnustepPowers: [Double] = [1e1, 1e2, 1e4, 1e8, 1e16, 1e32, 1e64, 1e128, 1e256]

  /// GNUstep's `-[NSScanner scanDouble:]` (its own, not `strtod`): at most 18 significant
  /// digits, combined as `1e9 * hi + lo` and scaled by a table of powers of ten, so results
  /// are not always correctly rounded (`"1e39"` is 1.0000000000000001e39, `"4.9e-324"` is 0).
  static func gnustepDouble(_ s: String) -> Double {
    let u = Array(s.utf16)
    let n = u.count
    var i = 0
    while i < n, isWhitespaceOrNewline(u[i]) { i += 1 }
    guard i < n else { return 0 }
    var negative = false
    if u[i] == 0x2B {
      i += 1
    } else if u[i] == 0x2D {
      i += 1
      negative = true
    }
    guard i < n else { return 0 }
    var mantissa: [Int] = []
    var point = -1
    var shift = 0
    var anyDigit = false
    while i < n {
      let c = u[i]
      if !isDigit(c) {
        if point >= 0 || c != 0x2E { break }
        point = mantissa.count
      } else {
        anyDigit = true
        if mantissa.isEmpty, c == 0x30 {
          if point >= 0 { shift += 1 }
        } else if mantissa.count < 19 {
          mantissa.append(Int(c - 0x30))
        }
      }
      i += 1
    }
    guard anyDigit else { return 0 }
    if mantissa.count > 18 { mantissa.removeLast(mantissa.count - 18) }
    if point < 0 { point = mantissa.count }
    point -= mantissa.count
    var high = 0
    var low = 0
    let split = max(0, mantissa.count - 9)
    for d in mantissa[..<split] { high = high * 10 + d }
    for d in mantissa[split...] { low = low * 10 + d }
    var result = 1.0e9 * Double(high) + Double(low)
    var exponent = 0
    var negativeExponent = false
    if i < n, u[i] == 0x45 || u[i] == 0x65 {
      var j = i + 1
      if j < n {
        if u[j] == 0x2B {
          j += 1
        } else if u[j] == 0x2D {
          j += 1
          negativeExponent = true
        }
        while j < n, isDigit(u[j]) {
          // GNUstep accumulates in a C int; past 10^6 the result is 0 or infinite anyway.
          exponent = min(exponent * 10 + Int(u[j] - 0x30), 1_000_000)
          j += 1
        }
      }
    }
    exponent = negativeExponent ? point - exponent : point + exponent
    exponent -= shift
    let scaleDown = exponent < 0
    exponent = abs(exponent)
    guard exponent <= 511 else { return 0 }
    var power = 1.0
    var k = 0
    while exponent != 0 {
      if exponent & 1 != 0 { power *= gnustepPowers[k] }
      exponent >>= 1
      k += 1
    }
    result = scaleDown ? result / power : result * power
    return negative ? -result : result
  }

  /// corelibs `NSString.boolValue`: skip white space and newlines; `tTyY` is true; one
  /// optional `+` or `-`; skip; any run of `0`; skip; true when a digit 1–9 follows.
  static func corelibsBool(_ s: String) -> Bool {
    let u = Array(s.utf16)
    var i = 0
    func skip() { while i < u.count, isWhitespaceOrNewline(u[i]) { i += 1 } }
    func at(_ set: String) -> Bool {
      i < u.count && u[i] < 0x80 && set.utf16.contains(u[i])
    }
    skip()
    if at("tTyY") { return true }
    if at("+-") { i += 1 }
    skip()
    while at("0") { i += 1 }
    skip()
    return at("123456789")
  }

  /// corelibs skips a character set with `UnicodeScalar(unit)!`, which traps on a surrogate
  /// half (a string starting with an astral character). prefs stops there instead: no number.
  private static func corelibsSkip(_ u: [UInt16], _ i: inout Int, _ set: (UInt16) -> Bool)
    -> Bool
  {
    while i < u.count {
      if (0xD800...0xDFFF).contains(u[i]) { return false }
      if !set(u[i]) { break }
      i += 1
    }
    return true
  }

  /// corelibs `Scanner.scanInt`: skip white space and newlines, one optional sign, skip again,
  /// ASCII digits (no length limit), clamping on overflow. Where corelibs traps, 0.
  static func corelibsInteger(_ s: String) -> Int {
    let u = Array(s.utf16)
    var i = 0
    guard corelibsSkip(u, &i, isWhitespaceOrNewline) else { return 0 }
    var text = ""
    if i < u.count, u[i] == 0x2B || u[i] == 0x2D {
      if u[i] == 0x2D { text = "-" }
      i += 1
      guard corelibsSkip(u, &i, isWhitespaceOrNewline) else { return 0 }
    }
    var digits = false
    while i < u.count, isDigit(u[i]) {
      text.unicodeScalars.append(Unicode.Scalar(UInt8(u[i])))
      digits = true
      i += 1
    }
    return digits ? clampedDecimal(text) : 0
  }

  /// The text corelibs' `NSString.doubleValue` / `floatValue` hand to `Double(String)` /
  /// `Float(String)`: skip white space (not newlines), sign, skip, digits, `.`, digits, and an
  /// exponent that must have digits (else the whole parse fails). nil: no number (0).
  static func corelibsNumberText(_ s: String) -> String? {
    let u = Array(s.utf16)
    var i = 0
    guard corelibsSkip(u, &i, isWhitespace) else { return nil }
    var text = ""
    if i < u.count, u[i] == 0x2B || u[i] == 0x2D {
      if u[i] == 0x2D { text = "-" }
      i += 1
      guard corelibsSkip(u, &i, isWhitespace) else { return nil }
    }
    var valid = false
    func digits() {
      while i < u.count, isDigit(u[i]) {
        text.unicodeScalars.append(Unicode.Scalar(UInt8(u[i])))
        valid = true
        i += 1
      }
    }
    digits()
    if i < u.count, u[i] == 0x2E {
      text += "."
      i += 1
      digits()
    }
    guard valid else { return nil }
    if i < u.count, u[i] == 0x45 || u[i] == 0x65 {
      text += "e"
      i += 1
      valid = false
      if i < u.count, u[i] == 0x2B || u[i] == 0x2D {
        if u[i] == 0x2D { text += "-" }
        i += 1
      }
      digits()
      guard valid else { return nil }
    }
    return text
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
