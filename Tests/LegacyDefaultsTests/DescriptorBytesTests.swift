import Foundation
import PropertyList
import TestSupport
import Testing

@testable import LegacyDefaults

#if canImport(Glibc)
  import Glibc
#endif

/// The bytes of an open file as the property-list layer's windowed read takes them
/// (`FileAccess.DescriptorBytes`, `pread`): what it reads, and the first read that came back
/// short, with its errno, for the store to report.
@Suite struct DescriptorBytesTests {
  @Test func readsAtOffsetsAndKeepsWhereTheFileEnded() throws {
    let folder = try TemporaryFolder()
    let url = folder.file("bytes")
    try Data("0123456789".utf8).write(to: url)
    let fd = open(url.path, O_RDONLY)
    #expect(fd >= 0)
    defer { close(fd) }
    let bytes = FileAccess.DescriptorBytes(fd: fd)
    var buffer = [UInt8](repeating: 0, count: 4)
    #expect(bytes.read(into: &buffer, at: 3) == 4)
    #expect(buffer == Array("3456".utf8))
    #expect(bytes.failure == nil)
    // Past the end: what is there, and the end kept (errno 0: the file ended).
    #expect(bytes.read(into: &buffer, at: 8) == 2)
    #expect(bytes.failure.map { [$0.errno, Int32($0.offset)] } == [0, 10])
  }

  @Test func aDescriptorThatCannotBeReadKeepsItsErrno() {
    let bytes = FileAccess.DescriptorBytes(fd: -1)
    var buffer = [UInt8](repeating: 0, count: 4)
    #expect(bytes.read(into: &buffer, at: 0) == 0)
    #expect(bytes.failure.map { [$0.errno, Int32($0.offset)] } == [EBADF, 0])
  }
}
