#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A growing buffer of bytes with no per-byte checks but its capacity's: the XML writer's
/// output, handed over to `Data` without a copy. Its owner deallocates it or takes its
/// ``data()``, exactly once.
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
    reserve(bytes.count)
    UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: bytes.count)
    count += bytes.count
  }

  @inline(__always)
  mutating func append(_ text: StaticString) {
    append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  mutating func append(_ text: Substring.UTF8View) {
    if let done = text.withContiguousStorageIfAvailable({ append(UnsafeRawBufferPointer($0)) }) {
      return done
    }
    for byte in text { append(byte) }
  }

  /// Lets `body` write up to `count` bytes in place; it returns how many it wrote.
  @inline(__always)
  mutating func write(count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
    reserve(count)
    self.count += body(base + self.count)
  }

  /// The bytes as `Data`, which now owns them.
  func data() -> Data {
    Data(
      bytesNoCopy: base, count: count, deallocator: .custom { pointer, _ in pointer.deallocate() })
  }

  func deallocate() { base.deallocate() }
}
