#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A binary property list written in a text format straight from its object table: no
/// ``PlistValue`` is built, keys are put in the writer's order only when the file does not
/// have them in it already, and every object on the way is checked as the full read checks
/// it (the reader's own primitives: `readTrailer`, `decodeObject`, `readCount`, `require`,
/// `checkedReference`), with the same limits.
///
/// The contract, tested on every fixture and fuzzed: when the pass succeeds, its bytes are
/// the full path's (`PropertyList.read`, then the writer), and the full read has no warning.
/// Whenever the full path would fail or warn, the pass stops (an error, or ``StreamStop/undecided``
/// for a warning or a case it leaves to the full path), and the caller takes the full path,
/// whose error or warnings are the ones reported. The pass is stricter than the full path in
/// one way only, which costs nothing but the fall back: it checks every use of a shared object
/// (depth included) where the full read checks its first.
struct BinaryStreamConverter<Sink: StreamSink> {
  private var reader: BinaryMemoryReader
  private(set) var sink: Sink
  /// The writer's depth limit (containers nested deeper are refused).
  private let maxDepth: Int
  private let truncatingDates: Bool
  /// Left to the full path: a UID anywhere (the `plutil` personality refuses them).
  private let undecidedUIDs: Bool
  /// One byte an object: 1 while the container is open (a reference to it then is a cycle),
  /// 2 once it was written (a reference to it then is a use of a shared container).
  private var inProgress: [UInt8] = []
  /// Whether the whole document's expansion was counted ahead (at the first shared
  /// container, or once the expansion is far past the file's size, so that a "billion
  /// laughs" file is refused at once, as the full read refuses it, not after writing up to
  /// the limit).
  private var countedAhead = false
  /// What the document expands to so far, every use of a shared object counted, as the
  /// full read counts it, and how far it may.
  private var expanded = Expansion(values: 0, bytes: 0)
  private let budget: ExpansionBudget
  /// The ASCII keys of the open dictionaries that hold only such keys, in order, copied out
  /// of the file as they were checked (each frame's from its `firstCopy` on).
  private var copies = CopiedRuns()

  // The walk's own types live outside the generic converter (a type nested in a generic type is
  // generic itself: destroying an item looked up its metadata at run time).
  private typealias Frame = StreamFrame
  private typealias Pending = StreamPending
  private typealias Item = StreamItem

  init(
    bytes: ByteView, limits: PlistLimits, rules: ReaderRules, sink: Sink, maxDepth: Int,
    truncatingDates: Bool, undecidedUIDs: Bool
  ) {
    reader = BinaryMemoryReader(bytes: bytes, limits: limits)
    reader.rules = rules
    budget = ExpansionBudget(limits, inputBytes: bytes.count)
    self.sink = sink
    self.maxDepth = maxDepth
    self.truncatingDates = truncatingDates
    self.undecidedUIDs = undecidedUIDs
  }

  // The reader's primitives, their errors the pass's (called directly: a closure around them
  // would copy the reader at every object).
  @inline(__always)
  private func reference(at offset: Int, from object: Int) throws(StreamStop) -> Int {
    do { return try reader.checkedReference(at: offset, from: object) } catch {
      throw .failed(error)
    }
  }

  @inline(__always)
  private func objectOffset(_ index: Int) throws(StreamStop) -> Int {
    do { return try reader.objectOffset(index) } catch { throw .failed(error) }
  }

  @inline(__always)
  private func readCount(marker: UInt8, at offset: Int, object: Int) throws(StreamStop) -> (
    count: Int, payload: Int
  ) {
    do {
      return try reader.readCount(marker: marker, at: offset, object: object)
    } catch {
      throw .failed(error)
    }
  }

  @inline(__always)
  private func require(_ offset: Int, _ length: Int, object: Int, what: String) throws(StreamStop) {
    do { try reader.require(offset, length, object: object, what: what) } catch {
      throw .failed(error)
    }
  }

  private mutating func decodeObject(_ index: Int, at offset: Int) throws(StreamStop)
    -> BinaryMemoryReader.Decoded
  {
    do { return try reader.decodeObject(index, at: offset) } catch { throw .failed(error) }
  }

  // MARK: - The walk

  /// Writes the document through the sink, or stops.
  mutating func run() throws(StreamStop) {
    guard reader.bytes.count <= reader.limits.maxInputBytes else { throw .undecided }
    do { try reader.readTrailer() } catch { throw .failed(error) }
    // A file read with a warning (an offset table CoreFoundation refuses, for the tools): the
    // full path's.
    guard reader.warnings.isEmpty else { throw .undecided }
    inProgress = [UInt8](repeating: 0, count: reader.objectCount)
    let root = reader.topObject
    var stack: [Frame] = []
    switch try classify(root) {
    case .scalar(let scalar, _):
      // (The full read checks no limit for a lone scalar: it is in the file.)
      do { try sink.scalar(scalar, indent: 0) } catch { throw .failed(error) }
      return
    case .container(let isDictionary, let count, let refs):
      stack.append(
        try start(root, isDictionary: isDictionary, count: count, refs: refs, indent: 0))
    }
    while !stack.isEmpty {
      let top = stack.count - 1
      let n = stack[top].next
      let count = stack[top].count
      let isDictionary = stack[top].isDictionary
      let indent = stack[top].indent
      if n == count {
        let frame = stack.removeLast()
        if frame.firstCopy >= 0 { copies.removeRuns(from: frame.firstCopy) }
        inProgress[frame.object] = 2
        sink.close(dictionary: isDictionary, count: count, indent: indent)
        if let parent = stack.last {
          sink.endEntry(parent.next - 1, of: parent.count, dictionary: parent.isDictionary)
        }
        continue
      }
      stack[top].next = n + 1
      let i = stack[top].order?[n] ?? n
      sink.entry(n, of: count, dictionary: isDictionary, indent: indent)
      let refSize = reader.objectRefSize
      let object = stack[top].object
      if isDictionary, sink.writesKeys {
        if stack[top].firstCopy >= 0 {
          // The key's copy, made when it was checked.
          let key = copies.run(stack[top].firstCopy + i)
          do { try sink.key(.ascii(key), indent: indent + 1) } catch { throw .failed(error) }
        } else if let keys = stack[top].keys {
          do { try sink.key(.string(keys[i]), indent: indent + 1) } catch { throw .failed(error) }
        } else {
          let refOffset = stack[top].keyRefs + i * refSize
          let key = try keyText(
            try reference(at: refOffset, from: object), refOffset: refOffset)
          do { try sink.key(key, indent: indent + 1) } catch { throw .failed(error) }
        }
      }
      let refOffset = stack[top].valueRefs + i * refSize
      let child = try reference(at: refOffset, from: object)
      if inProgress[child] == 1 { throw .failed(.cycle(at: .byteOffset(refOffset), object: child)) }
      switch try classify(child) {
      case .scalar(let scalar, let expansion):
        try expand(expansion, at: refOffset)
        do { try sink.scalar(scalar, indent: indent + 1) } catch { throw .failed(error) }
        sink.endEntry(n, of: count, dictionary: isDictionary)
      case .container(let childIsDictionary, let childCount, let refs):
        if inProgress[child] == 2, !countedAhead { try countAhead() }
        stack.append(
          try start(
            child, isDictionary: childIsDictionary, count: childCount, refs: refs,
            indent: indent + 1))
      }
    }
  }

  /// Opens container `object` at `indent` (its depth less one): its limits, its keys checked
  /// and put in order, its opening written.
  private mutating func start(
    _ object: Int, isDictionary: Bool, count: Int, refs: Int, indent: Int
  ) throws(StreamStop) -> Frame {
    guard indent < reader.limits.maxDepth else {
      throw .failed(
        .limitExceeded(
          format: .binary, at: .byteOffset(refs), limit: .depth(reader.limits.maxDepth)))
    }
    guard indent < maxDepth else { throw .undecided }
    try expand(.one, at: refs)
    inProgress[object] = 1
    var frame = Frame(
      object: object, isDictionary: isDictionary, count: count, keyRefs: refs,
      valueRefs: isDictionary ? refs + count * reader.objectRefSize : refs, indent: indent)
    if isDictionary { try orderKeys(&frame) }
    do { try sink.open(dictionary: isDictionary, count: count, indent: indent) } catch {
      throw .failed(error)
    }
    return frame
  }

  /// Checks every key of a dictionary (a string, counted against the limits) and decides
  /// the order of its entries: the file's when its keys are already strictly in the
  /// writer's order, else sorted as the writer sorts. Keys the full read reports (the same
  /// key twice, two keys only Unicode normalization tells apart) are left to it.
  private mutating func orderKeys(_ frame: inout Frame) throws(StreamStop) {
    if keysInOrderInPlace(&frame) { return }
    let refSize = reader.objectRefSize
    var previous: ByteView?
    let firstCopy = copies.count
    var inOrder = true
    var allASCII = true
    for n in 0..<frame.count {
      let refOffset = frame.keyRefs + n * refSize
      let object = frame.object
      let ref = try reference(at: refOffset, from: object)
      switch try keyText(ref, refOffset: refOffset) {
      case .ascii(let bytes):
        try expand(.sized(bytes.count), at: refOffset)
        if inOrder, let previous, !Self.precedes(previous, bytes) { inOrder = false }
        previous = bytes
        if allASCII, sink.writesKeys { copies.append(bytes) }
      case .string(let s):
        try expand(.sized(s.utf8.count), at: refOffset)
        allASCII = false
        if frame.count == 1, sink.refusesLoneUIDKey, s == "CF$UID" { throw .undecided }
      }
    }
    if frame.count == 1, sink.refusesLoneUIDKey, let only = previous,
      only.elementsEqual("CF$UID".utf8)
    {
      throw .undecided
    }
    if allASCII, inOrder {
      if sink.writesKeys { frame.firstCopy = firstCopy }
      return
    }
    copies.removeRuns(from: firstCopy)
    // Rare: keys not in order, or not all ASCII. Made strings, and ordered as the writer
    // orders them.
    var keys: [String] = []
    keys.reserveCapacity(frame.count)
    for n in 0..<frame.count {
      let refOffset = frame.keyRefs + n * refSize
      let object = frame.object
      let ref = try reference(at: refOffset, from: object)
      switch try keyText(ref, refOffset: refOffset) {
      case .ascii(let bytes): keys.append(bytes.string)
      case .string(let s): keys.append(s)
      }
    }
    // Two keys equal under Swift's comparison (the same bytes, or only Unicode normalization
    // between them) are a warning of the full read.
    if !allASCII, Set(keys).count != keys.count { throw .undecided }
    let utf16 = sink.keysInUTF16Order
    func precedes(_ a: String, _ b: String) -> Bool {
      utf16 ? PlistValue.utf16Precedes(a, b) : PlistValue.utf8Precedes(a, b)
    }
    var sorted = true
    for n in 1..<max(keys.count, 1) where !precedes(keys[n - 1], keys[n]) {
      sorted = false
      break
    }
    frame.keys = keys
    guard !sorted else { return }
    let order = PlistValue.sortedOrder(keys, utf16: utf16)
    for n in 1..<max(order.count, 1) where !precedes(keys[order[n - 1]], keys[order[n]]) {
      throw .undecided  // the same key twice
    }
    frame.order = order
  }

  /// Counts what the whole document expands to, each shared container's expansion counted
  /// once and reused (as the full read counts it), and refuses it when that is past the
  /// limits. Run once, at the first container used a second time or when the expansion is
  /// far past the file's size: otherwise the walk's own count, exact as it goes, suffices.
  private mutating func countAhead() throws(StreamStop) {
    countedAhead = true
    // Far past any limit, and far from overflowing when two are added.
    let cap = 1 << 60
    var known: [Int: Expansion] = [:]
    var open = [UInt8](repeating: 0, count: reader.objectCount)
    let refSize = reader.objectRefSize
    func pending(_ object: Int, isDictionary: Bool, count: Int, refs: Int)
      throws(StreamStop) -> Pending
    {
      var item = Pending(
        object: object, count: count,
        valueRefs: isDictionary ? refs + count * refSize : refs, expanded: .one)
      guard isDictionary else { return item }
      for n in 0..<count {
        let refOffset = refs + n * refSize
        let ref = try reference(at: refOffset, from: object)
        let length =
          switch try keyText(ref, refOffset: refOffset) {
          case .ascii(let bytes): bytes.count
          case .string(let s): s.utf8.count
          }
        item.expanded += .sized(length)
      }
      return item
    }
    let root = reader.topObject
    guard case .container(let isDictionary, let count, let refs) = try classify(root) else {
      return
    }
    var stack = [try pending(root, isDictionary: isDictionary, count: count, refs: refs)]
    open[root] = 1
    var total = Expansion(values: 0, bytes: 0)
    while let top = stack.indices.last {
      let n = stack[top].next
      if n == stack[top].count {
        let done = stack.removeLast()
        open[done.object] = 0
        known[done.object] = done.expanded
        guard let parent = stack.indices.last else {
          total = done.expanded
          break
        }
        stack[parent].expanded = stack[parent].expanded.adding(done.expanded, cappedAt: cap)
        continue
      }
      stack[top].next = n + 1
      let refOffset = stack[top].valueRefs + n * refSize
      let object = stack[top].object
      let child = try reference(at: refOffset, from: object)
      if let amount = known[child] {
        stack[top].expanded = stack[top].expanded.adding(amount, cappedAt: cap)
        continue
      }
      if open[child] != 0 { throw .failed(.cycle(at: .byteOffset(refOffset), object: child)) }
      switch try classify(child) {
      case .scalar(_, let expansion):
        stack[top].expanded = stack[top].expanded.adding(expansion, cappedAt: cap)
      case .container(let isDictionary, let count, let refs):
        stack.append(try pending(child, isDictionary: isDictionary, count: count, refs: refs))
        open[child] = 1
      }
    }
    if budget.amplified(total) {
      throw .failed(budget.amplifiedError(at: reader.offsetTableOffset))
    }
    if budget.tooManyValues(total) {
      throw .failed(budget.tooManyValuesError(at: reader.offsetTableOffset))
    }
  }

  /// Whether ASCII key `a` sorts strictly before `b` (byte order, which is UTF-16 order too).
  @inline(__always)
  private static func precedes(_ a: ByteView, _ b: ByteView) -> Bool {
    BinaryKeyTable.precedes(a, 0, a.count, b, 0, b.count)
  }

  /// The usual dictionary at the speed of its bytes: every key an ASCII string object, all in
  /// the writer's order, their count within the limits, checked in one loop over the
  /// references (``OrderedASCIIKeys``) with what the general loop checks of them. False, with
  /// nothing counted: anything else, which the general loop reads (and reports) from the
  /// first key.
  private mutating func keysInOrderInPlace(_ frame: inout Frame) -> Bool {
    // A lone `CF$UID` key is the general loop's to refuse.
    guard frame.count > 1 || !sink.refusesLoneUIDKey else { return false }
    guard
      let keys = BinaryKeyTable(
        reader.bytes, refs: frame.keyRefs, count: frame.count, refSize: reader.objectRefSize,
        table: reader.offsetTableOffset, offsetSize: reader.offsetIntSize,
        objects: reader.objectCount)
    else { return false }
    // The copies lent to the walk, which adds this dictionary's.
    let firstCopy = copies.count
    var walk = OrderedASCIIKeys(keeping: sink.writesKeys)
    if sink.writesKeys { copies.reserve(runs: frame.count) }
    swap(&walk.copies, &copies)
    let walked = keys.visit(&walk)
    swap(&walk.copies, &copies)
    // Counted as the general loop counts them, 8 bytes and one value a key.
    var total = expanded
    total += Expansion(values: frame.count, bytes: 8 * frame.count + walk.keyBytes)
    guard case .walked = walked, !atLimit(total) else {
      copies.removeRuns(from: firstCopy)
      return false
    }
    expanded = total
    if sink.writesKeys { frame.firstCopy = firstCopy }
    return true
  }

  /// Counts a value (or a key) against the limits, as the full read counts it.
  @inline(__always)
  private mutating func expand(_ amount: Expansion, at offset: Int) throws(StreamStop) {
    expanded += amount
    if atLimit(expanded) { try limitReached(at: offset) }
  }

  /// Whether ``expand(_:at:)`` at these totals does more than count: refuses them (too many
  /// objects, too much amplification) or counts the document ahead. The totals only grow, so
  /// totals that are not at a limit were not at one on the way either.
  @inline(__always)
  private func atLimit(_ total: Expansion) -> Bool {
    !budget.allows(total) || (!countedAhead && farPastTheInput(total))
  }

  /// Far more than a file of that size holds without sharing: the document is counted ahead
  /// before more is written (a large string used many times).
  @inline(__always)
  private func farPastTheInput(_ total: Expansion) -> Bool {
    total.bytes > 16 * budget.inputBytes + (1 << 20)
  }

  @inline(never)
  private mutating func limitReached(at offset: Int) throws(StreamStop) {
    if budget.tooManyValues(expanded) { throw .failed(budget.tooManyValuesError(at: offset)) }
    if !countedAhead, farPastTheInput(expanded) { try countAhead() }
    if budget.amplified(expanded) { throw .failed(budget.amplifiedError(at: offset)) }
  }

  // MARK: - Objects

  /// Object `index`, checked as the full read checks it: ASCII strings and data as slices of
  /// the file, anything else as the reader decodes it.
  private mutating func classify(_ index: Int) throws(StreamStop) -> Item {
    let offset = try objectOffset(index)
    let bytes = reader.bytes
    let marker = bytes[offset]
    switch BinaryMarker(marker) {
    case .asciiString:
      let text = try ascii(marker: marker, at: offset, object: index)
      return .scalar(.ascii(text), .sized(text.count))
    case .data:
      let (count, payload) = try readCount(marker: marker, at: offset, object: index)
      try require(payload, count, object: index, what: "the data")
      return .scalar(.data(bytes.slice(payload..<(payload + count))), .sized(count))
    default:
      let warned = reader.warnings.count
      switch try decodeObject(index, at: offset) {
      // A scalar read with a warning (a 16-byte integer beyond 64 bits): the full path's.
      case .scalar where reader.warnings.count != warned: throw .undecided
      case .scalar(let value):
        let expansion = Expansion.of(value)
        switch value {
        // A UID above 32 bits: the full path refuses it (CoreFoundation's UIDs are 32 bits).
        case .uid(let u) where undecidedUIDs || u > UInt64(UInt32.max): throw .undecided
        case .date(let date) where truncatingDates:
          // As `DomainFile.storable` gives it to the writer.
          let seconds = date.timeIntervalSinceReferenceDate.rounded(.down)
          return .scalar(.value(.date(Date(timeIntervalSinceReferenceDate: seconds))), expansion)
        default: return .scalar(.value(value), expansion)
        }
      case .container(let isDictionary, let count, let refs, let isSet):
        // A set is read as an array, with a warning: the full path's.
        if isSet { throw .undecided }
        return .container(isDictionary: isDictionary, count: count, refs: refs)
      }
    }
  }

  /// The bytes of an ASCII string object, checked as the reader checks them.
  @inline(__always)
  private func ascii(marker: UInt8, at offset: Int, object: Int) throws(StreamStop) -> ByteView {
    let (count, payload) = try readCount(marker: marker, at: offset, object: object)
    try require(payload, count, object: object, what: "the ASCII string")
    let slice = reader.bytes.slice(payload..<(payload + count))
    if !BinaryKeyTable.isASCII(slice, at: 0, count: count) {
      for (i, byte) in slice.enumerated() where byte >= 0x80 {
        throw .failed(
          .invalidText(format: .binary, at: .byteOffset(payload + i), encoding: "ASCII"))
      }
    }
    return slice
  }

  /// A dictionary key: an ASCII string in place, a UTF-16 one decoded. Any other scalar is
  /// kept by the full read under its text form, with a warning: left to it.
  private mutating func keyText(_ index: Int, refOffset: Int) throws(StreamStop) -> StreamKey {
    let offset = try objectOffset(index)
    let marker = reader.bytes[offset]
    if BinaryMarker(marker) == .asciiString {
      return .ascii(try ascii(marker: marker, at: offset, object: index))
    }
    let warned = reader.warnings.count
    switch try decodeObject(index, at: offset) {
    case .scalar(.string(let s)) where reader.warnings.count == warned: return .string(s)
    case .scalar: throw .undecided
    case .container:
      throw .failed(
        .malformed(
          format: .binary, at: .byteOffset(refOffset),
          reason: "dictionary key (object \(index)) is a container, not a string"
            .naming(.binaryContainerKey)))
    }
  }
}

/// A container of the walk, being written.
private struct StreamFrame {
  var object: Int
  var isDictionary: Bool
  var count: Int
  var keyRefs: Int
  var valueRefs: Int
  /// The entries in the writer's key order, when the file does not hold them in it.
  var order: [Int]?
  /// The keys as strings, when they were made (not every key ASCII, or not in order).
  var keys: [String]?
  /// Where the keys' copies start in the converter's `copies`, when every key is ASCII and
  /// they are in order (checked once, not looked up again to be written, and not read from a
  /// mapping again); -1: none.
  var firstCopy = -1
  var next = 0
  var indent: Int
}

/// A container being counted ahead.
private struct StreamPending {
  var object: Int
  var count: Int
  var valueRefs: Int
  var next = 0
  var expanded: Expansion
}

private enum StreamItem {
  case scalar(StreamScalar, Expansion)
  case container(isDictionary: Bool, count: Int, refs: Int)
}

extension BinaryStreamConverter {
  /// Runs the pass over `data` into `sink`: its bytes, or why it stopped.
  static func convert(
    _ data: Data, into sink: Sink, limits: PlistLimits, rules: ReaderRules, maxDepth: Int,
    truncatingDates: Bool, undecidedUIDs: Bool
  ) -> Result<Data, StreamStop> {
    guard BinaryPlist.hasMagic(data) else {
      var sink = sink
      sink.discard()
      return .failure(.undecided)
    }
    return ByteView.with(data) { view in
      var converter = BinaryStreamConverter(
        bytes: view, limits: limits, rules: rules, sink: sink, maxDepth: maxDepth,
        truncatingDates: truncatingDates, undecidedUIDs: undecidedUIDs)
      defer { converter.copies.deallocate() }
      do throws(StreamStop) {
        try converter.run()
        return .success(converter.sink.finish())
      } catch {
        converter.sink.discard()
        return .failure(error)
      }
    }
  }
}
