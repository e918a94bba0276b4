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
  /// The big-endian unsigned integer of `size` bytes (1 to 8) at `offset`.
  func bigEndian(at offset: Int, size: Int) -> UInt64
}

extension UnsafeRawBufferPointer: BinaryBytes {
  @inline(__always)
  func withBytes<R>(_ range: Range<Int>, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    body(UnsafeRawBufferPointer(rebasing: self[range]))
  }

  @inline(__always)
  func bigEndian(at offset: Int, size: Int) -> UInt64 {
    var value: UInt64 = 0
    for i in 0..<size { value = value << 8 | UInt64(self[offset + i]) }
    return value
  }
}

/// A file read in windows as the reader walks it, so that a large domain is parsed without
/// the whole file in memory beside the values it becomes (#22 rules out mapping it: a file
/// cut short under a mapping is a SIGBUS, here it is an error).
///
/// The windows are pages of `2^pageShift` bytes in `slots` slots, replaced by the clock
/// algorithm (a page used since the hand last passed is kept): the reader walks a handful of
/// streams at once (the references, the offset table, the keys, the values, each in file
/// order for the files CoreFoundation, GNUstep and prefs write). A table of one entry a page
/// finds a page's slot in one load. A range that spans pages is read on its own. A file whose
/// walk would read it over and over (objects in a random order, a hostile file) is read whole
/// once the pages read reach four times its size, so that no file costs more than five reads
/// of itself; the table then maps every page to its place in the whole file.
///
/// A read that fails or comes back short (the file was cut while read) is kept in
/// ``failure``, and the bytes asked for read as zeros: the caller reports the failure,
/// whatever the reader made of them.
///
/// One reader uses it, on one thread: its state is not checked for exclusive access at run
/// time (those checks were two thirds of a load's time).
final class FileWindows {
  let count: Int
  private let fd: Int32
  private let pageShift: Int
  private let pageMask: Int
  private let slots: Int
  /// Per page of the file: the slot holding it, or -1.
  private let slotOfPage: UnsafeMutablePointer<Int32>
  private let pageCount: Int
  /// Per slot: the page it holds (-1: none), and whether it was used since the hand passed.
  private let pageInSlot: UnsafeMutablePointer<Int>
  private let referenced: UnsafeMutablePointer<Bool>
  @exclusivity(unchecked) private var hand = 0
  /// The slots' memory; once the file is read whole, the whole file.
  @exclusivity(unchecked) private var buffer: UnsafeMutableRawPointer
  @exclusivity(unchecked) private var pagesBuffer: UnsafeMutableRawPointer?
  @exclusivity(unchecked) private var readSoFar = 0
  private let budget: Int
  /// The first read that failed: its errno (0 when the file ended early) and offset.
  @exclusivity(unchecked) private(set) var failure: (errno: Int32, offset: Int)?
  /// Whether the file was read whole (its walk went back and forth too much).
  @exclusivity(unchecked) private(set) var readWhole = false

  /// `fd` open for reading, `count` its size as `fstat` gave it; `budget`: the bytes read in
  /// pages after which the file is read whole (four times its size and 1 MiB).
  init(fd: Int32, count: Int, pageShift: Int = 14, slots: Int = 16, budget: Int? = nil) {
    self.fd = fd
    self.count = count
    self.pageShift = pageShift
    pageMask = (1 << pageShift) - 1
    self.slots = slots
    pageCount = (count >> pageShift) + 1
    slotOfPage = UnsafeMutablePointer<Int32>.allocate(capacity: pageCount)
    slotOfPage.initialize(repeating: -1, count: pageCount)
    pageInSlot = UnsafeMutablePointer<Int>.allocate(capacity: slots)
    pageInSlot.initialize(repeating: -1, count: slots)
    referenced = UnsafeMutablePointer<Bool>.allocate(capacity: slots)
    referenced.initialize(repeating: false, count: slots)
    let pages = UnsafeMutableRawPointer.allocate(byteCount: slots << pageShift, alignment: 16)
    buffer = pages
    pagesBuffer = pages
    self.budget = budget ?? 4 * count + (1 << 20)
  }

  deinit {
    slotOfPage.deallocate()
    pageInSlot.deallocate()
    referenced.deallocate()
    pagesBuffer?.deallocate()
    if readWhole { buffer.deallocate() }
  }

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

  /// Where byte `position` is in `buffer`, its page read first if no slot holds it.
  @inline(__always)
  private func address(_ position: Int) -> Int {
    let page = position >> pageShift
    var slot = Int(slotOfPage[page])
    if slot < 0 {
      slot = fault(page)
    } else if !readWhole {
      referenced[slot] = true
    }
    return slot << pageShift | position & pageMask
  }

  /// Reads `page` into a slot (the first the hand finds unused since it last passed).
  private func fault(_ page: Int) -> Int {
    while referenced[hand] {
      referenced[hand] = false
      hand = (hand + 1) % slots
    }
    let slot = hand
    hand = (hand + 1) % slots
    if pageInSlot[slot] >= 0 { slotOfPage[pageInSlot[slot]] = -1 }
    let start = page << pageShift
    read(buffer + (slot << pageShift), min(pageMask + 1, count - start), at: start)
    pageInSlot[slot] = page
    slotOfPage[page] = Int32(slot)
    referenced[slot] = true
    if readSoFar > budget {
      readAll()
      return page
    }
    return slot
  }

  /// The whole file into one buffer, every page mapped to its own place in it.
  private func readAll() {
    let all = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 16)
    read(all, count, at: 0)
    pagesBuffer?.deallocate()
    pagesBuffer = nil
    buffer = all
    readWhole = true
    for page in 0..<pageCount { slotOfPage[page] = Int32(truncatingIfNeeded: page) }
  }

  subscript(position: Int) -> UInt8 {
    @inline(__always) get {
      let place = address(position)
      return buffer.load(fromByteOffset: place, as: UInt8.self)
    }
  }

  @inline(__always)
  func bigEndian(at offset: Int, size: Int) -> UInt64 {
    guard readWhole || offset & pageMask + size <= pageMask + 1 else {
      var value: UInt64 = 0
      for i in 0..<size { value = value << 8 | UInt64(self[offset + i]) }
      return value
    }
    // (The address first: finding it may read the file whole and change `buffer`.)
    let place = address(offset)
    let at = UnsafeRawPointer(buffer + place)
    switch size {
    case 1: return UInt64(at.load(as: UInt8.self))
    case 2: return UInt64(Field2.read(at, 0, 2))
    case 3: return UInt64(Field3.read(at, 0, 3))
    case 4: return UInt64(Field4.read(at, 0, 4))
    case 8: return UInt64(bigEndian: at.loadUnaligned(as: UInt64.self))
    default: return UInt64(FieldN.read(at, 0, size))
    }
  }

  func withBytes<R>(_ range: Range<Int>, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    guard !range.isEmpty else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
    if readWhole || range.lowerBound >> pageShift == (range.upperBound - 1) >> pageShift {
      let start = address(range.lowerBound)
      return body(UnsafeRawBufferPointer(start: buffer + start, count: range.count))
    }
    // Across pages: read on its own (a long string or data), counted in the budget.
    let own = UnsafeMutableRawPointer.allocate(byteCount: range.count, alignment: 16)
    defer { own.deallocate() }
    read(own, range.count, at: range.lowerBound)
    let result = body(UnsafeRawBufferPointer(start: own, count: range.count))
    if readSoFar > budget, !readWhole { readAll() }
    return result
  }
}

/// The reader's view of a ``FileWindows``: a reference not retained (the caller keeps the
/// windows for the read), so that the reader's value is trivial to copy and destroy for the
/// windows as for a buffer. (A retained reference made the two readers' outlined destroys
/// differ, and the merged one looked the reader's metadata up at run time: a scan of every
/// protocol conformance in the program, 0.09 ms of each `prefs read FILE KEY`.)
struct WindowBytes: BinaryBytes {
  /// Not retained: used through `_withUnsafeGuaranteedRef`, which neither retains nor
  /// releases (an `unowned(unsafe)` reference was retained and released at every byte).
  let windows: Unmanaged<FileWindows>
  /// The file's size, kept here: the reader asks for it often (and with it this value has the
  /// layout of a buffer's, two words).
  let count: Int

  init(_ windows: FileWindows) {
    self.windows = Unmanaged.passUnretained(windows)
    count = windows.count
  }

  subscript(position: Int) -> UInt8 {
    @inline(__always) get { windows._withUnsafeGuaranteedRef { $0[position] } }
  }

  @inline(__always)
  func bigEndian(at offset: Int, size: Int) -> UInt64 {
    windows._withUnsafeGuaranteedRef { $0.bigEndian(at: offset, size: size) }
  }

  @inline(__always)
  func withBytes<R>(_ range: Range<Int>, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    windows._withUnsafeGuaranteedRef { $0.withBytes(range, body) }
  }
}

/// Constants of Apple's `bplist00` format.
enum BinaryPlist {
  static let magic: [UInt8] = Array("bplist00".utf8)

  /// Whether `data` starts with ``magic``: its first eight bytes compared as one word (no
  /// iterator over `Data`, whose generic walk a one-key read would otherwise page in).
  static func hasMagic(_ data: Data) -> Bool {
    data.withUnsafeBytes { raw in
      raw.count >= 8 && raw.loadUnaligned(as: UInt64.self) == magicWord
    }
  }

  /// ``magic`` as the 64-bit word its bytes make in memory.
  private static var magicWord: UInt64 { UInt64(littleEndian: 0x3030_7473_696c_7062) }

  /// Byte `i` (0..<8) of ``magic``, without the array (a one-key read does not build it).
  @inline(__always)
  static func magicByte(_ i: Int) -> UInt8 {
    UInt8(truncatingIfNeeded: 0x3030_7473_696c_7062 as UInt64 >> (8 * UInt64(i)))
  }
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
  /// made of it. `pageShift`, `slots` and `budget` shape the windows (tests and the fuzz
  /// target use small ones; see ``FileWindows``).
  package static func readBinary(
    fileDescriptor fd: Int32, size: Int, limits: PlistLimits = .default,
    options: PlistReadOptions = .lenient, pageShift: Int = 14, slots: Int = 16,
    budget: Int? = nil
  ) -> Result<PlistDocument, WindowedReadFailure> {
    guard size <= limits.maxInputBytes else {
      return .failure(
        .plist(
          .limitExceeded(
            format: .binary, at: .byteOffset(limits.maxInputBytes),
            limit: .inputBytes(limits.maxInputBytes))))
    }
    let windows = FileWindows(
      fd: fd, count: size, pageShift: max(pageShift, 4), slots: max(slots, 2),
      budget: budget)
    let parsed = withExtendedLifetime(windows) {
      Result { () throws(PlistError) in
        try BinaryPlistReader.read(WindowBytes(windows), limits: limits, options: options)
      }
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
