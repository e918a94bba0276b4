import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What tells the bytes of one file from another's without keeping them: their count and 128
/// bits of the process's seeded SipHash (two `Hasher`s kept apart by a first word). A store
/// keeps this of what it read, not the file (a 4 MB domain is 4 MB less for as long as the
/// store lives). Two different files that agree on it would be one in 2^128, and the seed is
/// not known outside the process.
package struct ContentDigest: Sendable, Hashable {
  package let count: Int
  let first: Int
  let second: Int

  /// The digest of `data`.
  package init(_ data: Data) {
    var digester = Digester()
    data.withUnsafeBytes { digester.add($0) }
    self = digester.digest
  }

  init(count: Int, first: Int, second: Int) {
    self.count = count
    self.first = first
    self.second = second
  }
}

/// A ``ContentDigest`` fed in pieces (the same digest however the bytes are cut).
struct Digester {
  private var first = Hasher()
  private var second = Hasher()
  private var count = 0

  init() {
    first.combine(1 as UInt8)
    second.combine(2 as UInt8)
  }

  mutating func add(_ bytes: UnsafeRawBufferPointer) {
    first.combine(bytes: bytes)
    second.combine(bytes: bytes)
    count += bytes.count
  }

  var digest: ContentDigest {
    ContentDigest(count: count, first: first.finalize(), second: second.finalize())
  }
}

extension FileAccess {
  /// A regular file open for reading (refused as ``readFile(_:limit:)`` refuses), closed when
  /// released: for a reader that looks at it before deciding how to read it.
  package final class OpenFile {
    package let path: String
    package let fd: Int32
    /// The size `fstat` gave when it was opened.
    package let size: Int
    private let limit: Int

    fileprivate init(path: String, fd: Int32, size: Int, limit: Int) {
      self.path = path
      self.fd = fd
      self.size = size
      self.limit = limit
    }

    deinit { close(fd) }

    /// Whether the file starts with `prefix` (read with `pread`: the offset is not moved).
    package func starts(with prefix: [UInt8]) -> Bool {
      guard size >= prefix.count else { return false }
      var head = [UInt8](repeating: 0, count: prefix.count)
      let n = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
      return n == prefix.count && head == prefix
    }

    /// The whole file, as ``FileAccess/readFile(_:limit:)`` reads it (from the start).
    package func readAll() throws(Failure) -> Data {
      guard lseek(fd, 0, SEEK_SET) == 0 else {
        throw .io(path: path, reason: FileAccess.errnoText(errno))
      }
      return try FileAccess.readAll(fd, path: path, expected: size, limit: limit)
    }

    /// The digest of the file's bytes, read in 64 KiB pieces: a file that now ends before or
    /// after the size it had when opened is an I/O failure (it changed while read).
    package func digest() throws(Failure) -> ContentDigest {
      var digester = Digester()
      let chunk = 1 << 16
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
      defer { buffer.deallocate() }
      var offset = 0
      while true {
        guard let base = buffer.baseAddress else { break }
        let n = pread(fd, base, chunk, off_t(offset))
        if n < 0 {
          if errno == EINTR { continue }
          throw .io(path: path, reason: FileAccess.errnoText(errno))
        }
        if n == 0 { break }
        digester.add(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        offset += n
        guard offset <= size else { break }
      }
      guard offset == size else {
        throw .io(
          path: path, reason: "changed while it was read (\(size) bytes when opened, now \(offset))"
        )
      }
      return digester.digest
    }

    /// The binary property list of the file, read in windows (never whole in memory): a
    /// failure to read it is this function's error, a document that does not parse its result.
    package func binaryDocument(limits: PlistLimits) throws(Failure) -> Result<
      PlistDocument, PlistError
    > {
      switch PropertyList.readBinary(fileDescriptor: fd, size: size, limits: limits) {
      case .success(let document): return .success(document)
      case .failure(.plist(let error)): return .failure(error)
      case .failure(.io(let code, let offset)):
        throw .io(
          path: path,
          reason: code == 0
            ? "changed while it was read (ended at byte \(offset) of \(size))"
            : "\(FileAccess.errnoText(code)) at byte \(offset)")
      }
    }
  }

  /// `path` open for reading, refused as ``readFile(_:limit:)`` refuses it.
  package static func openForReading(_ path: String, limit: Int) throws(Failure) -> OpenFile {
    let (fd, size) = try openRegularFile(path, limit: limit)
    return OpenFile(path: path, fd: fd, size: size, limit: limit)
  }
}
