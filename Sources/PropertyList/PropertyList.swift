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
  /// The format the bytes are in, judged from their start: the first format whose signature
  /// they start with (the binary magic, XML's markup, GNUstep's `<*`), else OpenStep text.
  public static func detectFormat(_ data: Data) throws(PlistError) -> PlistFormat {
    try witness(of: data, options: .lenient).format
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
    return try witness(of: data, options: options).read(data, limits: limits, options: options)
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
    try format.witness.write(value, options: PlistWriteOptions(maxDepth: maxDepth, xml: xml))
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

  /// A JSON string literal of `text` (quotes and escapes); `escapingSlashes`, `/` as `\/`
  /// too, as Foundation's `JSONSerialization` writes it.
  package static func jsonString(_ text: String, escapingSlashes: Bool = false) -> String {
    JSONWriter.quoted(text, escapingSlashes: escapingSlashes)
  }

  /// `text` as an OpenStep string token, bare or quoted as `quoting` says.
  package static func openStepString(_ text: String, quoting: OpenStepQuoting) -> String {
    OpenStepWriter.quoted(text, quoting)
  }

  /// A date as `defaults read` and `plutil -p` show it: `2011-03-14 15:09:26 +0000` (ISO 8601
  /// when it has a fraction of a second or a year outside 0...9999).
  package static func describe(_ date: Date) -> String { CivilTime.described(date) }

  /// A date in ISO 8601 (`2011-03-14T15:09:26Z`, with the fraction when there is one).
  package static func iso8601(_ date: Date) -> String { CivilTime.iso8601(date) }

  /// A date from text in either form property lists use: ISO 8601 as XML holds it
  /// (`2011-03-14T15:09:26Z`, optional fraction) or GNUstep's `2011-03-14 15:09:26 +0000`.
  package static func date(fromText text: String) -> Date? { CivilTime.date(fromText: text) }

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
