import PreferencesMigration
import PropertyList

/// What the code makes of a value a getter answers says how it is stored: data decoded as
/// JSON, a string made into an enum by its raw value.
extension SwiftReader {
  /// `JSONDecoder().decode(T.self, from: x)`: the use whose data `x` is becomes `json`.
  mutating func refine(
    _ range: Range<Int>, as type: MigrationPlan.ValueType, reason: String
  ) {
    guard let target = useTarget(range) else { return }
    refineUse(target, as: type, reason: reason)
  }

  /// The use whose value `range` is: a local given a getter's answer, a getter in it (read
  /// now when the walk has not come to it), the type's `@AppStorage` property.
  mutating func useTarget(_ range: Range<Int>) -> Int? {
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
          // (A call that records no use, a key cut off, is no target: not the last use made.)
          let before = facts.uses.count
          use(c, api)
          readEarly.insert(k)
          if facts.uses.count > before { target = facts.uses.count - 1 }
          break
        }
      }
    }
    if target == nil {
      // `from: data`, `from: self.data` of the type's `@AppStorage` property.
      let name = range.upperBound - 1
      if range.count == 1 || range.count == 3 && t.isText(range.lowerBound, "self"),
        t.isIdentifier(name), scope?.locals[t.text(name)] == nil
      {
        target = appStorageUse(named: t.text(name))
      }
    }
    guard let target, target >= 0, target < facts.uses.count else { return nil }
    return target
  }

  /// `Mode(rawValue: d.string(forKey: K) ?? "") ?? .light`, `Mode(rawValue: raw)` of a local
  /// or an `@AppStorage` property holding the getter's answer: the value is stored as Mode's
  /// raw value (an enum of the tree: its cases; else as the getter says); the case after
  /// `??` is the default where the getter's own fallback is none or empty.
  mutating func madeFromRawValue(_ c: Call) {
    guard c.arguments.count == 1, let target = useTarget(c.arguments[0]),
      facts.uses[target].storedType == nil, facts.uses[target].access != .set
    else { return }
    let type = t.text(c.name)
    facts.uses[target].storedType = type
    facts.uses[target].madeFromRaw = true
    // (A number's getter answers 0 when the key is absent: the case of raw value 0, never
    // the one after `??`.)
    let k = c.close + 1
    guard ![.integer, .double, .bool].contains(facts.uses[target].type),
      t.isText(k, "??"), t.isPunctuation(k + 1, 0x2E), t.isIdentifier(k + 2),
      !t.isPunctuation(k + 3, 0x2E), !t.isPunctuation(k + 3, 0x28)
    else { return }
    switch facts.uses[target].value {
    case nil, .value(.string(""))?:
      facts.uses[target].value = .name("." + t.text(k + 2))
      facts.uses[target].defaultSource = .fallback
    default: break
    }
  }

  /// The use of the current type's `@AppStorage` property `name`, where no local hides it.
  func appStorageUse(named name: String) -> Int? {
    guard scope?.locals[name] == nil, let type = typeName,
      let use = appStorageUses[type + "." + name], use < facts.uses.count
    else { return nil }
    return use
  }

  /// Data (or a string) a use holds, known to be `type` (JSON) by what is done with it.
  mutating func refineUse(_ target: Int, as type: MigrationPlan.ValueType, reason: String) {
    guard target >= 0, target < facts.uses.count else { return }
    let current = facts.uses[target].type
    guard current == nil || current == .data || current == .string else { return }
    facts.uses[target].type = type
    facts.uses[target].typeReason = reason
  }

  /// MASShortcut's binder (`bindShortcut(withDefaultsKey:)`, its action given as a trailing
  /// closure or not) and `d.dictionaryRepresentation()[K]`: a use made; true when `c` is one.
  mutating func libraryOrRepresentationCall(_ c: Call, at i: Int) -> Bool {
    if c.selector == "bindShortcut(withDefaultsKey:toAction:)"
      || c.selector == "bindShortcut(withDefaultsKey:)",
      let key = c.arguments.first
    {
      // MASShortcut's binder (its action given as a trailing closure, or not): the key holds
      // an archived shortcut (or a dictionary).
      let dictionary = t.tokens.indices.contains { t.isText($0, "MASDictionaryTransformerName") }
      var use = SourceUse(
        key: localKey(key), receiver: .standard, access: .bind,
        method: "MASShortcut " + c.selector, type: dictionary ? .dictionary : .data,
        line: t.line(i))
      use.library = .masShortcut
      use.condition = conditionText(at: i)
      record(use, at: i)
      return true
    }
    if c.selector == "dictionaryRepresentation()", t.isPunctuation(c.close + 1, 0x5B) {
      // `d.dictionaryRepresentation()[K]`: a getter of K.
      let close = t.match(c.close + 1)
      let receiver = receiverOf(c.receiver)
      guard receiver != .none else { return true }
      var use = SourceUse(
        key: localKey((c.close + 2)..<close), receiver: receiver, access: .get,
        method: "dictionaryRepresentation()[…]", line: t.line(i))
      if t.isText(close + 1, "as"),
        t.isPunctuation(close + 2, 0x3F) || t.isPunctuation(close + 2, 0x21)
      {
        let type = t.source((close + 3)..<typeEnd(from: close + 3)).replacing(" ", with: "")
        use.type = DefaultsAPI.type(ofClass: type)
        if use.type != nil { use.typeReason = "as? \(type)" }
      }
      use.condition = conditionText(at: i)
      record(use, at: i)
      return true
    }
    return false
  }

  /// `if get(forKey: .k) == nil { setBool(forKey: .k, value: true) }` through the app's
  /// wrappers: the first call a presence test, the second what a first launch writes.
  mutating func wrapperPresence(_ c: Call, _ call: inout WrapperCall) {
    guard let first = c.arguments.first else { return }
    let key = t.source(first)
    if t.isText(c.close + 1, "=="), t.isText(c.close + 2, "nil") {
      call.testedForNil = true
      if t.isPunctuation(c.close + 3, 0x7B) {
        absentBranches.append((c.close + 3, t.match(c.close + 3), key))
      }
    } else if t.isText(c.close + 1, "!="), t.isText(c.close + 2, "nil") {
      call.testedForNil = true
    } else if case let start = c.receiver?.lowerBound ?? c.name, t.isPunctuation(start - 1, 0x3D),
      t.isIdentifier(start - 2), t.isText(start - 3, "let") || t.isText(start - 3, "var")
    {
      // `let loaded = value(for: key)` then `if loaded == nil { … }` in the lines after.
      let name = t.text(start - 2)
      var k = c.close + 1
      while k < min(c.close + 60, t.count - 4) {
        if t.isText(k, "if"), t.text(k + 1) == name, t.isText(k + 2, "=="), t.isText(k + 3, "nil"),
          t.isPunctuation(k + 4, 0x7B)
        {
          absentBranches.append((k + 4, t.match(k + 4), key))
          break
        }
        k += 1
      }
    }
    // (The key may be any of the setter's arguments: `setValue(v, for: key)`.)
    let given = Set(c.arguments.map { t.source($0) })
    call.inAbsentBranch = absentBranches.contains {
      $0.open < c.name && c.name < $0.close && given.contains($0.key)
    }
  }
}
