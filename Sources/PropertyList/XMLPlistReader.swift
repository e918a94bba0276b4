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
  private let b: [UInt8]
  private var i = 0
  private let limits: PlistLimits
  private var warnings: [PlistWarning] = []
  private var objects = 0

  private init(bytes: [UInt8], limits: PlistLimits) {
    self.b = bytes
    self.limits = limits
  }

  static func read(_ data: Data, limits: PlistLimits) throws(PlistError) -> (
    PlistValue, [PlistWarning]
  ) {
    var reader = XMLPlistReader(bytes: try TextInput.utf8Bytes(data, format: .xml), limits: limits)
    let value = try reader.readDocument()
    return (value, reader.warnings)
  }

  // MARK: - Errors

  private func location(_ offset: Int) -> SourceLocation { TextInput.location(of: offset, in: b) }

  private func fail(_ reason: String, at offset: Int? = nil) -> PlistError {
    .malformed(format: .xml, at: location(offset ?? i), reason: reason)
  }

  private func eof(_ expected: String) -> PlistError {
    .truncated(format: .xml, at: location(b.count), expected: expected)
  }

  // MARK: - Scanning

  @inline(__always)
  private static func isSpace(_ c: UInt8) -> Bool {
    c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D
  }

  private func starts(with literal: StaticString, at offset: Int) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard offset + count <= b.count else { return false }
    let p = literal.utf8Start
    for k in 0..<count where b[offset + k] != p[k] { return false }
    return true
  }

  /// Moves past `terminator`, or fails with `what` when the input ends first.
  private mutating func skip(past terminator: StaticString, what: String) throws(PlistError) {
    let first = terminator.utf8Start[0]
    while i < b.count {
      if b[i] == first, starts(with: terminator, at: i) {
        i += terminator.utf8CodeUnitCount
        return
      }
      i += 1
    }
    throw eof("the end of \(what)")
  }

  /// Skips white space, comments and processing instructions.
  private mutating func skipMisc() throws(PlistError) {
    while i < b.count {
      if Self.isSpace(b[i]) {
        i += 1
      } else if starts(with: "<!--", at: i) {
        i += 4
        try skip(past: "-->", what: "a comment")
      } else if starts(with: "<?", at: i) {
        i += 2
        try skip(past: "?>", what: "a processing instruction")
      } else {
        return
      }
    }
  }

  /// Skips `<!DOCTYPE …>`, including an internal subset in brackets, without interpreting it.
  private mutating func skipDoctype() throws(PlistError) {
    var bracket = 0
    while i < b.count {
      switch b[i] {
      case UInt8(ascii: "["): bracket += 1
      case UInt8(ascii: "]"): bracket -= 1
      case UInt8(ascii: "\""), UInt8(ascii: "'"):
        let quote = b[i]
        i += 1
        while i < b.count, b[i] != quote { i += 1 }
      case UInt8(ascii: ">") where bracket <= 0:
        i += 1
        return
      default: break
      }
      i += 1
    }
    throw eof("the end of the <!DOCTYPE> declaration")
  }

  private enum TagKind { case open, close, empty }

  private struct Tag {
    var name: ArraySlice<UInt8>
    var kind: TagKind
    var start: Int

    func `is`(_ literal: StaticString) -> Bool {
      let count = literal.utf8CodeUnitCount
      guard name.count == count else { return false }
      let p = literal.utf8Start
      var k = 0
      for c in name {
        if c != p[k] { return false }
        k += 1
      }
      return true
    }

    var text: String { String(decoding: name, as: UTF8.self) }
  }

  /// Reads a tag at `<`, skipping its attributes.
  private mutating func readTag() throws(PlistError) -> Tag {
    let start = i
    i += 1
    var kind = TagKind.open
    if i < b.count, b[i] == UInt8(ascii: "/") {
      kind = .close
      i += 1
    }
    let nameStart = i
    while i < b.count, !Self.isSpace(b[i]), b[i] != UInt8(ascii: ">"), b[i] != UInt8(ascii: "/") {
      i += 1
    }
    let name = b[nameStart..<i]
    guard !name.isEmpty else { throw fail("a tag without a name", at: start) }
    while i < b.count {
      switch b[i] {
      case UInt8(ascii: ">"):
        i += 1
        return Tag(name: name, kind: kind, start: start)
      case UInt8(ascii: "/") where i + 1 < b.count && b[i + 1] == UInt8(ascii: ">"):
        guard kind == .open else { throw fail("a closing tag cannot also be empty", at: start) }
        i += 2
        return Tag(name: name, kind: .empty, start: start)
      case UInt8(ascii: "\""), UInt8(ascii: "'"):
        let quote = b[i]
        i += 1
        while i < b.count, b[i] != quote {
          if b[i] == UInt8(ascii: "<") { throw fail("'<' inside an attribute value") }
          i += 1
        }
        guard i < b.count else { throw eof("the end of an attribute value") }
        i += 1
      case UInt8(ascii: "<"):
        throw fail("'<' inside the tag <\(String(decoding: name, as: UTF8.self))>")
      default:
        i += 1
      }
    }
    throw eof("'>' to end the tag <\(String(decoding: name, as: UTF8.self))>")
  }

  // MARK: - Text content

  /// The text of an element up to its closing tag, with entities, CDATA and comments handled.
  private mutating func readText(closing tag: Tag) throws(PlistError) -> String {
    if tag.kind == .empty { return "" }
    var start = i
    var buffer: [UInt8]? = nil
    while true {
      guard i < b.count else { throw eof("</\(tag.text)>") }
      let c = b[i]
      if c == UInt8(ascii: "<") {
        if starts(with: "<![CDATA[", at: i) {
          if buffer == nil { buffer = [] }
          buffer?.append(contentsOf: b[start..<i])
          i += 9
          let contentStart = i
          try skip(past: "]]>", what: "a CDATA section")
          buffer?.append(contentsOf: b[contentStart..<(i - 3)])
          start = i
          continue
        }
        if starts(with: "<!--", at: i) {
          if buffer == nil { buffer = [] }
          buffer?.append(contentsOf: b[start..<i])
          i += 4
          try skip(past: "-->", what: "a comment")
          start = i
          continue
        }
        let textEnd = i
        let close = try readTag()
        guard close.kind == .close, close.name == tag.name else {
          throw fail("<\(close.text)> inside <\(tag.text)>, which holds only text", at: close.start)
        }
        if var text = buffer {
          text.append(contentsOf: b[start..<textEnd])
          return String(decoding: text, as: UTF8.self)
        }
        return String(decoding: b[start..<textEnd], as: UTF8.self)
      }
      if c == UInt8(ascii: "&") {
        if buffer == nil { buffer = [] }
        buffer?.append(contentsOf: b[start..<i])
        let scalar = try readEntity()
        buffer?.append(contentsOf: String(Character(scalar)).utf8)
        start = i
        continue
      }
      i += 1
    }
  }

  private mutating func readEntity() throws(PlistError) -> Unicode.Scalar {
    let start = i
    i += 1
    let nameStart = i
    while i < b.count, b[i] != UInt8(ascii: ";"), i - nameStart < 12 { i += 1 }
    guard i < b.count, b[i] == UInt8(ascii: ";") else {
      throw fail("an '&' that does not start an entity (write &amp;)", at: start)
    }
    let name = b[nameStart..<i]
    i += 1
    switch String(decoding: name, as: UTF8.self) {
    case "lt": return "<"
    case "gt": return ">"
    case "amp": return "&"
    case "quot": return "\""
    case "apos": return "'"
    case let text where text.hasPrefix("#"):
      let digits = text.dropFirst()
      let value: UInt32?
      if digits.hasPrefix("x") || digits.hasPrefix("X") {
        value = UInt32(digits.dropFirst(), radix: 16)
      } else {
        value = UInt32(digits, radix: 10)
      }
      guard let v = value, let scalar = Unicode.Scalar(v) else {
        throw fail("the character reference &\(text); names no Unicode character", at: start)
      }
      return scalar
    case let text:
      throw fail(
        "the entity &\(text); is not one of the five XML predefines (other entities are never "
          + "expanded)", at: start)
    }
  }

  // MARK: - Scalars

  /// The integer of a `CF$UID` dictionary, when it is a UID's (0 to UInt64.max).
  static func uidValue(_ value: PlistValue) -> UInt64? {
    switch value {
    case .integer(let i) where i >= 0: UInt64(i)
    case .unsignedInteger(let u): u
    default: nil
    }
  }

  /// CoreFoundation's XML reader drops one leading U+FEFF from every string and key (checked on
  /// this machine against PropertyListSerialization; GNUstep does the same), so prefs does too.
  static func droppingLeadingBOM(_ s: String) -> String {
    s.unicodeScalars.first == "\u{FEFF}" ? String(s.unicodeScalars.dropFirst()) : s
  }

  private static func trimmed(_ s: String) -> Substring {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
    let head = s.drop(while: isSpace)
    var end = head.endIndex
    while end > head.startIndex, isSpace(head[head.index(before: end)]) {
      end = head.index(before: end)
    }
    return head[..<end]
  }

  /// `[+|-](digits | 0x hexdigits)`, in the range Int64.min ... UInt64.max.
  static func parseInteger(_ text: Substring) -> PlistValue? {
    var rest = text.utf8[...]
    var negative = false
    if let first = rest.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
      negative = first == UInt8(ascii: "-")
      rest = rest.dropFirst()
    }
    var radix: UInt64 = 10
    if rest.count > 2, rest.first == UInt8(ascii: "0"),
      rest.dropFirst().first == UInt8(ascii: "x") || rest.dropFirst().first == UInt8(ascii: "X")
    {
      radix = 16
      rest = rest.dropFirst(2)
    }
    guard !rest.isEmpty else { return nil }
    var magnitude: UInt64 = 0
    for c in rest {
      let digit: UInt64
      switch c {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(c - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16:
        digit = UInt64(c - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16:
        digit = UInt64(c - UInt8(ascii: "A") + 10)
      default: return nil
      }
      let (m, o1) = magnitude.multipliedReportingOverflow(by: radix)
      let (s, o2) = m.addingReportingOverflow(digit)
      if o1 || o2 { return nil }
      magnitude = s
    }
    if negative {
      if magnitude == 0 { return .integer(0) }
      guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
      return .integer(magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude))
    }
    return .int(magnitude)
  }

  /// A decimal or the words CoreFoundation, plistlib and C use for the non-finite values.
  static func parseReal(_ text: Substring) -> Double? {
    switch text.lowercased() {
    case "nan", "+nan", "-nan": return .nan
    case "inf", "+inf", "infinity", "+infinity": return .infinity
    case "-inf", "-infinity": return -.infinity
    default:
      // Decimal only: digits, one point, an exponent. No hex floats, no words.
      var sawDigit = false
      for c in text.utf8 {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
        case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "e"),
          UInt8(ascii: "E"):
          break
        default: return nil
        }
      }
      guard sawDigit else { return nil }
      return Double(text)
    }
  }

  /// `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, the year as CoreFoundation writes it (`%04d`: `-001`,
  /// `12141`) and reads it back (an optional minus and any number of digits; here up to 9).
  static func parseDate(_ text: Substring) -> Date? {
    let u = Array(text.utf8)
    let negative = u.first == UInt8(ascii: "-")
    var o = negative ? 1 : 0
    while o < u.count, u[o] >= UInt8(ascii: "0"), u[o] <= UInt8(ascii: "9") { o += 1 }
    let yearDigits = o - (negative ? 1 : 0)
    // `o` is at the `-` after the year; `-MM-DDTHH:MM:SS` and `Z` follow.
    guard (1...9).contains(yearDigits), u.count >= o + 16 else { return nil }
    func number(_ from: Int, _ count: Int) -> Int? { CivilTime.digits(u, from, count) }
    guard u[o] == UInt8(ascii: "-"), u[o + 3] == UInt8(ascii: "-"), u[o + 6] == UInt8(ascii: "T"),
      u[o + 9] == UInt8(ascii: ":"), u[o + 12] == UInt8(ascii: ":"), u.last == UInt8(ascii: "Z"),
      let magnitude = number(negative ? 1 : 0, yearDigits), let month = number(o + 1, 2),
      let day = number(o + 4, 2), let hour = number(o + 7, 2), let minute = number(o + 10, 2),
      let second = number(o + 13, 2)
    else { return nil }
    let fields = CivilTime.Fields(
      year: negative ? -magnitude : magnitude, month: month, day: day, hour: hour,
      minute: minute, second: second)
    guard CivilTime.isValid(fields) else { return nil }
    var fraction = 0.0
    if u.count > o + 16 {
      guard u[o + 15] == UInt8(ascii: "."), u.count > o + 17,
        let f = Double("0" + String(decoding: u[(o + 15)..<(u.count - 1)], as: UTF8.self))
      else { return nil }
      fraction = f
    }
    return Date(timeIntervalSinceReferenceDate: CivilTime.referenceSeconds(fields) + fraction)
  }

  /// Base64 with white space anywhere and optional padding; returns nil and the offending
  /// offset within `text` on error.
  static func decodeBase64(_ text: ArraySlice<UInt8>) -> Result<Data, BadByte> {
    var out = [UInt8]()
    out.reserveCapacity(text.count * 3 / 4)
    var accumulator: UInt32 = 0
    var bits = 0
    var padding = 0
    for (k, c) in zip(text.indices, text) {
      let value: UInt32
      switch c {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(c - UInt8(ascii: "A"))
      case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(c - UInt8(ascii: "a") + 26)
      case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(c - UInt8(ascii: "0") + 52)
      case UInt8(ascii: "+"): value = 62
      case UInt8(ascii: "/"): value = 63
      case UInt8(ascii: "="):
        padding += 1
        continue
      case 0x20, 0x09, 0x0A, 0x0D: continue
      default: return .failure(BadByte(offset: k))
      }
      if padding > 0 { return .failure(BadByte(offset: k)) }
      accumulator = accumulator << 6 | value
      bits += 6
      if bits >= 8 {
        bits -= 8
        out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
        accumulator &= (1 << UInt32(bits)) - 1
      }
    }
    // 6 leftover bits cannot end a valid encoding.
    if bits >= 6 || padding > 2 { return .failure(BadByte(offset: text.endIndex)) }
    return .success(Data(out))
  }

  struct BadByte: Error { var offset: Int }

  // MARK: - Document

  private mutating func readDocument() throws(PlistError) -> PlistValue {
    try skipMisc()
    if starts(with: "<!DOCTYPE", at: i) {
      try skipDoctype()
      try skipMisc()
    }
    guard i < b.count else { throw eof("a <plist> element") }
    guard b[i] == UInt8(ascii: "<") else { throw fail("text before the <plist> element") }
    let rootStart = i
    let root = try readTag()
    let value: PlistValue
    if root.is("plist") {
      guard root.kind == .open else { throw fail("<plist/> holds no value", at: root.start) }
      value = try readValue()
      try skipMisc()
      guard i < b.count else { throw eof("</plist>") }
      let close = try readTag()
      guard close.kind == .close, close.is("plist") else {
        throw fail("<\(close.text)> after the value; <plist> holds exactly one", at: close.start)
      }
    } else {
      i = rootStart
      value = try readValue()
    }
    try skipMisc()
    if i < b.count { throw fail("content after the end of the property list") }
    return value
  }

  private struct Frame {
    var isDictionary: Bool
    var start: Int
    var array: [PlistValue] = []
    /// A dictionary's entries in document order, built into a dictionary of the right size at
    /// `</dict>` (growing one key by key rehashes every key at each doubling).
    var entries: [(key: String, value: PlistValue, offset: Int)] = []
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

  private mutating func scalarText(_ tag: Tag) throws(PlistError) -> Substring {
    Self.trimmed(try readText(closing: tag))
  }

  /// Reads one value (with everything nested in it).
  private mutating func readValue() throws(PlistError) -> PlistValue {
    var stack: [Frame] = []
    while true {
      try skipMisc()
      guard i < b.count else {
        throw eof(stack.isEmpty ? "a value" : "more values or a closing tag")
      }
      guard b[i] == UInt8(ascii: "<") else {
        throw fail("text outside any element (only white space may stand between elements)")
      }
      let tag = try readTag()
      var produced: PlistValue?
      if tag.kind == .close {
        guard let top = stack.last else {
          throw fail("an unexpected </\(tag.text)>", at: tag.start)
        }
        guard tag.is(top.isDictionary ? "dict" : "array") else {
          throw fail(
            "</\(tag.text)> closes <\(top.isDictionary ? "dict" : "array")>", at: tag.start)
        }
        if top.key != nil {
          throw fail("the key \"\(top.key ?? "")\" has no value", at: top.keyOffset)
        }
        stack.removeLast()
        if top.isDictionary {
          if top.entries.count == 1, top.entries[0].key == "CF$UID",
            let uid = Self.uidValue(top.entries[0].value)
          {
            produced = .uid(uid)
          } else {
            var dictionary = PlistDictionary.Builder(minimumCapacity: top.entries.count)
            for entry in top.entries {
              if let warning = dictionary.store(
                entry.value, forKey: entry.key, at: location(entry.offset))
              {
                warnings.append(warning)
              }
            }
            produced = .dictionary(dictionary.dictionary)
          }
        } else {
          produced = .array(top.array)
        }
      } else if tag.is("key") {
        guard stack.last?.isDictionary == true else {
          throw fail("<key> outside a <dict>", at: tag.start)
        }
        let top = stack.count - 1
        if let pending = stack[top].key {
          throw fail("the key \"\(pending)\" has no value", at: stack[top].keyOffset)
        }
        stack[top].key = Self.droppingLeadingBOM(try readText(closing: tag))
        stack[top].keyOffset = tag.start
        continue
      } else if tag.is("dict") || tag.is("array") {
        let isDictionary = tag.is("dict")
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
      } else if tag.is("string") {
        produced = .string(Self.droppingLeadingBOM(try readText(closing: tag)))
      } else if tag.is("integer") {
        let text = try scalarText(tag)
        guard let value = Self.parseInteger(text) else {
          throw fail("<integer>\(text)</integer> is not an integer in 64 bits", at: tag.start)
        }
        produced = value
      } else if tag.is("real") {
        let text = try scalarText(tag)
        guard let value = Self.parseReal(text) else {
          throw fail("<real>\(text)</real> is not a number", at: tag.start)
        }
        produced = .real(value)
      } else if tag.is("true") || tag.is("false") {
        if tag.kind == .open {
          guard try scalarText(tag).isEmpty else {
            throw fail("<\(tag.text)> must be empty", at: tag.start)
          }
        }
        produced = .bool(tag.is("true"))
      } else if tag.is("date") {
        let text = try scalarText(tag)
        guard let date = Self.parseDate(text) else {
          throw fail(
            "<date>\(text)</date> is not a date of the form 2011-03-14T15:09:26Z", at: tag.start)
        }
        produced = .date(date)
      } else if tag.is("data") {
        if tag.kind == .empty {
          produced = .data(Data())
        } else {
          let contentStart = i
          let text = Array(try readText(closing: tag).utf8)
          switch Self.decodeBase64(text[...]) {
          case .success(let data): produced = .data(data)
          case .failure(let bad):
            throw fail("<data> is not valid base64", at: contentStart + min(bad.offset, text.count))
          }
        }
      } else {
        throw fail("unknown element <\(tag.text)>", at: tag.start)
      }

      guard let value = produced else { continue }
      let counted = try counted(value, at: tag.start)
      guard !stack.isEmpty else { return counted }
      let top = stack.count - 1
      if stack[top].isDictionary {
        guard let key = stack[top].key else {
          throw fail("a <\(tag.text)> in a <dict> without a <key> before it", at: tag.start)
        }
        stack[top].entries.append((key, counted, stack[top].keyOffset))
        stack[top].key = nil
      } else {
        stack[top].array.append(counted)
      }
    }
  }
}
