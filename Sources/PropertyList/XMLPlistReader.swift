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
  /// The input, for line and column of an error.
  private let all: [UInt8]
  /// The same bytes, read in place (valid for the reader's whole life: see ``read(_:limits:)``).
  private let p: UnsafePointer<UInt8>
  private let n: Int
  private var i = 0
  private let limits: PlistLimits
  /// Whose reader the file is read as: a `CF$UID` dictionary, base64, dates.
  private var options = PlistReadOptions.lenient
  private var warnings: [PlistWarning] = []
  private var objects = 0

  private init(all: [UInt8], p: UnsafePointer<UInt8>, limits: PlistLimits) {
    self.all = all
    self.p = p
    self.n = all.count
    self.limits = limits
  }

  static func read(
    _ data: Data, limits: PlistLimits, options: PlistReadOptions = .lenient
  ) throws(PlistError) -> (PlistValue, [PlistWarning]) {
    let bytes = try TextInput.utf8Bytes(data, format: .xml)
    let result = bytes.withUnsafeBufferPointer {
      buffer -> Result<(PlistValue, [PlistWarning]), PlistError> in
      guard let base = buffer.baseAddress else {
        return .failure(
          .truncated(format: .xml, at: .line(1, column: 1), expected: "a <plist> element"))
      }
      var reader = XMLPlistReader(all: bytes, p: base, limits: limits)
      reader.options = options
      do throws(PlistError) {
        let value = try reader.readDocument()
        return .success((value, reader.warnings))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  // MARK: - Errors

  private func location(_ offset: Int) -> SourceLocation { TextInput.location(of: offset, in: all) }

  private func fail(_ reason: String, at offset: Int? = nil) -> PlistError {
    .malformed(format: .xml, at: location(offset ?? i), reason: reason)
  }

  private func eof(_ expected: String) -> PlistError {
    .truncated(format: .xml, at: location(n), expected: expected)
  }

  // MARK: - Scanning

  @inline(__always)
  private static func isSpace(_ c: UInt8) -> Bool {
    c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D
  }

  @inline(__always)
  private func starts(with literal: StaticString, at offset: Int) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard offset + count <= n else { return false }
    let l = literal.utf8Start
    for k in 0..<count where p[offset + k] != l[k] { return false }
    return true
  }

  /// Moves past `terminator`, or fails with `what` when the input ends first.
  private mutating func skip(past terminator: StaticString, what: String) throws(PlistError) {
    let first = terminator.utf8Start[0]
    while true {
      i = TextScan.first(first, p, from: i, count: n)
      guard i < n else { break }
      if starts(with: terminator, at: i) {
        i += terminator.utf8CodeUnitCount
        return
      }
      i += 1
    }
    throw eof("the end of \(what)")
  }

  /// Skips white space, comments and processing instructions.
  private mutating func skipMisc() throws(PlistError) {
    while i < n {
      let c = p[i]
      if Self.isSpace(c) {
        i += 1
      } else if c != UInt8(ascii: "<") || i + 1 >= n {
        return
      } else if p[i + 1] == UInt8(ascii: "!"), starts(with: "<!--", at: i) {
        i += 4
        try skip(past: "-->", what: "a comment")
      } else if p[i + 1] == UInt8(ascii: "?") {
        i += 2
        try skip(past: "?>", what: "a processing instruction")
      } else {
        return
      }
    }
  }

  /// Skips `<!DOCTYPE …>`, including an internal subset in brackets, without interpreting it.
  private mutating func skipDoctype() throws(PlistError) {
    if options.exact, options.reader == .coreFoundation {
      // CoreFoundation's `skipDTD`: to the first `>` (quotes or not), and no internal subset.
      let start = i
      while i < n, p[i] != UInt8(ascii: ">") {
        if p[i] == UInt8(ascii: "[") {
          throw fail(
            "a <!DOCTYPE> with an internal subset ('['), which CoreFoundation refuses", at: i)
        }
        i += 1
      }
      guard i < n else {
        throw .truncated(
          format: .xml, at: location(start), expected: "the end of the <!DOCTYPE> declaration")
      }
      i += 1
      return
    }
    var bracket = 0
    while i < n {
      switch p[i] {
      case UInt8(ascii: "["): bracket += 1
      case UInt8(ascii: "]"): bracket -= 1
      case UInt8(ascii: "\""), UInt8(ascii: "'"):
        let quote = p[i]
        i += 1
        while i < n, p[i] != quote { i += 1 }
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

  /// The element names of the plist vocabulary; `other` for any other name.
  private enum Name: UInt8 {
    case other, plist, dict, array, key, string, integer, real, `true`, `false`, date, data
  }

  private struct Tag {
    var nameStart: Int
    var nameEnd: Int
    var name: Name
    var kind: TagKind
    var start: Int
  }

  private func text(of tag: Tag) -> String {
    String(
      decoding: UnsafeBufferPointer(start: p + tag.nameStart, count: tag.nameEnd - tag.nameStart),
      as: UTF8.self)
  }

  @inline(__always)
  private func equals(_ offset: Int, _ literal: StaticString) -> Bool {
    let l = literal.utf8Start
    for k in 0..<literal.utf8CodeUnitCount where p[offset + k] != l[k] { return false }
    return true
  }

  /// Which name of the vocabulary `p[start..<end]` is, by its exact bytes.
  @inline(__always)
  private func name(_ start: Int, _ end: Int) -> Name {
    switch end - start {
    case 3:
      if equals(start, "key") { return .key }
    case 4:
      if equals(start, "dict") { return .dict }
      if equals(start, "real") { return .real }
      if equals(start, "true") { return .true }
      if equals(start, "date") { return .date }
      if equals(start, "data") { return .data }
    case 5:
      if equals(start, "array") { return .array }
      if equals(start, "plist") { return .plist }
      if equals(start, "false") { return .false }
    case 6:
      if equals(start, "string") { return .string }
    case 7:
      if equals(start, "integer") { return .integer }
    default: break
    }
    return .other
  }

  /// Reads a tag at `<`, skipping its attributes.
  private mutating func readTag() throws(PlistError) -> Tag {
    let start = i
    i += 1
    var kind = TagKind.open
    if i < n, p[i] == UInt8(ascii: "/") {
      kind = .close
      i += 1
    }
    let nameStart = i
    while i < n, !Self.isSpace(p[i]), p[i] != UInt8(ascii: ">"), p[i] != UInt8(ascii: "/") {
      i += 1
    }
    let nameEnd = i
    guard nameEnd > nameStart else { throw fail("a tag without a name", at: start) }
    var tag = Tag(
      nameStart: nameStart, nameEnd: nameEnd, name: name(nameStart, nameEnd), kind: kind,
      start: start)
    if kind == .close {
      // A closing tag holds its name and white space only (`</plist/plist>` is no tag).
      while i < n, Self.isSpace(p[i]) { i += 1 }
      guard i < n else { throw eof("'>' to end the tag </\(text(of: tag))>") }
      guard p[i] == UInt8(ascii: ">") else {
        throw fail("'\(Character(Unicode.Scalar(p[i])))' inside the tag </\(text(of: tag))>")
      }
      i += 1
      return tag
    }
    while i < n {
      switch p[i] {
      case UInt8(ascii: ">"):
        i += 1
        return tag
      case UInt8(ascii: "/") where i + 1 < n && p[i + 1] == UInt8(ascii: ">"):
        guard kind == .open else { throw fail("a closing tag cannot also be empty", at: start) }
        i += 2
        tag.kind = .empty
        return tag
      case UInt8(ascii: "\""), UInt8(ascii: "'"):
        let quote = p[i]
        i += 1
        while i < n, p[i] != quote {
          if p[i] == UInt8(ascii: "<") { throw fail("'<' inside an attribute value") }
          i += 1
        }
        guard i < n else { throw eof("the end of an attribute value") }
        i += 1
      case UInt8(ascii: "<"):
        throw fail("'<' inside the tag <\(text(of: tag))>")
      default:
        i += 1
      }
    }
    throw eof("'>' to end the tag <\(text(of: tag))>")
  }

  // MARK: - Text content

  /// An element's text: a run of the input as it is, or (after entities, CDATA sections or
  /// comments) bytes of its own.
  private enum Text {
    case run(Int, Int)
    case bytes([UInt8])

    var isRun: Bool {
      if case .run = self { return true }
      return false
    }
  }

  /// The text of an element up to its closing tag, with entities, CDATA and comments handled.
  private mutating func readText(closing tag: Tag) throws(PlistError) -> Text {
    if tag.kind == .empty { return .run(i, i) }
    var start = i
    // The common case: plain text, then the closing tag itself.
    i = TextScan.markup(p, from: i, count: n)
    let length = tag.nameEnd - tag.nameStart
    if i + length + 3 <= n, p[i] == UInt8(ascii: "<"), p[i + 1] == UInt8(ascii: "/"),
      p[i + 2 + length] == UInt8(ascii: ">"),
      sameBytes(i + 2, tag.nameStart, length)
    {
      let end = i
      i += length + 3
      return .run(start, end)
    }
    var buffer: [UInt8]? = nil
    while true {
      guard i < n else { throw eof("</\(text(of: tag))>") }
      let c = p[i]
      if c == UInt8(ascii: "<") {
        if starts(with: "<![CDATA[", at: i) {
          if options.reader == .gnustep, options.exact {
            throw fail("a CDATA section, whose text GNUstep's XML reader drops", at: i)
          }
          if buffer == nil { buffer = [] }
          buffer?.append(contentsOf: UnsafeBufferPointer(start: p + start, count: i - start))
          i += 9
          let contentStart = i
          try skip(past: "]]>", what: "a CDATA section")
          buffer?.append(
            contentsOf: UnsafeBufferPointer(start: p + contentStart, count: i - 3 - contentStart))
          start = i
          i = TextScan.markup(p, from: i, count: n)
          continue
        }
        if starts(with: "<!--", at: i) {
          if options.exact, options.reader == .coreFoundation {
            throw fail(
              "a comment inside <\(text(of: tag))>, which CoreFoundation refuses", at: i)
          }
          if buffer == nil { buffer = [] }
          buffer?.append(contentsOf: UnsafeBufferPointer(start: p + start, count: i - start))
          i += 4
          try skip(past: "-->", what: "a comment")
          start = i
          i = TextScan.markup(p, from: i, count: n)
          continue
        }
        let textEnd = i
        let close = try readTag()
        guard close.kind == .close, close.nameEnd - close.nameStart == length,
          sameBytes(close.nameStart, tag.nameStart, length)
        else {
          throw fail(
            "<\(text(of: close))> inside <\(text(of: tag))>, which holds only text", at: close.start
          )
        }
        if var text = buffer {
          text.append(contentsOf: UnsafeBufferPointer(start: p + start, count: textEnd - start))
          return .bytes(text)
        }
        return .run(start, textEnd)
      }
      // c is '&'
      if buffer == nil { buffer = [] }
      buffer?.append(contentsOf: UnsafeBufferPointer(start: p + start, count: i - start))
      let scalar = try readEntity()
      // GNUstep's parser hands the text to its strings in pieces, an entity ending one, and
      // each piece loses a U+FEFF it starts with (one from a character reference too).
      let dropsMark = options.reader == .gnustep
      if !(dropsMark && scalar == "\u{FEFF}") {
        buffer?.append(contentsOf: String(Character(scalar)).utf8)
      }
      if dropsMark, i + 2 < n, p[i] == 0xEF, p[i + 1] == 0xBB, p[i + 2] == 0xBF { i += 3 }
      start = i
      i = TextScan.markup(p, from: i, count: n)
    }
  }

  @inline(__always)
  private func sameBytes(_ a: Int, _ b: Int, _ count: Int) -> Bool {
    for k in 0..<count where p[a + k] != p[b + k] { return false }
    return true
  }

  /// Calls `body` with the bytes of `text`.
  @inline(__always)
  private func withBytes<R>(_ text: Text, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    switch text {
    case .run(let start, let end): body(UnsafeBufferPointer(start: p + start, count: end - start))
    case .bytes(let bytes): bytes.withUnsafeBufferPointer(body)
    }
  }

  /// A string or key: the text without one leading U+FEFF (GNUstep: two, its parser's and
  /// its string's).
  private func string(_ text: Text) -> String {
    withBytes(text) { bytes in
      var start = 0
      for _ in 0..<(options.reader == .gnustep ? 2 : 1) {
        guard bytes.count >= start + 3, bytes[start] == 0xEF, bytes[start + 1] == 0xBB,
          bytes[start + 2] == 0xBF
        else { break }
        start += 3
      }
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self)
    }
  }

  private mutating func readEntity() throws(PlistError) -> Unicode.Scalar {
    let start = i
    i += 1
    let nameStart = i
    while i < n, p[i] != UInt8(ascii: ";"), i - nameStart < 12 { i += 1 }
    guard i < n, p[i] == UInt8(ascii: ";") else {
      throw fail("an '&' that does not start an entity (write &amp;)", at: start)
    }
    let name = UnsafeBufferPointer(start: p + nameStart, count: i - nameStart)
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

  /// `[+|-](digits | 0x hexdigits)`, in the range Int64.min ... UInt64.max.
  static func parseInteger(_ text: Substring) -> PlistValue? {
    var text = text
    return text.withUTF8 { TextNumber.integer($0) }
  }

  /// A decimal or the words CoreFoundation, plistlib and C use for the non-finite values.
  static func parseReal(_ text: Substring) -> Double? {
    var text = text
    return text.withUTF8 { TextNumber.real($0) }
  }

  /// `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, the year as CoreFoundation writes it (`%04d`: `-001`,
  /// `12141`) and reads it back (an optional minus and any number of digits; here up to 9).
  static func parseDate(_ text: Substring) -> Date? {
    var text = text
    return text.withUTF8 { parseDate(bytes: $0) }
  }

  static func parseDate(bytes u: UnsafeBufferPointer<UInt8>, normalising: Bool = false)
    -> Date?
  {
    let negative = u.first == UInt8(ascii: "-")
    var o = negative ? 1 : 0
    while o < u.count, TextNumber.isDigit(u[o]) { o += 1 }
    let yearDigits = o - (negative ? 1 : 0)
    // `o` is at the `-` after the year; `-MM-DDTHH:MM:SS` and `Z` follow.
    guard (1...9).contains(yearDigits), u.count >= o + 16 else { return nil }
    func number(_ from: Int, _ count: Int) -> Int? {
      var value = 0
      for k in from..<(from + count) {
        guard TextNumber.isDigit(u[k]) else { return nil }
        value = value * 10 + Int(u[k] - UInt8(ascii: "0"))
      }
      return value
    }
    guard u[o] == UInt8(ascii: "-"), u[o + 3] == UInt8(ascii: "-"), u[o + 6] == UInt8(ascii: "T"),
      u[o + 9] == UInt8(ascii: ":"), u[o + 12] == UInt8(ascii: ":"), u.last == UInt8(ascii: "Z"),
      let magnitude = number(negative ? 1 : 0, yearDigits), let month = number(o + 1, 2),
      let day = number(o + 4, 2), let hour = number(o + 7, 2), let minute = number(o + 10, 2),
      let second = number(o + 13, 2)
    else { return nil }
    let fields = CivilTime.Fields(
      year: negative ? -magnitude : magnitude, month: month, day: day, hour: hour,
      minute: minute, second: second)
    guard CivilTime.isValid(fields) else {
      // What CoreFoundation and GNUstep make of it (they carry a field out of range into the
      // next): the caller's, with a warning; a fraction on top is refused.
      guard normalising, u.count == o + 16 else { return nil }
      return Date(timeIntervalSinceReferenceDate: CivilTime.coreFoundationSeconds(fields))
    }
    var fraction = 0.0
    if u.count > o + 16 {
      guard u[o + 15] == UInt8(ascii: "."), u.count > o + 17,
        let f = Double(
          "0"
            + String(
              decoding: UnsafeBufferPointer(rebasing: u[(o + 15)..<(u.count - 1)]), as: UTF8.self))
      else { return nil }
      fraction = f
    }
    return Date(timeIntervalSinceReferenceDate: CivilTime.referenceSeconds(fields) + fraction)
  }

  /// A date as the readers read `<date>`: its fields (``parseDate(bytes:normalising:)``), or
  /// fields out of range carried over as CoreFoundation and GNUstep carry them (`normalised`);
  /// `fraction`: the text has a fraction of a second.
  static func readerDate(bytes u: UnsafeBufferPointer<UInt8>) -> (
    date: Date, normalised: Bool, fraction: Bool
  )? {
    let fraction = u.contains(UInt8(ascii: "."))
    if let date = parseDate(bytes: u) { return (date, false, fraction) }
    return parseDate(bytes: u, normalising: true).map { ($0, true, fraction) }
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

  /// Base64 as GNUstep Base decodes `<data>`: `=` and white space skipped wherever they are,
  /// a last group short of four characters decoded as far as its bits go (`AA` is one byte,
  /// `QQ==QQ==` the three bytes of `QQQQ`).
  static func decodeBase64GNUstep(_ text: ArraySlice<UInt8>) -> Result<Data, BadByte> {
    var out = [UInt8]()
    out.reserveCapacity(text.count * 3 / 4)
    var accumulator: UInt32 = 0
    var bits = 0
    for (k, c) in zip(text.indices, text) {
      guard let value = base64Value(c) else {
        if c == UInt8(ascii: "=") || c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { continue }
        return .failure(BadByte(offset: k))
      }
      accumulator = accumulator << 6 | UInt32(value)
      bits += 6
      if bits >= 8 {
        bits -= 8
        out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
        accumulator &= (1 << UInt32(bits)) - 1
      }
    }
    return .success(Data(out))
  }

  static func base64Value(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): c - UInt8(ascii: "A")
    case UInt8(ascii: "a")...UInt8(ascii: "z"): c - UInt8(ascii: "a") + 26
    case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0") + 52
    case UInt8(ascii: "+"): 62
    case UInt8(ascii: "/"): 63
    default: nil
    }
  }

  /// Base64 as CoreFoundation's XML reader decodes `<data>`: the raw bytes up to the first
  /// `<`, every ASCII byte outside the alphabet skipped, `=` counted as a zero digit, and
  /// three bytes made of each group of four (less one for each `=` just before the group's
  /// end); a last group short of four is dropped (`AA` is no byte). nil: a byte above 0x7F,
  /// which it refuses. `lenient`: something was skipped or dropped.
  static func decodeBase64CoreFoundation(_ text: ArraySlice<UInt8>) -> (
    data: Data, lenient: Bool
  )? {
    var out = [UInt8]()
    out.reserveCapacity(text.count * 3 / 4)
    var equals = 0
    var accumulator: UInt32 = 0
    var count = 0
    var lenient = false
    for c in text {
      let isSpace = c == 0x20 || (0x09...0x0D).contains(c)
      if c == UInt8(ascii: "=") {
        equals += 1
      } else if !isSpace {
        if equals > 0 { lenient = true }
        equals = 0
      }
      guard c < 0x80 else { return nil }
      let value: UInt8
      if let v = base64Value(c) {
        value = v
      } else if c == UInt8(ascii: "=") {
        value = 0
      } else {
        if !isSpace { lenient = true }
        continue
      }
      count += 1
      accumulator = accumulator << 6 &+ UInt32(value)
      if count & 3 == 0 {
        out.append(UInt8(truncatingIfNeeded: accumulator >> 16))
        if equals < 2 { out.append(UInt8(truncatingIfNeeded: accumulator >> 8)) }
        if equals < 1 { out.append(UInt8(truncatingIfNeeded: accumulator)) }
      }
    }
    if count & 3 != 0 { lenient = true }
    return (Data(out), lenient)
  }

  /// The UID CoreFoundation makes of a dictionary of one entry, `CF$UID`, whose value is a
  /// number: the number converted to 32 bits as C converts it (an integer's low 32 bits; a
  /// real truncated, `0x80000000` when out of range), with a warning when that is not the
  /// number itself. nil: not such a dictionary.
  private mutating func keyedArchiveUID(_ dictionary: PlistDictionary, at offset: Int) -> UInt64? {
    guard dictionary.count == 1, let value = dictionary["CF$UID"] else { return nil }
    let uid: UInt32
    switch value {
    case .integer(let i): uid = UInt32(truncatingIfNeeded: i)
    case .unsignedInteger(let u): uid = UInt32(truncatingIfNeeded: u)
    case .real(let d):
      let inRange = d > -2_147_483_649 && d < 2_147_483_648
      uid = inRange ? UInt32(bitPattern: Int32(d.rounded(.towardZero))) : 0x8000_0000
    default: return nil
    }
    if PlistValue.uid(UInt64(uid)) != value, value != .int(uid) {
      warnings.append(
        .readAs(
          .coreFoundation,
          "the CF$UID dictionary holding \(OpenStepWriter.describeScalar(value)) "
            + "as the UID \(uid) (CoreFoundation converts it to 32 bits)", at: location(offset)))
    }
    return UInt64(uid)
  }

  /// An `<integer>` as GNUstep's XML reader gives it: above Int64.max clamped to Int64.max,
  /// with a warning; read exactly, hexadecimal (`0x10`, which it reads as 0) is refused.
  private mutating func gnustepInteger(
    _ value: PlistValue, _ tag: Tag, text: ArraySlice<UInt8>
  ) throws(PlistError) -> PlistValue {
    if options.exact {
      if text.contains(UInt8(ascii: "x")) || text.contains(UInt8(ascii: "X")) {
        throw fail(
          "a hexadecimal <integer>, which GNUstep reads as 0 (the digits it keeps are an "
            + "accident)", at: tag.start)
      }
    }
    guard case .unsignedInteger = value else { return value }
    warnings.append(
      .readAs(
        .gnustep, "an <integer> above Int64.max as Int64.max (GNUstep's XML reader clamps it)",
        at: location(tag.start)))
    return .integer(.max)
  }

  /// `<data>` as CoreFoundation reads it (``decodeBase64CoreFoundation(_:)``), from the raw
  /// bytes after the tag to the first `<`, which must start the closing tag (read exactly; not
  /// exactly, the text with its entities, CDATA and comments).
  private mutating func coreFoundationData(_ tag: Tag) throws(PlistError) -> Data {
    let contentStart = i
    var firstMarkup = contentStart
    while firstMarkup < n, p[firstMarkup] != UInt8(ascii: "<") { firstMarkup += 1 }
    let text = try readText(closing: tag)
    let raw: ArraySlice<UInt8>
    if options.exact {
      guard firstMarkup + 1 < n, p[firstMarkup + 1] == UInt8(ascii: "/") else {
        throw fail(
          "<data> holding markup (a comment, CDATA): CoreFoundation reads <data> only to the "
            + "first '<'", at: firstMarkup)
      }
      raw = all[contentStart..<firstMarkup]
    } else {
      switch text {
      case .run(let start, let end): raw = all[start..<end]
      case .bytes(let bytes): raw = bytes[...]
      }
    }
    guard let (data, lenient) = Self.decodeBase64CoreFoundation(raw) else {
      throw fail("<data> holds a byte above 0x7F, which CoreFoundation refuses", at: contentStart)
    }
    if lenient {
      warnings.append(
        .readAs(
          .coreFoundation,
          "<data> as \(data.count) bytes: its base64 is not whole groups of four characters of "
            + "the alphabet (CoreFoundation skips what is not, and drops a last group short of "
            + "four)", at: location(tag.start)))
    }
    return data
  }

  private mutating func warnNormalised(_ date: Date, at offset: Int) {
    warnings.append(
      .readAs(
        options.reader,
        "a <date> with a field out of range as \(CivilTime.iso8601(date)) (CoreFoundation and "
          + "GNUstep carry the field over into the next)", at: location(offset)))
  }

  /// `<date>` read exactly as the reader reads it: CoreFoundation takes its text as it is (no
  /// white space around it, no fraction of a second); GNUstep's takes 20 characters,
  /// `YYYY-MM-DDTHH:MM:SSZ`, or its own `YYYY-MM-DD HH:MM:SS ±HHMM`. Both carry a field out of
  /// range into the next, with a warning.
  private mutating func exactDate(_ tag: Tag) throws(PlistError) -> Date {
    let text = try readText(closing: tag)
    let parsed = withBytes(text) { bytes -> (date: Date, normalised: Bool, fraction: Bool)? in
      if options.reader == .gnustep {
        // GNUstep's calendar takes a day or month out of range, but not 00.
        let zero: (Int) -> Bool = {
          bytes[$0] == UInt8(ascii: "0") && bytes[$0 + 1] == UInt8(ascii: "0")
        }
        if bytes.count == 20, bytes.first != UInt8(ascii: "-"), !zero(5), !zero(8) {
          return Self.readerDate(bytes: bytes)
        }
        return OpenStepReader.parseGNUstepDate(String(decoding: bytes, as: UTF8.self))
          .map { ($0, false, false) }
      }
      return Self.readerDate(bytes: bytes)
    }
    guard let parsed, !parsed.fraction else {
      let shown = Self.trimmed(withBytes(text) { String(decoding: $0, as: UTF8.self) })
      throw fail(
        "<date>\(shown)</date> is not a date \(options.reader) reads (of the form "
          + "2011-03-14T15:09:26Z, without white space or a fraction of a second)", at: tag.start)
    }
    if parsed.normalised { warnNormalised(parsed.date, at: tag.start) }
    return parsed.date
  }

  // MARK: - Document

  private mutating func readDocument() throws(PlistError) -> PlistValue {
    try skipMisc()
    if starts(with: "<!DOCTYPE", at: i) {
      try skipDoctype()
      try skipMisc()
    }
    guard i < n else { throw eof("a <plist> element") }
    guard p[i] == UInt8(ascii: "<") else { throw fail("text before the <plist> element") }
    let rootStart = i
    let root = try readTag()
    let value: PlistValue
    if root.name == .plist {
      guard root.kind == .open else { throw fail("<plist/> holds no value", at: root.start) }
      value = try readValue()
      try skipMisc()
      guard i < n else { throw eof("</plist>") }
      guard p[i] == UInt8(ascii: "<") else { throw fail("text after the value: expected </plist>") }
      let close = try readTag()
      guard close.kind == .close, close.name == .plist else {
        throw fail(
          "<\(text(of: close))> after the value; <plist> holds exactly one", at: close.start)
      }
    } else {
      i = rootStart
      value = try readValue()
    }
    try skipMisc()
    if i < n, options.exact, options.reader == .coreFoundation {
      // CoreFoundation stops after the top value (and its `</plist>`): what follows is not
      // read.
      warnings.append(
        .readAs(
          .coreFoundation, "the property list up to the end of its value, and nothing after it",
          at: location(i)))
      return value
    }
    if i < n { throw fail("content after the end of the property list") }
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

  /// The text of a number, date or boolean element without the white space around it, handed
  /// to `parse`; nil and the text as the message shows it when `parse` refuses it.
  ///
  /// The text is trimmed of ASCII white space byte by byte. That is what trimming by
  /// `Character` (as the reader always did) gives unless a carriage return is in the white
  /// space (`\r\n` is one `Character`) or the text is not ASCII (a space and a combining mark
  /// are one too), so then, and for every refusal's message, it is trimmed as before.
  private mutating func scalar<T>(
    _ tag: Tag, spaces: Spaces = .none, _ parse: (UnsafeBufferPointer<UInt8>) -> T?
  ) throws(PlistError) -> Result<T, Refused> {
    let text = try readText(closing: tag)
    if options.exact, options.reader == .coreFoundation {
      // CoreFoundation takes the text as it is: no white space around an integer or a
      // boolean, only before a real.
      let (first, last) = withBytes(text) { ($0.first, $0.last) }
      let space: (UInt8?) -> Bool = { $0.map(Self.isSpace) ?? false }
      if space(last) || (spaces == .none && space(first)) {
        return .failure(
          Refused(text: Self.trimmed(withBytes(text) { String(decoding: $0, as: UTF8.self) })))
      }
    }
    let fast: T? = withBytes(text) { bytes in
      var start = 0
      var end = bytes.count
      while start < end, Self.isSpace(bytes[start]) {
        if bytes[start] == 0x0D { return nil }
        start += 1
      }
      while end > start, Self.isSpace(bytes[end - 1]) {
        if bytes[end - 1] == 0x0D { return nil }
        end -= 1
      }
      return parse(UnsafeBufferPointer(rebasing: bytes[start..<end]))
    }
    if let fast { return .success(fast) }
    let trimmed = Self.trimmed(withBytes(text) { String(decoding: $0, as: UTF8.self) })
    let bytes = Array(trimmed.utf8)
    if let value = bytes.withUnsafeBufferPointer(parse) { return .success(value) }
    return .failure(Refused(text: trimmed))
  }

  private struct Refused: Error { var text: Substring }

  /// The white space CoreFoundation allows around a number's text (read exactly).
  private enum Spaces { case none, leading }

  private static func trimmed(_ s: String) -> Substring {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
    let head = s.drop(while: isSpace)
    var end = head.endIndex
    while end > head.startIndex, isSpace(head[head.index(before: end)]) {
      end = head.index(before: end)
    }
    return head[..<end]
  }

  /// Reads one value (with everything nested in it).
  private mutating func readValue() throws(PlistError) -> PlistValue {
    var stack: [Frame] = []
    while true {
      try skipMisc()
      guard i < n else {
        throw eof(stack.isEmpty ? "a value" : "more values or a closing tag")
      }
      guard p[i] == UInt8(ascii: "<") else {
        throw fail("text outside any element (only white space may stand between elements)")
      }
      let tag = try readTag()
      var produced: PlistValue?
      if tag.kind == .close {
        guard let top = stack.last else {
          throw fail("an unexpected </\(text(of: tag))>", at: tag.start)
        }
        guard tag.name == (top.isDictionary ? .dict : .array) else {
          throw fail(
            "</\(text(of: tag))> closes <\(top.isDictionary ? "dict" : "array")>", at: tag.start)
        }
        if top.key != nil {
          throw fail("the key \"\(top.key ?? "")\" has no value", at: top.keyOffset)
        }
        stack.removeLast()
        if top.isDictionary {
          var dictionary = PlistDictionary.Builder(minimumCapacity: top.entries.count)
          for entry in top.entries {
            if let warning = dictionary.store(
              entry.value, forKey: entry.key, at: location(entry.offset))
            {
              warnings.append(warning)
            }
          }
          let built = dictionary.dictionary
          if options.reader == .coreFoundation, let uid = keyedArchiveUID(built, at: top.start) {
            produced = .uid(uid)
          } else {
            produced = .dictionary(built)
          }
        } else {
          produced = .array(top.array)
        }
      } else {
        switch tag.name {
        case .key
        where (stack.last?.isDictionary != true || stack.last?.key != nil) && options.exact
          && options.reader == .coreFoundation:
          // CoreFoundation reads a <key> where a value stands as a string (in a <dict>, one
          // after a <key>).
          produced = .string(string(try readText(closing: tag)))
        case .key:
          guard stack.last?.isDictionary == true else {
            throw fail("<key> outside a <dict>", at: tag.start)
          }
          let top = stack.count - 1
          if let pending = stack[top].key {
            throw fail("the key \"\(pending)\" has no value", at: stack[top].keyOffset)
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
          switch try scalar(tag, TextNumber.integer) {
          case .success(let value) where options.reader == .gnustep:
            produced = try gnustepInteger(value, tag, text: all[textStart..<i])
          case .success(let value): produced = value
          case .failure(let refused):
            throw fail(
              "<integer>\(refused.text)</integer> is not an integer in 64 bits", at: tag.start)
          }
        case .real:
          switch try scalar(tag, spaces: .leading, TextNumber.real) {
          case .success(let value): produced = .real(value)
          case .failure(let refused):
            throw fail("<real>\(refused.text)</real> is not a number", at: tag.start)
          }
        case .true, .false:
          if tag.kind == .open {
            guard case .success = try scalar(tag, spaces: .none, { $0.isEmpty ? () : nil }) else {
              throw fail("<\(text(of: tag))> must be empty", at: tag.start)
            }
          }
          produced = .bool(tag.name == .true)
        case .date:
          if options.exact {
            produced = .date(try exactDate(tag))
            break
          }
          switch try scalar(tag, Self.readerDate(bytes:)) {
          case .success(let parsed):
            if parsed.normalised { warnNormalised(parsed.date, at: tag.start) }
            produced = .date(parsed.date)
          case .failure(let refused):
            throw fail(
              "<date>\(refused.text)</date> is not a date of the form 2011-03-14T15:09:26Z",
              at: tag.start)
          }
        case .data:
          if tag.kind == .empty {
            produced = .data(Data())
          } else if options.reader == .coreFoundation {
            produced = .data(try coreFoundationData(tag))
          } else {
            let contentStart = i
            let text = try readText(closing: tag)
            let decoded: Result<Data, BadByte>
            let count: Int
            switch text {
            case .run(let start, let end):
              count = end - start
              decoded = Self.decodeBase64GNUstep(all[start..<end]).mapError {
                BadByte(offset: $0.offset - start)
              }
            case .bytes(let bytes):
              count = bytes.count
              decoded = Self.decodeBase64GNUstep(bytes[...])
            }
            switch decoded {
            case .success(let data): produced = .data(data)
            case .failure(let bad):
              throw fail("<data> is not valid base64", at: contentStart + min(bad.offset, count))
            }
          }
        case .plist, .other:
          throw fail("unknown element <\(text(of: tag))>", at: tag.start)
        }
      }

      guard let value = produced else { continue }
      let counted = try counted(value, at: tag.start)
      guard !stack.isEmpty else { return counted }
      let top = stack.count - 1
      if stack[top].isDictionary {
        guard let key = stack[top].key else {
          throw fail("a <\(text(of: tag))> in a <dict> without a <key> before it", at: tag.start)
        }
        stack[top].entries.append((key, counted, stack[top].keyOffset))
        stack[top].key = nil
      } else {
        stack[top].array.append(counted)
      }
    }
  }
}
