#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The objects of a binary file: scalars decoded as each reader decodes them, containers as
/// their counts and references, dictionary keys.
extension BinaryPlistReader where Bytes: BinaryBytes {
  // MARK: - Scalars

  enum Decoded {
    case scalar(PlistValue)
    case container(isDictionary: Bool, count: Int, refs: Int, isSet: Bool)
  }

  mutating func decodeObject(_ index: Int) throws(PlistError) -> Decoded {
    try decodeObject(index, at: try objectOffset(index))
  }

  /// Object `index`, whose offset ``objectOffset(_:)`` gave (a caller that looked at its
  /// marker first does not look it up twice).
  mutating func decodeObject(_ index: Int, at offset: Int) throws(PlistError) -> Decoded {
    let marker = bytes[offset]
    let high = marker >> 4
    switch high {
    case 0x0:
      switch marker {
      case 0x08: return .scalar(.bool(false))
      case 0x09: return .scalar(.bool(true))
      case 0x00:
        throw .unsupported(
          format: .binary, at: .byteOffset(offset),
          feature: "a null object (0x00: CoreFoundation's NSNull, GNUstep refuses it; no "
            + "property list type holds it)".naming(.binaryNull))
      default:
        throw Self.unknownMarker(marker, at: offset)
      }
    case 0x1:
      let exponent = Int(marker & 0x0F)
      guard exponent <= 4 else {
        throw .malformed(
          format: .binary, at: .byteOffset(offset),
          reason: "integer of 2^\(exponent) bytes (at most 16 are allowed)"
            .naming(.binaryIntegerSize))
      }
      let size = 1 << exponent
      try require(offset + 1, size, object: index, what: "the integer")
      switch size {
      case 1, 2, 4:
        return .scalar(.integer(Int64(readUInt(at: offset + 1, size: size))))
      case 8:
        return .scalar(.integer(Int64(bitPattern: readUInt(at: offset + 1, size: 8))))
      default:
        // 16 bytes: CoreFoundation (every verb that reads as it does) keeps the low 64 bits,
        // unsigned (-1 and -2 in 16 bytes are 2^64 - 1 and 2^64 - 2, 2^64 + 5 is 5); GNUstep
        // refuses it.
        let high = readUInt(at: offset + 1, size: 8)
        let low = readUInt(at: offset + 9, size: 8)
        switch rules.sixteenByteIntegers {
        case .lowBitsUnsigned:
          if high != 0 {
            warnings.append(
              .readAs(
                .coreFoundation,
                "a 16-byte integer as \(low), its low 64 bits as an unsigned number "
                  + "(CoreFoundation drops the rest)", at: .byteOffset(offset)))
          }
          return .scalar(.int(low))
        case .refused:
          throw .unsupported(
            format: .binary, at: .byteOffset(offset),
            feature: "a 16-byte integer, which GNUstep refuses".naming(.binarySixteenByteInteger))
        case .whenTheyFit:
          if high == 0 { return .scalar(.int(low)) }
          if high == .max, low >> 63 == 1 { return .scalar(.integer(Int64(bitPattern: low))) }
          throw .malformed(
            format: .binary, at: .byteOffset(offset),
            reason: "integer does not fit in 64 bits".naming(.binarySixteenByteInteger))
        }
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
          reason: "real of 2^\(marker & 0x0F) bytes (only 4 and 8 exist)".naming(.binaryRealSize))
      }
    case 0x3:
      guard marker == 0x33 else { throw Self.unknownMarker(marker, at: offset) }
      try require(offset + 1, 8, object: index, what: "the date")
      let seconds = Double(bitPattern: readUInt(at: offset + 1, size: 8))
      guard seconds.isFinite else {
        throw .malformed(
          format: .binary, at: .byteOffset(offset + 1),
          reason: "date is \(seconds)".naming(.nonfiniteBinaryDate))
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
      if count == 0, rules.emptyUTF16Strings == .refused {
        throw .unsupported(
          format: .binary, at: .byteOffset(offset),
          feature: "a UTF-16 string of no characters, which CoreFoundation refuses"
            .naming(.binaryEmptyUTF16String))
      }
      let (length, overflow) = count.multipliedReportingOverflow(by: 2)
      guard !overflow else {
        throw .malformed(
          format: .binary, at: .byteOffset(offset),
          reason: "string length overflows".naming(.binaryCountTooLarge))
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
          format: .binary, at: .byteOffset(offset),
          reason: "container size overflows".naming(.binaryCountTooLarge))
      }
      try require(payload, length, object: index, what: "the references")
      if high == 0xC, rules.sets == .refused {
        throw .unsupported(
          format: .binary, at: .byteOffset(offset),
          feature: "a set (0xC), which GNUstep refuses".naming(.binarySet))
      }
      return .container(isDictionary: high == 0xD, count: count, refs: payload, isSet: high == 0xC)
    default:
      throw Self.unknownMarker(marker, at: offset)
    }
  }

  @inline(never)
  static func unknownMarker(_ marker: UInt8, at offset: Int) -> PlistError {
    .malformed(
      format: .binary, at: .byteOffset(offset),
      reason: "unknown object marker 0x\(marker.hex(width: 2))".naming(.binaryUnknownMarker))
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
  /// wider ones (a store's own file: any width to 8 bytes, as a UID).
  private func uid(at offset: Int, size: Int) throws(PlistError) -> PlistValue {
    switch rules.uids {
    // (The tools read as CoreFoundation does: refused above 32 bits.)
    case .coreFoundation:
      var value: UInt64 = 0
      for k in 0..<size { value = value << 8 | UInt64(bytes[offset + 1 + k]) }
      guard value <= UInt64(UInt32.max) else {
        throw .unsupported(
          format: .binary, at: .byteOffset(offset),
          feature: "a UID above 32 bits (\(value)), which CoreFoundation refuses"
            .naming(.binaryUIDAbove32Bits))
      }
      return .uid(value)
    case .gnustepDictionaries where size <= 2:
      return .dictionary(["CF$UID": .integer(Int64(readUInt(at: offset + 1, size: size)))])
    case .gnustepDictionaries(wider: .refused):
      throw .unsupported(
        format: .binary, at: .byteOffset(offset),
        feature: "a UID of \(size) bytes, which GNUstep refuses (it reads one or two)"
          .naming(.binaryWideUID))
    case .gnustepDictionaries:
      guard size <= 8 else {
        throw .malformed(
          format: .binary, at: .byteOffset(offset),
          reason: "UID of \(size) bytes (at most 8)".naming(.binaryWideUID))
      }
      return .uid(readUInt(at: offset + 1, size: size))
    }
  }

  /// A dictionary key: strings as they are; other scalars under their text form, reported
  /// (read exactly, refused: both readers keep such a key as it is, which a domain cannot).
  mutating func decodeKey(_ index: Int, refOffset: Int) throws(PlistError) -> String {
    if isShared(index), let cached = shared[index], case .string(let s) = cached.value { return s }
    let decoded = try decodeObject(index)
    guard case .scalar(let value) = decoded else {
      throw .malformed(
        format: .binary, at: .byteOffset(refOffset),
        reason: "dictionary key (object \(index)) is a container, not a string"
          .naming(.binaryContainerKey))
    }
    if case .string(let s) = value {
      if isShared(index) { shared[index] = (value, Expansion.of(value)) }
      return s
    }
    let text = OpenStepWriter.describeScalar(value)
    if rules.nonStringKeys == .refused {
      throw .unsupported(
        format: .binary, at: .byteOffset(refOffset),
        feature: "a dictionary key that is not a string (the \(value.typeName) \(text)), which "
          + "\(rules.reader) keeps as it is: a domain's keys are strings".naming(.nonstringKey))
    }
    warnings.append(.nonStringKey(text, at: .byteOffset(refOffset)))
    return text
  }
}
