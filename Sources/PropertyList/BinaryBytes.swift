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

/// The bytes a binary property list is read from: a buffer in memory, or an open file read
/// in windows (``FileWindows``). The reader checks every range against `count` before it
/// asks for it.
protocol BinaryBytes {
  var count: Int { get }
  subscript(position: Int) -> UInt8 { get }
  /// The bytes of `range`, contiguous, for the length of `body`.
  func withBytes<R>(_ range: Range<Int>, _ body: (UnsafeRawBufferPointer) -> R) -> R
}

extension UnsafeRawBufferPointer: BinaryBytes {
  @inline(__always)
  func withBytes<R>(_ range: Range<Int>, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    body(UnsafeRawBufferPointer(rebasing: self[range]))
  }
}

/// A file read in windows as the reader walks it, so that a large domain is parsed without
/// the whole file in memory beside the values it becomes (#22 rules out mapping it: a file
/// cut short under a mapping is a SIGBUS, here it is an error).
///
/// The windows are pages of `pageSize` bytes, the `slots` used last kept (the reader walks a
/// handful of streams at once: the references, the offset table, the keys, the values, each
/// in file order for the files CoreFoundation, GNUstep and prefs write). A range that spans
/// pages is read on its own. A file whose walk would read it over and over (objects in a
/// random order, a hostile file) is read whole once the pages read reach four times its
/// size, so that no file costs more than five reads of itself.
///
/// A read that fails or comes back short (the file was cut while read) is kept in
/// ``failure``, and the bytes asked for read as zeros: the caller reports the failure,
/// whatever the reader made of them.
final class FileWindows: BinaryBytes {
  let count: Int
  private let fd: Int32
  private let pageShift: Int
  private let pageSize: Int
  private let slots: Int
  /// The page each slot holds (-1: none), and when it was used last.
  private var pages: [Int]
  private var used: [UInt64]
  private var clock: UInt64 = 0
  private let buffer: UnsafeMutableRawPointer
  /// The slot of the last page asked for, and its page.
  private var lastSlot = 0
  private var lastPage = -1
  /// The whole file, once the pages read reach `budget`.
  private var whole: UnsafeMutableRawPointer?
  private var readSoFar = 0
  private let budget: Int
  /// The first read that failed: its errno (0 when the file ended early) and offset.
  private(set) var failure: (errno: Int32, offset: Int)?

  /// `fd` open for reading, `count` its size as `fstat` gave it; `budget`: the bytes read in
  /// pages after which the file is read whole (four times its size and 1 MiB).
  init(fd: Int32, count: Int, pageShift: Int = 14, slots: Int = 16, budget: Int? = nil) {
    self.fd = fd
    self.count = count
    self.pageShift = pageShift
    self.pageSize = 1 << pageShift
    self.slots = slots
    pages = Array(repeating: -1, count: slots)
    used = Array(repeating: 0, count: slots)
    buffer = UnsafeMutableRawPointer.allocate(byteCount: slots << pageShift, alignment: 16)
    self.budget = budget ?? 4 * count + (1 << 20)
  }

  deinit {
    buffer.deallocate()
    whole?.deallocate()
  }

  /// Whether the file was read whole (its walk went back and forth too much).
  var readWhole: Bool { whole != nil }

  /// Reads `length` bytes at `offset` into `into`; a failure is kept, the rest zeroed.
  private func read(_ into: UnsafeMutableRawPointer, _ length: Int, at offset: Int) {
    var done = 0
    while done < length {
      let n = pread(fd, into + done, length - done, off_t(offset + done))
      if n > 0 {
        done += n
        continue
      }
      if n < 0, errno == EINTR { continue }
      if failure == nil { failure = (n < 0 ? errno : 0, offset + done) }
      break
    }
    if done < length {
      (into + done).initializeMemory(as: UInt8.self, repeating: 0, count: length - done)
    }
    readSoFar += length
  }

  /// The slot holding `page`, read into the least recently used slot if none does.
  @inline(__always)
  private func slot(of page: Int) -> Int {
    if page == lastPage { return lastSlot }
    return fault(page)
  }

  private func fault(_ page: Int) -> Int {
    clock &+= 1
    if let hit = pages.firstIndex(of: page) {
      used[hit] = clock
      lastSlot = hit
      lastPage = page
      return hit
    }
    var victim = 0
    for s in 1..<slots where used[s] < used[victim] { victim = s }
    let start = page << pageShift
    read(buffer + (victim << pageShift), min(pageSize, count - start), at: start)
    pages[victim] = page
    used[victim] = clock
    lastSlot = victim
    lastPage = page
    if readSoFar > budget { readAll() }
    return victim
  }

  private func readAll() {
    let all = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 16)
    read(all, count, at: 0)
    whole = all
  }

  subscript(position: Int) -> UInt8 {
    @inline(__always) get {
      if let whole { return whole.load(fromByteOffset: position, as: UInt8.self) }
      let slot = slot(of: position >> pageShift)
      return buffer.load(
        fromByteOffset: slot << pageShift | position & (pageSize - 1), as: UInt8.self)
    }
  }

  func withBytes<R>(_ range: Range<Int>, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    if let whole {
      return body(UnsafeRawBufferPointer(start: whole + range.lowerBound, count: range.count))
    }
    guard !range.isEmpty else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
    let page = range.lowerBound >> pageShift
    if (range.upperBound - 1) >> pageShift == page {
      let slot = slot(of: page)
      let start = buffer + (slot << pageShift | range.lowerBound & (pageSize - 1))
      return body(UnsafeRawBufferPointer(start: start, count: range.count))
    }
    // Across pages: read on its own (a long string or data), counted in the budget.
    let own = UnsafeMutableRawPointer.allocate(byteCount: range.count, alignment: 16)
    defer { own.deallocate() }
    read(own, range.count, at: range.lowerBound)
    let result = body(UnsafeRawBufferPointer(start: own, count: range.count))
    if readSoFar > budget, whole == nil { readAll() }
    return result
  }
}

/// Constants of Apple's `bplist00` format.
enum BinaryPlist {
  static let magic: [UInt8] = Array("bplist00".utf8)
  static let trailerSize = 32
}

/// The binary reader of a buffer in memory (files read whole, `Data`).
typealias BinaryMemoryReader = BinaryPlistReader<UnsafeRawBufferPointer>

/// Why a binary file read in windows could not be read: the property list's error, or a read
/// of the file that failed (`errno` 0: the file ended before the size it had when opened).
package enum WindowedReadFailure: Error, Sendable, Equatable {
  case plist(PlistError)
  case io(errno: Int32, offset: Int)
}

extension PropertyList {
  /// A binary property list read from an open file in windows (``FileWindows``): the
  /// document ``read(_:limits:)`` gives for the file's bytes, without the whole file in
  /// memory beside it. `size` is the file's size when opened; a read that fails, or a file
  /// that is shorter by now, is ``WindowedReadFailure/io(errno:offset:)`` whatever the parse
  /// made of it. `pageShift` and `slots` shape the windows (tests use small ones).
  package static func readBinary(
    fileDescriptor fd: Int32, size: Int, limits: PlistLimits = .default, pageShift: Int = 14,
    slots: Int = 16
  ) -> Result<PlistDocument, WindowedReadFailure> {
    guard size <= limits.maxInputBytes else {
      return .failure(
        .plist(
          .limitExceeded(
            format: .binary, at: .byteOffset(limits.maxInputBytes),
            limit: .inputBytes(limits.maxInputBytes))))
    }
    let windows = FileWindows(
      fd: fd, count: size, pageShift: max(pageShift, 4), slots: max(slots, 2))
    let parsed = Result { () throws(PlistError) in
      try BinaryPlistReader.read(windows, limits: limits)
    }
    if let failure = windows.failure {
      return .failure(.io(errno: failure.errno, offset: failure.offset))
    }
    switch parsed {
    case .success(let (value, warnings)):
      return .success(PlistDocument(value: value, format: .binary, warnings: warnings))
    case .failure(let error): return .failure(.plist(error))
    }
  }
}

extension PropertyList {
  /// The first eight bytes of a binary property list, `bplist00`.
  package static var binaryMagic: [UInt8] { BinaryPlist.magic }
}
