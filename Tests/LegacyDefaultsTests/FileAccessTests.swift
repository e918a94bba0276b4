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

  @Test func aFIFOIsRefusedWithoutWaiting() throws {
    let folder = try TemporaryFolder()
    let fifo = folder.file("p").path
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect(throws: FileAccess.Failure.notRegular(path: fifo, kind: "a FIFO (named pipe)")) {
      try FileAccess.readFile(fifo, limit: .max)
    }
  }
}
