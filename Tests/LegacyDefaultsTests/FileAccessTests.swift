import Foundation
import TestSupport
import Testing

@testable import LegacyDefaults

/// Reading files: only regular files, never more than the limit, whatever the limit.
@Suite struct FileAccessTests {
  @Test(arguments: [Int.max, 1 << 20, 10_000, 9_999])
  func aFileIsReadWholeUpToTheLimit(limit: Int) throws {
    let folder = try TemporaryFolder()
    let file = folder.file("f")
    let bytes = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0) })
    try bytes.write(to: file)
    if limit >= bytes.count {
      #expect(try FileAccess.readFile(file.path, limit: limit) == bytes)
    } else {
      #expect(throws: FileAccess.Failure.tooLarge(path: file.path, size: 10_000, limit: limit)) {
        try FileAccess.readFile(file.path, limit: limit)
      }
    }
  }

  /// A file of 2 MiB and more is read into a buffer of its own (huge pages where the kernel
  /// gives them): the same bytes as Foundation reads, at every size around the page edges,
  /// and the limit holds as for a small file.
  @Test(arguments: [2 << 20, (2 << 20) + 1, (4 << 20) - 1, 5_000_001])
  func aLargeFileIsReadWhole(size: Int) throws {
    let folder = try TemporaryFolder()
    let file = folder.file("big")
    var generator = SystemRandomNumberGenerator()
    let bytes = Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) })
    try bytes.write(to: file)
    let read = try FileAccess.readFile(file.path, limit: .max)
    #expect(read == (try Data(contentsOf: file)))
    #expect(read.count == size)
    #expect(throws: FileAccess.Failure.tooLarge(path: file.path, size: size, limit: size - 1)) {
      try FileAccess.readFile(file.path, limit: size - 1)
    }
  }

  @Test func aFIFOIsRefusedWithoutWaiting() throws {
    let folder = try TemporaryFolder()
    let fifo = folder.file("p").path
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect(throws: FileAccess.Failure.notRegular(path: fifo, kind: "a FIFO (named pipe)")) {
      try FileAccess.readFile(fifo, limit: .max)
    }
  }
}

/// The digest a store keeps of a file instead of its bytes.
@Suite struct ContentDigestTests {
  /// Fed in pieces cut anywhere: the digest of the whole.
  @Test func theSameDigestHoweverTheBytesAreCut() {
    var rng = SystemRandomNumberGenerator()
    for length in [0, 1, 7, 8, 9, 15, 16, 17, 100, 4099] {
      let data = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) })
      let whole = ContentDigest(data)
      for _ in 0..<20 {
        var digester = Digester()
        var at = 0
        while at < length {
          let end = min(length, at + Int.random(in: 1...13, using: &rng))
          digester.add(data[at..<end])
          at = end
        }
        #expect(digester.digest == whole, "\(length) bytes")
      }
    }
  }

  /// Every change of one byte, a byte added or taken away, trailing zeros: another digest.
  @Test func everySmallChangeIsAnotherDigest() {
    let data = Data("<plist><dict><key>a</key><integer>1</integer></dict></plist>".utf8)
    let original = ContentDigest(data)
    var seen: Set<ContentDigest> = [original]
    for i in data.indices {
      for bit in 0..<8 {
        var changed = data
        changed[i] ^= 1 << bit
        #expect(seen.insert(ContentDigest(changed)).inserted, "byte \(i) bit \(bit)")
      }
    }
    #expect(seen.insert(ContentDigest(data + [0])).inserted)
    #expect(seen.insert(ContentDigest(data.dropLast())).inserted)
    #expect(ContentDigest(Data()) != ContentDigest(Data([0])))
    #expect(ContentDigest(data) == original)
  }
}
