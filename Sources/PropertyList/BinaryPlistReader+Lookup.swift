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

/// One key of a top-level dictionary without decoding the others (`prefs read FILE KEY`).
extension BinaryPlistReader where Bytes: BinaryBytes {
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
    let length = ascii.count
    return ascii.withUnsafeBufferPointer { key -> Scan in
      var match = -1
      let walk = walkASCIIKeys(
        in: bytes, refs: refs, count: count, refSize: refSize, table: table,
        offsetSize: offsetSize, objects: objects
      ) { n, base, payload, size in
        guard size == length else { return true }
        guard payload + size <= table else { return false }
        if size > 0, let keyBase = key.baseAddress {
          // Keys of one length often share a prefix ("setting.1", "setting.2"): their last
          // eight bytes tell most apart without a call.
          if size >= 8,
            base.loadUnaligned(fromByteOffset: payload + size - 8, as: UInt64.self)
              != UnsafeRawPointer(keyBase).loadUnaligned(fromByteOffset: size - 8, as: UInt64.self)
          {
            return true
          }
          if memcmp(base + payload, keyBase, size) != 0 { return true }
        }
        guard match < 0 else { return false }
        match = n
        return true
      }
      switch walk {
      case .walked: return match < 0 ? .absent : .found(match)
      case .general: return .general
      case .undecided: return .undecided
      }
    }
  }

  enum KeyWalk {
    /// Every key was an ASCII string object and `body` went on at each.
    case walked
    /// A key object that is not an ASCII string.
    case general
    /// A reference, offset or count out of the ordinary, or `body` stopped.
    case undecided
  }

  /// Walks the keys of a dictionary (`count` references at `refs`) while each is an ASCII
  /// string object, giving `body` its position, the buffer's base, where its bytes start and
  /// how many there are (checked against nothing: `body` checks what it reads). `body` returns
  /// false to stop. No string is built and nothing throws: the callers' general loops report
  /// what is out of the ordinary.
  @inline(__always)
  static func walkASCIIKeys(
    in bytes: UnsafeRawBufferPointer, refs: Int, count: Int, refSize: Int, table: Int,
    offsetSize: Int, objects: Int,
    _ body: (_ n: Int, _ base: UnsafeRawPointer, _ payload: Int, _ size: Int) -> Bool
  ) -> KeyWalk {
    guard let base = bytes.baseAddress, refSize > 0, offsetSize > 0,
      refs >= 0, count >= 0, refs + count * refSize <= table, table <= bytes.count
    else { return .undecided }
    // One loop per pair of widths (the usual 1 to 4 bytes), so that each reference and each
    // offset is one load: a 100,000-key file has 3-byte references and offsets.
    @inline(__always)
    func with<R: BigEndianField>(_: R.Type) -> KeyWalk {
      switch offsetSize {
      case 1: walk(R.self, Field1.self)
      case 2: walk(R.self, Field2.self)
      case 3: walk(R.self, Field3.self)
      case 4: walk(R.self, Field4.self)
      default: walk(R.self, FieldN.self)
      }
    }
    @inline(__always)
    func walk<R: BigEndianField, O: BigEndianField>(_: R.Type, _: O.Type) -> KeyWalk {
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
        guard body(n, base, payload, size) else { return .undecided }
      }
      return .walked
    }
    switch refSize {
    case 1: return with(Field1.self)
    case 2: return with(Field2.self)
    case 3: return with(Field3.self)
    case 4: return with(Field4.self)
    default: return with(FieldN.self)
    }
  }
}

extension BinaryPlistReader where Bytes == UnsafeRawBufferPointer {
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
