import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Expressions: where one ends, and the key or value it is.
extension SwiftReader {
  // MARK: - Expressions

  /// A ternary's `?` or `:` (an operator token or punctuation, as the lexer has it).
  static func continuesTernary(_ t: SourceTokens, _ k: Int) -> Bool {
    t.isPunctuation(k, 0x3F) || t.isPunctuation(k, 0x3A) || t.isText(k, "?") || t.isText(k, ":")
  }

  /// `range` up to its `??`: what an optional is before its fallback (`UserDefaults(suiteName:
  /// G) ?? .standard`: the suite).
  func beforeCoalescing(_ range: Range<Int>) -> Range<Int> {
    range.first(where: { t.isText($0, "??") }).map { range.lowerBound..<$0 } ?? range
  }

  /// `test ? a : b` at the top level of `range`: the two branches; nil for no ternary.
  func ternaryBranches(_ range: Range<Int>) -> (Range<Int>, Range<Int>)? {
    var k = range.lowerBound
    while k < range.upperBound {
      if t.isPunctuation(k, 0x28) || t.isPunctuation(k, 0x5B) || t.isPunctuation(k, 0x7B) {
        k = t.match(k) + 1
        continue
      }
      if t.isPunctuation(k, 0x3F) || t.isText(k, "?"), k > range.lowerBound,
        !t.isPunctuation(k + 1, 0x2E), !t.isText(k - 1, "as")
      {
        guard let colon = t.colonAtTop((k + 1)..<range.upperBound) else { return nil }
        return ((k + 1)..<colon, (colon + 1)..<range.upperBound)
      }
      k += 1
    }
    return nil
  }

  /// To the end of an expression: a line's end where the next token cannot continue it, `,`,
  /// `)`, `]`, `}`.
  func expressionRange(from start: Int) -> Range<Int> {
    var k = start
    var line = t.line(start)
    while k < t.count {
      if t.isPunctuation(k, 0x2C) || t.isPunctuation(k, 0x29) || t.isPunctuation(k, 0x5D)
        || t.isPunctuation(k, 0x7D) || t.isPunctuation(k, 0x3B)
      {
        break
      }
      // `guard let d = UserDefaults(suiteName: G) else { … }`: the value ends at `else`.
      if k > start, t.isText(k, "else") { break }
      // A line that starts with a ternary's `?` or `:` goes on with its branch, to its end
      // (`c\n ? UserDefaults(suiteName: G)!\n : .standard`).
      if k > start, t.line(k) != line, Self.continuesTernary(t, k) { line = t.line(k) }
      if k > start, t.line(k) != line, !t.isPunctuation(k, 0x2E), !t.isPunctuation(k - 1, 0x2E),
        !t.isText(k, "??"), !t.isText(k - 1, "??"), !t.isPunctuation(k, 0x2B),
        !t.isPunctuation(k - 1, 0x2B)
      {
        break
      }
      // A property's observers (`var x: Mode = .system { didSet { … } }`): not the value's.
      if t.isPunctuation(k, 0x7B), k > start,
        t.isText(k + 1, "didSet") || t.isText(k + 1, "willSet")
      {
        break
      }
      if t.isPunctuation(k, 0x7B), k > start, t.isPunctuation(k - 1, 0x29) || t.isIdentifier(k - 1)
      {
        // A trailing closure or a block: part of the expression only when it follows a call.
        if t.isIdentifier(k - 1) && !t.isPunctuation(k - 2, 0x2E) { break }
      }
      if t.isPunctuation(k, 0x28) || t.isPunctuation(k, 0x5B) || t.isPunctuation(k, 0x7B) {
        k = t.match(k)
      }
      k += 1
    }
    return start..<min(k, t.count)
  }

  func keyOf(_ range: Range<Int>) -> KeyExpr {
    var r = range
    while r.count >= 2, t.isPunctuation(r.lowerBound, 0x28),
      t.match(r.lowerBound) == r.upperBound - 1
    {
      r = (r.lowerBound + 1)..<(r.upperBound - 1)
    }
    guard let first = r.first else { return .runtime("") }
    // `c ? "a" : "b"`: either; a chain `a ? "A" : b ? "B" : "C"` walked in a loop, up to 16
    // arms (a ternary within an arm's test or first arm is not followed). An empty text is a
    // placeholder, never a key.
    if var (yes, no) = ternaryBranches(r) {
      var arms: [KeyExpr] = []
      while true {
        guard arms.count < 16, ternaryBranches(yes) == nil else { return .runtime(t.source(r)) }
        arms.append(keyOf(yes))
        guard let next = ternaryBranches(no) else { break }
        (yes, no) = next
      }
      arms.append(keyOf(no))
      arms = arms.filter { $0 != .literal("") }
      return arms.count == 1 ? arms[0] : .oneOf(arms)
    }
    // `keys.map(\.rawValue)`, `keys.map { $0.rawValue }`: the same keys.
    if let inner = Self.droppingRawValueMap(r, t) { return keyOf(inner) }
    // `a + b`: each side.
    let plus = (r.lowerBound..<r.upperBound).filter {
      t.isPunctuation($0, 0x2B) && isTopLevel($0, in: r)
    }
    if !plus.isEmpty {
      var parts: [KeyExpr] = []
      var start = r.lowerBound
      for p in plus {
        parts.append(keyOf(start..<p))
        start = p + 1
      }
      parts.append(keyOf(start..<r.upperBound))
      return .concat(parts)
    }
    // `#keyPath(UserDefaults.shown)`: the string `shown`, the path after the type.
    if t.isText(first, "#keyPath"), t.isPunctuation(first + 1, 0x28),
      t.match(first + 1) == r.upperBound - 1, r.count >= 4
    {
      let inner = (first + 2)..<(r.upperBound - 1)
      var names: [String] = []
      for k in inner {
        if (k - inner.lowerBound) % 2 == 0 {
          guard t.isIdentifier(k) else { return .runtime(t.source(r)) }
          names.append(t.text(k))
        } else if !t.isPunctuation(k, 0x2E) {
          return .runtime(t.source(r))
        }
      }
      if names.count > 1, names[0].first?.isUppercase == true { names.removeFirst() }
      return .literal(names.joined(separator: "."))
    }
    if r.count == 1, let s = t.stringValue(first) {
      if t.token(first).interpolated {
        let pieces = s.split(separator: "\u{0}", omittingEmptySubsequences: false)
        let sources = t.interpolations[t.token(first).value] ?? []
        var parts: [KeyExpr] = []
        for (n, piece) in pieces.enumerated() {
          if !piece.isEmpty { parts.append(.literal(String(piece))) }
          if n < pieces.count - 1 {
            // `\(name)`, `\(key.rawValue)`: a name the scan follows; else only the run knows.
            let source = n < sources.count ? sources[n] : "…"
            if let arms = Self.interpolatedChoice(source) {
              parts.append(.oneOf(arms.map(KeyExpr.literal)))
              continue
            }
            parts.append(
              Self.interpolatedName(source).map(KeyExpr.name) ?? .runtime("\\(\(source))"))
          }
        }
        return .concat(parts)
      }
      return .literal(s)
    }
    if r.count == 1, t.isText(first, "#function"), let name = functionName {
      return .literal(name)
    }
    if t.isPunctuation(first, 0x5B), t.match(first) == r.upperBound - 1 {
      // `["a", "b"]`: any one of its elements (a dictionary literal is no key).
      let parts = t.commaSeparated((first + 1)..<(r.upperBound - 1))
      if parts.allSatisfy({ t.colonAtTop($0) == nil }), !parts.isEmpty {
        return .oneOf(parts.map(keyOf))
      }
    }
    if t.isIdentifier(first), t.isPunctuation(first + 1, 0x5B),
      t.match(first + 1) == r.upperBound - 1
    {
      // `keys[i]`: an element of a collection.
      return .call("[]", [keyOf(first..<(first + 1))], source: t.source(r))
    }
    // NAME, Type.NAME, .case, Type.case.rawValue, NAME.rawValue
    var names: [String] = []
    var k = r.lowerBound
    var leadingDot = false
    if t.isPunctuation(k, 0x2E) {
      leadingDot = true
      k += 1
    }
    while k < r.upperBound {
      if t.isIdentifier(k) {
        names.append(t.text(k))
        k += 1
        if k < r.upperBound, t.isPunctuation(k, 0x2E) {
          k += 1
          continue
        }
        if k < r.upperBound { return runtimeKey(r) }
        break
      }
      return runtimeKey(r)
    }
    if names.last == "rawValue" { names.removeLast() }
    guard !names.isEmpty else { return runtimeKey(r) }
    if names.first == "self" { names.removeFirst() }
    guard !names.isEmpty else { return runtimeKey(r) }
    // (`.forceLock` in the enum that declares that case, `static let all: [Key] =
    // [.forceLock]`: its own case, before another enum's of that name.)
    if leadingDot, names.count == 1, let type = typeName, types.last?.kind == "enum",
      facts.constants[type + "." + names[0]] != nil
    {
      return .name(type + "." + names[0])
    }
    if leadingDot { return .name("." + names.joined(separator: ".")) }
    // A member of the type the code is in (`private let key = "k"` read as `key`): that
    // type's, before a constant of the same name another type declares.
    if names.count == 1, let type = typeName, facts.constants[type + "." + names[0]] != nil,
      scope?.locals[names[0]] == nil, scope?.parameters.contains(names[0]) != true
    {
      return .name(type + "." + names[0])
    }
    let written = names.joined(separator: ".")
    // A private constant this file declares under the name as written (`UserDefaults.defaultKey`
    // of a `private static let` in an extension): this file's, before another file's.
    if names.count > 1, facts.privateConstants.contains(written),
      case .literal(let s)? = facts.constants[written]
    {
      return .literal(s)
    }
    return .name(written)
  }

  /// `X.map(\.rawValue)` or `X.map { $0.rawValue }`: X; else nil.
  static func droppingRawValueMap(_ r: Range<Int>, _ t: SourceTokens) -> Range<Int>? {
    guard let last = r.last, t.isPunctuation(last, 0x29) || t.isPunctuation(last, 0x7D) else {
      return nil
    }
    let open = t.match(last)
    guard open > r.lowerBound + 1, t.isText(open - 1, "map"), t.isPunctuation(open - 2, 0x2E),
      t.isText(last - 1, "rawValue")
    else { return nil }
    return r.lowerBound..<(open - 2)
  }

  func runtimeKey(_ r: Range<Int>) -> KeyExpr {
    // String(format: "Flag%@Image", x)
    if t.isText(r.lowerBound, "String"), t.isPunctuation(r.lowerBound + 1, 0x28),
      t.isText(r.lowerBound + 2, "format"), let format = t.stringValue(r.lowerBound + 4)
    {
      let close = t.match(r.lowerBound + 1)
      let args = t.commaSeparated((r.lowerBound + 2)..<close).dropFirst().map { t.source($0) }
      return FormatPieces.split(format, arguments: args)
    }
    if let call = callOf(r) {
      // A bundle resource: its file name (`Defaults.plist`).
      if call.selector == "path(forResource:ofType:)"
        || call.selector == "url(forResource:withExtension:)",
        call.arguments.count == 2
      {
        return .concat([keyOf(call.arguments[0]), .literal("."), keyOf(call.arguments[1])])
      }
      return .call(call.selector, call.arguments.map(keyOf), source: t.source(r))
    }
    return .runtime(t.source(r))
  }

  /// `f(x)`, `Self.f(x)`, `Type.f(x)`, `self.f(x)`: a call of a function whose returns the
  /// model follows (the whole range is the call); nil otherwise.
  func callOf(_ r: Range<Int>) -> Call? {
    guard let last = r.last, t.isPunctuation(last, 0x29) else { return nil }
    let open = t.match(last)
    guard open > r.lowerBound, open < last, t.isIdentifier(open - 1) else { return nil }
    // Only names and dots before the call's name.
    var k = r.lowerBound
    while k < open - 1 {
      guard t.isIdentifier(k) || t.isPunctuation(k, 0x2E) else { return nil }
      k += 1
    }
    return parseCall(at: open - 1)
  }

  /// The name an interpolation stands for (`name`, `key.rawValue`, `self.prefix`), or nil.
  /// `\(dark ? ".dark" : ".light")`: the two literals a ternary interpolated chooses from
  /// (a test without quotes or `?` of its own); nil for anything else.
  static func interpolatedChoice(_ source: String) -> [String]? {
    guard let mark = source.firstIndex(of: "?"), !source[..<mark].contains("\""),
      !source[..<mark].isEmpty
    else { return nil }
    // Each arm one literal without escapes or interpolation: `"a" : "b"`.
    let arms = source[source.index(after: mark)...].split(
      separator: ":", omittingEmptySubsequences: false)
    guard arms.count == 2 else { return nil }
    var found: [String] = []
    for arm in arms {
      var text = Substring(arm)
      while text.first == " " { text.removeFirst() }
      while text.last == " " { text.removeLast() }
      guard text.count >= 2, text.first == "\"", text.last == "\"" else { return nil }
      let inside = text.dropFirst().dropLast()
      guard !inside.contains("\""), !inside.contains("\\") else { return nil }
      found.append(String(inside))
    }
    return found
  }

  static func interpolatedName(_ source: String) -> String? {
    var text = source.trimmingPrefix(" ").description
    while text.hasSuffix(" ") { text.removeLast() }
    if text.hasSuffix(".rawValue") { text.removeLast(9) }
    if text.hasPrefix("self.") { text.removeFirst(5) }
    guard !text.isEmpty,
      text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "$" })
    else { return nil }
    return text
  }

  func isTopLevel(_ k: Int, in r: Range<Int>) -> Bool {
    var i = r.lowerBound
    while i < k {
      if t.isPunctuation(i, 0x28) || t.isPunctuation(i, 0x5B) || t.isPunctuation(i, 0x7B) {
        let close = t.match(i)
        if close > k { return false }
        i = close
      }
      i += 1
    }
    return true
  }

  /// The number types whose initializer converts a value (`Double(x)`).
  static let conversions: [String: MigrationPlan.ValueType] = [
    "Double": .double, "Float": .double, "CGFloat": .double, "Int": .integer, "Int64": .integer,
    "Int32": .integer, "Int16": .integer, "Int8": .integer, "UInt": .integer, "UInt64": .integer,
    "UInt32": .integer, "UInt16": .integer, "UInt8": .integer, "Bool": .bool,
  ]

  /// What `valueOf` names a dictionary's entry by (`fallbacks[key]`: `[]fallbacks`).
  static let entryLookup = "[]"

  /// What `valueOf` names a member of an enum's case by (`key.defaultValue`, the key one of
  /// the enum's cases: `.defaultValue`, its argument the key).
  static let caseMember = "case."

  func valueOf(_ range: Range<Int>) -> ValueExpr {
    var r = range
    while r.count >= 2, t.isPunctuation(r.lowerBound, 0x28),
      t.match(r.lowerBound) == r.upperBound - 1
    {
      r = (r.lowerBound + 1)..<(r.upperBound - 1)
    }
    guard let first = r.first else { return .computed("", nil) }
    let text = t.source(r)
    // `try JSONEncoder().encode(v)`: v's JSON (a constant's, its value; a parameter's, what
    // the caller gives).
    // (`try`, `try?`, `try!` before: the encoder's name is among the first three tokens.)
    if r.count >= 8, let encode = r.first(where: { t.isText($0, "encode") }),
      (r.lowerBound..<min(r.lowerBound + 3, r.upperBound)).contains(where: {
        t.isText($0, "JSONEncoder")
      }),
      t.isPunctuation(encode - 1, 0x2E), t.isPunctuation(encode - 2, 0x29),
      t.isPunctuation(encode + 1, 0x28), t.match(encode + 1) == r.upperBound - 1
    {
      return .converted(valueOf((encode + 2)..<(r.upperBound - 1)), .json, source: text)
    }
    // `try? NSKeyedArchiver.archivedData(withRootObject: x, …)`: archived data.
    if archives(r) { return .computed(text, .data) }
    // `1086 as UInt16`: the literal, of that type (`as?`, `as!` and `as Any` give none).
    if r.count >= 3, t.isText(r.upperBound - 2, "as"), t.isIdentifier(r.upperBound - 1),
      let type = Self.conversions[t.text(r.upperBound - 1)]
    {
      let inner = valueOf(r.lowerBound..<(r.upperBound - 2))
      if case .value = inner { return .converted(inner, type, source: text) }
      return .computed(text, type)
    }
    // `key.defaultValue` of a variable holding one of an enum's cases (`for key in
    // Key.allValues`): that case's value of the member, each case's own.
    if r.count == 3, t.isIdentifier(first), t.isPunctuation(first + 1, 0x2E),
      t.isIdentifier(first + 2), !t.isText(first + 2, "rawValue"),
      let key = scope?.locals[t.text(first)]?.key
    {
      return .call(Self.caseMember + t.text(first + 2), [key], source: text)
    }
    if r.count == 1 {
      switch t.token(first).kind {
      case .string:
        if t.token(first).interpolated { return .computed(text, .string) }
        return .value(.string(t.stringValue(first) ?? ""))
      case .number:
        let s = t.text(first).replacing("_", with: "")
        if let v = Int64(s) { return .value(.integer(v)) }
        if s.hasPrefix("0x"), let v = Int64(s.dropFirst(2), radix: 16) {
          return .value(.integer(v))
        }
        if let v = Double(s) { return .value(.real(v)) }
        return .computed(text, nil)
      case .identifier:
        switch t.text(first) {
        case "true": return .value(.bool(true))
        case "false": return .value(.bool(false))
        case "nil": return .computed(text, nil)
        default:
          let name = t.text(first)
          if let local = scope?.locals[name], let entries = local.entries {
            return .dictionary(entries)
          }
          return .name(name)
        }
      default: return .computed(text, nil)
      }
    }
    if t.isPunctuation(first, 0x2D), r.count == 2, t.token(first + 1).kind == .number {
      if case .value(let v) = valueOf((first + 1)..<r.upperBound) {
        switch v {
        case .integer(let i): return .value(.integer(-i))
        case .real(let d): return .value(.real(-d))
        default: break
        }
      }
    }
    if r.count >= 3,
      let folded = t.foldedInteger(
        r, strip: t.unparenthesized,
        leaf: { k in
          t.token(k).kind == .number ? Int64(t.text(k).replacing("_", with: "")) : nil
        })
    {
      return .value(.integer(folded))
    }
    // `fallbacks[key]`: an entry of a dictionary the tree declares, by a key a wrapper's caller
    // may give (looked up by the model: `.call` of `[]fallbacks`).
    if r.count >= 4, t.isIdentifier(first), t.isPunctuation(first + 1, 0x5B),
      t.match(first + 1) == r.upperBound - 1, scope?.locals[t.text(first)] == nil
    {
      return .call(
        Self.entryLookup + t.text(first), [keyOf((first + 2)..<(r.upperBound - 1))], source: text)
    }
    // `Set()`, `Set<UUID>()`, `[String]()`, `Array<Int>()`: an empty array.
    if r.count >= 3, t.isPunctuation(r.upperBound - 1, 0x29),
      t.isPunctuation(r.upperBound - 2, 0x28),
      t.isText(first, "Set") || t.isText(first, "Array")
        || (t.isPunctuation(first, 0x5B) && t.match(first) == r.upperBound - 3
          && t.colonAtTop((first + 1)..<(r.upperBound - 3)) == nil)
    {
      return .value(.array([]))
    }
    // `[String: Any]()`, `Dictionary<String, Any>()`: an empty dictionary.
    if r.count >= 3, t.isPunctuation(r.upperBound - 1, 0x29),
      t.isPunctuation(r.upperBound - 2, 0x28)
    {
      let type = t.source(r.lowerBound..<(r.upperBound - 2)).replacing(" ", with: "")
      if type.hasPrefix("Dictionary<")
        || (type.hasPrefix("[") && t.colonAtTop((first + 1)..<(r.upperBound - 3)) != nil)
      {
        return .dictionary([])
      }
    }
    // `Double(Speed.normal.rawValue)`, `Int(x)`: the value, converted.
    if r.count >= 4, t.isIdentifier(first), t.isPunctuation(first + 1, 0x28),
      t.match(first + 1) == r.upperBound - 1, !t.isPunctuation(first + 3, 0x3A),
      let type = Self.conversions[t.text(first)]
    {
      let inner = valueOf((first + 2)..<(r.upperBound - 1))
      if case .value = inner { return .converted(inner, type, source: text) }
      if case .name = inner { return .converted(inner, type, source: text) }
    }
    // `[String]()`, `[String: Int]()`: an empty collection.
    if r.count >= 5, t.isPunctuation(first, 0x5B), t.match(first) == r.upperBound - 3,
      t.isPunctuation(r.upperBound - 2, 0x28), t.isPunctuation(r.upperBound - 1, 0x29)
    {
      return t.colonAtTop((first + 1)..<(r.upperBound - 3)) == nil
        ? .value(.array([])) : .value(.dictionary([:]))
    }
    // `String()`, `Int()`, `Bool()`: the empty value each makes.
    if r.count == 3, t.isPunctuation(first + 1, 0x28), t.isPunctuation(first + 2, 0x29) {
      switch t.text(first) {
      case "String": return .value(.string(""))
      case "Int": return .value(.integer(0))
      case "Double", "CGFloat", "Float": return .value(.real(0))
      case "Bool": return .value(.bool(false))
      case "Data": return .value(.data(Data()))
      default: break
      }
    }
    // `Date.distantPast`, `.distantFuture`: the dates Foundation names.
    if r.count <= 3,
      t.isText(r.upperBound - 1, "distantPast") || t.isText(r.upperBound - 1, "distantFuture"),
      r.count == 1 || t.isPunctuation(r.upperBound - 2, 0x2E),
      r.count < 3 || t.isText(first, "Date")
    {
      return .value(
        .date(t.isText(r.upperBound - 1, "distantPast") ? .distantPast : .distantFuture))
    }
    // `Options().step`: a fresh instance's property, what its declaration gives it (looked up
    // by the model among the type's members, so a computed property or an unknown type is
    // none).
    if r.count == 5, t.isIdentifier(first), t.text(first).first?.isUppercase == true,
      t.isPunctuation(first + 1, 0x28), t.isPunctuation(first + 2, 0x29),
      t.isPunctuation(first + 3, 0x2E), t.isIdentifier(first + 4)
    {
      return .name(t.text(first) + "()." + t.text(first + 4))
    }
    // `NSNumber(value: 30)`: the number it boxes.
    if t.isText(first, "NSNumber"), t.isPunctuation(first + 1, 0x28),
      t.match(first + 1) == r.upperBound - 1, r.count > 5, t.isPunctuation(first + 3, 0x3A),
      ["value", "booleanLiteral", "integerLiteral", "floatLiteral"].contains(t.text(first + 2))
    {
      return valueOf((first + 4)..<(r.upperBound - 1))
    }
    if t.isPunctuation(first, 0x5B), t.match(first) == r.upperBound - 1 {
      let inner = (first + 1)..<(r.upperBound - 1)
      if inner.count == 1, t.isPunctuation(inner.lowerBound, 0x3A) { return .dictionary([]) }
      let parts = t.commaSeparated(inner)
      if let part = parts.first, let colon = t.colonAtTop(part) {
        _ = colon
        var entries: [ValueEntry] = []
        for part in parts {
          guard let colon = t.colonAtTop(part) else { continue }
          entries.append(
            ValueEntry(
              key: keyOf(part.lowerBound..<colon), value: valueOf((colon + 1)..<part.upperBound)))
        }
        return .dictionary(entries)
      }
      return .array(parts.map(valueOf))
    }
    // .case, Type.case, Type.case.rawValue: an enum's raw value, a constant.
    if r.allSatisfy({ t.isIdentifier($0) || t.isPunctuation($0, 0x2E) }) {
      let key = keyOf(r)
      if case .name(let n) = key { return .name(n) }
    }
    if t.isText(first, "Date"), t.isPunctuation(first + 1, 0x28) { return .computed(text, .date) }
    // `Data()`, `NSData()`: empty data, a constant.
    if r.count == 3, t.isText(first, "Data") || t.isText(first, "NSData"),
      t.isPunctuation(first + 1, 0x28), t.isPunctuation(first + 2, 0x29)
    {
      return .value(.data(Data()))
    }
    if t.isText(first, "URL"), t.isPunctuation(first + 1, 0x28) {
      // `URL(string: "https://…")!`: that text, as a URL.
      var close = r.upperBound - 1
      if t.isPunctuation(close, 0x21), close > first + 1 { close -= 1 }
      if t.match(first + 1) == close, t.isText(first + 2, "string"),
        t.isPunctuation(first + 3, 0x3A),
        close == first + 5, t.token(first + 4).kind == .string, !t.token(first + 4).interpolated
      {
        return .converted(valueOf((first + 4)..<(first + 5)), .url, source: text)
      }
      return .computed(text, .url)
    }
    if let call = callOf(r),
      call.name > r.lowerBound || t.text(call.name).first?.isLowercase == true
    {
      // `makeDefaults()`, `Self.makeDefaults()`: what the function returns (for these
      // arguments, when it returns by a `switch` on its parameter).
      return .call(call.selector, call.arguments.map { localKey($0) }, source: text)
    }
    return .computed(text, nil)
  }

  /// `NSKeyedArchiver.archivedData(withRootObject: x)` (after `try`, `try?`, `try!`; its
  /// answer forced or not): the whole expression archives a value.
  func archives(_ r: Range<Int>) -> Bool {
    var k = r.lowerBound
    if t.isText(k, "try") {
      k += 1
      if t.isPunctuation(k, 0x3F) || t.isPunctuation(k, 0x21) { k += 1 }
    }
    guard t.isText(k, "NSKeyedArchiver"), t.isPunctuation(k + 1, 0x2E),
      t.isText(k + 2, "archivedData"), t.isPunctuation(k + 3, 0x28)
    else { return false }
    let close = t.match(k + 3)
    return close + 1 == r.upperBound
      || close + 2 == r.upperBound
        && (t.isPunctuation(close + 1, 0x21) || t.isPunctuation(close + 1, 0x3F))
  }
}
