#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The scalars of XML as each reader reads them: the text of a number, date or boolean,
/// `<data>`, `<date>` read exactly, and the `CF$UID` dictionary.
extension XMLPlistReader {

  /// The text of a number, date or boolean element without the white space around it, handed
  /// to `parse`; nil and the text as the message shows it when `parse` refuses it.
  ///
  /// The text is trimmed of ASCII white space byte by byte. That is what trimming by
  /// `Character` (as the reader always did) gives unless a carriage return is in the white
  /// space (`\r\n` is one `Character`) or the text is not ASCII (a space and a combining mark
  /// are one too), so then, and for every refusal's message, it is trimmed as before.
  mutating func scalar<T>(
    _ tag: Tag, spaces: Spaces = .none, _ parse: (ByteView) -> T?
  ) throws(PlistError) -> Result<T, Refused> {
    let text = try readText(closing: tag)
    if rules.scalarSpaces != .read {
      // CoreFoundation takes the text as it is: no white space around an integer or a
      // boolean, only before a real (and an integer). The tools read such white space as
      // GNUstep reads it, with a warning.
      let (first, last) = withBytes(text) { ($0.first, $0.last) }
      let space: (UInt8?) -> Bool = { $0.map(Self.isSpace) ?? false }
      if space(last) || (spaces == .none && space(first)) {
        guard rules.scalarSpaces == .warned else {
          return .failure(
            Refused(text: Self.trimmed(withBytes(text) { String(decoding: $0, as: UTF8.self) })))
        }
        warnings.append(
          .readAs(
            .gnustep,
            "white space around the text of <\(self.text(of: tag))>, which CoreFoundation "
              + "refuses".naming(.toolsReadMore), at: location(tag.start)))
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
      return parse(bytes.slice(start..<end))
    }
    if let fast { return .success(fast) }
    let trimmed = Self.trimmed(withBytes(text) { String(decoding: $0, as: UTF8.self) })
    let bytes = Array(trimmed.utf8)
    if let value = ByteView.with(bytes, parse) { return .success(value) }
    return .failure(Refused(text: trimmed))
  }

  struct Refused: Error { var text: Substring }

  /// An `<integer>`'s text as CoreFoundation's `parseIntegerTag` reads it: white space may
  /// stand between the sign and the digits too (`- 5` is -5, `+ 0x10` is 16); the white
  /// space before the sign is ``scalar(_:spaces:_:)``'s.
  static func cfInteger(_ text: ByteView) -> PlistValue? {
    guard let sign = text.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") else {
      return TextNumber.integer(text)
    }
    var k = 1
    while k < text.count, isSpace(text[k]) { k += 1 }
    guard k > 1 else { return TextNumber.integer(text) }
    let joined = [sign] + text[k...]
    return ByteView.with(joined, TextNumber.integer)
  }

  /// The white space CoreFoundation allows around a number's text (read exactly).
  enum Spaces { case none, leading }

  private static func trimmed(_ s: String) -> Substring {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
    let head = s.drop(while: isSpace)
    var end = head.endIndex
    while end > head.startIndex, isSpace(head[head.index(before: end)]) {
      end = head.index(before: end)
    }
    return head[..<end]
  }

  /// The UID CoreFoundation makes of a dictionary of one entry, `CF$UID`, whose value is a
  /// number: the number converted to 32 bits as C converts it (an integer's low 32 bits; a
  /// real truncated, `0x80000000` when out of range), with a warning when that is not the
  /// number itself. nil: not such a dictionary.
  mutating func keyedArchiveUID(_ dictionary: PlistDictionary, at offset: Int) -> UInt64? {
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
  /// with a warning; hexadecimal (`0x10`, which it reads as 0) refused as `hexadecimal` says.
  mutating func gnustepInteger(
    _ value: PlistValue, _ tag: Tag, text: ByteView,
    hexadecimal: ReaderRules.Reading
  ) throws(PlistError) -> PlistValue {
    if hexadecimal == .refused {
      if text.contains(UInt8(ascii: "x")) || text.contains(UInt8(ascii: "X")) {
        throw fail(
          .xmlHexadecimalInteger,
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

  /// `<data>` as CoreFoundation reads it (``Base64/decodeCoreFoundation(_:)``), from the raw
  /// bytes after the tag to the first `<`, which must start the closing tag (`markupInside`
  /// refused), or else the text with its entities, CDATA and comments (read, with a warning).
  private mutating func coreFoundationData(_ tag: Tag, markupInside: ReaderRules.Reading)
    throws(PlistError) -> Data
  {
    let contentStart = i
    var firstMarkup = contentStart
    while firstMarkup < n, b[firstMarkup] != UInt8(ascii: "<") { firstMarkup += 1 }
    let text = try readText(closing: tag)
    let decoded: (data: Data, lenient: Bool)?
    let cfText = firstMarkup + 1 < n && b[firstMarkup + 1] == UInt8(ascii: "/")
    if markupInside == .refused || cfText {
      // CoreFoundation's text: the raw bytes to the first '<' (an entity is its characters,
      // `&amp;` four of the alphabet and one it skips), for every verb; only markup inside
      // (which CoreFoundation refuses) is read otherwise, by the tools.
      guard cfText else {
        throw fail(
          .xmlMarkupInData,
          "<data> holding markup (a comment, CDATA): CoreFoundation reads <data> only to the "
            + "first '<'", at: firstMarkup)
      }
      decoded = Base64.decodeCoreFoundation(b[contentStart..<firstMarkup])
    } else {
      warnings.append(
        .readAs(
          .gnustep,
          "<data> holding markup (a comment, CDATA), its text without it; CoreFoundation "
            + "refuses it".naming(.toolsReadMore), at: location(firstMarkup)))
      switch text {
      case .run(let start, let end): decoded = Base64.decodeCoreFoundation(b[start..<end])
      case .bytes(let bytes): decoded = Base64.decodeCoreFoundation(bytes)
      }
    }
    guard let (data, lenient) = decoded else {
      throw fail(
        .xmlDataAbove7F, "<data> holds a byte above 0x7F, which CoreFoundation refuses",
        at: contentStart)
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
        rules.reader,
        "a <date> with a field out of range as \(CivilTime.iso8601(date)) (CoreFoundation and "
          + "GNUstep carry the field over into the next)", at: location(offset)))
  }

  /// `<date>` read exactly as the reader reads it: CoreFoundation takes its text as it is (no
  /// white space around it, no fraction of a second); GNUstep's takes 20 characters,
  /// `YYYY-MM-DDTHH:MM:SSZ`, or its own `YYYY-MM-DD HH:MM:SS ±HHMM`. Both carry a field out of
  /// range into the next, with a warning.
  private mutating func exactDate(_ tag: Tag, gnustep: Bool) throws(PlistError) -> Date {
    let text = try readText(closing: tag)
    let parsed = withBytes(text) { bytes -> (date: Date, normalised: Bool, fraction: Bool)? in
      if gnustep {
        // GNUstep's calendar takes a day or month out of range, but not 00.
        let zero: (Int) -> Bool = {
          bytes[$0] == UInt8(ascii: "0") && bytes[$0 + 1] == UInt8(ascii: "0")
        }
        if bytes.count == 20, bytes.first != UInt8(ascii: "-"), !zero(5), !zero(8) {
          return CivilTime.readerDate(iso8601: bytes)
        }
        return CivilTime.date(description: String(decoding: bytes, as: UTF8.self))
          .map { ($0, false, false) }
      }
      return CivilTime.readerDate(iso8601: bytes)
    }
    guard let parsed, !parsed.fraction else {
      let shown = Self.trimmed(withBytes(text) { String(decoding: $0, as: UTF8.self) })
      throw fail(
        .xmlBadDate,
        "<date>\(shown)</date> is not a date \(rules.reader) reads (of the form "
          + "2011-03-14T15:09:26Z, without white space or a fraction of a second)", at: tag.start)
    }
    if parsed.normalised { warnNormalised(parsed.date, at: tag.start) }
    return parsed.date
  }

  /// `<date>`: read exactly as one reader reads it (``exactDate(_:gnustep:)``), or any date of
  /// the form, a field out of range carried into the next with a warning.
  mutating func date(_ tag: Tag) throws(PlistError) -> Date {
    switch rules.dates {
    case .coreFoundation: return try exactDate(tag, gnustep: false)
    case .gnustep: return try exactDate(tag, gnustep: true)
    case .anyISO8601: break
    }
    switch try scalar(tag, CivilTime.readerDate(iso8601:)) {
    case .success(let parsed):
      if parsed.normalised { warnNormalised(parsed.date, at: tag.start) }
      if parsed.fraction {
        warnings.append(
          .readAs(
            rules.reader,
            "a <date> with a fraction of a second, which CoreFoundation refuses"
              .naming(.toolsReadMore), at: location(tag.start)))
      }
      return parsed.date
    case .failure(let refused):
      throw fail(
        .xmlBadDate, "<date>\(refused.text)</date> is not a date of the form 2011-03-14T15:09:26Z",
        at: tag.start)
    }
  }

  /// `<data>`, its base64 decoded as the reader decodes it.
  mutating func data(_ tag: Tag) throws(PlistError) -> Data {
    if tag.kind == .empty { return Data() }
    if case .coreFoundation(let markupInside) = rules.data {
      return try coreFoundationData(tag, markupInside: markupInside)
    }
    let contentStart = i
    let text = try readText(closing: tag)
    let decoded: Result<Data, Base64.BadByte>
    let count: Int
    switch text {
    case .run(let start, let end):
      count = end - start
      decoded = Base64.decodeGNUstep(b[start..<end]).mapError {
        Base64.BadByte(offset: $0.offset - start)
      }
    case .bytes(let bytes):
      count = bytes.count
      decoded = Base64.decodeGNUstep(bytes)
    }
    switch decoded {
    case .success(let data): return data
    case .failure(let bad):
      throw fail(
        .xmlBadBase64, "<data> is not valid base64", at: contentStart + min(bad.offset, count))
    }
  }
}
