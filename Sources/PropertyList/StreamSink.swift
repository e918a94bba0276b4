#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where the streaming converter (``BinaryStreamConverter``) writes: a writer's own layout,
/// driven entry by entry. A container at `indent` holds its entries at `indent + 1`.
///
/// The container events (`open`, `entry`, `endEntry`, `close`) are the writers' own syntax:
/// each writer's walk over a ``PlistValue`` makes the same calls, so a container is written
/// one way whether its value was built or streamed. Each writer's conformance is beside it
/// (``XMLPlistWriter``, ``OpenStepWriter``, ``JSONStreamSink``); a format streams into its
/// writer when its witness names it (``PlistFormatWitness/streamSink(_:inputCount:)``).
protocol StreamSink {
  /// Whether keys go in the order of their UTF-16 code units (XML), not of their bytes.
  var keysInUTF16Order: Bool { get }
  /// Whether a dictionary whose one key is `CF$UID` is left to the full path (strict XML
  /// refuses it when the value is an integer).
  var refusesLoneUIDKey: Bool { get }
  /// Whether the keys are written (``key(_:indent:)``): a sink that only checks is given
  /// none, and no list of them is kept (a 100,000-key dictionary's was 1.6 MB).
  var writesKeys: Bool { get }
  mutating func scalar(_ scalar: StreamScalar, indent: Int) throws(PlistError)
  /// A container's opening (its whole text when `count` is 0).
  mutating func open(dictionary: Bool, count: Int, indent: Int) throws(PlistError)
  /// Before entry `n` of a container of `count` at `indent`.
  mutating func entry(_ n: Int, of count: Int, dictionary: Bool, indent: Int)
  mutating func key(_ key: StreamKey, indent: Int) throws(PlistError)
  /// After entry `n`'s value.
  mutating func endEntry(_ n: Int, of count: Int, dictionary: Bool)
  mutating func close(dictionary: Bool, count: Int, indent: Int)
  /// The bytes written, once, at the end.
  mutating func finish() -> Data
  /// Frees what was written, when the pass stopped.
  mutating func discard()
}

/// A scalar as the binary file holds it.
enum StreamScalar {
  /// An ASCII string, in the file (written before the walk reads on).
  case ascii(ByteView)
  /// Data, in the file.
  case data(ByteView)
  /// Anything else, decoded (a UTF-16 string, a number, a date, a UID).
  case value(PlistValue)

  var plistValue: PlistValue {
    switch self {
    case .ascii(let bytes): .string(bytes.string)
    case .data(let bytes): .data(bytes.data)
    case .value(let value): value
    }
  }
}

/// A dictionary key: ASCII bytes (in the file, or copied out of it), or decoded.
enum StreamKey {
  case ascii(ByteView)
  case string(String)

  var string: String {
    switch self {
    case .ascii(let bytes): bytes.string
    case .string(let s): s
    }
  }
}

/// Writes nothing: the walk alone, to check a file (`lint`).
struct CheckingStreamSink: StreamSink {
  var keysInUTF16Order: Bool { false }
  var refusesLoneUIDKey: Bool { false }
  var writesKeys: Bool { false }
  @inline(__always) mutating func scalar(_ scalar: StreamScalar, indent: Int) {}
  @inline(__always) mutating func open(dictionary: Bool, count: Int, indent: Int) {}
  @inline(__always) mutating func entry(_ n: Int, of count: Int, dictionary: Bool, indent: Int) {}
  @inline(__always) mutating func key(_ key: StreamKey, indent: Int) {}
  @inline(__always) mutating func endEntry(_ n: Int, of count: Int, dictionary: Bool) {}
  @inline(__always) mutating func close(dictionary: Bool, count: Int, indent: Int) {}
  mutating func finish() -> Data { Data() }
  mutating func discard() {}
}

extension StreamSink {
  var writesKeys: Bool { true }
}

/// The sink of a format no binary file is streamed into (binary itself): there is none.
enum NoStreamSink: StreamSink {
  var keysInUTF16Order: Bool { switch self {} }
  var refusesLoneUIDKey: Bool { switch self {} }
  var writesKeys: Bool { switch self {} }
  func scalar(_ scalar: StreamScalar, indent: Int) { switch self {} }
  func open(dictionary: Bool, count: Int, indent: Int) { switch self {} }
  func entry(_ n: Int, of count: Int, dictionary: Bool, indent: Int) { switch self {} }
  func key(_ key: StreamKey, indent: Int) { switch self {} }
  func endEntry(_ n: Int, of count: Int, dictionary: Bool) { switch self {} }
  func close(dictionary: Bool, count: Int, indent: Int) { switch self {} }
  func finish() -> Data { switch self {} }
  func discard() { switch self {} }
}

/// Why the streaming pass stopped: something only the full path can say (a warning it
/// reports, a case left to it), or an error.
enum StreamStop: Error, Equatable {
  case undecided
  case failed(PlistError)
}

extension PropertyList {
  /// A binary property list in another format without building its values (`prefs convert`,
  /// `plutil -convert`): the bytes ``read(_:limits:)`` then ``write(_:as:maxDepth:xml:)``
  /// give, with `truncatingDates` dropping the dates' fractions of a second first for a format
  /// that holds whole seconds (``PlistFormat/holdsDatesToTheSecond``). Nil when the data is
  /// not `bplist00`, when no binary file streams into `format` (binary itself), or whenever
  /// the full path would fail or warn (or has a case this pass leaves to it): the caller then
  /// takes the full path, which reports the error or the warnings. `undecidedUIDs`: nil for a
  /// document holding a UID. `options`: the reader the full path reads with (the tools' by
  /// default; the `plutil` personality's is CoreFoundation's), whose rules the pass keeps.
  package static func streamed(
    _ data: Data, as format: PlistFormat, xml: XMLWriteOptions = .strict,
    truncatingDates: Bool = false, maxDepth: Int = 512, limits: PlistLimits = .default,
    undecidedUIDs: Bool = false, options: PlistReadOptions = .lenient
  ) -> Data? {
    try? streamResult(
      data, as: format, xml: xml, truncatingDates: truncatingDates, maxDepth: maxDepth,
      limits: limits, undecidedUIDs: undecidedUIDs, options: options
    ).get()
  }

  /// ``streamed(_:as:xml:truncatingDates:maxDepth:limits:undecidedUIDs:)`` with why it
  /// stopped.
  static func streamResult(
    _ data: Data, as format: PlistFormat, xml: XMLWriteOptions = .strict,
    truncatingDates: Bool = false, maxDepth: Int = 512, limits: PlistLimits = .default,
    undecidedUIDs: Bool = false, options: PlistReadOptions = .lenient
  ) -> Result<Data, StreamStop> {
    format.witness.streamed(
      data,
      StreamRequest(
        write: PlistWriteOptions(maxDepth: maxDepth, xml: xml), limits: limits,
        rules: options.rules, truncatingDates: truncatingDates, undecidedUIDs: undecidedUIDs))
  }

  /// A binary property list as indented JSON (``json(_:lossless:compact:maxDepth:)`` without
  /// `compact`, and without a final newline), without building its values; nil as for
  /// ``streamed(_:as:xml:truncatingDates:maxDepth:limits:undecidedUIDs:)``.
  package static func streamedJSON(
    _ data: Data, lossless: Bool, maxDepth: Int = 512, limits: PlistLimits = .default,
    undecidedUIDs: Bool = false, options: PlistReadOptions = .lenient
  ) -> Data? {
    try? streamResultJSON(
      data, lossless: lossless, maxDepth: maxDepth, limits: limits, undecidedUIDs: undecidedUIDs,
      options: options
    ).get()
  }

  /// ``streamedJSON(_:lossless:maxDepth:limits:undecidedUIDs:)`` with why it stopped.
  static func streamResultJSON(
    _ data: Data, lossless: Bool, maxDepth: Int = 512, limits: PlistLimits = .default,
    undecidedUIDs: Bool = false, options: PlistReadOptions = .lenient
  ) -> Result<Data, StreamStop> {
    BinaryStreamConverter.convert(
      data, into: JSONStreamSink(lossless: lossless, maxDepth: maxDepth), limits: limits,
      rules: options.rules, maxDepth: maxDepth, truncatingDates: false,
      undecidedUIDs: undecidedUIDs)
  }

  /// Whether ``read(_:options:limits:)`` of `data` with `options` gives a binary document
  /// without warnings, checked without building a value (`prefs lint`): the usual file by one
  /// walk of its objects (``BinaryPlistReader/isCleanTree(_:limits:rules:)``), any other by
  /// the streaming walk. False when it is not `bplist00`, or whenever the full read would fail
  /// or warn: the caller reads it then, and reports what the full read says.
  package static func isCleanBinary(
    _ data: Data, limits: PlistLimits = .default, options: PlistReadOptions = .lenient
  ) -> Bool {
    checkResult(data, limits: limits, options: options) == nil
  }

  /// Why the checks stopped, or nil when the file is clean.
  static func checkResult(
    _ data: Data, limits: PlistLimits = .default, options: PlistReadOptions = .lenient
  ) -> StreamStop? {
    let rules = options.rules
    if ByteView.with(data, { BinaryMemoryReader.isCleanTree($0, limits: limits, rules: rules) }) {
      return nil
    }
    let walked = BinaryStreamConverter.convert(
      data, into: CheckingStreamSink(), limits: limits, rules: rules, maxDepth: .max,
      truncatingDates: false, undecidedUIDs: false)
    if case .failure(let stop) = walked { return stop }
    return nil
  }
}
