/// Byte scanning and number parsing for the text readers, on validated UTF-8 bytes in place:
/// runs of plain text are found eight bytes at a time, and numbers are read from the bytes
/// without building strings.
enum TextScan {
  private static let ones: UInt64 = 0x0101_0101_0101_0101
  private static let highs: UInt64 = 0x8080_8080_8080_8080

  /// The bytes of `word` equal to `byte` marked by their high bit (exact for the lowest match:
  /// a borrow only ever marks bytes above a real match).
  @inline(__always)
  static func matches(_ word: UInt64, _ byte: UInt8) -> UInt64 {
    let x = word ^ (ones &* UInt64(byte))
    return (x &- ones) & ~x & highs
  }

  /// The index of the first `<` or `&` in `p[from...]`, or its count.
  @inline(__always)
  static func markup(_ p: ByteView, from: Int) -> Int {
    var k = from
    let count = p.count
    while k >= 0, k + 8 <= count {
      let found =
        matches(p.uncheckedWord(at: k), UInt8(ascii: "<"))
        | matches(p.uncheckedWord(at: k), UInt8(ascii: "&"))
      if found != 0 { return k + found.trailingZeroBitCount >> 3 }
      k += 8
    }
    while k < count, p[k] != UInt8(ascii: "<"), p[k] != UInt8(ascii: "&") { k += 1 }
    return k
  }

  /// The index of the first `byte` in `p[from...]`, or its count.
  @inline(__always)
  static func first(_ byte: UInt8, _ p: ByteView, from: Int) -> Int {
    var k = from
    let count = p.count
    while k >= 0, k + 8 <= count {
      let found = matches(p.uncheckedWord(at: k), byte)
      if found != 0 { return k + found.trailingZeroBitCount >> 3 }
      k += 8
    }
    while k < count, p[k] != byte { k += 1 }
    return k
  }
}

/// Numbers from ASCII bytes, as the XML, OpenStep and GNUstep readers accept them.
package enum TextNumber {
  @inline(__always)
  static func isDigit(_ c: UInt8) -> Bool { c &- UInt8(ascii: "0") < 10 }

  /// ``integer(_:)-(ByteView)`` of a string's UTF-8.
  package static func integer(_ text: String) -> PlistValue? {
    ByteView.with(Array(text.utf8)) { integer($0) }
  }

  /// ``real(_:)-(ByteView)`` of a string's UTF-8.
  package static func real(_ text: String) -> Double? {
    ByteView.with(Array(text.utf8)) { real($0) }
  }

  /// `[+|-](digits | 0x hexdigits)`, in the range Int64.min ... UInt64.max.
  static func integer(_ text: ByteView) -> PlistValue? {
    var k = 0
    let n = text.count
    var negative = false
    if n > 0, text[0] == UInt8(ascii: "-") || text[0] == UInt8(ascii: "+") {
      negative = text[0] == UInt8(ascii: "-")
      k = 1
    }
    var magnitude: UInt64 = 0
    if n - k > 2, text[k] == UInt8(ascii: "0"), text[k + 1] | 0x20 == UInt8(ascii: "x") {
      k += 2
      while k < n {
        let c = text[k]
        let digit: UInt64
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt64(c - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt64(c - UInt8(ascii: "A") + 10)
        default: return nil
        }
        guard magnitude >> 60 == 0 else { return nil }
        magnitude = magnitude << 4 | digit
        k += 1
      }
    } else {
      guard k < n else { return nil }
      while k < n {
        let digit = text[k] &- UInt8(ascii: "0")
        guard digit < 10 else { return nil }
        let (m, o1) = magnitude.multipliedReportingOverflow(by: 10)
        let (s, o2) = m.addingReportingOverflow(UInt64(digit))
        if o1 || o2 { return nil }
        magnitude = s
        k += 1
      }
    }
    if negative {
      if magnitude == 0 { return .integer(0) }
      guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
      return .integer(magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude))
    }
    return .int(magnitude)
  }

  /// Whether `text` is `word` (lower-case ASCII letters and signs) in any letter case.
  @inline(__always)
  private static func isWord(_ text: ByteView, _ word: StaticString) -> Bool {
    let w = ByteView(word)
    guard text.count == w.count else { return false }
    for k in 0..<text.count {
      let c = text[k]
      let expected = w[k]
      if expected >= UInt8(ascii: "a") {
        if c | 0x20 != expected { return false }
      } else if c != expected {
        return false
      }
    }
    return true
  }

  /// A decimal (`[+|-]` digits, one point, an exponent; no hex floats) or the words
  /// CoreFoundation, plistlib and C use for the non-finite values, in any letter case. The
  /// value is the correctly rounded double `Double(String)` (and C's `strtod`) gives.
  static func real(_ text: ByteView) -> Double? {
    let n = text.count
    guard n > 0 else { return nil }
    let first = text[0]
    let letter =
      first == UInt8(ascii: "+") || first == UInt8(ascii: "-") ? (n > 1 ? text[1] : 0) : first
    if letter | 0x20 == UInt8(ascii: "n") || letter | 0x20 == UInt8(ascii: "i") {
      if isWord(text, "nan") || isWord(text, "+nan") || isWord(text, "-nan") { return .nan }
      if isWord(text, "inf") || isWord(text, "+inf") || isWord(text, "infinity")
        || isWord(text, "+infinity")
      {
        return .infinity
      }
      if isWord(text, "-inf") || isWord(text, "-infinity") { return -.infinity }
    }
    // The syntax `[+|-](digits[.digits*] | .digits)[(e|E)[+|-]digits]`, all of the text.
    var k = 0
    var negative = false
    if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
      negative = first == UInt8(ascii: "-")
      k = 1
    }
    var significand: UInt64 = 0
    var digits = 0  // significant digits in `significand` (leading zeros not counted)
    var sawDigit = false
    var exponent = 0  // the power of ten of the significand's last digit
    var exact = true  // all significant digits fit in `significand`
    // The digits, and one point among them: each kept digit after it lowers the exponent.
    var sawPoint = false
    while k < n {
      let c = text[k]
      if c == UInt8(ascii: "."), !sawPoint {
        sawPoint = true
        k += 1
        continue
      }
      guard isDigit(c) else { break }
      sawDigit = true
      if digits < 19 {
        significand = significand &* 10 &+ UInt64(c &- UInt8(ascii: "0"))
        if significand != 0 { digits += 1 }
        if sawPoint { exponent -= 1 }
      } else {
        exact = false
      }
      k += 1
    }
    guard sawDigit else { return slow(text) }
    if k < n, text[k] | 0x20 == UInt8(ascii: "e") {
      k += 1
      var negativeExponent = false
      if k < n, text[k] == UInt8(ascii: "-") || text[k] == UInt8(ascii: "+") {
        negativeExponent = text[k] == UInt8(ascii: "-")
        k += 1
      }
      guard k < n else { return slow(text) }
      var e = 0
      while k < n, isDigit(text[k]) {
        if e < 100_000 { e = e * 10 + Int(text[k] &- UInt8(ascii: "0")) }
        k += 1
      }
      exponent += negativeExponent ? -e : e
    }
    // Anything else (a second point, a sign inside, letters) is for the general parser to
    // refuse or read, as it always has.
    guard k == n, exact, significand != 0, exponent >= -19, exponent <= 19 else {
      return slow(text)
    }
    let magnitude =
      exponent >= 0
      ? scaledUp(significand, byPowerOfTen: exponent)
      : scaledDown(significand, byPowerOfTen: -exponent)
    return negative ? -magnitude : magnitude
  }

  /// Everything outside the fast path: the characters the readers have always allowed, then
  /// the standard library's parser.
  private static func slow(_ text: ByteView) -> Double? {
    var sawDigit = false
    for c in text {
      switch c {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
      case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "e"),
        UInt8(ascii: "E"):
        break
      default: return nil
      }
    }
    guard sawDigit else { return nil }
    return Double(String(decoding: text, as: UTF8.self))
  }

  static let powersOfTen: [UInt64] = {
    var result: [UInt64] = [1]
    for _ in 1...19 { result.append((result.last ?? 1) * 10) }
    return result
  }()

  /// `m × 10^e` (m > 0, e ≤ 19) correctly rounded: the 128-bit product is exact.
  @inline(__always)
  static func scaledUp(_ m: UInt64, byPowerOfTen e: Int) -> Double {
    let (high, low) = m.multipliedFullWidth(by: powersOfTen[e])
    if high == 0 { return rounded(low, sticky: false, exponent: 0) }
    let shift = high.leadingZeroBitCount
    let top = shift == 0 ? high : high << shift | low >> (64 - shift)
    let rest = low << shift
    return rounded(top, sticky: rest != 0, exponent: 64 - shift)
  }

  /// `m / 10^e` (m > 0, e ≤ 19) correctly rounded: a 64-bit quotient of normalized operands
  /// and whether its remainder is zero.
  @inline(__always)
  static func scaledDown(_ m: UInt64, byPowerOfTen e: Int) -> Double {
    let d = powersOfTen[e]
    let shiftM = m.leadingZeroBitCount
    let shiftD = d.leadingZeroBitCount
    let mn = m << shiftM
    let dn = d << shiftD
    // mn / dn is in [1/2, 2); the quotient is taken in [2^63, 2^64).
    if mn < dn {
      let (q, r) = dn.dividingFullWidth((mn, 0))
      return rounded(q, sticky: r != 0, exponent: shiftD - shiftM - 64)
    }
    let (q, r) = dn.dividingFullWidth((mn >> 1, mn << 63))
    return rounded(q, sticky: r != 0, exponent: shiftD - shiftM - 63)
  }

  /// `(q + sticky·ε) × 2^exponent` rounded to 53 bits, ties to even (q > 0; the result is a
  /// normal number for every input of the fast path).
  @inline(__always)
  static func rounded(_ q: UInt64, sticky: Bool, exponent: Int) -> Double {
    let shift = q.leadingZeroBitCount
    let top = q << shift  // top bit set
    var e = exponent - shift
    var mantissa = top >> 11
    let rest = top & 0x7FF
    if rest > 0x400 || (rest == 0x400 && (sticky || mantissa & 1 == 1)) {
      mantissa += 1
      if mantissa == 1 << 53 {
        mantissa >>= 1
        e += 1
      }
    }
    return Double(sign: .plus, exponent: e + 11, significand: Double(mantissa))
  }
}
