#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The text formats work on validated UTF-8 bytes. This turns the input into that: it drops a
/// UTF-8 byte-order mark, transcodes UTF-16 (by BOM, or by the `00 3C` / `3C 00` pattern of
/// an XML declaration without one), UTF-32 (by BOM only, as CoreFoundation reads it) and
/// Latin-1 when an XML declaration names it, and checks
/// that every byte sequence is valid UTF-8, reporting the line and column of the first one
/// that is not.
package enum TextInput {
  /// UTF-16 code units (from `\U` or `\u` escapes) as a string; nil when a surrogate is
  /// unpaired (the JSON and OpenStep readers' escapes).
  package static func string(fromUTF16 units: [UInt16]) -> String? {
    var result = ""
    var iterator = units.makeIterator()
    var decoder = UTF16()
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): result.unicodeScalars.append(scalar)
      case .emptyInput: return result
      case .error: return nil
      }
    }
  }

  enum Encoding {
    case utf8
    case utf16BigEndian
    case utf16LittleEndian
    case utf32BigEndian
    case utf32LittleEndian
  }

  static func sniffEncoding(_ bytes: ByteView) -> (Encoding, bomLength: Int) {
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { return (.utf8, 3) }
    // UTF-32's marks first: `FF FE 00 00` also starts as UTF-16's little-endian one.
    if bytes.count >= 4, bytes[0] == 0x00, bytes[1] == 0x00, bytes[2] == 0xFE, bytes[3] == 0xFF {
      return (.utf32BigEndian, 4)
    }
    if bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xFE, bytes[2] == 0x00, bytes[3] == 0x00 {
      return (.utf32LittleEndian, 4)
    }
    if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF { return (.utf16BigEndian, 2) }
    if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE { return (.utf16LittleEndian, 2) }
    if bytes.count >= 2, bytes[0] == 0x00, bytes[1] != 0x00 { return (.utf16BigEndian, 0) }
    if bytes.count >= 2, bytes[0] != 0x00, bytes[1] == 0x00 { return (.utf16LittleEndian, 0) }
    return (.utf8, 0)
  }

  /// Refuses text in an encoding the reader does not take (``ReaderRules/byteOrderMarks``,
  /// ``ReaderRules/unmarkedUTF16``): GNUstep takes UTF-8 only, without a byte-order mark (not
  /// even UTF-8's); CoreFoundation UTF-16 and UTF-32 only after one (XML without it it refuses,
  /// OpenStep text it reads with the first character dropped, another value). `format`: the
  /// format the text was sniffed as.
  static func requireEncoding(of data: Data, format: PlistFormat, rules: ReaderRules)
    throws(PlistError)
  {
    let unmarked: Bool
    switch rules.unmarkedUTF16 {
    case .refused: unmarked = true
    case .readInXML: unmarked = format != .xml
    case .read: unmarked = false
    }
    guard rules.byteOrderMarks == .refused || unmarked else { return }
    let (encoding, bom) = ByteView.with(data) { sniffEncoding($0) }
    if rules.byteOrderMarks == .refused, encoding != .utf8 || bom > 0 {
      throw .unsupported(
        format: format, at: .byteOffset(0),
        feature: "a byte-order mark or text not in UTF-8, which GNUstep refuses"
          .naming(.gnustepEncoding))
    }
    if unmarked, encoding != .utf8, bom == 0 {
      throw .unsupported(
        format: format, at: .byteOffset(0),
        feature: "text in UTF-16 or UTF-32 without a byte-order mark, which CoreFoundation "
          + "refuses (OpenStep text: reads with a character of its own guess dropped)"
          .naming(.utf16WithoutBOM))
    }
  }

  /// UTF-8 bytes of the whole input, validated.
  static func utf8Bytes(_ data: Data, format: PlistFormat) throws(PlistError) -> [UInt8] {
    try withUTF8(data, format: format) { (text) throws(PlistError) in text.array }
  }

  /// `body` over the text of `data` as UTF-8 (as ``utf8Bytes(_:format:)`` gives it): a file
  /// already UTF-8 is checked and read in place, never copied (a 6 MB file copied into fresh
  /// memory was 1,500 page faults, a fifth of an XML file's read); any other encoding is
  /// transcoded first.
  ///
  /// An XML declaration's encoding is read as `declared` says: `US-ASCII` is Latin-1 for
  /// CoreFoundation (each byte its own code point: UTF-8's `é` is `Ã©`) and UTF-8 for GNUstep;
  /// `windows-1252` is Windows' code page for both (CoreFoundation also under `cp1252`).
  static func withUTF8<R>(
    _ data: Data, format: PlistFormat,
    declared encodings: ReaderRules.DeclaredEncodings = .coreFoundation,
    _ body: (ByteView) throws(PlistError) -> R
  ) throws(PlistError) -> R {
    try ByteView.with(data) { (raw) throws(PlistError) -> R in
      let (encoding, bom) = sniffEncoding(raw)
      let text = raw.rest(from: bom)
      let transcoded: [UInt8]
      switch encoding {
      case .utf8:
        if format == .xml, let declared = declaredEncoding(text) {
          let cf = encodings == .coreFoundation
          switch declared {
          // (A `where` clause holds for the last pattern of a case only: one pattern each.)
          case "us-ascii" where cf, "ascii" where cf:
            return try ByteView.with(latin1ToUTF8(text), body)
          case "windows-1252",
            "cp1252" where cf:
            return try ByteView.with(windows1252ToUTF8(text).get(), body)
          // UTF-16 declared over 8-bit text: CoreFoundation refuses it.
          case "utf-16" where cf, "utf-16be" where cf, "utf-16le" where cf, "unicode" where cf:
            throw .unsupported(
              format: .xml, at: .line(1, column: 1),
              feature: "encoding \"\(declared)\" over 8-bit text, which CoreFoundation refuses"
                .naming(.xmlUTF16OverBytes))
          case "utf-8", "utf8", "us-ascii", "ascii", "utf-16", "utf-16be", "utf-16le", "unicode":
            break
          case "iso-8859-1", "latin1", "iso_8859-1", "latin-1", "iso-latin-1":
            return try ByteView.with(latin1ToUTF8(text), body)
          default:
            throw .unsupported(
              format: .xml, at: .line(1, column: 1),
              feature: "encoding \"\(declared)\"".naming(.xmlUnknownEncoding))
          }
        }
        if let bad = firstInvalidUTF8(text) {
          throw .invalidText(format: format, at: location(of: bad, in: text), encoding: "UTF-8")
        }
        return try body(text)
      case .utf16BigEndian, .utf16LittleEndian:
        transcoded = try transcodeUTF16(
          text, bigEndian: encoding == .utf16BigEndian, format: format
        ).get()
      case .utf32BigEndian, .utf32LittleEndian:
        transcoded = try transcodeUTF32(
          text, bigEndian: encoding == .utf32BigEndian, format: format
        ).get()
      }
      return try ByteView.with(transcoded, body)
    }
  }

  /// JSON text as UTF-8, from the encoding `JSONSerialization` detects: a byte-order mark
  /// (UTF-8, UTF-16 or UTF-32, either order) as for the other text formats, else the zero
  /// bytes among the first four (JSON text starts with an ASCII character: RFC 4627's rule).
  /// UTF-8 comes back as it is (after its mark): the JSON reader checks it, and says where.
  package static func utf8(json data: Data) throws(PlistError) -> Data {
    let result: Result<[UInt8], PlistError>? = ByteView.with(data) { raw in
      var (encoding, bom) = sniffEncoding(raw)
      if bom == 0, raw.count >= 4, raw[1] == 0, raw[2] == 0 {
        if raw[0] == 0, raw[3] != 0 { encoding = .utf32BigEndian }
        if raw[0] != 0, raw[3] == 0 { encoding = .utf32LittleEndian }
      }
      let body = raw.rest(from: bom)
      switch encoding {
      case .utf8: return bom == 0 ? nil : .success(body.array)
      case .utf16BigEndian, .utf16LittleEndian:
        return transcodeUTF16(body, bigEndian: encoding == .utf16BigEndian, format: .openStep)
      case .utf32BigEndian, .utf32LittleEndian:
        return transcodeUTF32(body, bigEndian: encoding == .utf32BigEndian, format: .openStep)
      }
    }
    guard let result else { return data }
    return Data(try result.get())
  }

  /// The `encoding` named in an `<?xml …?>` declaration, lower-cased.
  static func declaredEncoding(_ bytes: ByteView) -> String? {
    guard bytes.starts(with: "<?xml".utf8) else { return nil }
    guard let end = bytes.prefix(512).firstIndex(of: UInt8(ascii: ">")) else { return nil }
    let declaration = String(decoding: bytes[..<end], as: UTF8.self)
    guard let range = declaration.firstRange(of: "encoding") else { return nil }
    var rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" }
    guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
    rest = rest.dropFirst()
    return String(rest.prefix { $0 != quote }).lowercased()
  }

  /// Decodes Latin-1 input; XML with a Latin-1 declaration may hold any byte.
  static func latin1ToUTF8(_ data: ByteView) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(data.count)
    for byte in data {
      if byte < 0x80 {
        out.append(byte)
      } else {
        out.append(0xC0 | byte >> 6)
        out.append(0x80 | byte & 0x3F)
      }
    }
    return out
  }

  /// Windows' code page 1252 (`windows-1252`) above 0x7F: Latin-1 but 0x80–0x9F, whose
  /// five unassigned bytes (0x81, 0x8D, 0x8F, 0x90, 0x9D) CoreFoundation and GNUstep refuse.
  static let windows1252High: [UInt16] = [
    0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
    0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
  ]

  /// Decodes text in Windows' code page 1252; an unassigned byte is invalid text.
  static func windows1252ToUTF8(_ data: ByteView) -> Result<[UInt8], PlistError> {
    var out: [UInt8] = []
    out.reserveCapacity(data.count)
    for (offset, byte) in data.enumerated() {
      var scalar = UInt32(byte)
      if (0x80...0x9F).contains(byte) {
        scalar = UInt32(windows1252High[Int(byte) - 0x80])
        guard scalar != 0 else {
          return .failure(
            .invalidText(format: .xml, at: .byteOffset(offset), encoding: "windows-1252"))
        }
      }
      guard let s = Unicode.Scalar(scalar) else { continue }
      out.append(contentsOf: String(Character(s)).utf8)
    }
    return .success(out)
  }

  private static func transcodeUTF16(
    _ body: ByteView, bigEndian: Bool, format: PlistFormat
  ) -> Result<[UInt8], PlistError> {
    guard let units = codeUnits(body, as: UInt16.self, bigEndian: bigEndian) else {
      return .failure(
        .invalidText(format: format, at: .byteOffset(body.count), encoding: "UTF-16 (odd length)"))
    }
    var out: [UInt8] = []
    out.reserveCapacity(units.count)
    var iterator = units.makeIterator()
    var decoder = UTF16()
    var index = 0
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar):
        out.append(contentsOf: String(Character(scalar)).utf8)
        index += scalar.value > 0xFFFF ? 2 : 1
      case .emptyInput:
        return .success(out)
      case .error:
        return .failure(
          .invalidText(format: format, at: .byteOffset(index * 2), encoding: "UTF-16"))
      }
    }
  }

  /// UTF-32 code units as UTF-8; a unit that is no Unicode scalar (a surrogate, above
  /// U+10FFFF) or a length that is not a multiple of four is an error at its byte offset
  /// (counted after the byte-order mark).
  private static func transcodeUTF32(
    _ body: ByteView, bigEndian: Bool, format: PlistFormat
  ) -> Result<[UInt8], PlistError> {
    guard let units = codeUnits(body, as: UInt32.self, bigEndian: bigEndian) else {
      return .failure(
        .invalidText(
          format: format, at: .byteOffset(body.count),
          encoding: "UTF-32 (length not a multiple of 4)"
        ))
    }
    var out: [UInt8] = []
    out.reserveCapacity(units.count)
    for (n, unit) in units.enumerated() {
      guard let scalar = Unicode.Scalar(unit) else {
        return .failure(.invalidText(format: format, at: .byteOffset(n * 4), encoding: "UTF-32"))
      }
      UTF8.encode(scalar) { out.append($0) }
    }
    return .success(out)
  }

  /// The body as code units of `Unit`'s width in the byte order given (UTF-16's, UTF-32's);
  /// nil when its length is not a multiple of that width.
  private static func codeUnits<Unit: FixedWidthInteger & UnsignedInteger & BitwiseCopyable>(
    _ body: ByteView, as _: Unit.Type, bigEndian: Bool
  ) -> [Unit]? {
    let width = MemoryLayout<Unit>.size
    guard body.count % width == 0 else { return nil }
    var units: [Unit] = []
    units.reserveCapacity(body.count / width)
    for offset in stride(from: 0, to: body.count, by: width) {
      units.append(body.load(Unit.self, at: offset, bigEndian: bigEndian))
    }
    return units
  }
  /// The index of the first byte that does not start a valid UTF-8 sequence, or nil.
  static func firstInvalidUTF8(_ b: ByteView) -> Int? {
    do {
      var i = 0
      let n = b.count
      while i < n {
        // Fast path: eight ASCII bytes at a time.
        if i + 8 <= n {
          let word = b.uncheckedWord(at: i)
          if word & 0x8080_8080_8080_8080 == 0 {
            i += 8
            continue
          }
        }
        let c = b[i]
        if c < 0x80 {
          i += 1
          continue
        }
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch c {
        case 0xC2...0xDF: length = 2
        case 0xE0:
          length = 3
          lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
          length = 3
          upper = 0x9F
        case 0xF0:
          length = 4
          lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
          length = 4
          upper = 0x8F
        default: return i
        }
        guard i + length <= n else { return i }
        guard b[i + 1] >= lower, b[i + 1] <= upper else { return i }
        for k in 2..<length where b[i + k] & 0xC0 != 0x80 { return i }
        i += length
      }
      return nil
    }
  }

  /// Line and column (1-based, columns in bytes) of a byte offset.
  static func location<Bytes: RandomAccessCollection<UInt8>>(of offset: Int, in bytes: Bytes)
    -> SourceLocation
  where Bytes.Index == Int {
    var line = 1
    var lineStart = 0
    let end = min(offset, bytes.count)
    var i = 0
    while i < end {
      if bytes[i] == 0x0A {
        line += 1
        lineStart = i + 1
      }
      i += 1
    }
    return .line(line, column: end - lineStart + 1)
  }
}
