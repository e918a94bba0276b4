import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The `apple` dialect: Apple's documented behaviour (iOS and macOS), as tabled in the
/// defaults-semantics spec (`shared/spec/defaults-semantics.md`, `AppleDialectTests`).
enum AppleRules: DialectRules {
  // MARK: Reading a domain

  /// Apple's readers keep what the file holds.
  static func adopting(_ values: PlistDictionary, readFrom format: PlistFormat?)
    -> PlistDictionary
  {
    values
  }

  /// `-key value` pairs: a value that starts (after white space) with `{`, `(`, `<` or `"` is
  /// parsed as a property list, and stays the text as given when it does not parse; any other
  /// value is a string. A value that starts with `-` is not a value: the argument before it is
  /// a flag.
  static func argumentDomain(_ arguments: [String]) -> [String: PlistValue] {
    var result: [String: PlistValue] = [:]
    for (key, value) in ArgumentDomain.pairs(arguments) {
      let trimmed = value.trimmingWhitespaceAndNewlines()
      let parsed =
        trimmed.first.map { "{(<\"".contains($0) } == true ? ArgumentDomain.plist(trimmed) : nil
      result[key] = parsed ?? .string(value)
    }
    return result
  }

  /// CFPreferences reads a domain with CoreFoundation's `CFPropertyListCreateWithData`.
  static var fileReader: PlistReader { .coreFoundation }

  static var homeVariable: String { "HOME" }

  // MARK: A stored string read as a number

  /// `YES`, or `yes`, `y`, `true` ignoring case; otherwise `intValue(s) != 0`.
  static func bool(text s: String) -> Bool {
    if s == "YES" { return true }
    switch s.lowercased() {
    case "yes", "y", "true": return true
    default: return (integer(text: s)?.value ?? 0) != 0
    }
  }

  /// `intValue(s)`: skip leading white space and newlines, one optional `+` or `-`, then ASCII
  /// decimal digits up to the first non-digit; no digits gives 0; overflow clamps.
  static func integer(text s: String) -> ParsedNumber<Int>? {
    // White space and newlines are all in the BMP: one UTF-16 unit each, as sign and digits.
    var end = 0
    var scalars = s.unicodeScalars.drop { scalar in
      guard NumberText.isWhitespaceOrNewline(scalar) else { return false }
      end += 1
      return true
    }[...]
    var negative = false
    if let first = scalars.first, first == "+" || first == "-" {
      negative = first == "-"
      scalars = scalars.dropFirst()
      end += 1
    }
    var value = 0
    var digits = false
    var overflow = false
    for scalar in scalars {
      guard scalar.value >= 0x30, scalar.value <= 0x39 else { break }
      digits = true
      end += 1
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
    return digits ? ParsedNumber(value: value, end: end) : nil
  }

  /// `doubleValue(s)`: skip leading white space and newlines, then the longest decimal
  /// floating prefix; none gives 0.0; no hex, no `inf`/`nan` words.
  static func double(text s: String) -> ParsedNumber<Double>? {
    var skipped = 0
    let rest = Substring(s).unicodeScalars.drop { scalar in
      guard NumberText.isWhitespaceOrNewline(scalar) else { return false }
      skipped += 1
      return true
    }
    guard let prefix = NumberText.decimalPrefix(rest) else { return nil }
    // The prefix is ASCII: as many UTF-16 units as bytes.
    return ParsedNumber(value: Double(prefix) ?? 0, end: skipped + prefix.utf8.count)
  }

  /// `Float(doubleValue(s))`.
  static func float(text s: String) -> Float? { double(text: s).map { Float($0.value) } }

  // MARK: A stored number

  /// Truncated toward zero: NaN gives 0, out of range clamps.
  static func integer(real d: Double) -> Int {
    if d.isNaN { return 0 }
    if d >= 9_223_372_036_854_775_808.0 { return .max }
    if d < -9_223_372_036_854_775_808.0 { return .min }
    return Int(d.rounded(.towardZero))
  }

  static func float(integer i: Int) -> Float { Float(Double(i)) }

  /// `"1"`/`"0"`, decimal digits, and reals as `%.17g` with the shortest digits that read back.
  static func string(number: Dialect.Number) -> String? {
    switch number {
    case .bool(let b): b ? "1" : "0"
    case .integer(let i): String(i)
    case .unsigned(let u): String(u)
    case .real(let d): description(d)
    }
  }

  /// `%.17g` with the shortest digits that read back as the same double: `5.7`, `1`,
  /// `1e+20`, `1e-07`, `0.0001`, `1e+16` is `10000000000000000`. `nan`, `inf`, `-inf`.
  static func description(_ d: Double) -> String {
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
