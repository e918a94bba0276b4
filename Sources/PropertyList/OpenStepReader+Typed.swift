#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// OpenStep data (`<0fbd 7778>`) and GNUstep's typed values (`<*I42>`, `<*D…>`, `<[…]>`).
extension OpenStepReader {
  mutating func readAngle() throws(PlistError) -> PlistValue {
    let start = i
    i += 1
    if rules.typedValues, i < b.count, b[i] == UInt8(ascii: "*") {
      return try readTyped(start: start)
    }
    if rules.typedValues, i < b.count, b[i] == UInt8(ascii: "[") {
      return try readBase64Data(start: start)
    }
    var bytes: [UInt8] = []
    var high: UInt8? = nil
    while true {
      guard i < b.count else {
        throw .truncated(
          format: format, at: location(start),
          expected: "'>' to end the data".naming(.openStepTruncated))
      }
      let c = b[i]
      if c == UInt8(ascii: ">") {
        guard high == nil else {
          throw fail(.openStepDataOddDigits, "data with an odd number of hex digits", at: i)
        }
        i += 1
        return .data(Data(bytes))
      }
      if c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D {
        i += 1
        continue
      }
      guard let v = Self.hexValue(c) else {
        throw fail(
          .openStepDataBadCharacter,
          "'\(Character(Unicode.Scalar(c)))' in data, which holds hex digits", at: i)
      }
      if let h = high {
        bytes.append(h << 4 | v)
        high = nil
      } else {
        high = v
      }
      i += 1
    }
  }

  /// GNUstep's base64 data, `<[D713eA==]>`.
  private mutating func readBase64Data(start: Int) throws(PlistError) -> PlistValue {
    sawTypedValue = true
    i += 1
    let bodyStart = i
    while i < b.count, b[i] != UInt8(ascii: "]") { i += 1 }
    guard i + 1 < b.count, b[i + 1] == UInt8(ascii: ">") else {
      throw .truncated(
        format: .gnustep, at: location(start),
        expected: "']>' to end the data".naming(.openStepTruncated))
    }
    let body = b[bodyStart..<i]
    i += 2
    // As GNUstep Base reads it (NSDataBase64DecodingIgnoreUnknownCharacters): bytes outside
    // the base64 alphabet are skipped. What GNUstep then decodes by accident (more than two
    // '=', nothing left at all) is refused.
    let kept = body.filter { Base64.value($0) != nil || $0 == UInt8(ascii: "=") }
    if kept.isEmpty, !body.isEmpty {
      throw fail(.gnustepBase64Empty, "<[…]> holds no base64 characters", at: bodyStart)
    }
    switch Base64.decode(kept[...]) {
    case .success(let data): return .data(data)
    case .failure: throw fail(.gnustepBadBase64, "<[…]> is not valid base64", at: bodyStart)
    }
  }

  private mutating func readTyped(start: Int) throws(PlistError) -> PlistValue {
    sawTypedValue = true
    i += 1
    guard i < b.count else { throw eof("a GNUstep type letter after <*") }
    let type = b[i]
    i += 1
    let bodyStart = i
    while i < b.count, b[i] != UInt8(ascii: ">") { i += 1 }
    guard i < b.count else {
      throw .truncated(
        format: .gnustep, at: location(start),
        expected: "'>' to end the value".naming(.openStepTruncated))
    }
    var body = String(decoding: b[bodyStart..<i], as: UTF8.self)
    i += 1
    // GNUstep allows a quoted value (`<*I"42">`) when both quotes are there.
    if body.utf8.count > 2, body.hasPrefix("\""), body.hasSuffix("\"") {
      body = String(body.dropFirst().dropLast())
    }
    switch type {
    case UInt8(ascii: "I"):
      guard let value = TextNumber.integer(body.trimmingWhitespace()) else {
        throw fail(.gnustepTypedNumber, "<*I\(body)> is not an integer in 64 bits", at: start)
      }
      return value
    case UInt8(ascii: "R"):
      guard let value = TextNumber.real(body.trimmingWhitespace()) else {
        throw fail(.gnustepTypedNumber, "<*R\(body)> is not a number", at: start)
      }
      return .real(value)
    case UInt8(ascii: "B"):
      switch body {
      case "Y": return .bool(true)
      case "N": return .bool(false)
      default: throw fail(.gnustepTypedBool, "<*B\(body)> is not <*BY> or <*BN>", at: start)
      }
    case UInt8(ascii: "D"):
      guard let date = CivilTime.date(description: body) else {
        throw fail(
          .gnustepTypedDate, "<*D\(body)> is not a date of the form 2011-03-14 15:09:26 +0000",
          at: start)
      }
      return .date(date)
    default:
      throw .unsupported(
        format: .gnustep, at: location(start),
        feature: "the typed value <*\(Character(Unicode.Scalar(type)))…>"
          .naming(.gnustepTypedUnknown))
    }
  }
}
