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
///
/// Its strings are in `OpenStepReader+Strings.swift`, its data and typed values in
/// `OpenStepReader+Typed.swift`.
struct OpenStepReader {
  let b: [UInt8]
  /// Whose grammar is read, and whose answers decide a value where the readers differ (the
  /// `\u` escape, octal escapes).
  var rules = ReaderRules.tools
  var i = 0
  let limits: PlistLimits
  var warnings: [PlistWarning] = []
  private var objects = 0
  var sawTypedValue = false

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
    reader.rules = options.rules
    let value = try reader.readDocument()
    return (value, reader.sawTypedValue ? .gnustep : .openStep, reader.warnings)
  }

  /// The document of text sniffed as `format` (OpenStep or GNUstep), its encoding first
  /// checked as the reader takes it.
  static func document(
    _ data: Data, format: PlistFormat, limits: PlistLimits, options: PlistReadOptions
  ) throws(PlistError) -> PlistDocument {
    try TextInput.requireEncoding(of: data, format: format, rules: options.rules)
    let (value, found, warnings) = try read(data, limits: limits, options: options)
    return PlistDocument(value: value, format: found, warnings: warnings)
  }

  // MARK: - Errors

  var format: PlistFormat { sawTypedValue ? .gnustep : .openStep }

  func location(_ offset: Int) -> SourceLocation { TextInput.location(of: offset, in: b) }

  /// A refusal of the text at `offset` (the reader's place by default), naming its row.
  func fail(_ row: CompatibilityRow, _ reason: String, at offset: Int? = nil) -> PlistError {
    .malformed(format: format, at: location(offset ?? i), reason: reason.naming(row))
  }

  /// The text ended where `expected` should have been.
  func eof(_ expected: String) -> PlistError {
    .truncated(format: format, at: location(b.count), expected: expected.naming(.openStepTruncated))
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
              format: format, at: location(start),
              expected: "*/ to end the comment started here".naming(.unterminatedComment))
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

  static func hexValue(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
    default: nil
    }
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
    case UInt8(ascii: "'") where rules.singleQuotes:
      return .value(.string(try readQuoted()))
    default:
      guard isUnquoted(c) else {
        throw fail(
          .openStepUnexpectedCharacter,
          "unexpected '\(Character(Unicode.Scalar(c)))' where a value should start")
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
      throw fail(.openStepContainerKey, "a dictionary key must be a string", at: offset)
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
          if b[i] == UInt8(ascii: ";"), rules.keyAlone {
            // CoreFoundation reads `{ key; }` as `key = key` (its strings-file shortcut, in
            // any dictionary); the `;` ends the entry as after any value.
            pending = .value(.string(key))
            continue
          }
          guard b[i] == UInt8(ascii: "=") else {
            throw fail(.openStepMissingEquals, "expected '=' after the key \"\(key)\"")
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
          guard rules.missingSemicolon != .refused else {
            throw fail(
              .openStepMissingSemicolon,
              "expected ';' after the value of \"\(key)\" (CoreFoundation requires it)")
          }
          warnings.append(.missingSemicolon(after: key, at: location(i)))
        } else {
          throw fail(.openStepJunkAfterValue, "expected ';' after the value of \"\(key)\"")
        }
      } else {
        stack[top].array.append(value)
        guard try skipSpace() else { throw eof("',' or ')'") }
        if b[i] == UInt8(ascii: ",") {
          i += 1
        } else if b[i] != UInt8(ascii: ")") {
          throw fail(.openStepJunkAfterValue, "expected ',' or ')' after an array element")
        }
      }
    }
  }

  // MARK: - Document

  private mutating func readDocument() throws(PlistError) -> PlistValue {
    guard try skipSpace() else {
      guard rules.emptyDocument != .refused else {
        throw .truncated(
          format: format, at: location(b.count),
          expected: "a value (GNUstep reads no property list from nothing)"
            .naming(.gnustepEmptyDocument))
      }
      return .dictionary([:])
    }
    let start = i
    let value = try readValue()
    guard try skipSpace() else { return value }
    if rules.stringsFiles, case .string = value,
      b[i] == UInt8(ascii: "=") || b[i] == UInt8(ascii: ";")
    {
      i = start
      return try readStringsFile()
    }
    throw fail(.openStepContentAfterEnd, "content after the end of the property list")
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
        guard b[i] == UInt8(ascii: "=") else {
          throw fail(.openStepMissingEquals, "expected '=' after the key \"\(key)\"")
        }
        i += 1
        value = try readValue()
        guard try skipSpace() else { throw eof("';' after the value of \"\(key)\"") }
        guard b[i] == UInt8(ascii: ";") else {
          throw fail(.openStepJunkAfterValue, "expected ';' after the value of \"\(key)\"")
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
