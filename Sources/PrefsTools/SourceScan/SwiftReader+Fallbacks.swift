import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Fallback branches: a presence test or an optional binding in an `if` or a `guard`, and the
/// value its absent branch gives the key.
extension SwiftReader {
  /// The most tokens a condition is read over.
  static let conditionLimit = 500

  /// `if defaults.object(forKey: K) == nil { defaults.set(V, forKey: K) }`, `guard … != nil
  /// else { return V }`: the absent branch's value is the default.
  mutating func condition(at i: Int) {
    var k = i + 1
    var end = k
    // (A condition ends at its body's `{`: a `}` first, or a statement's worth of tokens, is
    // a cut or broken file, whose every `if` would otherwise run to its end.)
    while end < t.count, !t.isPunctuation(end, 0x7B) {
      if t.isPunctuation(end, 0x7D) || t.isPunctuation(end, 0x3B) || end - i > Self.conditionLimit {
        return
      }
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
    if optionalBinding(at: i, end: end, body: body, elseBody: elseBody) { return }
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
        let key = keyOf(keyRange)
        if t.isText(i, "guard"), present {
          // `guard d.object(forKey: K) == nil else { return }; d.set(V, forKey: K)`: what the
          // code after the guard writes when the key is absent.
          if let (at, value) = setterAfter(body.upperBound, key: key) {
            recordFallback(
              value, name: scope?.property, key: key, receiver: receiver, getter: c.selector,
              absent: at..<(at + 1), condition: conditionText(at: k))
          }
          return
        }
        let absent = t.isText(i, "guard") ? body : present ? elseBody : body
        guard let absent else { return }
        guard let (value, name) = absentValue(in: absent, key: key) else { return }
        recordFallback(
          value, name: name ?? scope?.property, key: key, receiver: receiver, getter: c.selector,
          absent: absent, condition: conditionText(at: k))
        return
      }
      k += 1
    }
    predicateTest(at: i, end: end, body: body, elseBody: elseBody)
  }

  /// `if d.valueExists(forKey: K) { … } else { return V }`: a method the tree may define as a
  /// presence test (`object(forKey: key) != nil` in an extension of UserDefaults), called as
  /// the whole condition. The absent branch's value is recorded as a fallback the model keeps
  /// only if the method is such a test, true when the key is there.
  mutating func predicateTest(at i: Int, end: Int, body: Range<Int>, elseBody: Range<Int>?) {
    var start = i + 1
    let negated = t.isPunctuation(start, 0x21)
    if negated { start += 1 }
    let guardStatement = t.isText(i, "guard")
    let last = guardStatement && t.isText(end - 1, "else") ? end - 2 : end - 1
    guard t.isPunctuation(last, 0x29) else { return }
    let open = t.match(last)
    guard open > start, let c = parseCall(at: open - 1), c.close == last,
      (c.receiver?.lowerBound ?? c.name) == start, DefaultsAPI.swift[c.selector] == nil,
      c.arguments.count == 1, let keyRange = c.arguments.first
    else { return }
    let receiver = receiverOf(c.receiver)
    guard receiver != .none else { return }
    if guardStatement, negated { return }
    guard let absent = guardStatement || negated ? body : elseBody else { return }
    let key = localKey(keyRange)
    guard let (value, name) = absentValue(in: absent, key: key) else { return }
    recordFallback(
      value, name: name ?? scope?.property, key: key, receiver: receiver, getter: c.selector,
      absent: absent, condition: conditionText(at: c.name), testedBy: c.selector)
  }

  /// `guard let x = d.string(forKey: K) else { return V }`, `if let x = … { } else { x = V }`,
  /// and `if x == nil { x = V }` on a local holding a getter's answer: V is the key's
  /// fallback. True when the condition was one of these.
  mutating func optionalBinding(at i: Int, end: Int, body: Range<Int>, elseBody: Range<Int>?)
    -> Bool
  {
    let guardStatement = t.isText(i, "guard")
    if t.isText(i + 1, "let") || t.isText(i + 1, "var"), t.isIdentifier(i + 2),
      t.isPunctuation(i + 3, 0x3D)
    {
      let value = expressionRange(from: i + 4)
      // The getter in the value (`d.string(forKey: K)`, `… as? Int`).
      guard
        let getter = (value.lowerBound..<min(value.upperBound, end)).first(where: {
          t.isIdentifier($0) && t.isPunctuation($0 + 1, 0x28)
            && parseCall(at: $0).map { DefaultsAPI.swift[$0.selector]?.access == .get } == true
        }), let c = parseCall(at: getter), let keyRange = c.arguments.first
      else { return false }
      var absent = guardStatement ? body : elseBody
      if absent == nil, !guardStatement, endsWithReturn(body), t.isText(body.upperBound, "return") {
        // `if let x = d.object(forKey: K) as? Bool { return x }` then `return V`: what the
        // function returns when the key is absent.
        absent = (body.upperBound - 1)..<expressionRange(from: body.upperBound + 1).upperBound
      }
      guard let absent else { return true }
      let receiver = receiverOf(c.receiver)
      guard receiver != .none else { return true }
      let key = localKey(keyRange)
      guard let (v, name) = absentValue(in: absent, key: key) else { return true }
      recordFallback(
        v, name: name ?? scope?.property, key: key, receiver: receiver, getter: c.selector,
        absent: absent, condition: conditionText(at: getter))
      return true
    }
    // `if exists {`, `guard exists else {`: a presence test held in a variable.
    var negated = false
    var n = i + 1
    if t.isPunctuation(n, 0x21) {
      negated = true
      n += 1
    }
    if t.isIdentifier(n), n + 1 == end, let test = scope?.locals[t.text(n)]?.presence {
      let trueWhenPresent = test.whenPresent != negated
      let absentFirst = trueWhenPresent == guardStatement
      let original = test.use
      guard let absent = absentFirst ? body : elseBody,
        let (v, name) = absentValue(in: absent, key: original.key)
      else { return true }
      recordFallback(
        v, name: name ?? scope?.property ?? original.name, key: original.key,
        receiver: original.receiver, getter: original.method, absent: absent,
        condition: conditionText(at: i))
      return true
    }
    // `x == nil` on a local that holds a getter's answer; among tests joined by `&&`
    // (`if override != 0 && value == 0`), in an `if`.
    var found = false
    for part in t.conjuncts((i + 1)..<end, commaJoins: true)
    where part.count == 3 || part.count == 2 {
      guard t.isIdentifier(part.lowerBound), part.count == 3 || guardStatement == false,
        let local = scope?.locals[t.text(part.lowerBound)], let original = held(local),
        let test = absenceTest(at: part.lowerBound + 1, of: original)
      else { continue }
      if guardStatement, part.upperBound != end { continue }
      found = true
      let absentFirst = test.whenAbsent != guardStatement
      guard let absent = absentFirst ? body : elseBody else { continue }
      // A toggle (`if x == 0 { x = 1 } else { x = 0 }`) gives both branches a value.
      let name = t.text(part.lowerBound)
      if let other = absentFirst ? elseBody : body,
        other.contains(where: {
          t.isIdentifier($0) && t.isPunctuation($0 + 1, 0x3D) && t.text($0) == name
        })
      {
        continue
      }
      guard let (v, assigned) = absentValue(in: absent, key: original.key) else { continue }
      recordFallback(
        v, name: assigned ?? original.name, key: original.key, receiver: original.receiver,
        getter: original.method, absent: absent, condition: conditionText(at: i),
        zeroTest: test.zero)
    }
    return found
  }

  /// Whether a block's last statement, at its top level, is a `return`.
  func endsWithReturn(_ block: Range<Int>) -> Bool {
    var k = block.lowerBound + 1
    var last: Int?
    while k < block.upperBound - 1 {
      if t.isText(k, "return") { last = k }
      if t.isPunctuation(k, 0x28) || t.isPunctuation(k, 0x5B) || t.isPunctuation(k, 0x7B) {
        k = t.match(k)
      }
      k += 1
    }
    guard let last else { return false }
    return expressionRange(from: last + 1).upperBound == block.upperBound - 1
  }

  /// The tokens of the value a setter call at `k` (`d.set(V, forKey: K)`) writes to `key`; nil
  /// when `k` is no such call.
  func valueWritten(at k: Int, to key: KeyExpr) -> Range<Int>? {
    guard t.isIdentifier(k), t.isPunctuation(k + 1, 0x28), let c = parseCall(at: k),
      let api = DefaultsAPI.swift[c.selector], api.access == .set, let v = api.value,
      c.arguments.count > max(api.key, v), keyOf(c.arguments[api.key]) == key
    else { return nil }
    return c.arguments[v]
  }

  /// The first setter of `key` from `start` to the end of the function, at its top level (a
  /// statement of its own): where it is, and the value it writes.
  func setterAfter(_ start: Int, key: KeyExpr) -> (Int, ValueExpr)? {
    guard let end = scope?.end else { return nil }
    var k = start
    while k < min(end, t.count) {
      if t.isPunctuation(k, 0x7B) || t.isPunctuation(k, 0x7D) { return nil }
      if let written = valueWritten(at: k, to: key) { return (k, valueOf(written)) }
      if t.isPunctuation(k, 0x28) || t.isPunctuation(k, 0x5B) { k = t.match(k) }
      k += 1
    }
    return nil
  }

  func absentValue(in range: Range<Int>, key: KeyExpr) -> (ValueExpr, String?)? {
    var k = range.lowerBound + 1
    while k < range.upperBound {
      if t.isText(k, "return") {
        return (valueOf(expressionRange(from: k + 1)), scope?.property)
      }
      if let written = valueWritten(at: k, to: key) { return (valueOf(written), nil) }
      if t.isPunctuation(k, 0x3D), t.isIdentifier(k - 1) {
        return (valueOf(expressionRange(from: k + 1)), t.text(k - 1))
      }
      k += 1
    }
    return nil
  }

  /// `func fallback(_ t: Toggle) -> Bool { switch t { case .a, .b: return true … } }`: what
  /// the function returns for each case of its parameter.
  /// (`subject`: the name switched on, when not a parameter: an enum's `self`.)
  mutating func switchReturns(body open: Int, selector: String, subject: String? = nil) {
    let close = t.match(open)
    var k = open + 1
    if t.isText(k, "return") { k += 1 }
    guard t.isText(k, "switch"), t.isIdentifier(k + 1), t.isPunctuation(k + 2, 0x7B),
      subject.map { t.text(k + 1) == $0 } ?? (scope?.parameters.contains(t.text(k + 1)) == true)
    else { return }
    let end = t.match(k + 2)
    guard end + 1 == close else { return }
    var table: [String: ValueExpr] = [:]
    var pending: [String] = []
    var n = k + 3
    while n < end {
      if t.isText(n, "case") {
        pending = []
        var m = n + 1
        while m < end, !t.isPunctuation(m, 0x3A) {
          if t.isPunctuation(m, 0x2E), t.isIdentifier(m + 1) {
            pending.append(t.text(m + 1))
            m += 2
            continue
          }
          if t.isPunctuation(m, 0x28) { m = t.match(m) }
          m += 1
        }
        n = m + 1
        continue
      }
      if t.isText(n, "default"), t.isPunctuation(n + 1, 0x3A) {
        pending = ["default"]
        n += 2
        continue
      }
      guard !pending.isEmpty else {
        n += 1
        continue
      }
      let start = t.isText(n, "return") ? n + 1 : n
      let range = expressionRange(from: start)
      let value = valueOf(range)
      for c in pending where table[c] == nil { table[c] = value }
      pending = []
      n = max(range.upperBound, n + 1)
    }
    if !table.isEmpty { facts.switchReturns[selector] = table }
  }
}
