import Foundation
import Testing

@testable import PropertyList

/// The in-place key walk's byte comparisons (``BinaryKeyTable``), which read eight bytes at a
/// time and the last eight of a key again: against the standard library's byte-by-byte
/// answers, for every length up to 40 and a difference at every position.
@Suite struct BinaryKeyTableTests {
  /// Pairs of byte strings: equal, one a prefix of the other, or differing at one position
  /// (by one, and by the high bit), for every length to 40.
  static let pairs: [([UInt8], [UInt8])] = {
    var pairs: [([UInt8], [UInt8])] = []
    for length in 0...40 {
      let base = (0..<length).map { UInt8(0x30 + $0 % 40) }
      pairs.append((base, base))
      pairs.append((base, base + [0x41]))
      pairs.append((base + [0x41], base))
      for position in 0..<length {
        for delta: UInt8 in [1, 0x40] {
          var other = base
          other[position] = base[position] &+ delta
          pairs.append((base, other))
          pairs.append((other, base))
          // The same difference with the longer of the two shortened after it.
          pairs.append((Array(other[...position]), base))
        }
      }
    }
    return pairs
  }()

  @Test func precedesIsByteOrder() {
    var checked = 0
    for (a, b) in Self.pairs {
      // (The keys at an offset of one in their views, as keys lie in a file.)
      let got = ByteView.with([0] + a) { x in
        ByteView.with([0] + b) { y in BinaryKeyTable.precedes(x, 1, a.count, y, 1, b.count) }
      }
      #expect(got == a.lexicographicallyPrecedes(b), "\(a) \(b)")
      checked += 1
    }
    #expect(checked > 3000)
  }

  @Test func isASCIIIsEveryByteBelow0x80() {
    for length in 1...40 {
      let plain = [UInt8](repeating: 0x7F, count: length)
      for position in -1..<length {
        var bytes = plain
        if position >= 0 { bytes[position] = 0x80 }
        let got = ByteView.with([0x41] + bytes) { BinaryKeyTable.isASCII($0, at: 1, count: length) }
        #expect(got == bytes.allSatisfy { $0 < 0x80 }, "\(length) \(position)")
      }
    }
  }
}
