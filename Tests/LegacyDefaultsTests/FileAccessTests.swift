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
