/// The constants an Objective-C or C file defines, found without reading all of it: a file
/// that never names user defaults can only matter to the scan through its `#define`s and
/// top-level declarations (`NSString *const kKey = @"key";`, `NSInteger const kLimit = 10;`,
/// a value a registration elsewhere may name), so only those are lexed. The
/// rest is skimmed byte by byte for comments, strings, preprocessor conditions and braces
/// (the same rules as ``SourceLexer``: `#if 0` is left out, a `//` comment ends at the line's
/// end).
enum DefinitionSkimmer {
  /// The byte ranges to lex: each `#define` line (with its continuations), each statement
  /// at the top level that assigns a value (a string, a number: not a braced initializer).
  static func ranges(_ bytes: [UInt8]) -> [Range<Int>] {
    var out: [Range<Int>] = []
    let n = bytes.count
    var i = 0
    var depth = 0
    var lineStart = true
    var statement: Int?
    var hasEquals = false
    /// A top-level enum (`typedef NS_ENUM(NSInteger, Mode) { … };`): where it starts, its
    /// constants being values a registration may name (`@(ModeAsk)`).
    var enumStatement: Int?
    // Open conditions: whether each is active, and whether a branch was taken.
    var conditions: [(active: Bool, taken: Bool, certain: Bool)] = []
    var active = true

    /// The line's end (its LF) from `from`, a line continued by a backslash included.
    @inline(__always) func skipToLineEnd(_ from: Int) -> Int {
      var k = from
      while k < n {
        guard let at = ByteSearch.firstIndex(of: 0x0A, in: bytes, k..<n) else { return n }
        // `\` before it (or `\` CR) continues the line.
        var before = at - 1
        if before >= from, bytes[before] == 0x0D { before -= 1 }
        if before >= from, bytes[before] == 0x5C {
          k = at + 1
          continue
        }
        return at
      }
      return n
    }

    func word(_ from: Int) -> (Int, Int) {
      var k = from
      while k < n, bytes[k] == 0x20 || bytes[k] == 0x09 { k += 1 }
      let s = k
      while k < n, isIdentifier(bytes[k]) { k += 1 }
      return (s, k)
    }

    func equals(_ s: Int, _ e: Int, _ text: StaticString) -> Bool {
      guard e - s == text.utf8CodeUnitCount else { return false }
      return text.withUTF8Buffer { w in
        var k = 0
        while k < w.count {
          if bytes[s + k] != w[k] { return false }
          k += 1
        }
        return true
      }
    }

    /// What a condition says: true, false, or nil (unknown).
    func truth(_ s: Int, _ e: Int) -> Bool? {
      var k = s
      var text: [UInt8] = []
      while k < e {
        let b = bytes[k]
        if b == 0x2F, k + 1 < e, bytes[k + 1] == 0x2F || bytes[k + 1] == 0x2A { break }
        if b != 0x20, b != 0x09, b != 0x28, b != 0x29, b != 0x0D { text.append(b) }
        k += 1
      }
      switch text {
      case [0x30], Array("false".utf8), Array("NO".utf8): return false
      case [0x31], Array("true".utf8), Array("YES".utf8): return true
      default: return nil
      }
    }

    while i < n {
      // Inside a body, only a few bytes matter: the rest is passed over in a tight loop.
      if depth > 0, !lineStart {
        while i < n {
          i = ByteSearch.firstIndex(in: bytes, from: i, where: Self.mattersInBody)
          if i >= n { break }
          let c = bytes[i]
          // A line's end: its next line's indentation is passed over here too, unless a
          // directive starts it.
          guard c == 0x0A else { break }
          var k = i + 1
          // Indentation: eight spaces at a time, then one by one.
          while k + 8 <= n, ByteSearch.word(bytes, at: k) == 0x2020_2020_2020_2020 { k += 8 }
          while k < n, bytes[k] == 0x20 || bytes[k] == 0x09 { k += 1 }
          if k < n, bytes[k] == 0x23 {
            lineStart = true
            i = k
            break
          }
          i = k
        }
        if i >= n { break }
      }
      let b = bytes[i]
      switch b {
      case 0x0A:
        lineStart = true
        i += 1
        continue
      case 0x20, 0x09, 0x0D, 0x0C, 0x0B:
        i += 1
        continue
      case 0x23 where lineStart:  // a directive
        let (ws, we) = word(i + 1)
        let end = skipToLineEnd(we)
        if equals(ws, we, "if") || equals(ws, we, "ifdef") || equals(ws, we, "ifndef") {
          let value = equals(ws, we, "if") ? truth(we, end) : nil
          conditions.append((active: value != false, taken: value != false, certain: value != nil))
        } else if equals(ws, we, "elif") {
          if let last = conditions.popLast() {
            let value = truth(we, end)
            if last.taken, last.certain {
              conditions.append((active: false, taken: true, certain: true))
            } else {
              conditions.append(
                (
                  active: value != false, taken: value != false || last.taken,
                  certain: value != nil && last.certain
                ))
            }
          }
        } else if equals(ws, we, "else") {
          if let last = conditions.popLast() {
            conditions.append(
              (active: !last.taken || !last.certain, taken: true, certain: last.certain))
          }
        } else if equals(ws, we, "endif") {
          _ = conditions.popLast()
        } else if equals(ws, we, "define"), active {
          out.append(i..<end)
        }
        active = conditions.allSatisfy(\.active)
        i = end
        continue
      default:
        break
      }
      lineStart = false
      if !active {
        i = skipToLineEnd(i)
        continue
      }
      switch b {
      case 0x2F:
        if i + 1 < n, bytes[i + 1] == 0x2F {
          i = skipToLineEnd(i)
          continue
        }
        if i + 1 < n, bytes[i + 1] == 0x2A {
          var k = i + 2
          while k + 1 < n {
            guard let at = ByteSearch.firstIndex(of: 0x2A, in: bytes, k..<(n - 1)) else {
              k = n
              break
            }
            k = at
            if bytes[k + 1] == 0x2F { break }
            k += 1
          }
          i = k + 2
          continue
        }
      case 0x22, 0x27:
        // A string or a character, to its closing quote (escapes skipped).
        var k = i + 1
        while k < n, bytes[k] != b, bytes[k] != 0x0A {
          if bytes[k] == 0x5C { k += 1 }
          k += 1
        }
        i = k + 1
        continue
      case 0x7B:
        if depth == 0, let s = statement, Self.startsEnum(bytes, s) { enumStatement = s }
        depth += 1
        statement = nil
      case 0x7D:
        depth = max(0, depth - 1)
        statement = nil
      case 0x3D where depth == 0:
        hasEquals = true
      case 0x3B where depth == 0:
        if let s = statement, hasEquals { out.append(s..<(i + 1)) }
        if let e = enumStatement { out.append(e..<(i + 1)) }
        statement = nil
        enumStatement = nil
      default:
        if depth == 0, statement == nil, isIdentifier(b) {
          statement = i
          hasEquals = false
        }
      }
      i += 1
    }
    return out
  }

  /// Whether the statement at `start` declares an enum (`typedef NS_ENUM`, `enum`,
  /// `NS_OPTIONS`, `typedef enum`).
  static func startsEnum(_ bytes: [UInt8], _ start: Int) -> Bool {
    for word in enumWords where start + word.count <= bytes.count {
      var k = 0
      while k < word.count, bytes[start + k] == word[k] { k += 1 }
      if k == word.count { return true }
    }
    return false
  }

  static let enumWords: [[UInt8]] = [
    "typedef", "enum", "NS_ENUM", "NS_OPTIONS", "NS_CLOSED_ENUM", "CF_ENUM",
  ]
  .map { Array($0.utf8) }

  /// Whether `b` matters inside a function's body: a line's end, a comment's, string's or
  /// character's start, a brace. (A mask of the bytes below 64, then the braces: no table
  /// to look up at every byte.)
  @inline(__always) static func mattersInBody(_ b: UInt8) -> Bool {
    let low: UInt64 = 1 << 0x0A | 1 << 0x22 | 1 << 0x27 | 1 << 0x2F
    return b < 64 ? low >> UInt64(b) & 1 != 0 : b == 0x7B || b == 0x7D
  }

  @inline(__always) static func isIdentifier(_ b: UInt8) -> Bool {
    (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x5F
      || b == 0x24 || b >= 0x80
  }

  /// The file's constants: each range lexed and read as a file of its own.
  static func facts(_ bytes: [UInt8], path: String) -> FileFacts {
    var facts = FileFacts(path: path)
    for range in ranges(bytes) {
      var piece = Array(bytes[range])
      if String(validating: piece, as: UTF8.self) == nil { piece = SourceText.macRoman(piece) }
      if piece.contains(0x0D) { piece = SourceText.lineFeeds(piece) }
      let tokens = SourceLexer.tokens(of: piece, swift: false)
      facts.functionMacros.merge(tokens.functionMacros) { a, _ in a }
      var reader = ObjCReader(SourceInput(tokens: tokens, path: path))
      let found = reader.read()
      facts.constants.merge(found.constants) { a, _ in a }
      facts.valueConstants.merge(found.valueConstants) { a, _ in a }
    }
    return facts
  }
}
