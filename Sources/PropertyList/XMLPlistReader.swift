#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads Apple's XML plist format from validated UTF-8 bytes.
///
/// A hand-written scanner rather than a general XML parser: it knows the plist vocabulary, keeps
/// nesting on an explicit stack bounded by ``PlistLimits/maxDepth``, expands only the five
/// predefined entities and numeric character references (a `<!DOCTYPE>` internal subset is
/// skipped and any other entity is an error, so nothing from the file is ever expanded), and
/// reports every error with its line and column.
///
/// Like CoreFoundation it keeps carriage returns in text as they are (no XML line-ending
/// normalisation), drops a leading U+FEFF from strings and keys, accepts a value element
/// without the `<plist>` wrapper, and reads a one-key `CF$UID` dictionary as a UID.
struct XMLPlistReader {
  /// The input, read in place (valid for the reader's whole life: see
  /// ``read(_:limits:rules:)``).
  let b: ByteView
  /// Its count.
  var n: Int { b.count }
  var i = 0
  let limits: PlistLimits
  /// Whose reader the file is read as: a `CF$UID` dictionary, base64, dates.
  var rules = ReaderRules.tools
  var warnings: [PlistWarning] = []
  var objects = 0

  private init(_ b: ByteView, limits: PlistLimits) {
    self.b = b
    self.limits = limits
  }

  static func read(
    _ data: Data, limits: PlistLimits, rules: ReaderRules = .tools
  ) throws(PlistError) -> (PlistValue, [PlistWarning]) {
    try TextInput.withUTF8(data, format: .xml, declared: rules.declaredEncodings) {
      (text) throws(PlistError) -> (PlistValue, [PlistWarning]) in
      var reader = XMLPlistReader(text, limits: limits)
      reader.rules = rules
      if rules.declaredEncodings == .coreFoundation, let high = Self.nonASCIIDeclaredASCII(data) {
        reader.warnings.append(
          .readAs(
            .coreFoundation,
            "a byte above 0x7F in text declared US-ASCII as the Latin-1 character of that "
              + "byte (UTF-8's \"é\" is \"Ã©\")", at: .byteOffset(high)))
      }
      let value = try reader.readDocument()
      return (value, reader.warnings)
    }
  }

  /// A number's text with a control character (not XML 1.0's): CoreFoundation's scanner skips
  /// it before the digits (`<real>` U+0000 `.0` is 0), prefs refuses the file.
  func refuseControlCharacter(in text: Substring, _ element: String, at offset: Int)
    throws(PlistError)
  {
    guard
      let c = text.unicodeScalars.first(where: {
        $0.value < 0x20 && !"\t\n\r".unicodeScalars.contains($0)
      })
    else { return }
    throw fail(
      .xmlControlCharacterInNumber,
      "<\(element)> holding the control character \(c.codePoint), which XML 1.0 does not allow",
      at: offset)
  }

  /// The offset of the first byte above 0x7F of a file whose XML declaration says US-ASCII.
  static func nonASCIIDeclaredASCII(_ data: Data) -> Int? {
    ByteView.with(data) { raw -> Int? in
      let text = raw.starts(with: [0xEF, 0xBB, 0xBF]) ? raw.rest(from: 3) : raw
      guard let declared = TextInput.declaredEncoding(text),
        declared == "us-ascii" || declared == "ascii"
      else { return nil }
      return raw.firstIndex { $0 >= 0x80 }
    }
  }

  // MARK: - Errors

  func location(_ offset: Int) -> SourceLocation { TextInput.location(of: offset, in: b) }

  /// A refusal of the file at `offset` (the reader's place by default), naming its row.
  func fail(_ row: CompatibilityRow, _ reason: String, at offset: Int? = nil) -> PlistError {
    .malformed(format: .xml, at: location(offset ?? i), reason: reason.naming(row))
  }

  /// The input ended where `expected` should have been (a truncated file unless `row` says
  /// what was left open).
  func eof(_ expected: String, _ row: CompatibilityRow = .xmlTruncated) -> PlistError {
    .truncated(format: .xml, at: location(n), expected: expected.naming(row))
  }

  // MARK: - Document

  private mutating func readDocument() throws(PlistError) -> PlistValue {
    try skipMisc()
    // The prolog is any run of white space, comments, processing instructions and
    // `<!DOCTYPE`s (a second one too), as CoreFoundation and GNUstep read it.
    while starts(with: "<!DOCTYPE", at: i) {
      try skipDoctype()
      try skipMisc()
    }
    guard i < n else { throw eof("a <plist> element") }
    guard b[i] == UInt8(ascii: "<") else {
      throw fail(.xmlTextBeforePlist, "text before the <plist> element")
    }
    let rootStart = i
    let root = try readTag()
    let value: PlistValue
    if root.name == .plist {
      guard root.kind == .open else {
        throw fail(.xmlEmptyPlist, "<plist/> holds no value", at: root.start)
      }
      value = try readValue()
      try skipMisc()
      guard i < n else { throw eof("</plist>") }
      guard b[i] == UInt8(ascii: "<") else {
        throw fail(.xmlTextAfterValue, "text after the value: expected </plist>")
      }
      let close = try readTag()
      guard close.kind == .close, close.name == .plist else {
        throw fail(
          .xmlSecondValue, "<\(text(of: close))> after the value; <plist> holds exactly one",
          at: close.start)
      }
    } else {
      i = rootStart
      value = try readValue()
    }
    try skipMisc()
    if i < n, rules.afterTopValue == .ignored {
      // CoreFoundation stops after the top value (and its `</plist>`): what follows is not
      // read (by every verb: the tools read as CoreFoundation does).
      warnings.append(
        .readAs(
          .coreFoundation, "the property list up to the end of its value, and nothing after it",
          at: location(i)))
      return value
    }
    if i < n { throw fail(.xmlContentAfterEnd, "content after the end of the property list") }
    return value
  }

  private struct Frame {
    var isDictionary: Bool
    var start: Int
    /// An array's values; a dictionary's, in the order of ``keys``.
    var values: [PlistValue] = []
    /// A dictionary's keys in document order, with where each is (for a warning), built into
    /// a dictionary of the right size at `</dict>` (growing one key by key rehashes every key
    /// at each doubling).
    var keys: [String] = []
    var offsets: [Int] = []
    var key: String? = nil
    var keyOffset = 0
  }

  private mutating func counted(_ value: PlistValue, at offset: Int) throws(PlistError)
    -> PlistValue
  {
    objects += 1
    guard objects <= limits.maxObjects else {
      throw .limitExceeded(format: .xml, at: location(offset), limit: .objects(limits.maxObjects))
    }
    return value
  }

  /// Reads one value (with everything nested in it).
  private mutating func readValue() throws(PlistError) -> PlistValue {
    var stack: [Frame] = []
    while true {
      try skipMisc()
      guard i < n else {
        throw eof(stack.isEmpty ? "a value" : "more values or a closing tag")
      }
      guard b[i] == UInt8(ascii: "<") else {
        throw fail(
          .xmlTextOutsideElement,
          "text outside any element (only white space may stand between elements)")
      }
      let tag = try readTag()
      var produced: PlistValue?
      if tag.kind == .close {
        guard let top = stack.last else {
          throw fail(.xmlUnexpectedClose, "an unexpected </\(text(of: tag))>", at: tag.start)
        }
        guard tag.name == (top.isDictionary ? .dict : .array) else {
          throw fail(
            .xmlMismatchedClose,
            "</\(text(of: tag))> closes <\(top.isDictionary ? "dict" : "array")>", at: tag.start)
        }
        if top.key != nil {
          throw fail(
            .xmlKeyWithoutValue, "the key \"\(top.key ?? "")\" has no value", at: top.keyOffset)
        }
        stack.removeLast()
        if top.isDictionary {
          var found: [PlistWarning] = []
          let built = PlistDictionary.Builder.dictionary(
            keys: top.keys, values: top.values, at: { location(top.offsets[$0]) },
            warnings: &found)
          warnings += found
          if rules.uidDictionaries, let uid = keyedArchiveUID(built, at: top.start) {
            produced = .uid(uid)
          } else {
            produced = .dictionary(built)
          }
        } else {
          produced = .array(top.values)
        }
      } else {
        switch tag.name {
        case .key
        where (stack.last?.isDictionary != true || stack.last?.key != nil)
          && rules.keyWhereValueStands:
          // CoreFoundation reads a <key> where a value stands as a string (in a <dict>, one
          // after a <key>), for every verb.
          produced = .string(string(try readText(closing: tag)))
        case .key:
          guard stack.last?.isDictionary == true else {
            throw fail(.xmlKeyOutsideDictionary, "<key> outside a <dict>", at: tag.start)
          }
          let top = stack.count - 1
          if let pending = stack[top].key {
            throw fail(
              .xmlKeyWithoutValue, "the key \"\(pending)\" has no value",
              at: stack[top].keyOffset)
          }
          stack[top].key = string(try readText(closing: tag))
          stack[top].keyOffset = tag.start
          continue
        case .dict, .array:
          let isDictionary = tag.name == .dict
          guard stack.count < limits.maxDepth else {
            throw .limitExceeded(
              format: .xml, at: location(tag.start), limit: .depth(limits.maxDepth))
          }
          if tag.kind == .empty {
            produced = isDictionary ? .dictionary([:]) : .array([])
          } else {
            stack.append(Frame(isDictionary: isDictionary, start: tag.start))
            continue
          }
        case .string:
          produced = .string(string(try readText(closing: tag)))
        case .integer:
          let textStart = i
          let parsed: Result<PlistValue, Refused>
          switch rules.integers {
          case .coreFoundation: parsed = try scalar(tag, spaces: .leading, Self.cfInteger)
          case .gnustep: parsed = try scalar(tag, spaces: .none, TextNumber.integer)
          }
          switch parsed {
          case .success(let value):
            guard case .gnustep(let hexadecimal) = rules.integers else {
              produced = value
              break
            }
            produced = try gnustepInteger(
              value, tag, text: b.slice(textStart..<i), hexadecimal: hexadecimal)
          case .failure(let refused):
            try refuseControlCharacter(in: refused.text, "integer", at: tag.start)
            throw fail(
              .xmlBadInteger, "<integer>\(refused.text)</integer> is not an integer in 64 bits",
              at: tag.start)
          }
        case .real:
          switch try scalar(tag, spaces: .leading, TextNumber.real) {
          case .success(let value): produced = .real(value)
          case .failure(let refused):
            try refuseControlCharacter(in: refused.text, "real", at: tag.start)
            throw fail(.xmlBadReal, "<real>\(refused.text)</real> is not a number", at: tag.start)
          }
        case .true, .false:
          if tag.kind == .open {
            guard case .success = try scalar(tag, spaces: .none, { $0.isEmpty ? () : nil }) else {
              throw fail(.xmlBooleanWithText, "<\(text(of: tag))> must be empty", at: tag.start)
            }
          }
          produced = .bool(tag.name == .true)
        case .date:
          produced = .date(try date(tag))
        case .data:
          produced = .data(try data(tag))
        case .plist, .other:
          throw fail(.xmlUnknownElement, "unknown element <\(text(of: tag))>", at: tag.start)
        }
      }

      guard let value = produced else { continue }
      let counted = try counted(value, at: tag.start)
      guard !stack.isEmpty else { return counted }
      let top = stack.count - 1
      if stack[top].isDictionary {
        guard let key = stack[top].key else {
          throw fail(
            .xmlValueWithoutKey, "a <\(text(of: tag))> in a <dict> without a <key> before it",
            at: tag.start)
        }
        stack[top].keys.append(key)
        stack[top].values.append(counted)
        stack[top].offsets.append(stack[top].keyOffset)
        stack[top].key = nil
      } else {
        stack[top].values.append(counted)
      }
    }
  }
}
