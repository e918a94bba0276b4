/// String literals: C's and Objective-C's, Swift's (interpolated, multi-line, raw), their
/// escapes decoded.
extension SourceLexer {
  mutating func addString(_ text: String) -> Int32 {
    out.strings.append(text)
    return Int32(out.strings.count - 1)
  }

  /// A C or Objective-C string from its quote; escapes decoded.
  mutating func cString(at start: Int, valueStart: Int, objc: Bool) -> Int {
    let n = bytes.count
    var i = valueStart
    var plain = true
    while i < n, bytes[i] != 0x22, bytes[i] != 0x0A {
      if bytes[i] == 0x5C {
        plain = false
        i += 1
        if i < n, bytes[i] == 0x0A { line += 1 }
      }
      i += 1
    }
    let end = min(i, n)
    let text =
      plain
      ? String(decoding: bytes[valueStart..<end], as: UTF8.self)
      : Self.unescape(bytes[valueStart..<end])
    emit(.string, start, min(end + 1, n), value: addString(text), objc: objc)
    return min(end + 1, n)
  }

  /// C escapes: `\n`, `\t`, `\"`, `\\`, octal, `\x`, `\u`/`\U`.
  static func unescape(_ raw: ArraySlice<UInt8>) -> String {
    var scalars = String.UnicodeScalarView()
    var bytesOut: [UInt8] = []
    func flush() {
      if !bytesOut.isEmpty {
        scalars.append(contentsOf: String(decoding: bytesOut, as: UTF8.self).unicodeScalars)
        bytesOut = []
      }
    }
    var i = raw.startIndex
    func hex(_ count: Int) -> UInt32? {
      var value: UInt32 = 0
      var read = 0
      while read < count, i < raw.endIndex, let digit = hexDigit(raw[i]) {
        value = value * 16 + digit
        i += 1
        read += 1
      }
      return read == 0 ? nil : value
    }
    while i < raw.endIndex {
      let b = raw[i]
      guard b == 0x5C, i + 1 < raw.endIndex else {
        bytesOut.append(b)
        i += 1
        continue
      }
      i += 1
      let e = raw[i]
      i += 1
      switch e {
      case 0x6E: bytesOut.append(0x0A)
      case 0x74: bytesOut.append(0x09)
      case 0x72: bytesOut.append(0x0D)
      case 0x30...0x37:
        var value = UInt32(e - 0x30)
        var read = 1
        while read < 3, i < raw.endIndex, raw[i] >= 0x30, raw[i] <= 0x37 {
          value = value * 8 + UInt32(raw[i] - 0x30)
          i += 1
          read += 1
        }
        bytesOut.append(UInt8(truncatingIfNeeded: value))
      case 0x78:
        if let v = hex(2) { bytesOut.append(UInt8(truncatingIfNeeded: v)) }
      case 0x75, 0x55:
        flush()
        if let v = hex(e == 0x75 ? 4 : 8), let scalar = Unicode.Scalar(v) { scalars.append(scalar) }
      case 0x0A: break
      default: bytesOut.append(e)
      }
    }
    flush()
    return String(scalars)
  }

  static func hexDigit(_ b: UInt8) -> UInt32? {
    switch b {
    case 0x30...0x39: UInt32(b - 0x30)
    case 0x61...0x66: UInt32(b - 0x61 + 10)
    case 0x41...0x46: UInt32(b - 0x41 + 10)
    default: nil
    }
  }

  /// A Swift string (`"…"` or `"""…"""`): escapes decoded, each interpolation `\(…)` as
  /// U+0000.
  mutating func swiftString(at start: Int) -> Int {
    let n = bytes.count
    let multiline = start + 2 < n && bytes[start + 1] == 0x22 && bytes[start + 2] == 0x22
    var i = start + (multiline ? 3 : 1)
    var raw: [UInt8] = []
    var interpolated = false
    var pieces: [String] = []
    while i < n {
      let b = bytes[i]
      if multiline {
        if b == 0x22, i + 2 < n, bytes[i + 1] == 0x22, bytes[i + 2] == 0x22 {
          i += 3
          break
        }
      } else if b == 0x22 {
        i += 1
        break
      } else if b == 0x0A {
        break
      }
      if b == 0x0A { line += 1 }
      if b == 0x5C, i + 1 < n {
        let e = bytes[i + 1]
        if e == 0x28 {
          // An interpolation: to its closing parenthesis (strings inside it skipped).
          interpolated = true
          raw.append(0)
          i += 2
          let pieceStart = i
          var depth = 1
          defer {
            pieces.append(
              String(decoding: bytes[pieceStart..<max(pieceStart, i - 1)], as: UTF8.self))
          }
          while i < n, depth > 0 {
            let c = bytes[i]
            if c == 0x28 { depth += 1 }
            if c == 0x29 { depth -= 1 }
            if c == 0x0A { line += 1 }
            if c == 0x22 {
              i += 1
              while i < n, bytes[i] != 0x22, bytes[i] != 0x0A {
                if bytes[i] == 0x5C { i += 1 }
                i += 1
              }
            }
            i += 1
          }
          // (A string left open inside it, at the end of the file: the file's end.)
          i = min(i, n)
          continue
        }
        if e == 0x75, i + 2 < n, bytes[i + 2] == 0x7B {
          var k = i + 3
          var value: UInt32 = 0
          while k < n, let d = Self.hexDigit(bytes[k]) {
            value = value * 16 + d
            k += 1
          }
          if let scalar = Unicode.Scalar(value) { raw += Array(String(scalar).utf8) }
          i = min(k + 1, n)
          continue
        }
        switch e {
        case 0x6E: raw.append(0x0A)
        case 0x74: raw.append(0x09)
        case 0x72: raw.append(0x0D)
        case 0x30: raw.append(0)
        case 0x0A: line += 1
        default: raw.append(e)
        }
        i += 2
        continue
      }
      raw.append(b)
      i += 1
    }
    var text = String(decoding: raw, as: UTF8.self)
    if multiline { text = Self.dedent(text) }
    let value = addString(text)
    if interpolated { out.interpolations[value] = pieces }
    emit(.string, start, i, value: value, interpolated: interpolated, objc: true)
    return i
  }

  /// A multi-line string's lines without the closing delimiter's indentation.
  static func dedent(_ text: String) -> String {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.first?.allSatisfy({ $0 == " " || $0 == "\t" }) == true { lines.removeFirst() }
    guard let last = lines.last, last.allSatisfy({ $0 == " " || $0 == "\t" }) else {
      return lines.joined(separator: "\n")
    }
    lines.removeLast()
    let indent = last.count
    return lines.map {
      String($0.dropFirst(min(indent, $0.prefix { $0 == " " || $0 == "\t" }.count)))
    }
    .joined(separator: "\n")
  }

  /// A Swift raw string (`#"…"#`): no escapes, no interpolation.
  mutating func swiftRawString(at start: Int) -> Int {
    let n = bytes.count
    var hashes = 0
    var i = start
    while i < n, bytes[i] == 0x23 {
      hashes += 1
      i += 1
    }
    guard i < n, bytes[i] == 0x22 else {
      emit(.punctuation, start, start + 1)
      return start + 1
    }
    i += 1
    let valueStart = i
    while i < n {
      if bytes[i] == 0x0A { line += 1 }
      if bytes[i] == 0x22 {
        var k = i + 1
        var count = 0
        while k < n, bytes[k] == 0x23, count < hashes {
          count += 1
          k += 1
        }
        if count == hashes {
          let text = String(decoding: bytes[valueStart..<i], as: UTF8.self)
          emit(.string, start, k, value: addString(text), objc: true)
          return k
        }
      }
      i += 1
    }
    emit(
      .string, start, n, value: addString(String(decoding: bytes[valueStart..<n], as: UTF8.self)))
    return n
  }
}
