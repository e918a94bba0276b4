import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The `corelibs` dialect: swift-corelibs-foundation's `UserDefaults` on Linux
/// (`UserDefaults.swift`, `NSString.swift`, `Scanner.swift`, `NSNumber.swift`), checked against
/// the real one through `defaults-probe` (`Tests/LegacyDefaultsTests/Fixtures/DIALECTS.md`).
/// Where corelibs traps, prefs answers the getter's empty value.
enum CorelibsRules: DialectRules {
  // MARK: Reading a domain

  /// corelibs' readers keep what the file holds.
  static func adopting(_ values: PlistDictionary, readFrom format: PlistFormat?)
    -> PlistDictionary
  {
    values
  }

  /// `UserDefaults._parseArguments`: `-key value` pairs from the first argument on; the value
  /// is trimmed of white space first, a value that starts with `{`, `[`, `(`, `<` or `"` is
  /// parsed as a property list, and a value that does not parse is the trimmed text; `-`
  /// alone as a key is skipped with its value; a value that starts with `-` is not a value.
  static func argumentDomain(_ arguments: [String]) -> [String: PlistValue] {
    var result: [String: PlistValue] = [:]
    for (key, text) in ArgumentDomain.pairs(arguments) {
      let value = text.trimmingWhitespaceAndNewlines()
      let parsed =
        value.first.map { "{[(<\"".contains($0) } == true ? ArgumentDomain.plist(value) : nil
      result[key] = parsed ?? .string(value)
    }
    return result
  }

  /// corelibs takes the home folder from the password database, not `$HOME`, unless
  /// `CFFIXED_USER_HOME` is set.
  /// corelibs' `UserDefaults` reads through `CFPreferences`, CoreFoundation's reader.
  static var fileReader: PlistReader { .coreFoundation }

  static var homeVariable: String { "CFFIXED_USER_HOME" }

  // MARK: A stored string read as a number

  /// `NSString.boolValue`: skip white space and newlines; `tTyY` is true; one optional `+` or
  /// `-`; skip; any run of `0`; skip; true when a digit 1–9 follows.
  static func bool(text s: String) -> Bool {
    let u = Array(s.utf16)
    var i = 0
    func skip() { while i < u.count, NumberText.isWhitespaceOrNewline(u[i]) { i += 1 } }
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
  private static func skip(_ u: [UInt16], _ i: inout Int, _ set: (UInt16) -> Bool) -> Bool {
    while i < u.count {
      if (0xD800...0xDFFF).contains(u[i]) { return false }
      if !set(u[i]) { break }
      i += 1
    }
    return true
  }

  /// `Scanner.scanInt`: skip white space and newlines, one optional sign, skip again, ASCII
  /// digits (no length limit), clamping on overflow. Where corelibs traps, no number.
  static func integer(text s: String) -> ParsedNumber<Int>? {
    let u = Array(s.utf16)
    var i = 0
    guard skip(u, &i, NumberText.isWhitespaceOrNewline) else { return nil }
    var text = ""
    if i < u.count, u[i] == 0x2B || u[i] == 0x2D {
      if u[i] == 0x2D { text = "-" }
      i += 1
      guard skip(u, &i, NumberText.isWhitespaceOrNewline) else { return nil }
    }
    var digits = false
    while i < u.count, NumberText.isDigit(u[i]) {
      text.unicodeScalars.append(Unicode.Scalar(UInt8(u[i])))
      digits = true
      i += 1
    }
    return digits ? ParsedNumber(value: NumberText.clampedDecimal(text), end: i) : nil
  }

  /// The text `NSString.doubleValue` / `floatValue` hand to `Double(String)` /
  /// `Float(String)`: skip white space (not newlines), sign, skip, digits, `.`, digits, and an
  /// exponent that must have digits (else the whole parse fails), and the UTF-16 offset where
  /// the parse stopped. nil: no number (0).
  static func numberText(_ s: String) -> (text: String, end: Int)? {
    let u = Array(s.utf16)
    var i = 0
    guard skip(u, &i, NumberText.isWhitespace) else { return nil }
    var text = ""
    if i < u.count, u[i] == 0x2B || u[i] == 0x2D {
      if u[i] == 0x2D { text = "-" }
      i += 1
      guard skip(u, &i, NumberText.isWhitespace) else { return nil }
    }
    var valid = false
    func digits() {
      while i < u.count, NumberText.isDigit(u[i]) {
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
    return (text, i)
  }

  /// `Double(numberText)`.
  static func double(text s: String) -> ParsedNumber<Double>? {
    guard let (text, end) = numberText(s), let value = Double(text) else { return nil }
    return ParsedNumber(value: value, end: end)
  }

  /// Parsed straight to `Float` (correctly rounded, not rounded twice through `Double`).
  static func float(text s: String) -> Float? { numberText(s).flatMap { Float($0.text) } }

  // MARK: A stored number

  /// `NSNumber(value:).intValue`: the x86-64 conversion, Int64.min for NaN, infinities and
  /// everything outside [-2^63, 2^63).
  static func integer(real d: Double) -> Int { NumberText.x86Integer(d) }

  /// `Float(n)` of the unboxed `Int`.
  static func float(integer i: Int) -> Float { Float(i) }

  /// Decimal digits, `"1"`/`"0"`, and reals as Swift's `description` (`"1.0"`, `"1e+16"`).
  static func string(number: Dialect.Number) -> String? {
    switch number {
    case .bool(let b): b ? "1" : "0"
    case .integer(let i): String(i)
    case .unsigned(let u): String(u)
    case .real(let d): d.description
    }
  }
}
