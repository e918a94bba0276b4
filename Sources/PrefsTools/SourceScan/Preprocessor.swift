/// A function-like macro of C and Objective-C (`#define KEY(x) k##x##Key`), as the file that
/// defines it writes it.
struct FunctionMacro: Sendable, Hashable {
  var parameters: [String]
  /// `...` (the arguments are `__VA_ARGS__`), or GNU's `args...` (they are `args`).
  var variadic: String?
  /// The body's text, its line continuations and comments taken out.
  var body: [UInt8]
}

/// The C preprocessor's function-like macros, applied to a file's text before it is read:
/// arguments split at their top-level commas, `#` making a string of an argument as written,
/// `##` pasting two tokens, `__VA_ARGS__`, the result scanned again for further macros (a
/// macro is never expanded inside its own expansion). Object-like macros stay names: the scan
/// looks them up across the tree, as it does constants. A condition's branches (`#if`) are
/// all kept by the lexer, as alternatives.
///
/// The expansion replaces the call's text in place; the lines a call spans are kept as line
/// ends after it, so every later line keeps its number.
enum Preprocessor {
  /// How deep expansions nest (a macro whose expansion calls another, …) before the rest is
  /// left as written.
  static let depthLimit = 32

  /// `bytes` with every call of a macro `lookup` knows expanded; nil when there is none.
  /// `tokens` are the file's own (to find the calls without lexing again).
  static func expand(
    _ bytes: [UInt8], tokens: SourceTokens, lookup: (String) -> FunctionMacro?
  ) -> [UInt8]? {
    var out: [UInt8] = []
    var copied = 0
    var changed = false
    var i = 0
    while i < tokens.count {
      guard tokens.isIdentifier(i), tokens.isPunctuation(i + 1, 0x28),
        let macro = lookup(tokens.text(i))
      else {
        i += 1
        continue
      }
      let close = tokens.match(i + 1)
      guard close < tokens.count else { break }
      let start = Int(tokens.token(i).start)
      let end = Int(tokens.token(close).end)
      let arguments = argumentTexts(tokens, open: i + 1, close: close)
      var hidden: Set<String> = [tokens.text(i)]
      let expansion = substitute(
        macro, arguments: arguments, lookup: lookup, hidden: &hidden, depth: 0)
      out += bytes[copied..<start]
      out += expansion.map { $0 == 0x0A ? 0x20 : $0 }
      // The call's own line ends, after it: the next lines keep their numbers.
      out += bytes[start..<end].filter { $0 == 0x0A }
      copied = end
      changed = true
      i = close + 1
    }
    guard changed else { return nil }
    out += bytes[copied...]
    return out
  }

  /// The text of each argument between the call's parentheses, split at its top-level commas.
  static func argumentTexts(_ tokens: SourceTokens, open: Int, close: Int) -> [[UInt8]] {
    guard close > open + 1 else { return [] }
    return tokens.commaSeparated((open + 1)..<close).map { part in
      guard let first = part.first, let last = part.last else { return [] }
      return Array(tokens.bytes[Int(tokens.token(first).start)..<Int(tokens.token(last).end)])
    }
  }

  /// The macro's body with its parameters replaced by `arguments`, then scanned again.
  static func substitute(
    _ macro: FunctionMacro, arguments: [[UInt8]], lookup: (String) -> FunctionMacro?,
    hidden: inout Set<String>, depth: Int
  ) -> [UInt8] {
    var values: [String: [UInt8]] = [:]
    for (n, name) in macro.parameters.enumerated() {
      values[name] = n < arguments.count ? trimmed(arguments[n]) : []
    }
    if let rest = macro.variadic {
      let extra = arguments.dropFirst(macro.parameters.count).map(trimmed)
      values[rest] = Array(extra.joined(separator: Array(", ".utf8)))
    }
    let pieces = MacroText.pieces(macro.body)
    var result: [UInt8] = []
    var k = 0
    while k < pieces.count {
      let piece = pieces[k]
      // `#param`: the argument as written, made a string.
      if piece.kind == .hash, k + 1 < pieces.count, let value = values[pieces[k + 1].text] {
        result += stringLiteral(value)
        k += 2
        continue
      }
      if piece.kind == .identifier, let value = values[piece.text] {
        // Next to `##` the argument is pasted as written; elsewhere it is expanded first.
        let pasted =
          MacroText.pasteBefore(pieces, k) || MacroText.pasteAfter(pieces, k)
        result +=
          pasted
          ? value : rescan(value, lookup: lookup, hidden: &hidden, depth: depth + 1)
        k += 1
        continue
      }
      if piece.kind == .paste {
        // Glue: white space around `##` goes.
        while let last = result.last, last == 0x20 || last == 0x09 { result.removeLast() }
        k += 1
        while k < pieces.count, pieces[k].kind == .space { k += 1 }
        continue
      }
      result += piece.bytes
      k += 1
    }
    return rescan(result, lookup: lookup, hidden: &hidden, depth: depth + 1)
  }

  /// `text` with the calls of macros in it expanded (none of `hidden`, the macros being
  /// expanded around it).
  static func rescan(
    _ text: [UInt8], lookup: (String) -> FunctionMacro?, hidden: inout Set<String>, depth: Int
  ) -> [UInt8] {
    guard depth < depthLimit, text.contains(0x28) else { return text }
    let tokens = SourceLexer.tokens(of: text, swift: false)
    var out: [UInt8] = []
    var copied = 0
    var i = 0
    while i < tokens.count {
      let name = tokens.isIdentifier(i) ? tokens.text(i) : ""
      guard tokens.isPunctuation(i + 1, 0x28), !hidden.contains(name),
        let macro = lookup(name)
      else {
        i += 1
        continue
      }
      let close = tokens.match(i + 1)
      guard close < tokens.count else { break }
      let start = Int(tokens.token(i).start)
      let end = Int(tokens.token(close).end)
      hidden.insert(name)
      let expansion = substitute(
        macro, arguments: argumentTexts(tokens, open: i + 1, close: close), lookup: lookup,
        hidden: &hidden, depth: depth + 1)
      hidden.remove(name)
      out += text[copied..<start]
      out += expansion
      copied = end
      i = close + 1
    }
    out += text[copied...]
    return out
  }

  static func trimmed(_ text: [UInt8]) -> [UInt8] {
    var slice = text[...]
    while let first = slice.first, first == 0x20 || first == 0x09 || first == 0x0A {
      slice = slice.dropFirst()
    }
    while let last = slice.last, last == 0x20 || last == 0x09 || last == 0x0A {
      slice = slice.dropLast()
    }
    return Array(slice)
  }

  /// `#x`: the argument's text in quotes, its quotes and backslashes escaped, its white space
  /// one space.
  static func stringLiteral(_ text: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x22]
    var space = false
    var inString = false
    for byte in text {
      if !inString, byte == 0x20 || byte == 0x09 || byte == 0x0A {
        space = true
        continue
      }
      if space, out.count > 1 { out.append(0x20) }
      space = false
      if byte == 0x22 { inString.toggle() }
      if byte == 0x22 || (byte == 0x5C && inString) { out.append(0x5C) }
      out.append(byte)
    }
    out.append(0x22)
    return out
  }
}

/// A macro body cut into the pieces substitution looks at: names, `#`, `##`, string and
/// character literals (never looked into), white space, and anything else byte by byte.
enum MacroText {
  enum Kind { case identifier, hash, paste, literal, space, other }

  struct Piece {
    var kind: Kind
    var bytes: [UInt8]
    var text: String { String(decoding: bytes, as: UTF8.self) }
  }

  static func pieces(_ body: [UInt8]) -> [Piece] {
    var out: [Piece] = []
    var i = 0
    let n = body.count
    func isName(_ b: UInt8) -> Bool {
      (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39)
        || b == 0x5F || b == 0x24 || b >= 0x80
    }
    while i < n {
      let b = body[i]
      if isName(b) {
        var k = i
        while k < n, isName(body[k]) { k += 1 }
        out.append(Piece(kind: .identifier, bytes: Array(body[i..<k])))
        i = k
      } else if b == 0x23 {
        if i + 1 < n, body[i + 1] == 0x23 {
          out.append(Piece(kind: .paste, bytes: [0x23, 0x23]))
          i += 2
        } else {
          out.append(Piece(kind: .hash, bytes: [0x23]))
          i += 1
          // `# param`: the name after the space.
          while i < n, body[i] == 0x20 || body[i] == 0x09 { i += 1 }
        }
      } else if b == 0x22 || b == 0x27 {
        var k = i + 1
        while k < n, body[k] != b {
          if body[k] == 0x5C { k += 1 }
          k += 1
        }
        k = min(k + 1, n)
        out.append(Piece(kind: .literal, bytes: Array(body[i..<k])))
        i = k
      } else if b == 0x20 || b == 0x09 || b == 0x0A {
        var k = i
        while k < n, body[k] == 0x20 || body[k] == 0x09 || body[k] == 0x0A { k += 1 }
        out.append(Piece(kind: .space, bytes: [0x20]))
        i = k
      } else {
        out.append(Piece(kind: .other, bytes: [b]))
        i += 1
      }
    }
    return out
  }

  /// Whether a `##` comes before piece `k` (white space between).
  static func pasteBefore(_ pieces: [Piece], _ k: Int) -> Bool {
    var j = k - 1
    while j >= 0, pieces[j].kind == .space { j -= 1 }
    return j >= 0 && pieces[j].kind == .paste
  }

  /// Whether a `##` comes after piece `k`.
  static func pasteAfter(_ pieces: [Piece], _ k: Int) -> Bool {
    var j = k + 1
    while j < pieces.count, pieces[j].kind == .space { j += 1 }
    return j < pieces.count && pieces[j].kind == .paste
  }
}

/// The function-like macros of a tree: for a file, its own definition of a name first, then
/// one of the files it includes (followed through their includes), then the tree's first.
struct MacroTable: Sendable {
  private var definitions: [String: [(file: Int, macro: FunctionMacro)]] = [:]
  private var includes: [[String]]
  private var filesByName: [String: [Int]] = [:]

  init(_ macros: [[String: FunctionMacro]], includes: [[String]], paths: [String]) {
    self.includes = []
    for (file, own) in macros.enumerated() where !own.isEmpty {
      for (name, macro) in own.sorted(by: { $0.key < $1.key }) {
        definitions[name, default: []].append((file, macro))
      }
    }
    // The files' names and includes only matter where a macro has two definitions.
    guard definitions.values.contains(where: { $0.count > 1 }) else { return }
    self.includes = includes
    for (file, path) in paths.enumerated() {
      filesByName[String(path.split(separator: "/").last ?? ""), default: []].append(file)
    }
  }

  var isEmpty: Bool { definitions.isEmpty }
  var names: [String] { definitions.keys.sorted() }

  func lookup(_ name: String, in file: Int) -> FunctionMacro? {
    guard let found = definitions[name], let first = found.first else { return nil }
    if found.count == 1 { return first.macro }
    if let own = found.first(where: { $0.file == file }) { return own.macro }
    // The included files, nearest first.
    var queue = file < includes.count ? includes[file] : []
    var seen: Set<Int> = [file]
    var k = 0
    while k < queue.count, k < 64 {
      let wanted = String(queue[k].split(separator: "/").last ?? "")
      k += 1
      for included in filesByName[wanted] ?? [] where seen.insert(included).inserted {
        if let hit = found.first(where: { $0.file == included }) { return hit.macro }
        if included < includes.count { queue += includes[included] }
      }
    }
    return first.macro
  }
}
