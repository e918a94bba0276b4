#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The bytes a binary property list is read from: a buffer in memory, or a source read in
/// windows (``BinaryWindows``). The reader checks every range against `count` before it asks
/// for it.
protocol BinaryBytes {
  var count: Int { get }
  subscript(position: Int) -> UInt8 { get }
  /// The bytes of `range`, contiguous, for the length of `body`.
  func withBytes<R>(_ range: Range<Int>, _ body: (UnsafeRawBufferPointer) -> R) -> R
  /// The big-endian unsigned integer of `size` bytes (1 to 8) at `offset`.
  func bigEndian(at offset: Int, size: Int) -> UInt64
}

extension UnsafeRawBufferPointer: BinaryBytes {
  @inline(__always)
  func withBytes<R>(_ range: Range<Int>, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    body(UnsafeRawBufferPointer(rebasing: self[range]))
  }

  @inline(__always)
  func bigEndian(at offset: Int, size: Int) -> UInt64 {
    // One load where eight bytes are there (every field but the file's last few bytes: the
    // trailer follows the offset table): a third of a check's instructions went to the loop.
    if let base = baseAddress, size > 0, size <= 8, offset >= 0, offset <= count &- 8 {
      let word = UInt64(bigEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      return word >> (UInt64(8 &- size) &* 8)
    }
    var value: UInt64 = 0
    for i in 0..<size { value = value << 8 | UInt64(self[offset + i]) }
    return value
  }
}

/// The binary reader of a buffer in memory (files read whole, `Data`).
typealias BinaryMemoryReader = BinaryPlistReader<UnsafeRawBufferPointer>

/// A big-endian unsigned integer field of a binary property list, read with as few loads as
/// its width allows (the caller has checked the bytes are there).
protocol BigEndianField {
  static func read(_ base: UnsafeRawPointer, _ at: Int, _ width: Int) -> Int
  /// ``read(_:_:_:)`` where the caller has checked that eight bytes from `at` are in the
  /// buffer (a field before the trailer): one load, whatever the width.
  static func readPadded(_ base: UnsafeRawPointer, _ at: Int, _ width: Int) -> Int
}

extension BigEndianField {
  @inline(__always) static func readPadded(_ base: UnsafeRawPointer, _ at: Int, _ width: Int)
    -> Int
  {
    read(base, at, width)
  }
}

enum Field1: BigEndianField {
  @inline(__always) static func read(_ base: UnsafeRawPointer, _ at: Int, _: Int) -> Int {
    Int(base.load(fromByteOffset: at, as: UInt8.self))
  }
}

enum Field2: BigEndianField {
  @inline(__always) static func read(_ base: UnsafeRawPointer, _ at: Int, _: Int) -> Int {
    Int(UInt16(bigEndian: base.loadUnaligned(fromByteOffset: at, as: UInt16.self)))
  }
}

enum Field3: BigEndianField {
  @inline(__always) static func read(_ base: UnsafeRawPointer, _ at: Int, _: Int) -> Int {
    Int(UInt16(bigEndian: base.loadUnaligned(fromByteOffset: at, as: UInt16.self))) << 8
      | Int(base.load(fromByteOffset: at + 2, as: UInt8.self))
  }

  @inline(__always) static func readPadded(_ base: UnsafeRawPointer, _ at: Int, _: Int) -> Int {
    Int(UInt32(bigEndian: base.loadUnaligned(fromByteOffset: at, as: UInt32.self)) >> 8)
  }
}

enum Field4: BigEndianField {
  @inline(__always) static func read(_ base: UnsafeRawPointer, _ at: Int, _: Int) -> Int {
    Int(UInt32(bigEndian: base.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
  }
}

/// Any width, byte by byte (5 to 8 bytes: files of more than 4 GiB or 2^32 objects).
enum FieldN: BigEndianField {
  static func read(_ base: UnsafeRawPointer, _ at: Int, _ width: Int) -> Int {
    var value = 0
    for i in 0..<width {
      value = value << 8 | Int(base.load(fromByteOffset: at + i, as: UInt8.self))
    }
    return value
  }
}
