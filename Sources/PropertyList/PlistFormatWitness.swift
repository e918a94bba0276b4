#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One on-disk format of a property list, as the layer knows it: how its bytes are recognised,
/// read and written, and (optionally) how a binary file is streamed into it. `PropertyList`
/// iterates the formats' witnesses (``PlistFormat/witness``) to sniff, read, write and stream:
/// a new format is a ``PlistFormat`` case, its line in that switch, and its witness beside its
/// reader and writer (the compiler asks for each of them).
///
/// The model is swift-foundation's `PlistDecodingFormat`, a format as a conformance under one
/// generic reader: here the reader and writer stay the format's own (each reads as
/// CoreFoundation or GNUstep does), and what is shared is the iteration and the streaming walk.
protocol PlistFormatWitness {
  /// The writer's layout the streaming converter drives (``NoStreamSink``: none).
  associatedtype Sink: StreamSink = NoStreamSink

  /// The format this witness is.
  static var format: PlistFormat { get }
  /// Its name in messages (`XML`, `binary`).
  static var name: String { get }
  /// The formats a document sniffed or written as this one reads back as: its reader's
  /// (by default the format alone).
  static var family: [PlistFormat] { get }
  /// Whether its dates hold whole seconds (XML's `<date>`, GNUstep's `<*D…>`): a date's
  /// fraction is dropped before it is written (`--truncate-dates`, a store's domain file) or
  /// refused.
  static var holdsDatesToTheSecond: Bool { get }

  /// Whether bytes starting as `head` are in this format, for a reader reading as `options`
  /// say: by a signature of its own, as the format any text no signature claims is read as
  /// (``Sniff/anyText``), or not (nil).
  static func sniff(_ head: PlistHead, options: PlistReadOptions) -> Sniff?
  /// The document the bytes hold, read as `options` say.
  static func read(_ data: Data, limits: PlistLimits, options: PlistReadOptions)
    throws(PlistError) -> PlistDocument
  /// The value in this format, deterministically, or why the format cannot hold it.
  static func write(_ value: PlistValue, options: PlistWriteOptions) throws(PlistError) -> Data
  /// The writer the streaming converter writes a binary file through, with the header written,
  /// or nil (the default) when a binary file is not streamed into this format.
  static func streamSink(_ options: PlistWriteOptions, inputCount: Int) -> Sink?
  /// A binary file in this format straight from its object table (``PropertyList/streamed(_:as:xml:truncatingDates:maxDepth:limits:undecidedUIDs:)``);
  /// given for every witness by its ``streamSink(_:inputCount:)``.
  static func streamed(_ data: Data, _ request: StreamRequest) -> Result<Data, StreamStop>
}

/// How a witness sniffs bytes as its format.
enum Sniff {
  /// A mark only this format's input starts with: the binary magic, XML's `<`, GNUstep's `<*`.
  case signature
  /// Any text no format claims by its signature is read as this one (OpenStep's bare strings
  /// and `.strings` files have no mark of their own).
  case anyText
}

/// The start of an input, as the formats' sniffing looks at it.
struct PlistHead {
  /// The whole input.
  let data: Data
  /// Its first characters from the first that is not white space, each ASCII one as its byte
  /// and any other as 0xFF, whatever the text encoding (UTF-8, UTF-16 or UTF-32, after a
  /// byte-order mark): from 1024 bytes of the input.
  let text: Data

  init(_ data: Data) {
    self.data = data
    let sample = data.prefix(1024)
    let characters: Data
    let (encoding, bom) = ByteView.with(sample) { TextInput.sniffEncoding($0) }
    switch encoding {
    case .utf8:
      characters = sample.dropFirst(bom)
    case .utf16BigEndian:
      characters = Data(
        stride(from: bom + 1, to: sample.count, by: 2).map {
          sample[sample.startIndex + $0 - 1] == 0 ? sample[sample.startIndex + $0] : 0xFF
        })
    case .utf16LittleEndian:
      characters = Data(
        stride(from: bom, to: sample.count - 1, by: 2).map {
          sample[sample.startIndex + $0 + 1] == 0 ? sample[sample.startIndex + $0] : 0xFF
        })
    case .utf32BigEndian, .utf32LittleEndian:
      // The ASCII byte of each unit whose other three bytes are zero.
      let bigEndian = encoding == .utf32BigEndian
      characters = Data(
        stride(from: bom, to: sample.count - 3, by: 4).map {
          let unit = sample[(sample.startIndex + $0)...].prefix(4)
          let (low, high) = bigEndian ? (unit.last, unit.prefix(3)) : (unit.first, unit.suffix(3))
          return high.allSatisfy { $0 == 0 } ? low ?? 0xFF : 0xFF
        })
    }
    text = characters.drop { $0 == 0x20 || (0x09...0x0D).contains($0) }
  }

  /// Whether the text starts with `<` and then `second`, one of the given characters.
  func startsWithAngle(then second: (UInt8) -> Bool) -> Bool {
    guard text.first == UInt8(ascii: "<"), let next = text.dropFirst().first else { return false }
    return second(next)
  }
}

/// How a value is written: the nesting a writer takes, and XML's options (the one format
/// that has any).
struct PlistWriteOptions {
  var maxDepth: Int
  var xml: XMLWriteOptions
}

/// What the streaming converter is asked: the writer's options, the reader's limits, and the
/// cases left to the full path.
struct StreamRequest {
  var write: PlistWriteOptions
  var limits: PlistLimits
  /// The rules of the reader the full path reads with.
  var rules: ReaderRules
  /// Dates' fractions dropped for a format that holds whole seconds (`--truncate-dates`).
  var truncatingDates: Bool
  /// A document holding a UID is left to the full path (the `plutil` personality).
  var undecidedUIDs: Bool
}

extension PlistFormatWitness {
  static var family: [PlistFormat] { [format] }

  static func streamed(_ data: Data, _ request: StreamRequest) -> Result<Data, StreamStop> {
    guard BinaryPlist.hasMagic(data),
      let sink = streamSink(request.write, inputCount: data.count)
    else { return .failure(.undecided) }
    return BinaryStreamConverter.convert(
      data, into: sink, limits: request.limits, rules: request.rules,
      maxDepth: request.write.maxDepth,
      truncatingDates: request.truncatingDates && holdsDatesToTheSecond,
      undecidedUIDs: request.undecidedUIDs)
  }
}

extension PlistFormatWitness where Sink == NoStreamSink {
  static func streamSink(_ options: PlistWriteOptions, inputCount: Int) -> Sink? { nil }
}

extension PropertyList {
  /// The witness of the format `data` is in, for a reader reading as `options` say: the first
  /// whose signature it starts with, else the one that reads any text.
  static func witness(of data: Data, options: PlistReadOptions) throws(PlistError)
    -> any PlistFormatWitness.Type
  {
    guard !data.isEmpty else { throw .empty }
    let head = PlistHead(data)
    var anyText: (any PlistFormatWitness.Type)?
    for format in PlistFormat.allCases {
      let witness = format.witness
      switch witness.sniff(head, options: options) {
      case .signature: return witness
      case .anyText: anyText = anyText ?? witness
      case nil: continue
      }
    }
    guard let anyText else {
      throw .malformed(
        format: .openStep, at: .byteOffset(0),
        reason: "no property-list format starts so".naming(.openStepUnexpectedCharacter))
    }
    return anyText
  }
}
