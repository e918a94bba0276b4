#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Apple's XML format: read by ``XMLPlistReader`` (`XMLPlistReader*.swift`), written, and
/// streamed into, by ``XMLPlistWriter``.
enum XMLPlist: PlistFormatWitness {
  static let format = PlistFormat.xml
  static let name = "XML"
  static let holdsDatesToTheSecond = true

  /// Text that starts with markup: `<plist>`, `<?xml`, `<!DOCTYPE`, `<dict>`. Not `<` then `*`
  /// or `[` (no XML markup starts so: GNUstep's `<*I5>` and `<[…]>`), nor OpenStep's hex data
  /// `<0fbd 7778>`. GNUstep's reader takes text as XML only from its declaration on:
  /// `<plist>…` alone is OpenStep text to it.
  static func sniff(_ head: PlistHead, options: PlistReadOptions) -> Sniff? {
    if options.rules.xmlNeedsDeclaration, !head.data.starts(with: Array("<?xml".utf8)) {
      return nil
    }
    guard head.startsWithAngle(then: { $0 != UInt8(ascii: "*") && $0 != UInt8(ascii: "[") })
    else { return nil }
    let body = head.text.dropFirst().prefix { $0 != UInt8(ascii: ">") }
    let isHex = body.allSatisfy {
      ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) || $0 == 0x20
        || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D
    }
    return isHex ? nil : .signature
  }

  static func read(_ data: Data, limits: PlistLimits, options: PlistReadOptions)
    throws(PlistError) -> PlistDocument
  {
    let rules = options.rules
    try TextInput.requireEncoding(of: data, format: format, rules: rules)
    let (value, warnings) = try XMLPlistReader.read(data, limits: limits, rules: rules)
    return PlistDocument(value: value, format: .xml, warnings: warnings)
  }

  static func write(_ value: PlistValue, options: PlistWriteOptions) throws(PlistError) -> Data {
    try XMLPlistWriter.write(value, maxDepth: options.maxDepth, options: options.xml)
  }

  static func streamSink(_ options: PlistWriteOptions, inputCount: Int) -> XMLPlistWriter? {
    // About twice the binary file: XML's tags and indentation around the same text.
    XMLPlistWriter.document(
      maxDepth: options.maxDepth, options: options.xml, capacity: 4096 + 2 * inputCount)
  }
}
