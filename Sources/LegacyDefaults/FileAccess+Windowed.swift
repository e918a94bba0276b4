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

/// What tells the bytes of one file from another's without keeping them: their count and two
/// 64-bit lanes, each a chain of bijections over the bytes' 8-byte words (xor the word in,
/// multiply by an odd constant, xor-shift) from a seed drawn once a process. A store keeps
/// this of what it read, not the file (a 4 MB domain is 4 MB less for as long as the store
/// lives). A change of one word always changes both lanes (every step is a bijection of the
/// lane); other changes collide by chance, about one in 2^128, and the seeds are not known
/// outside the process. Not a cryptographic hash: nothing is signed with it.
public struct ContentDigest: Sendable, Hashable {
  /// How many bytes were digested.
  public let count: Int
  let first: UInt64
  let second: UInt64

  /// The digest of `data`.
  public init(_ data: Data) {
    var digester = Digester()
    digester.add(data)
    self = digester.digest
  }

  init(count: Int, first: UInt64, second: UInt64) {
    self.count = count
    self.first = first
    self.second = second
  }
}

/// A ``ContentDigest`` fed in pieces (the same digest however the bytes are cut).
struct Digester {
  /// The process's seeds.
  private static let seeds = (UInt64.random(in: .min ... .max), UInt64.random(in: .min ... .max))
  private var first = Digester.seeds.0
  private var second = Digester.seeds.1
  private var count = 0
  /// Bytes of a word not yet complete (little-endian), and how many.
  private var pending: UInt64 = 0
  private var pendingCount = 0

  @inline(__always)
  private mutating func mix(_ word: UInt64) {
    first = (first ^ word) &* 0x9E37_79B9_7F4A_7C15
    first ^= first >> 29
    second = (second ^ word) &* 0xC2B2_AE3D_27D4_EB4F
    second ^= second >> 31
  }

  /// The next bytes (a `Data`, an array or a slice of one).
  mutating func add(_ bytes: some ContiguousBytes) {
    // A word begun by the last piece is finished byte by byte, then whole words are mixed
    // as they are loaded, and the bytes after the last whole word wait for the next piece.
    let prefix = pendingCount > 0 ? 8 - pendingCount : 0
    count += SystemCalls.readWords(
      of: bytes, bytesFirst: prefix,
      byte: { byte in
        pending |= UInt64(byte) << (8 * UInt64(pendingCount))
        pendingCount += 1
        if pendingCount == 8 {
          mix(pending)
          pending = 0
          pendingCount = 0
        }
      },
      word: { mix($0) })
  }

  var digest: ContentDigest {
    var last = self
    // The tail word, then the count: "ab" and "ab\0" differ.
    if last.pendingCount > 0 { last.mix(last.pending) }
    last.mix(UInt64(count))
    return ContentDigest(count: count, first: last.first, second: last.second)
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
    /// Its owner, group and mode, from `fstat` when it was opened.
    package let ownership: Ownership
    /// Its identity, size and modification time when it was opened.
    let stamp: FileStamp
    let limit: Int

    init(path: String, fd: Int32, info: stat, limit: Int) {
      self.path = path
      self.fd = fd
      self.size = Int(info.st_size)
      self.ownership = Ownership(user: info.st_uid, group: info.st_gid, mode: info.st_mode)
      self.stamp = FileStamp(info)
      self.limit = limit
    }

    deinit { close(fd) }

    /// Whether the file starts with `prefix` (read with `pread`: the offset is not moved).
    package func starts(with prefix: [UInt8]) -> Bool {
      guard size >= prefix.count else { return false }
      var head = [UInt8](repeating: 0, count: prefix.count)
      return SystemCalls.pread(fd, into: &head, at: 0) == prefix.count && head == prefix
    }

    /// The whole file, up to the limit (a file that grew while read is refused once past
    /// it). Read once, from the start: every other read of an open file is a `pread`, which
    /// leaves the offset where `open` put it. A file another user may write
    /// (``othersMayWrite``: root reading a user's file) whose stamp moved while it was read
    /// (its owner rewrote it in place, even with its modification time put back: the change
    /// time moves) is reported as changed, never answered half old and half new.
    package func readAll() throws(Failure) -> Data {
      let data = try FileAccess.readAll(fd, path: path, expected: size, limit: limit)
      if othersMayWrite { try checkUnchanged() }
      return data
    }

    /// Whether anyone but this process's own user may change the file's bytes: its owner is
    /// another user (root reading a user's file, as that user or not: the owner may rewrite it
    /// in place at any time, and may give itself the write bit), or its group or everyone may
    /// write it. Such a file is read into private memory, never mapped: a mapping would go on
    /// showing whatever its writer puts there after the read was checked.
    var othersMayWrite: Bool {
      ownership.user != Credentials.process.user || ownership.mode & (S_IWGRP | S_IWOTH) != 0
    }

    /// Throws when the file's stamp (identity, size, modification and change time) is not
    /// the one it had when it was opened: a writer changed it in place while it was read.
    func checkUnchanged() throws(Failure) {
      var info = stat()
      guard fstat(fd, &info) == 0 else { throw .io(path: path, reason: errnoText(errno)) }
      guard FileStamp(info) == stamp else {
        throw .io(path: path, reason: "it changed while it was read")
      }
    }

    /// The digest of the file's bytes, read in 64 KiB pieces; nil when the file now ends
    /// before or after the size it had when opened (a writer is changing it in place: the
    /// caller reads it whole, as it reads any other file, and judges what it finds).
    package func digest() throws(Failure) -> ContentDigest? {
      var digester = Digester()
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      var offset = 0
      while true {
        let n = SystemCalls.pread(fd, into: &buffer, at: offset)
        if n < 0 { throw .io(path: path, reason: FileAccess.errnoText(errno)) }
        if n == 0 { break }
        digester.add(buffer[..<n])
        offset += n
        guard offset <= size, n == buffer.count else { break }
      }
      return offset == size ? digester.digest : nil
    }

    /// The binary property list of the file, read in windows (never whole in memory): a
    /// failure to read it is this function's error, a document that does not parse its
    /// result; nil when the file ended before the size it had when opened (changed in place
    /// while read: the caller reads it whole, as ``digest()`` says).
    package func binaryDocument(limits: PlistLimits, options: PlistReadOptions = .lenient)
      throws(Failure) -> Result<PlistDocument, PlistError>?
    {
      let file = DescriptorBytes(fd: fd)
      switch PropertyList.readBinary(from: file, size: size, limits: limits, options: options) {
      case .success(let document): return .success(document)
      case .failure(.plist(let error)): return .failure(error)
      case .failure(.short):
        guard let (code, offset) = file.failure, code != 0 else { return nil }
        throw .io(path: path, reason: "\(FileAccess.errnoText(code)) at byte \(offset)")
      }
    }
  }

  /// `path` open for reading, refused as ``readFile(_:limit:)`` refuses it.
  package static func openForReading(_ path: String, limit: Int) throws(Failure) -> OpenFile {
    let (fd, info) = try openRegularFile(path, limit: limit)
    return OpenFile(path: path, fd: fd, info: info, limit: limit)
  }
}
