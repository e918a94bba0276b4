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

/// Reads Apple's `bplist00` format.
///
/// Hostile input is the design case: every count, offset and reference is range-checked with
/// overflow-checked arithmetic before use; containers are decoded with an explicit stack (no
/// recursion a file can drive); a container reached again while it is being decoded is a
/// cycle; shared objects are decoded once and reused, and the number of values they expand to
/// is counted against ``PlistLimits/maxObjects`` so a "billion laughs" file is refused early.
///
/// The reader is generic over its bytes (a buffer, or a file's windows) without a constraint
/// on its declaration: the metadata of `BinaryPlistReader<UnsafeRawBufferPointer>`, made at
/// run time on first use, then needs no protocol conformance looked up (a scan of every
/// conformance in the program, about 0.1 ms of `prefs read FILE KEY`). The methods are in an
/// extension that has the constraint.
struct BinaryPlistReader<Bytes> {
  let bytes: Bytes
  let limits: PlistLimits
  /// Whose reader the file is read as: a key twice, a UID, a key that is not a string.
  var options = PlistReadOptions.lenient
  private var warnings: [PlistWarning] = []

  private(set) var offsetIntSize = 0
  private(set) var objectRefSize = 0
  private(set) var objectCount = 0
  private(set) var topObject = 0
  private(set) var offsetTableOffset = 0

  /// Per object: how many references name it (saturating at 2) in the low bits, and
  /// `inProgressBit` while it is on the decoding stack. One byte an object.
  private var marks: [UInt8] = []
  private static var inProgressBit: UInt8 { 0x80 }
  /// Decoded objects that are referenced more than once, with how many values each expands
  /// to. Objects referenced once are not kept: that is most of them, and most of the memory.
  private var shared = [Int: (value: PlistValue, expansion: Expansion)]()

  /// What a value expands to: how many values, and about how many bytes (strings and data by
  /// their length, every other value as 8), each use of a shared object counted.
  struct Expansion {
    var values: Int
    var bytes: Int

    static func of(_ value: PlistValue) -> Expansion {
      switch value {
      case .string(let s): Expansion(values: 1, bytes: 8 + s.utf8.count)
      case .data(let d): Expansion(values: 1, bytes: 8 + d.count)
      default: Expansion(values: 1, bytes: 8)
      }
    }
  }

  init(bytes: Bytes, limits: PlistLimits) {
    self.bytes = bytes
    self.limits = limits
  }
}

extension BinaryPlistReader where Bytes: BinaryBytes {
  /// Parses the whole document from `bytes`.
  static func read(
    _ bytes: Bytes, limits: PlistLimits, options: PlistReadOptions = .lenient
  ) throws(PlistError) -> (PlistValue, [PlistWarning]) {
    var reader = BinaryPlistReader(bytes: bytes, limits: limits)
    reader.options = options
    let value = try reader.readDocument()
    return (value, reader.warnings)
  }

  // MARK: - Trailer

  mutating func readTrailer() throws(PlistError) {
    let count = bytes.count
    let magicCount = 8
    guard count >= magicCount else {
      throw .truncated(format: .binary, at: .byteOffset(count), expected: "the 8-byte header")
    }
    for i in 0..<magicCount where bytes[i] != BinaryPlist.magicByte(i) {
      // CoreFoundation reads `bplist0` and any eighth byte ("bplist0?") as `bplist00`.
      if i == 7, options.exact, options.reader == .coreFoundation { break }
      if i >= 6 {
        throw .unsupported(
          format: .binary, at: .byteOffset(6),
          feature: "binary plist version \"\(Character(UnicodeScalar(bytes[6])))"
            + "\(Character(UnicodeScalar(bytes[7])))\"")
      }
      throw .malformed(format: .binary, at: .byteOffset(i), reason: "not a bplist00 header")
    }
    guard count >= magicCount + 1 + 1 + BinaryPlist.trailerSize else {
      throw .truncated(
        format: .binary, at: .byteOffset(count),
        expected: "at least one object, an offset table and the 32-byte trailer")
    }
    let t = count - BinaryPlist.trailerSize
    offsetIntSize = Int(bytes[t + 6])
    objectRefSize = Int(bytes[t + 7])
    guard (1...8).contains(offsetIntSize) else {
      throw .malformed(
        format: .binary, at: .byteOffset(t + 6),
        reason: "trailer offset size \(offsetIntSize) is not 1 to 8 (is the file truncated?)")
    }
    guard (1...8).contains(objectRefSize) else {
      throw .malformed(
        format: .binary, at: .byteOffset(t + 7),
        reason: "trailer reference size \(objectRefSize) is not 1 to 8 (is the file truncated?)")
    }
    let rawCount = readUInt(at: t + 8, size: 8)
    let rawTop = readUInt(at: t + 16, size: 8)
    let rawTable = readUInt(at: t + 24, size: 8)
    // Every object takes at least one byte between the header and the offset table.
    guard rawCount >= 1, rawCount <= UInt64(t) else {
      throw .malformed(
        format: .binary, at: .byteOffset(t + 8),
        reason: "trailer object count \(rawCount) does not fit a \(count)-byte file")
    }
    objectCount = Int(rawCount)
    guard objectCount <= limits.maxObjects else {
      throw .limitExceeded(
        format: .binary, at: .byteOffset(t + 8), limit: .objects(limits.maxObjects))
    }
    guard rawTop < rawCount else {
      throw .malformed(
        format: .binary, at: .byteOffset(t + 16),
        reason: "top object \(rawTop) is not below the object count \(rawCount)")
    }
    topObject = Int(rawTop)
    let (tableBytes, o1) = objectCount.multipliedReportingOverflow(by: offsetIntSize)
    guard rawTable >= 9, rawTable < UInt64(t), !o1 else {
      throw .malformed(
        format: .binary, at: .byteOffset(t + 24),
        reason: "offset table offset \(rawTable) lies outside the file (is the file truncated?)")
    }
    offsetTableOffset = Int(rawTable)
    let (tableEnd, o2) = offsetTableOffset.addingReportingOverflow(tableBytes)
    guard !o2, tableEnd <= t else {
      throw .malformed(
        format: .binary, at: .byteOffset(offsetTableOffset),
        reason: "offset table of \(objectCount) entries runs past the trailer")
    }
    if options.exact, options.reader == .gnustep, offsetIntSize > 4 || objectRefSize > 4 {
      throw .unsupported(
        format: .binary, at: .byteOffset(t + 6),
        feature: "offsets or references wider than 4 bytes, which GNUstep refuses")
    }
    if options.exact, options.reader == .coreFoundation {
      // CoreFoundation refuses a file with bytes between its offset table and its trailer,
      // and offsets too narrow to reach the table.
      guard tableEnd == t else {
        throw .malformed(
          format: .binary, at: .byteOffset(tableEnd),
          reason: "\(t - tableEnd) bytes between the offset table and the trailer, which "
            + "CoreFoundation refuses")
      }
      if offsetIntSize < 8, UInt64(offsetTableOffset) >> (8 * UInt64(offsetIntSize)) != 0 {
        throw .malformed(
          format: .binary, at: .byteOffset(t + 6),
          reason: "\(offsetIntSize)-byte offsets cannot reach the offset table at "
            + "\(offsetTableOffset), which CoreFoundation refuses")
      }
    }
    // References must be able to name every object.
    if objectRefSize < 8, UInt64(objectCount - 1) >> (8 * UInt64(objectRefSize)) != 0 {
      throw .malformed(
        format: .binary, at: .byteOffset(t + 7),
        reason: "\(objectRefSize)-byte references cannot name \(objectCount) objects")
    }
  }

  /// A byte of marks per object (shared, in progress), made when decoding needs them: a
  /// single-key lookup that finds a scalar by the ASCII scan never does (200 KB to clear for
  /// 200,000 objects).
  private mutating func allocateMarks() {
    if marks.count != objectCount { marks = Array(repeating: 0, count: objectCount) }
  }

  private mutating func readDocument() throws(PlistError) -> PlistValue {
    try readTrailer()
    allocateMarks()
    countReferences()
    return try decodeTree(root: topObject)
  }

  enum Scan {
    case found(Int)
    case absent
    /// Something the full read reports (a repeated key, a malformed reference).
    case undecided
    /// A key object that is not an ASCII string: the general loop decides.
    case general
  }

  /// The keys of a dictionary whose key objects are all ASCII strings, compared with `ascii`
  /// in place: the position of the one equal key. No string is built and nothing throws;
  /// anything out of the ordinary is left to the general loop or the full read.
  static func scanASCIIKeys(
    _ ascii: [UInt8], in bytes: UnsafeRawBufferPointer, refs: Int, count: Int, refSize: Int,
    table: Int, offsetSize: Int, objects: Int
  ) -> Scan {
    guard bytes.baseAddress != nil, refSize > 0, offsetSize > 0,
      refs >= 0, count >= 0, refs + count * refSize <= table
    else { return .undecided }
    // One loop per pair of widths (the usual 1 to 4 bytes), so that each reference and each
    // offset is one load: a 100,000-key file has 3-byte references and offsets.
    @inline(__always)
    func with<R: BigEndianField>(_: R.Type) -> Scan {
      switch offsetSize {
      case 1: scan(R.self, Field1.self)
      case 2: scan(R.self, Field2.self)
      case 3: scan(R.self, Field3.self)
      case 4: scan(R.self, Field4.self)
      default: scan(R.self, FieldN.self)
      }
    }
    @inline(__always)
    func scan<R: BigEndianField, O: BigEndianField>(_: R.Type, _: O.Type) -> Scan {
      scanKeys(
        ascii, in: bytes, refs: refs, count: count, refSize: refSize, table: table,
        offsetSize: offsetSize, objects: objects, R.self, O.self)
    }
    switch refSize {
    case 1: return with(Field1.self)
    case 2: return with(Field2.self)
    case 3: return with(Field3.self)
    case 4: return with(Field4.self)
    default: return with(FieldN.self)
    }
  }

  // Inlined into each of `scanASCIIKeys`' cases: one loop per pair of concrete widths.
  @inline(__always)
  private static func scanKeys<R: BigEndianField, O: BigEndianField>(
    _ ascii: [UInt8], in bytes: UnsafeRawBufferPointer, refs: Int, count: Int, refSize: Int,
    table: Int, offsetSize: Int, objects: Int, _: R.Type, _: O.Type
  ) -> Scan {
    guard let base = bytes.baseAddress else { return .undecided }
    let length = ascii.count
    return ascii.withUnsafeBufferPointer { key -> Scan in
      var match = -1
      var at = refs
      for n in 0..<count {
        // (No overflow: `refs + count * refSize <= table` was checked, `ref < objects` and the
        // offset table of `objects` entries is inside the file.)
        let ref = R.read(base, at, refSize)
        at &+= refSize
        guard ref >= 0, ref < objects else { return .undecided }
        let offset = O.read(base, table &+ ref &* offsetSize, offsetSize)
        guard offset >= 8, offset < table else { return .undecided }
        let marker = base.load(fromByteOffset: offset, as: UInt8.self)
        guard marker >> 4 == 0x5 else { return .general }
        var size = Int(marker & 0x0F)
        var payload = offset + 1
        if size == 0x0F {
          // The length follows as an integer object of 1, 2, 4 or 8 bytes.
          guard offset + 2 <= table else { return .undecided }
          let intMarker = base.load(fromByteOffset: offset + 1, as: UInt8.self)
          guard intMarker & 0xF0 == 0x10, intMarker & 0x0F <= 3 else { return .undecided }
          let width = 1 << Int(intMarker & 0x0F)
          guard offset + 2 + width <= table, width < 8 else { return .undecided }
          size = FieldN.read(base, offset + 2, width)
          payload = offset + 2 + width
        }
        guard size == length else { continue }
        guard payload + size <= table else { return .undecided }
        if size > 0, let keyBase = key.baseAddress {
          // Keys of one length often share a prefix ("setting.1", "setting.2"): their last
          // eight bytes tell most apart without a call.
          if size >= 8,
            base.loadUnaligned(fromByteOffset: payload + size - 8, as: UInt64.self)
              != UnsafeRawPointer(keyBase).loadUnaligned(fromByteOffset: size - 8, as: UInt64.self)
          {
            continue
          }
          if memcmp(base + payload, keyBase, size) != 0 { continue }
        }
        guard match < 0 else { return .undecided }
        match = n
      }
      return match < 0 ? .absent : .found(match)
    }
  }

  /// Counts, for every object, how many container references name it (saturating at 2), so
  /// that only shared objects are kept for reuse. Broken objects are skipped here; the
  /// decoding pass reports them.
  private mutating func countReferences() {
    marks[topObject] = 1
    for index in 0..<objectCount {
      let entry = offsetTableOffset + index * offsetIntSize
      let raw = readUInt(at: entry, size: offsetIntSize)
      guard raw >= 8, raw < UInt64(offsetTableOffset) else { continue }
      let offset = Int(raw)
      let high = bytes[offset] >> 4
      guard high == 0xA || high == 0xC || high == 0xD,
        let (count, payload) = try? readCount(marker: bytes[offset], at: offset, object: index)
      else { continue }
      let refs = high == 0xD ? count * 2 : count
      let (length, overflow) = refs.multipliedReportingOverflow(by: objectRefSize)
      guard !overflow, payload + length <= offsetTableOffset else { continue }
      for k in 0..<refs {
        let ref = readUInt(at: payload + k * objectRefSize, size: objectRefSize)
        if ref < UInt64(objectCount), marks[Int(ref)] < 2 { marks[Int(ref)] += 1 }
      }
    }
  }

  @inline(__always)
  private func isShared(_ index: Int) -> Bool { marks[index] & 0x7F >= 2 }

  @inline(__always)
  private func isInProgress(_ index: Int) -> Bool { marks[index] & Self.inProgressBit != 0 }

  // MARK: - Primitive reads

  @inline(__always)
  func readUInt(at offset: Int, size: Int) -> UInt64 {
    bytes.bigEndian(at: offset, size: size)
  }

  /// The byte offset where object `index` starts, checked to lie in the object area.
  func objectOffset(_ index: Int) throws(PlistError) -> Int {
    let entry = offsetTableOffset + index * offsetIntSize
    let raw = readUInt(at: entry, size: offsetIntSize)
    guard raw >= 8, raw < UInt64(offsetTableOffset) else {
      throw .malformed(
        format: .binary, at: .byteOffset(entry),
        reason: "object \(index) has offset \(raw), outside the object area")
    }
    return Int(raw)
  }

  /// Checks that `length` bytes starting at `offset` lie before the offset table.
  @inline(__always)
  func require(_ offset: Int, _ length: Int, object: Int, what: String) throws(PlistError) {
    let (end, overflow) = offset.addingReportingOverflow(length)
    guard !overflow, length >= 0, end <= offsetTableOffset else {
      throw .truncated(
        format: .binary, at: .byteOffset(offset),
        expected: "\(what) of object \(object) (\(length) bytes) before the offset table")
    }
  }

  /// Reads the element count of a marker byte at `offset`: the low nibble, or an integer
  /// object that follows when the nibble is 0xF. Returns the count and where the payload starts.
  func readCount(marker: UInt8, at offset: Int, object: Int) throws(PlistError) -> (
    count: Int, payload: Int
  ) {
    let nibble = Int(marker & 0x0F)
    if nibble != 0x0F { return (nibble, offset + 1) }
    try require(offset + 1, 1, object: object, what: "the count marker")
    let intMarker = bytes[offset + 1]
    guard intMarker & 0xF0 == 0x10, intMarker & 0x0F <= 3 else {
      throw .malformed(
        format: .binary, at: .byteOffset(offset + 1),
        reason: "count of object \(object) has marker 0x\(intMarker.hex(width: 2)), not an integer")
    }
    let size = 1 << Int(intMarker & 0x0F)
    try require(offset + 2, size, object: object, what: "the count")
    let raw = readUInt(at: offset + 2, size: size)
    guard raw <= UInt64(offsetTableOffset) else {
      throw .malformed(
        format: .binary, at: .byteOffset(offset + 2),
        reason: "count \(raw) of object \(object) is larger than the file")
    }
    return (Int(raw), offset + 2 + size)
  }

  func checkedReference(at offset: Int, from object: Int) throws(PlistError) -> Int {
    let ref = readUInt(at: offset, size: objectRefSize)
    guard ref < UInt64(objectCount) else {
      throw .malformed(
        format: .binary, at: .byteOffset(offset),
        reason: "object \(object) refers to object \(ref), but there are only \(objectCount)")
    }
    return Int(ref)
  }

  // MARK: - Scalars

  enum Decoded {
    case scalar(PlistValue)
    case container(isDictionary: Bool, count: Int, refs: Int, isSet: Bool)
  }

  mutating func decodeObject(_ index: Int) throws(PlistError) -> Decoded {
    let offset = try objectOffset(index)
    let marker = bytes[offset]
    let high = marker >> 4
    switch high {
    case 0x0:
      switch marker {
      case 0x08: return .scalar(.bool(false))
      case 0x09: return .scalar(.bool(true))
      case 0x00:
        throw .unsupported(format: .binary, at: .byteOffset(offset), feature: "a null object")
      default:
        throw .malformed(
          format: .binary, at: .byteOffset(offset),
          reason: "unknown object marker 0x\(marker.hex(width: 2))")
      }
    case 0x1:
      let exponent = Int(marker & 0x0F)
      guard exponent <= 4 else {
        throw .malformed(
          format: .binary, at: .byteOffset(offset),
          reason: "integer of 2^\(exponent) bytes (at most 16 are allowed)")
      }
      let size = 1 << exponent
      try require(offset + 1, size, object: index, what: "the integer")
      switch size {
      case 1, 2, 4:
        return .scalar(.integer(Int64(readUInt(at: offset + 1, size: size))))
      case 8:
        return .scalar(.integer(Int64(bitPattern: readUInt(at: offset + 1, size: 8))))
      default:
        // 16 bytes: a 128-bit signed integer; only values that fit in 64 bits are accepted.
        let high = readUInt(at: offset + 1, size: 8)
        let low = readUInt(at: offset + 9, size: 8)
        if options.exact {
          guard options.reader == .coreFoundation else {
            throw .unsupported(
              format: .binary, at: .byteOffset(offset),
              feature: "a 16-byte integer, which GNUstep refuses")
          }
          // CoreFoundation keeps the low 64 bits, unsigned (-1 in 16 bytes is 2^64 - 1).
          if high != 0 {
            warnings.append(
              .readAs(
                .coreFoundation,
                "a 16-byte integer as \(low), its low 64 bits (CoreFoundation drops the rest)",
                at: .byteOffset(offset)))
          }
          return .scalar(.int(low))
        }
        if high == 0 { return .scalar(.int(low)) }
        if high == .max, low >> 63 == 1 { return .scalar(.integer(Int64(bitPattern: low))) }
        throw .malformed(
          format: .binary, at: .byteOffset(offset),
          reason: "integer does not fit in 64 bits")
      }
    case 0x2:
      switch marker & 0x0F {
      case 2:
        try require(offset + 1, 4, object: index, what: "the real")
        let bits = UInt32(truncatingIfNeeded: readUInt(at: offset + 1, size: 4))
        return .scalar(.real(Double(Float(bitPattern: bits))))
      case 3:
        try require(offset + 1, 8, object: index, what: "the real")
        return .scalar(.real(Double(bitPattern: readUInt(at: offset + 1, size: 8))))
      default:
        throw .malformed(
          format: .binary, at: .byteOffset(offset),
          reason: "real of 2^\(marker & 0x0F) bytes (only 4 and 8 exist)")
      }
    case 0x3:
      guard marker == 0x33 else {
        throw .malformed(
          format: .binary, at: .byteOffset(offset),
          reason: "unknown object marker 0x\(marker.hex(width: 2))")
      }
      try require(offset + 1, 8, object: index, what: "the date")
      let seconds = Double(bitPattern: readUInt(at: offset + 1, size: 8))
      guard seconds.isFinite else {
        throw .malformed(
          format: .binary, at: .byteOffset(offset + 1), reason: "date is \(seconds)")
      }
      return .scalar(.date(Date(timeIntervalSinceReferenceDate: seconds)))
    case 0x4:
      let (count, payload) = try readCount(marker: marker, at: offset, object: index)
      try require(payload, count, object: index, what: "the data")
      return .scalar(.data(bytes.withBytes(payload..<(payload + count)) { Data($0) }))
    case 0x5:
      let (count, payload) = try readCount(marker: marker, at: offset, object: index)
      try require(payload, count, object: index, what: "the ASCII string")
      // The text, or the offset of its first byte that is not ASCII.
      let text = bytes.withBytes(payload..<(payload + count)) { slice -> (String?, Int) in
        if let i = slice.firstIndex(where: { $0 >= 0x80 }) { return (nil, i) }
        return (String(decoding: slice, as: UTF8.self), 0)
      }
      guard let string = text.0 else {
        throw .invalidText(format: .binary, at: .byteOffset(payload + text.1), encoding: "ASCII")
      }
      return .scalar(.string(string))
    case 0x6:
      let (count, payload) = try readCount(marker: marker, at: offset, object: index)
      if count == 0, options.exact, options.reader == .coreFoundation {
        throw .unsupported(
          format: .binary, at: .byteOffset(offset),
          feature: "a UTF-16 string of no characters, which CoreFoundation refuses")
      }
      let (length, overflow) = count.multipliedReportingOverflow(by: 2)
      guard !overflow else {
        throw .malformed(
          format: .binary, at: .byteOffset(offset), reason: "string length overflows")
      }
      try require(payload, length, object: index, what: "the UTF-16 string")
      return .scalar(.string(try decodeUTF16BE(at: payload, units: count)))
    case 0x8:
      let size = Int(marker & 0x0F) + 1
      try require(offset + 1, size, object: index, what: "the UID")
      return .scalar(try uid(at: offset, size: size))
    case 0xA, 0xC, 0xD:
      let (count, payload) = try readCount(marker: marker, at: offset, object: index)
      let refs = high == 0xD ? count * 2 : count
      let (length, overflow) = refs.multipliedReportingOverflow(by: objectRefSize)
      guard !overflow else {
        throw .malformed(
          format: .binary, at: .byteOffset(offset), reason: "container size overflows")
      }
      try require(payload, length, object: index, what: "the references")
      return .container(isDictionary: high == 0xD, count: count, refs: payload, isSet: high == 0xC)
    default:
      throw .malformed(
        format: .binary, at: .byteOffset(offset),
        reason: "unknown object marker 0x\(marker.hex(width: 2))")
    }
  }

  private func decodeUTF16BE(at offset: Int, units: Int) throws(PlistError) -> String {
    var codeUnits = [UInt16](repeating: 0, count: units)
    var pendingHigh = false
    for i in 0..<units {
      let unit = UInt16(bytes[offset + 2 * i]) << 8 | UInt16(bytes[offset + 2 * i + 1])
      codeUnits[i] = unit
      switch unit {
      case 0xD800...0xDBFF:
        if pendingHigh {
          throw .invalidText(
            format: .binary, at: .byteOffset(offset + 2 * i - 2), encoding: "UTF-16")
        }
        pendingHigh = true
      case 0xDC00...0xDFFF:
        if !pendingHigh {
          throw .invalidText(format: .binary, at: .byteOffset(offset + 2 * i), encoding: "UTF-16")
        }
        pendingHigh = false
      default:
        if pendingHigh {
          throw .invalidText(
            format: .binary, at: .byteOffset(offset + 2 * i - 2), encoding: "UTF-16")
        }
      }
    }
    if pendingHigh {
      throw .invalidText(
        format: .binary, at: .byteOffset(offset + 2 * units - 2), encoding: "UTF-16")
    }
    return String(decoding: codeUnits, as: UTF16.self)
  }

  /// A UID of `size` bytes at `offset` (its marker's), as the reader reads it: CoreFoundation
  /// takes any width to 16 bytes (their last 64 bits) and refuses a value above 32 bits;
  /// GNUstep reads a UID of one or two bytes as the dictionary `{CF$UID = n}` and refuses
  /// wider ones. Not exactly: any width to 8 bytes, as a UID.
  private func uid(at offset: Int, size: Int) throws(PlistError) -> PlistValue {
    switch (options.reader, options.exact) {
    case (.coreFoundation, true):
      var value: UInt64 = 0
      for k in 0..<size { value = value << 8 | UInt64(bytes[offset + 1 + k]) }
      guard value <= UInt64(UInt32.max) else {
        throw .unsupported(
          format: .binary, at: .byteOffset(offset),
          feature: "a UID above 32 bits (\(value)), which CoreFoundation refuses")
      }
      return .uid(value)
    case (.gnustep, true) where size > 2:
      throw .unsupported(
        format: .binary, at: .byteOffset(offset),
        feature: "a UID of \(size) bytes, which GNUstep refuses (it reads one or two)")
    case (.gnustep, _) where size <= 2:
      return .dictionary(["CF$UID": .integer(Int64(readUInt(at: offset + 1, size: size)))])
    default:
      guard size <= 8 else {
        throw .malformed(
          format: .binary, at: .byteOffset(offset), reason: "UID of \(size) bytes (at most 8)")
      }
      return .uid(readUInt(at: offset + 1, size: size))
    }
  }

  /// A dictionary key: strings as they are; other scalars under their text form, reported
  /// (read exactly, refused: both readers keep such a key as it is, which a domain cannot).
  private mutating func decodeKey(_ index: Int, refOffset: Int) throws(PlistError) -> String {
    if isShared(index), let cached = shared[index], case .string(let s) = cached.value { return s }
    let decoded = try decodeObject(index)
    guard case .scalar(let value) = decoded else {
      throw .malformed(
        format: .binary, at: .byteOffset(refOffset),
        reason: "dictionary key (object \(index)) is a container, not a string")
    }
    if case .string(let s) = value {
      if isShared(index) { shared[index] = (value, Expansion.of(value)) }
      return s
    }
    let text = OpenStepWriter.describeScalar(value)
    if options.exact {
      throw .unsupported(
        format: .binary, at: .byteOffset(refOffset),
        feature: "a dictionary key that is not a string (the \(value.typeName) \(text)), which "
          + "\(options.reader) keeps as it is: a domain's keys are strings")
    }
    warnings.append(.nonStringKey(text, at: .byteOffset(refOffset)))
    return text
  }

  // MARK: - Containers, with an explicit stack

  private struct Frame {
    var object: Int
    var isDictionary: Bool
    var count: Int
    /// Byte offset of the value references (for a dictionary, after the key references).
    var valueRefs: Int
    /// Byte offset of a dictionary's key references.
    var keyRefs = 0
    var next = 0
    /// An array's elements so far; a dictionary's entries go straight into `dictionary`
    /// (no parallel key and value arrays: they would double the peak memory of a large domain).
    var values: [PlistValue] = []
    var dictionary = PlistDictionary.Builder()
    var expanded = Expansion(values: 1, bytes: 8)
  }

  /// Adds the frame's next value: appended to an array, or stored under its key (decoded now)
  /// in a dictionary.
  private mutating func add(_ value: PlistValue, to frame: inout Frame) throws(PlistError) {
    if frame.isDictionary {
      let refOffset = frame.keyRefs + frame.next * objectRefSize
      let keyIndex = try checkedReference(at: refOffset, from: frame.object)
      let key = try decodeKey(keyIndex, refOffset: refOffset)
      try addExpansion(&frame, Expansion(values: 1, bytes: 8 + key.utf8.count), at: refOffset)
      if let warning = frame.dictionary.store(
        value, forKey: key, at: .byteOffset(refOffset),
        keepingFirst: options.reader == .coreFoundation)
      {
        warnings.append(warning)
      }
    } else {
      frame.values.append(value)
    }
    frame.next += 1
  }

  private mutating func addExpansion(_ frame: inout Frame, _ amount: Expansion, at offset: Int)
    throws(PlistError)
  {
    frame.expanded.values += amount.values
    frame.expanded.bytes += amount.bytes
    guard frame.expanded.values <= limits.maxObjects else {
      throw .limitExceeded(
        format: .binary, at: .byteOffset(offset), limit: .objects(limits.maxObjects))
    }
    // The ratio bound: a subtree's size is at most the document's, so checking each frame
    // stops the document as soon as its expansion is too large for its input.
    let expanded = frame.expanded.bytes
    if expanded > limits.amplificationThreshold,
      expanded / max(bytes.count, 1) >= limits.maxAmplification
    {
      throw .limitExceeded(
        format: .binary, at: .byteOffset(offset),
        limit: .amplification(
          factor: limits.maxAmplification, inputBytes: bytes.count,
          threshold: limits.amplificationThreshold))
    }
  }

  /// Starts a frame for container `index`, decoding its keys right away.
  private mutating func makeFrame(
    _ index: Int, isDictionary: Bool, count: Int, refs: Int, isSet: Bool, depth: Int
  ) throws(PlistError) -> Frame {
    guard depth <= limits.maxDepth else {
      throw .limitExceeded(
        format: .binary, at: .byteOffset(refs), limit: .depth(limits.maxDepth))
    }
    if isSet { warnings.append(.setReadAsArray(at: .byteOffset(refs))) }
    var frame = Frame(
      object: index, isDictionary: isDictionary, count: count,
      valueRefs: isDictionary ? refs + count * objectRefSize : refs)
    if isDictionary {
      frame.keyRefs = refs
      frame.dictionary = PlistDictionary.Builder(minimumCapacity: count)
    } else {
      frame.values.reserveCapacity(count)
    }
    return frame
  }

  private func finish(_ frame: Frame) -> PlistValue {
    frame.isDictionary ? .dictionary(frame.dictionary.dictionary) : .array(frame.values)
  }

  /// Decodes `root` and everything under it; `depth` is the root's depth in the document.
  private mutating func decodeTree(root: Int, depth rootDepth: Int = 1) throws(PlistError)
    -> PlistValue
  {
    let rootObject = try decodeObject(root)
    guard case .container(let isDictionary, let count, let refs, let isSet) = rootObject else {
      if case .scalar(let value) = rootObject { return value }
      throw .malformed(format: .binary, at: .byteOffset(0), reason: "unreadable top object")
    }
    var stack: [Frame] = []
    stack.append(
      try makeFrame(
        root, isDictionary: isDictionary, count: count, refs: refs, isSet: isSet,
        depth: rootDepth))
    marks[root] |= Self.inProgressBit
    while var frame = stack.popLast() {
      var descended = false
      while frame.next < frame.count {
        let refOffset = frame.valueRefs + frame.next * objectRefSize
        let child = try checkedReference(at: refOffset, from: frame.object)
        if isShared(child), let cached = shared[child] {
          try addExpansion(&frame, cached.expansion, at: refOffset)
          try add(cached.value, to: &frame)
          continue
        }
        if isInProgress(child) { throw .cycle(at: .byteOffset(refOffset), object: child) }
        switch try decodeObject(child) {
        case .scalar(let value):
          let expansion = Expansion.of(value)
          if isShared(child) { shared[child] = (value, expansion) }
          try addExpansion(&frame, expansion, at: refOffset)
          try add(value, to: &frame)
        case .container(let isDictionary, let count, let refs, let isSet):
          let depth = stack.count + 1 + rootDepth
          stack.append(frame)
          marks[child] |= Self.inProgressBit
          stack.append(
            try makeFrame(
              child, isDictionary: isDictionary, count: count, refs: refs, isSet: isSet,
              depth: depth))
          descended = true
        }
        if descended { break }
      }
      if descended { continue }
      let value = finish(frame)
      marks[frame.object] &= ~Self.inProgressBit
      if isShared(frame.object) { shared[frame.object] = (value, frame.expanded) }
      guard !stack.isEmpty else { return value }
      let top = stack.count - 1
      try addExpansion(&stack[top], frame.expanded, at: stack[top].valueRefs)
      try add(value, to: &stack[top])
    }
    throw .malformed(format: .binary, at: .byteOffset(0), reason: "internal: empty stack")
  }
}

/// The reads of a buffer in memory.
extension BinaryPlistReader where Bytes == UnsafeRawBufferPointer {
  static func read(
    _ data: Data, limits: PlistLimits, options: PlistReadOptions = .lenient
  ) throws(PlistError) -> (PlistValue, [PlistWarning]) {
    let result: Result<(PlistValue, [PlistWarning]), PlistError> = data.withUnsafeBytes { raw in
      do throws(PlistError) {
        return .success(try read(raw, limits: limits, options: options))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  // MARK: - One key

  /// One key of a top-level dictionary, decoding only that key's value (and every key, to
  /// know it is there once). Anything a full read would report or refuse that this pass can
  /// see (a repeated key, a warning, any error) answers ``BinaryLookup/undecided``: the caller
  /// reads the whole document and reports it as usual.
  static func lookup(_ key: String, in data: Data, limits: PlistLimits) -> BinaryLookup {
    data.withUnsafeBytes { raw in
      var reader = BinaryPlistReader(bytes: raw, limits: limits)
      do throws(PlistError) {
        return try reader.lookup(key)
      } catch {
        return .undecided
      }
    }
  }

  private mutating func lookup(_ key: String) throws(PlistError) -> BinaryLookup {
    guard bytes.count <= limits.maxInputBytes else { return .undecided }
    try readTrailer()
    guard case .container(true, let count, let refs, false) = try decodeObject(topObject) else {
      return .undecided
    }
    let valueRefs = refs + count * objectRefSize
    // Keys match by their bytes, as in the full read's dictionary. An ASCII key is compared
    // with ASCII key objects in place (no string is built); when the dictionary has other key
    // objects, or the key is not ASCII, every key is decoded. A key object equal to this key
    // only under Unicode normalization (U+212A KELVIN SIGN and "K") is a warning of the full
    // read: left to it. Only this key's repetitions matter: other keys are the full read's
    // (and lint's).
    var match: Int?
    var scanned = false
    if key.utf8.allSatisfy({ $0 < 0x80 }) {
      switch Self.scanASCIIKeys(
        Array(key.utf8), in: bytes, refs: refs, count: count, refSize: objectRefSize,
        table: offsetTableOffset, offsetSize: offsetIntSize, objects: objectCount)
      {
      case .undecided: return .undecided
      case .absent: return .absent
      case .found(let n):
        match = try checkedReference(at: valueRefs + n * objectRefSize, from: topObject)
        scanned = true
      case .general: break
      }
    }
    if !scanned {
      allocateMarks()
      for n in 0..<count {
        let refOffset = refs + n * objectRefSize
        let name = try decodeKey(
          try checkedReference(at: refOffset, from: topObject), refOffset: refOffset)
        guard warnings.isEmpty else { return .undecided }
        guard name == key else { continue }
        guard PlistDictionary.sameBytes(name, key), match == nil else { return .undecided }
        match = try checkedReference(at: valueRefs + n * objectRefSize, from: topObject)
      }
    }
    guard let match else { return .absent }
    if match == topObject { return .undecided }
    // A scalar needs no marks.
    if case .scalar(let value) = try decodeObject(match) {
      return warnings.isEmpty ? .found(value) : .undecided
    }
    allocateMarks()
    marks[topObject] |= Self.inProgressBit
    let value = try decodeTree(root: match, depth: 2)
    return warnings.isEmpty ? .found(value) : .undecided
  }

}

/// A big-endian unsigned integer field of a binary property list, read with as few loads as
/// its width allows (the caller has checked the bytes are there).
protocol BigEndianField {
  static func read(_ base: UnsafeRawPointer, _ at: Int, _ width: Int) -> Int
}

enum Field1: BigEndianField {
  @inline(__always) static func read(_ base: UnsafeRawPointer, _ at: Int, _: Int) -> Int {
    Int(base.load(fromByteOffset: at, as: UInt8.self))
  }
}

enum Field2: BigEndianField {
  @inline(__always) static func read(_ base: UnsafeRawPointer, _ at: Int, _: Int) -> Int {
    Int(UInt16(bigEndian: base.loadUnaligned(fromByteOffset: at, as: UInt16.self)))
  }
}

enum Field3: BigEndianField {
  @inline(__always) static func read(_ base: UnsafeRawPointer, _ at: Int, _: Int) -> Int {
    Int(UInt16(bigEndian: base.loadUnaligned(fromByteOffset: at, as: UInt16.self))) << 8
      | Int(base.load(fromByteOffset: at + 2, as: UInt8.self))
  }
}

enum Field4: BigEndianField {
  @inline(__always) static func read(_ base: UnsafeRawPointer, _ at: Int, _: Int) -> Int {
    Int(UInt32(bigEndian: base.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
  }
}

/// Any width, byte by byte (5 to 8 bytes: files of more than 4 GiB or 2^32 objects).
enum FieldN: BigEndianField {
  static func read(_ base: UnsafeRawPointer, _ at: Int, _ width: Int) -> Int {
    var value = 0
    for i in 0..<width {
      value = value << 8 | Int(base.load(fromByteOffset: at + i, as: UInt8.self))
    }
    return value
  }
}
