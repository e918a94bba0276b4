#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
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
/// on its declaration: the metadata of `BinaryPlistReader<ByteView>`, made at
/// run time on first use, then needs no protocol conformance looked up (a scan of every
/// conformance in the program, about 0.1 ms of `prefs read FILE KEY`). The methods are in an
/// extension that has the constraint.
struct BinaryPlistReader<Bytes> {
  let bytes: Bytes
  let limits: PlistLimits
  /// Whose reader the file is read as: a key twice, a UID, a key that is not a string.
  var rules = ReaderRules.tools
  var warnings: [PlistWarning] = []

  private(set) var offsetIntSize = 0
  private(set) var objectRefSize = 0
  private(set) var objectCount = 0
  private(set) var topObject = 0
  private(set) var offsetTableOffset = 0

  /// Per object: how many references name it (saturating at 2) in the low bits, and
  /// `inProgressBit` while it is on the decoding stack. One byte an object.
  var marks: [UInt8] = []
  static var inProgressBit: UInt8 { 0x80 }
  /// Decoded objects that are referenced more than once, with how many values each expands
  /// to. Objects referenced once are not kept: that is most of them, and most of the memory.
  var shared: [Int: (value: PlistValue, expansion: Expansion)] = [:]

  init(bytes: Bytes, limits: PlistLimits) {
    self.bytes = bytes
    self.limits = limits
  }
}

extension BinaryPlistReader where Bytes: BinaryBytes {
  /// How far this file may expand through its shared objects.
  var budget: ExpansionBudget { ExpansionBudget(limits, inputBytes: bytes.count) }
}

extension BinaryPlistReader where Bytes: BinaryBytes {
  /// Parses the whole document from `bytes`.
  static func read(
    _ bytes: Bytes, limits: PlistLimits, rules: ReaderRules = .tools
  ) throws(PlistError) -> (PlistValue, [PlistWarning]) {
    var reader = BinaryPlistReader(bytes: bytes, limits: limits)
    reader.rules = rules
    let value = try reader.readDocument()
    return (value, reader.warnings)
  }

  // MARK: - Trailer

  mutating func readTrailer() throws(PlistError) {
    let count = bytes.count
    let magicCount = 8
    guard count >= magicCount else {
      throw .truncated(
        format: .binary, at: .byteOffset(count),
        expected: "the 8-byte header".naming(.truncatedBinary))
    }
    for i in 0..<magicCount where bytes[i] != BinaryPlist.magicByte(i) {
      // CoreFoundation reads `bplist0` and any eighth byte ("bplist0?") as `bplist00`.
      if i == 7, rules.anyEighthVersionByte { break }
      if i >= 6 {
        throw .unsupported(
          format: .binary, at: .byteOffset(6),
          feature: "binary plist version \"\(Character(UnicodeScalar(bytes[6])))"
            + "\(Character(UnicodeScalar(bytes[7])))\"".naming(.binaryVersion))
      }
      throw .malformed(
        format: .binary, at: .byteOffset(i), reason: "not a bplist00 header".naming(.binaryVersion))
    }
    guard count >= magicCount + 1 + 1 + BinaryPlist.trailerSize else {
      throw .truncated(
        format: .binary, at: .byteOffset(count),
        expected: "at least one object, an offset table and the 32-byte trailer"
          .naming(.truncatedBinary))
    }
    let t = count - BinaryPlist.trailerSize
    offsetIntSize = Int(bytes[t + 6])
    objectRefSize = Int(bytes[t + 7])
    guard (1...8).contains(offsetIntSize) else {
      throw .malformed(
        format: .binary, at: .byteOffset(t + 6),
        reason: "trailer offset size \(offsetIntSize) is not 1 to 8 (is the file truncated?)"
          .naming(.binaryOffsetSize))
    }
    guard (1...8).contains(objectRefSize) else {
      throw .malformed(
        format: .binary, at: .byteOffset(t + 7),
        reason: "trailer reference size \(objectRefSize) is not 1 to 8 (is the file truncated?)"
          .naming(.binaryReferenceSize))
    }
    let rawCount = readUInt(at: t + 8, size: 8)
    let rawTop = readUInt(at: t + 16, size: 8)
    let rawTable = readUInt(at: t + 24, size: 8)
    // Every object takes at least one byte between the header and the offset table.
    guard rawCount >= 1, rawCount <= UInt64(t) else {
      throw .malformed(
        format: .binary, at: .byteOffset(t + 8),
        reason: "trailer object count \(rawCount) does not fit a \(count)-byte file"
          .naming(.binaryObjectCount))
    }
    objectCount = Int(rawCount)
    guard objectCount <= limits.maxObjects else {
      throw .limitExceeded(
        format: .binary, at: .byteOffset(t + 8), limit: .objects(limits.maxObjects))
    }
    guard rawTop < rawCount else {
      throw .malformed(
        format: .binary, at: .byteOffset(t + 16),
        reason: "top object \(rawTop) is not below the object count \(rawCount)"
          .naming(.binaryTopObject))
    }
    topObject = Int(rawTop)
    let (tableBytes, o1) = objectCount.multipliedReportingOverflow(by: offsetIntSize)
    guard rawTable >= 9, rawTable < UInt64(t), !o1 else {
      throw .malformed(
        format: .binary, at: .byteOffset(t + 24),
        reason: "offset table offset \(rawTable) lies outside the file (is the file truncated?)"
          .naming(.binaryTableOffset))
    }
    offsetTableOffset = Int(rawTable)
    let (tableEnd, o2) = offsetTableOffset.addingReportingOverflow(tableBytes)
    guard !o2, tableEnd <= t else {
      throw .malformed(
        format: .binary, at: .byteOffset(offsetTableOffset),
        reason: "offset table of \(objectCount) entries runs past the trailer"
          .naming(.binaryTablePastTrailer))
    }
    if rules.wideFields == .refused, offsetIntSize > 4 || objectRefSize > 4 {
      throw .unsupported(
        format: .binary, at: .byteOffset(t + 6),
        feature: "offsets or references wider than 4 bytes, which GNUstep refuses"
          .naming(.binaryWideFields))
    }
    if rules.offsetTableFlaws != .read {
      // CoreFoundation refuses a file with bytes between its offset table and its trailer,
      // offsets too narrow to reach the table, and an entry of the table at or past it (every
      // entry, named by a reference or not); GNUstep reads it (the tools too, with a warning).
      if tableEnd != t {
        try offsetTableFlaw(
          .malformed(
            format: .binary, at: .byteOffset(tableEnd),
            reason: "\(t - tableEnd) bytes between the offset table and the trailer, which "
              + "CoreFoundation refuses".naming(.binaryGapBeforeTrailer)),
          "\(t - tableEnd) bytes between the offset table and the trailer",
          at: tableEnd)
      }
      if offsetIntSize < 8, UInt64(offsetTableOffset) >> (8 * UInt64(offsetIntSize)) != 0 {
        try offsetTableFlaw(
          .malformed(
            format: .binary, at: .byteOffset(t + 6),
            reason: "\(offsetIntSize)-byte offsets cannot reach the offset table at "
              + "\(offsetTableOffset), which CoreFoundation refuses".naming(.binaryOffsetsTooNarrow)
          ),
          "\(offsetIntSize)-byte offsets that cannot reach the offset table at "
            + "\(offsetTableOffset)", at: t + 6)
      }
      // One pass of the field's own loads over the table (checked whole above): this runs for
      // every read, the one-key read of a large file included.
      let width = offsetIntSize
      let limit = offsetTableOffset
      let tableRange = offsetTableOffset..<(offsetTableOffset + objectCount * width)
      let past = bytes.withBytes(tableRange) { table -> Int? in
        switch width {
        case 1: Self.firstEntry(Field1.self, of: table, width: 1, atOrPast: limit)
        case 2: Self.firstEntry(Field2.self, of: table, width: 2, atOrPast: limit)
        case 3: Self.firstEntry(Field3.self, of: table, width: 3, atOrPast: limit)
        case 4: Self.firstEntry(Field4.self, of: table, width: 4, atOrPast: limit)
        default:
          // 5 to 8 bytes: unsigned, as an offset of 2^63 or more must count as past the table.
          (0..<(table.count / width)).first {
            table.bigEndian(at: $0 * width, size: width) >= UInt64(limit)
          }
        }
      }
      if let index = past {
        let entry = offsetTableOffset + index * offsetIntSize
        let raw = readUInt(at: entry, size: offsetIntSize)
        try offsetTableFlaw(
          .malformed(
            format: .binary, at: .byteOffset(entry),
            reason: "object \(index) has offset \(raw), at or past the offset table, which "
              + "CoreFoundation refuses".naming(.binaryOffsetPastTable)),
          "object \(index) with offset \(raw), at or past the offset table", at: entry)
      }
    }
    // References must be able to name every object.
    if objectRefSize < 8, UInt64(objectCount - 1) >> (8 * UInt64(objectRefSize)) != 0 {
      throw .malformed(
        format: .binary, at: .byteOffset(t + 7),
        reason: "\(objectRefSize)-byte references cannot name \(objectCount) objects"
          .naming(.binaryReferencesTooNarrow))
    }
  }

  /// The first entry of an offset table (`table`, entries of `width` bytes) whose offset is at
  /// or past `limit`, if any.
  @inline(__always)
  static func firstEntry<F: BigEndianField>(
    _: F.Type, of table: ByteView, width: Int, atOrPast limit: Int
  ) -> Int? {
    let count = table.count / width
    var index = 0
    var at = 0
    while index < count {
      if F.read(table, at, width) >= limit { return index }
      index += 1
      at += width
    }
    return nil
  }

  /// A flaw of the offset table CoreFoundation refuses and GNUstep reads: `refusal`, or (the
  /// tools) a warning naming the row of what they read beyond CoreFoundation.
  @inline(never)
  private mutating func offsetTableFlaw(
    _ refusal: PlistError, _ what: String, at offset: Int
  ) throws(PlistError) {
    guard rules.offsetTableFlaws == .warned else { throw refusal }
    warnings.append(
      .readAs(
        .gnustep, "\(what), which CoreFoundation refuses".naming(.toolsReadMore),
        at: .byteOffset(offset)))
  }

  // MARK: - Primitive reads

  @inline(__always)
  func readUInt(at offset: Int, size: Int) -> UInt64 {
    bytes.bigEndian(at: offset, size: size)
  }

  /// The byte offset where object `index` starts, checked to lie in the object area.
  // Inlined into every walk, its error made out of line: a call with the error's text
  // in it was fifty instructions an object.
  @inline(__always)
  func objectOffset(_ index: Int) throws(PlistError) -> Int {
    let entry = offsetTableOffset + index * offsetIntSize
    let raw = readUInt(at: entry, size: offsetIntSize)
    guard raw >= 8, raw < UInt64(offsetTableOffset) else {
      throw Self.outsideObjectArea(index, offset: raw, entry: entry)
    }
    return Int(raw)
  }

  @inline(never)
  static func outsideObjectArea(_ index: Int, offset: UInt64, entry: Int) -> PlistError {
    .malformed(
      format: .binary, at: .byteOffset(entry),
      reason: "object \(index) has offset \(offset), outside the object area"
        .naming(.binaryOffsetOutsideObjects))
  }

  /// Checks that `length` bytes starting at `offset` lie before the offset table.
  @inline(__always)
  func require(_ offset: Int, _ length: Int, object: Int, what: String) throws(PlistError) {
    let (end, overflow) = offset.addingReportingOverflow(length)
    guard !overflow, length >= 0, end <= offsetTableOffset else {
      throw .truncated(
        format: .binary, at: .byteOffset(offset),
        expected: "\(what) of object \(object) (\(length) bytes) before the offset table"
          .naming(.binaryObjectPastTable))
    }
  }

  /// Reads the element count of a marker byte at `offset`: the low nibble, or an integer
  /// object that follows when the nibble is 0xF. Returns the count and where the payload starts.
  @inline(__always)
  func readCount(marker: UInt8, at offset: Int, object: Int) throws(PlistError) -> (
    count: Int, payload: Int
  ) {
    let nibble = Int(marker & 0x0F)
    if nibble != 0x0F { return (nibble, offset + 1) }
    return try readLongCount(at: offset, object: object)
  }

  /// A count of 15 or more: the integer object after the marker.
  @inline(never)
  func readLongCount(at offset: Int, object: Int) throws(PlistError) -> (
    count: Int, payload: Int
  ) {
    try require(offset + 1, 1, object: object, what: "the count marker")
    let intMarker = bytes[offset + 1]
    guard intMarker & 0xF0 == 0x10, intMarker & 0x0F <= 3 else {
      throw .malformed(
        format: .binary, at: .byteOffset(offset + 1),
        reason: "count of object \(object) has marker 0x\(intMarker.hex(width: 2)), not an integer"
          .naming(.binaryCountMarker))
    }
    let size = 1 << Int(intMarker & 0x0F)
    try require(offset + 2, size, object: object, what: "the count")
    let raw = readUInt(at: offset + 2, size: size)
    guard raw <= UInt64(offsetTableOffset) else {
      throw .malformed(
        format: .binary, at: .byteOffset(offset + 2),
        reason: "count \(raw) of object \(object) is larger than the file"
          .naming(.binaryCountTooLarge))
    }
    return (Int(raw), offset + 2 + size)
  }

  @inline(__always)
  func checkedReference(at offset: Int, from object: Int) throws(PlistError) -> Int {
    let ref = readUInt(at: offset, size: objectRefSize)
    guard ref < UInt64(objectCount) else {
      throw Self.danglingReference(at: offset, from: object, to: ref, count: objectCount)
    }
    return Int(ref)
  }

  @inline(never)
  static func danglingReference(at offset: Int, from object: Int, to ref: UInt64, count: Int)
    -> PlistError
  {
    .malformed(
      format: .binary, at: .byteOffset(offset),
      reason: "object \(object) refers to object \(ref), but there are only \(count)"
        .naming(.binaryDanglingReference))
  }
}

/// The reads of a buffer in memory.
extension BinaryPlistReader where Bytes == ByteView {
  static func read(
    _ data: Data, limits: PlistLimits, rules: ReaderRules = .tools
  ) throws(PlistError) -> (PlistValue, [PlistWarning]) {
    try ByteView.with(data) { (view) throws(PlistError) in
      try read(view, limits: limits, rules: rules)
    }
  }
}
