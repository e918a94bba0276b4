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

/// Reading files with a size cap and precise errors. (Files are written in a held folder:
/// ``HeldFolder/replace(_:with:ownership:durable:replacing:)``.)
package enum FileAccess {
  package enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing at the path.
    case missing(path: String)
    /// The file exists and this process may not read it.
    case denied(path: String)
    /// The path names a folder, not a file.
    case isFolder(path: String)
    /// The path names something that is not a regular file (a FIFO, a socket, a device):
    /// refused before a byte is read, so that nothing waits on it or reads it without end.
    case notRegular(path: String, kind: String)
    case tooLarge(path: String, size: Int, limit: Int)
    case io(path: String, reason: String)
    case cannotCreate(path: String, reason: String)
    /// Refused for what it is, whatever this process may do: a symbolic link where a file or
    /// folder must be, a link a user could have planted on the way, a user's folder holding
    /// a file that is not the user's.
    case refused(path: String, reason: String)

    /// The same failure of the file as the caller named it (`path`).
    package func named(_ path: String) -> Failure {
      switch self {
      case .missing: .missing(path: path)
      case .denied: .denied(path: path)
      case .isFolder: .isFolder(path: path)
      case .notRegular(_, let kind): .notRegular(path: path, kind: kind)
      case .tooLarge(_, let size, let limit): .tooLarge(path: path, size: size, limit: limit)
      case .io(_, let reason): .io(path: path, reason: reason)
      case .cannotCreate(_, let reason): .cannotCreate(path: path, reason: reason)
      case .refused(_, let reason): .refused(path: path, reason: reason)
      }
    }

    /// What went wrong, without the path (for messages that name the file themselves).
    package var reason: String {
      switch self {
      case .missing: "no such file"
      case .denied: "permission denied"
      case .isFolder: "is a folder"
      case .notRegular(_, let kind): "is \(kind), not a regular file"
      case .io(_, let reason): reason
      case .tooLarge(_, let size, let limit):
        "\(size) bytes is larger than the \(limit)-byte input limit"
      case .cannotCreate(_, let reason): "cannot create: \(reason)"
      case .refused(_, let reason): "refused: \(reason)"
      }
    }

    package var description: String {
      switch self {
      case .missing(let path), .denied(let path), .isFolder(let path), .notRegular(let path, _):
        "\(path): \(reason)"
      case .tooLarge(let path, let size, let limit):
        "\(path): \(size) bytes is larger than the \(limit)-byte input limit"
      case .io(let path, let reason): "\(path): \(reason)"
      case .cannotCreate(let path, let reason): "\(path): cannot create: \(reason)"
      case .refused(let path, let reason): "\(path): refused: \(reason)"
      }
    }

  }

  package static func errnoText(_ code: Int32) -> String { String(cString: strerror(code)) }

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
    SystemCalls.writeAll(data, to: fd)
  }

  /// Everything on standard input, refusing more than `limit` bytes.
  package static func readStandardInput(limit: Int) throws(Failure) -> Data {
    try readAll(STDIN_FILENO, path: "standard input", expected: 0, limit: limit)
  }

  /// Opens `path` for reading without waiting on it (`O_NONBLOCK`: a FIFO planted where a
  /// file was expected opens at once) and checks, before a byte is read, that it is a regular
  /// file no larger than `limit`. Returns the descriptor (close-on-exec) and the file's size.
  static func openRegularFile(_ path: String, limit: Int) throws(Failure) -> (
    fd: Int32, info: stat
  ) {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
    guard fd >= 0 else {
      let code = errno
      switch code {
      case ENOENT, ENOTDIR: throw .missing(path: path)
      case EACCES, EPERM: throw .denied(path: path)
      case ENXIO: throw .notRegular(path: path, kind: "a socket or a device")
      default: throw .io(path: path, reason: errnoText(code))
      }
    }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let code = errno
      close(fd)
      throw .io(path: path, reason: errnoText(code))
    }
    let kind = info.st_mode & S_IFMT
    guard kind == S_IFREG else {
      close(fd)
      if kind == S_IFDIR { throw .isFolder(path: path) }
      throw .notRegular(path: path, kind: kindName(kind))
    }
    let size = Int(info.st_size)
    if size > limit {
      close(fd)
      throw .tooLarge(path: path, size: size, limit: limit)
    }
    return (fd, info)
  }

  /// What a file that is not a regular file is, for messages.
  static func kindName(_ kind: mode_t) -> String {
    switch kind {
    case S_IFIFO: "a FIFO (named pipe)"
    case S_IFSOCK: "a socket"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFLNK: "a symbolic link"
    case S_IFDIR: "a folder"
    default: "not a regular file"
    }
  }

  /// The whole file, refusing anything but a regular file (a FIFO, a socket, a device: named
  /// and refused before a byte is read) and a file larger than `limit` bytes before reading
  /// it. A file that grows while it is read is refused as soon as it passes the limit: a read
  /// never holds more than `limit` bytes.
  ///
  /// Preferences files are read here, never mapped: a mapped file that another program
  /// truncates in place would end this process with SIGBUS (the command's large inputs are
  /// mapped under a guard that contains it: ``OpenFile/mapped()``).
  package static func readFile(_ path: String, limit: Int) throws(Failure) -> Data {
    try openForReading(path, limit: limit).readAll()
  }

  /// What `fd` holds to its end, in a buffer of `expected` bytes grown as needed, never
  /// beyond `limit` bytes (one more byte read says the input is larger).
  static func readAll(_ fd: Int32, path: String, expected: Int, limit: Int)
    throws(Failure) -> Data
  {
    var data =
      SystemCalls.largeBuffer(count: min(max(expected, 0), limit))
      ?? Data(count: min(max(expected, 0), limit))
    var total = 0
    while true {
      if total == data.count {
        // At the size fstat gave: a one-byte read says whether there is more (growing the
        // whole buffer to find the end would copy it and hold half as much again; a larger
        // probe on the stack would have the runtime read /proc/self/maps to check the stack).
        var probe: UInt8 = 0
        let n = read(fd, &probe, 1)
        // The file grew (or is not a regular file): keep what came, read on.
        if n > 0, total + n <= limit { data.append(probe) }
        if n < 0 {
          if errno == EINTR { continue }
          if errno == EAGAIN { throw .io(path: path, reason: "no data to read (not a file)") }
          throw .io(path: path, reason: errnoText(errno))
        }
        if n == 0 { break }
        total += n
        if total > limit { throw .tooLarge(path: path, size: total, limit: limit) }
        data.count = min(limit, data.count + max(4096, total / 2))
        continue
      }
      let n = SystemCalls.read(fd, into: &data, from: total)
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

  /// Who owns a file prefs writes, and its permission bits.
  ///
  /// A file prefs replaces keeps its owner, group and mode; a new file goes to the owner of
  /// its folder when that is not this process's user (an administrator writing into a user's
  /// preferences folder), with mode 0600. Changing the owner needs privileges only when it
  /// differs, so an unprivileged writer, whose files are its own, is unaffected.
  package struct Ownership: Sendable, Hashable {
    package var user: uid_t
    package var group: gid_t
    /// The permission bits (`0o644`); set-id and sticky bits are never copied.
    package var mode: mode_t

    package init(user: uid_t, group: gid_t, mode: mode_t) {
      self.user = user
      self.group = group
      self.mode = mode & 0o777
    }

    /// A new file's in the held folder `folder`: the folder's owner and group when the
    /// folder is not the user's whom this thread works as, else this thread's; mode `mode`.
    /// (Root working in a user's folder works as the user: the new file is the user's.)
    package static func newFile(in folder: HeldFolder, mode: mode_t = 0o600) -> Ownership {
      if folder.owner != geteuid() {
        return Ownership(user: folder.owner, group: folder.group, mode: mode)
      }
      return Ownership(user: geteuid(), group: getegid(), mode: mode)
    }

    /// Gives the open file `fd` this owner (when it differs) and mode. Without the
    /// privilege to give a file away (`EPERM`), the group alone is tried, then the file stays
    /// this process's user's: a writer that may replace another user's file (a shared,
    /// group-writable folder) still writes it, as every atomic writer does.
    package func apply(to fd: Int32) -> Int32 {
      var info = stat()
      guard fstat(fd, &info) == 0 else { return errno }
      if info.st_uid != user || info.st_gid != group {
        if fchown(fd, user, group) != 0 {
          let code = errno
          guard code == EPERM else { return code }
          if info.st_gid != group, fchown(fd, uid_t.max, group) != 0, errno != EPERM {
            return errno
          }
        }
      }
      if info.st_mode & 0o7777 != mode, fchmod(fd, mode) != 0 { return errno }
      return 0
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
