#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A growing buffer of bytes with no per-byte checks but its capacity's: the XML writer's
/// output, handed over to `Data` without a copy. Its owner deallocates it or takes its
/// ``data()``, exactly once. With ``ByteView`` and ``BinaryWindows``, one of the three files
/// of the layer that touch raw pointers: what is written in place goes through ``ByteSlots``,
/// whose stores are checked against the room asked for.
struct OutputBytes {
  private var base: UnsafeMutablePointer<UInt8>
  private var count = 0
  private var capacity: Int

  init(capacity: Int) {
    self.capacity = Swift.max(capacity, 64)
    base = .allocate(capacity: self.capacity)
  }

  @inline(__always)
  private mutating func reserve(_ extra: Int) {
    if count + extra > capacity { grow(count + extra) }
  }

  @inline(never)
  private mutating func grow(_ needed: Int) {
    let newCapacity = Swift.max(needed, capacity * 2)
    let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newBase.update(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    reserve(1)
    base[count] = byte
    count += 1
  }

  @inline(__always)
  mutating func append(repeating byte: UInt8, count n: Int) {
    guard n > 0 else { return }
    reserve(n)
    (base + count).initialize(repeating: byte, count: n)
    count += n
  }

  @inline(__always)
  mutating func append(_ bytes: UnsafeRawBufferPointer) {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    let n = bytes.count
    reserve(n)
    let to = UnsafeMutableRawPointer(base + count)
    if n >= 8, n <= 16 {
      // Most keys and strings: two overlapping words rather than a call to `memcpy`.
      to.storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
      to.storeBytes(
        of: source.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self), toByteOffset: n - 8,
        as: UInt64.self)
    } else {
      to.copyMemory(from: source, byteCount: n)
    }
    count += n
  }

  @inline(__always)
  mutating func append(_ text: StaticString) {
    append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  @inline(__always)
  mutating func append(_ bytes: ByteView) {
    bytes.withUnsafeBytes { append($0) }
  }

  mutating func append(_ text: Substring.UTF8View) {
    if let done = text.withContiguousStorageIfAvailable({ append(UnsafeRawBufferPointer($0)) }) {
      return done
    }
    for byte in text { append(byte) }
  }

  /// The UTF-8 of `text`, as one copy when it is contiguous (a native string).
  @inline(__always)
  mutating func append(_ text: String.UTF8View) {
    if let done = text.withContiguousStorageIfAvailable({ append(UnsafeRawBufferPointer($0)) }) {
      return done
    }
    for byte in text { append(byte) }
  }

  /// Lets `body` write up to `count` bytes in place; it returns how many it wrote.
  @inline(__always)
  mutating func write(count: Int, _ body: (ByteSlots) -> Int) {
    reserve(count)
    let written = body(ByteSlots(base + self.count, capacity: count))
    precondition(written >= 0 && written <= count)
    self.count += written
  }

  /// The bytes as `Data`, which now owns them.
  func data() -> Data {
    Data(
      bytesNoCopy: base, count: count, deallocator: .custom { pointer, _ in pointer.deallocate() })
  }

  func deallocate() { base.deallocate() }
}

/// Room to write a few bytes in place (a tag, a number's or a date's text), each store checked
/// against the room: ``OutputBytes/write(count:_:)``, or a temporary room
/// (``withTemporary(capacity:_:)``).
struct ByteSlots {
  private let base: UnsafeMutablePointer<UInt8>
  let capacity: Int

  fileprivate init(_ base: UnsafeMutablePointer<UInt8>, capacity: Int) {
    self.base = base
    self.capacity = capacity
  }

  @inline(__always)
  subscript(i: Int) -> UInt8 {
    get {
      precondition(UInt(bitPattern: i) < UInt(bitPattern: capacity), "outside the room")
      return base[i]
    }
    nonmutating set {
      precondition(UInt(bitPattern: i) < UInt(bitPattern: capacity), "outside the room")
      base[i] = newValue
    }
  }

  /// Byte `i`, which the caller has checked lies in the room (``require(_:)`` once for a
  /// writer of a known longest text).
  @inline(__always)
  subscript(unchecked i: Int) -> UInt8 {
    get { base[i] }
    nonmutating set { base[i] = newValue }
  }

  /// Traps unless the room holds `count` bytes: a writer whose text is at most `count` bytes
  /// long checks once, then stores unchecked.
  @inline(__always)
  func require(_ count: Int) { precondition(count <= capacity, "outside the room") }

  /// `body` with a room of `capacity` bytes of its own (on the stack), and the bytes it says
  /// it wrote, as a string.
  static func string(capacity: Int, _ body: (ByteSlots) -> Int) -> String {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
      guard let start = buffer.baseAddress else { return "" }
      let count = body(ByteSlots(start, capacity: capacity))
      precondition(count >= 0 && count <= capacity)
      return String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    }
  }

  /// ``string(capacity:_:)``, the bytes appended to `out`.
  static func append(capacity: Int, to out: inout [UInt8], _ body: (ByteSlots) -> Int) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
      guard let start = buffer.baseAddress else { return }
      let count = body(ByteSlots(start, capacity: capacity))
      precondition(count >= 0 && count <= capacity)
      out.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
    }
  }
}
