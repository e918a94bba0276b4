import Foundation

/// Writes Apple's `bplist00` format, byte-stable: dictionary keys sorted, scalars uniqued in
/// first-use order (as CoreFoundation does), the smallest reference and offset sizes that fit.
struct BinaryPlistWriter {
  private enum ScalarKey: Hashable {
    case string(String)
    case integer(Int64)
    case unsignedInteger(UInt64)
    case real(UInt64)
    case bool(Bool)
    case date(UInt64)
    case data(Data)
    case uid(UInt64)
  }

  private enum Flat {
    case scalar(PlistValue)
    case array([Int])
    case dictionary(keys: [Int], values: [Int])
  }

  private var objects: [Flat] = []
  private var unique: [ScalarKey: Int] = [:]
  private var path: [ValuePath.Component] = []
  private let maxDepth: Int

  private init(maxDepth: Int) { self.maxDepth = maxDepth }

  static func write(_ value: PlistValue, maxDepth: Int) throws(PlistError) -> Data {
    var writer = BinaryPlistWriter(maxDepth: maxDepth)
    _ = try writer.flatten(value, depth: 0)
    return writer.serialize()
  }

  // MARK: - Flattening

  private mutating func scalarIndex(_ key: ScalarKey, _ value: PlistValue) -> Int {
    // One hash for a new scalar (the common case): insert first, undo on a hit.
    let index = objects.count
    if let existing = unique.updateValue(index, forKey: key) {
      unique[key] = existing
      return existing
    }
    objects.append(.scalar(value))
    return index
  }

  private mutating func flatten(_ value: PlistValue, depth: Int) throws(PlistError) -> Int {
    switch value {
    case .string(let s): return scalarIndex(.string(s), value)
    case .integer(let i):
      return i >= 0
        ? scalarIndex(.unsignedInteger(UInt64(i)), value) : scalarIndex(.integer(i), value)
    case .unsignedInteger(let u): return scalarIndex(.unsignedInteger(u), value)
    case .real(let d): return scalarIndex(.real(d.bitPattern), value)
    case .bool(let b): return scalarIndex(.bool(b), value)
    case .date(let d): return scalarIndex(.date(d.timeIntervalSinceReferenceDate.bitPattern), value)
    case .data(let d): return scalarIndex(.data(d), value)
    case .uid(let u): return scalarIndex(.uid(u), value)
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
      let entries = PlistValue.sortedEntries(dictionary)
      var keyRefs: [Int] = []
      keyRefs.reserveCapacity(entries.count)
      for (key, _) in entries { keyRefs.append(scalarIndex(.string(key), .string(key))) }
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
    let refSize = Self.byteWidth(UInt64(max(objects.count - 1, 0)))
    var out: [UInt8] = []
    out.reserveCapacity(objects.count * 12 + 64)
    out.append(contentsOf: BinaryPlistReader.magic)
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
            utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0x80 } }
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
    let offsetSize = Self.byteWidth(UInt64(offsets.last ?? 0))
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
