#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// (`memcmp`, the one function of the C library the views use.)
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one view of raw bytes the readers work on: a start and a count, every access checked
/// against the count unless it says `unchecked` (the caller has checked the range, and says
/// where), in the style of swift-nio's `ByteBuffer` (`getInteger(at:)` checked, `_unchecked`
/// variants beside them).
///
/// A view borrows its bytes: it is valid only inside the `with` call that made it
/// (``with(_:_:)-(Data,_)``, and the array and string forms), or, for a ``BinaryWindows``
/// page, until the windows read again. Whatever outlives that call is a copy
/// (``string(_:)``, ``data(_:)``, ``array(_:)``): a key checked as ASCII in a mapped file is
/// copied out of the mapping before it is kept, so it cannot change after its check.
///
/// The standard library's `RawSpan` would say the same with the compiler's help, but a span
/// stored in a reader makes the reader non-escapable, which Swift 6.3 allows only under the
/// experimental `Lifetimes` feature: this type is the one place to change when it is not.
/// Only this file, `OutputBytes.swift` (the writers' growing buffer) and `BinaryWindows.swift`
/// (a file read in pages) touch raw pointers in the layer.
struct ByteView: RandomAccessCollection {
  private let start: UnsafeRawPointer?
  let count: Int

  /// The bytes at `start`: for `BinaryWindows` and `OutputBytes`, which own raw memory.
  init(unsafeStart start: UnsafeRawPointer?, count: Int) {
    precondition(count >= 0 && (start != nil || count == 0))
    self.start = start
    self.count = count
  }

  /// The bytes of a string literal, which live as long as the program.
  init(_ literal: StaticString) {
    start = UnsafeRawPointer(literal.utf8Start)
    count = literal.utf8CodeUnitCount
  }

  // MARK: Making a view

  /// `body` over the bytes of `data`.
  @inline(__always)
  static func with<R, E: Error>(_ data: Data, _ body: (ByteView) throws(E) -> R) throws(E) -> R {
    let result: Result<R, E> = data.withUnsafeBytes { raw in
      Result { () throws(E) in try body(ByteView(unsafeStart: raw.baseAddress, count: raw.count)) }
    }
    return try result.get()
  }

  /// `body` over the bytes of `bytes`.
  @inline(__always)
  static func with<R, E: Error>(_ bytes: [UInt8], _ body: (ByteView) throws(E) -> R) throws(E)
    -> R
  {
    let result: Result<R, E> = bytes.withUnsafeBytes { raw in
      Result { () throws(E) in try body(ByteView(unsafeStart: raw.baseAddress, count: raw.count)) }
    }
    return try result.get()
  }

  /// `body` over the UTF-8 of `text`, or nil when the string has no contiguous UTF-8 (a
  /// bridged string: the caller takes another way).
  @inline(__always)
  static func with<R>(utf8 text: Substring.UTF8View, _ body: (ByteView) -> R) -> R? {
    text.withContiguousStorageIfAvailable { buffer in
      body(ByteView(unsafeStart: buffer.baseAddress, count: buffer.count))
    }
  }

  /// `body` over the UTF-8 of `text`, or nil as for a substring.
  @inline(__always)
  static func with<R>(utf8 text: String.UTF8View, _ body: (ByteView) -> R) -> R? {
    text.withContiguousStorageIfAvailable { buffer in
      body(ByteView(unsafeStart: buffer.baseAddress, count: buffer.count))
    }
  }

  /// The raw bytes, for the two other files that own raw memory.
  @inline(__always)
  func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try body(UnsafeRawBufferPointer(start: start, count: count))
  }

  // MARK: Collection

  var startIndex: Int { 0 }
  var endIndex: Int { count }

  /// The bytes as a buffer, for the standard library's bulk copies (`Array(view)`,
  /// `Data(view)`, `String(decoding:as:)`).
  @inline(__always)
  func withContiguousStorageIfAvailable<R>(
    _ body: (UnsafeBufferPointer<UInt8>) throws -> R
  ) rethrows -> R? {
    try body(UnsafeBufferPointer(start: start?.assumingMemoryBound(to: UInt8.self), count: count))
  }

  /// Byte `i`; a trap outside the view.
  @inline(__always)
  subscript(i: Int) -> UInt8 {
    precondition(UInt(bitPattern: i) < UInt(bitPattern: count), "byte outside the view")
    return self[unchecked: i]
  }

  /// Byte `i`, which the caller has checked lies in the view.
  @inline(__always)
  subscript(unchecked i: Int) -> UInt8 {
    start.unsafelyUnwrapped.load(fromByteOffset: i, as: UInt8.self)
  }

  /// Whether `length` bytes from `offset` lie in the view.
  @inline(__always)
  func contains(_ offset: Int, length: Int) -> Bool {
    offset >= 0 && length >= 0 && offset <= count &- length
  }

  @inline(__always)
  private func check(_ offset: Int, _ length: Int) {
    precondition(contains(offset, length: length), "bytes outside the view")
  }

  // MARK: Slices and copies

  /// The bytes of `range`, as a view of their own (indices from 0).
  @inline(__always)
  func slice(_ range: Range<Int>) -> ByteView {
    check(range.lowerBound, range.count)
    return ByteView(unsafeStart: start.map { $0 + range.lowerBound }, count: range.count)
  }

  /// The bytes from `offset` on, as a view of their own.
  @inline(__always)
  func rest(from offset: Int) -> ByteView { slice(offset..<count) }

  /// The bytes of `range` decoded as UTF-8 (a copy: it outlives the view).
  @inline(__always)
  func string(_ range: Range<Int>) -> String {
    slice(range).withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
  }

  /// All the bytes decoded as UTF-8.
  @inline(__always)
  var string: String { withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

  /// The bytes of `range` as `Data` (a copy).
  @inline(__always)
  func data(_ range: Range<Int>) -> Data { slice(range).withUnsafeBytes { Data($0) } }

  /// The bytes of `range` as an array (a copy).
  @inline(__always)
  func array(_ range: Range<Int>) -> [UInt8] { slice(range).withUnsafeBytes { Array($0) } }

  /// All the bytes as `Data` (a copy, one `memcpy`).
  @inline(__always)
  var data: Data { withUnsafeBytes { Data($0) } }

  /// All the bytes as an array (a copy, one `memcpy`).
  @inline(__always)
  var array: [UInt8] { typed { Array($0) } }

  /// Appends the bytes to `array` (one `memcpy`: the standard library's generic
  /// `append(contentsOf:)` copies a collection it does not know byte by byte).
  @inline(__always)
  func append(to array: inout [UInt8]) { typed { array.append(contentsOf: $0) } }

  @inline(__always)
  private func typed<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    body(UnsafeBufferPointer(start: start?.assumingMemoryBound(to: UInt8.self), count: count))
  }

  // MARK: Loads

  /// The 8 bytes at `offset` as a little-endian word (the order the scanners test bytes in).
  @inline(__always)
  func word(at offset: Int) -> UInt64 {
    check(offset, 8)
    return uncheckedWord(at: offset)
  }

  /// ``word(at:)`` where the caller has checked that 8 bytes from `offset` lie in the view.
  @inline(__always)
  func uncheckedWord(at offset: Int) -> UInt64 {
    UInt64(
      littleEndian: start.unsafelyUnwrapped.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }

  /// The unsigned integer of `T`'s width at `offset`, in the given byte order.
  @inline(__always)
  func load<T: FixedWidthInteger & UnsignedInteger & BitwiseCopyable>(
    _: T.Type, at offset: Int, bigEndian: Bool
  ) -> T {
    check(offset, MemoryLayout<T>.size)
    return uncheckedLoad(T.self, at: offset, bigEndian: bigEndian)
  }

  /// ``load(_:at:bigEndian:)`` where the caller has checked the range.
  @inline(__always)
  func uncheckedLoad<T: FixedWidthInteger & UnsignedInteger & BitwiseCopyable>(
    _: T.Type, at offset: Int, bigEndian: Bool
  ) -> T {
    let raw = start.unsafelyUnwrapped.loadUnaligned(fromByteOffset: offset, as: T.self)
    return bigEndian ? T(bigEndian: raw) : T(littleEndian: raw)
  }

  /// The big-endian unsigned integer of `size` bytes (1 to 8) at `offset`: one load where
  /// eight bytes are there (every field but a file's last few bytes), else byte by byte.
  @inline(__always)
  func bigEndian(at offset: Int, size: Int) -> UInt64 {
    if size > 0, size <= 8, offset >= 0, offset <= count &- 8 {
      let word = uncheckedLoad(UInt64.self, at: offset, bigEndian: true)
      return word >> (UInt64(8 &- size) &* 8)
    }
    var value: UInt64 = 0
    for i in 0..<size { value = value << 8 | UInt64(self[offset + i]) }
    return value
  }

  // MARK: Comparisons

  /// Whether the `length` bytes at `offset` are those at `otherOffset` of `other`, both
  /// ranges checked by the caller.
  @inline(__always)
  func uncheckedEqual(at offset: Int, _ other: ByteView, at otherOffset: Int, length: Int)
    -> Bool
  {
    length == 0
      || memcmp(
        start.unsafelyUnwrapped + offset, other.start.unsafelyUnwrapped + otherOffset, length)
        == 0
  }

  /// ``uncheckedEqual(at:_:at:length:)`` of 8 bytes or more, eight at a time in line (the last
  /// eight read again): the one-key scan's compare of a key whose length and last eight bytes
  /// already match, where a call to `memcmp` cost more than the compare.
  @inline(__always)
  func uncheckedWordsEqual(at offset: Int, _ other: ByteView, at otherOffset: Int, length: Int)
    -> Bool
  {
    var i = 0
    while i &+ 8 < length {
      if uncheckedWord(at: offset &+ i) != other.uncheckedWord(at: otherOffset &+ i) {
        return false
      }
      i &+= 8
    }
    return uncheckedWord(at: offset &+ length &- 8)
      == other.uncheckedWord(at: otherOffset &+ length &- 8)
  }

  /// Whether the bytes at `offset` are `literal`'s.
  @inline(__always)
  func starts(with literal: StaticString, at offset: Int) -> Bool {
    let length = literal.utf8CodeUnitCount
    return contains(offset, length: length)
      && uncheckedEqual(at: offset, ByteView(literal), at: 0, length: length)
  }

  /// Whether the bytes of `range` are the same as those of `other`.
  @inline(__always)
  func elementsEqual(_ range: Range<Int>, _ other: ByteView) -> Bool {
    check(range.lowerBound, range.count)
    return range.count == other.count
      && uncheckedEqual(at: range.lowerBound, other, at: 0, length: range.count)
  }
}

/// Runs of bytes copied out of views, one after another in memory of their own: the keys the
/// streaming conversion checks as ASCII in a file and writes later, from the copy (so that a
/// mapped file changed meanwhile cannot change a key after its check). A run's view is valid
/// until the next append. Its owner deallocates it once (``deallocate()``).
struct CopiedRuns {
  private var base: UnsafeMutableRawPointer?
  private var capacity = 0
  /// The bytes the runs take.
  private var used = 0
  /// Where each run ends.
  private var ends: [Int] = []

  /// How many runs there are.
  var count: Int { ends.count }

  /// Room for `runs` more runs (their ends: one allocation for a dictionary's keys).
  mutating func reserve(runs: Int) { ends.reserveCapacity(ends.count + runs) }

  /// Copies `view`'s bytes as the next run.
  @inline(__always)
  mutating func append(_ view: ByteView) {
    let count = view.count
    if used + count > capacity { grow(used + count) }
    view.withUnsafeBytes { source in
      guard let from = source.baseAddress, let to = base.map({ $0 + used }) else { return }
      if count >= 8, count <= 16 {
        // Most keys: two overlapping words rather than a call.
        to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
        to.storeBytes(
          of: from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self),
          toByteOffset: count - 8, as: UInt64.self)
      } else {
        to.copyMemory(from: from, byteCount: count)
      }
    }
    used += count
    ends.append(used)
  }

  @inline(never)
  private mutating func grow(_ needed: Int) {
    let newCapacity = Swift.max(needed, capacity * 2, 4096)
    let newBase = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 8)
    if let base {
      newBase.copyMemory(from: base, byteCount: used)
      base.deallocate()
    }
    base = newBase
    capacity = newCapacity
  }

  /// Run `n`.
  @inline(__always)
  func run(_ n: Int) -> ByteView {
    let start = n == 0 ? 0 : ends[n - 1]
    return ByteView(unsafeStart: base.map { UnsafeRawPointer($0 + start) }, count: ends[n] - start)
  }

  /// Forgets the runs from `count` on.
  mutating func removeRuns(from count: Int) {
    ends.removeSubrange(count...)
    used = ends.last ?? 0
  }

  func deallocate() { base?.deallocate() }
}

extension ByteView {
  /// The order of two strings' UTF-8 bytes (one `memcmp` of native strings): below zero, zero
  /// or above; nil when either has no contiguous UTF-8 (a bridged string).
  @inline(__always)
  static func compareUTF8(_ a: String, _ b: String) -> Int? {
    let order: Int?? = with(utf8: a.utf8) { x -> Int? in
      with(utf8: b.utf8) { y -> Int in x.order(y) }
    }
    return order ?? nil
  }

  /// Whether two strings have the same UTF-8 bytes; nil when either has no contiguous UTF-8.
  @inline(__always)
  static func sameUTF8(_ a: String, _ b: String) -> Bool? {
    let same: Bool?? = with(utf8: a.utf8) { x -> Bool? in
      with(utf8: b.utf8) { y -> Bool in
        x.count == y.count && x.uncheckedEqual(at: 0, y, at: 0, length: x.count)
      }
    }
    return same ?? nil
  }

  /// The order of the bytes of two views: below zero, zero or above, as `memcmp` and then the
  /// counts give it.
  @inline(__always)
  func order(_ other: ByteView) -> Int {
    let n = Swift.min(count, other.count)
    if n > 0 {
      let c = memcmp(start.unsafelyUnwrapped, other.start.unsafelyUnwrapped, n)
      if c != 0 { return Int(c) }
    }
    return count - other.count
  }
}

extension Hasher {
  /// The UTF-8 bytes of `text`, as one run (a bridged string's copied first).
  @inline(__always)
  mutating func combineUTF8(of text: String) {
    let done: Void? = text.utf8.withContiguousStorageIfAvailable {
      combine(bytes: UnsafeRawBufferPointer($0))
    }
    if done == nil { Array(text.utf8).withUnsafeBytes { combine(bytes: $0) } }
  }
}
