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

  package init(truncatingDates: Bool, lenient: Bool) {
    self.truncatingDates = truncatingDates
    self.lenient = lenient
  }

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
    var writer = XMLPlistWriter(
      maxDepth: maxDepth, options: options, capacity: 4096 + entries * 64)
    do {
      writer.out.append(header)
      try writer.append(value, indent: 0)
      writer.out.append("</plist>\n")
    } catch {
      writer.out.deallocate()
      throw error
    }
    return writer.out.data()
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
      var k = 0
      while k < indent {
        p[k] = 0x09
        k += 1
      }
      if before.0 != 0 {
        p[k] = before.0
        k += 1
      }
      if before.1 != 0 {
        p[k] = before.1
        k += 1
      }
      let source = text.utf8Start
      for i in 0..<n { p[k + i] = source[i] }
      k += n
      if after.0 != 0 {
        p[k] = after.0
        k += 1
      }
      if after.1 != 0 {
        p[k] = after.1
        k += 1
      }
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
      for i in stride(from: digits - 1, through: 0, by: -1) {
        p[i] = UInt8(truncatingIfNeeded: 48 &+ rest % 10)
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
    let copied: Bool? = text.utf8.withContiguousStorageIfAvailable { buffer in
      if lenient {
        for byte in buffer where byte == 0x26 || byte == 0x3C || byte == 0x3E { return false }
      } else {
        for byte in buffer {
          switch byte {
          case 0x26, 0x3C, 0x3E, 0x00..<0x09, 0x0B, 0x0C, 0x0E..<0x20, 0xEF: return false
          default: continue
          }
        }
      }
      out.append(UnsafeRawBufferPointer(buffer))
      return true
    }
    if copied != true { try escape(text, tag: tag) }
    close(tag)
  }

  /// ``escapedElement(_:_:indent:)`` of ASCII text in place (a binary file's string, by the
  /// streaming converter): copied as it is when nothing in it is escaped or refused, else
  /// made a string and written as one.
  mutating func escapedElement(_ tag: StaticString, ascii text: UnsafeRawBufferPointer, indent: Int)
    throws(PlistError)
  {
    guard !Self.mayNeedEscape(text, strict: !options.lenient) else {
      try escapedElement(tag, String(decoding: text, as: UTF8.self), indent: indent)
      return
    }
    open(tag, indent: indent)
    out.append(text)
    close(tag)
  }

  /// Whether ASCII `text` has `&`, `<` or `>` (or, `strict`, a control character): eight
  /// bytes at a time (each test is exact: a byte equal to one of them, or below 0x20).
  @inline(__always)
  static func mayNeedEscape(_ text: UnsafeRawBufferPointer, strict: Bool) -> Bool {
    guard let base = text.baseAddress else { return false }
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
      if hit(base.loadUnaligned(fromByteOffset: i, as: UInt64.self)) { return true }
      i += 8
    }
    while i < count {
      let byte = base.load(fromByteOffset: i, as: UInt8.self)
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
      line("<data>", indent: indent)
      appendBase64(data, indent: indent)
      line("</data>", indent: indent)
    case .uid(let u):
      // CoreFoundation reads a `CF$UID` dictionary's number as 32 bits: a wider UID would
      // come back as another.
      guard u <= UInt64(UInt32.max) else { throw refuse(PlistValue.wideUIDReason(u)) }
      line("<dict>", indent: indent)
      open("key", indent: indent + 1)
      bytes("CF$UID")
      close("key")
      integer(u, negative: false, indent: indent + 1)
      line("</dict>", indent: indent)
    case .array(let elements):
      guard indent < maxDepth else { throw refuse("nesting deeper than \(maxDepth) levels") }
      if elements.isEmpty {
        line("<array/>", indent: indent)
        return
      }
      line("<array>", indent: indent)
      for (i, element) in elements.enumerated() {
        path.append(.index(i))
        try append(element, indent: indent + 1)
        path.removeLast()
      }
      line("</array>", indent: indent)
    case .dictionary(let dictionary):
      guard indent < maxDepth else { throw refuse("nesting deeper than \(maxDepth) levels") }
      if !options.lenient, dictionary.count == 1, let only = dictionary["CF$UID"],
        only.isInteger
      {
        throw refuse(
          "a dictionary holding only the integer \"CF$UID\" reads back from XML as a UID "
            + "(CoreFoundation's rule); binary can hold it")
      }
      if dictionary.isEmpty {
        line("<dict/>", indent: indent)
        return
      }
      line("<dict>", indent: indent)
      try dictionary.forEachInUTF16Order { (key, element) throws(PlistError) in
        path.append(.key(key))
        try escapedElement("key", key, indent: indent + 1)
        try append(element, indent: indent + 1)
        path.removeLast()
      }
      line("</dict>", indent: indent)
    }
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
    out.write(count: 32) { p in
      var k = 0
      @inline(__always) func put(_ byte: UInt8) {
        p[k] = byte
        k += 1
      }
      @inline(__always) func two(_ value: Int, then separator: UInt8) {
        put(UInt8(truncatingIfNeeded: 48 + value / 10))
        put(UInt8(truncatingIfNeeded: 48 + value % 10))
        put(separator)
      }
      // `%04d`: at least four characters, the sign counted.
      if f.year < 0 { put(UInt8(ascii: "-")) }
      let year = abs(f.year)
      var digits = 1
      var tens = year
      while tens >= 10 {
        tens /= 10
        digits += 1
      }
      var divisor = 1
      for _ in 1..<max(f.year < 0 ? 3 : 4, digits) { divisor *= 10 }
      var rest = year
      while divisor > 0 {
        put(UInt8(truncatingIfNeeded: 48 + rest / divisor))
        rest %= divisor
        divisor /= 10
      }
      put(UInt8(ascii: "-"))
      two(f.month, then: UInt8(ascii: "-"))
      two(f.day, then: UInt8(ascii: "T"))
      two(f.hour, then: UInt8(ascii: ":"))
      two(f.minute, then: UInt8(ascii: ":"))
      two(f.second, then: UInt8(ascii: "Z"))
      return k
    }
  }

  private static let base64Alphabet: [UInt8] = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// CoreFoundation's base64 lines: 76 characters less 8 per level of indentation, the level
  /// (tabs and width alike) counted to 8 at most, so 12 characters from the eighth level on.
  private mutating func appendBase64(_ data: Data, indent: Int) {
    data.withUnsafeBytes { appendBase64($0, indent: indent) }
  }

  /// ``appendBase64(_:indent:)`` of bytes in place (the streaming converter's, from the file).
  mutating func appendBase64(_ raw: UnsafeRawBufferPointer, indent: Int) {
    guard !raw.isEmpty else { return }
    let level = min(indent, 8)
    let lineBytes = (76 - 8 * level) / 4 * 3
    let alphabet = Self.base64Alphabet
    do {
      alphabet.withUnsafeBufferPointer { table in
        var offset = 0
        let count = raw.count
        while offset < count {
          tabs(level)
          let end = min(offset + lineBytes, count)
          var i = offset
          while i + 3 <= end {
            let word = UInt32(raw[i]) << 16 | UInt32(raw[i + 1]) << 8 | UInt32(raw[i + 2])
            out.append(table[Int(word >> 18)])
            out.append(table[Int(word >> 12 & 0x3F)])
            out.append(table[Int(word >> 6 & 0x3F)])
            out.append(table[Int(word & 0x3F)])
            i += 3
          }
          if i < end {
            let second = i + 1 < end ? UInt32(raw[i + 1]) : 0
            let word = UInt32(raw[i]) << 16 | second << 8
            out.append(table[Int(word >> 18)])
            out.append(table[Int(word >> 12 & 0x3F)])
            out.append(i + 1 < end ? table[Int(word >> 6 & 0x3F)] : UInt8(ascii: "="))
            out.append(UInt8(ascii: "="))
          }
          out.append(0x0A)
          offset = end
        }
      }
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

/// A growing buffer of bytes with no per-byte checks but its capacity's: the XML writer's
/// output, handed over to `Data` without a copy. Its owner deallocates it or takes its
/// ``data()``, exactly once.
struct OutputBytes {
  private var base: UnsafeMutablePointer<UInt8>
  private var count = 0
  private var capacity: Int

  init(capacity: Int) {
    self.capacity = Swift.max(capacity, 64)
    base = .allocate(capacity: self.capacity)
  }

  @inline(__always)
  private mutating func reserve(_ extra: Int) {
    if count + extra > capacity { grow(count + extra) }
  }

  @inline(never)
  private mutating func grow(_ needed: Int) {
    let newCapacity = Swift.max(needed, capacity * 2)
    let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newBase.update(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    reserve(1)
    base[count] = byte
    count += 1
  }

  @inline(__always)
  mutating func append(repeating byte: UInt8, count n: Int) {
    guard n > 0 else { return }
    reserve(n)
    (base + count).initialize(repeating: byte, count: n)
    count += n
  }

  @inline(__always)
  mutating func append(_ bytes: UnsafeRawBufferPointer) {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    reserve(bytes.count)
    UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: bytes.count)
    count += bytes.count
  }

  @inline(__always)
  mutating func append(_ text: StaticString) {
    append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  mutating func append(_ text: Substring.UTF8View) {
    if let done = text.withContiguousStorageIfAvailable({ append(UnsafeRawBufferPointer($0)) }) {
      return done
    }
    for byte in text { append(byte) }
  }

  /// Lets `body` write up to `count` bytes in place; it returns how many it wrote.
  @inline(__always)
  mutating func write(count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
    reserve(count)
    self.count += body(base + self.count)
  }

  /// The bytes as `Data`, which now owns them.
  func data() -> Data {
    Data(
      bytesNoCopy: base, count: count, deallocator: .custom { pointer, _ in pointer.deallocate() })
  }

  func deallocate() { base.deallocate() }
}
