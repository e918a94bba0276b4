#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A parsed property list: its value, the format it was in, and what the reader noticed.
public struct PlistDocument: Sendable, Hashable {
  public var value: PlistValue
  public var format: PlistFormat
  public var warnings: [PlistWarning]

  public init(value: PlistValue, format: PlistFormat, warnings: [PlistWarning] = []) {
    self.value = value
    self.format = format
    self.warnings = warnings
  }
}

/// Reading and writing property lists. The format is detected from the bytes and the input is
/// parsed with that format only: a truncated `bplist00…` file is an error, never the string
/// `"bplist00"`.
public enum PropertyList {
  /// The format the bytes are in, judged from their start.
  public static func detectFormat(_ data: Data) throws(PlistError) -> PlistFormat {
    guard !data.isEmpty else { throw .empty }
    let magic = BinaryPlist.magic
    let head = [UInt8](data.prefix(8))
    if head.count < magic.count, head.elementsEqual(magic.prefix(head.count)) { return .binary }
    if head.starts(with: magic.prefix(6)) { return .binary }
    // Text: look at the first significant characters (after a BOM and white space).
    let sample = data.prefix(1024)
    let text: [UInt8]
    let (encoding, bom) = sample.withUnsafeBytes { TextInput.sniffEncoding($0) }
    switch encoding {
    case .utf8:
      text = [UInt8](sample.dropFirst(bom))
    case .utf16BigEndian:
      text = stride(from: bom + 1, to: sample.count, by: 2).map {
        sample[sample.startIndex + $0 - 1] == 0 ? sample[sample.startIndex + $0] : 0xFF
      }
    case .utf16LittleEndian:
      text = stride(from: bom, to: sample.count - 1, by: 2).map {
        sample[sample.startIndex + $0 + 1] == 0 ? sample[sample.startIndex + $0] : 0xFF
      }
    case .utf32BigEndian, .utf32LittleEndian:
      // The ASCII byte of each unit whose other three bytes are zero.
      let bigEndian = encoding == .utf32BigEndian
      text = stride(from: bom, to: sample.count - 3, by: 4).map {
        let unit = sample[(sample.startIndex + $0)...].prefix(4)
        let (low, high) = bigEndian ? (unit.last, unit.prefix(3)) : (unit.first, unit.suffix(3))
        return high.allSatisfy { $0 == 0 } ? low ?? 0xFF : 0xFF
      }
    }
    guard let first = text.firstIndex(where: { !(($0 == 0x20) || (0x09...0x0D).contains($0)) })
    else { return .openStep }
    let rest = text[first...]
    guard rest.first == UInt8(ascii: "<"), let second = rest.dropFirst().first else {
      return .openStep
    }
    if second == UInt8(ascii: "*") || second == UInt8(ascii: "[") { return .gnustep }
    // `<0fbd 7778>` is OpenStep data; `<plist>`, `<?xml`, `<!DOCTYPE`, `<dict>` are XML.
    let body = rest.dropFirst().prefix { $0 != UInt8(ascii: ">") }
    let isHex = body.allSatisfy {
      ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) || $0 == 0x20
        || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D
    }
    return isHex ? .openStep : .xml
  }

  /// Parses a property list in whatever format the bytes are in, as any reader reads it
  /// (``PlistReadOptions/lenient``).
  public static func read(_ data: Data, limits: PlistLimits = .default) throws(PlistError)
    -> PlistDocument
  {
    try read(data, options: .lenient, limits: limits)
  }

  /// Parses a property list in whatever format the bytes are in, as `options` say: exactly as
  /// one reader reads it (``PlistReadOptions/coreFoundation``, ``PlistReadOptions/gnustep``:
  /// a migration reads a legacy file as the app's own reader did), or any file either reads.
  public static func read(
    _ data: Data, options: PlistReadOptions, limits: PlistLimits = .default
  ) throws(PlistError) -> PlistDocument {
    guard data.count <= limits.maxInputBytes else {
      throw .limitExceeded(
        format: (try? detectFormat(data)) ?? .binary, at: .byteOffset(limits.maxInputBytes),
        limit: .inputBytes(limits.maxInputBytes))
    }
    var format = try detectFormat(data)
    // GNUstep takes text as XML only from its declaration on; `<plist>…` alone is OpenStep.
    if options.openStepGrammar == .gnustep, format == .xml,
      !data.starts(with: Array("<?xml".utf8))
    {
      format = .openStep
    }
    if options.exact, format != .binary {
      // The text encodings the reader takes: GNUstep UTF-8 only, without a byte-order mark
      // (not even UTF-8's); CoreFoundation UTF-16 and UTF-32 only after one (XML without it it
      // refuses, OpenStep text it reads with the first character dropped).
      let (encoding, bom) = data.withUnsafeBytes { TextInput.sniffEncoding($0) }
      if options.reader == .gnustep, encoding != .utf8 || bom > 0 {
        throw .unsupported(
          format: format, at: .byteOffset(0),
          feature: "a byte-order mark or text not in UTF-8, which GNUstep refuses")
      }
      if encoding != .utf8, bom == 0 {
        throw .unsupported(
          format: format, at: .byteOffset(0),
          feature: "text in UTF-16 or UTF-32 without a byte-order mark, which CoreFoundation "
            + "refuses (OpenStep text: reads with a character of its own guess dropped)")
      }
    }
    switch format {
    case .binary:
      let (value, warnings) = try BinaryMemoryReader.read(data, limits: limits, options: options)
      return PlistDocument(value: value, format: .binary, warnings: warnings)
    case .xml:
      let (value, warnings) = try XMLPlistReader.read(data, limits: limits, options: options)
      return PlistDocument(value: value, format: .xml, warnings: warnings)
    case .openStep, .gnustep:
      let (value, format, warnings) = try OpenStepReader.read(
        data, limits: limits, options: options)
      return PlistDocument(value: value, format: format, warnings: warnings)
    }
  }

  /// One key of a binary property list's top-level dictionary, decoding only that value:
  /// for `prefs read FILE KEY` of a large domain. Not a validation of the file: the rest is
  /// checked by a full ``read(_:limits:)`` (as `lint` and every write do). Whenever this pass
  /// sees anything a full read would report, it answers ``BinaryLookup/undecided``.
  package static func binaryValue(
    forKey key: String, in data: Data, limits: PlistLimits = .default
  ) -> BinaryLookup {
    guard BinaryPlist.hasMagic(data) else { return .undecided }
    return BinaryMemoryReader.lookup(key, in: data, limits: limits)
  }

  /// Encodes a value in `format`, deterministically (sorted keys), so that writing the same
  /// value twice gives the same bytes. Throws ``PlistError/unrepresentable(format:keyPath:reason:)``
  /// for a value the format cannot hold without loss.
  ///
  /// XML is written byte for byte as CoreFoundation writes it (`plutil -convert xml1`), except
  /// that what XML or a reader would not give back as it was is refused instead: a date with
  /// a fraction of a second, a character XML 1.0 does not allow, a string starting with
  /// U+FEFF, a dictionary holding only the integer `CF$UID`.
  public static func write(_ value: PlistValue, as format: PlistFormat, maxDepth: Int = 512)
    throws(PlistError) -> Data
  {
    try write(value, as: format, maxDepth: maxDepth, xml: .strict)
  }

  /// ``write(_:as:maxDepth:)`` with XML written as `xml` says: ``XMLWriteOptions/coreFoundation``
  /// writes everything CoreFoundation writes, as it writes it (the `plutil` personality, a
  /// store's domain file).
  package static func write(
    _ value: PlistValue, as format: PlistFormat, maxDepth: Int = 512, xml: XMLWriteOptions
  ) throws(PlistError) -> Data {
    switch format {
    case .binary: return try BinaryPlistWriter.write(value, maxDepth: maxDepth)
    case .xml: return try XMLPlistWriter.write(value, maxDepth: maxDepth, options: xml)
    case .openStep:
      return Data(try OpenStepWriter.write(value, style: .openStep, maxDepth: maxDepth).utf8)
    case .gnustep:
      return Data(try OpenStepWriter.write(value, style: .gnustep, maxDepth: maxDepth).utf8)
    }
  }

  /// The value as JSON, keys sorted by their UTF-8 bytes, two-space indentation (none when
  /// `compact`). `lossless` refuses dates, data and UIDs; otherwise they are shown (base64,
  /// ISO 8601, `{"CF$UID": n}`). A non-finite real is refused either way (JSON has no such
  /// number), as is nesting deeper than `maxDepth`; the error names the key path.
  public static func json(
    _ value: PlistValue, lossless: Bool, compact: Bool = false, maxDepth: Int = 512
  ) throws(PlistError) -> String {
    try JSONWriter.write(
      value, mode: lossless ? .lossless : .display, maxDepth: maxDepth, compact: compact)
  }

  /// A JSON string literal of `text` (quotes and escapes).
  package static func jsonString(_ text: String) -> String { JSONWriter.quoted(text) }

  /// A date as `defaults read` and `plutil -p` show it: `2011-03-14 15:09:26 +0000` (ISO 8601
  /// when it has a fraction of a second or a year outside 0...9999).
  package static func describe(_ date: Date) -> String {
    CivilTime.gnustepString(date) ?? CivilTime.iso8601(date)
  }

  /// A date in ISO 8601 (`2011-03-14T15:09:26Z`, with the fraction when there is one).
  package static func iso8601(_ date: Date) -> String { CivilTime.iso8601(date) }

  /// A date from text in either form property lists use: ISO 8601 as XML holds it
  /// (`2011-03-14T15:09:26Z`, optional fraction) or GNUstep's `2011-03-14 15:09:26 +0000`.
  package static func date(fromText text: String) -> Date? {
    XMLPlistReader.parseDate(text[...]) ?? OpenStepReader.parseGNUstepDate(text)
  }

  /// The value as `defaults read` shows it to a person.
  public static func describe(_ value: PlistValue) -> String {
    (try? OpenStepWriter.write(value, style: .description, maxDepth: .max)) ?? ""
  }
}

/// What ``PropertyList/binaryValue(forKey:in:limits:)`` found.
package enum BinaryLookup: Sendable, Hashable {
  case found(PlistValue)
  case absent
  /// Only a full read can say (not binary, not a dictionary, a repeated key, a warning, an
  /// error).
  case undecided
}
