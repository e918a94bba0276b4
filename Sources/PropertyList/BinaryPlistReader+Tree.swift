#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The document as a tree: how many references name each object (only shared ones are kept
/// for reuse), and the containers decoded with an explicit stack (no recursion a file can
/// drive), every value counted against the limits.
extension BinaryPlistReader where Bytes: BinaryBytes {
  /// A byte of marks per object (shared, in progress), made when decoding needs them: a
  /// single-key lookup that finds a scalar by the ASCII scan never does (200 KB to clear for
  /// 200,000 objects).
  mutating func allocateMarks() {
    if marks.count != objectCount { marks = Array(repeating: 0, count: objectCount) }
  }

  mutating func readDocument() throws(PlistError) -> PlistValue {
    try readTrailer()
    allocateMarks()
    countReferences()
    return try decodeTree(root: topObject)
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
  func isShared(_ index: Int) -> Bool { marks[index] & 0x7F >= 2 }

  @inline(__always)
  func isInProgress(_ index: Int) -> Bool { marks[index] & Self.inProgressBit != 0 }

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
    var expanded = Expansion.one
  }

  /// Adds the frame's next value: appended to an array, or stored under its key (decoded now)
  /// in a dictionary.
  private mutating func add(_ value: PlistValue, to frame: inout Frame) throws(PlistError) {
    if frame.isDictionary {
      let refOffset = frame.keyRefs + frame.next * objectRefSize
      let keyIndex = try checkedReference(at: refOffset, from: frame.object)
      let key = try decodeKey(keyIndex, refOffset: refOffset)
      try addExpansion(&frame, .sized(key.utf8.count), at: refOffset)
      if let warning = frame.dictionary.store(
        value, forKey: key, at: .byteOffset(refOffset),
        keepingFirst: rules.binaryDuplicateKey == .firstKept)
      {
        warnings.append(warning)
      }
    } else {
      frame.values.append(value)
    }
    frame.next += 1
  }

  /// Counts `amount` into the frame, which must stay within the budget: a subtree's
  /// expansion is at most the document's, so checking each frame stops the document as soon
  /// as its expansion is too large for its input.
  private mutating func addExpansion(_ frame: inout Frame, _ amount: Expansion, at offset: Int)
    throws(PlistError)
  {
    frame.expanded += amount
    try budget.check(frame.expanded, at: offset)
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
  mutating func decodeTree(root: Int, depth rootDepth: Int = 1) throws(PlistError)
    -> PlistValue
  {
    let rootObject = try decodeObject(root)
    guard case .container(let isDictionary, let count, let refs, let isSet) = rootObject else {
      if case .scalar(let value) = rootObject { return value }
      throw .malformed(
        format: .binary, at: .byteOffset(0),
        reason: "unreadable top object".naming(.binaryTopObject))
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
    throw .malformed(
      format: .binary, at: .byteOffset(0), reason: "internal: empty stack".naming(.binaryTopObject))
  }
}
