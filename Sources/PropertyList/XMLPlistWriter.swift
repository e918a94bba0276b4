#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How the XML writer treats what CoreFoundation writes but XML, or a reader, would not give
/// back as it was. Everything else is written as CoreFoundation writes it either way.
package struct XMLWriteOptions: Sendable, Hashable {
  /// A date with a fraction of a second: written to the whole second below it, as
  /// CoreFoundation writes it (its reader, and the `<date>` form, hold whole seconds); refused
  /// when false.
  package var truncatingDates: Bool
  /// Written as CoreFoundation writes them when true, refused when false: a character XML 1.0
  /// does not allow (a C0 control other than tab, newline and carriage return; U+FFFE,
  /// U+FFFF), which CoreFoundation and prefs read back but other XML parsers refuse; a string
  /// or key that starts with U+FEFF, which CoreFoundation's reader (and prefs') drops; a
  /// dictionary holding only the integer `CF$UID`, which reads back as a UID; a year outside
  /// 0...9999 (`-028`, `12141`), which CoreFoundation and prefs read back but other readers
  /// refuse.
  package var lenient: Bool

  /// `PropertyList.write` and `prefs convert`: what XML holds faithfully, or an error.
  package static let strict = XMLWriteOptions(truncatingDates: false, lenient: false)
  /// Byte for byte what CoreFoundation (`plutil -convert xml1`) writes.
  package static let coreFoundation = XMLWriteOptions(truncatingDates: true, lenient: true)
}

/// Writes Apple's XML plist format byte for byte as CoreFoundation's `_CFAppendXML0` does
/// (checked against the toolchain's `plutil -convert xml1`): tab indentation; keys in the
/// order of their UTF-16 code units (`CFStringCompare` without options); only `&`, `<` and
/// `>` escaped, every other character written as it is (a carriage return too); reals as
/// `%.17g` (``PrintfG17``) with `0.0`, `nan`, `+infinity`, `-infinity`; dates to the second
/// with the year as `%04d`; data in base64 lines of 76 characters less 8 per level of nesting,
/// the level counted up to 8 (12 characters after 8 tabs, however deep); `<dict/>` and
/// `<array/>` when empty.
///
/// What CoreFoundation writes but XML or a reader would not give back as it was is refused
/// unless ``XMLWriteOptions`` says otherwise: a date with a fraction of a second, a character
/// XML 1.0 does not allow, a leading U+FEFF, a dictionary holding only `CF$UID`, and a year
/// outside 0...9999. A date 10^15 seconds or more from 2001 (beyond about year 31,690,000 either
/// way) is refused whatever the options (binary holds it).
struct XMLPlistWriter {
  var out: OutputBytes
  private var path: [ValuePath.Component] = []
  private let maxDepth: Int
  private let options: XMLWriteOptions

  static let header: StaticString = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">

    """

  static func write(_ value: PlistValue, maxDepth: Int, options: XMLWriteOptions = .strict)
    throws(PlistError) -> Data
  {
    // Room for a typical entry of each top-level container's (about 60 bytes in XML): a large
    // domain is written without the buffer growing (and being copied) a dozen times.
    let entries =
      switch value {
      case .dictionary(let d): d.count
      case .array(let a): a.count
      default: 0
      }
    var writer = document(maxDepth: maxDepth, options: options, capacity: 4096 + entries * 64)
    do {
      try writer.append(value, indent: 0)
    } catch {
      writer.out.deallocate()
      throw error
    }
    return writer.finish()
  }

  /// A writer of a whole document, its header written: ``finish()`` ends it.
  static func document(maxDepth: Int, options: XMLWriteOptions, capacity: Int) -> XMLPlistWriter {
    var writer = XMLPlistWriter(maxDepth: maxDepth, options: options, capacity: capacity)
    writer.out.append(header)
    return writer
  }

  /// The document's end, and its bytes.
  mutating func finish() -> Data {
    out.append("</plist>\n")
    return out.data()
  }

  init(maxDepth: Int, options: XMLWriteOptions, capacity: Int) {
    self.maxDepth = maxDepth
    self.options = options
    out = OutputBytes(capacity: capacity)
  }

  private func refuse(_ reason: String) -> PlistError {
    .unrepresentable(format: .xml, keyPath: ValuePath(path).description, reason: reason)
  }

  private mutating func tabs(_ n: Int) {
    out.append(repeating: 0x09, count: n)
  }

  @inline(__always)
  private mutating func bytes(_ text: StaticString) {
    out.append(text)
  }

  /// `indent` tabs, `before`, `text`, `after` (at most two bytes each, 0 for none), in one
  /// reservation: the writer's tags.
  @inline(__always)
  private mutating func tagged(
    _ text: StaticString, indent: Int, before: (UInt8, UInt8), after: (UInt8, UInt8)
  ) {
    let n = text.utf8CodeUnitCount
    out.write(count: indent + n + 4) { p in
      // The tabs, two bytes before and two after, and the text: the room asked for, so
      // every store below is in it.
      var k = 0
      while k < indent {
        p[unchecked: k] = 0x09
        k += 1
      }
      @inline(__always) func put(_ byte: UInt8) {
        guard byte != 0 else { return }
        p[unchecked: k] = byte
        k += 1
      }
      put(before.0)
      put(before.1)
      let source = ByteView(text)
      for i in 0..<n { p[unchecked: k + i] = source[unchecked: i] }
      k += n
      put(after.0)
      put(after.1)
      return k
    }
  }

  mutating func line(_ text: StaticString, indent: Int) {
    tagged(text, indent: indent, before: (0, 0), after: (0x0A, 0))
  }

  /// `<tag>` on its own line's indentation.
  private mutating func open(_ tag: StaticString, indent: Int) {
    tagged(tag, indent: indent, before: (0x3C, 0), after: (0x3E, 0))
  }

  /// `</tag>` and the end of the line.
  private mutating func close(_ tag: StaticString) {
    tagged(tag, indent: 0, before: (0x3C, 0x2F), after: (0x3E, 0x0A))
  }

  /// The decimal digits of `value`, with a minus sign when `negative`.
  private mutating func decimal(_ value: UInt64, negative: Bool) {
    if negative { out.append(UInt8(ascii: "-")) }
    if value < 10 {
      out.append(UInt8(truncatingIfNeeded: 48 &+ value))
      return
    }
    var digits = 0
    var rest = value
    while rest > 0 {
      digits += 1
      rest /= 10
    }
    out.write(count: digits) { p in
      var rest = value
      // (The room is `digits` long.)
      for i in stride(from: digits - 1, through: 0, by: -1) {
        p[unchecked: i] = UInt8(truncatingIfNeeded: 48 &+ rest % 10)
        rest /= 10
      }
      return digits
    }
  }

  private mutating func integer(_ value: UInt64, negative: Bool, indent: Int) {
    open("integer", indent: indent)
    decimal(value, negative: negative)
    close("integer")
  }

  /// A string or key: the bytes as they are unless one must be escaped or is refused.
  mutating func escapedElement(_ tag: StaticString, _ text: String, indent: Int)
    throws(PlistError)
  {
    open(tag, indent: indent)
    let lenient = options.lenient
    // Most text needs no escaping: copied as it is, after one pass over its bytes.
    let copied: Bool? = ByteView.with(utf8: text.utf8) { bytes in
      if lenient {
        for byte in bytes where byte == 0x26 || byte == 0x3C || byte == 0x3E { return false }
      } else {
        for byte in bytes {
          switch byte {
          case 0x26, 0x3C, 0x3E, 0x00..<0x09, 0x0B, 0x0C, 0x0E..<0x20, 0xEF: return false
          default: continue
          }
        }
      }
      out.append(bytes)
      return true
    }
    if copied != true { try escape(text, tag: tag) }
    close(tag)
  }

  /// ``escapedElement(_:_:indent:)`` of ASCII text in place (a binary file's string, by the
  /// streaming converter): copied as it is when nothing in it is escaped or refused, else
  /// made a string and written as one.
  mutating func escapedElement(_ tag: StaticString, ascii text: ByteView, indent: Int)
    throws(PlistError)
  {
    guard !Self.mayNeedEscape(text, strict: !options.lenient) else {
      try escapedElement(tag, text.string, indent: indent)
      return
    }
    open(tag, indent: indent)
    out.append(text)
    close(tag)
  }

  /// Whether ASCII `text` has `&`, `<` or `>` (or, `strict`, a control character): eight
  /// bytes at a time (each test is exact: a byte equal to one of them, or below 0x20).
  @inline(__always)
  static func mayNeedEscape(_ text: ByteView, strict: Bool) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    @inline(__always) func zero(_ v: UInt64) -> UInt64 { (v &- ones) & ~v & highs }
    @inline(__always) func hit(_ word: UInt64) -> Bool {
      var found = zero(word ^ (ones &* 0x26)) | zero(word ^ (ones &* 0x3C))
      found |= zero(word ^ (ones &* 0x3E))
      if strict { found |= (word &- ones &* 0x20) & ~word & highs }
      return found != 0
    }
    let count = text.count
    var i = 0
    while i + 8 <= count {
      if hit(text.uncheckedWord(at: i)) { return true }
      i += 8
    }
    while i < count {
      let byte = text[i]
      if byte == 0x26 || byte == 0x3C || byte == 0x3E || (strict && byte < 0x20) { return true }
      i += 1
    }
    return false
  }

  /// Text with a character to escape, or one the options refuse.
  private mutating func escape(_ text: String, tag: StaticString) throws(PlistError) {
    let what = tag.description == "key" ? "key" : "string"
    if !options.lenient, text.unicodeScalars.first == "\u{FEFF}" {
      throw refuse(
        "a \(what) that starts with U+FEFF, which XML readers (CoreFoundation's too) drop; "
          + "binary keeps it")
    }
    if !options.lenient,
      text.unicodeScalars.drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        .first == "\u{FEFF}"
    {
      throw refuse(
        "a \(what) that starts with white space and U+FEFF, which GNUstep's XML reader drops; "
          + "binary keeps it")
    }
    var start = text.utf8.startIndex
    var index = start
    let utf8 = text.utf8
    while index < utf8.endIndex {
      let byte = utf8[index]
      let escaped: StaticString?
      switch byte {
      case 0x26: escaped = "&amp;"
      case 0x3C: escaped = "&lt;"
      case 0x3E: escaped = "&gt;"
      case 0x00..<0x09, 0x0B, 0x0C, 0x0E..<0x20:
        if !options.lenient { throw forbidden(Unicode.Scalar(byte), in: what) }
        escaped = nil
      case 0xEF:
        // U+FFFE and U+FFFF are EF BF BE and EF BF BF.
        let next = utf8.index(after: index)
        if !options.lenient, next < utf8.endIndex, utf8[next] == 0xBF {
          let last = utf8.index(after: next)
          if last < utf8.endIndex, utf8[last] >= 0xBE {
            throw forbidden(utf8[last] == 0xBE ? "\u{FFFE}" : "\u{FFFF}", in: what)
          }
        }
        escaped = nil
      default: escaped = nil
      }
      if let escaped {
        out.append(utf8[start..<index])
        bytes(escaped)
        start = utf8.index(after: index)
        // U+FEFF (EF BB BF) right after an entity: GNUstep's XML reader drops it.
        if !options.lenient, utf8[start...].starts(with: [0xEF, 0xBB, 0xBF]) {
          throw refuse(
            "a \(what) with U+FEFF right after \(escaped), which GNUstep's XML reader drops; "
              + "binary keeps it")
        }
      }
      index = utf8.index(after: index)
    }
    out.append(utf8[start..<utf8.endIndex])
  }

  private func forbidden(_ scalar: Unicode.Scalar, in what: String) -> PlistError {
    refuse(
      "the character \(scalar.codePoint) in a \(what) is not allowed in XML 1.0 "
        + "(CoreFoundation writes it, and XML parsers other than its own and prefs' refuse "
        + "the file); binary holds it")
  }

  mutating func append(_ value: PlistValue, indent: Int) throws(PlistError) {
    switch value {
    case .string(let s): try escapedElement("string", s, indent: indent)
    case .integer(let i): integer(i.magnitude, negative: i < 0, indent: indent)
    case .unsignedInteger(let u): integer(u, negative: false, indent: indent)
    case .real(let d):
      open("real", indent: indent)
      appendReal(d)
      close("real")
    case .bool(let b): line(b ? "<true/>" : "<false/>", indent: indent)
    case .date(let date):
      open("date", indent: indent)
      try appendDate(date)
      close("date")
    case .data(let data):
      ByteView.with(data) { dataElement($0, indent: indent) }
    case .uid(let u):
      // CoreFoundation reads a `CF$UID` dictionary's number as 32 bits: a wider UID would
      // come back as another.
      guard u <= UInt64(UInt32.max) else { throw refuse(PlistValue.wideUIDReason(u)) }
      open(dictionary: true, count: 1, indent: indent)
      open("key", indent: indent + 1)
      bytes("CF$UID")
      close("key")
      integer(u, negative: false, indent: indent + 1)
      close(dictionary: true, count: 1, indent: indent)
    case .array(let elements):
      guard indent < maxDepth else { throw refuse("nesting deeper than \(maxDepth) levels") }
      open(dictionary: false, count: elements.count, indent: indent)
      for (i, element) in elements.enumerated() {
        path.append(.index(i))
        try append(element, indent: indent + 1)
        path.removeLast()
      }
      close(dictionary: false, count: elements.count, indent: indent)
    case .dictionary(let dictionary):
      guard indent < maxDepth else { throw refuse("nesting deeper than \(maxDepth) levels") }
      if refusesLoneUIDKey, dictionary.count == 1, let only = dictionary["CF$UID"], only.isInteger {
        throw refuse(
          "a dictionary holding only the integer \"CF$UID\" reads back from XML as a UID "
            + "(CoreFoundation's rule); binary can hold it")
      }
      open(dictionary: true, count: dictionary.count, indent: indent)
      try dictionary.forEachInUTF16Order { (key, element) throws(PlistError) in
        path.append(.key(key))
        try self.key(key, indent: indent + 1)
        try append(element, indent: indent + 1)
        path.removeLast()
      }
      close(dictionary: true, count: dictionary.count, indent: indent)
    }
  }

  // MARK: - Containers

  /// Whether a dictionary of one key, `CF$UID`, holding an integer is refused: it reads back
  /// as a UID (CoreFoundation writes it).
  var refusesLoneUIDKey: Bool { !options.lenient }

  /// Keys go in the order of their UTF-16 code units (`CFStringCompare` without options).
  var keysInUTF16Order: Bool { true }

  /// A container's opening: `<dict>`, `<array>`, or its whole text when empty (`<dict/>`).
  mutating func open(dictionary: Bool, count: Int, indent: Int) {
    if count == 0 {
      line(dictionary ? "<dict/>" : "<array/>", indent: indent)
    } else {
      line(dictionary ? "<dict>" : "<array>", indent: indent)
    }
  }

  /// A container's closing tag (none when it was empty).
  mutating func close(dictionary: Bool, count: Int, indent: Int) {
    guard count > 0 else { return }
    line(dictionary ? "</dict>" : "</array>", indent: indent)
  }

  /// A dictionary's key.
  mutating func key(_ key: String, indent: Int) throws(PlistError) {
    try escapedElement("key", key, indent: indent)
  }

  /// `<data>`, its base64 lines, `</data>`.
  mutating func dataElement(_ bytes: ByteView, indent: Int) {
    line("<data>", indent: indent)
    appendBase64(bytes, indent: indent)
    line("</data>", indent: indent)
  }

  /// `YYYY-MM-DDTHH:MM:SSZ` as CoreFoundation writes it: UTC fields of the whole second at or
  /// below the date, the year as `%04d` (`-001`, `12141`).
  private mutating func appendDate(_ date: Date) throws(PlistError) {
    let seconds = date.timeIntervalSinceReferenceDate
    guard let (f, fraction) = CivilTime.fields(of: date) else {
      throw refuse(
        "the date \(seconds) seconds from 2001 is beyond the years CoreFoundation's calendar "
          + "arithmetic writes; binary holds it")
    }
    if fraction != 0, !options.truncatingDates {
      throw refuse(
        "the date \(CivilTime.iso8601(date)) has a fraction of a second, which an XML <date> "
          + "cannot hold (binary can)")
    }
    if !options.lenient, !(0...9999).contains(f.year) {
      throw refuse(
        "the date \(CivilTime.iso8601(date)) has a year outside 0...9999 (CoreFoundation "
          + "writes it, other readers refuse it); binary holds it")
    }
    if !options.lenient, f.year == 0 {
      throw refuse(
        "the date \(CivilTime.iso8601(date)) is in year 0, which GNUstep's reader takes for "
          + "year 1 (0000-01-01 comes back 366 days later); binary holds it")
    }
    if !options.lenient, seconds == 0, seconds.sign == .minus {
      throw refuse(
        "the date -0.0 seconds from 2001, whose sign an XML <date> cannot hold (every reader "
          + "reads 2001-01-01T00:00:00Z as +0.0); binary holds it")
    }
    out.write(count: CivilTime.maximumLength) { CivilTime.write(f, .iso8601, into: $0) }
  }

  /// CoreFoundation's base64 lines: 76 characters less 8 per level of indentation, the level
  /// (tabs and width alike) counted to 8 at most, so 12 characters from the eighth level on.
  private mutating func appendBase64(_ raw: ByteView, indent: Int) {
    guard !raw.isEmpty else { return }
    let level = min(indent, 8)
    let lineBytes = (76 - 8 * level) / 4 * 3
    // (Each index below is six bits: within the 64 characters.)
    let table = Base64.alphabetView
    var offset = 0
    let count = raw.count
    while offset < count {
      tabs(level)
      let end = min(offset + lineBytes, count)
      var i = offset
      while i + 3 <= end {
        let word = UInt32(raw[i]) << 16 | UInt32(raw[i + 1]) << 8 | UInt32(raw[i + 2])
        out.append(table[unchecked: Int(word >> 18)])
        out.append(table[unchecked: Int(word >> 12 & 0x3F)])
        out.append(table[unchecked: Int(word >> 6 & 0x3F)])
        out.append(table[unchecked: Int(word & 0x3F)])
        i += 3
      }
      if i < end {
        let second = i + 1 < end ? UInt32(raw[i + 1]) : 0
        let word = UInt32(raw[i]) << 16 | second << 8
        out.append(table[unchecked: Int(word >> 18)])
        out.append(table[unchecked: Int(word >> 12 & 0x3F)])
        out.append(i + 1 < end ? table[unchecked: Int(word >> 6 & 0x3F)] : UInt8(ascii: "="))
        out.append(UInt8(ascii: "="))
      }
      out.append(0x0A)
      offset = end
    }
  }

  /// CoreFoundation's text of a real: `%.17g`, and its words for zero and the non-finite.
  private mutating func appendReal(_ d: Double) {
    if d.isNaN {
      out.append("nan")
    } else if d.isInfinite {
      out.append(d < 0 ? "-infinity" : "+infinity")
    } else if d == 0 {
      // CoreFoundation writes `0.0` for -0.0 too, and so loses its sign; it reads `-0.0`
      // back as -0.0, so that is what -0.0 is written as.
      out.append(d.sign == .minus ? "-0.0" : "0.0")
    } else {
      out.write(count: PrintfG17.maximumLength) { PrintfG17.format(d, into: $0) }
    }
  }
}

/// XML straight from a binary file's objects, through the writer's own containers (the
/// streaming converter's sink): its strings and data copied from the file when nothing in
/// them is escaped.
extension XMLPlistWriter: StreamSink {
  mutating func scalar(_ scalar: StreamScalar, indent: Int) throws(PlistError) {
    switch scalar {
    case .ascii(let text): try escapedElement("string", ascii: text, indent: indent)
    case .data(let bytes): dataElement(bytes, indent: indent)
    case .value(let value): try append(value, indent: indent)
    }
  }

  @inline(__always)
  mutating func entry(_ n: Int, of count: Int, dictionary: Bool, indent: Int) {}

  mutating func key(_ key: StreamKey, indent: Int) throws(PlistError) {
    switch key {
    case .ascii(let text): try escapedElement("key", ascii: text, indent: indent)
    case .string(let s): try self.key(s, indent: indent)
    }
  }

  @inline(__always)
  mutating func endEntry(_ n: Int, of count: Int, dictionary: Bool) {}

  mutating func discard() { out.deallocate() }
}
