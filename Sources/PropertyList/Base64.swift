#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Base64 as the property-list readers and writers need it: the alphabet (the XML writer's
/// `<data>` lines, GNUstep's `<[…]>` data), and decoding as each reader decodes, which differ
/// on what is not whole groups of four characters of the alphabet.
enum Base64 {
  /// The 64 characters, in the order of their values.
  static let alphabet: [UInt8] = alphabetView.array

  /// The same characters as a view (a string literal's bytes, for the writer's table).
  static var alphabetView: ByteView {
    ByteView("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
  }

  /// The value of an alphabet character, or nil.
  @inline(__always)
  static func value(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): c - UInt8(ascii: "A")
    case UInt8(ascii: "a")...UInt8(ascii: "z"): c - UInt8(ascii: "a") + 26
    case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0") + 52
    case UInt8(ascii: "+"): 62
    case UInt8(ascii: "/"): 63
    default: nil
    }
  }

  @inline(__always)
  private static func isSpace(_ c: UInt8) -> Bool {
    c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D
  }

  /// Where decoding stopped: the offset (an index of the text) of the byte it refused.
  struct BadByte: Error { var offset: Int }

  /// Digits gathered six bits at a time, a byte out whenever eight are there.
  private struct Bits {
    var bytes: [UInt8] = []
    private var accumulator: UInt32 = 0
    /// The bits not yet a byte (0 to 7; 6 after a lone last digit).
    private(set) var pending = 0

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    @inline(__always)
    mutating func add(_ digit: UInt8) {
      accumulator = accumulator << 6 | UInt32(digit)
      pending += 6
      guard pending >= 8 else { return }
      pending -= 8
      bytes.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(pending)))
      accumulator &= (1 << UInt32(pending)) - 1
    }
  }

  /// Base64 with white space anywhere and optional padding; the offending offset within
  /// `text` on error.
  static func decode<Text: Collection<UInt8>>(_ text: Text) -> Result<Data, BadByte>
  where Text.Index == Int {
    var bits = Bits(capacity: text.count * 3 / 4)
    var padding = 0
    for (k, c) in zip(text.indices, text) {
      if let digit = value(c) {
        if padding > 0 { return .failure(BadByte(offset: k)) }
        bits.add(digit)
      } else if c == UInt8(ascii: "=") {
        padding += 1
      } else if !isSpace(c) {
        return .failure(BadByte(offset: k))
      }
    }
    // 6 leftover bits cannot end a valid encoding.
    if bits.pending >= 6 || padding > 2 { return .failure(BadByte(offset: text.endIndex)) }
    return .success(Data(bits.bytes))
  }

  /// Base64 as GNUstep Base decodes `<data>`: `=` and white space skipped wherever they are,
  /// a last group short of four characters decoded as far as its bits go (`AA` is one byte,
  /// `QQ==QQ==` the three bytes of `QQQQ`).
  static func decodeGNUstep<Text: Collection<UInt8>>(_ text: Text) -> Result<Data, BadByte>
  where Text.Index == Int {
    var bits = Bits(capacity: text.count * 3 / 4)
    for (k, c) in zip(text.indices, text) {
      if let digit = value(c) {
        bits.add(digit)
      } else if c != UInt8(ascii: "="), !isSpace(c) {
        return .failure(BadByte(offset: k))
      }
    }
    return .success(Data(bits.bytes))
  }

  /// Base64 as CoreFoundation's XML reader decodes `<data>`: the raw bytes up to the first
  /// `<`, every ASCII byte outside the alphabet skipped, `=` counted as a zero digit, and
  /// three bytes made of each group of four (less one for each `=` just before the group's
  /// end); a last group short of four is dropped (`AA` is no byte). nil: a byte above 0x7F,
  /// which it refuses. `lenient`: something was skipped or dropped.
  static func decodeCoreFoundation<Text: Collection<UInt8>>(_ text: Text)
    -> (data: Data, lenient: Bool)?
  {
    var out = [UInt8]()
    out.reserveCapacity(text.count * 3 / 4)
    var equals = 0
    var accumulator: UInt32 = 0
    var count = 0
    var lenient = false
    for c in text {
      let isSpace = c == 0x20 || (0x09...0x0D).contains(c)
      if c == UInt8(ascii: "=") {
        equals += 1
      } else if !isSpace {
        if equals > 0 { lenient = true }
        equals = 0
      }
      guard c < 0x80 else { return nil }
      let digit: UInt8
      if let v = value(c) {
        digit = v
      } else if c == UInt8(ascii: "=") {
        digit = 0
      } else {
        if !isSpace { lenient = true }
        continue
      }
      count += 1
      accumulator = accumulator << 6 &+ UInt32(digit)
      if count & 3 == 0 {
        out.append(UInt8(truncatingIfNeeded: accumulator >> 16))
        if equals < 2 { out.append(UInt8(truncatingIfNeeded: accumulator >> 8)) }
        if equals < 1 { out.append(UInt8(truncatingIfNeeded: accumulator)) }
      }
    }
    if count & 3 != 0 { lenient = true }
    return (Data(out), lenient)
  }
}
