/// Splits UTF-8 source text (lines ending in LF: ``SourceText`` made them so) into tokens.
struct SourceLexer {
  /// The text, each byte read with its index checked.
  let bytes: [UInt8]
  let swift: Bool
  var out: SourceTokens
  var line: Int32 = 1
  /// The open conditions: whether each is active, whether it may be false (a real
  /// condition), and whether a branch of it was taken (for `#elif`/`#else`).
  var conditions: [(active: Bool, uncertain: Bool, taken: Bool, later: Bool)] = []
  /// The first `#ifndef NAME` of a header, when the next directive defines NAME: an include
  /// guard, always true.
  var guardName: [UInt8]?

  static func tokens(of bytes: [UInt8], swift: Bool) -> SourceTokens {
    var lexer = SourceLexer(bytes: bytes, swift: swift)
    lexer.run()
    lexer.pair()
    return lexer.out
  }

  init(bytes: [UInt8], swift: Bool) {
    self.bytes = bytes
    self.swift = swift
    out = SourceTokens(bytes: bytes, swift: swift)
    out.tokens.reserveCapacity(bytes.count / 5)
  }

  /// Whether every open condition is active, and whether one may be false (kept as the
  /// conditions change, not asked at every token).
  var active = true
  var uncertain = false
  /// In a later branch (`#else`, `#elif`) of a condition whose first branch was read too.
  var alternative = false

  mutating func conditionsChanged() {
    active = conditions.allSatisfy(\.active)
    uncertain = conditions.contains { $0.uncertain }
    alternative = conditions.contains { $0.uncertain && $0.later }
  }

  mutating func emit(
    _ kind: SourceToken.Kind, _ start: Int, _ end: Int, value: Int32 = -1,
    interpolated: Bool = false, objc: Bool = false
  ) {
    out.tokens.append(
      SourceToken(
        kind: kind, conditional: uncertain, alternative: alternative, interpolated: interpolated,
        objc: objc, line: line,
        start: Int32(start), end: Int32(end), value: value))
  }

  /// Objective-C's `@` words.
  static let directives: [[UInt8]] = [
    "interface", "implementation", "end", "protocol", "property", "synthesize", "dynamic",
    "class", "selector", "encode", "import", "autoreleasepool", "try", "catch", "finally",
    "throw", "synchronized", "optional", "required", "public", "private", "protected",
    "package", "available", "compatibility_alias", "defs",
  ].map { Array($0.utf8) }

  static func isDirective<Word: Collection<UInt8>>(_ word: Word) -> Bool {
    directives.contains { word.elementsEqual($0) }
  }

  @inline(__always) static func isIdentifierByte(_ b: UInt8) -> Bool {
    (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x5F
      || b == 0x24 || b >= 0x80
  }

  @inline(__always) private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

  mutating func run() {
    let n = bytes.count
    var i = 0
    var lineStart = true
    while i < n {
      let b = bytes[i]
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
        if bytes[i + 1] == 0x2F {
          i = skipLine(from: i)
          continue
        }
        if bytes[i + 1] == 0x2A {
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
  mutating func skipLine(from start: Int) -> Int {
    var i = start
    while i < bytes.count, bytes[i] != 0x0A {
      if bytes[i] == 0x5C, !swift, i + 1 < bytes.count, bytes[i + 1] == 0x0A {
        line += 1
        i += 2
        continue
      }
      i += 1
    }
    return i
  }

  /// After `/*`: past the `*/` (Swift nests them).
  mutating func skipBlockComment(from start: Int) -> Int {
    var i = start
    var depth = 1
    while i < bytes.count {
      let b = bytes[i]
      if b == 0x0A { line += 1 }
      if b == 0x2A, i + 1 < bytes.count, bytes[i + 1] == 0x2F {
        depth -= 1
        i += 2
        if depth == 0 || !swift { return i }
        continue
      }
      if swift, b == 0x2F, i + 1 < bytes.count, bytes[i + 1] == 0x2A {
        depth += 1
        i += 2
        continue
      }
      i += 1
    }
    return i
  }

  func word(at start: Int) -> (Int, Int) {
    var i = start
    while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
    let s = i
    while i < bytes.count, Self.isIdentifierByte(bytes[i]) { i += 1 }
    return (s, i)
  }

  /// The end of a directive's line, continuations included (comments in it are left to the
  /// caller's tokens).
  func lineEnd(from start: Int) -> Int {
    var i = start
    while i < bytes.count, bytes[i] != 0x0A {
      if bytes[i] == 0x5C, i + 1 < bytes.count, bytes[i + 1] == 0x0A {
        i += 2
        continue
      }
      i += 1
    }
    return i
  }

  mutating func countLines(_ range: Range<Int>) {
    for k in range where bytes[k] == 0x0A { line += 1 }
  }

  /// What a condition's text says: true, false, or unknown (nil).
  func truth(_ range: Range<Int>) -> Bool? {
    var text = ""
    for k in range {
      let b = bytes[k]
      if b == 0x2F, k + 1 < range.upperBound, bytes[k + 1] == 0x2F || bytes[k + 1] == 0x2A {
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
  mutating func directive(at hash: Int) -> Int? {
    let (ws, we) = word(at: hash + 1)
    let name = Array(bytes[ws..<we])
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
        guardName = Array(bytes[ns..<ne])
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
      if let guardName, Array(bytes[ns..<ne]) == guardName, out.tokens.isEmpty {
        self.guardName = nil
        return skip()
      }
      guardName = nil
      guard ne > ns else { return skip() }
      // A function-like macro (`#define F(x) …`) names no constant: kept for the
      // ``Preprocessor`` to expand where it is called.
      if ne < bytes.count, bytes[ne] == 0x28 {
        if let macro = functionMacro(parameters: ne, end: end) {
          out.functionMacros[String(decoding: bytes[ns..<ne], as: UTF8.self)] = macro
        }
        return skip()
      }
      emit(.define, hash, ne)
      emit(.identifier, ns, ne)
      var i = ne
      while i < end {
        let b = bytes[i]
        if b == 0x5C, i + 1 < bytes.count, bytes[i + 1] == 0x0A {
          line += 1
          i += 2
          continue
        }
        if b == 0x20 || b == 0x09 || b == 0x0D {
          i += 1
          continue
        }
        if b == 0x2F, i + 1 < end, bytes[i + 1] == 0x2F { break }
        if b == 0x2F, i + 1 < end, bytes[i + 1] == 0x2A {
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
    case "import",
      "include" where !swift:
      // `#import "Keys.h"`: the file's name, for the macros it brings.
      var k = we
      while k < end, bytes[k] == 0x20 || bytes[k] == 0x09 { k += 1 }
      if k < end, bytes[k] == 0x22 {
        var e = k + 1
        while e < end, bytes[e] != 0x22 { e += 1 }
        out.includes.append(String(decoding: bytes[(k + 1)..<e], as: UTF8.self))
      }
      return skip()
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

  /// `#define NAME(a, b) body` from its `(` at `open` to the line's `end`: the parameters
  /// and the body's text, line continuations and comments taken out; nil for a list that is
  /// not one.
  func functionMacro(parameters open: Int, end: Int) -> FunctionMacro? {
    var i = open + 1
    var parameters: [String] = []
    var variadic: String?
    var current: [UInt8] = []
    while i < end, bytes[i] != 0x29 {
      let b = bytes[i]
      if b == 0x2C {
        if !current.isEmpty { parameters.append(String(decoding: current, as: UTF8.self)) }
        current = []
      } else if b == 0x2E {
        // `...` or `name...`
        variadic = current.isEmpty ? "__VA_ARGS__" : String(decoding: current, as: UTF8.self)
        current = []
        while i < end, bytes[i] == 0x2E { i += 1 }
        continue
      } else if Self.isIdentifierByte(b) {
        current.append(b)
      } else if !(b == 0x20 || b == 0x09 || b == 0x5C || b == 0x0A || b == 0x0D) {
        return nil
      }
      i += 1
    }
    guard i < end else { return nil }
    if !current.isEmpty { parameters.append(String(decoding: current, as: UTF8.self)) }
    var body: [UInt8] = []
    i += 1
    while i < end {
      let b = bytes[i]
      if b == 0x5C, i + 1 < bytes.count, bytes[i + 1] == 0x0A {
        body.append(0x20)
        i += 2
        continue
      }
      if b == 0x2F, i + 1 < end, bytes[i + 1] == 0x2F { break }
      if b == 0x2F, i + 1 < end, bytes[i + 1] == 0x2A {
        var k = i + 2
        while k + 1 < bytes.count, !(bytes[k] == 0x2A && bytes[k + 1] == 0x2F) { k += 1 }
        body.append(0x20)
        i = k + 2
        continue
      }
      if b == 0x22 || b == 0x27 {
        // A literal: copied whole (a `//` in it is not a comment).
        var k = i + 1
        while k < end, bytes[k] != b {
          if bytes[k] == 0x5C { k += 1 }
          k += 1
        }
        body += bytes[i..<min(k + 1, end)]
        i = k + 1
        continue
      }
      body.append(b == 0x0D ? 0x20 : b)
      i += 1
    }
    return FunctionMacro(
      parameters: parameters, variadic: variadic, body: Preprocessor.trimmed(body))
  }

  /// One token at `i` (not white space, not a comment); returns the index after it.
  mutating func token(at start: Int) -> Int {
    let n = bytes.count
    var i = start
    let b = bytes[i]
    if Self.isIdentifierByte(b), !Self.isDigit(b) {
      while i < n, Self.isIdentifierByte(bytes[i]) { i += 1 }
      emit(.identifier, start, i)
      return i
    }
    if Self.isDigit(b) || (b == 0x2E && i + 1 < n && Self.isDigit(bytes[i + 1])) {
      i += 1
      while i < n {
        let c = bytes[i]
        if Self.isIdentifierByte(c) || c == 0x2E {
          i += 1
        } else if (c == 0x2B || c == 0x2D), i > start,
          bytes[i - 1] == 0x65 || bytes[i - 1] == 0x45 || bytes[i - 1] == 0x70
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
      while i < n, bytes[i] != 0x27, bytes[i] != 0x0A {
        if bytes[i] == 0x5C { i += 1 }
        i += 1
      }
      emit(.character, start, min(i + 1, n))
      return min(i + 1, n)
    case 0x40:  // @
      if i + 1 < n, bytes[i + 1] == 0x22 {
        return cString(at: start, valueStart: start + 2, objc: true)
      }
      if i + 1 < n, Self.isIdentifierByte(bytes[i + 1]), !Self.isDigit(bytes[i + 1]) {
        i += 1
        while i < n, Self.isIdentifierByte(bytes[i]) { i += 1 }
        let word = bytes[start + 1..<i]
        // A directive (`@interface`, `@selector`, Swift's `@objc`) is one word; any other
        // `@NAME` is a boxed value (`@YES`, `@PROXY_SYSTEM`, a macro's number): the literal's @
        // and its name.
        if !swift, !Self.isDirective(word) {
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
      if i + 1 < n, bytes[i + 1] == 0x22 || bytes[i + 1] == 0x23 {
        return swiftRawString(at: start)
      }
      i += 1
      while i < n, Self.isIdentifierByte(bytes[i]) { i += 1 }
      emit(.identifier, start, i)
      return i
    default:
      break
    }
    // Punctuation: the few pairs the scanner tells apart, else one character.
    if i + 1 < n {
      let c = bytes[i + 1]
      let pair: Bool =
        switch (b, c) {
        case (0x3D, 0x3D), (0x21, 0x3D), (0x3F, 0x3F), (0x2D, 0x3E), (0x26, 0x26), (0x7C, 0x7C),
          (0x3C, 0x3D), (0x3E, 0x3D), (0x2B, 0x3D), (0x2D, 0x3D), (0x3A, 0x3A):
          true
        default: false
        }
      if pair {
        // `!==`/`===` are Swift's identity tests: one token.
        if i + 2 < n, bytes[i + 2] == 0x3D, c == 0x3D {
          emit(.punctuation, start, start + 3)
          return start + 3
        }
        emit(.punctuation, start, start + 2)
        return start + 2
      }
      if b == 0x2E, c == 0x2E, i + 2 < n, bytes[i + 2] == 0x2E {
        emit(.punctuation, start, start + 3)
        return start + 3
      }
    }
    emit(.punctuation, start, start + 1)
    return start + 1
  }

  /// The partner of every bracket. A closing bracket without its opener is left unpaired; an
  /// opener never closed is paired with the end.
  mutating func pair() {
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
