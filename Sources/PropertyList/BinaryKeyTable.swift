/// The keys of one dictionary of a binary file, walked in place: no string is built and
/// nothing throws. A walk checks each key's reference and offset as the reader checks them and
/// stops at anything out of the ordinary, which the caller's general loop (or the full read)
/// then reads and reports. What a walk does at each key is a ``KeyVisitor``: finding one key
/// (`prefs read FILE KEY`), or checking that the keys are ASCII and in the writer's order
/// (the streaming conversion and `lint`).
///
/// Its loads are the view's unchecked ones: `init` checks once that every reference, every
/// offset-table entry and the trailer lie in the view, and each load below is at a place
/// that check covers (a key's bytes are checked against the table before they are read).
struct BinaryKeyTable {
  let base: ByteView
  /// Where the dictionary's key references start, how many there are and their width.
  let refs: Int, count: Int, refSize: Int
  /// Where the offset table starts (every object lies between the header and it), the width
  /// of its entries, and how many objects there are.
  let table: Int, offsetSize: Int, objects: Int

  /// nil unless the key references lie before the offset table, and the offset table and the
  /// 32-byte trailer after it in the buffer (as the reader checked the trailer): so every
  /// reference and offset read below has eight bytes after it in the buffer.
  init?(
    _ bytes: ByteView, refs: Int, count: Int, refSize: Int, table: Int,
    offsetSize: Int, objects: Int
  ) {
    guard refSize > 0, offsetSize > 0, objects >= 0, refs >= 0,
      count >= 0, count <= (table - refs) / refSize, table <= bytes.count - 32,
      objects <= (bytes.count - 32 - table) / offsetSize
    else { return nil }
    (self.base, self.refs, self.count, self.refSize) = (bytes, refs, count, refSize)
    (self.table, self.offsetSize, self.objects) = (table, offsetSize, objects)
  }

  enum Walk {
    /// The visitor saw every key.
    case walked
    /// A key object that is not an ASCII string: the general loop reads them.
    case general
    /// A reference, offset or count out of the ordinary, or the visitor stopped.
    case undecided
  }

  /// Runs the visitor's walk with the file's field widths as types: one loop per pair of
  /// widths (the usual 1 to 4 bytes), so that each reference and each offset is one load.
  @inline(__always)
  func visit<V: KeyVisitor>(_ visitor: inout V) -> Walk {
    @inline(__always)
    func with<R: BigEndianField>(_: R.Type) -> Walk {
      switch offsetSize {
      case 1: visitor.walk(self, R.self, Field1.self)
      case 2: visitor.walk(self, R.self, Field2.self)
      case 3: visitor.walk(self, R.self, Field3.self)
      case 4: visitor.walk(self, R.self, Field4.self)
      default: visitor.walk(self, R.self, FieldN.self)
      }
    }
    switch refSize {
    case 1: return with(Field1.self)
    case 2: return with(Field2.self)
    case 3: return with(Field3.self)
    case 4: return with(Field4.self)
    default: return with(FieldN.self)
    }
  }

  /// Where the object named by the key reference at `at` starts: nil when the reference or
  /// its offset is out of range. (No overflow: the references lie before the offset table,
  /// `ref < objects`, and the offset table of `objects` entries is inside the buffer.)
  @inline(__always)
  func keyObject<R: BigEndianField, O: BigEndianField>(at: Int, _: R.Type, _: O.Type) -> Int? {
    let ref = R.readPadded(base, at, refSize)
    guard UInt(bitPattern: ref) < UInt(bitPattern: objects) else { return nil }
    let offset = O.readPadded(base, table &+ ref &* offsetSize, offsetSize)
    guard UInt(bitPattern: offset &- 8) < UInt(bitPattern: table &- 8) else { return nil }
    return offset
  }

  /// The marker at `offset`.
  @inline(__always)
  func marker(at offset: Int) -> UInt8 { base[unchecked: offset] }

  /// Where an ASCII string object's bytes start and how many there are: the marker's low
  /// nibble, or for 15 and more an integer object of 1, 2 or 4 bytes after the marker. nil:
  /// a count out of the ordinary. (Its bytes are not checked to lie before the table.)
  @inline(__always)
  func asciiSpan(at offset: Int, marker: UInt8) -> (payload: Int, size: Int)? {
    let nibble = Int(marker & 0x0F)
    guard nibble == 0x0F else { return (offset &+ 1, nibble) }
    guard offset + 2 <= table else { return nil }
    let intMarker = base[unchecked: offset + 1]
    guard intMarker & 0xF0 == 0x10, intMarker & 0x0F <= 2 else { return nil }
    let width = 1 << Int(intMarker & 0x0F)
    guard offset + 2 + width <= table else { return nil }
    return (offset + 2 + width, FieldN.read(base, offset + 2, width))
  }

  /// Whether the `count` bytes at `start` of `bytes` are all ASCII, eight at a time (the last
  /// eight of 8 or more read again rather than byte by byte). The caller has checked that
  /// they lie in the view (the key walks by ``init``, the others by `require`).
  @inline(__always)
  static func isASCII(_ bytes: ByteView, at start: Int, count: Int) -> Bool {
    var any: UInt64 = 0
    if count >= 8 {
      // The first and the last eight (most keys are 16 bytes or fewer), and those between.
      any = bytes.uncheckedWord(at: start) | bytes.uncheckedWord(at: start &+ count &- 8)
      var i = 8
      while i &+ 8 < count {
        any |= bytes.uncheckedWord(at: start &+ i)
        i &+= 8
      }
    } else {
      for i in 0..<count { any |= UInt64(bytes[unchecked: start &+ i]) }
    }
    return any & 0x8080_8080_8080_8080 == 0
  }

  /// Whether the `an` bytes at `a` of `x` sort strictly before the `bn` at `b` of `y` (byte
  /// order, which for ASCII is UTF-16 order too): eight bytes at a time, as big-endian
  /// integers. The caller has checked both ranges.
  @inline(__always)
  static func precedes(
    _ x: ByteView, _ a: Int, _ an: Int, _ y: ByteView, _ b: Int, _ bn: Int
  ) -> Bool {
    let n = Swift.min(an, bn)
    @inline(__always) func word(_ v: ByteView, _ i: Int) -> UInt64 {
      v.uncheckedLoad(UInt64.self, at: i, bigEndian: true)
    }
    if n >= 8 {
      var i = 0
      while i &+ 8 < n {
        let (p, q) = (word(x, a &+ i), word(y, b &+ i))
        if p != q { return p < q }
        i &+= 8
      }
      // The last eight of the common length: the bytes before `i` are equal, so the first
      // that differs in this window decides, as it would byte by byte.
      let (p, q) = (word(x, a &+ n &- 8), word(y, b &+ n &- 8))
      if p != q { return p < q }
    } else {
      for i in 0..<n {
        let (p, q) = (x[unchecked: a &+ i], y[unchecked: b &+ i])
        if p != q { return p < q }
      }
    }
    return an < bn
  }
}

/// What a walk of ``BinaryKeyTable`` does at each key, its field widths given as types.
protocol KeyVisitor {
  mutating func walk<R: BigEndianField, O: BigEndianField>(
    _ keys: BinaryKeyTable, _: R.Type, _: O.Type
  ) -> BinaryKeyTable.Walk
}

/// Finds the one key equal to an ASCII key: its position in ``match``. A second one is left
/// to the full read (it reports the repeated key); so is a key object that is not an ASCII
/// string (it may be the same text in UTF-16).
struct ASCIIKeyFinder: KeyVisitor {
  /// The key's bytes (valid for the walk), and how many.
  let key: ByteView
  let length: Int
  /// The marker of an ASCII string of `length` bytes (0x5F: 15 or more, the count after it).
  let wanted: UInt8
  /// The key's last eight bytes (its length is 8 or more): keys of one length often share a
  /// prefix ("setting.1", "setting.2"), and this one load tells most apart.
  let tail: UInt64
  private(set) var match = -1

  init(_ key: ByteView) {
    self.key = key
    length = key.count
    wanted = length < 15 ? 0x50 | UInt8(length) : 0x5F
    tail = length >= 8 ? key.word(at: length - 8) : 0
  }

  @inline(__always)
  mutating func walk<R: BigEndianField, O: BigEndianField>(
    _ keys: BinaryKeyTable, _: R.Type, _: O.Type
  ) -> BinaryKeyTable.Walk {
    // The table's numbers in locals, and the loop over reference offsets: the loop is a
    // few loads and compares a key (it was twice as many instructions with the numbers
    // re-read from the table at each key).
    let keys = keys
    let base = keys.base
    let refSize = keys.refSize
    // A key's bytes must end before the offset table (`length` is a key's: far below it).
    let lastPayload = keys.table &- length
    let tailAt = length &- 8
    let end = keys.refs &+ keys.count &* refSize
    var at = keys.refs
    while at < end {
      guard let offset = keys.keyObject(at: at, R.self, O.self) else { return .undecided }
      let here = at
      at &+= refSize
      let marker = base[unchecked: offset]
      let payload: Int
      if marker &- 0x50 < 0x0F {
        // An ASCII string of fewer than 15 bytes: its marker says its length.
        guard marker == wanted else { continue }
        payload = offset &+ 1
      } else {
        guard marker == 0x5F else { return .general }
        guard let span = keys.asciiSpan(at: offset, marker: marker) else { return .undecided }
        guard span.size == length else { continue }
        payload = span.payload
      }
      guard payload <= lastPayload else { return .undecided }
      if length >= 8, base.uncheckedWord(at: payload &+ tailAt) != tail { continue }
      if length >= 8 {
        if !base.uncheckedWordsEqual(at: payload, key, at: 0, length: length) { continue }
      } else if !base.uncheckedEqual(at: payload, key, at: 0, length: length) {
        continue
      }
      guard match < 0 else { return .undecided }
      match = (here &- keys.refs) / refSize
    }
    return .walked
  }
}

/// Checks that every key of a dictionary is an ASCII string object whose bytes lie before the
/// offset table and that they are strictly in the writer's order (so no key is there twice),
/// counting their bytes, and, when they are to be written, copies each into `copies` as it
/// checks it (``CopiedRuns``): a key checked as ASCII in a mapped file is not read from the
/// mapping again.
struct OrderedASCIIKeys: KeyVisitor {
  let keeping: Bool
  /// The copies, when `keeping` (the caller's, lent to the walk).
  var copies = CopiedRuns()
  private(set) var keyBytes = 0

  init(keeping: Bool) { self.keeping = keeping }

  @inline(__always)
  mutating func walk<R: BigEndianField, O: BigEndianField>(
    _ keys: BinaryKeyTable, _: R.Type, _: O.Type
  ) -> BinaryKeyTable.Walk {
    var at = keys.refs
    var previous = (start: 0, count: -1)
    for _ in 0..<keys.count {
      guard let offset = keys.keyObject(at: at, R.self, O.self) else { return .undecided }
      at &+= keys.refSize
      let marker = keys.marker(at: offset)
      guard marker >> 4 == 0x5 else { return .general }
      guard let (payload, size) = keys.asciiSpan(at: offset, marker: marker),
        payload <= keys.table - size
      else { return .undecided }
      guard BinaryKeyTable.isASCII(keys.base, at: payload, count: size) else { return .undecided }
      if previous.count >= 0,
        !BinaryKeyTable.precedes(
          keys.base, previous.start, previous.count, keys.base, payload, size)
      {
        return .undecided
      }
      previous = (payload, size)
      keyBytes &+= size
      if keeping { copies.append(keys.base.slice(payload..<(payload &+ size))) }
    }
    return .walked
  }
}

/// Checks that every key of a dictionary is an ASCII string object whose bytes lie before the
/// offset table and that no two are the same bytes, whatever their order (CoreFoundation
/// writes a dictionary's keys in its hash order), counting their bytes. The keys go into an
/// open-addressing table by a hash keyed once a process, and a key is compared by its bytes
/// only with those whose hash agrees. A file cannot make this slow: a key that finds no place
/// within 64 slots sends the dictionary the longer way (whose sets use the standard library's
/// seeded hash).
struct DistinctASCIIKeys: KeyVisitor {
  private(set) var keyBytes = 0

  /// This process's key of the hash.
  private static let seed = UInt64.random(in: .min ... .max)

  /// The key's bytes, eight at a time (the last eight of 8 or more read again), mixed with
  /// the seed and the length.
  @inline(__always)
  static func hash(_ bytes: ByteView, at start: Int, count: Int) -> UInt64 {
    @inline(__always) func mix(_ h: UInt64, _ word: UInt64) -> UInt64 {
      let m = (h ^ word) &* 0x9E37_79B9_7F4A_7C15
      return m ^ (m >> 29)
    }
    var h = mix(seed, UInt64(count))
    if count >= 8 {
      var i = 0
      while i &+ 8 < count {
        h = mix(h, bytes.uncheckedWord(at: start &+ i))
        i &+= 8
      }
      h = mix(h, bytes.uncheckedWord(at: start &+ count &- 8))
    } else {
      var word: UInt64 = 0
      for i in 0..<count {
        word |= UInt64(bytes[unchecked: start &+ i]) << (8 &* UInt64(i))
      }
      h = mix(h, word)
    }
    return mix(h, h >> 32)
  }

  @inline(__always)
  private static func span<R: BigEndianField, O: BigEndianField>(
    _ keys: BinaryKeyTable, _ n: Int, _: R.Type, _: O.Type
  ) -> (payload: Int, size: Int)? {
    guard let offset = keys.keyObject(at: keys.refs &+ n &* keys.refSize, R.self, O.self)
    else { return nil }
    let marker = keys.marker(at: offset)
    guard marker >> 4 == 0x5, let span = keys.asciiSpan(at: offset, marker: marker),
      span.payload <= keys.table - span.size
    else { return nil }
    return span
  }

  mutating func walk<R: BigEndianField, O: BigEndianField>(
    _ keys: BinaryKeyTable, _: R.Type, _: O.Type
  ) -> BinaryKeyTable.Walk {
    // A slot: the key's position + 1 in its low bits (0: empty), as many as the table's size
    // takes, and the hash's high bits above them; two thirds full at most.
    var capacity = 16
    while capacity * 2 < keys.count * 3 { capacity *= 2 }
    guard capacity <= 1 << 31 else { return .undecided }
    var slots = [UInt32](repeating: 0, count: capacity)
    let mask = capacity - 1
    let tagMask = ~UInt32(truncatingIfNeeded: mask)
    for n in 0..<keys.count {
      guard let (payload, size) = Self.span(keys, n, R.self, O.self) else { return .undecided }
      guard BinaryKeyTable.isASCII(keys.base, at: payload, count: size) else { return .undecided }
      let hash = Self.hash(keys.base, at: payload, count: size)
      let tag = UInt32(truncatingIfNeeded: hash >> 32) & tagMask
      var slot = Int(truncatingIfNeeded: hash) & mask
      var probes = 0
      while slots[slot] != 0 {
        if slots[slot] & tagMask == tag {
          let other = Int(slots[slot] & ~tagMask) - 1
          guard let (otherPayload, otherSize) = Self.span(keys, other, R.self, O.self) else {
            return .undecided
          }
          if otherSize == size,
            keys.base.uncheckedEqual(at: otherPayload, keys.base, at: payload, length: size)
          {
            return .undecided  // the same key twice: the full read's to report
          }
        }
        probes += 1
        guard probes < 64 else { return .undecided }
        slot = (slot + 1) & mask
      }
      slots[slot] = tag | UInt32(n + 1)
      keyBytes &+= size
    }
    return .walked
  }
}
