#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The scanner's searches of a file's bytes, over checked arrays: `memchr` and `memcmp` (which
/// a loop over the bytes in Swift would be several times slower than, over every byte of a
/// tree) and the 8-byte loads the survey and the skimmer test eight bytes at a time with. Every
/// range is checked against the array before the C library, or a load, is given it.
///
/// The scanner's one file that touches raw memory: the lexer, the skimmer and the readers
/// index their arrays, each access checked by the standard library.
enum ByteSearch {
  /// The index of the first `byte` in `bytes[range]`, or nil.
  @inline(__always)
  static func firstIndex(of byte: UInt8, in bytes: [UInt8], _ range: Range<Int>) -> Int? {
    precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "outside the bytes")
    guard !range.isEmpty else { return nil }
    return bytes.withUnsafeBytes { raw -> Int? in
      guard let base = raw.baseAddress,
        let hit = memchr(base + range.lowerBound, Int32(byte), range.count)
      else { return nil }
      return base.distance(to: UnsafeRawPointer(hit))
    }
  }

  /// The index of the first byte from `start` that `matters`, or the count: the skimmer's
  /// pass over a body, where a checked access a byte was a third of the scan's time.
  @inline(__always)
  static func firstIndex(
    in bytes: [UInt8], from start: Int, where matters: (UInt8) -> Bool
  ) -> Int {
    precondition(start >= 0, "outside the bytes")
    return bytes.withUnsafeBufferPointer { p -> Int in
      var i = start
      while i < p.count, !matters(p[i]) { i += 1 }
      return i
    }
  }

  /// Whether `bytes` holds `word`: `memchr` for one of its bytes (its last capital letter,
  /// rarer in source than a small one), then a comparison of the whole word around it.
  static func contains(_ bytes: [UInt8], _ word: [UInt8]) -> Bool {
    guard !word.isEmpty, bytes.count >= word.count else { return false }
    let anchor = word.lastIndex { $0 >= 0x41 && $0 <= 0x5A } ?? 0
    var offset = anchor
    // The last place the anchor can be with the whole word inside the bytes.
    let last = bytes.count - (word.count - anchor)
    while offset <= last {
      guard let at = firstIndex(of: word[anchor], in: bytes, offset..<(last + 1)) else {
        return false
      }
      if equal(bytes, at - anchor, word) { return true }
      offset = at + 1
    }
    return false
  }

  /// Whether `bytes` holds `word` at `offset`.
  @inline(__always)
  static func equal(_ bytes: [UInt8], _ offset: Int, _ word: [UInt8]) -> Bool {
    guard offset >= 0, offset <= bytes.count - word.count else { return false }
    return bytes.withUnsafeBytes { raw in
      word.withUnsafeBytes { w in
        guard let base = raw.baseAddress, let wanted = w.baseAddress else { return w.isEmpty }
        return memcmp(base + offset, wanted, w.count) == 0
      }
    }
  }

  /// The 8 bytes of `bytes` at `offset` as a little-endian word (the first byte lowest); a
  /// trap unless all eight are in the array.
  @inline(__always)
  static func word(_ bytes: [UInt8], at offset: Int) -> UInt64 {
    precondition(offset >= 0 && offset <= bytes.count &- 8, "outside the bytes")
    return bytes.withUnsafeBytes {
      UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
  }
}
