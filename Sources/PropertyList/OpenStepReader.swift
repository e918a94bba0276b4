#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads the NeXT/OpenStep text format and GNUstep's typed extensions, from validated UTF-8.
///
/// Grammar (CoreFoundation's, with GNUstep's additions):
/// - `// …` and `/* … */` comments anywhere white space may stand;
/// - strings quoted with `"` or `'` (escapes `\a \b \f \n \r \t \v \" \' \\`, octal `\101`,
///   `\U00e9` / `\u00e9` with up to four hex digits) or bare (`A-Z a-z 0-9 _ $ / : . -`);
/// - data `<0fbd 7778>`; GNUstep values `<*I42>`, `<*R1.5>`, `<*BY>`, `<*BN>`, `<*D2011-03-14 15:09:26 +0000>`;
/// - arrays `( a, b, )`, dictionaries `{ k = v; }` (the last `;` may be left out, as GNUstep allows);
/// - a `.strings` top level: `k = v;` pairs without braces (and `k;`, meaning `k = k;`),
///   or nothing at all (an empty dictionary).
///
/// Containers nest on an explicit stack bounded by ``PlistLimits/maxDepth``.
/// Whose OpenStep text grammar to read.
package enum OpenStepGrammar: Sendable {
  /// Files: what either reference reads (CoreFoundation's single quotes and `.strings` top
  /// level, GNUstep's typed values and wider unquoted characters, with a warning for what
  /// CoreFoundation would refuse).
  case lenient
  /// CoreFoundation's alone: no typed values, only its unquoted characters.
  case coreFoundation
  /// GNUstep Base's alone (`NSPropertyList.m`): no single quotes, no `.strings` top level, and
  /// an empty document is no property list.
  case gnustep
}

struct OpenStepReader {
  private let b: [UInt8]
  private var grammar: OpenStepGrammar = .lenient
  /// Whose answers decide a value where the readers differ (the `\u` escape, octal escapes).
  private var reader: PlistReader = .coreFoundation
  private var i = 0
  private let limits: PlistLimits
  private var warnings: [PlistWarning] = []
  private var objects = 0
  private(set) var sawTypedValue = false

  private init(bytes: [UInt8], limits: PlistLimits) {
    self.b = bytes
    self.limits = limits
  }

  /// The value, the flavour found (`.gnustep` when a typed value appeared) and the warnings.
  static func read(
    _ data: Data, limits: PlistLimits, options: PlistReadOptions = .lenient
  ) throws(PlistError) -> (PlistValue, PlistFormat, [PlistWarning]) {
    var reader = OpenStepReader(
      bytes: try TextInput.utf8Bytes(data, format: .openStep), limits: limits)
    reader.grammar = options.openStepGrammar
    reader.reader = options.reader
    let value = try reader.readDocument()
    return (value, reader.sawTypedValue ? .gnustep : .openStep, reader.warnings)
  }

  // MARK: - Errors

  private var format: PlistFormat { sawTypedValue ? .gnustep : .openStep }

  private func location(_ offset: Int) -> SourceLocation { TextInput.location(of: offset, in: b) }

  private func fail(_ reason: String, at offset: Int? = nil) -> PlistError {
    .malformed(format: format, at: location(offset ?? i), reason: reason)
  }

  private func eof(_ expected: String) -> PlistError {
    .truncated(format: format, at: location(b.count), expected: expected)
  }

  // MARK: - Scanning

  /// Skips white space and comments; returns whether input remains.
  @discardableResult
  private mutating func skipSpace() throws(PlistError) -> Bool {
    while i < b.count {
      let c = b[i]
      if c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D || c == 0x0B || c == 0x0C {
        i += 1
      } else if c == UInt8(ascii: "/"), i + 1 < b.count, b[i + 1] == UInt8(ascii: "/") {
        i += 2
        while i < b.count, b[i] != 0x0A, b[i] != 0x0D { i += 1 }
      } else if c == UInt8(ascii: "/"), i + 1 < b.count, b[i + 1] == UInt8(ascii: "*") {
        let start = i
        i += 2
        while true {
          guard i + 1 < b.count else {
            throw .truncated(
              format: format, at: location(start), expected: "*/ to end the comment started here")
          }
          if b[i] == UInt8(ascii: "*"), b[i + 1] == UInt8(ascii: "/") {
            i += 2
            break
          }
          i += 1
        }
      } else {
        return true
      }
    }
    return false
  }

  private static func hexValue(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  // MARK: - Strings

  private mutating func readUnquoted() -> String {
    let start = i
    var beyondCoreFoundation = false
    while i < b.count, isUnquoted(b[i]) {
      if !OpenStepWriter.isUnquotedCharacter(b[i]) { beyondCoreFoundation = true }
      i += 1
    }
    let text = String(decoding: b[start..<i], as: UTF8.self)
    if beyondCoreFoundation, grammar == .lenient {
      warnings.append(.unquotedBeyondCoreFoundation(text, at: location(start)))
    }
    return text
  }

  /// Whether `c` may stand in an unquoted string in this grammar.
  private func isUnquoted(_ c: UInt8) -> Bool {
    grammar == .coreFoundation
      ? OpenStepWriter.isUnquotedCharacter(c) : Self.isGNUstepUnquoted(c)
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

  private mutating func readQuoted() throws(PlistError) -> String {
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
          expected: "a closing quote for the string started here")
      }
      let c = b[i]
      if c == quote {
        defer { i += 1 }
        guard escaped else { return droppingBOM(String(decoding: b[runStart..<i], as: UTF8.self)) }
        units.append(contentsOf: String(decoding: b[runStart..<i], as: UTF8.self).utf16)
        return droppingBOM(try string(fromUTF16: units, start: start))
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
        if reader == .gnustep {
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
              feature: "an octal escape above \\177 (a NeXTSTEP-encoded byte)")
          }
        }
      case UInt8(ascii: "U"),
        UInt8(ascii: "u") where e == UInt8(ascii: "U") || reader == .gnustep:
        // Up to four hex digits; none is U+0000, as both readers read it. GNUstep alone takes
        // the lowercase `\u` too, and drops an escape that ends the string short of its digits.
        unit = 0
        var digits = 0
        while digits < 4, i < b.count, let h = Self.hexValue(b[i]) {
          unit = unit * 16 + UInt16(h)
          i += 1
          digits += 1
        }
        if reader == .gnustep, digits < 4, droppedAtEnd(quote: quote, escapeStart: i - digits - 2) {
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

  /// A quoted string as the reader gives it: GNUstep drops one U+FEFF that starts it.
  private func droppingBOM(_ text: String) -> String {
    guard reader == .gnustep, text.unicodeScalars.first == "\u{FEFF}" else { return text }
    return String(text.unicodeScalars.dropFirst())
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

  // MARK: - Data and typed values

  private mutating func readAngle() throws(PlistError) -> PlistValue {
    let start = i
    i += 1
    if grammar != .coreFoundation, i < b.count, b[i] == UInt8(ascii: "*") {
      return try readTyped(start: start)
    }
    if grammar != .coreFoundation, i < b.count, b[i] == UInt8(ascii: "[") {
      return try readBase64Data(start: start)
    }
    var bytes: [UInt8] = []
    var high: UInt8? = nil
    while true {
      guard i < b.count else {
        throw .truncated(format: format, at: location(start), expected: "'>' to end the data")
      }
      let c = b[i]
      if c == UInt8(ascii: ">") {
        guard high == nil else { throw fail("data with an odd number of hex digits", at: i) }
        i += 1
        return .data(Data(bytes))
      }
      if c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D {
        i += 1
        continue
      }
      guard let v = Self.hexValue(c) else {
        throw fail("'\(Character(Unicode.Scalar(c)))' in data, which holds hex digits", at: i)
      }
      if let h = high {
        bytes.append(h << 4 | v)
        high = nil
      } else {
        high = v
      }
      i += 1
    }
  }

  /// GNUstep's base64 data, `<[D713eA==]>`.
  private mutating func readBase64Data(start: Int) throws(PlistError) -> PlistValue {
    sawTypedValue = true
    i += 1
    let bodyStart = i
    while i < b.count, b[i] != UInt8(ascii: "]") { i += 1 }
    guard i + 1 < b.count, b[i + 1] == UInt8(ascii: ">") else {
      throw .truncated(format: .gnustep, at: location(start), expected: "']>' to end the data")
    }
    let body = b[bodyStart..<i]
    i += 2
    // As GNUstep Base reads it (NSDataBase64DecodingIgnoreUnknownCharacters): bytes outside
    // the base64 alphabet are skipped. What GNUstep then decodes by accident (more than two
    // '=', nothing left at all) is refused.
    let kept = body.filter { Self.isBase64Byte($0) || $0 == UInt8(ascii: "=") }
    if kept.isEmpty, !body.isEmpty {
      throw fail("<[…]> holds no base64 characters", at: bodyStart)
    }
    switch XMLPlistReader.decodeBase64(kept[...]) {
    case .success(let data): return .data(data)
    case .failure: throw fail("<[…]> is not valid base64", at: bodyStart)
    }
  }

  static func isBase64Byte(_ c: UInt8) -> Bool {
    switch c {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"):
      true
    default: false
    }
  }

  private mutating func readTyped(start: Int) throws(PlistError) -> PlistValue {
    sawTypedValue = true
    i += 1
    guard i < b.count else { throw eof("a GNUstep type letter after <*") }
    let type = b[i]
    i += 1
    let bodyStart = i
    while i < b.count, b[i] != UInt8(ascii: ">") { i += 1 }
    guard i < b.count else {
      throw .truncated(format: .gnustep, at: location(start), expected: "'>' to end the value")
    }
    var body = String(decoding: b[bodyStart..<i], as: UTF8.self)
    i += 1
    // GNUstep allows a quoted value (`<*I"42">`) when both quotes are there.
    if body.utf8.count > 2, body.hasPrefix("\""), body.hasSuffix("\"") {
      body = String(body.dropFirst().dropLast())
    }
    switch type {
    case UInt8(ascii: "I"):
      let text = body.trimmingWhitespace()
      guard let value = XMLPlistReader.parseInteger(text[...]) else {
        throw fail("<*I\(body)> is not an integer in 64 bits", at: start)
      }
      return value
    case UInt8(ascii: "R"):
      guard let value = XMLPlistReader.parseReal(body.trimmingWhitespace()[...])
      else { throw fail("<*R\(body)> is not a number", at: start) }
      return .real(value)
    case UInt8(ascii: "B"):
      switch body {
      case "Y": return .bool(true)
      case "N": return .bool(false)
      default: throw fail("<*B\(body)> is not <*BY> or <*BN>", at: start)
      }
    case UInt8(ascii: "D"):
      guard let date = Self.parseGNUstepDate(body) else {
        throw fail("<*D\(body)> is not a date of the form 2011-03-14 15:09:26 +0000", at: start)
      }
      return .date(date)
    default:
      throw .unsupported(
        format: .gnustep, at: location(start),
        feature: "the typed value <*\(Character(Unicode.Scalar(type)))…>")
    }
  }

  /// `YYYY-MM-DD HH:MM:SS ±HHMM`.
  static func parseGNUstepDate(_ text: String) -> Date? {
    let u = Array(text.utf8)
    guard u.count == 25 else { return nil }
    func number(_ from: Int, _ count: Int) -> Int? { CivilTime.digits(u, from, count) }
    guard u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"), u[10] == 0x20,
      u[13] == UInt8(ascii: ":"), u[16] == UInt8(ascii: ":"), u[19] == 0x20,
      u[20] == UInt8(ascii: "+") || u[20] == UInt8(ascii: "-"),
      let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
      let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
      let zoneHours = number(21, 2), let zoneMinutes = number(23, 2), zoneMinutes < 60
    else { return nil }
    let fields = CivilTime.Fields(
      year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    guard CivilTime.isValid(fields) else { return nil }
    let offset = (zoneHours * 3600 + zoneMinutes * 60) * (u[20] == UInt8(ascii: "-") ? -1 : 1)
    return Date(timeIntervalSinceReferenceDate: CivilTime.referenceSeconds(fields) - Double(offset))
  }

  // MARK: - Values

  private struct Frame {
    var isDictionary: Bool
    var start: Int
    var array: [PlistValue] = []
    var dictionary = PlistDictionary.Builder()
    var key: String? = nil
    var keyOffset = 0
  }

  private enum Token {
    case value(PlistValue)
    case open(isDictionary: Bool)
  }

  /// A scalar, or the start of a container.
  private mutating func readToken() throws(PlistError) -> Token {
    guard try skipSpace() else { throw eof("a value") }
    let c = b[i]
    switch c {
    case UInt8(ascii: "{"):
      i += 1
      return .open(isDictionary: true)
    case UInt8(ascii: "("):
      i += 1
      return .open(isDictionary: false)
    case UInt8(ascii: "<"): return .value(try readAngle())
    case UInt8(ascii: "\""): return .value(.string(try readQuoted()))
    case UInt8(ascii: "'") where grammar != .gnustep:
      return .value(.string(try readQuoted()))
    default:
      guard isUnquoted(c) else {
        throw fail("unexpected '\(Character(Unicode.Scalar(c)))' where a value should start")
      }
      return .value(.string(readUnquoted()))
    }
  }

  private mutating func count(at offset: Int) throws(PlistError) {
    objects += 1
    guard objects <= limits.maxObjects else {
      throw .limitExceeded(format: format, at: location(offset), limit: .objects(limits.maxObjects))
    }
  }

  /// A dictionary key: a string, or (GNUstep) a typed scalar kept under its text form.
  private mutating func keyString(_ token: Token, at offset: Int) throws(PlistError) -> String {
    switch token {
    case .value(.string(let s)): return s
    case .value(let scalar) where scalar.isScalar || scalar.dateValue != nil:
      let text = OpenStepWriter.describeScalar(scalar)
      warnings.append(.nonStringKey(text, at: location(offset)))
      return text
    default:
      throw fail("a dictionary key must be a string", at: offset)
    }
  }

  /// Reads one complete value.
  private mutating func readValue() throws(PlistError) -> PlistValue {
    var stack: [Frame] = []
    var pending: Token? = nil
    while true {
      // Inside a dictionary, a key (with '=') comes before each value.
      if let top = stack.last, top.isDictionary, top.key == nil, pending == nil {
        guard try skipSpace() else { throw eof("a key or '}'") }
        if b[i] == UInt8(ascii: "}") {
          i += 1
          let frame = stack.removeLast()
          pending = .value(.dictionary(frame.dictionary.dictionary))
        } else {
          let keyOffset = i
          let token = try readToken()
          let key = try keyString(token, at: keyOffset)
          guard try skipSpace() else { throw eof("'=' after the key \"\(key)\"") }
          stack[stack.count - 1].key = key
          stack[stack.count - 1].keyOffset = keyOffset
          if b[i] == UInt8(ascii: ";"), grammar != .gnustep {
            // CoreFoundation reads `{ key; }` as `key = key` (its strings-file shortcut, in
            // any dictionary); the `;` ends the entry as after any value.
            pending = .value(.string(key))
            continue
          }
          guard b[i] == UInt8(ascii: "=") else {
            throw fail("expected '=' after the key \"\(key)\"")
          }
          i += 1
          continue
        }
      }
      let tokenOffset = i
      let token: Token
      if let p = pending {
        token = p
        pending = nil
      } else {
        if let top = stack.last, !top.isDictionary {
          guard try skipSpace() else { throw eof("a value or ')'") }
          if b[i] == UInt8(ascii: ")") {
            i += 1
            let frame = stack.removeLast()
            pending = .value(.array(frame.array))
            continue
          }
        }
        token = try readToken()
      }
      let value: PlistValue
      switch token {
      case .open(let isDictionary):
        guard stack.count < limits.maxDepth else {
          throw .limitExceeded(
            format: format, at: location(tokenOffset), limit: .depth(limits.maxDepth))
        }
        stack.append(Frame(isDictionary: isDictionary, start: tokenOffset))
        continue
      case .value(let v):
        value = v
      }
      try count(at: tokenOffset)
      guard !stack.isEmpty else { return value }
      let top = stack.count - 1
      if stack[top].isDictionary {
        let key = stack[top].key ?? ""
        // The place is worked out only for a warning: it scans the text from the start.
        let keyOffset = stack[top].keyOffset
        if let warning = stack[top].dictionary.store(value, forKey: key, at: location(keyOffset)) {
          warnings.append(warning)
        }
        stack[top].key = nil
        guard try skipSpace() else { throw eof("';' or '}'") }
        if b[i] == UInt8(ascii: ";") {
          i += 1
        } else if b[i] == UInt8(ascii: "}") {
          // GNUstep reads it (with a logged warning); CoreFoundation refuses the file.
          guard grammar != .coreFoundation else {
            throw fail("expected ';' after the value of \"\(key)\" (CoreFoundation requires it)")
          }
          warnings.append(.missingSemicolon(after: key, at: location(i)))
        } else {
          throw fail("expected ';' after the value of \"\(key)\"")
        }
      } else {
        stack[top].array.append(value)
        guard try skipSpace() else { throw eof("',' or ')'") }
        if b[i] == UInt8(ascii: ",") {
          i += 1
        } else if b[i] != UInt8(ascii: ")") {
          throw fail("expected ',' or ')' after an array element")
        }
      }
    }
  }

  // MARK: - Document

  private mutating func readDocument() throws(PlistError) -> PlistValue {
    guard try skipSpace() else {
      guard grammar != .gnustep else { throw eof("a value") }
      return .dictionary([:])
    }
    let start = i
    let value = try readValue()
    guard try skipSpace() else { return value }
    if grammar != .gnustep, case .string = value,
      b[i] == UInt8(ascii: "=") || b[i] == UInt8(ascii: ";")
    {
      i = start
      return try readStringsFile()
    }
    throw fail("content after the end of the property list")
  }

  /// `key = value;` pairs to the end of the input, or (as CoreFoundation reads a strings file)
  /// to the first place where no key starts: what came before is the file, with a warning.
  private mutating func readStringsFile() throws(PlistError) -> PlistValue {
    var dictionary = PlistDictionary.Builder()
    while try skipSpace() {
      let keyOffset = i
      guard let key = try stringsFileKey() else {
        i = keyOffset
        warnings.append(
          .readAs(
            .coreFoundation,
            "only the entries before this place: no key starts here, and CoreFoundation ends "
              + "the strings file at it", at: location(keyOffset)))
        break
      }
      guard try skipSpace() else { throw eof("'=' or ';' after the key \"\(key)\"") }
      let value: PlistValue
      if b[i] == UInt8(ascii: ";") {
        value = .string(key)
      } else {
        guard b[i] == UInt8(ascii: "=") else { throw fail("expected '=' after the key \"\(key)\"") }
        i += 1
        value = try readValue()
        guard try skipSpace() else { throw eof("';' after the value of \"\(key)\"") }
        guard b[i] == UInt8(ascii: ";") else {
          throw fail("expected ';' after the value of \"\(key)\"")
        }
      }
      i += 1
      try count(at: keyOffset)
      if let warning = dictionary.store(value, forKey: key, at: location(keyOffset)) {
        warnings.append(warning)
      }
    }
    return .dictionary(dictionary.dictionary)
  }

  /// A key of a strings file as CoreFoundation reads one: a quoted string, or an unquoted one of
  /// its characters; nil where none starts or a quoted one does not end.
  private mutating func stringsFileKey() throws(PlistError) -> String? {
    let c = b[i]
    if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
      // CoreFoundation's strings-file loop ends, without an error, at a quoted key that does
      // not end or whose escape it cannot convert; a key it reads (a lone surrogate in it
      // too) is no end.
      do {
        return try readQuoted()
      } catch {
        switch error {
        case .truncated, .unsupported: return nil
        default: throw error
        }
      }
    }
    guard OpenStepWriter.isUnquotedCharacter(c) else { return nil }
    let start = i
    while i < b.count, OpenStepWriter.isUnquotedCharacter(b[i]) { i += 1 }
    return String(decoding: b[start..<i], as: UTF8.self)
  }
}
