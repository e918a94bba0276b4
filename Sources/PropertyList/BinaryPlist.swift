#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Apple's `bplist00` format: its constants and its witness. Read by ``BinaryPlistReader``
/// (`BinaryPlistReader*.swift`), written by ``BinaryPlistWriter``; a binary file is the one
/// the streaming converter reads, and no format streams into it.
enum BinaryPlist: PlistFormatWitness {
  static let magic: [UInt8] = Array("bplist00".utf8)
  static let trailerSize = 32

  /// Whether `data` starts with ``magic``: its first eight bytes compared as one word (no
  /// iterator over `Data`, whose generic walk a one-key read would otherwise page in).
  static func hasMagic(_ data: Data) -> Bool {
    ByteView.with(data) { view in view.count >= 8 && view.word(at: 0) == magicWord }
  }

  /// ``magic`` as the little-endian word its bytes make.
  private static var magicWord: UInt64 { 0x3030_7473_696c_7062 }

  /// Byte `i` (0..<8) of ``magic``, without the array (a one-key read does not build it).
  @inline(__always)
  static func magicByte(_ i: Int) -> UInt8 {
    UInt8(truncatingIfNeeded: 0x3030_7473_696c_7062 as UInt64 >> (8 * UInt64(i)))
  }

  static let format = PlistFormat.binary
  static let name = "binary"
  static let holdsDatesToTheSecond = false

  /// `bplist` and any version after it, or a file cut inside the magic (`bpli`): the reader
  /// then says what is wrong.
  static func sniff(_ head: PlistHead, options: PlistReadOptions) -> Sniff? {
    let start = head.data.prefix(magic.count)
    if start.count < magic.count, start.elementsEqual(magic.prefix(start.count)) {
      return .signature
    }
    return start.starts(with: magic.prefix(6)) ? .signature : nil
  }

  static func read(_ data: Data, limits: PlistLimits, options: PlistReadOptions)
    throws(PlistError) -> PlistDocument
  {
    let (value, warnings) = try BinaryMemoryReader.read(data, limits: limits, rules: options.rules)
    return PlistDocument(value: value, format: .binary, warnings: warnings)
  }

  static func write(_ value: PlistValue, options: PlistWriteOptions) throws(PlistError) -> Data {
    try BinaryPlistWriter.write(value, maxDepth: options.maxDepth)
  }
}
