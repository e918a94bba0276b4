import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The `gnustep` dialect: GNUstep Base 1.28 (libs-base `base-1_28_0`: `NSUserDefaults.m`,
/// `GSString.m`, `NSScanner.m`, `NSNumberMethods.h`), checked against the real library through
/// `Legacy/` (`Tests/LegacyDefaultsTests/Fixtures/DIALECTS.md`).
enum GNUstepRules: DialectRules {
  // MARK: Reading a domain

  /// GNUstep's XML reader clamps an integer above Int64.max to Int64.max (so `objectForKey:`
  /// sees it clamped too); its binary and typed-text readers keep what the file holds.
  static func adopting(_ values: PlistDictionary, readFrom format: PlistFormat?)
    -> PlistDictionary
  {
    guard format == .xml, values.values.contains(where: holdsUnsigned) else { return values }
    return values.mapValues(clampingUnsigned)
  }

  private static func holdsUnsigned(_ value: PlistValue) -> Bool {
    switch value {
    case .unsignedInteger(let u): u > UInt64(Int64.max)
    case .array(let a): a.contains(where: holdsUnsigned)
    case .dictionary(let d): d.values.contains(where: holdsUnsigned)
    default: false
    }
  }

  private static func clampingUnsigned(_ value: PlistValue) -> PlistValue {
    switch value {
    case .unsignedInteger(let u) where u > UInt64(Int64.max): .integer(.max)
    case .array(let a): .array(a.map(clampingUnsigned))
    case .dictionary(let d): .dictionary(d.mapValues(clampingUnsigned))
    default: value
    }
  }

  /// `+[NSUserDefaults _createArgumentDictionary:]`: the program name is skipped; `-` alone is
  /// not a key but may be a value; a value that starts with `-` becomes the next key; *every*
  /// value is parsed as a property list with GNUstep's own text grammar (so `  plain  ` is
  /// `plain`, `/*c*/ (x)` is `["x"]`, single quotes are not strings), and stays the text as
  /// given when it does not parse.
  static func argumentDomain(_ arguments: [String]) -> [String: PlistValue] {
    var result: [String: PlistValue] = [:]
    var words = arguments.dropFirst().makeIterator()
    var pending = words.next()
    while let word = pending {
      guard word.hasPrefix("-"), word != "-" else {
        pending = words.next()
        continue
      }
      guard let value = words.next() else { break }
      if value.hasPrefix("-"), value != "-" {
        pending = value  // a flag: the next argument is a key
        continue
      }
      result[String(word.dropFirst())] =
        ArgumentDomain.plist(value, options: .gnustep) ?? .string(value)
      pending = words.next()
    }
    return result
  }

  /// GNUstep 1.28 has no `URLForKey:`; the dialect answers as Apple does.
  /// GNUstep's `NSUserDefaults` reads a domain with `+[NSPropertyListSerialization propertyListWithData:…]`.
  static var fileReader: PlistReader { .gnustep }

  static var homeVariable: String { "HOME" }

  // MARK: A stored string read as a number

  /// `-[GSString boolValue]`: walking the UTF-16 units, a unit above `y` is NO, one of
  /// `123456789yYtT` (or NUL) is YES, C white space, `0`, `+`, `-` are skipped anywhere,
  /// anything else is NO.
  static func bool(text s: String) -> Bool {
    for u in s.utf16 {
      if u > 0x79 { return false }
      switch UInt8(u) {
      case 0, UInt8(ascii: "1")...UInt8(ascii: "9"), UInt8(ascii: "y"), UInt8(ascii: "Y"),
        UInt8(ascii: "t"), UInt8(ascii: "T"):
        return true
      case UInt8(ascii: "0"), UInt8(ascii: "+"), UInt8(ascii: "-"): continue
      default: if !NumberText.isCSpace(u) { return false }
      }
    }
    return false
  }

  /// `-[GSString integerValue]`: skip C white space, one optional sign, ASCII digits, the sign
  /// and digits cut at 20 characters, then `strtol` (clamping). Units above U+00FF are neither
  /// space nor digit (GNUstep's behaviour there is undefined).
  static func integer(text s: String) -> ParsedNumber<Int>? {
    let u = Array(s.utf16)
    var i = 0
    while i < u.count, NumberText.isCSpace(u[i]) { i += 1 }
    var text = ""
    if i < u.count, u[i] == 0x2B || u[i] == 0x2D {
      text.unicodeScalars.append(Unicode.Scalar(UInt8(u[i])))
      i += 1
    }
    var digits = false
    while i < u.count, text.utf8.count < 20, NumberText.isDigit(u[i]) {
      text.unicodeScalars.append(Unicode.Scalar(UInt8(u[i])))
      digits = true
      i += 1
    }
    return digits ? ParsedNumber(value: NumberText.clampedDecimal(text), end: i) : nil
  }

  private static let powers: [Double] = [1e1, 1e2, 1e4, 1e8, 1e16, 1e32, 1e64, 1e128, 1e256]

  /// `-[NSScanner scanDouble:]` (GNUstep's own, not `strtod`): at most 18 significant digits,
  /// combined as `1e9 * hi + lo` and scaled by a table of powers of ten, so results are not
  /// always correctly rounded (`"1e39"` is 1.0000000000000001e39, `"4.9e-324"` is 0).
  static func double(text s: String) -> ParsedNumber<Double>? {
    let u = Array(s.utf16)
    let n = u.count
    var i = 0
    while i < n, NumberText.isWhitespaceOrNewline(u[i]) { i += 1 }
    guard i < n else { return nil }
    var negative = false
    if u[i] == 0x2B {
      i += 1
    } else if u[i] == 0x2D {
      i += 1
      negative = true
    }
    guard i < n else { return nil }
    var mantissa: [Int] = []
    var point = -1
    var shift = 0
    var anyDigit = false
    while i < n {
      let c = u[i]
      if !NumberText.isDigit(c) {
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
    guard anyDigit else { return nil }
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
    var end = i
    if i < n, u[i] == 0x45 || u[i] == 0x65 {
      var j = i + 1
      if j < n {
        if u[j] == 0x2B {
          j += 1
        } else if u[j] == 0x2D {
          j += 1
          negativeExponent = true
        }
        while j < n, NumberText.isDigit(u[j]) {
          // GNUstep accumulates in a C int; past 10^6 the result is 0 or infinite anyway.
          exponent = min(exponent * 10 + Int(u[j] - 0x30), 1_000_000)
          j += 1
          end = j  // without digits the `e` is not taken
        }
      }
    }
    exponent = negativeExponent ? point - exponent : point + exponent
    exponent -= shift
    let scaleDown = exponent < 0
    exponent = abs(exponent)
    guard exponent <= 511 else { return ParsedNumber(value: 0, end: end) }
    var power = 1.0
    var k = 0
    while exponent != 0 {
      if exponent & 1 != 0 { power *= powers[k] }
      exponent >>= 1
      k += 1
    }
    result = scaleDown ? result / power : result * power
    return ParsedNumber(value: negative ? -result : result, end: end)
  }

  /// `(float)` of what `doubleForKey:` returns.
  static func float(text s: String) -> Float? { double(text: s).map { Float($0.value) } }

  // MARK: A stored number

  /// The x86-64 conversion of `NSNumber`'s C cast: Int64.min for NaN, infinities and
  /// everything outside [-2^63, 2^63).
  static func integer(real d: Double) -> Int { NumberText.x86Integer(d) }

  /// `(float)` of what `doubleForKey:` returns, as for every value.
  static func float(integer i: Int) -> Float { Float(Double(i)) }

  /// nil for every number and bool: `stringForKey:` returns only strings.
  static func string(number: Dialect.Number) -> String? {
    switch number {
    case .bool, .integer, .unsigned, .real: nil
    }
  }
}
