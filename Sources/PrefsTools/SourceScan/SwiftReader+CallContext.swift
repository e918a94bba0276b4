import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What the code around a call says of its value: the type it is declared, returned or
/// converted as, what it falls back to, the property it goes to, the condition around it.
extension SwiftReader {
  /// What a call's answer falls back to when nil: `call(…) ?? V`, `T(rawValue: call(…)) ?? V`.
  func fallbackAfter(_ c: Call) -> ValueExpr? {
    var k = c.close + 1
    // Out of the conversions around the call (`Mode(rawValue: …)`).
    while t.isPunctuation(k, 0x29) {
      let open = t.match(k)
      guard open > 0, t.isIdentifier(open - 1), t.isText(open + 1, "rawValue") else { break }
      k += 1
    }
    if t.isText(k, "as"), t.isPunctuation(k + 1, 0x3F) { k = typeEnd(from: k + 2) }
    // `self[.item] as String? ?? "system"`: a generic's answer made a type.
    if t.isText(k, "as"), t.isIdentifier(k + 1) || t.isPunctuation(k + 1, 0x5B) {
      k = typeEnd(from: k + 1)
    }
    guard t.isText(k, "??") else { return nil }
    return valueOf(coalescedRange(from: k + 1))
  }

  /// What `??` gives: an expression to its end, short of a comparison or a logical operator,
  /// which bind less tightly (`string(forKey: K) ?? "Visible" != "Visible"` falls back to
  /// `"Visible"`).
  func coalescedRange(from start: Int) -> Range<Int> {
    let r = expressionRange(from: start)
    var k = r.lowerBound
    while k < r.upperBound {
      if t.isPunctuation(k, 0x28) || t.isPunctuation(k, 0x5B) || t.isPunctuation(k, 0x7B) {
        k = t.match(k) + 1
        continue
      }
      if k > start, Self.looserThanCoalescing.contains(t.text(k)) { return start..<k }
      k += 1
    }
    return r
  }

  static let looserThanCoalescing: Set<String> = [
    "==", "!=", "===", "!==", "<=", ">=", "&&", "||", "~=",
  ]

  /// The type a function declares it returns, when the call (or the conversion around it) is
  /// what it returns.
  func returnedType(_ c: Call) -> String? {
    guard let type = scope?.returnType else { return nil }
    var start = c.receiver?.lowerBound ?? c.name
    // `return Mode(rawValue: call(…))`: back out of the conversion.
    if t.isText(start - 1, "rawValue") || t.isPunctuation(start - 1, 0x3A),
      t.isPunctuation(start - 2, 0x3A) || t.isPunctuation(start - 1, 0x3A)
    {
      var k = start - 1
      while k > 0, !t.isPunctuation(k, 0x28) { k -= 1 }
      start = k - 1
    }
    if t.isText(start - 1, "return") { return type }
    if t.isPunctuation(start - 1, 0x7B), let s = scope, t.match(start - 1) + 1 == s.end {
      return type
    }
    return nil
  }

  /// The type of the property a call initializes (`let x: Setting<Int> = Setting(…)`,
  /// `var x: Bool = …`), or nil.
  func declaredType(before c: Call) -> String? {
    let start = c.receiver?.lowerBound ?? c.name
    guard t.isPunctuation(start - 1, 0x3D) else { return nil }
    var k = start - 2
    // Back over the type to its `:`.
    var depth = 0
    while k > 0, k > start - 20 {
      if t.isPunctuation(k, 0x3E) || t.isPunctuation(k, 0x5D) { depth += 1 }
      if t.isPunctuation(k, 0x3C) || t.isPunctuation(k, 0x5B) { depth -= 1 }
      if depth == 0, t.isPunctuation(k, 0x3A) {
        return t.source((k + 1)..<(start - 1)).replacing(" ", with: "")
      }
      if depth == 0, t.isText(k, "let") || t.isText(k, "var") { return nil }
      // (Never past the statement: `x = get(forKey: .a) ?? "8"` before `y = get(…)`.)
      if t.isPunctuation(k, 0x29) || t.isPunctuation(k, 0x28) || t.isPunctuation(k, 0x7B)
        || t.isPunctuation(k, 0x7D) || t.isPunctuation(k, 0x3B) || t.isPunctuation(k, 0x3D)
        || t.isText(k, "??")
      {
        return nil
      }
      k -= 1
    }
    return nil
  }

  /// `mode.rawValue`, `self.mode.rawValue`: a property of the type the call is made in (not a
  /// variable of the function), its declared type (an enum stored by its raw value).
  func memberRawValue(_ range: Range<Int>) -> String? {
    guard range.count == 3 || range.count == 5 && t.isText(range.lowerBound, "self"),
      t.isText(range.upperBound - 1, "rawValue"), t.isPunctuation(range.upperBound - 2, 0x2E),
      t.isIdentifier(range.upperBound - 3), let type = typeName
    else { return nil }
    let name = t.text(range.upperBound - 3)
    if range.count == 3, scope?.locals[name] != nil || scope?.parameters.contains(name) == true {
      return nil
    }
    return facts.members[type]?.declared[name]
  }

  /// `newValue.rawValue`, `newValue?.rawValue` in a property's setter, `mode.rawValue` of a
  /// parameter or a property: the declared type whose raw value is given.
  func rawValueOwner(_ range: Range<Int>) -> String? {
    if let member = memberRawValue(range) { return member }
    guard range.count == 3 || range.count == 4 && t.isPunctuation(range.lowerBound + 1, 0x3F),
      t.isText(range.upperBound - 1, "rawValue"), t.isPunctuation(range.upperBound - 2, 0x2E),
      t.isIdentifier(range.lowerBound), let s = scope
    else { return nil }
    let name = t.text(range.lowerBound)
    if let index = s.parameters.firstIndex(of: name) {
      return index < s.parameterTypes.count ? s.parameterTypes[index] : nil
    }
    guard name == "newValue", let property = s.property, let type = typeName else { return nil }
    return facts.members[type]?.declared[property]
  }

  /// `ifPresent(key: K) { raw in … Mode(rawValue: raw) … }`: the trailing closure's parameter
  /// made an enum of the tree by its raw value: the value is stored as that enum.
  func closureRawType(after c: Call) -> String? {
    let open = c.close + 1
    guard t.isPunctuation(open, 0x7B) else { return nil }
    var k = open + 1
    if t.isPunctuation(k, 0x5B) { k = t.match(k) + 1 }
    if t.isPunctuation(k, 0x28) { k += 1 }
    guard t.isIdentifier(k), t.isText(k + 1, "in") || t.isPunctuation(k + 1, 0x29) else {
      return nil
    }
    let parameter = t.text(k)
    let end = min(t.match(open), k + 60)
    var n = k + 2
    while n + 4 < end {
      if t.isIdentifier(n), t.text(n).first?.isUppercase == true, t.isPunctuation(n + 1, 0x28),
        t.isText(n + 2, "rawValue"), t.isPunctuation(n + 3, 0x3A), t.text(n + 4) == parameter,
        t.isPunctuation(n + 5, 0x29)
      {
        return t.text(n)
      }
      n += 1
    }
    return nil
  }

  /// `guard let x = call(…) as? T else { …; return V }`: V is what the caller falls back to
  /// when the call answers nil.
  func guardFallback(_ c: Call) -> ValueExpr? {
    let start = c.receiver?.lowerBound ?? c.name
    guard t.isPunctuation(start - 1, 0x3D), t.isIdentifier(start - 2), t.isText(start - 3, "let"),
      t.isText(start - 4, "guard")
    else { return nil }
    // The `else` of this guard: after the conditions (other bindings may follow, `, let …`).
    var k = c.close + 1
    while k < t.count, k < c.close + 80, !t.isText(k, "else") {
      if t.isPunctuation(k, 0x28) || t.isPunctuation(k, 0x5B) { k = t.match(k) }
      if t.isPunctuation(k, 0x7B) || t.isPunctuation(k, 0x7D) { return nil }
      k += 1
    }
    guard t.isText(k, "else"), t.isPunctuation(k + 1, 0x7B) else { return nil }
    let end = t.match(k + 1)
    var n = k + 2
    while n < end {
      if t.isText(n, "return") {
        let value = expressionRange(from: n + 1)
        return value.isEmpty ? nil : valueOf(value)
      }
      if t.isPunctuation(n, 0x28) || t.isPunctuation(n, 0x5B) || t.isPunctuation(n, 0x7B) {
        n = t.match(n)
      }
      n += 1
    }
    return nil
  }

  /// `if let x = call(…) as? T { … } else { p = V }`, `if let x = call(…) { p = E(rawValue:
  /// x) ?? V }`: V is what the caller falls back to when the call answers nil.
  func ifLetFallback(_ c: Call) -> ValueExpr? {
    let start = c.receiver?.lowerBound ?? c.name
    guard start >= 4, t.isPunctuation(start - 1, 0x3D), t.isIdentifier(start - 2),
      t.isText(start - 3, "let") || t.isText(start - 3, "var"), t.isText(start - 4, "if")
    else { return nil }
    let bound = t.text(start - 2)
    // The body: the `{` after the conditions.
    var k = c.close + 1
    while k < t.count, k < c.close + 80, !t.isPunctuation(k, 0x7B) {
      if t.isPunctuation(k, 0x28) || t.isPunctuation(k, 0x5B) { k = t.match(k) }
      if t.isPunctuation(k, 0x7D) || t.isPunctuation(k, 0x3B) { return nil }
      k += 1
    }
    guard t.isPunctuation(k, 0x7B) else { return nil }
    let end = t.match(k)
    if t.isText(end + 1, "else") {
      // One assignment, the whole branch: `else { self.p = V }`.
      guard t.isPunctuation(end + 2, 0x7B) else { return nil }
      let close = t.match(end + 2)
      var n = end + 3
      if t.isText(n, "self"), t.isPunctuation(n + 1, 0x2E) { n += 2 }
      guard t.isIdentifier(n), t.isPunctuation(n + 1, 0x3D) else { return nil }
      let value = expressionRange(from: n + 2)
      guard value.upperBound == close, !value.isEmpty else { return nil }
      // (A constant: `else { words = get(key: .k) as? String ?? "" }` reads again.)
      switch valueOf(value) {
      case .value(let v): return .value(v)
      case .name(let n): return .name(n)
      default: return nil
      }
    }
    // `E(rawValue: x) ?? V` in the body: V, a case written `.c` E's.
    var n = k + 1
    while n + 5 < end {
      defer { n += 1 }
      guard t.isText(n, "rawValue"), t.isPunctuation(n + 1, 0x3A), t.text(n + 2) == bound,
        t.isPunctuation(n + 3, 0x29), t.isText(n + 4, "??")
      else { continue }
      let open = t.match(n + 3)
      guard open > 0, open == n - 1, t.isIdentifier(open - 1) else { continue }
      let value = valueOf(coalescedRange(from: n + 5))
      if case .name(let m) = value, m.hasPrefix(".") { return .name(t.text(open - 1) + m) }
      return value
    }
    return nil
  }

  /// `&p`, `&self.p`: a property of the type the call is made in, given to an `inout`
  /// parameter, with its declared type and initial value; `&value.p` of a variable of a type
  /// the file declares, with its declared type (the variable's value is not known).
  func inoutProperty(_ range: Range<Int>) -> (name: String, type: String?, initial: ValueExpr?)? {
    guard t.isPunctuation(range.lowerBound, 0x26), range.count == 2 || range.count == 4,
      t.isIdentifier(range.upperBound - 1)
    else { return nil }
    let name = t.text(range.upperBound - 1)
    var owner = typeName
    var own = true
    if range.count == 4 {
      guard t.isPunctuation(range.lowerBound + 2, 0x2E) else { return nil }
      let holder = t.text(range.lowerBound + 1)
      if holder != "self" {
        own = false
        if let declared = scope?.locals[holder]?.type { owner = declared }
      }
    }
    guard let owner, let members = facts.members[owner],
      members.declared[name] != nil || own && members.initial[name] != nil
    else { return nil }
    return (name, members.declared[name], own ? members.initial[name] : nil)
  }

  /// The condition of a use inside `#if … #endif`: a build's, not the run's.
  static let compilerCondition = "inside a compiler condition (#if)"

  func conditionText(at i: Int) -> String? {
    if t.token(i).conditional { return Self.compilerCondition }
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
  func assignedName(before c: Call) -> String? {
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

  /// `d.object(forKey: K) == nil ? true : d.bool(forKey: K)` (and its `!= nil`): at `q`, the
  /// `?` after the test, the side taken when the key is absent, where the other reads K.
  func ternaryAbsent(after q: Int, key: Range<Int>, nil whenNil: Bool) -> Range<Int>? {
    guard t.isPunctuation(q, 0x3F) else { return nil }
    let rest = expressionRange(from: q + 1)
    guard let colon = t.colonAtTop(rest) else { return nil }
    let first = (q + 1)..<colon
    let second = (colon + 1)..<rest.upperBound
    let (absent, present) = whenNil ? (first, second) : (second, first)
    let keyText = t.source(key)
    let readsKey = present.contains { k in
      t.isText(k, "forKey") && t.isPunctuation(k + 1, 0x3A)
        && t.source((k + 2)..<min(k + 2 + key.count, t.count)) == keyText
    }
    return readsKey && !absent.isEmpty ? absent : nil
  }

  /// `Property<Bool>("k", …)`, `Property.init("k", …)`, `Property<Bool>.init("k", …)` at the
  /// type's name: a call of its initializer, as `Property("k", …)` is (its `init` is then
  /// passed over).
  mutating func initializerCall(at i: Int) -> Call? {
    guard t.text(i).first?.isUppercase == true, !t.isPunctuation(i - 1, 0x2E) else { return nil }
    var k = i
    var generic: String?
    if t.isPunctuation(i + 1, 0x3C) {
      k = t.angleEnd(from: i + 1) - 1
      guard k > i + 1, t.isPunctuation(k, 0x3E) else { return nil }
      generic = t.source((i + 2)..<k).replacing(" ", with: "")
    }
    if t.isPunctuation(k + 1, 0x2E), t.isText(k + 2, "init") {
      readEarly.insert(k + 2)
      k += 2
    }
    guard k > i, var c = parseCall(at: k) else { return nil }
    c.name = i
    c.receiver = nil
    c.selector = t.text(i) + "(" + c.labels.map { $0 + ":" }.joined() + ")"
    c.generic = generic
    return c
  }

  /// `T(rawValue: … ?? "") ?? V` around a getter's fallback `range`: V.
  func rawValueFallback(after range: Range<Int>) -> ValueExpr? {
    let close = range.upperBound
    guard t.isPunctuation(close, 0x29), t.isText(close + 1, "??") else { return nil }
    let open = t.match(close)
    guard open > 0, open < close, t.isText(open + 1, "rawValue"), t.isPunctuation(open + 2, 0x3A),
      t.isIdentifier(open - 1)
    else { return nil }
    return valueOf(expressionRange(from: close + 2))
  }

  /// `UserDefaults.shared.isLogging`, `defaults?.isLogging` at the property's name: noted with
  /// the receiver it names (`self` within the extension says nothing).
  mutating func propertyAccess(at i: Int) {
    var end = i - 1
    if t.isPunctuation(end - 1, 0x3F) || t.isPunctuation(end - 1, 0x21) { end -= 1 }
    if t.isPunctuation(i - 2, 0x5C) {
      // `defaults.observe(\.prop, …)`, `defaults.publisher(for: \.prop)`: a key path of the
      // object the call is made on.
      var open = i - 3
      if t.isPunctuation(open, 0x3A), t.isText(open - 1, "for") { open -= 2 }
      guard t.isPunctuation(open, 0x28), t.isPunctuation(open - 2, 0x2E),
        t.isText(open - 1, "observe") || t.isText(open - 1, "publisher")
      else { return }
      end = open - 2
      if t.isPunctuation(end - 1, 0x3F) || t.isPunctuation(end - 1, 0x21) { end -= 1 }
    }
    let receiver = receiverOf(receiverStart(before: end)..<end)
    guard receiver != .extendedDefaults else { return }
    facts.propertyAccesses.append(
      PropertyAccess(
        name: t.text(i), receiver: receiver, owner: receiverOwner(of: receiver), line: t.line(i)))
  }

  /// A call's argument as a key; a stored property of the type without a value of its own
  /// (`Self.value(for: key)` in a property wrapper's getter) is known only at run time, never
  /// another type's constant of that name.
  func memberOrLocalKey(_ range: Range<Int>) -> KeyExpr {
    if range.count == 1, t.isIdentifier(range.lowerBound), let type = typeName {
      let name = t.text(range.lowerBound)
      if scope?.locals[name] == nil, scope?.parameters.contains(name) != true,
        facts.members[type]?.stored.contains(name) == true
      {
        return .runtime(name)
      }
    }
    return localKey(range)
  }
}
