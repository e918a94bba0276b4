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
  /// The function-like macros the file defines, and the files it includes (`#import "K.h"`,
  /// `#include "k.h"`: the name as written).
  var functionMacros: [String: FunctionMacro] = [:]
  var includes: [String] = []
  /// The source of each interpolation of a Swift string, by the string's value index.
  var interpolations: [Int32: [String]] = [:]

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
      var k = 0
      while k < length {
        if bytes[start + k] != wanted[k] { return false }
        k += 1
      }
      return true
    }
  }

  /// Whether token `i` is an identifier that begins with `prefix` (ASCII), without making its
  /// text.
  func hasPrefix(_ i: Int, _ prefix: StaticString) -> Bool {
    guard i >= 0, i < tokens.count, tokens[i].kind == .identifier else { return false }
    let t = tokens[i]
    let start = Int(t.start)
    guard Int(t.end) - start >= prefix.utf8CodeUnitCount else { return false }
    return prefix.withUTF8Buffer { wanted in
      wanted.indices.allSatisfy { bytes[start + $0] == wanted[$0] }
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
    // The usual text: short, on one line, one space at most between tokens: as it is.
    if end - start <= limit {
      let slice = bytes[start..<end]
      var plain = true
      var previous: UInt8 = 0
      for byte in slice {
        if byte == 0x09 || byte == 0x0A || byte == 0x0D || (byte == 0x20 && previous == 0x20) {
          plain = false
          break
        }
        previous = byte
      }
      if plain { return String(decoding: slice, as: UTF8.self) }
    }
    var out: [UInt8] = []
    out.reserveCapacity(min(end - start, limit + 1))
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

extension SourceTokens {
  /// The tests of a condition joined by `&&` at its own level (and by `,`, a Swift condition
  /// list's separator, when `commaJoins`), each without parentheses around it; the whole
  /// condition when an `||` joins it.
  func conjuncts(_ whole: Range<Int>, commaJoins: Bool) -> [Range<Int>] {
    var parts: [Range<Int>] = []
    let range = unparenthesized(whole)
    var start = range.lowerBound
    var k = start
    while k < range.upperBound {
      if isText(k, "&&") || (commaJoins && isPunctuation(k, 0x2C)) {
        parts.append(start..<k)
        start = k + 1
      } else if isText(k, "||") {
        return [range]
      } else if isPunctuation(k, 0x28) || isPunctuation(k, 0x5B) {
        k = match(k)
      }
      k += 1
    }
    parts.append(start..<range.upperBound)
    return parts.map(unparenthesized)
  }

  /// The tests `||` joins at the top level of a condition (`!s || !valid(s)`), each without
  /// its enclosing parentheses; one part when there is no `||` (`a || b && c` is `a`, `b && c`).
  func disjuncts(_ whole: Range<Int>) -> [Range<Int>] {
    var parts: [Range<Int>] = []
    let range = unparenthesized(whole)
    var start = range.lowerBound
    var k = start
    while k < range.upperBound {
      if isText(k, "||") {
        parts.append(start..<k)
        start = k + 1
      } else if isPunctuation(k, 0x28) || isPunctuation(k, 0x5B) {
        k = match(k)
      }
      k += 1
    }
    parts.append(start..<range.upperBound)
    return parts.map(unparenthesized)
  }

  /// The first `{` of `range` outside its parentheses and brackets, after its first token.
  func topLevelBrace(in range: Range<Int>) -> Int? {
    var k = range.lowerBound + 1
    while k < range.upperBound {
      if isPunctuation(k, 0x7B) { return k }
      if isPunctuation(k, 0x28) || isPunctuation(k, 0x5B) { k = match(k) }
      k += 1
    }
    return nil
  }

  /// `range` without the parentheses that enclose all of it.
  func unparenthesized(_ range: Range<Int>) -> Range<Int> {
    var r = range
    while r.count >= 2, isPunctuation(r.lowerBound, 0x28), match(r.lowerBound) == r.upperBound - 1 {
      r = (r.lowerBound + 1)..<(r.upperBound - 1)
    }
    return r
  }
}

extension SourceTokens {
  /// The most tokens an integer expression is folded over.
  static let foldLimit = 64

  /// A constant integer expression as the compiler folds it: whole numbers and the names
  /// `leaf` reads (a token's value, nil for none), `|`, `+`, `-`, `<<`, `*`, a leading `-`,
  /// parentheses (`strip` takes them off, and a C cast with them); nil for anything else, or
  /// past 64 bits.
  func foldedInteger(
    _ range: Range<Int>, strip: (Range<Int>) -> Range<Int>, leaf: (Int) -> Int64?
  ) -> Int64? {
    let r = strip(range)
    // (No constant of the code is longer; a mutated file's chain of thousands of `*` would
    // be folded in quadratic time.)
    guard !r.isEmpty, r.count <= Self.foldLimit else { return nil }
    // The operator of lowest precedence at the top level, from the right.
    for ops in [["|"], ["+", "-"], ["<<"], ["*"]] {
      var k = r.upperBound - 1
      while k > r.lowerBound {
        if isPunctuation(k, 0x29) {
          k = match(k) - 1
          continue
        }
        let op = text(k)
        if ops.contains(op), token(k).kind == .punctuation {
          guard let a = foldedInteger(r.lowerBound..<k, strip: strip, leaf: leaf),
            let b = foldedInteger((k + 1)..<r.upperBound, strip: strip, leaf: leaf)
          else { return nil }
          let (value, overflow): (Int64, Bool) =
            switch op {
            case "|": (a | b, false)
            case "+": a.addingReportingOverflow(b)
            case "-": a.subtractingReportingOverflow(b)
            case "*": a.multipliedReportingOverflow(by: b)
            default: b >= 0 && b < 63 ? (a << b, false) : (0, true)
            }
          return overflow ? nil : value
        }
        k -= 1
      }
    }
    if r.count == 2, isPunctuation(r.lowerBound, 0x2D),
      let v = foldedInteger((r.lowerBound + 1)..<r.upperBound, strip: strip, leaf: leaf)
    {
      return v == .min ? nil : -v
    }
    return r.count == 1 ? leaf(r.lowerBound) : nil
  }
}
