/// The bytes a binary property list is read from: a view of a buffer in memory
/// (``ByteView``), or a source read in windows (``BinaryWindows``). The reader checks every
/// range against `count` before it asks for it (and a view checks again).
protocol BinaryBytes {
  var count: Int { get }
  subscript(position: Int) -> UInt8 { get }
  /// The bytes of `range`, contiguous, for the length of `body`.
  func withBytes<R>(_ range: Range<Int>, _ body: (ByteView) -> R) -> R
  /// The big-endian unsigned integer of `size` bytes (1 to 8) at `offset`.
  func bigEndian(at offset: Int, size: Int) -> UInt64
}

extension ByteView: BinaryBytes {
  @inline(__always)
  func withBytes<R>(_ range: Range<Int>, _ body: (ByteView) -> R) -> R { body(slice(range)) }
}

/// The binary reader of a buffer in memory (files read whole, `Data`).
typealias BinaryMemoryReader = BinaryPlistReader<ByteView>

/// A big-endian unsigned integer field of a binary property list, read with as few loads as
/// its width allows, where the caller has checked the bytes are there (``BinaryKeyTable``'s
/// fields: its `init` checks the whole table).
protocol BigEndianField {
  static func read(_ bytes: ByteView, _ at: Int, _ width: Int) -> Int
  /// ``read(_:_:_:)`` where the caller has checked that eight bytes from `at` are in the
  /// view (a field before the trailer): one load, whatever the width.
  static func readPadded(_ bytes: ByteView, _ at: Int, _ width: Int) -> Int
}

extension BigEndianField {
  @inline(__always) static func readPadded(_ bytes: ByteView, _ at: Int, _ width: Int) -> Int {
    read(bytes, at, width)
  }
}

enum Field1: BigEndianField {
  @inline(__always) static func read(_ bytes: ByteView, _ at: Int, _: Int) -> Int {
    Int(bytes[unchecked: at])
  }
}

enum Field2: BigEndianField {
  @inline(__always) static func read(_ bytes: ByteView, _ at: Int, _: Int) -> Int {
    Int(bytes.uncheckedLoad(UInt16.self, at: at, bigEndian: true))
  }
}

enum Field3: BigEndianField {
  @inline(__always) static func read(_ bytes: ByteView, _ at: Int, _: Int) -> Int {
    Int(bytes.uncheckedLoad(UInt16.self, at: at, bigEndian: true)) << 8
      | Int(bytes[unchecked: at + 2])
  }

  @inline(__always) static func readPadded(_ bytes: ByteView, _ at: Int, _: Int) -> Int {
    Int(bytes.uncheckedLoad(UInt32.self, at: at, bigEndian: true) >> 8)
  }
}

enum Field4: BigEndianField {
  @inline(__always) static func read(_ bytes: ByteView, _ at: Int, _: Int) -> Int {
    Int(bytes.uncheckedLoad(UInt32.self, at: at, bigEndian: true))
  }
}

/// Any width, byte by byte (5 to 8 bytes: files of more than 4 GiB or 2^32 objects).
enum FieldN: BigEndianField {
  static func read(_ bytes: ByteView, _ at: Int, _ width: Int) -> Int {
    var value = 0
    for i in 0..<width { value = value << 8 | Int(bytes[unchecked: at + i]) }
    return value
  }
}
