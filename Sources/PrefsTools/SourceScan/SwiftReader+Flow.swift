import PreferencesMigration
import PropertyList

/// Values the Swift reader follows through a function: what it returns, the keys a loop or a
/// closure takes from a collection, a getter's answer held in a local and given a fallback
/// later, dictionaries built in steps, property wrappers' attributes, the libraries' keys.
extension SwiftReader {
  /// A key written in `range` with this function's variables looked up.
  func localKey(_ range: Range<Int>) -> KeyExpr {
    let key = parameterMembers(keyOf(range))
    // (The variables copied out first: a closure over `self` would copy the reader.)
    guard let locals = scope?.locals, !locals.isEmpty, !key.names.isEmpty else { return key }
    return key.substituting { name in KeyExpr.local(name) { locals[$0].map { $0.key } } }
  }

  /// `key.name` of a parameter `key`: that member of the object each call gives (a call of
  /// the member's name, `.name`, that the model answers from the object's constant).
  func parameterMembers(_ key: KeyExpr) -> KeyExpr {
    guard let parameters = scope?.parameters, !parameters.isEmpty, !key.names.isEmpty else {
      return key
    }
    return key.substituting { name in
      guard let dot = name.firstIndex(of: "."), parameters.contains(String(name[..<dot])),
        !name[name.index(after: dot)...].contains(".")
      else { return nil }
      return .call(String(name[dot...]), [.name(String(name[..<dot]))], source: name)
    }
  }

  /// `return EXPR`: what the function (or computed property) returns.
  mutating func recordReturn(_ range: Range<Int>) {
    guard let s = scope, let name = s.selector ?? s.property, !range.isEmpty else { return }
    facts.returnsDefined.insert(name)
    guard input.returnsWanted.contains(name) else { return }
    var key = localKey(range)
    // `"\(accountID)-\(key.rawValue)"` in a method: an instance's own property without a
    // constant value is known only at run time (never another type's constant of that name).
    if let type = typeName, let members = facts.members[type], !key.names.isEmpty {
      let parameters = s.parameters
      key = key.substituting { n in
        guard !parameters.contains(n), s.locals[n] == nil,
          members.stored.contains(n) || members.declared[n] != nil,
          facts.constants[type + "." + n] == nil
        else { return nil }
        return .runtime(n)
      }
    }
    let value = valueOf(range)
    let file = loadedFile(range)
    guard file != nil || FunctionReturn.mayMatter(key, value) else { return }
    facts.returns[name, default: []].append(
      FunctionReturn(parameters: s.parameters, key: key, value: value, file: file))
  }

  /// `var keys: [String] { ["a", "b"] }`: a computed property of one expression is a constant
  /// (its keys), and what it returns.
  mutating func computedConstant(_ name: String, body open: Int) {
    let close = t.match(open)
    var start = open + 1
    if t.isText(start, "return") { start += 1 }
    guard start < close, !t.isText(start, "get"), !t.isText(start, "set") else { return }
    let range = expressionRange(from: start)
    guard range.upperBound == close else { return }
    // `static var defaultValue: Self { .light }` of an enum: that case (its raw value where the
    // code reads `AppTheme.defaultValue.rawValue`).
    if range.count == 2, t.isPunctuation(range.lowerBound, 0x2E),
      t.isIdentifier(range.lowerBound + 1),
      let type = types.last, type.kind == "enum"
    {
      let qualified = type.name + "." + t.text(range.lowerBound + 1)
      if facts.valueConstants[type.name + "." + name] == nil {
        facts.valueConstants[type.name + "." + name] = .name(qualified)
      }
      if facts.constants[type.name + "." + name] == nil {
        facts.constants[type.name + "." + name] = .name(qualified)
      }
    }
    let key = keyOf(range)
    if key.isRuntime || key.calls.count > 0, let type = typeName {
      facts.runtimeMembers.insert(type + "." + name)
    }
    recordConstant(name, key)
    facts.returnsDefined.insert(name)
    if input.returnsWanted.contains(name) {
      facts.returns[name, default: []].append(
        FunctionReturn(parameters: [], key: key, value: valueOf(range)))
    }
  }

  /// `var name: String { switch self { case .leftHalf: return "leftHalf" … } }` in an enum: a
  /// string a case gives, a constant named after the case (`WindowAction.leftHalf.name`,
  /// `leftHalf.name`, `.leftHalf.name`), for a key taken from each case of a list.
  /// `var id: String { "shared-\(rawValue)" }` of an enum of strings: the key each case
  /// makes (`Names.tutorialShown.id` is "shared-tutorial-v1"), for the cases declared before.
  mutating func rawValueMember(_ property: String, body open: Int, of type: String) {
    guard let declaration = facts.declarations[type], declaration.rawType == "String",
      !declaration.cases.isEmpty
    else { return }
    var start = open + 1
    if t.isText(start, "return") { start += 1 }
    let range = expressionRange(from: start)
    guard range.upperBound == t.match(open) else { return }
    let template = keyOf(range)
    let own: Set<String> = ["rawValue", "self.rawValue"]
    guard !template.names.isEmpty, template.names.allSatisfy(own.contains) else { return }
    for (c, raw) in declaration.cases {
      let key = template.substituting { own.contains($0) ? .literal(raw) : nil }
      for name in [type + "." + c + "." + property, "." + c + "." + property]
      where facts.constants[name] == nil {
        facts.constants[name] = key
      }
    }
  }

  mutating func caseStrings(_ property: String, body open: Int, of type: String) {
    let close = t.match(open)
    var k = open + 1
    if t.isText(k, "return") { k += 1 }
    guard t.isText(k, "switch"), t.isText(k + 1, "self"), t.isPunctuation(k + 2, 0x7B) else {
      return
    }
    let end = t.match(k + 2)
    guard end <= close else { return }
    var cases: [String] = []
    var i = k + 3
    while i < end {
      if t.isText(i, "case") {
        // `case .a, .b:`
        cases = []
        i += 1
        while i < end, !t.isPunctuation(i, 0x3A) {
          if t.isIdentifier(i), t.isPunctuation(i - 1, 0x2E) { cases.append(t.text(i)) }
          i += 1
        }
        // `return "x"` or `"x"`, alone in the case.
        var v = i + 1
        if t.isText(v, "return") { v += 1 }
        if let s = t.stringValue(v), !t.token(v).interpolated,
          t.isText(v + 1, "case") || t.isText(v + 1, "default") || v + 1 == end
        {
          for c in cases {
            for name in [
              type + "." + c + "." + property, c + "." + property, "." + c + "." + property,
            ]
            where facts.constants[name] == nil {
              facts.constants[name] = .literal(s)
            }
          }
        }
        continue
      }
      if t.isPunctuation(i, 0x7B) || t.isPunctuation(i, 0x28) || t.isPunctuation(i, 0x5B) {
        i = t.match(i)
      }
      i += 1
    }
  }

  /// `for key in EXPR {`, `for (i, key) in EXPR.enumerated() {`: the variable is any one of
  /// the collection's keys.
  mutating func forIn(at i: Int) {
    var k = i + 1
    var name: String?
    while k < t.count, k < i + 12, !t.isText(k, "in") {
      if t.isIdentifier(k), !t.isText(k, "case"), !t.isText(k, "let"), !t.isText(k, "var") {
        name = t.text(k)
      }
      k += 1
    }
    guard t.isText(k, "in"), let name else { return }
    var end = k + 1
    while end < t.count, !t.isPunctuation(end, 0x7B) {
      if t.isPunctuation(end, 0x28) || t.isPunctuation(end, 0x5B) { end = t.match(end) }
      end += 1
    }
    var range = (k + 1)..<end
    // `.enumerated()`, `.sorted()`, `.reversed()`: the same keys.
    while range.count >= 4, t.isPunctuation(range.upperBound - 1, 0x29),
      t.isPunctuation(range.upperBound - 2, 0x28), t.isPunctuation(range.upperBound - 4, 0x2E),
      ["enumerated", "sorted", "reversed", "shuffled"].contains(t.text(range.upperBound - 3))
    {
      range = range.lowerBound..<(range.upperBound - 4)
    }
    var local = scope?.locals[name] ?? LocalVariable()
    let key = localKey(range)
    local.key = key.isRuntime ? nil : key
    local.use = nil
    scope?.locals[name] = local
  }

  /// `EXPR.forEach { … $0 … }`, `EXPR.map { key in … }`: the closure's parameter is any one
  /// of the collection's keys.
  mutating func closure(at i: Int) {
    if t.isText(i, "sink") {
      publishedSink(at: i)
      return
    }
    guard
      ["forEach", "map", "compactMap", "flatMap", "filter", "contains", "first", "allSatisfy"]
        .contains(t.text(i)), scope != nil
    else { return }
    let receiver = receiverStart(before: i - 1)..<(i - 1)
    let key = localKey(receiver)
    guard !key.isRuntime else { return }
    var local = LocalVariable()
    local.key = key
    scope?.locals["$0"] = local
    // `{ key in`, `{ (key) in`
    var k = i + 2
    if t.isPunctuation(k, 0x28) { k += 1 }
    if t.isIdentifier(k), t.isText(k + 1, "in") || t.isPunctuation(k + 1, 0x29) {
      let name = t.text(k)
      scope?.locals[name] = local
    }
  }

  /// `$prop….sink { value in … }`: the closure's parameter is the published property's
  /// value, first its current one (Combine sends it when the sink subscribes).
  mutating func publishedSink(at i: Int) {
    guard scope != nil, let type = typeName else { return }
    var first = receiverStart(before: i - 1)
    if t.isText(first, "self"), t.isPunctuation(first + 1, 0x2E) { first += 2 }
    var property = t.text(first)
    if property.hasPrefix("$") {
      property.removeFirst()
    } else if t.isPunctuation(first, 0x24), t.isIdentifier(first + 1) {
      property = t.text(first + 1)
    } else {
      return
    }
    let members = facts.members[type]
    guard let members, members.declared[property] != nil || members.initial[property] != nil
    else { return }
    // `{ value in`, `{ [weak self] value in`, `{ (value) in`
    var k = i + 2
    if t.isPunctuation(k, 0x5B) { k = t.match(k) + 1 }
    if t.isPunctuation(k, 0x28) { k += 1 }
    guard t.isIdentifier(k), t.isText(k + 1, "in") || t.isPunctuation(k + 1, 0x29) else { return }
    var local = LocalVariable()
    local.type = members.declared[property]
    local.published = (property, members.declared[property], members.initial[property])
    scope?.locals[t.text(k)] = local
  }

  /// A value given to a setter that is a published property's (``publishedSink(at:)``), or its
  /// raw value: the type it is stored as, and what it holds when the key is absent.
  func publishedValue(_ range: Range<Int>) -> (
    property: String, stored: String, absent: ValueExpr?
  )? {
    guard range.count == 1 || range.count == 3 && t.isText(range.upperBound - 1, "rawValue"),
      t.isIdentifier(range.lowerBound),
      let published = scope?.locals[t.text(range.lowerBound)]?.published
    else { return nil }
    var type = published.type
    if type == nil {
      switch published.initial {
      case .value(.bool)?: type = "Bool"
      case .value(.integer)?: type = "Int"
      case .value(.real)?: type = "Double"
      case .value(.string)?: type = "String"
      case .name(let n)?:
        if let dot = n.lastIndex(of: "."), n.first?.isUppercase == true {
          type = String(n[..<dot])
        }
      default: break
      }
    }
    guard let type else { return nil }
    return (published.property, type, published.initial)
  }

  /// A local named at `i`: `NAME ?? V` gives the key whose answer it holds a fallback;
  /// `NAME = …` gives it another value; `NAME[K] = V` and `NAME.updateValue(V, forKey: K)` add
  /// an entry to a dictionary the function builds.
  mutating func localAfter(_ i: Int, _ local: LocalVariable) {
    guard !gatherOnly, !t.isPunctuation(i - 1, 0x2E), !t.isText(i - 1, "let"),
      !t.isText(i - 1, "var")
    else { return }
    let name = t.text(i)
    if t.isText(i + 1, "??"), var use = held(local) {
      use.access = .presence
      use.typeReason = nil
      use.method += " ?? …"
      let value = valueOf(expressionRange(from: i + 2))
      use.value = value
      use.defaultSource = .fallback
      if use.type == nil, case .value = value { use.type = value.type }
      use.line = t.line(i)
      use.condition = conditionText(at: i)
      record(use, at: -1)
      return
    }
    if let original = held(local), let test = absenceTest(at: i + 1, of: original),
      let question = ternaryQuestion(after: i + 1 + test.length, test: test, at: i)
    {
      // `v == 0 ? X : v`, `v != nil ? v : X`, `(v <= 0 || v > 1) ? X : CGFloat(v)`: X when the
      // key is absent.
      let rest = expressionRange(from: question + 1)
      guard let colon = t.colonAtTop(rest) else { return }
      let first = rest.lowerBound..<colon
      let second = (colon + 1)..<rest.upperBound
      let (present, absent) = test.whenAbsent ? (second, first) : (first, second)
      // The variable itself, or converted (`CGFloat(v)`).
      let itself =
        present.count == 1 && t.text(present.lowerBound) == name
        || present.count == 4 && t.isIdentifier(present.lowerBound)
          && t.isPunctuation(present.lowerBound + 1, 0x28) && t.text(present.lowerBound + 2) == name
          && t.isPunctuation(present.lowerBound + 3, 0x29)
      guard itself else { return }
      var use = original
      use.access = .presence
      use.typeReason = nil
      use.method += " test ? …"
      let value = valueOf(absent)
      use.value = value
      use.defaultSource = .fallback
      use.zeroTest = test.zero
      use.line = t.line(i)
      use.condition = conditionText(at: i)
      record(use, at: -1)
      return
    }
    if t.isText(i + 1, "as"), t.isPunctuation(i + 2, 0x3F) || t.isPunctuation(i + 2, 0x21),
      held(local) != nil
    {
      // `value as? Date` on a variable that holds `object(forKey:)`'s answer.
      let type = t.source((i + 3)..<typeEnd(from: i + 3)).replacing(" ", with: "")
      if let planType = DefaultsAPI.type(ofClass: type) {
        refineHeld(local, planType, reason: "as\(t.text(i + 2)) \(type)")
      }
      return
    }
    if t.isPunctuation(i + 1, 0x3D) {
      scope?.locals[name]?.use = nil
      scope?.locals[name]?.template = nil
      let key = localKey(expressionRange(from: i + 2))
      scope?.locals[name]?.key = key.isRuntime ? nil : key
      return
    }
    if t.isPunctuation(i + 1, 0x2E), local.entries != nil, let c = parseCall(at: i + 2),
      ["updateValue(_:forKey:)", "setValue(_:forKey:)", "setObject(_:forKey:)"].contains(c.selector)
    {
      // `NAME.updateValue(V, forKey: K)`: an entry too.
      let entry = ValueEntry(key: localKey(c.arguments[1]), value: valueOf(c.arguments[0]))
      scope?.locals[name]?.entries?.append(entry)
      return
    }
    if t.isPunctuation(i + 1, 0x5B), local.entries != nil {
      let close = t.match(i + 1)
      guard t.isPunctuation(close + 1, 0x3D) else { return }
      let entry = ValueEntry(
        key: localKey((i + 2)..<close), value: valueOf(expressionRange(from: close + 2)))
      scope?.locals[name]?.entries?.append(entry)
    }
  }

  /// The `?` of a ternary whose condition is the absence test that ends before `k`: right
  /// after it, or after the parentheses around it (`(v <= 0) ? …`), where a test true when the
  /// key is absent may be followed by others it is joined to by `||` (`(v <= 0 || v > 1) ? …`:
  /// true when absent, whatever the rest).
  func ternaryQuestion(after k: Int, test: (length: Int, whenAbsent: Bool, zero: Bool), at i: Int)
    -> Int?
  {
    if t.isPunctuation(k, 0x3F) { return k }
    guard t.isPunctuation(i - 1, 0x28) else { return nil }
    let close = t.match(i - 1)
    guard close > i, t.isPunctuation(close + 1, 0x3F) else { return nil }
    if k == close { return close + 1 }
    guard test.whenAbsent, t.isText(k, "||") else { return nil }
    // No `&&` at the top of the parentheses: then the `||` would not be the outermost.
    var n = k
    while n < close {
      if t.isText(n, "&&") { return nil }
      if t.isPunctuation(n, 0x28) || t.isPunctuation(n, 0x5B) { n = t.match(n) }
      n += 1
    }
    return close + 1
  }

  /// A property wrapper's attribute (`@Stored(key: "k", default: 1) var x: Int`): a call of
  /// the wrapper type's initializer, with the property's type and initial value.
  mutating func attribute(at i: Int) {
    let type = String(t.text(i).dropFirst())
    guard wrapperSelectors.contains(type + "("), let c = parseCall(at: i) else { return }
    var k = t.match(i + 1) + 1
    while k < t.count, k < c.close + 8, !t.isText(k, "var"), !t.isText(k, "let") { k += 1 }
    var declared: String?
    var name: String?
    var initial: Range<Int>?
    if t.isText(k, "var") || t.isText(k, "let"), t.isIdentifier(k + 1) {
      name = t.text(k + 1)
      var n = k + 2
      if t.isPunctuation(n, 0x3A) {
        let end = typeEnd(from: n + 1)
        declared = t.source((n + 1)..<end).replacing(" ", with: "")
        n = end
      }
      if t.isPunctuation(n, 0x3D) { initial = expressionRange(from: n + 1) }
    }
    var call = WrapperCall(
      selector: type + "(" + c.labels.map { $0 + ":" }.joined() + ")", receiver: .none,
      arguments: c.arguments.map { localKey($0) }, values: c.arguments.map { valueOf($0) },
      name: name, condition: conditionText(at: i), line: t.line(i))
    call.labels = c.labels
    call.receivers = c.arguments.map(argumentReceiver)
    if let initial {
      // The initial value is the initializer's `wrappedValue:`.
      call.labels.insert("wrappedValue", at: 0)
      call.arguments.insert(keyOf(initial), at: 0)
      call.values.insert(valueOf(initial), at: 0)
      call.receivers.insert(nil, at: 0)
    }
    call.declaredType = declared
    if let name { call.declaration = PropertyDeclaration(name: name, type: types.last?.name) }
    facts.wrapperCalls.append(call)
  }

  /// An argument that names user defaults (`store: .group`), or nil.
  func argumentReceiver(_ given: Range<Int>) -> ReceiverRef? {
    // (`UserDefaults(suiteName: G) ?? .standard`: the suite, the standard domain only where
    // it cannot be made.)
    let range = beforeCoalescing(given)
    switch receiverOf(range) {
    case .standard, .suite: return receiverOf(range)
    default:
      if t.isPunctuation(range.lowerBound, 0x2E), range.count == 2 {
        return .name("." + t.text(range.lowerBound + 1))
      }
      if range.count == 1, t.isIdentifier(range.lowerBound),
        let bound = scope?.locals[t.text(range.lowerBound)]?.receiver
      {
        return bound
      }
      // A name (`preferencesSuite`, `Self.group`): looked up across the tree.
      if range.allSatisfy({ t.isIdentifier($0) || t.isPunctuation($0, 0x2E) }),
        t.isIdentifier(range.lowerBound), scope?.locals[t.text(range.lowerBound)] == nil
      {
        let name = t.source(range).replacing(" ", with: "")
        return .name(name.hasPrefix("self.") ? String(name.dropFirst(5)) : name)
      }
      return nil
    }
  }

  /// The function a wrapper call is made in, when one of its arguments names a parameter.
  func enclosing(of arguments: [KeyExpr?]) -> EnclosingFunction? {
    guard let s = scope, let selector = s.selector, !s.parameters.isEmpty,
      arguments.contains(where: { $0?.names.contains(where: s.parameters.contains) == true })
    else { return nil }
    // An initializer is called by its type's name (`Item("k", false)`, `@Item("k", false)`).
    var called = selector
    if selector.hasPrefix("init("), let type = typeName { called = type + "(" }
    return EnclosingFunction(
      selector: called, className: typeName, parameters: s.parameters,
      parameterTypes: s.parameterTypes, labels: s.labels)
  }
}
