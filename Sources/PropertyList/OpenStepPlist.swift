#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The NeXT/OpenStep text format: strings, data, arrays and dictionaries. Read by
/// ``OpenStepReader`` (`OpenStepReader*.swift`), which reports GNUstep's format once a typed
/// value appears; written, and streamed into, by ``OpenStepWriter``.
enum OpenStepPlist: PlistFormatWitness {
  static let format = PlistFormat.openStep
  static let name = "OpenStep"
  static let family: [PlistFormat] = [.openStep, .gnustep]
  /// (It holds no dates at all: the writer refuses them.)
  static let holdsDatesToTheSecond = false

  /// Any text: a bare string, a `.strings` file, `{`, `(`, `"`, `<0fbd>` have no mark that
  /// only OpenStep text has.
  static func sniff(_ head: PlistHead, options: PlistReadOptions) -> Sniff? { .anyText }

  static func read(_ data: Data, limits: PlistLimits, options: PlistReadOptions)
    throws(PlistError) -> PlistDocument
  {
    try OpenStepReader.document(data, format: format, limits: limits, options: options)
  }

  static func write(_ value: PlistValue, options: PlistWriteOptions) throws(PlistError) -> Data {
    Data(try OpenStepWriter.write(value, style: .openStep, maxDepth: options.maxDepth).utf8)
  }

  static func streamSink(_ options: PlistWriteOptions, inputCount: Int) -> OpenStepWriter? {
    OpenStepWriter(style: .openStep, maxDepth: options.maxDepth)
  }
}

/// OpenStep text with GNUstep's typed values (`<*I42>`, `<*R1.5>`, `<*BY>`, `<*D…>`) and
/// base64 data (`<[…]>`): OpenStep's reader and writer, in the writer's GNUstep style.
enum GNUstepPlist: PlistFormatWitness {
  static let format = PlistFormat.gnustep
  static let name = "GNUstep"
  static let family = OpenStepPlist.family
  static let holdsDatesToTheSecond = true

  /// Text that starts with a typed value or base64 data: `<*`, `<[`.
  static func sniff(_ head: PlistHead, options: PlistReadOptions) -> Sniff? {
    head.startsWithAngle(then: { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "[") })
      ? .signature : nil
  }

  static func read(_ data: Data, limits: PlistLimits, options: PlistReadOptions)
    throws(PlistError) -> PlistDocument
  {
    try OpenStepReader.document(data, format: format, limits: limits, options: options)
  }

  static func write(_ value: PlistValue, options: PlistWriteOptions) throws(PlistError) -> Data {
    Data(try OpenStepWriter.write(value, style: .gnustep, maxDepth: options.maxDepth).utf8)
  }

  static func streamSink(_ options: PlistWriteOptions, inputCount: Int) -> OpenStepWriter? {
    OpenStepWriter(style: .gnustep, maxDepth: options.maxDepth)
  }
}
