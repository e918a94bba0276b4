#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Writes Apple's `bplist00` format, byte-stable: objects in CoreFoundation's order (a
/// container, then its keys, then its values, depth first), dictionary keys sorted by their
/// bytes, scalars uniqued by value in first-use order, reference and offset sizes as
/// CoreFoundation chooses them (and its reader demands). CoreFoundation's own bytes differ
/// where they are not a function of the value: it writes a dictionary's entries in hash order
/// and uniques objects by identity.
struct BinaryPlistWriter {
  /// Non-string scalars, uniqued by type and bit pattern.
  private struct NumberKey: Hashable {
    var tag: UInt8
    var bits: UInt64

    func hash(into hasher: inout Hasher) {
      hasher.combine(bits &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(tag))
    }
  }

  private enum Flat {
    case scalar(PlistValue)
    case array([Int])
    case dictionary(keys: [Int], values: [Int])
  }

  private var objects: [Flat] = []
  private var strings = StringInterner()
  private var numbers: [NumberKey: Int] = [:]
  private var datas: [Data: Int] = [:]
  private var path: [ValuePath.Component] = []
  private let maxDepth: Int

  private init(maxDepth: Int) { self.maxDepth = maxDepth }

  static func write(_ value: PlistValue, maxDepth: Int) throws(PlistError) -> Data {
    var writer = BinaryPlistWriter(maxDepth: maxDepth)
    _ = try writer.flatten(value, depth: 0)
    return writer.serialize()
  }

  // MARK: - Flattening

  private mutating func stringIndex(_ s: String) -> Int {
    let index = strings.index(of: s, next: objects.count)
    if index == objects.count { objects.append(.scalar(.string(s))) }
    return index
  }

  private mutating func numberIndex(_ tag: UInt8, _ bits: UInt64, _ value: PlistValue) -> Int {
    // One hash for a new scalar (the common case): insert first, undo on a hit.
    let key = NumberKey(tag: tag, bits: bits)
    let index = objects.count
    if let existing = numbers.updateValue(index, forKey: key) {
      numbers[key] = existing
      return existing
    }
    objects.append(.scalar(value))
    return index
  }

  private mutating func dataIndex(_ d: Data) -> Int {
    let index = objects.count
    if let existing = datas.updateValue(index, forKey: d) {
      datas[d] = existing
      return existing
    }
    objects.append(.scalar(.data(d)))
    return index
  }

  private mutating func flatten(_ value: PlistValue, depth: Int) throws(PlistError) -> Int {
    switch value {
    case .string(let s): return stringIndex(s)
    case .integer(let i):
      return i >= 0
        ? numberIndex(1, UInt64(i), value) : numberIndex(2, UInt64(bitPattern: i), value)
    case .unsignedInteger(let u): return numberIndex(1, u, value)
    case .real(let d): return numberIndex(3, d.bitPattern, value)
    case .bool(let b): return numberIndex(4, b ? 1 : 0, value)
    case .date(let d): return numberIndex(5, d.timeIntervalSinceReferenceDate.bitPattern, value)
    case .data(let d): return dataIndex(d)
    case .uid(let u):
      // CoreFoundation's UIDs are 32 bits: it refuses a binary file holding a wider one.
      guard u <= UInt64(UInt32.max) else {
        throw .unrepresentable(
          format: .binary, keyPath: ValuePath(path).description,
          reason: PlistValue.wideUIDReason(u))
      }
      return numberIndex(6, u, value)
    case .array(let elements):
      guard depth < maxDepth else { throw tooDeep() }
      let index = objects.count
      objects.append(.array([]))
      var refs: [Int] = []
      refs.reserveCapacity(elements.count)
      for (i, element) in elements.enumerated() {
        path.append(.index(i))
        refs.append(try flatten(element, depth: depth + 1))
        path.removeLast()
      }
      objects[index] = .array(refs)
      return index
    case .dictionary(let dictionary):
      guard depth < maxDepth else { throw tooDeep() }
      let index = objects.count
      objects.append(.array([]))
      let entries = dictionary.sortedByKey
      var keyRefs: [Int] = []
      keyRefs.reserveCapacity(entries.count)
      for (key, _) in entries { keyRefs.append(stringIndex(key)) }
      var valueRefs: [Int] = []
      valueRefs.reserveCapacity(entries.count)
      for (key, element) in entries {
        path.append(.key(key))
        valueRefs.append(try flatten(element, depth: depth + 1))
        path.removeLast()
      }
      objects[index] = .dictionary(keys: keyRefs, values: valueRefs)
      return index
    }
  }

  private func tooDeep() -> PlistError {
    .unrepresentable(
      format: .binary, keyPath: ValuePath(path).description,
      reason: "nesting deeper than \(maxDepth) levels")
  }

  // MARK: - Serializing

  private static func byteWidth(_ value: UInt64) -> Int {
    if value <= 0xFF { return 1 }
    if value <= 0xFFFF { return 2 }
    if value <= 0xFFFF_FFFF { return 4 }
    return 8
  }

  private func serialize() -> Data {
    // CoreFoundation's sizes, which its reader demands: a reference wide enough for the
    // number of objects (not only the highest index), an offset wide enough for the offset
    // table's own position (not only the last object's). A file of exactly 256 objects with
    // 1-byte references, or whose last object starts below 256 and its table after, is one
    // CoreFoundation refuses to read.
    let refSize = Self.byteWidth(UInt64(objects.count))
    var out: [UInt8] = []
    out.reserveCapacity(objects.count * 12 + 64)
    out.append(contentsOf: BinaryPlist.magic)
    var offsets: [Int] = []
    offsets.reserveCapacity(objects.count)

    func appendUInt(_ value: UInt64, width: Int) {
      var shift = (width - 1) * 8
      while shift >= 0 {
        out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        shift -= 8
      }
    }
    func appendMarker(_ high: UInt8, count: Int) {
      if count < 15 {
        out.append(high << 4 | UInt8(count))
      } else {
        out.append(high << 4 | 0x0F)
        let width = Self.byteWidth(UInt64(count))
        out.append(0x10 | UInt8(width.trailingZeroBitCount))
        appendUInt(UInt64(count), width: width)
      }
    }
    func appendRefs(_ refs: [Int]) {
      for ref in refs { appendUInt(UInt64(ref), width: refSize) }
    }

    for object in objects {
      offsets.append(out.count)
      switch object {
      case .array(let refs):
        appendMarker(0xA, count: refs.count)
        appendRefs(refs)
      case .dictionary(let keys, let values):
        appendMarker(0xD, count: keys.count)
        appendRefs(keys)
        appendRefs(values)
      case .scalar(let value):
        switch value {
        case .bool(let b): out.append(b ? 0x09 : 0x08)
        case .integer(let i) where i < 0:
          out.append(0x13)
          appendUInt(UInt64(bitPattern: i), width: 8)
        case .integer(let i):
          let width = Self.byteWidth(UInt64(i))
          out.append(0x10 | UInt8(width.trailingZeroBitCount))
          appendUInt(UInt64(i), width: width)
        case .unsignedInteger(let u) where u > UInt64(Int64.max):
          // A 128-bit integer whose high half is zero, as CoreFoundation and plistlib write it.
          out.append(0x14)
          appendUInt(0, width: 8)
          appendUInt(u, width: 8)
        case .unsignedInteger(let u):
          let width = Self.byteWidth(u)
          out.append(0x10 | UInt8(width.trailingZeroBitCount))
          appendUInt(u, width: width)
        case .real(let d):
          out.append(0x23)
          appendUInt(d.bitPattern, width: 8)
        case .date(let date):
          out.append(0x33)
          appendUInt(date.timeIntervalSinceReferenceDate.bitPattern, width: 8)
        case .data(let data):
          appendMarker(0x4, count: data.count)
          out.append(contentsOf: data)
        case .string(let s):
          let utf8 = s.utf8
          let isASCII =
            ByteView.with(utf8: utf8) { $0.allSatisfy { $0 < 0x80 } }
            ?? utf8.allSatisfy { $0 < 0x80 }
          if isASCII {
            appendMarker(0x5, count: utf8.count)
            out.append(contentsOf: utf8)
          } else {
            let units = s.utf16
            appendMarker(0x6, count: units.count)
            for unit in units {
              out.append(UInt8(truncatingIfNeeded: unit >> 8))
              out.append(UInt8(truncatingIfNeeded: unit))
            }
          }
        case .uid(let u):
          let width = Self.byteWidth(u)
          out.append(0x80 | UInt8(width - 1))
          appendUInt(u, width: width)
        case .array, .dictionary:
          break  // Containers are never flattened as scalars.
        }
      }
    }

    let tableOffset = out.count
    let offsetSize = Self.byteWidth(UInt64(tableOffset))
    for offset in offsets { appendUInt(UInt64(offset), width: offsetSize) }
    out.append(contentsOf: [0, 0, 0, 0, 0, 0])
    out.append(UInt8(offsetSize))
    out.append(UInt8(refSize))
    appendUInt(UInt64(objects.count), width: 8)
    appendUInt(0, width: 8)
    appendUInt(UInt64(tableOffset), width: 8)
    return Data(out)
  }
}

/// A path into nested containers for messages: `locationHistory[3].address`.
struct ValuePath: CustomStringConvertible {
  enum Component {
    case key(String)
    case index(Int)
  }

  var components: [Component]

  init(_ components: [Component] = []) { self.components = components }

  var description: String {
    var text = ""
    for component in components {
      switch component {
      case .key(let key): text += text.isEmpty ? key : ".\(key)"
      case .index(let i): text += "[\(i)]"
      }
    }
    return text
  }
}

/// Uniques strings by their UTF-8 bytes (so canonically equivalent but different strings stay
/// apart), with an open-addressing table and FNV-1a: several times cheaper than `Dictionary`'s
/// seeded SipHash for the many short keys of a defaults domain.
struct StringInterner {
  private var slots: [Int32] = Array(repeating: -1, count: 1024)
  private var strings: [String] = []
  private var objectIndices: [Int] = []

  static func hash(_ s: String) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    let utf8 = s.utf8
    if let fast = ByteView.with(
      utf8: utf8,
      { bytes -> UInt64 in
        var x = h
        for byte in bytes { x = (x ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return x
      })
    {
      return fast
    }
    for byte in utf8 { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return h
  }

  static func sameBytes(_ a: String, _ b: String) -> Bool {
    !PlistValue.utf8Precedes(a, b) && !PlistValue.utf8Precedes(b, a)
  }

  /// The object index of `s`: the existing one, or `next` (recorded) when `s` is new.
  mutating func index(of s: String, next: Int) -> Int {
    if strings.count * 2 >= slots.count { grow() }
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: Self.hash(s)) & mask
    while true {
      let entry = Int(slots[slot])
      if entry < 0 {
        slots[slot] = Int32(strings.count)
        strings.append(s)
        objectIndices.append(next)
        return next
      }
      if Self.sameBytes(strings[entry], s) { return objectIndices[entry] }
      slot = (slot + 1) & mask
    }
  }

  private mutating func grow() {
    slots = Array(repeating: -1, count: slots.count * 2)
    let mask = slots.count - 1
    for (entry, s) in strings.enumerated() {
      var slot = Int(truncatingIfNeeded: Self.hash(s)) & mask
      while slots[slot] >= 0 { slot = (slot + 1) & mask }
      slots[slot] = Int32(entry)
    }
  }
}
