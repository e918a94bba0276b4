internal import CSystemCalls
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

/// The system calls and C library functions that read or fill memory, as safe Swift: each
/// takes and gives arrays, `Data` and strings, and checks every count it hands the system
/// against the memory it names. With `Locked.swift` (the lock and the threads) and
/// `PropertyList`'s byte view, the only code of the package that touches raw pointers
/// (`Docs/architecture.md`, "Raw memory"): everything else calls these.
///
/// A system call that takes only scalars, or a structure it fills (`fstat`, `poll`, `pipe`),
/// is made where it is needed; one that reads or writes a buffer is made here.
package enum SystemCalls {
  /// The `errno` of a call that failed.
  package struct Errno: Error, Sendable, Hashable {
    package var code: Int32
    /// The calling thread's `errno` now.
    static var current: Errno { Errno(code: errno) }
  }

  // MARK: Descriptors

  /// Writes every byte of `data` to `fd`, again after an interruption; the `errno` of a
  /// failure, or 0.
  @discardableResult
  package static func writeAll(_ data: Data, to fd: Int32) -> Int32 {
    data.withUnsafeBytes { writeAll($0, to: fd) }
  }

  /// Writes the UTF-8 of `text` to `fd` (a native string's bytes in place); as
  /// ``writeAll(_:to:)-(Data,_)``.
  @discardableResult
  package static func writeAll(_ text: String, to fd: Int32) -> Int32 {
    var text = text
    return text.withUTF8 { writeAll(UnsafeRawBufferPointer($0), to: fd) }
  }

  private static func writeAll(_ raw: UnsafeRawBufferPointer, to fd: Int32) -> Int32 {
    guard let base = raw.baseAddress else { return 0 }
    var offset = 0
    while offset < raw.count {
      let n = write(fd, base + offset, raw.count - offset)
      if n < 0 {
        if errno == EINTR { continue }
        return errno
      }
      offset += n
    }
    return 0
  }

  /// One `read` of `fd` into `data` from byte `offset` to its end: what `read` returned (the
  /// bytes read, 0 at the end, -1 with `errno` set).
  package static func read(_ fd: Int32, into data: inout Data, from offset: Int) -> Int {
    precondition(offset >= 0 && offset <= data.count, "a read outside its buffer")
    guard offset < data.count else { return 0 }
    return data.withUnsafeMutableBytes { raw -> Int in
      guard let base = raw.baseAddress else { return 0 }
      return cRead(fd, base + offset, raw.count - offset)
    }
  }

  /// `pread` into all of `buffer` from the file's byte `offset`, again after an interruption
  /// and after a short read, until the buffer is full or the file ends: how many bytes came
  /// (fewer at the end of the file), or -1 with `errno` set when none could be read.
  package static func pread(_ fd: Int32, into buffer: inout [UInt8], at offset: Int) -> Int {
    buffer.withUnsafeMutableBytes { raw -> Int in
      fillWithPread(fd, raw, at: offset).done
    }
  }

  /// `pread` into `buffer` until it is full: the bytes read, and the `errno` of the read that
  /// stopped short (0 when the file ended).
  fileprivate static func fillWithPread(
    _ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, at offset: Int
  ) -> (done: Int, errno: Int32) {
    guard let base = buffer.baseAddress else { return (0, 0) }
    var done = 0
    while done < buffer.count {
      let n = cPread(fd, base + done, buffer.count - done, off_t(offset + done))
      if n > 0 {
        done += n
        continue
      }
      if n < 0, errno == EINTR { continue }
      if n < 0, done == 0 { return (-1, errno) }
      return (done, n < 0 ? errno : 0)
    }
    return (done, 0)
  }

  /// A buffer of `count` zero bytes for a large file (2 MiB and more), in memory of its own
  /// that the kernel may back with huge pages: reading a 4 MB domain into ordinary pages
  /// faults about a thousand of them in one by one, more than half of `prefs read FILE KEY`'s
  /// time. Nil for a smaller file, or when the memory cannot be had (the caller allocates as
  /// usual). The buffer is read into, never mapped from the file (a file truncated meanwhile
  /// can never fault the process).
  package static func largeBuffer(count: Int) -> Data? {
    #if os(Linux)
      let hugePage = 2 << 20
      guard count >= hugePage else { return nil }
      let size = (count + hugePage - 1) / hugePage * hugePage
      // Twice the alignment, so that a 2 MiB-aligned region of `size` bytes lies inside.
      guard
        let raw = mmap(
          nil, size + hugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
        raw != MAP_FAILED
      else { return nil }
      let start = Int(bitPattern: raw)
      let aligned = (start + hugePage - 1) / hugePage * hugePage
      if aligned > start { munmap(raw, aligned - start) }
      let tail = aligned + size
      let end = start + size + hugePage
      if end > tail, let pointer = UnsafeMutableRawPointer(bitPattern: tail) {
        munmap(pointer, end - tail)
      }
      guard let base = UnsafeMutableRawPointer(bitPattern: aligned) else { return nil }
      _ = madvise(base, size, MADV_HUGEPAGE)
      return Data(
        bytesNoCopy: base, count: count, deallocator: .custom { _, _ in munmap(base, size) })
    #else
      return nil
    #endif
  }

  /// The `size` bytes of the open file `fd` mapped read-only under the C module's guard
  /// (`prefs_guarded_map`: a page the file no longer backs reads as zeros instead of ending
  /// the process with SIGBUS), as `Data` that unmaps them when its last copy goes; nil when
  /// the system would not map it or another guarded mapping is live (one at a time in a
  /// process). What is read through it is the file's only once `prefs_guarded_faults()` says
  /// no page faulted (``FileAccess/MappedFile/verify()``).
  static func guardedMapping(_ fd: Int32, size: Int) -> Data? {
    var address: UnsafeRawPointer?
    guard size > 0, prefs_guarded_map(fd, UInt(size), &address) == 0, let address else {
      return nil
    }
    return Data(
      bytesNoCopy: UnsafeMutableRawPointer(mutating: address), count: size,
      deallocator: .custom { _, _ in _ = prefs_guarded_unmap() })
  }

  // MARK: Folders and paths

  /// Calls `body` with the name (its bytes, without the NUL), type (`DT_REG`, `DT_DIR`, …,
  /// `DT_UNKNOWN`) and inode of each entry of the folder open as `fd` but `.` and `..`, in the
  /// order the system lists them; false when it cannot be listed (`errno` set). Takes `fd`:
  /// it is closed before this returns. `body` is given one array, reused from name to name
  /// (nothing is allocated for a name `body` does not keep).
  package static func listFolder(
    _ fd: Int32, _ body: (_ name: [UInt8], _ type: UInt8, _ inode: UInt64) -> Void
  ) -> Bool {
    guard let dir = fdopendir(fd) else {
      let code = errno
      close(fd)
      errno = code
      return false
    }
    defer { closedir(dir) }
    var name: [UInt8] = []
    name.reserveCapacity(256)
    while let entry = readdir(dir) {
      name.removeAll(keepingCapacity: true)
      withUnsafeBytes(of: &entry.pointee.d_name) { raw in
        guard let base = raw.baseAddress else { return }
        name.append(
          contentsOf: UnsafeRawBufferPointer(start: base, count: strnlen(base, raw.count)))
      }
      let dots = name.count <= 2 && name.allSatisfy { $0 == UInt8(ascii: ".") }
      if !dots { body(name, entry.pointee.d_type, UInt64(entry.pointee.d_ino)) }
    }
    return true
  }

  /// The current folder's bytes (`getcwd`: absolute, without links or `.`), nil when it
  /// cannot be named (removed, or too long).
  static func currentFolder() -> [UInt8]? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let named = buffer.withUnsafeMutableBufferPointer { raw -> Bool in
      guard let base = raw.baseAddress else { return false }
      return getcwd(base, raw.count) != nil
    }
    guard named, let end = buffer.firstIndex(of: 0) else { return nil }
    return buffer[..<end].map { UInt8(bitPattern: $0) }
  }

  /// A new file made from `template` (its `XXXXXX` before the last `suffixLength` bytes
  /// replaced: `mkstemps`, mode 0600, created exclusively): its descriptor and path, or the
  /// `errno` of the failure.
  package static func makeTemporaryFile(template: String, suffixLength: Int) -> Result<
    (fd: Int32, path: String), Errno
  > {
    var chars = Array(template.utf8CString)
    let fd = chars.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let base = buffer.baseAddress else { return -1 }
      return mkstemps(base, Int32(suffixLength))
    }
    guard fd >= 0 else { return .failure(.current) }
    return .success(
      (fd, String(decoding: chars.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)))
  }

  // MARK: Processes and accounts

  /// Starts the program at `arguments[0]` with `arguments` (`posix_spawn`: the program's path
  /// included, as its `argv[0]`) and `environment` (`NAME=value`), and waits for it: its exit
  /// status, 128 + the signal that ended it, or 127 when it could not be started.
  package static func spawnAndWait(_ arguments: [String], environment: [String]) -> Int32 {
    guard let program = arguments.first else { return 127 }
    var pid = pid_t()
    let argvStrings = arguments.map { strdup($0) }
    let envpStrings = environment.map { strdup($0) }
    defer { for pointer in argvStrings + envpStrings { free(pointer) } }
    var argv = argvStrings + [nil]
    var envp = envpStrings + [nil]
    let spawned = argv.withUnsafeMutableBufferPointer { a in
      envp.withUnsafeMutableBufferPointer { e -> Int32 in
        guard let argv = a.baseAddress, let envp = e.baseAddress else { return -1 }
        return posix_spawn(&pid, program, nil, nil, argv, envp)
      }
    }
    guard spawned == 0 else { return 127 }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      if errno != EINTR { return 127 }
    }
    if status & 0x7f == 0 { return (status >> 8) & 0xff }
    return 128 + (status & 0x7f)
  }

  #if os(Linux)
    /// What `/usr/bin/getent DATABASE KEY` printed (at most `capacity` bytes) and its exit
    /// status, through the C module's `prefs_getent` (its own process, `timeout`
    /// milliseconds); the `errno` of a failure to run it.
    static func getent(_ database: String, _ key: String, capacity: Int, timeout: Int32)
      -> Result<(output: [UInt8], status: Int32), Errno>
    {
      var buffer = [CChar](repeating: 0, count: capacity)
      var status: Int32 = -1
      let length = buffer.withUnsafeMutableBufferPointer { raw -> Int in
        guard let base = raw.baseAddress else { return -1 }
        return Int(prefs_getent(database, key, base, UInt(raw.count), timeout, &status))
      }
      guard length >= 0, length <= capacity else {
        return .failure(.current)
      }
      return .success((buffer[..<length].map { UInt8(bitPattern: $0) }, status))
    }
  #endif

  /// The calling thread's supplementary groups (`getgroups`).
  static func supplementaryGroups() -> [gid_t] {
    let count = getgroups(0, nil)
    var groups = [gid_t](repeating: 0, count: Int(max(count, 0)))
    let got = groups.withUnsafeMutableBufferPointer { getgroups(Int32($0.count), $0.baseAddress) }
    return Array(groups.prefix(Int(max(got, 0))))
  }

  #if os(Linux)
    /// Gives the calling thread alone the supplementary groups `groups`
    /// (`prefs_thread_setgroups`): 0, or -1 with `errno` set.
    static func setThreadGroups(_ groups: [gid_t]) -> Int32 {
      groups.withUnsafeBufferPointer { prefs_thread_setgroups(UInt($0.count), $0.baseAddress) }
    }
  #endif

  // MARK: Text

  /// `value` as C's `printf` formats it with `format` (one conversion of a double: `%f`,
  /// `%0.16g`), or nil when it does not fit in 512 bytes.
  package static func printf(_ format: String, _ value: Double) -> String? {
    var buffer = [CChar](repeating: 0, count: 512)
    let count = withVaList([value]) { arguments in
      buffer.withUnsafeMutableBufferPointer { raw -> Int32 in
        guard let base = raw.baseAddress else { return -1 }
        return vsnprintf(base, raw.count, format, arguments)
      }
    }
    guard count >= 0, Int(count) < buffer.count else { return nil }
    return String(decoding: buffer[..<Int(count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  // MARK: Memory read as words

  /// `bytes` read in order: the first `prefix` bytes one by one, then as many little-endian
  /// 8-byte words as fit (each loaded once, unaligned), then the bytes left over one by one:
  /// how the digest reads a file's bytes. Returns how many bytes there were.
  @inline(__always)
  static func readWords(
    of bytes: some ContiguousBytes, bytesFirst prefix: Int, byte: (UInt8) -> Void,
    word: (UInt64) -> Void
  ) -> Int {
    bytes.withUnsafeBytes { raw in
      let n = raw.count
      var i = 0
      while i < n, i < prefix {
        byte(raw[i])
        i += 1
      }
      while i + 8 <= n {
        word(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
        i += 8
      }
      while i < n {
        byte(raw[i])
        i += 1
      }
      return n
    }
  }
}

// The C library's `read` and `pread`, named apart from `SystemCalls`' own.
@inline(__always)
private func cRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(fd, buffer, count)
}

@inline(__always)
private func cPread(
  _ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: off_t
) -> Int {
  pread(fd, buffer, count, offset)
}

// MARK: - Reads the other layers are given

extension FileAccess {
  /// An open file's bytes, read with `pread` for the property-list layer's windowed read
  /// (its `ByteSource`): the first read that came back short, and why, kept for the caller.
  final class DescriptorBytes: ByteSource {
    private let fd: Int32
    /// The first short read: its errno (0 when the file ended early) and where it stopped.
    private(set) var failure: (errno: Int32, offset: Int)?

    init(fd: Int32) { self.fd = fd }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
      let (done, code) = SystemCalls.fillWithPread(fd, buffer, at: offset)
      let read = max(done, 0)
      if read < buffer.count, failure == nil { failure = (code, offset + read) }
      return read
    }
  }
}

#if canImport(Glibc) || canImport(Musl)
  extension SystemCalls {
    /// One event of an inotify queue.
    package struct InotifyEvent: Sendable, Hashable {
      /// The watch it is for.
      package var watch: Int32
      package var mask: UInt32
      /// The name in the watched folder it is about (nil: the folder itself).
      package var name: String?
    }

    /// One `read` of the inotify queue `queue` (again after an interruption): the events it
    /// returned, empty when none were queued (a non-blocking queue) or the read failed.
    package static func inotifyEvents(_ queue: Int32) -> [InotifyEvent] {
      var events: [InotifyEvent] = []
      // Room for many events at once (each is 16 bytes and its NUL-padded name).
      withUnsafeTemporaryAllocation(byteCount: 64 * 1024, alignment: 8) { buffer in
        guard let base = buffer.baseAddress else { return }
        var count = 0
        repeat { count = cRead(queue, base, buffer.count) } while count < 0 && errno == EINTR
        let raw = UnsafeRawBufferPointer(start: base, count: max(count, 0))
        var offset = 0
        while offset + 16 <= raw.count {
          let watch = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
          let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
          let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
          var name: String?
          if length > 0, offset + 16 + length <= raw.count {
            let bytes = raw[(offset + 16)..<(offset + 16 + length)]
            name = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
          }
          events.append(InotifyEvent(watch: watch, mask: mask, name: name))
          offset += 16 + length
        }
      }
      return events
    }
  }
#endif
