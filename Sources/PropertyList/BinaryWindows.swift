#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where a binary property list read in windows gets its bytes: bytes at an offset, read on
/// demand. The layer knows bytes, not files: `LegacyDefaults` reads a domain file through
/// one (`pread` on the descriptor it opened), a test or the fuzz target through memory.
///
/// One reader uses it, on one thread, while ``PropertyList/readBinary(from:size:limits:options:pageShift:slots:budget:)``
/// runs.
package protocol ByteSource: AnyObject {
  /// Copies the bytes at `offset` into `buffer`, as many as fill it; returns how many it
  /// copied: fewer only where the source ends there or a read of it failed (the source keeps
  /// why, for its caller).
  func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int
}

extension ByteSource {
  /// ``read(into:at:)`` into all of `bytes`: how many were copied, checked against the array
  /// (a source that claims more than it was given room for is a trap, not a read past it).
  package func read(into bytes: inout [UInt8], at offset: Int) -> Int {
    let count = bytes.count
    let copied = bytes.withUnsafeMutableBytes { read(into: $0, at: offset) }
    precondition(copied >= 0 && copied <= count, "a byte source copied outside its buffer")
    return copied
  }
}

/// A source read in windows as the reader walks it, so that a large domain is parsed without
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
/// A read that comes back short (the file was cut while read, or a read of it failed: the
/// source knows which) is kept in ``shortAt``, and the bytes asked for read as zeros: the
/// caller reports it, whatever the reader made of them.
///
/// One reader uses it, on one thread: its state is not checked for exclusive access at run
/// time (those checks were two thirds of a load's time).
final class BinaryWindows {
  let count: Int
  private let source: any ByteSource
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
  /// Where the first read that came back short stopped.
  @exclusivity(unchecked) private(set) var shortAt: Int?
  /// Whether the file was read whole (its walk went back and forth too much).
  @exclusivity(unchecked) private(set) var readWhole = false

  /// `source` of `count` bytes (a file's size as `fstat` gave it); `budget`: the bytes read in
  /// pages after which the source is read whole (four times its size and 1 MiB).
  init(
    source: any ByteSource, count: Int, pageShift: Int = 14, slots: Int = 16, budget: Int? = nil
  ) {
    self.source = source
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

  /// Reads `length` bytes at `offset` into `into`; a short read is kept, the rest zeroed.
  private func read(_ into: UnsafeMutableRawPointer, _ length: Int, at offset: Int) {
    let done = source.read(
      into: UnsafeMutableRawBufferPointer(start: into, count: length), at: offset)
    if done < length {
      if shortAt == nil { shortAt = offset + max(done, 0) }
      (into + max(done, 0)).initializeMemory(
        as: UInt8.self, repeating: 0, count: length - max(done, 0))
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
    case 2: return UInt64(UInt16(bigEndian: at.loadUnaligned(as: UInt16.self)))
    case 4: return UInt64(UInt32(bigEndian: at.loadUnaligned(as: UInt32.self)))
    case 8: return UInt64(bigEndian: at.loadUnaligned(as: UInt64.self))
    default:
      var value: UInt64 = 0
      for i in 0..<size { value = value << 8 | UInt64(at.load(fromByteOffset: i, as: UInt8.self)) }
      return value
    }
  }

  /// The bytes of `range` as a view, valid for the length of `body` (the next read of the
  /// windows may replace the page under it).
  func withBytes<R>(_ range: Range<Int>, _ body: (ByteView) -> R) -> R {
    guard !range.isEmpty else { return body(ByteView(unsafeStart: nil, count: 0)) }
    if readWhole || range.lowerBound >> pageShift == (range.upperBound - 1) >> pageShift {
      let start = address(range.lowerBound)
      return body(ByteView(unsafeStart: buffer + start, count: range.count))
    }
    // Across pages: read on its own (a long string or data), counted in the budget.
    let own = UnsafeMutableRawPointer.allocate(byteCount: range.count, alignment: 16)
    defer { own.deallocate() }
    read(own, range.count, at: range.lowerBound)
    let result = body(ByteView(unsafeStart: own, count: range.count))
    if readSoFar > budget, !readWhole { readAll() }
    return result
  }
}

/// The reader's view of a ``BinaryWindows``: a reference not retained (the caller keeps the
/// windows for the read), so that the reader's value is trivial to copy and destroy for the
/// windows as for a buffer. (A retained reference made the two readers' outlined destroys
/// differ, and the merged one looked the reader's metadata up at run time: a scan of every
/// protocol conformance in the program, 0.09 ms of each `prefs read FILE KEY`.)
struct WindowBytes: BinaryBytes {
  /// Not retained: used through `_withUnsafeGuaranteedRef`, which neither retains nor
  /// releases (an `unowned(unsafe)` reference was retained and released at every byte).
  let windows: Unmanaged<BinaryWindows>
  /// The file's size, kept here: the reader asks for it often (and with it this value has the
  /// layout of a buffer's, two words).
  let count: Int

  init(_ windows: BinaryWindows) {
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
  func withBytes<R>(_ range: Range<Int>, _ body: (ByteView) -> R) -> R {
    windows._withUnsafeGuaranteedRef { $0.withBytes(range, body) }
  }
}

/// Why a binary property list read in windows could not be read: the property list's error,
/// or a read of the source that came back short at `offset` (the source says why: a file cut
/// while read, a read that failed).
package enum WindowedReadFailure: Error, Sendable, Equatable {
  case plist(PlistError)
  case short(offset: Int)
}

extension PropertyList {
  /// A binary property list read in windows (``BinaryWindows``) from `source`, `size` bytes
  /// (a file's size when it was opened): the document ``read(_:limits:)`` gives for the same
  /// bytes, without them whole in memory beside it. A read of the source that comes back short
  /// is ``WindowedReadFailure/short(offset:)`` whatever the parse made of it. `pageShift`,
  /// `slots` and `budget` shape the windows (tests and the fuzz target use small ones).
  package static func readBinary(
    from source: any ByteSource, size: Int, limits: PlistLimits = .default,
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
    let windows = BinaryWindows(
      source: source, count: size, pageShift: max(pageShift, 4), slots: max(slots, 2),
      budget: budget)
    let rules = options.rules
    let parsed = withExtendedLifetime(windows) {
      Result { () throws(PlistError) in
        try BinaryPlistReader.read(WindowBytes(windows), limits: limits, rules: rules)
      }
    }
    if let offset = windows.shortAt { return .failure(.short(offset: offset)) }
    switch parsed {
    case .success(let (value, warnings)):
      return .success(PlistDocument(value: value, format: .binary, warnings: warnings))
    case .failure(let error): return .failure(.plist(error))
    }
  }

  /// The first eight bytes of a binary property list, `bplist00`.
  package static var binaryMagic: [UInt8] { BinaryPlist.magic }
}
