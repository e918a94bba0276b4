#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
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
  /// in place (``ASCIIKeyFinder``): the position of the one equal key. No string is built and
  /// nothing throws; anything out of the ordinary is left to the general loop or the full read.
  static func scanASCIIKeys(
    _ ascii: [UInt8], in bytes: ByteView, refs: Int, count: Int, refSize: Int,
    table: Int, offsetSize: Int, objects: Int
  ) -> Scan {
    guard
      let keys = BinaryKeyTable(
        bytes, refs: refs, count: count, refSize: refSize, table: table, offsetSize: offsetSize,
        objects: objects)
    else { return .undecided }
    return ByteView.with(ascii) { key -> Scan in
      var finder = ASCIIKeyFinder(key)
      switch keys.visit(&finder) {
      case .walked: return finder.match < 0 ? .absent : .found(finder.match)
      case .general: return .general
      case .undecided: return .undecided
      }
    }
  }
}

extension BinaryPlistReader where Bytes == ByteView {
  // MARK: - One key

  /// One key of a top-level dictionary, decoding only that key's value (and every key, to
  /// know it is there once). Anything a full read would report or refuse that this pass can
  /// see (a repeated key, a warning, any error) answers ``BinaryLookup/undecided``: the caller
  /// reads the whole document and reports it as usual.
  static func lookup(_ key: String, in data: Data, limits: PlistLimits) -> BinaryLookup {
    ByteView.with(data) { view in
      var reader = BinaryPlistReader(bytes: view, limits: limits)
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
