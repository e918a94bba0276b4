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
  /// marker first does not look it up twice): its marker read through the one table
  /// (``BinaryMarker``), then as the reader's rules say.
  mutating func decodeObject(_ index: Int, at offset: Int) throws(PlistError) -> Decoded {
    let marker = bytes[offset]
    switch BinaryMarker(marker) {
    case .boolean(let value): return .scalar(.bool(value))
    case .null:
      throw .unsupported(
        format: .binary, at: .byteOffset(offset),
        feature: "a null object (0x00: CoreFoundation's NSNull, GNUstep refuses it; no "
          + "property list type holds it)".naming(.binaryNull))
    case .integerTooWide(let exponent):
      throw .malformed(
        format: .binary, at: .byteOffset(offset),
        reason: "integer of 2^\(exponent) bytes (at most 16 are allowed)"
          .naming(.binaryIntegerSize))
    case .integer(let size):
      try require(offset + 1, size, object: index, what: "the integer")
      switch size {
      case 1, 2, 4:
        return .scalar(.integer(Int64(readUInt(at: offset + 1, size: size))))
      case 8:
        return .scalar(.integer(Int64(bitPattern: readUInt(at: offset + 1, size: 8))))
      default:
        return .scalar(try sixteenByteInteger(at: offset))
      }
    case .real(let size):
      try require(offset + 1, size, object: index, what: "the real")
      guard size == 4 else {
        return .scalar(.real(Double(bitPattern: readUInt(at: offset + 1, size: 8))))
      }
      let bits = UInt32(truncatingIfNeeded: readUInt(at: offset + 1, size: 4))
      return .scalar(.real(Double(Float(bitPattern: bits))))
    case .realOfOtherSize(let exponent):
      throw .malformed(
        format: .binary, at: .byteOffset(offset),
        reason: "real of 2^\(exponent) bytes (only 4 and 8 exist)".naming(.binaryRealSize))
    case .date:
      try require(offset + 1, 8, object: index, what: "the date")
      let bits = readUInt(at: offset + 1, size: 8)
      guard BinaryMarker.isReadableDate(bits) else {
        throw .malformed(
          format: .binary, at: .byteOffset(offset + 1),
          reason: "date is \(Double(bitPattern: bits))".naming(.nonfiniteBinaryDate))
      }
      return .scalar(.date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits))))
    case .data:
      let (count, payload) = try readCount(marker: marker, at: offset, object: index)
      try require(payload, count, object: index, what: "the data")
      return .scalar(.data(bytes.withBytes(payload..<(payload + count)) { $0.data }))
    case .asciiString:
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
    case .utf16String:
      let (count, payload) = try readCount(marker: marker, at: offset, object: index)
      if count == 0, rules.emptyUTF16Strings != .read {
        guard rules.emptyUTF16Strings == .warned else {
          throw .unsupported(
            format: .binary, at: .byteOffset(offset),
            feature: "a UTF-16 string of no characters, which CoreFoundation refuses"
              .naming(.binaryEmptyUTF16String))
        }
        warnings.append(
          .readAs(
            .gnustep,
            "a UTF-16 string of no characters as \"\", which CoreFoundation refuses"
              .naming(.toolsReadMore), at: .byteOffset(offset)))
      }
      let (length, overflow) = count.multipliedReportingOverflow(by: 2)
      guard !overflow else {
        throw .malformed(
          format: .binary, at: .byteOffset(offset),
          reason: "string length overflows".naming(.binaryCountTooLarge))
      }
      try require(payload, length, object: index, what: "the UTF-16 string")
      return .scalar(.string(try decodeUTF16BE(at: payload, units: count)))
    case .uid(let size):
      try require(offset + 1, size, object: index, what: "the UID")
      return .scalar(try uid(at: offset, size: size))
    case .array, .set, .dictionary:
      let high = marker >> 4
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
    case .unknown:
      throw Self.unknownMarker(marker, at: offset)
    }
  }

  /// A 16-byte integer at `offset` (its marker's), as the reader reads it: CoreFoundation
  /// (every verb that reads as it does) keeps the low 64 bits, unsigned (-1 and -2 in 16 bytes
  /// are 2^64 - 1 and 2^64 - 2, 2^64 + 5 is 5); GNUstep refuses it.
  @inline(never)
  private mutating func sixteenByteInteger(at offset: Int) throws(PlistError) -> PlistValue {
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
      return .int(low)
    case .refused:
      throw .unsupported(
        format: .binary, at: .byteOffset(offset),
        feature: "a 16-byte integer, which GNUstep refuses".naming(.binarySixteenByteInteger))
    case .whenTheyFit:
      if high == 0 { return .int(low) }
      if high == .max, low >> 63 == 1 { return .integer(Int64(bitPattern: low)) }
      throw .malformed(
        format: .binary, at: .byteOffset(offset),
        reason: "integer does not fit in 64 bits".naming(.binarySixteenByteInteger))
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
