/// `printf("%.17g", x)` as glibc writes it: the correctly rounded 17-significant-digit decimal
/// (an exact tie rounds to even), in fixed notation for decimal exponents -4 through 16 and
/// `d.ddde±XX` otherwise, trailing zeros and a bare point dropped. It is CoreFoundation's text
/// for a `<real>` (`__CFNumberCopyFormattingDescriptionAsFloat64` formats with `%.*g` and
/// `DBL_DIG + 2`), and it is not the shortest text that reads back as the same double, which
/// Swift's `description` gives: 0.15 is `0.14999999999999999`, 3.0 is `3`, 1e17 is `1e+17`.
///
/// The value `m·2^e` times `10^q` (`q` chosen so that 17 digits are left of the point) is one
/// 53×128-bit product with `10^q` held in 128 bits: exactly for `q` in 0…55, the powers every
/// real between 1e-39 and 1e17 needs, and truncated with an error below one unit otherwise.
/// Where a truncated power leaves the rounding undecided (the product within that error of a
/// half), exact big-integer arithmetic decides; it is tested against the C library's `%.17g`.
package enum PrintfG17 {
  /// 10^17: one more than the largest 17-digit significand.
  static let limit: UInt64 = 100_000_000_000_000_000
  static let lowest: UInt64 = 10_000_000_000_000_000

  /// The text of a double (zero is `0`, the non-finite `inf` and `nan`, as the C library
  /// writes them; CoreFoundation has its own words for those, see ``XMLPlistWriter``).
  package static func string(_ x: Double) -> String {
    var bytes: [UInt8] = []
    append(x, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The longest text: a sign, 17 digits, a point and `e-308`, or `-0.0001` and 17 digits.
  static let maximumLength = 32

  /// Appends the text of a double.
  static func append(_ x: Double, to out: inout [UInt8]) {
    ByteSlots.append(capacity: maximumLength, to: &out) { format(x, into: $0) }
  }

  /// Writes the text of a double into `p` (room for ``maximumLength`` bytes); returns its
  /// length.
  @inline(__always)
  static func format(_ x: Double, into p: ByteSlots) -> Int {
    // Every text below is at most `maximumLength` long: checked once, stored unchecked.
    p.require(maximumLength)
    var n = 0
    @inline(__always) func put(_ byte: UInt8) {
      p[unchecked: n] = byte
      n += 1
    }
    if x.sign == .minus { put(UInt8(ascii: "-")) }
    guard x.isFinite, x != 0 else {
      for byte in (x.isNaN ? "nan" : x.isInfinite ? "inf" : "0").utf8 { put(byte) }
      return n
    }
    let (significand, exponent) = digits(x)
    // The 17 digits, most significant first, at the end of the room (past any text before
    // them), then moved into place.
    let first = maximumLength - 17
    @inline(__always) func digit(_ i: Int) -> UInt8 { p[unchecked: first + i] }
    var rest = significand
    for i in stride(from: 16, through: 0, by: -1) {
      p[unchecked: first + i] = UInt8(truncatingIfNeeded: 48 &+ rest % 10)
      rest /= 10
    }
    var count = 17
    while count > 1, digit(count - 1) == 48 { count -= 1 }
    if exponent < -4 || exponent >= 17 {
      put(digit(0))
      if count > 1 {
        put(UInt8(ascii: "."))
        for i in 1..<count { put(digit(i)) }
      }
      put(UInt8(ascii: "e"))
      put(exponent < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
      let magnitude = abs(exponent)
      if magnitude >= 100 { put(UInt8(truncatingIfNeeded: 48 + magnitude / 100)) }
      put(UInt8(truncatingIfNeeded: 48 + magnitude / 10 % 10))
      put(UInt8(truncatingIfNeeded: 48 + magnitude % 10))
    } else if exponent >= 0 {
      for i in 0...exponent { put(digit(i)) }
      if count > exponent + 1 {
        put(UInt8(ascii: "."))
        for i in (exponent + 1)..<count { put(digit(i)) }
      }
    } else {
      put(UInt8(ascii: "0"))
      put(UInt8(ascii: "."))
      for _ in 0..<(-exponent - 1) { put(UInt8(ascii: "0")) }
      for i in 0..<count { put(digit(i)) }
    }
    return n
  }

  /// The significand and exponent of a finite, nonzero `|x|` = d.d…d × 10^exponent: the 17
  /// digits as an integer in 10^16 ..< 10^17, correctly rounded. (0, 0) for zero and the
  /// non-finite.
  package static func digits(_ x: Double) -> (significand: UInt64, exponent: Int) {
    guard x.isFinite, x != 0 else { return (0, 0) }
    let (m, e) = integerAndScale(x)
    let bitLength = 64 - m.leadingZeroBitCount
    // floor((e + bitLength - 1) · log10 2): the exponent, or one below or above it.
    let estimate = ((e + bitLength - 1) &* 78_913) >> 18
    var exponent = estimate
    // The estimate is the exponent or one off it; a third try would mean an edge the fast
    // path does not decide, which the exact one then does.
    for _ in 0..<3 {
      switch scaled(m, e, 16 - exponent) {
      case .tooLarge: exponent += 1
      case .tooSmall: exponent -= 1
      case .rounded(let significand):
        return significand == limit ? (lowest, exponent + 1) : (significand, exponent)
      case .undecided: return exactDigits(m, e, estimate: exponent)
      }
    }
    return exactDigits(m, e, estimate: estimate)
  }

  /// `|x|` as `m · 2^e` with `m` an integer below 2^53.
  @inline(__always)
  static func integerAndScale(_ x: Double) -> (UInt64, Int) {
    let biased = Int(x.exponentBitPattern)
    let fraction = x.significandBitPattern
    return biased == 0 ? (fraction, -1074) : (fraction | 1 << 52, biased - 1075)
  }

  enum Scaled {
    case rounded(UInt64)
    case tooLarge
    case tooSmall
    case undecided
  }

  /// `m · 2^e · 10^q` rounded to an integer (ties to even), when it lies in 10^16 ... 10^17.
  @inline(__always)
  static func scaled(_ m: UInt64, _ e: Int, _ q: Int) -> Scaled {
    guard q >= PowersOfTen.lowest, q <= PowersOfTen.highest else { return .undecided }
    let power =
      q >= 0 && q < PowersOfTen.exactCount
      ? PowersOfTen.exact[q] : PowersOfTen.table[q - PowersOfTen.lowest]
    // m × (high:low), 181 bits in three words.
    let (h1, l1) = m.multipliedFullWidth(by: power.low)
    let (h2, l2) = m.multipliedFullWidth(by: power.high)
    let limb0 = l1
    let (limb1, carry) = h1.addingReportingOverflow(l2)
    let limb2 = h2 &+ (carry ? 1 : 0)
    // The product times 2^(e + power.scale): the point lies `shift` bits from the right.
    let shift = -(e + power.scale)
    if shift >= 128 { return .tooSmall }  // below 2^53
    if shift <= 64 { return .tooLarge }  // at least 2^63
    let s = shift - 64  // 1...63
    if limb2 >> s != 0 { return .tooLarge }
    let integer = limb2 << (64 - s) | limb1 >> s
    if integer >= limit { return .tooLarge }
    // One below 10^16 may round up to it (10^17 times a truncated 10^-1, say).
    if integer < lowest - 1 { return .tooSmall }
    let fractionHigh = limb1 & (1 << s - 1)
    let half: UInt64 = 1 << (s - 1)
    let up: Bool
    if power.exact {
      if fractionHigh != half {
        up = fractionHigh > half
      } else {
        up = limb0 != 0 || integer & 1 == 1
      }
    } else {
      // The true product lies in [product, product + m): no tie is possible here (see the
      // tests' note), so a fraction at or above the half rounds up; below it only when the
      // error cannot reach the half.
      if fractionHigh >= half {
        up = true
      } else {
        let (low, over) = limb0.addingReportingOverflow(m)
        let high = fractionHigh &+ (over ? 1 : 0)
        guard high < half || (high == half && low == 0) else { return .undecided }
        up = false
      }
    }
    let rounded = integer + (up ? 1 : 0)
    return rounded < lowest ? .tooSmall : .rounded(rounded)
  }

  /// ``digits(_:)`` by exact arithmetic only (the path the fast one falls back to), for tests.
  package static func exactDigits(_ x: Double) -> (significand: UInt64, exponent: Int) {
    guard x.isFinite, x != 0 else { return (0, 0) }
    let (m, e) = integerAndScale(x)
    let bitLength = 64 - m.leadingZeroBitCount
    return exactDigits(m, e, estimate: ((e + bitLength - 1) &* 78_913) >> 18)
  }

  /// The same digits by exact arithmetic on big integers: `m · 2^e · 10^q` as a fraction.
  static func exactDigits(_ m: UInt64, _ e: Int, estimate: Int) -> (
    significand: UInt64, exponent: Int
  ) {
    var exponent = estimate
    while true {
      let q = 16 - exponent
      var numerator = BigInteger(m)
      var denominator = BigInteger(1)
      if q >= 0 {
        numerator.multiply(byPowerOfFive: q)
      } else {
        denominator.multiply(byPowerOfFive: -q)
      }
      let twos = e + q
      if twos >= 0 {
        numerator.shiftLeft(twos)
      } else {
        denominator.shiftLeft(-twos)
      }
      guard let (quotient, remainder) = numerator.divided(by: denominator) else {
        exponent += 1
        continue
      }
      if quotient >= limit {
        exponent += 1
        continue
      }
      if quotient < lowest {
        exponent -= 1
        continue
      }
      var twice = remainder
      twice.shiftLeft(1)
      let order = twice.compare(denominator)
      let up = order > 0 || (order == 0 && quotient & 1 == 1)
      let significand = quotient + (up ? 1 : 0)
      return significand == limit ? (lowest, exponent + 1) : (significand, exponent)
    }
  }
}

/// 10^q for q in `lowest...highest` as a 128-bit mantissa and a power of two:
/// `10^q ≈ (high:low) · 2^scale`, the mantissa's top bit set, truncated (exact for 0...55).
enum PowersOfTen {
  struct Power {
    var high: UInt64
    var low: UInt64
    var scale: Int
    var exact: Bool
  }

  static let lowest = -300
  static let highest = 350

  /// How many powers from 10^0 up ``exact`` holds: 5^55 is the largest power of five below
  /// 2^128.
  static let exactCount = 56

  /// 10^0 … 10^55, each exact in 128 bits: the powers every real between 1e-39 and 1e17
  /// needs, the common case, made in 128-bit arithmetic (a few thousand instructions) so that
  /// a small file's first real does not wait for ``table`` (about 0.4 M instructions of big
  /// integers). Each entry is ``table``'s; the tests hold both to the C library's `%.17g`.
  static let exact: [Power] = {
    var powers: [Power] = []
    powers.reserveCapacity(exactCount)
    // 5^q as high:low.
    var high: UInt64 = 0
    var low: UInt64 = 1
    for q in 0..<exactCount {
      let length = high == 0 ? 64 - low.leadingZeroBitCount : 128 - high.leadingZeroBitCount
      let shift = 128 - length
      let (top, bottom): (UInt64, UInt64) =
        shift >= 64
        ? (low << (shift - 64), 0)
        : shift == 0 ? (high, low) : (high << shift | low >> (64 - shift), low << shift)
      powers.append(Power(high: top, low: bottom, scale: q + length - 128, exact: true))
      let (carry, product) = low.multipliedFullWidth(by: 5)
      low = product
      high = high &* 5 &+ carry
    }
    return powers
  }()

  /// Worked out once, on first use (about 650 entries from one multiplication or one division
  /// by five each).
  static let table: [Power] = {
    var powers = [Power](
      repeating: Power(high: 0, low: 0, scale: 0, exact: false), count: highest - lowest + 1)
    // 5^q, exact, for q >= 0: 10^q = 5^q · 2^q.
    var five = BigInteger(1)
    for q in 0...highest {
      let (high, low, dropped, exact) = five.top128()
      powers[q - lowest] = Power(high: high, low: low, scale: q + dropped, exact: exact)
      five.multiply(bySmall: 5)
    }
    // 5^-n as floor(2^K / 5^n), for q = -n < 0: 10^q = 5^-n · 2^-n.
    let k = 1216
    var inverse = BigInteger(1)
    inverse.shiftLeft(k)
    for n in 1...(-lowest) {
      inverse.divide(bySmall: 5)
      let (high, low, dropped, _) = inverse.top128()
      powers[-n - lowest] = Power(high: high, low: low, scale: dropped - k - n, exact: false)
    }
    return powers
  }()
}

/// A nonnegative integer of any size in 64-bit words, least significant first: just what the
/// decimal conversion needs.
struct BigInteger {
  var words: [UInt64]

  init(_ value: UInt64) { words = value == 0 ? [] : [value] }

  var bitLength: Int {
    guard let top = words.last else { return 0 }
    return words.count * 64 - top.leadingZeroBitCount
  }

  private mutating func trim() {
    while words.last == 0 { words.removeLast() }
  }

  mutating func multiply(bySmall factor: UInt64) {
    var carry: UInt64 = 0
    for i in words.indices {
      let (high, low) = words[i].multipliedFullWidth(by: factor)
      let (sum, over) = low.addingReportingOverflow(carry)
      words[i] = sum
      carry = high &+ (over ? 1 : 0)
    }
    if carry != 0 { words.append(carry) }
  }

  mutating func multiply(byPowerOfFive count: Int) {
    var left = count
    // 5^27 is the largest power of five below 2^64.
    while left >= 27 {
      multiply(bySmall: 7_450_580_596_923_828_125)
      left -= 27
    }
    var rest: UInt64 = 1
    for _ in 0..<left { rest *= 5 }
    multiply(bySmall: rest)
  }

  /// Divides by `divisor` (nonzero), dropping the remainder.
  mutating func divide(bySmall divisor: UInt64) {
    var remainder: UInt64 = 0
    for i in words.indices.reversed() {
      let (quotient, rest) = divisor.dividingFullWidth((high: remainder, low: words[i]))
      words[i] = quotient
      remainder = rest
    }
    trim()
  }

  mutating func shiftLeft(_ bits: Int) {
    guard bits > 0, !words.isEmpty else { return }
    let wordShift = bits / 64
    let bitShift = bits % 64
    if bitShift != 0 {
      var carry: UInt64 = 0
      for i in words.indices {
        let word = words[i]
        words[i] = word << bitShift | carry
        carry = word >> (64 - bitShift)
      }
      if carry != 0 { words.append(carry) }
    }
    if wordShift > 0 { words.insert(contentsOf: repeatElement(0, count: wordShift), at: 0) }
  }

  /// -1, 0 or 1 as `self` is below, equal to or above `other`.
  func compare(_ other: BigInteger) -> Int {
    if words.count != other.words.count { return words.count < other.words.count ? -1 : 1 }
    for i in words.indices.reversed() where words[i] != other.words[i] {
      return words[i] < other.words[i] ? -1 : 1
    }
    return 0
  }

  mutating func subtract(_ other: BigInteger) {
    var borrow = false
    for i in words.indices {
      let subtrahend = i < other.words.count ? other.words[i] : 0
      let (a, o1) = words[i].subtractingReportingOverflow(subtrahend)
      let (b, o2) = a.subtractingReportingOverflow(borrow ? 1 : 0)
      words[i] = b
      borrow = o1 || o2
    }
    trim()
  }

  /// The quotient and remainder when the quotient fits in 64 bits; nil when it does not.
  func divided(by divisor: BigInteger) -> (UInt64, BigInteger)? {
    var limit = divisor
    limit.shiftLeft(64)
    guard compare(limit) < 0 else { return nil }
    var remainder = self
    var quotient: UInt64 = 0
    for bit in stride(from: 63, through: 0, by: -1) {
      var shifted = divisor
      shifted.shiftLeft(bit)
      if remainder.compare(shifted) >= 0 {
        remainder.subtract(shifted)
        quotient |= 1 << UInt64(bit)
      }
    }
    return (quotient, remainder)
  }

  /// The top 128 bits (the top one set), how many bits below them were dropped (negative when
  /// the number has fewer than 128 bits and was shifted up), and whether the dropped bits
  /// were all zero.
  func top128() -> (high: UInt64, low: UInt64, dropped: Int, exact: Bool) {
    let length = bitLength
    var copy = self
    if length <= 128 {
      copy.shiftLeft(128 - length)
      let low = copy.words.count > 0 ? copy.words[0] : 0
      let high = copy.words.count > 1 ? copy.words[1] : 0
      return (high, low, length - 128, true)
    }
    let dropped = length - 128
    let wordShift = dropped / 64
    let bitShift = dropped % 64
    func word(_ i: Int) -> UInt64 { i < copy.words.count ? copy.words[i] : 0 }
    func shifted(_ i: Int) -> UInt64 {
      bitShift == 0
        ? word(i + wordShift)
        : word(i + wordShift) >> bitShift | word(i + wordShift + 1) << (64 - bitShift)
    }
    var exact = true
    for i in 0..<wordShift where copy.words[i] != 0 { exact = false }
    if bitShift != 0, word(wordShift) & (1 << UInt64(bitShift) - 1) != 0 { exact = false }
    return (shifted(1), shifted(0), dropped, exact)
  }
}
