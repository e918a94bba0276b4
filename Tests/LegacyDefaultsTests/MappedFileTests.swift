import Foundation
import TestSupport
import Testing

@testable import LegacyDefaults

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A large input mapped in place (`FileAccess.MappedFile`): its bytes are the file's, a page
/// the file no longer backs reads as zeros instead of ending the process with SIGBUS, and
/// `verify()` then says the bytes may not be the file's. Serialized: one guarded mapping at a
/// time in a process.
@Suite(.serialized) struct MappedFileTests {
  /// A file of `size` bytes, every byte `index % 251 + 1` (none is zero).
  static func file(_ size: Int, in folder: TemporaryFolder) throws -> URL {
    let url = folder.file("large")
    try Data((0..<size).map { UInt8($0 % 251 + 1) }).write(to: url)
    return url
  }

  static func open(_ url: URL) throws -> FileAccess.OpenFile {
    try FileAccess.openForReading(url.path, limit: 64 << 20)
  }

  @Test func aLargeFileIsMappedAndItsBytesAreTheFiles() throws {
    let folder = try TemporaryFolder()
    let url = try Self.file(3 << 20, in: folder)
    let mapped = try #require(try Self.open(url).mapped())
    #expect(mapped.count == 3 << 20)
    #expect(mapped.data == (try Data(contentsOf: url)))
    #expect(throws: Never.self) { try mapped.verify() }
  }

  @Test func aSmallFileIsReadNotMapped() throws {
    let folder = try TemporaryFolder()
    let url = try Self.file(FileAccess.OpenFile.mappingThreshold - 1, in: folder)
    #expect(try Self.open(url).mapped() == nil)
  }

  @Test func aFileTruncatedWhileMappedReadsAsZerosAndIsReported() throws {
    let folder = try TemporaryFolder()
    let size = 2 << 20
    let url = try Self.file(size, in: folder)
    let mapped = try #require(try Self.open(url).mapped())
    // Its owner truncates it while it is mapped: without the guard, the first load past the
    // new end raises SIGBUS and this process ends.
    #expect(truncate(url.path, 4096) == 0)
    let bytes = mapped.data
    let head = (0..<4096).allSatisfy { bytes[$0] == UInt8($0 % 251 + 1) }
    var zeros = 0
    for i in stride(from: 4096, to: bytes.count, by: 512) where bytes[i] == 0 { zeros += 1 }
    #expect(head)
    #expect(zeros == (size - 4096) / 512)
    let error = #expect(throws: FileAccess.Failure.self) { try mapped.verify() }
    guard case .io(let path, let reason)? = error else {
      Issue.record("not an I/O failure: \(String(describing: error))")
      return
    }
    #expect(path == url.path)
    #expect(reason.contains("it changed while it was read"))
    #expect(reason.contains("511 pages"))
  }

  @Test func aFileChangedInPlaceWhileMappedIsReported() throws {
    let folder = try TemporaryFolder()
    let url = try Self.file(2 << 20, in: folder)
    let mapped = try #require(try Self.open(url).mapped())
    // Same size, other bytes, written in place (a writer that does not replace the file).
    let fd = Glibc.open(url.path, O_WRONLY)
    #expect(fd >= 0)
    var byte: UInt8 = 0
    #expect(pwrite(fd, &byte, 1, 100) == 1)
    var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
    #expect(futimens(fd, &times) == 0)
    close(fd)
    #expect(throws: FileAccess.Failure.self) { try mapped.verify() }
  }

  @Test func oneMappingAtATimeAndTheSignalActionIsPutBack() throws {
    let folder = try TemporaryFolder()
    let url = try Self.file(2 << 20, in: folder)
    func action() -> UInt {
      var current = sigaction()
      sigaction(SIGBUS, nil, &current)
      return unsafeBitCast(current.__sigaction_handler.sa_handler, to: UInt.self)
    }
    let before = action()
    do {
      let first = try #require(try Self.open(url).mapped())
      #expect(action() != before)
      #expect(try Self.open(url).mapped() == nil)
      withExtendedLifetime(first) {}
    }
    #expect(action() == before)
    #expect(try Self.open(url).mapped() != nil)
  }

  /// A SIGBUS that is not the guarded mapping's still ends the process, as it would without
  /// the guard: a real process, which maps another file unguarded, truncates it and reads it.
  @Test func anotherMappingsFaultStillEndsTheProcess() throws {
    let folder = try TemporaryFolder()
    let guarded = try Self.file(2 << 20, in: folder)
    let other = folder.file("other")
    try Data(repeating: 7, count: 1 << 16).write(to: other)
    // Without the runtime's backtracer (its handler would be the action before the guard's,
    // and its helper would print a report for half a minute): the default action is the case.
    let result = try External.run(
      External.product("prefs-stress"), ["guarded-fault", guarded.path, other.path],
      environment: ["SWIFT_BACKTRACE": "enable=no"])
    #expect(result.output.contains("guarded: 0 faults"))
    #expect(result.signal == SIGBUS)
  }
}
