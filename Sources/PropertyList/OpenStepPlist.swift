#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The two formats of OpenStep text: one reader (``OpenStepReader``, `OpenStepReader*.swift`),
/// which reports GNUstep's format once a typed value appears, and one writer
/// (``OpenStepWriter``) in the format's style; a witness of either says only how it is
/// sniffed and which style it writes.
protocol OpenStepTextWitness: PlistFormatWitness where Sink == OpenStepWriter {
  /// The writer's style for this format.
  static var style: OpenStepWriter.Style { get }
}

extension OpenStepTextWitness {
  /// Either reads back as either: the reader reports GNUstep's format once it meets a typed
  /// value, OpenStep's otherwise.
  static var family: [PlistFormat] { [.openStep, .gnustep] }

  static func read(_ data: Data, limits: PlistLimits, options: PlistReadOptions)
    throws(PlistError) -> PlistDocument
  {
    try OpenStepReader.document(data, format: format, limits: limits, options: options)
  }

  static func write(_ value: PlistValue, options: PlistWriteOptions) throws(PlistError) -> Data {
    Data(try OpenStepWriter.write(value, style: style, maxDepth: options.maxDepth).utf8)
  }

  static func streamSink(_ options: PlistWriteOptions, inputCount: Int) -> OpenStepWriter? {
    OpenStepWriter(style: style, maxDepth: options.maxDepth)
  }
}

/// The NeXT/OpenStep text format: strings, data, arrays and dictionaries.
enum OpenStepPlist: OpenStepTextWitness {
  static let format = PlistFormat.openStep
  static let name = "OpenStep"
  static let style = OpenStepWriter.Style.openStep
  /// (It holds no dates at all: the writer refuses them.)
  static let holdsDatesToTheSecond = false

  /// Any text: a bare string, a `.strings` file, `{`, `(`, `"`, `<0fbd>` have no mark that
  /// only OpenStep text has.
  static func sniff(_ head: PlistHead, options: PlistReadOptions) -> Sniff? { .anyText }
}

/// OpenStep text with GNUstep's typed values (`<*I42>`, `<*R1.5>`, `<*BY>`, `<*D…>`) and
/// base64 data (`<[…]>`).
enum GNUstepPlist: OpenStepTextWitness {
  static let format = PlistFormat.gnustep
  static let name = "GNUstep"
  static let style = OpenStepWriter.Style.gnustep
  static let holdsDatesToTheSecond = true

  /// Text that starts with a typed value or base64 data: `<*`, `<[`.
  static func sniff(_ head: PlistHead, options: PlistReadOptions) -> Sniff? {
    head.startsWithAngle(then: { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "[") })
      ? .signature : nil
  }
}
