/// One token of a C, Objective-C or Swift source file: what the scanner needs to see keys,
/// receivers and values, nothing of the grammar beyond that. Comments are skipped, and so are
/// the lines a preprocessor (or Swift compiler) condition that is never true leaves out
/// (`#if 0`, `#if false`, and the `#else` of `#if 1`); a token inside any other condition
/// (`#if DEBUG`, `#ifdef TARGET_OS_IPHONE`) is marked, so that a default found there is
/// reported, not written.
struct SourceToken: Sendable {
  enum Kind: UInt8, Sendable {
    /// A name or a keyword (`@interface`, `@property` and Swift's `#available` keep their
    /// first character).
    case identifier
    /// A C string (`"…"`), an Objective-C one (`@"…"`, one token) or a Swift one; the value is
    /// in the token list's ``SourceTokens/strings``.
    case string
    case number
    case character
    /// One or more punctuation characters: `[`, `==`, `??`, `->`, `...`.
    case punctuation
    /// `#define NAME`: the name's token follows, then the body's tokens, then ``endDirective``.
    case define
    case endDirective
  }

  var kind: Kind
  /// Inside a preprocessor or compiler condition that may be true or false.
  var conditional: Bool
  /// In the `#else` (or a later `#elif`) of such a condition: one of two texts only one of
  /// which is compiled (an element of a list there stands in for the one before it).
  var alternative: Bool
  /// A string literal whose text was interpolated (`"Flag\(name)"`): its pieces are in the
  /// text, each interpolation as U+0000.
  var interpolated: Bool
  /// An Objective-C string (`@"…"`), or a Swift one in a Swift file.
  var objc: Bool
  var line: Int32
  var start: Int32
  var end: Int32
  /// The index of a string token's text in ``SourceTokens/strings``.
  var value: Int32
}

/// The tokens of one file, with the matching bracket of every `(`, `[` and `{`.
struct SourceTokens: Sendable {
  var bytes: [UInt8]
  var tokens: [SourceToken] = []
  var strings: [String] = []
  /// For a token that opens a bracket, the index of the one that closes it (or the end of the
  /// tokens when it is never closed); for a closing one, the one that opened it; else -1.
  var partner: [Int32] = []
  var swift: Bool
  /// The deepest nesting of brackets: the readers' recursion follows it, so a file nesting
  /// deeper than ``nestingLimit`` is not read (named instead), never a stack overflow.
  var depth = 0
  static let nestingLimit = 256

  var count: Int { tokens.count }

  /// Whether token `i` is the identifier or punctuation `text` (ASCII).
  @inline(__always)
  func isText(_ i: Int, _ text: StaticString) -> Bool {
    guard i >= 0, i < tokens.count else { return false }
    let t = tokens[i]
    guard t.kind == .identifier || t.kind == .punctuation else { return false }
    let length = Int(t.end - t.start)
    guard length == text.utf8CodeUnitCount else { return false }
    let start = Int(t.start)
    return text.withUTF8Buffer { wanted in
      bytes.withUnsafeBufferPointer { have in
        var k = 0
        while k < length {
          if have[start + k] != wanted[k] { return false }
          k += 1
        }
        return true
      }
    }
  }

  @inline(__always)
  func isPunctuation(_ i: Int, _ byte: UInt8) -> Bool {
    guard i >= 0, i < tokens.count else { return false }
    let t = tokens[i]
    return t.kind == .punctuation && t.end - t.start == 1 && bytes[Int(t.start)] == byte
  }

  func isIdentifier(_ i: Int) -> Bool {
    i >= 0 && i < tokens.count && tokens[i].kind == .identifier
  }

  func isString(_ i: Int) -> Bool { i >= 0 && i < tokens.count && tokens[i].kind == .string }

  /// The token's text as written.
  func text(_ i: Int) -> String {
    guard i >= 0, i < tokens.count else { return "" }
    let t = tokens[i]
    return String(decoding: bytes[Int(t.start)..<Int(t.end)], as: UTF8.self)
  }

  /// The value of a string token.
  func stringValue(_ i: Int) -> String? {
    guard isString(i) else { return nil }
    return strings[Int(tokens[i].value)]
  }

  func line(_ i: Int) -> Int {
    guard !tokens.isEmpty else { return 1 }
    return Int(tokens[max(0, min(i, tokens.count - 1))].line)
  }

  /// Token `i`, or an empty one past the end (a read beyond a cut file is never a crash).
  @inline(__always)
  func token(_ i: Int) -> SourceToken {
    guard i >= 0, i < tokens.count else {
      let end = Int32(bytes.count)
      return SourceToken(
        kind: .endDirective, conditional: false, alternative: false, interpolated: false,
        objc: false, line: Int32(line(tokens.count - 1)), start: end, end: end, value: -1)
    }
    return tokens[i]
  }

  /// The partner of the bracket at `i` (see ``partner``); the end of the tokens for an `i`
  /// outside them, so that a bracket never closed ends the file, never the process.
  @inline(__always)
  func match(_ i: Int) -> Int {
    i >= 0 && i < partner.count ? Int(partner[i]) : tokens.count
  }

  /// The comma-separated parts of `range` at its own level (brackets inside are skipped).
  func commaSeparated(_ range: Range<Int>) -> [Range<Int>] {
    var parts: [Range<Int>] = []
    var start = range.lowerBound
    var k = start
    while k < range.upperBound {
      if isPunctuation(k, 0x2C) {
        parts.append(start..<k)
        start = k + 1
      } else if isPunctuation(k, 0x28) || isPunctuation(k, 0x5B) || isPunctuation(k, 0x7B) {
        k = match(k)
      }
      k += 1
    }
    if start < range.upperBound { parts.append(start..<range.upperBound) }
    return parts
  }

  /// The first `:` of `range` at its own level that no `?` before it takes (a dictionary
  /// entry's, not a ternary's). In Swift only a `?` set apart is a ternary's (`a ? b : c`,
  /// not `x?.y`).
  func colonAtTop(_ range: Range<Int>) -> Int? {
    var k = range.lowerBound
    var questions = 0
    while k < range.upperBound {
      if isPunctuation(k, 0x3F),
        !swift
          || tokens[k].start > 0 && [0x20, 0x09, 0x0A].contains(bytes[Int(tokens[k].start) - 1])
      {
        questions += 1
      }
      if isPunctuation(k, 0x3A) {
        if questions == 0 { return k }
        questions -= 1
      }
      if isPunctuation(k, 0x28) || isPunctuation(k, 0x5B) || isPunctuation(k, 0x7B) {
        k = match(k)
      }
      k += 1
    }
    return nil
  }

  /// Whether a token of `range` is the identifier or punctuation `word`.
  func contains(_ range: Range<Int>, _ word: StaticString) -> Bool {
    range.contains { isText($0, word) }
  }

  /// After a `<` at `start`: past its matching `>` (a generic's parameters).
  func angleEnd(from start: Int) -> Int {
    var k = start
    var depth = 0
    while k < tokens.count {
      if isPunctuation(k, 0x3C) { depth += 1 }
      if isPunctuation(k, 0x3E) { depth -= 1 }
      k += 1
      if depth == 0 { break }
    }
    return k
  }

  /// The source text of tokens `range`, as written (white space between tokens kept as one
  /// space), cut after `limit` bytes.
  func source(_ range: Range<Int>, limit: Int = 80) -> String {
    guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= tokens.count else {
      return ""
    }
    let start = Int(tokens[range.lowerBound].start)
    let end = Int(tokens[range.upperBound - 1].end)
    var out: [UInt8] = []
    var space = false
    for byte in bytes[start..<end] {
      if byte == 0x20 || byte == 0x09 || byte == 0x0A {
        space = true
        continue
      }
      if space, !out.isEmpty { out.append(0x20) }
      space = false
      out.append(byte)
      if out.count > limit {
        return String(decoding: out, as: UTF8.self) + "…"
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}

/// Splits UTF-8 source text (lines ending in LF: ``SourceText`` made them so) into tokens.
struct SourceLexer {
  private let bytes: [UInt8]
  /// `bytes`, while ``run()`` reads them (no bounds check at each byte).
  private var p = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
  private let swift: Bool
  private var out: SourceTokens
  private var line: Int32 = 1
  /// The open conditions: whether each is active, whether it may be false (a real
  /// condition), and whether a branch of it was taken (for `#elif`/`#else`).
  private var conditions: [(active: Bool, uncertain: Bool, taken: Bool, later: Bool)] = []
  /// The first `#ifndef NAME` of a header, when the next directive defines NAME: an include
  /// guard, always true.
  private var guardName: [UInt8]?

  static func tokens(of bytes: [UInt8], swift: Bool) -> SourceTokens {
    var lexer = SourceLexer(bytes: bytes, swift: swift)
    bytes.withUnsafeBufferPointer { pointer in
      lexer.p = pointer
      lexer.run()
      lexer.p = UnsafeBufferPointer(start: nil, count: 0)
    }
    lexer.pair()
    return lexer.out
  }

  private init(bytes: [UInt8], swift: Bool) {
    self.bytes = bytes
    self.swift = swift
    out = SourceTokens(bytes: bytes, swift: swift)
    out.tokens.reserveCapacity(bytes.count / 5)
  }

  /// Whether every open condition is active, and whether one may be false (kept as the
  /// conditions change, not asked at every token).
  private var active = true
  private var uncertain = false
  /// In a later branch (`#else`, `#elif`) of a condition whose first branch was read too.
  private var alternative = false

  private mutating func conditionsChanged() {
    active = conditions.allSatisfy(\.active)
    uncertain = conditions.contains { $0.uncertain }
    alternative = conditions.contains { $0.uncertain && $0.later }
  }

  private mutating func emit(
    _ kind: SourceToken.Kind, _ start: Int, _ end: Int, value: Int32 = -1,
    interpolated: Bool = false, objc: Bool = false
  ) {
    out.tokens.append(
      SourceToken(
        kind: kind, conditional: uncertain, alternative: alternative, interpolated: interpolated,
        objc: objc, line: line,
        start: Int32(start), end: Int32(end), value: value))
  }

  @inline(__always) private static func isIdentifierByte(_ b: UInt8) -> Bool {
    (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x5F
      || b == 0x24 || b >= 0x80
  }

  @inline(__always) private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

  private mutating func run() {
    let n = p.count
    var i = 0
    var lineStart = true
    while i < n {
      let b = p[i]
      if b == 0x0A {
        line += 1
        lineStart = true
        i += 1
        continue
      }
      if b == 0x20 || b == 0x09 || b == 0x0C || b == 0x0B || b == 0x0D {
        i += 1
        continue
      }
      // Comments.
      if b == 0x2F, i + 1 < n {
        if p[i + 1] == 0x2F {
          i = skipLine(from: i)
          continue
        }
        if p[i + 1] == 0x2A {
          i = skipBlockComment(from: i + 2)
          continue
        }
      }
      if b == 0x23, lineStart, let next = directive(at: i) {
        conditionsChanged()
        i = next
        continue
      }
      lineStart = false
      if !active {
        i = skipLine(from: i)
        continue
      }
      i = token(at: i)
    }
  }

  /// After `//`: to the end of the line (a backslash at the end continues it, in C).
  private mutating func skipLine(from start: Int) -> Int {
    var i = start
    while i < p.count, p[i] != 0x0A {
      if p[i] == 0x5C, !swift, i + 1 < p.count, p[i + 1] == 0x0A {
        line += 1
        i += 2
        continue
      }
      i += 1
    }
    return i
  }

  /// After `/*`: past the `*/` (Swift nests them).
  private mutating func skipBlockComment(from start: Int) -> Int {
    var i = start
    var depth = 1
    while i < p.count {
      let b = p[i]
      if b == 0x0A { line += 1 }
      if b == 0x2A, i + 1 < p.count, p[i + 1] == 0x2F {
        depth -= 1
        i += 2
        if depth == 0 || !swift { return i }
        continue
      }
      if swift, b == 0x2F, i + 1 < p.count, p[i + 1] == 0x2A {
        depth += 1
        i += 2
        continue
      }
      i += 1
    }
    return i
  }

  private func word(at start: Int) -> (Int, Int) {
    var i = start
    while i < p.count, p[i] == 0x20 || p[i] == 0x09 { i += 1 }
    let s = i
    while i < p.count, Self.isIdentifierByte(p[i]) { i += 1 }
    return (s, i)
  }

  /// The end of a directive's line, continuations included (comments in it are left to the
  /// caller's tokens).
  private func lineEnd(from start: Int) -> Int {
    var i = start
    while i < p.count, p[i] != 0x0A {
      if p[i] == 0x5C, i + 1 < p.count, p[i + 1] == 0x0A {
        i += 2
        continue
      }
      i += 1
    }
    return i
  }

  private mutating func countLines(_ range: Range<Int>) {
    for k in range where p[k] == 0x0A { line += 1 }
  }

  /// What a condition's text says: true, false, or unknown (nil).
  private func truth(_ range: Range<Int>) -> Bool? {
    var text = ""
    for k in range {
      let b = p[k]
      if b == 0x2F, k + 1 < range.upperBound, p[k + 1] == 0x2F || p[k + 1] == 0x2A {
        break
      }
      if b != 0x20, b != 0x09, b != 0x5C, b != 0x0A, b != 0x28, b != 0x29 {
        text.unicodeScalars.append(Unicode.Scalar(b))
      }
    }
    switch text {
    case "0", "false", "NO": return false
    case "1", "true", "YES": return true
    default: return nil
    }
  }

  /// A directive at a line's start: conditions, `#define`, and the rest skipped. Returns nil
  /// for a `#` that is not one (Swift's `#available`, `#selector`).
  private mutating func directive(at hash: Int) -> Int? {
    let (ws, we) = word(at: hash + 1)
    let name = Array(p[ws..<we])
    let end = lineEnd(from: we)
    func skip() -> Int {
      countLines(we..<end)
      return end
    }
    switch String(decoding: name, as: UTF8.self) {
    case "if":
      let value = truth(we..<end)
      conditions.append(
        (active: value != false, uncertain: value == nil, taken: value != false, later: false))
      return skip()
    case "ifdef", "ifndef":
      let (ns, ne) = word(at: we)
      if name == Array("ifndef".utf8), conditions.isEmpty, out.tokens.isEmpty, guardName == nil {
        guardName = Array(p[ns..<ne])
        conditions.append((active: true, uncertain: false, taken: true, later: false))
        return skip()
      }
      conditions.append((active: true, uncertain: true, taken: true, later: false))
      return skip()
    case "elif":
      guard let last = conditions.popLast() else { return skip() }
      let value = truth(we..<end)
      if last.taken, !last.uncertain {
        conditions.append((active: false, uncertain: false, taken: true, later: true))
      } else {
        conditions.append(
          (
            active: value != false, uncertain: value == nil || last.uncertain,
            taken: value != false || last.taken, later: last.taken
          ))
      }
      return skip()
    case "else":
      guard let last = conditions.popLast() else { return skip() }
      conditions.append(
        (
          active: !last.taken || last.uncertain, uncertain: last.uncertain, taken: true,
          later: last.taken
        ))
      return skip()
    case "endif":
      _ = conditions.popLast()
      return skip()
    case "define" where !swift:
      guard active else { return skip() }
      let (ns, ne) = word(at: we)
      if let guardName, Array(p[ns..<ne]) == guardName, out.tokens.isEmpty {
        self.guardName = nil
        return skip()
      }
      guardName = nil
      guard ne > ns else { return skip() }
      // A function-like macro (`#define F(x) …`) names no constant: skipped.
      if ne < p.count, p[ne] == 0x28 { return skip() }
      emit(.define, hash, ne)
      emit(.identifier, ns, ne)
      var i = ne
      while i < end {
        let b = p[i]
        if b == 0x5C, i + 1 < p.count, p[i + 1] == 0x0A {
          line += 1
          i += 2
          continue
        }
        if b == 0x20 || b == 0x09 || b == 0x0D {
          i += 1
          continue
        }
        if b == 0x2F, i + 1 < end, p[i + 1] == 0x2F { break }
        if b == 0x2F, i + 1 < end, p[i + 1] == 0x2A {
          i = skipBlockComment(from: i + 2)
          continue
        }
        i = token(at: i)
      }
      emit(.endDirective, end, end)
      // A block comment may have run past the line's end: continue from where it stopped.
      let stop = max(i, end)
      if stop > end { return stop }
      return end
    default:
      if swift,
        !["warning", "error", "sourceLocation", "line"].contains(
          String(decoding: name, as: UTF8.self))
      {
        return nil
      }
      guardName = nil
      return skip()
    }
  }

  /// One token at `i` (not white space, not a comment); returns the index after it.
  private mutating func token(at start: Int) -> Int {
    let n = p.count
    var i = start
    let b = p[i]
    if Self.isIdentifierByte(b), !Self.isDigit(b) {
      while i < n, Self.isIdentifierByte(p[i]) { i += 1 }
      emit(.identifier, start, i)
      return i
    }
    if Self.isDigit(b) || (b == 0x2E && i + 1 < n && Self.isDigit(p[i + 1])) {
      i += 1
      while i < n {
        let c = p[i]
        if Self.isIdentifierByte(c) || c == 0x2E {
          i += 1
        } else if (c == 0x2B || c == 0x2D), i > start,
          p[i - 1] == 0x65 || p[i - 1] == 0x45 || p[i - 1] == 0x70
        {
          // An exponent's sign (1e-3), not a hex digit's (0xE-1 is rare enough).
          i += 1
        } else {
          break
        }
      }
      emit(.number, start, i)
      return i
    }
    switch b {
    case 0x22:  // "
      if swift { return swiftString(at: start) }
      return cString(at: start, valueStart: start + 1, objc: false)
    case 0x27:  // '
      if swift {
        emit(.punctuation, start, start + 1)
        return start + 1
      }
      i += 1
      while i < n, p[i] != 0x27, p[i] != 0x0A {
        if p[i] == 0x5C { i += 1 }
        i += 1
      }
      emit(.character, start, min(i + 1, n))
      return min(i + 1, n)
    case 0x40:  // @
      if i + 1 < n, p[i + 1] == 0x22 {
        return cString(at: start, valueStart: start + 2, objc: true)
      }
      if i + 1 < n, Self.isIdentifierByte(p[i + 1]), !Self.isDigit(p[i + 1]) {
        i += 1
        while i < n, Self.isIdentifierByte(p[i]) { i += 1 }
        let word = p[start + 1..<i]
        // @YES, @NO, @true, @false are a literal's @ and its value.
        if word.elementsEqual("YES".utf8) || word.elementsEqual("NO".utf8)
          || word.elementsEqual("true".utf8) || word.elementsEqual("false".utf8)
        {
          emit(.punctuation, start, start + 1)
          emit(.identifier, start + 1, i)
          return i
        }
        emit(.identifier, start, i)
        return i
      }
      emit(.punctuation, start, start + 1)
      return start + 1
    case 0x23 where swift:  // #available, #selector, raw strings #"…"#
      if i + 1 < n, p[i + 1] == 0x22 || p[i + 1] == 0x23 {
        return swiftRawString(at: start)
      }
      i += 1
      while i < n, Self.isIdentifierByte(p[i]) { i += 1 }
      emit(.identifier, start, i)
      return i
    default:
      break
    }
    // Punctuation: the few pairs the scanner tells apart, else one character.
    if i + 1 < n {
      let c = p[i + 1]
      let pair: Bool =
        switch (b, c) {
        case (0x3D, 0x3D), (0x21, 0x3D), (0x3F, 0x3F), (0x2D, 0x3E), (0x26, 0x26), (0x7C, 0x7C),
          (0x3C, 0x3D), (0x3E, 0x3D), (0x2B, 0x3D), (0x2D, 0x3D), (0x3A, 0x3A):
          true
        default: false
        }
      if pair {
        // `!==`/`===` are Swift's identity tests: one token.
        if i + 2 < n, p[i + 2] == 0x3D, c == 0x3D {
          emit(.punctuation, start, start + 3)
          return start + 3
        }
        emit(.punctuation, start, start + 2)
        return start + 2
      }
      if b == 0x2E, c == 0x2E, i + 2 < n, p[i + 2] == 0x2E {
        emit(.punctuation, start, start + 3)
        return start + 3
      }
    }
    emit(.punctuation, start, start + 1)
    return start + 1
  }

  private mutating func addString(_ text: String) -> Int32 {
    out.strings.append(text)
    return Int32(out.strings.count - 1)
  }

  /// A C or Objective-C string from its quote; escapes decoded.
  private mutating func cString(at start: Int, valueStart: Int, objc: Bool) -> Int {
    let n = p.count
    var i = valueStart
    var plain = true
    while i < n, p[i] != 0x22, p[i] != 0x0A {
      if p[i] == 0x5C {
        plain = false
        i += 1
        if i < n, p[i] == 0x0A { line += 1 }
      }
      i += 1
    }
    let end = min(i, n)
    let text =
      plain
      ? String(decoding: p[valueStart..<end], as: UTF8.self)
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
  private mutating func swiftString(at start: Int) -> Int {
    let n = p.count
    let multiline = start + 2 < n && p[start + 1] == 0x22 && p[start + 2] == 0x22
    var i = start + (multiline ? 3 : 1)
    var raw: [UInt8] = []
    var interpolated = false
    while i < n {
      let b = p[i]
      if multiline {
        if b == 0x22, i + 2 < n, p[i + 1] == 0x22, p[i + 2] == 0x22 {
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
        let e = p[i + 1]
        if e == 0x28 {
          // An interpolation: to its closing parenthesis (strings inside it skipped).
          interpolated = true
          raw.append(0)
          i += 2
          var depth = 1
          while i < n, depth > 0 {
            let c = p[i]
            if c == 0x28 { depth += 1 }
            if c == 0x29 { depth -= 1 }
            if c == 0x0A { line += 1 }
            if c == 0x22 {
              i += 1
              while i < n, p[i] != 0x22, p[i] != 0x0A {
                if p[i] == 0x5C { i += 1 }
                i += 1
              }
            }
            i += 1
          }
          continue
        }
        if e == 0x75, i + 2 < n, p[i + 2] == 0x7B {
          var k = i + 3
          var value: UInt32 = 0
          while k < n, let d = Self.hexDigit(p[k]) {
            value = value * 16 + d
            k += 1
          }
          if let scalar = Unicode.Scalar(value) { raw += Array(String(scalar).utf8) }
          i = k + 1
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
    emit(.string, start, i, value: addString(text), interpolated: interpolated, objc: true)
    return i
  }

  /// A multi-line string's lines without the closing delimiter's indentation.
  private static func dedent(_ text: String) -> String {
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
  private mutating func swiftRawString(at start: Int) -> Int {
    let n = p.count
    var hashes = 0
    var i = start
    while i < n, p[i] == 0x23 {
      hashes += 1
      i += 1
    }
    guard i < n, p[i] == 0x22 else {
      emit(.punctuation, start, start + 1)
      return start + 1
    }
    i += 1
    let valueStart = i
    while i < n {
      if p[i] == 0x0A { line += 1 }
      if p[i] == 0x22 {
        var k = i + 1
        var count = 0
        while k < n, p[k] == 0x23, count < hashes {
          count += 1
          k += 1
        }
        if count == hashes {
          let text = String(decoding: p[valueStart..<i], as: UTF8.self)
          emit(.string, start, k, value: addString(text), objc: true)
          return k
        }
      }
      i += 1
    }
    emit(
      .string, start, n, value: addString(String(decoding: p[valueStart..<n], as: UTF8.self)))
    return n
  }

  /// The partner of every bracket. A closing bracket without its opener is left unpaired; an
  /// opener never closed is paired with the end.
  private mutating func pair() {
    var partner = [Int32](repeating: -1, count: out.tokens.count)
    var stack: [Int] = []
    for (i, t) in out.tokens.enumerated() where t.kind == .punctuation && t.end - t.start == 1 {
      let b = bytes[Int(t.start)]
      switch b {
      case 0x28, 0x5B, 0x7B:
        stack.append(i)
        out.depth = max(out.depth, stack.count)
      case 0x29, 0x5D, 0x7D:
        let open: UInt8 = b == 0x29 ? 0x28 : b == 0x5D ? 0x5B : 0x7B
        // Close the nearest opener of the same kind (a stray closer of another kind is
        // dropped with the openers above it).
        if let k = stack.lastIndex(where: { bytes[Int(out.tokens[$0].start)] == open }) {
          for stray in stack[(k + 1)...] { partner[stray] = Int32(i) }
          partner[stack[k]] = Int32(i)
          partner[i] = Int32(stack[k])
          stack.removeSubrange(k...)
        }
      default: break
      }
    }
    for open in stack { partner[open] = Int32(out.tokens.count) }
    out.partner = partner
  }
}
