import PreferencesMigration
import PropertyList

/// Reads one Swift file's tokens into its facts: `let` constants and `enum … : String` cases,
/// the variables that hold user defaults, the calls of `UserDefaults`' getters and setters
/// with their keys, `@AppStorage`, `register(defaults:)`, `?? literal` fallbacks, and what
/// the code does with `object(forKey:)` (`as? Int`, `JSONDecoder`).
struct SwiftReader: SourceReader {
  let input: SourceInput
  var facts: FileFacts

  /// The types being declared (`struct Keys {`), innermost last, with where each ends, and
  /// whether an enum's raw values are strings.
  var types: [(name: String, end: Int, kind: String, stringRaw: Bool)] = []
  var scope: FunctionScope?
  var ifs: [(end: Int, condition: Range<Int>)] = []
  var useAt: [Int: Int] = [:]

  init(_ input: SourceInput) {
    self.input = input
    facts = FileFacts(path: input.path)
  }

  mutating func leaveBlocks(endedBy i: Int) {
    // The types that ended, then the function and the `if` blocks.
    while let last = types.last, i >= last.end { types.removeLast() }
    leaveFunctionAndIfs(endedBy: i)
  }

  mutating func step(at i: Int) -> Int {
    if t.isIdentifier(i), let next = identifier(at: i) { return next }
    return i + 1
  }

  mutating func endScope() {
    guard let s = scope else { return }
    if let selector = s.selector, !gatherOnly {
      for template in s.templates {
        facts.wrappers.append(
          SourceWrapper(
            selector: selector, className: types.last?.name, parameters: s.parameters,
            key: template.key, use: template, parameterTypes: s.parameterTypes))
      }
    }
    scope = nil
  }

  var typeName: String? { types.last?.name }
  var inDefaultsExtension: Bool {
    types.contains { $0.name == "UserDefaults" && $0.kind == "extension" }
  }

  var readEarly: Set<Int> = []

  // MARK: - The walk

  mutating func identifier(at i: Int) -> Int? {
    let word = t.text(i)
    switch word {
    case "class", "struct", "enum", "extension", "protocol", "actor":
      guard t.isIdentifier(i + 1) else { return nil }
      var k = i + 2
      var stringRaw = false
      while k < t.count, !t.isPunctuation(k, 0x7B), !t.isPunctuation(k, 0x3B), k < i + 40 {
        if t.isText(k, "String") { stringRaw = true }
        if t.isPunctuation(k, 0x3C) || t.isPunctuation(k, 0x28) {
          // generic parameters or a `class func` call: go on
        }
        k += 1
      }
      guard t.isPunctuation(k, 0x7B) else { return nil }
      // `extension UserDefaults.Key`: the last name.
      var name = t.text(i + 1)
      var n = i + 2
      while t.isPunctuation(n, 0x2E), t.isIdentifier(n + 1) {
        name = t.text(n + 1)
        n += 2
      }
      if word == "class", let close = Optional(k), t.isPunctuation(i + 2, 0x3A),
        t.isIdentifier(i + 3)
      {
        _ = close
        facts.superclasses[name] = t.text(i + 3)
      }
      types.append((name, t.match(k) + 1, word, word == "enum" && stringRaw))
      return k + 1
    case "func", "init", "subscript":
      return function(at: i)
    case "case":
      if let type = types.last, type.kind == "enum", type.stringRaw, scope == nil, !gatherOnly {
        enumCases(from: i + 1, in: type.name)
      }
      return nil
    case "let", "var":
      if !gatherOnly { return binding(at: i) }
      return nil
    case "if", "guard", "while":
      if scope != nil, !gatherOnly { condition(at: i) }
      return nil
    case "@AppStorage", "@SceneStorage":
      if !gatherOnly, word == "@AppStorage" { appStorage(at: i) }
      return nil
    default:
      break
    }
    if t.isPunctuation(i + 1, 0x28) {
      call(at: i)
    }
    return nil
  }

  /// `func name(_ key: String, default value: Bool) … {`: the function and its parameters.
  mutating func function(at i: Int) -> Int? {
    var k = i + 1
    var name = t.text(i)
    if t.isText(i, "func") {
      guard t.isIdentifier(k) || t.token(k).kind == .punctuation else { return nil }
      name = t.text(k)
      k += 1
    }
    if t.isPunctuation(k, 0x3C) { k = t.angleEnd(from: k) }
    guard t.isPunctuation(k, 0x28) else { return nil }
    let close = t.match(k)
    var labels: [String] = []
    var parameters: [String] = []
    var parameterTypes: [String?] = []
    for part in t.commaSeparated((k + 1)..<close) {
      guard let colon = part.first(where: { t.isPunctuation($0, 0x3A) }) else { continue }
      let names = (part.lowerBound..<colon).filter { t.isIdentifier($0) }.map { t.text($0) }
      guard let last = names.last else { continue }
      labels.append(names.count >= 2 ? names[names.count - 2] : last)
      parameters.append(last)
      var type: String?
      var n = colon + 1
      while n < part.upperBound,
        t.isText(n, "inout") || t.token(n).kind == .identifier && t.text(n).hasPrefix("@")
      {
        n += 1
      }
      if t.isIdentifier(n) || t.isPunctuation(n, 0x5B) {
        type = t.source(n..<typeEnd(from: n), limit: 200).replacing(" ", with: "")
      }
      parameterTypes.append(type)
    }
    // The body: the first `{` after the signature (`-> Bool`, `throws`, `where …`).
    var b = close + 1
    while b < t.count, !t.isPunctuation(b, 0x7B), !t.isPunctuation(b, 0x7D), b < close + 30 {
      if t.isText(b, "func") || t.isText(b, "var") || t.isText(b, "let") { return close + 1 }
      b += 1
    }
    guard t.isPunctuation(b, 0x7B) else { return close + 1 }
    endScope()
    let selector = name + "(" + labels.map { $0 + ":" }.joined() + ")"
    scope = FunctionScope(
      selector: selector, parameters: parameters, parameterTypes: parameterTypes,
      end: t.match(b) + 1)
    return close + 1
  }

  /// `case a, b = "bee"` of a `String` enum: each case's raw value.
  mutating func enumCases(from start: Int, in type: String) {
    var k = start
    while k < t.count, t.isIdentifier(k) {
      let name = t.text(k)
      var value = name
      if t.isPunctuation(k + 1, 0x3D), let s = t.stringValue(k + 2) {
        value = s
        k += 2
      }
      facts.constants[type + "." + name] = .literal(value)
      if facts.constants["." + name] == nil { facts.constants["." + name] = .literal(value) }
      k += 1
      guard t.isPunctuation(k, 0x2C) else { break }
      k += 1
    }
  }

  /// `let name = "key"`, `static let name = "key"`, `let defaults = UserDefaults.standard`,
  /// `var prop: Bool { … }`.
  mutating func binding(at i: Int) -> Int? {
    guard t.isIdentifier(i + 1) else { return nil }
    let name = t.text(i + 1)
    var k = i + 2
    var declared: String?
    if t.isPunctuation(k, 0x3A) {
      let typeStart = k + 1
      k = typeEnd(from: typeStart)
      declared = t.source(typeStart..<k, limit: 200).replacing(" ", with: "")
    }
    if t.isPunctuation(k, 0x7B), scope == nil || scope?.selector == nil {
      // A computed property: the uses inside stand for it.
      if scope == nil {
        scope = FunctionScope(
          selector: nil, parameters: [], end: t.match(k) + 1, property: name)
      }
      return k + 1
    }
    guard t.isPunctuation(k, 0x3D) else {
      if declared == "UserDefaults" || declared == "UserDefaults!" {
        bind(name, .standard)
      }
      return nil
    }
    let value = expressionRange(from: k + 1)
    let receiver = receiverOf(value)
    switch receiver {
    case .standard, .suite:
      bind(name, receiver)
      return nil
    case .name(let other) where scope?.locals[other]?.receiver != nil:
      bind(name, scope?.locals[other]?.receiver ?? .none)
      return nil
    default: break
    }
    if scope == nil || scope?.selector == nil && scope?.property == nil {
      let key = keyOf(value)
      if case .literal = key {
        if let type = typeName { facts.constants[type + "." + name] = key }
        if facts.constants[name] == nil { facts.constants[name] = key }
      }
      if case .dictionary = valueOf(value) {
        facts.valueConstants[(typeName.map { $0 + "." } ?? "") + name] = valueOf(value)
      }
      if case .value = valueOf(value) {
        facts.valueConstants[name] = valueOf(value)
        if let type = typeName { facts.valueConstants[type + "." + name] = valueOf(value) }
      }
      return nil
    }
    var local = LocalVariable()
    local.type = declared
    let key = keyOf(value)
    if case .literal = key { local.key = key }
    if case .concat = key { local.key = key }
    if case .dictionary(let entries) = valueOf(value) { local.entries = entries }
    if t.contains(value, "JSONEncoder") || t.contains(value, "JSONSerialization") {
      local.json = true
    }
    if let resource = resourceName(in: value) { local.resource = resource }
    // `let data = defaults.data(forKey: K)`: the variable holds that use's value.
    local.use = -(value.lowerBound + 1)
    scope?.locals[name] = local
    return nil
  }

  mutating func bind(_ name: String, _ receiver: ReceiverRef) {
    if let s = scope, s.selector != nil || s.property != nil {
      scope?.locals[name, default: LocalVariable()].receiver = receiver
    } else {
      facts.receivers[name] = receiver
      if let type = typeName { facts.receivers[type + "." + name] = receiver }
    }
  }

  /// The end of a type written from `start`: `[String: Int]`, `Swift.Int?`, `Set<String>`,
  /// `(Int, Int)`.
  func typeEnd(from start: Int) -> Int {
    var k = start
    if t.isPunctuation(k, 0x5B) || t.isPunctuation(k, 0x28) {
      k = t.match(k) + 1
    } else if t.isIdentifier(k) {
      k += 1
      while t.isPunctuation(k, 0x2E), t.isIdentifier(k + 1) { k += 2 }
      if t.isPunctuation(k, 0x3C) { k = t.angleEnd(from: k) }
    }
    while t.isPunctuation(k, 0x3F) || t.isPunctuation(k, 0x21),
      t.line(k) == t.line(max(start, k - 1))
    {
      k += 1
    }
    return min(k, t.count)
  }

  func resourceName(in range: Range<Int>) -> String? {
    for k in range where t.isText(k, "path") || t.isText(k, "url") {
      guard t.isPunctuation(k + 1, 0x28), t.isText(k + 2, "forResource"),
        let name = t.stringValue(k + 4)
      else { continue }
      if let ext = t.stringValue(k + 8), !name.hasSuffix("." + ext) { return name + "." + ext }
      return name.contains(".") ? name : name + ".plist"
    }
    return scope?.resource(in: range, t)
  }

}
