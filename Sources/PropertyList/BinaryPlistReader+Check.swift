/// `prefs lint` of the usual binary file at the speed of its bytes: the objects walked once,
/// checked as the full read checks them, with no value built, no sink and no string made.
extension BinaryPlistReader where Bytes == ByteView {
  /// Whether the full read (``PropertyList/read(_:limits:)``) reads `bytes` without an error
  /// or a warning, decided for the usual file: a tree of arrays and dictionaries (none used
  /// twice), whose scalars are booleans, integers of 1 to 8 bytes, reals, dates, ASCII
  /// strings and data, and whose dictionaries have ASCII keys, none there twice. False for
  /// any other file, or one that is not clean: the caller checks it the longer way, and the
  /// full read reports what is wrong.
  static func isCleanTree(_ bytes: ByteView, limits: PlistLimits, rules: ReaderRules) -> Bool {
    var reader = BinaryPlistReader(bytes: bytes, limits: limits)
    reader.rules = rules
    do {
      return try reader.checkTree()
    } catch {
      return false
    }
  }

  /// A container being checked: where its next value reference is, where they end, and its
  /// depth (the top container's is 1, as the full read counts it).
  private struct OpenContainer {
    var next: Int
    var end: Int
    var depth: Int
  }

  /// What one object was: a scalar (counted), a container (counted, its keys checked), or
  /// something this walk leaves to the longer way.
  private enum Checked {
    case scalar
    case container(OpenContainer)
    case other
  }

  private mutating func checkTree() throws(PlistError) -> Bool {
    guard bytes.count <= limits.maxInputBytes else { return false }
    try readTrailer()
    guard warnings.isEmpty else { return false }
    // What the document expands to, every use of an object counted as the full read counts
    // it; every subtree's is at most the document's, so the document's within the limits is
    // every frame's the full read checks.
    var total = Expansion(values: 0, bytes: 0)
    // A container opened once: opened again is a shared container or a cycle, the longer way's.
    var opened = [Bool](repeating: false, count: objectCount)
    var open: OpenContainer
    switch try check(topObject, depth: 1, &total, &opened) {
    case .scalar: return true  // (a lone scalar: the full read counts no limit for it)
    case .other: return false
    case .container(let top): open = top
    }
    var outer: [OpenContainer] = []
    let refSize = objectRefSize
    while true {
      guard open.next < open.end else {
        guard let parent = outer.popLast() else { break }
        open = parent
        continue
      }
      let child = try checkedReference(at: open.next, from: topObject)
      open.next += refSize
      switch try check(child, depth: open.depth + 1, &total, &opened) {
      case .scalar: continue
      case .other: return false
      case .container(let inner):
        outer.append(open)
        open = inner
      }
    }
    return budget.allows(total)
  }

  /// Object `index`, checked as ``decodeObject(_:at:)`` checks it (its marker through the same
  /// table, ``BinaryMarker``), and counted.
  @inline(__always)
  private mutating func check(
    _ index: Int, depth: Int, _ total: inout Expansion, _ opened: inout [Bool]
  ) throws(PlistError) -> Checked {
    let offset = try objectOffset(index)
    let marker = bytes[offset]
    var size = 8
    switch BinaryMarker(marker) {
    case .boolean: break
    // (16 bytes: each reader's own way, the longer way.)
    case .integer(let width) where width <= BinaryMarker.plainIntegerBytes:
      try require(offset + 1, width, object: index, what: "the integer")
    case .real(let width):
      try require(offset + 1, width, object: index, what: "the real")
    case .date:
      try require(offset + 1, 8, object: index, what: "the date")
      guard BinaryMarker.isReadableDate(readUInt(at: offset + 1, size: 8)) else { return .other }
    case .data:
      let (count, payload) = try readCount(marker: marker, at: offset, object: index)
      try require(payload, count, object: index, what: "the data")
      size += count
    case .asciiString:
      let (count, payload) = try readCount(marker: marker, at: offset, object: index)
      try require(payload, count, object: index, what: "the ASCII string")
      if !BinaryKeyTable.isASCII(bytes, at: payload, count: count) { return .other }
      size += count
    case .array, .dictionary:
      guard !opened[index], depth < limits.maxDepth else { return .other }
      opened[index] = true
      let isDictionary = marker >> 4 == 0xD
      let (count, payload) = try readCount(marker: marker, at: offset, object: index)
      let (length, overflow) = (isDictionary ? 2 * count : count)
        .multipliedReportingOverflow(by: objectRefSize)
      guard !overflow else { return .other }
      try require(payload, length, object: index, what: "the references")
      total += .one
      guard isDictionary else {
        return .container(OpenContainer(next: payload, end: payload + length, depth: depth))
      }
      // Its keys, each 8 bytes and a value more, as the full read counts them.
      guard
        let keys = BinaryKeyTable(
          bytes, refs: payload, count: count, refSize: objectRefSize, table: offsetTableOffset,
          offsetSize: offsetIntSize, objects: objectCount)
      else { return .other }
      // In the writer's order (prefs, plistlib), checked pair by pair; else (CoreFoundation
      // writes them in its hash order) each looked for among the others.
      var ordered = OrderedASCIIKeys(keeping: false)
      var keyBytes = ordered.keyBytes
      switch keys.visit(&ordered) {
      case .walked: keyBytes = ordered.keyBytes
      case .general: return .other
      case .undecided:
        var distinct = DistinctASCIIKeys()
        guard case .walked = keys.visit(&distinct) else { return .other }
        keyBytes = distinct.keyBytes
      }
      total += Expansion(values: count, bytes: 8 * count + keyBytes)
      let values = payload + count * objectRefSize
      return .container(OpenContainer(next: values, end: payload + length, depth: depth))
    default:
      return .other  // UTF-16 strings, UIDs, sets, and what no reader reads
    }
    total += Expansion(values: 1, bytes: size)
    return .scalar
  }
}
