#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading files with a size cap and precise errors, and replacing files atomically
/// (temporary file created exclusively in the same folder, flushed, renamed over the target,
/// folder flushed).
package enum FileAccess {
  package enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing at the path.
    case missing(path: String)
    /// The file exists and this process may not read it.
    case denied(path: String)
    /// The path names a folder, not a file.
    case isFolder(path: String)
    case tooLarge(path: String, size: Int, limit: Int)
    case io(path: String, reason: String)
    case cannotCreate(path: String, reason: String)

    /// What went wrong, without the path (for messages that name the file themselves).
    package var reason: String {
      switch self {
      case .missing: "no such file"
      case .denied: "permission denied"
      case .isFolder: "is a folder"
      case .io(_, let reason): reason
      case .tooLarge(_, let size, let limit):
        "\(size) bytes is larger than the \(limit)-byte input limit"
      case .cannotCreate(_, let reason): "cannot create: \(reason)"
      }
    }

    package var description: String {
      switch self {
      case .missing(let path), .denied(let path), .isFolder(let path): "\(path): \(reason)"
      case .tooLarge(let path, let size, let limit):
        "\(path): \(size) bytes is larger than the \(limit)-byte input limit"
      case .io(let path, let reason): "\(path): \(reason)"
      case .cannotCreate(let path, let reason): "\(path): cannot create: \(reason)"
      }
    }

  }

  static func errnoText(_ code: Int32) -> String { String(cString: strerror(code)) }

  /// A Foundation error as a person reads it: the POSIX reason under a `CocoaError` (never its
  /// `CocoaError(code:userInfo:)` dump).
  package static func reason(of error: any Error) -> String {
    if let posix = error as? POSIXError { return errnoText(posix.code.rawValue) }
    if let cocoa = error as? CocoaError, let posix = cocoa.underlying as? POSIXError {
      return errnoText(posix.code.rawValue)
    }
    if let described = (error as? any LocalizedError)?.errorDescription { return described }
    return String(describing: error)
  }

  /// Whether `path` names a folder (following a symbolic link, as `fileExists(atPath:isDirectory:)`).
  package static func isFolder(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }

  /// Writes every byte to `fd`, again after an interruption; the `errno` of a failure, or 0.
  @discardableResult
  package static func writeAll(_ data: Data, to fd: Int32) -> Int32 {
    data.withUnsafeBytes { writeAll($0, to: fd) }
  }

  /// Writes every byte to `fd`, again after an interruption; the `errno` of a failure, or 0.
  @discardableResult
  package static func writeAll(_ raw: UnsafeRawBufferPointer, to fd: Int32) -> Int32 {
    var offset = 0
    while offset < raw.count {
      guard let base = raw.baseAddress else { break }
      let n = write(fd, base + offset, raw.count - offset)
      if n < 0 {
        if errno == EINTR { continue }
        return errno
      }
      offset += n
    }
    return 0
  }

  /// Everything on standard input, refusing more than `limit` bytes.
  package static func readStandardInput(limit: Int) throws(Failure) -> Data {
    try readAll(STDIN_FILENO, path: "standard input", expected: 0, limit: limit)
  }

  /// The file mapped into memory, for a command that only reads it and touches a small part
  /// of it (one key of a large binary file): no copy, and only the pages looked at are read.
  /// Anything that cannot be mapped (an empty or special file) is read as ``readFile(_:limit:)``
  /// reads it. A file truncated in place by another program while it is mapped would stop
  /// this process (SIGBUS) — the writers of preferences (prefs, Foundation, GNUstep) replace a
  /// file by renaming a new one over it, which leaves the mapped one whole — so the writing
  /// commands never use this.
  package static func mapFile(_ path: String, limit: Int) throws(Failure) -> Data {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return try readFile(path, limit: limit) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 else {
      return try readFile(path, limit: limit)
    }
    let size = Int(info.st_size)
    if size > limit { throw .tooLarge(path: path, size: size, limit: limit) }
    // A small file is cheaper to copy than to map (a mapping, its page fault, its unmapping).
    if size < 1 << 16 { return try readAll(fd, path: path, expected: size, limit: limit) }
    guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED
    else {
      return try readFile(path, limit: limit)
    }
    return Data(
      bytesNoCopy: address, count: size,
      deallocator: .custom { pointer, count in munmap(pointer, count) })
  }

  /// The whole file, refusing one larger than `limit` bytes before reading it.
  package static func readFile(_ path: String, limit: Int) throws(Failure) -> Data {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      let code = errno
      switch code {
      case ENOENT, ENOTDIR: throw .missing(path: path)
      case EACCES, EPERM: throw .denied(path: path)
      default: throw .io(path: path, reason: errnoText(code))
      }
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw .io(path: path, reason: errnoText(errno)) }
    if (info.st_mode & S_IFMT) == S_IFDIR { throw .isFolder(path: path) }
    let expected = Int(info.st_size)
    if expected > limit { throw .tooLarge(path: path, size: expected, limit: limit) }
    return try readAll(fd, path: path, expected: expected, limit: limit)
  }

  /// What `fd` holds to its end, in a buffer of `expected` bytes grown as needed.
  private static func readAll(_ fd: Int32, path: String, expected: Int, limit: Int)
    throws(Failure) -> Data
  {
    var data = Data(count: max(expected, 0))
    var total = 0
    while true {
      if total == data.count {
        // At the size fstat gave: a small read says whether there is more (growing the
        // whole buffer to find the end would copy it and hold half as much again).
        let n = withUnsafeTemporaryAllocation(byteCount: 4096, alignment: 1) { probe -> Int in
          guard let base = probe.baseAddress else { return 0 }
          let n = read(fd, base, probe.count)
          // The file grew (or is not a regular file): keep what came, read on.
          if n > 0 { data.append(contentsOf: UnsafeRawBufferPointer(rebasing: probe[0..<n])) }
          return n
        }
        if n < 0 {
          if errno == EINTR { continue }
          throw .io(path: path, reason: errnoText(errno))
        }
        if n == 0 { break }
        total += n
        if total > limit { throw .tooLarge(path: path, size: total, limit: limit) }
        data.count += max(4096, total / 2)
        continue
      }
      let n = data.withUnsafeMutableBytes { raw -> Int in
        guard let base = raw.baseAddress else { return 0 }
        return read(fd, base + total, raw.count - total)
      }
      if n < 0 {
        if errno == EINTR { continue }
        throw .io(path: path, reason: errnoText(errno))
      }
      if n == 0 { break }
      total += n
    }
    data.count = total
    return data
  }

  /// Replaces `path` with `data` atomically: a temporary file created exclusively (mode
  /// 0600, by `mkstemp`, so its name is not predictable) in the same folder, written, flushed
  /// to disk, renamed over the target, and the folder flushed. On any failure the temporary
  /// file is removed and the target is untouched.
  ///
  /// With `durable: false` the flushes are left out: the replacement is still atomic for every
  /// reader, but survives a crash only after a later ``flushFileSystem(containing:)`` (a batch
  /// of many new files flushes once at the end instead of twice per file).
  package static func atomicWrite(_ data: Data, to path: String, durable: Bool = true)
    throws(Failure)
  {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    var template = Array((folder + "/." + url.lastPathComponent + ".tmp-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let base = buffer.baseAddress else { return -1 }
      return mkstemp(base)
    }
    guard fd >= 0 else {
      throw .cannotCreate(path: path, reason: errnoText(errno))
    }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    let temporary = String(
      decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var failure: Failure?
    let written = writeAll(data, to: fd)
    if written != 0 {
      failure = .io(path: path, reason: "writing the temporary file: \(errnoText(written))")
    } else if durable, fsync(fd) != 0 {
      failure = .io(path: path, reason: "flushing the temporary file: \(errnoText(errno))")
    }
    close(fd)
    if failure == nil, rename(temporary, path) != 0 {
      failure = .cannotCreate(path: path, reason: errnoText(errno))
    }
    if let failure {
      unlink(temporary)
      throw failure
    }
    guard durable else { return }
    let dirfd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if dirfd >= 0 {
      fsync(dirfd)
      close(dirfd)
    }
  }

  /// Flushes what was written to disk (`sync`, which on Linux waits for the writes): what a
  /// batch wrote with `durable: false` under `path` is on disk once this returns.
  package static func flushFileSystem(containing path: String) throws(Failure) {
    var info = stat()
    guard stat(path, &info) == 0 else { throw .io(path: path, reason: errnoText(errno)) }
    sync()
  }
}
