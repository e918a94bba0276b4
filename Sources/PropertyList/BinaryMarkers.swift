/// The one table of a binary file's object markers: what each marker byte makes and how many
/// bytes of payload its scalar has, and which scalars are readable at all. The full read
/// (``BinaryPlistReader/decodeObject(_:at:)``, which adds each reader's quirks from
/// ``ReaderRules``), `lint`'s quick check (``BinaryPlistReader/isCleanTree(_:limits:rules:)``) and
/// the streaming conversion all decode a marker through ``BinaryMarker/init(_:)``, so the
/// sizes and the rules are written once.
enum BinaryMarker: Equatable {
  /// `0x00`: CoreFoundation's `NSNull`, which no property list type holds.
  case null
  /// `0x08`, `0x09`.
  case boolean(Bool)
  /// `0x1n`: an integer of `2^n` bytes (1, 2, 4, 8 or 16).
  case integer(bytes: Int)
  /// `0x22`, `0x23`: a real of 4 or 8 bytes.
  case real(bytes: Int)
  /// `0x33`: a date, 8 bytes of seconds since 2001.
  case date
  /// `0x4n`: data, its count in the low nibble or after it.
  case data
  /// `0x5n`: an ASCII string.
  case asciiString
  /// `0x6n`: a UTF-16 string (its count in units).
  case utf16String
  /// `0x8n`: a UID of `n + 1` bytes.
  case uid(bytes: Int)
  /// `0xAn`, `0xCn`, `0xDn`.
  case array, set, dictionary
  /// `0x1n` for n > 4: an integer wider than 16 bytes.
  case integerTooWide(exponent: Int)
  /// `0x2n` but 4 and 8 bytes.
  case realOfOtherSize(exponent: Int)
  /// Any other marker.
  case unknown

  /// What `marker` makes.
  @inline(__always)
  init(_ marker: UInt8) {
    let nibble = Int(marker & 0x0F)
    switch marker >> 4 {
    case 0x0:
      switch marker {
      case 0x00: self = .null
      case 0x08: self = .boolean(false)
      case 0x09: self = .boolean(true)
      default: self = .unknown
      }
    case 0x1: self = nibble <= 4 ? .integer(bytes: 1 << nibble) : .integerTooWide(exponent: nibble)
    case 0x2:
      self =
        nibble == 2 || nibble == 3 ? .real(bytes: 1 << nibble) : .realOfOtherSize(exponent: nibble)
    case 0x3: self = marker == 0x33 ? .date : .unknown
    case 0x4: self = .data
    case 0x5: self = .asciiString
    case 0x6: self = .utf16String
    case 0x8: self = .uid(bytes: nibble + 1)
    case 0xA: self = .array
    case 0xC: self = .set
    case 0xD: self = .dictionary
    default: self = .unknown
    }
  }

  /// Whether the 8 bytes of a date's seconds make a point in time: NaN and the infinities do
  /// not (the row `nonfinite-binary-date`).
  @inline(__always)
  static func isReadableDate(_ bits: UInt64) -> Bool { Double(bitPattern: bits).isFinite }

  /// The widest integer every reader reads as it is, in bytes (a 16-byte one each reader reads
  /// its own way: ``ReaderRules/sixteenByteIntegers``).
  static let plainIntegerBytes = 8
}
