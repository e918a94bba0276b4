import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads one Swift file's tokens into its facts: `let` constants and `enum … : String` cases,
/// the variables that hold user defaults, the calls of `UserDefaults`' getters and setters
/// with their keys, `@AppStorage`, `register(defaults:)`, `?? literal` fallbacks, and what
/// the code does with `object(forKey:)` (`as? Int`, `JSONDecoder`).
struct SwiftReader {
  let t: SourceTokens
  var facts: FileFacts
  let wrapperSelectors: Set<String>
  let gatherOnly: Bool

  /// The types being declared (`struct Keys {`), innermost last, with where each ends, and
  /// whether an enum's raw values are strings.
  private var types: [(name: String, end: Int, kind: String, stringRaw: Bool)] = []
  private var scope: FunctionScope?
  private var ifs: [(end: Int, condition: Range<Int>)] = []
  private var useAt: [Int: Int] = [:]

  init(tokens: SourceTokens, path: String, wrappers: Set<String> = [], gatherOnly: Bool = false) {
    t = tokens
    facts = FileFacts(path: path)
    wrapperSelectors = wrappers
    self.gatherOnly = gatherOnly
  }

  mutating func read() -> FileFacts {
    var i = 0
    while i < t.count {
      while let last = types.last, i >= last.end { types.removeLast() }
      if let s = scope, i >= s.end { endScope() }
      while let last = ifs.last, i >= last.end { ifs.removeLast() }
      if t.isIdentifier(i) {
        if let next = identifier(at: i) {
          i = next
          continue
        }
      }
      i += 1
    }
    endScope()
    return facts
  }

  private mutating func endScope() {
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

  private var typeName: String? { types.last?.name }
  private var inDefaultsExtension: Bool {
    types.contains { $0.name == "UserDefaults" && $0.kind == "extension" }
  }

  // MARK: - The walk

  private mutating func identifier(at i: Int) -> Int? {
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
  private mutating func function(at i: Int) -> Int? {
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
  private mutating func enumCases(from start: Int, in type: String) {
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
  private mutating func binding(at i: Int) -> Int? {
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

  private mutating func bind(_ name: String, _ receiver: ReceiverRef) {
    if let s = scope, s.selector != nil || s.property != nil {
      scope?.locals[name, default: LocalVariable()].receiver = receiver
    } else {
      facts.receivers[name] = receiver
      if let type = typeName { facts.receivers[type + "." + name] = receiver }
    }
  }

  /// The end of a type written from `start`: `[String: Int]`, `Swift.Int?`, `Set<String>`,
  /// `(Int, Int)`.
  private func typeEnd(from start: Int) -> Int {
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

  private func resourceName(in range: Range<Int>) -> String? {
    for k in range where t.isText(k, "path") || t.isText(k, "url") {
      guard t.isPunctuation(k + 1, 0x28), t.isText(k + 2, "forResource"),
        let name = t.stringValue(k + 4)
      else { continue }
      if let ext = t.stringValue(k + 8), !name.hasSuffix("." + ext) { return name + "." + ext }
      return name.contains(".") ? name : name + ".plist"
    }
    return scope?.resource(in: range, t)
  }

  // MARK: - Calls

  /// A call `receiver.name(label: arg, …)` at the name's token.
  struct Call {
    var name: Int
    var open: Int
    var close: Int
    var receiver: Range<Int>?
    var selector: String
    var labels: [String]
    var arguments: [Range<Int>]
  }

  func parseCall(at i: Int) -> Call? {
    guard t.isPunctuation(i + 1, 0x28) else { return nil }
    let open = i + 1
    let close = t.match(open)
    guard close <= t.count else { return nil }
    var labels: [String] = []
    var arguments: [Range<Int>] = []
    for part in t.commaSeparated((open + 1)..<min(close, t.count)) {
      if t.isIdentifier(part.lowerBound), t.isPunctuation(part.lowerBound + 1, 0x3A), part.count > 2
      {
        labels.append(t.text(part.lowerBound))
        arguments.append((part.lowerBound + 2)..<part.upperBound)
      } else {
        labels.append("_")
        arguments.append(part)
      }
    }
    var receiver: Range<Int>?
    if t.isPunctuation(i - 1, 0x2E) {
      let end = i - 1
      receiver = receiverStart(before: end)..<end
    }
    return Call(
      name: i, open: open, close: close, receiver: receiver,
      selector: t.text(i) + "(" + labels.map { $0 + ":" }.joined() + ")", labels: labels,
      arguments: arguments)
  }

  /// The first token of the postfix expression that ends before `end` (`UserDefaults.standard`,
  /// `self.defaults`, `UserDefaults(suiteName: "g")!`).
  private func receiverStart(before end: Int) -> Int {
    var k = end - 1
    while k >= 0 {
      if t.isPunctuation(k, 0x3F) || t.isPunctuation(k, 0x21) {
        k -= 1
        continue
      }
      if t.isPunctuation(k, 0x29) || t.isPunctuation(k, 0x5D) {
        let open = t.match(k)
        guard open >= 0, open < k else { return k + 1 }
        k = open - 1
        if t.isIdentifier(k) {
          if t.isPunctuation(k - 1, 0x2E) {
            k -= 2
            continue
          }
          return k
        }
        return open
      }
      if t.isIdentifier(k) {
        if t.isPunctuation(k - 1, 0x2E) {
          k -= 2
          continue
        }
        return k
      }
      return k + 1
    }
    return 0
  }

  func receiverOf(_ range: Range<Int>?) -> ReceiverRef {
    guard let range else {
      return inDefaultsExtension ? .standard : .none
    }
    var r = range
    while let last = r.last, r.count > 1, t.isPunctuation(last, 0x21) || t.isPunctuation(last, 0x3F)
    {
      r = r.lowerBound..<last
    }
    if r.isEmpty { return inDefaultsExtension ? .standard : .none }
    let first = r.lowerBound
    if t.isText(first, "UserDefaults") {
      if r.count == 3, t.isPunctuation(first + 1, 0x2E), t.isText(first + 2, "standard") {
        return .standard
      }
      if t.isPunctuation(first + 1, 0x28), t.match(first + 1) == r.upperBound - 1 {
        if r.count == 3 { return .standard }
        if t.isText(first + 2, "suiteName") {
          let arg = (first + 4)..<(r.upperBound - 1)
          if arg.count == 1, t.isText(arg.lowerBound, "nil") { return .standard }
          return .suite(keyOf(arg))
        }
      }
      return .none
    }
    if r.count == 1 {
      let name = t.text(first)
      if name == "self" { return inDefaultsExtension ? .standard : .type(typeName ?? "") }
      if let local = scope?.locals[name] {
        if let receiver = local.receiver { return receiver }
        return .none
      }
      if name.first?.isUppercase == true { return .type(name) }
      return .name(name)
    }
    if r.count == 3, t.isPunctuation(first + 1, 0x2E), t.isIdentifier(first + 2) {
      let head = t.text(first)
      let member = t.text(first + 2)
      if head == "self" { return .name(member) }
      return .name(head + "." + member)
    }
    return .none
  }

  private mutating func call(at i: Int) {
    guard !readEarly.contains(i), let c = parseCall(at: i) else { return }
    if wrapperSelectors.contains(c.selector) {
      let receiver = receiverOf(c.receiver)
      facts.wrapperCalls.append(
        WrapperCall(
          selector: c.selector, receiver: receiver, arguments: c.arguments.map { keyOf($0) },
          values: c.arguments.map { valueOf($0) }, name: assignedName(before: c),
          condition: conditionText(at: i), line: t.line(i)))
    }
    if gatherOnly { return }
    if let api = DefaultsAPI.swift[c.selector] {
      use(c, api)
      return
    }
    if c.selector == "register(defaults:)" {
      register(c)
    } else if c.selector.hasPrefix("decode(_:from:)"), c.arguments.count == 2 {
      refine(c.arguments[1], as: .json, reason: "decoded by JSONDecoder")
    } else if c.selector.hasPrefix("jsonObject(with:") {
      refine(c.arguments[0], as: .json, reason: "parsed by JSONSerialization")
    }
  }

  private func conditionText(at i: Int) -> String? {
    if t.token(i).conditional { return "inside a compiler condition (#if)" }
    for block in ifs {
      for k in block.condition
      where t.isIdentifier(k) && DefaultsAPI.conditionWords.contains(t.text(k)) {
        return "inside `if \(t.source(block.condition))`"
      }
    }
    return nil
  }

  /// The property a call's value goes to: `self.x = …`, `x = …`, a computed property's
  /// getter, `let x = …` at the top of a type.
  private func assignedName(before c: Call) -> String? {
    let start = c.receiver?.lowerBound ?? c.name
    if t.isPunctuation(start - 1, 0x3D), t.isIdentifier(start - 2) {
      let name = t.text(start - 2)
      if t.isText(start - 3, "let") || t.isText(start - 3, "var") {
        return scope?.selector == nil && scope?.property == nil ? name : scope?.property
      }
      return name
    }
    return scope?.property
  }

  private mutating func use(_ c: Call, _ api: DefaultsAPI.Method) {
    guard api.key < c.arguments.count else { return }
    let receiver = receiverOf(c.receiver)
    guard receiver != .none else { return }
    var use = SourceUse(
      key: keyOf(c.arguments[api.key]), receiver: receiver, access: api.access,
      method: c.selector, type: api.type, line: t.line(c.name))
    use.condition = conditionText(at: c.name)
    if let v = api.value, v < c.arguments.count {
      let valueRange = c.arguments[v]
      let value = valueOf(valueRange)
      use.type = value.type
      if use.type == nil, valueRange.count == 1, let s = scope,
        let index = s.parameters.firstIndex(of: t.text(valueRange.lowerBound)),
        index < s.parameterTypes.count, let type = s.parameterTypes[index]
      {
        use.type = DefaultsAPI.type(ofClass: type.hasSuffix("?") ? String(type.dropLast()) : type)
      }
      if use.type == nil, valueRange.count == 1,
        let local = scope?.locals[t.text(valueRange.lowerBound)]
      {
        if local.json {
          use.type = .json
          use.typeReason = "JSON data"
        } else if let type = local.type {
          use.type = DefaultsAPI.type(ofClass: type)
        }
      }
      if t.contains(valueRange, "JSONEncoder") {
        use.type = .json
        use.typeReason = "JSON data"
      }
      if case .value = value { use.value = value }
      if valueRange.count == 1, t.isIdentifier(valueRange.lowerBound) {
        let name = t.text(valueRange.lowerBound)
        use.name =
          name == "newValue" || scope?.parameters.contains(name) == true ? scope?.property : name
      } else {
        use.name = scope?.property
      }
    } else if api.access == .get {
      use.name = assignedName(before: c)
      var k = c.close + 1
      if api.refinable, t.isText(k, "as"),
        t.isPunctuation(k + 1, 0x3F) || t.isPunctuation(k + 1, 0x21)
      {
        let typeStart = k + 2
        let end = typeEnd(from: typeStart)
        let type = t.source(typeStart..<end).replacing(" ", with: "")
        if let planType = DefaultsAPI.type(ofClass: type) {
          use.type = planType
          use.typeReason = "as? \(type)"
        }
        k = end
      }
      if t.isText(k, "??") {
        let range = expressionRange(from: k + 1)
        use.value = valueOf(range)
        use.defaultSource = .fallback
        if use.type == nil, case .value = use.value { use.type = use.value?.type }
      }
      // `defaults.object(forKey: K) == nil` in a condition: a presence test.
      if DefaultsAPI.presenceGetters.contains(c.selector), t.isText(k, "==") || t.isText(k, "!="),
        t.isText(k + 1, "nil")
      {
        use.access = .presence
        use.type = nil
      }
    }
    record(use, at: c.name)
  }

  private mutating func record(_ use: SourceUse, at i: Int) {
    if scope?.isTemplate(use) == true {
      scope?.templates.append(use)
      return
    }
    var use2 = use
    use2.key = use.key.substituting { name in
      if let local = scope?.locals[name] { return local.key ?? .runtime(name) }
      return nil
    }
    if i >= 0 { useAt[i] = facts.uses.count }
    facts.uses.append(use2)
    if let s = scope, i >= 0 {
      let start = i
      for (name, local) in s.locals
      where local.use.map({ $0 < 0 && -($0 + 1) <= start && start <= -($0 + 1) + 6 }) == true {
        scope?.locals[name]?.use = facts.uses.count - 1
      }
    }
  }

  /// `JSONDecoder().decode(T.self, from: x)`: the use whose data `x` is becomes `json`.
  private mutating func refine(
    _ range: Range<Int>, as type: MigrationPlan.ValueType, reason: String
  ) {
    var target: Int?
    if range.count == 1, t.isIdentifier(range.lowerBound),
      let use = scope?.locals[t.text(range.lowerBound)]?.use, use >= 0
    {
      target = use
    } else if let k = range.first(where: { useAt[$0] != nil }) {
      target = useAt[k]
    } else {
      // The getter inside the argument is read after this call: read it now.
      for k in range where t.isIdentifier(k) && t.isPunctuation(k + 1, 0x28) {
        if let c = parseCall(at: k), let api = DefaultsAPI.swift[c.selector] {
          use(c, api)
          target = facts.uses.count - 1
          readEarly.insert(k)
          break
        }
      }
    }
    guard let target, target < facts.uses.count else { return }
    let current = facts.uses[target].type
    guard current == nil || current == .data || current == .string else { return }
    facts.uses[target].type = type
    facts.uses[target].typeReason = reason
  }

  private var readEarly: Set<Int> = []

  private mutating func register(_ c: Call) {
    guard let arg = c.arguments.first else { return }
    let receiver = receiverOf(c.receiver)
    guard receiver != .none else { return }
    var entries: [ValueEntry]?
    switch valueOf(arg) {
    case .dictionary(let e): entries = e
    case .name(let n):
      if let local = scope?.locals[n] { entries = local.entries }
      if entries == nil,
        case .dictionary(let e)? = facts.valueConstants[n]
          ?? facts.valueConstants[(typeName.map { $0 + "." } ?? "") + n]
      {
        entries = e
      }
    default: break
    }
    let base = SourceUse(
      key: .literal(""), receiver: receiver, access: .register, method: "register(defaults:)",
      condition: conditionText(at: c.name), line: t.line(c.name))
    if let entries {
      for use in base.registering(entries) { record(use, at: -1) }
      return
    }
    if let resource = resourceName(in: arg) {
      facts.registeredFiles.append((resource, base))
      return
    }
    if case .name(let n) = valueOf(arg) {
      // A dictionary named here but made elsewhere: looked up across the tree.
      var use = base
      use.key = .runtime("registered dictionary \(n)")
      use.value = .name(n)
      use.defaultSource = .registration
      facts.uses.append(use)
      return
    }
    facts.warnings.append(
      ScanWarning(
        path: facts.path, line: base.line,
        message:
          "register(defaults:) of a dictionary the scan cannot read (\(t.source(arg))): its defaults are not known"
      ))
  }

  /// `if defaults.object(forKey: K) == nil { defaults.set(V, forKey: K) }`, `guard … != nil
  /// else { return V }`: the absent branch's value is the default.
  private mutating func condition(at i: Int) {
    var k = i + 1
    var end = k
    while end < t.count, !t.isPunctuation(end, 0x7B) {
      if t.isPunctuation(end, 0x28) || t.isPunctuation(end, 0x5B) { end = t.match(end) }
      end += 1
    }
    guard end < t.count else { return }
    let body = end..<(t.match(end) + 1)
    var elseBody: Range<Int>?
    if t.isText(body.upperBound, "else"), t.isPunctuation(body.upperBound + 1, 0x7B) {
      elseBody = (body.upperBound + 1)..<(t.match(body.upperBound + 1) + 1)
    }
    ifs.append((end: (elseBody ?? body).upperBound, condition: (i + 1)..<end))
    // The presence test: NAME.object(forKey: K) == nil (or != nil).
    while k < end {
      if t.isIdentifier(k), t.isPunctuation(k + 1, 0x28), let c = parseCall(at: k),
        DefaultsAPI.presenceGetters.contains(c.selector), let keyRange = c.arguments.first
      {
        let after = c.close + 1
        guard t.isText(after, "==") || t.isText(after, "!="), t.isText(after + 1, "nil") else {
          return
        }
        var present = t.isText(after, "!=")
        if t.isText(i, "guard") { present.toggle() }
        let receiver = receiverOf(c.receiver)
        guard receiver != .none else { return }
        let absent = t.isText(i, "guard") ? body : present ? elseBody : body
        guard let absent else { return }
        let key = keyOf(keyRange)
        guard let (value, name) = absentValue(in: absent, key: key) else { return }
        var use = SourceUse(
          key: key, receiver: receiver, access: .presence, method: c.selector + " == nil",
          line: t.line(absent.lowerBound))
        use.value = value
        use.defaultSource = .fallback
        use.name = name ?? scope?.property
        use.condition = conditionText(at: k)
        record(use, at: -1)
        return
      }
      k += 1
    }
  }

  private func absentValue(in range: Range<Int>, key: KeyExpr) -> (ValueExpr, String?)? {
    var k = range.lowerBound + 1
    while k < range.upperBound {
      if t.isText(k, "return") {
        return (valueOf(expressionRange(from: k + 1)), scope?.property)
      }
      if t.isIdentifier(k), t.isPunctuation(k + 1, 0x28), let c = parseCall(at: k),
        let api = DefaultsAPI.swift[c.selector], api.access == .set, let v = api.value,
        c.arguments.count > api.key, keyOf(c.arguments[api.key]) == key
      {
        return (valueOf(c.arguments[v]), nil)
      }
      if t.isPunctuation(k, 0x3D), t.isIdentifier(k - 1) {
        return (valueOf(expressionRange(from: k + 1)), t.text(k - 1))
      }
      k += 1
    }
    return nil
  }

  /// `@AppStorage("k") var x = true`, `@AppStorage(Keys.k, store: …) var x: Int = 5`.
  private mutating func appStorage(at i: Int) {
    guard t.isPunctuation(i + 1, 0x28) else { return }
    let close = t.match(i + 1)
    let parts = t.commaSeparated((i + 2)..<close)
    guard let keyRange = parts.first else { return }
    var receiver = ReceiverRef.standard
    for part in parts.dropFirst() where t.isText(part.lowerBound, "store") {
      receiver = receiverOf((part.lowerBound + 2)..<part.upperBound)
      if receiver == .none { receiver = .name(t.source((part.lowerBound + 2)..<part.upperBound)) }
    }
    var k = close + 1
    while k < t.count, !t.isText(k, "var"), k < close + 6 { k += 1 }
    guard t.isText(k, "var"), t.isIdentifier(k + 1) else { return }
    let name = t.text(k + 1)
    k += 2
    var type: MigrationPlan.ValueType?
    var typeText = ""
    if t.isPunctuation(k, 0x3A) {
      let end = typeEnd(from: k + 1)
      typeText = t.source((k + 1)..<end).replacing(" ", with: "")
      type = DefaultsAPI.type(
        ofClass: typeText.hasSuffix("?") ? String(typeText.dropLast()) : typeText)
      k = end
    }
    var use = SourceUse(
      key: keyOf(keyRange), receiver: receiver, access: .get, method: "@AppStorage", type: type,
      line: t.line(i))
    use.name = name
    if type != nil { use.typeReason = "@AppStorage var \(name): \(typeText)" }
    if t.isPunctuation(k, 0x3D) {
      let value = valueOf(expressionRange(from: k + 1))
      use.value = value
      use.defaultSource = .fallback
      if use.type == nil {
        use.type = value.type
        // `= .light` of an enum: a string raw value, a `RawRepresentable` stored as it.
        if case .name(let n) = value, n.hasPrefix(".") { use.type = nil }
      }
    }
    use.condition = conditionText(at: i)
    record(use, at: i)
  }

  // MARK: - Expressions

  /// To the end of an expression: a line's end where the next token cannot continue it, `,`,
  /// `)`, `]`, `}`.
  private func expressionRange(from start: Int) -> Range<Int> {
    var k = start
    let line = t.line(start)
    while k < t.count {
      if t.isPunctuation(k, 0x2C) || t.isPunctuation(k, 0x29) || t.isPunctuation(k, 0x5D)
        || t.isPunctuation(k, 0x7D) || t.isPunctuation(k, 0x3B)
      {
        break
      }
      if k > start, t.line(k) != line, !t.isPunctuation(k, 0x2E), !t.isPunctuation(k - 1, 0x2E),
        !t.isText(k, "??"), !t.isText(k - 1, "??"), !t.isPunctuation(k, 0x2B),
        !t.isPunctuation(k - 1, 0x2B)
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
    if r.count == 1, let s = t.stringValue(first) {
      if t.token(first).interpolated {
        let pieces = s.split(separator: "\u{0}", omittingEmptySubsequences: false)
        var parts: [KeyExpr] = []
        for (n, piece) in pieces.enumerated() {
          if !piece.isEmpty { parts.append(.literal(String(piece))) }
          if n < pieces.count - 1 { parts.append(.runtime("\\(…)")) }
        }
        return .concat(parts)
      }
      return .literal(s)
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
    if leadingDot { return .name("." + names.joined(separator: ".")) }
    return .name(names.joined(separator: "."))
  }

  private func runtimeKey(_ r: Range<Int>) -> KeyExpr {
    // String(format: "Flag%@Image", x)
    if t.isText(r.lowerBound, "String"), t.isPunctuation(r.lowerBound + 1, 0x28),
      t.isText(r.lowerBound + 2, "format"), let format = t.stringValue(r.lowerBound + 4)
    {
      let close = t.match(r.lowerBound + 1)
      let args = t.commaSeparated((r.lowerBound + 2)..<close).dropFirst().map { t.source($0) }
      return FormatPieces.split(format, arguments: args)
    }
    return .runtime(t.source(r))
  }

  private func isTopLevel(_ k: Int, in r: Range<Int>) -> Bool {
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

  func valueOf(_ range: Range<Int>) -> ValueExpr {
    var r = range
    while r.count >= 2, t.isPunctuation(r.lowerBound, 0x28),
      t.match(r.lowerBound) == r.upperBound - 1
    {
      r = (r.lowerBound + 1)..<(r.upperBound - 1)
    }
    guard let first = r.first else { return .computed("", nil) }
    let text = t.source(r)
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
    if t.isText(first, "URL"), t.isPunctuation(first + 1, 0x28) { return .computed(text, .url) }
    return .computed(text, nil)
  }
}
