import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Registered defaults, fallback branches, ternary presence tests and C calls.
extension ObjCReader {
  // MARK: - Registration

  mutating func register(_ m: Message) {
    guard let arg = m.arguments.first else { return }
    // (Registered values are the process's, whatever suite was added.)
    let receiver = addedSuite(m.receiver) ? .standard : receiverOfMessage(m)
    guard receiver != .none else { return }
    var entries: [ValueEntry]?
    var elsewhere: ValueExpr?
    let value = valueOf(arg)
    switch value {
    case .dictionary(let e): entries = e
    case .call: elsewhere = value
    default:
      if arg.count == 1, t.isIdentifier(arg.lowerBound),
        let local = scope?.locals[t.text(arg.lowerBound)]
      {
        if case .dictionary(let e) = valueOf(arg) { entries = e } else { entries = local.entries }
      } else if case .name(let n) = value {
        elsewhere = value
        // `Constants.defaultValues`: a class property, its getter a class method.
        if let dot = n.lastIndex(of: "."), n.first?.isUppercase == true,
          n[n.index(after: dot)...].first?.isLowercase == true
        {
          elsewhere = .call(String(n[n.index(after: dot)...]), [], source: n)
        }
      }
    }
    let line = t.line(m.open)
    let base = SourceUse(
      key: .literal(""), receiver: receiver, access: .register, method: "registerDefaults:",
      condition: condition(at: m.open), line: line)
    recordRegistration(base, entries: entries, in: arg, madeElsewhere: elsewhere)
  }

  /// `[control bind:@"value" toObject:[NSUserDefaultsController sharedUserDefaultsController]
  /// withKeyPath:@"values.KEY" options:…]`.
  mutating func binding(_ m: Message) {
    guard m.arguments.count >= 3, receiverOf(m.arguments[1]) == .standard else { return }
    var key = localKey(m.arguments[2])
    var whole: String?
    if let stripped = Self.droppingValuesPrefix(key) {
      if case .literal(let path) = key, case .literal(let first) = stripped,
        path.count > first.count + 7
      {
        whole = String(path.dropFirst(7))
      }
      key = stripped
    } else {
      // A key path a function builds (`[self controllerPathForKey:K]`): `values.` is taken
      // off once the model knows it.
      guard case .call = key else { return }
    }
    let name = t.stringValue(m.arguments[0].lowerBound) ?? ""
    var use = SourceUse(
      key: key, receiver: .standard, access: .bind, method: "bind:@\"\(name)\" (values.KEY)",
      line: t.line(m.open))
    use.type = InterfaceReader.bindingType(name, control: nil, transformer: nil)
    use.weakType = true
    use.boundPath = whole
    record(use, at: m.open)
  }

  /// A key path `values.KEY` (or `values.KEY.more`) as the key.
  static func droppingValuesPrefix(_ key: KeyExpr) -> KeyExpr? {
    switch key {
    case .literal(let s):
      guard s.hasPrefix("values.") else { return nil }
      let rest = s.dropFirst(7)
      return .literal(String(rest.split(separator: ".", maxSplits: 1).first ?? rest))
    case .concat(let parts):
      guard case .literal(let head)? = parts.first, head.hasPrefix("values.") else { return nil }
      let rest = String(head.dropFirst(7))
      return rest.isEmpty
        ? (parts.count == 2 ? parts[1] : .concat(Array(parts.dropFirst())))
        : .concat([.literal(rest)] + parts.dropFirst())
    default: return nil
    }
  }

  // MARK: - Fallback branches

  /// `if ([d objectForKey:K] != nil) … else x = V;` and its `== nil`, `!` and bare forms: the
  /// value of the absent branch is the key's default.
  mutating func ifStatement(at i: Int) {
    let open = i + 1
    let close = t.match(open)
    guard close < t.count else { return }
    var met: [Int] = []
    let thenRange = statement(from: close + 1, ifs: &met)
    for k in met { statementEnds[k] = thenRange.upperBound }
    var elseRange: Range<Int>?
    if t.isText(thenRange.upperBound, "else") {
      // (`else if …`: the inner `if` ends where this one does, noted so that a long chain is
      // walked once, not once for each of its `if`s.)
      let from = thenRange.upperBound + 1
      if let end = statementEnds[i], end >= from {
        elseRange = from..<end
      } else {
        elseRange = statement(from: from)
      }
      if let e = elseRange, t.isText(from, "if") { statementEnds[from] = e.upperBound }
    }
    ifs.append((end: (elseRange ?? thenRange).upperBound, condition: (open + 1)..<close))
    guard let (send, present) = keyPresenceTest((open + 1)..<close),
      let m = parseMessage(at: send), DefaultsAPI.presenceGetters.contains(m.selector),
      let keyRange = m.arguments.first
    else {
      fallbackBranchOnLocal(condition: (open + 1)..<close, then: thenRange, else: elseRange)
      return
    }
    let receiver = receiverOfMessage(m)
    guard receiver != .none else { return }
    presence.insert(send)
    let key = keyOf(keyRange)
    guard let absent = present ? elseRange : thenRange else {
      if let after = returnAfter(thenRange) {
        recordFallback(
          valueOf(after), name: scope?.property, key: key, receiver: receiver, getter: m.selector,
          absent: after, condition: condition(at: send))
      } else {
        keptWhenAbsent(
          then: thenRange, key: key, receiver: receiver, getter: m.selector, at: send, ifAt: i)
      }
      return
    }
    guard let (value, name) = absentValue(in: absent, key: key) else {
      if let present = present ? thenRange : elseRange,
        let (value, read) = mirroredValue(absent: absent, present: present)
      {
        recordFallback(
          value, name: nil, key: read, receiver: receiver, getter: m.selector, absent: absent,
          condition: condition(at: send))
      }
      return
    }
    recordFallback(
      value, name: name, key: key, receiver: receiver, getter: m.selector, absent: absent,
      condition: condition(at: send))
  }

  /// `int v = V; if ([d objectForKey:K]) { v = [d integerForKey:K]; }`: the branch taken when
  /// the key is present replaces the variable's value with the key's, so V, the value it was
  /// declared with, is what the code sees when the key is absent. So is V of an assignment
  /// just before the test (`width = 512; if ([d objectForKey:K]) width = [d integerForKey:K];`,
  /// an instance variable's).
  mutating func keptWhenAbsent(
    then: Range<Int>, key: KeyExpr, receiver: ReceiverRef, getter: String, at send: Int,
    ifAt i: Int
  ) {
    var k = then.lowerBound
    if t.isPunctuation(k, 0x7B) { k += 1 }
    guard t.isIdentifier(k), t.isPunctuation(k + 1, 0x3D),
      let initial = scope?.locals[t.text(k)]?.initial ?? assignedBefore(i, t.text(k))
    else { return }
    let assigned = expressionRange(from: k + 2)
    let readsKey = assigned.contains { j in
      guard t.isPunctuation(j, 0x5B), let m = parseMessage(at: j),
        let api = DefaultsAPI.objc[m.selector], api.access == .get, api.key < m.arguments.count
      else { return false }
      return keyOf(m.arguments[api.key]) == key
    }
    guard readsKey else { return }
    recordFallback(
      valueOf(initial), name: Self.bare(t.text(k)), key: key, receiver: receiver,
      getter: getter, absent: then, condition: condition(at: send))
  }

  /// `if (![d objectForKey:K]) { [slider setIntValue:15]; } else { [slider
  /// setIntValue:[d integerForKey:K]]; }`: both branches send one message to one receiver, the
  /// present branch with a key's value (read there, or held in a local the branch assigns it
  /// to), the absent one with V. V is what the code makes of that key when absent; nil unless
  /// the absent branch is that one message.
  func mirroredValue(absent: Range<Int>, present: Range<Int>) -> (ValueExpr, KeyExpr)? {
    var k = absent.lowerBound
    if t.isPunctuation(k, 0x7B) { k += 1 }
    guard t.isPunctuation(k, 0x5B), let sent = parseMessage(at: k), sent.arguments.count == 1,
      t.isPunctuation(sent.close + 1, 0x3B),
      sent.close + 2 == absent.upperBound
        || t.isPunctuation(sent.close + 2, 0x7D) && sent.close + 3 == absent.upperBound
    else { return nil }
    let target = t.source(sent.receiver)
    /// The key a getter at `range` reads (`[d integerForKey:K]`).
    func keyRead(_ range: Range<Int>) -> KeyExpr? {
      guard let first = range.first, t.isPunctuation(first, 0x5B), t.match(first) == range.last,
        let m = parseMessage(at: first), let api = DefaultsAPI.objc[m.selector],
        api.access == .get, api.key < m.arguments.count, receiverOfMessage(m) != .none
      else { return nil }
      return keyOf(m.arguments[api.key])
    }
    var j = present.lowerBound
    while j < present.upperBound {
      defer { j += 1 }
      guard t.isPunctuation(j, 0x5B), let m = parseMessage(at: j), m.selector == sent.selector,
        m.arguments.count == 1, t.source(m.receiver) == target
      else { continue }
      let argument = m.arguments[0]
      if let key = keyRead(argument) { return (valueOf(sent.arguments[0]), key) }
      // `value = [d integerForKey:K]; [slider setIntValue:value];`
      guard argument.count == 1, t.isIdentifier(argument.lowerBound) else { return nil }
      let name = t.text(argument.lowerBound)
      for a in present.lowerBound..<j
      where t.text(a) == name && t.isPunctuation(a + 1, 0x3D) {
        if let key = keyRead(expressionRange(from: a + 2)) {
          return (valueOf(sent.arguments[0]), key)
        }
      }
      return nil
    }
    return nil
  }

  /// `NAME = V;`, the statement just before the one at `i`: V.
  func assignedBefore(_ i: Int, _ name: String) -> Range<Int>? {
    guard i >= 4, t.isPunctuation(i - 1, 0x3B) else { return nil }
    var k = i - 2
    while k > 0, !t.isPunctuation(k, 0x3B), !t.isPunctuation(k, 0x7B), !t.isPunctuation(k, 0x7D) {
      if t.isPunctuation(k, 0x29) || t.isPunctuation(k, 0x5D) {
        let open = t.match(k)
        guard open >= 0, open < k else { return nil }
        k = open
      }
      k -= 1
    }
    let start = k + 1
    guard start + 2 < i - 1, t.text(start) == name, t.isPunctuation(start + 1, 0x3D) else {
      return nil
    }
    return (start + 2)..<(i - 1)
  }

  /// `if (present) { … return …; } return V;`: the branch taken when the key is present
  /// returns, so the `return` after it is what the code gives when the key is absent (nil
  /// when the branch does not return, or no `return` follows it).
  func returnAfter(_ then: Range<Int>) -> Range<Int>? {
    guard t.isText(then.upperBound, "return"), then.contains(where: { t.isText($0, "return") })
    else { return nil }
    return expressionRange(from: then.upperBound + 1)
  }

  /// A statement from `start`: a block to its `}`, or to its `;`.
  func statement(from given: Int) -> Range<Int> {
    var ifs: [Int] = []
    return statement(from: given, ifs: &ifs)
  }

  /// `statement(from:)`, with the `if`s its walk met outside any block in `ifs`: each ends
  /// where the statement does (an `else` only binds an `if` of the chain), noted by the caller
  /// (`statementEnds`) so that `if (a) if (a) … S;` is walked once, not once for each `if`;
  /// one already noted is not walked again.
  func statement(from given: Int, ifs: inout [Int]) -> Range<Int> {
    // (Within the tokens: a block left open runs to the end, and what follows it is empty.)
    // `if (…) S else if (…) S else S` and `if (a) if (b) S`: walked in a loop, however long
    // the chain (an `else` belongs to the innermost `if` still without one).
    let start = min(given, t.count)
    var k = start
    var pending = 0
    while true {
      if t.isText(k, "if"), t.isPunctuation(k + 1, 0x28) {
        if let end = statementEnds[k], end > k {
          // (Noted by an `if` that holds this one: the rest of the chain ends there too.)
          return start..<end
        }
        ifs.append(k)
        let next = t.match(k + 1) + 1
        guard next > k + 1 else { return start..<min(k + 1, t.count) }
        pending += 1
        k = next
        continue
      }
      var end: Int
      if t.isPunctuation(k, 0x7B) {
        end = min(max(t.match(k), k) + 1, t.count)
      } else {
        var j = k
        while j < t.count, !t.isPunctuation(j, 0x3B) {
          if t.isPunctuation(j, 0x28) || t.isPunctuation(j, 0x5B) || t.isPunctuation(j, 0x7B) {
            j = max(t.match(j), j)
          }
          j += 1
        }
        end = min(j + 1, t.count)
      }
      if pending > 0, end > k, t.isText(end, "else") {
        pending -= 1
        k = end + 1
        continue
      }
      return start..<max(end, start)
    }
  }

  /// A presence test that decides the branch when the key is absent: the whole condition,
  /// one joined by `&&` that asks the key be there (`[d objectForKey:K] && [d boolForKey:K]`:
  /// false when absent), or one joined by `||` that asks it be absent (true when absent).
  func keyPresenceTest(_ range: Range<Int>) -> (Int, Bool)? {
    if let whole = presenceTest(range) { return whole }
    let all = t.conjuncts(range, commaJoins: false)
    if all.count > 1 {
      return all.lazy.compactMap { self.presenceTest($0) }.first { $0.1 }
    }
    let any = t.disjuncts(range)
    if any.count > 1 {
      return any.lazy.compactMap { self.presenceTest($0) }.first { !$0.1 }
    }
    return nil
  }

  /// A condition that tests a getter's answer for nil: the message's `[`, and whether the
  /// condition is true when the key is present.
  func presenceTest(_ range: Range<Int>) -> (Int, Bool)? {
    var r = range
    while r.count >= 2, t.isPunctuation(r.lowerBound, 0x28),
      t.match(r.lowerBound) == r.upperBound - 1
    {
      r = (r.lowerBound + 1)..<(r.upperBound - 1)
    }
    guard let first = r.first else { return nil }
    var negated = false
    var start = first
    if t.isPunctuation(start, 0x21) {
      negated = true
      start += 1
    }
    func isNil(_ k: Int) -> Bool { t.isText(k, "nil") || t.isText(k, "NULL") || t.isText(k, "Nil") }
    // nil == [..] / nil != [..]
    if isNil(start), t.isText(start + 1, "==") || t.isText(start + 1, "!="),
      t.isPunctuation(start + 2, 0x5B),
      t.match(start + 2) == r.upperBound - 1, !negated
    {
      return (start + 2, t.isText(start + 1, "!="))
    }
    guard t.isPunctuation(start, 0x5B) else { return nil }
    let close = t.match(start)
    if close == r.upperBound - 1 { return (start, !negated) }
    if !negated, close + 3 == r.upperBound {
      if t.isText(close + 1, "=="), isNil(close + 2) { return (start, false) }
      if t.isText(close + 1, "!="), isNil(close + 2) { return (start, true) }
    }
    return nil
  }

  /// The first value the absent branch gives the key: an assignment (`x = YES;`), a setter of
  /// the same key (`[d setBool:YES forKey:K]`), a `return`.
  func absentValue(in range: Range<Int>, key: KeyExpr) -> (ValueExpr, String?)? {
    var k = range.lowerBound
    if t.isPunctuation(k, 0x7B) { k += 1 }
    while k < range.upperBound {
      if t.isText(k, "return") {
        let value = expressionRange(from: k + 1)
        return (valueOf(value), scope?.property)
      }
      if let written = valueWritten(at: k, to: key) {
        return (valueOf(written), valueName(written))
      }
      if t.isPunctuation(k, 0x3D), k > range.lowerBound {
        let value = expressionRange(from: k + 1)
        let name = t.isIdentifier(k - 1) ? Self.bare(t.text(k - 1)) : nil
        return (valueOf(value), name)
      }
      if t.isPunctuation(k, 0x28) || t.isPunctuation(k, 0x5B) || t.isPunctuation(k, 0x7B) {
        // A nested statement's own brackets.
        k = t.match(k)
      }
      k += 1
    }
    return nil
  }

  /// The tokens of the value a setter at `k` (`[d setBool:V forKey:K]`) writes to `key`; nil
  /// when `k` is no such setter.
  func valueWritten(at k: Int, to key: KeyExpr) -> Range<Int>? {
    guard t.isPunctuation(k, 0x5B), let m = parseMessage(at: k),
      let api = DefaultsAPI.objc[m.selector], api.access == .set, let v = api.value,
      m.arguments.count > max(api.key, v), keyOf(m.arguments[api.key]) == key
    else { return nil }
    return m.arguments[v]
  }

  // MARK: - Ternary presence tests

  // (`x = [d objectForKey:K] ? [d boolForKey:K] : YES;` is read by ``ternaryAfterPresence``
  // from the message's end.)

  // MARK: - C calls

  /// `CFPreferencesCopyAppValue(CFSTR("k"), kCFPreferencesCurrentApplication)` and its kin;
  /// and calls of C wrappers.
  mutating func cCall(at i: Int) {
    let first = t.bytes[Int(t.token(i).start)]
    guard !wrapperSelectors.isEmpty || first == 0x43 else { return }
    let name = t.text(i)
    if wrapperSelectors.contains(name + "()") {
      let close = t.match(i + 1)
      let arguments = t.commaSeparated((i + 2)..<close)
      var call = WrapperCall(
        selector: name + "()", receiver: .none, arguments: arguments.map { localKey($0) },
        values: arguments.map { valueOf($0) }, name: assignedName(before: i),
        condition: condition(at: i), line: t.line(i))
      call.enclosing = enclosing(of: call.arguments)
      facts.wrapperCalls.append(call)
    }
    guard !gatherOnly, name.hasPrefix("CFPreferences") else { return }
    let close = t.match(i + 1)
    let arguments = t.commaSeparated((i + 2)..<close)
    let method: (KeyAccess, MigrationPlan.ValueType?, Int)?
    switch name {
    case "CFPreferencesCopyAppValue", "CFPreferencesCopyValue": method = (.get, nil, 1)
    case "CFPreferencesGetAppBooleanValue": method = (.get, .bool, 1)
    case "CFPreferencesGetAppIntegerValue": method = (.get, .integer, 1)
    case "CFPreferencesSetAppValue", "CFPreferencesSetValue": method = (.set, nil, 2)
    default: method = nil
    }
    guard let (access, type, domainIndex) = method, arguments.count > domainIndex else { return }
    let domain = arguments[domainIndex]
    let receiver: ReceiverRef =
      t.isText(domain.lowerBound, "kCFPreferencesCurrentApplication")
      ? .standard : .suite(keyOf(domain))
    var use = SourceUse(
      key: keyOf(arguments[0]), receiver: receiver, access: access, method: name, type: type,
      line: t.line(i))
    if access == .set {
      let value = valueOf(arguments[1])
      use.type = value.type
      if case .value = value { use.value = value }
    }
    use.condition = condition(at: i)
    record(use, at: -1)
  }

  /// The elements of an array written in the code (`@[…]`, `[NSArray arrayWithObjects:…,
  /// nil]`), for the keys of `dictionaryWithObjects:forKeys:`.
  func listElements(_ range: Range<Int>) -> [Range<Int>]? {
    guard let first = range.first else { return nil }
    if t.isPunctuation(first, 0x40), t.isPunctuation(first + 1, 0x5B) {
      return items((first + 2)..<(range.upperBound - 1))
    }
    if t.isPunctuation(first, 0x5B), let m = parseMessage(at: first),
      m.selector == "arrayWithObjects:",
      let a = m.arguments.first
    {
      return items(a).filter { !($0.count == 1 && t.isText($0.lowerBound, "nil")) }
    }
    return nil
  }

  /// The elements of a list (`@[…]`, `@{…}`, a variadic argument): an element in the `#else`
  /// of a condition whose `#if` branch is read too stands in for the one before it, and is
  /// left out.
  func items(_ range: Range<Int>) -> [Range<Int>] {
    t.commaSeparated(range).filter { !$0.isEmpty && !t.token($0.lowerBound).alternative }
  }

  /// An element's value: one inside a condition depends on the build, not a constant.
  func itemValue(_ range: Range<Int>) -> ValueExpr {
    let value = valueOf(range)
    guard !range.isEmpty, t.token(range.lowerBound).conditional else { return value }
    return .computed(t.source(range) + " (chosen by a preprocessor condition)", value.type)
  }

  mutating func gatherWrapperCall(_ m: Message) {
    var call = WrapperCall(
      selector: m.selector, receiver: receiverOfMessage(m),
      arguments: m.arguments.map { localKey($0) },
      values: m.arguments.map { valueOf($0) }, name: assignedName(before: m.open),
      condition: condition(at: m.open), line: t.line(m.open))
    call.receivers = m.arguments.map { arg -> ReceiverRef? in
      switch receiverOf(arg) {
      case .standard, .suite: return receiverOf(arg)
      default: return nil
      }
    }
    call.enclosing = enclosing(of: call.arguments)
    // `- (NSString *)cacheDir { return [self domainObject:K]; }`: the class the method returns.
    if let (declared, _) = returnedObject(m, after: m.open - 1) { call.castType = declared }
    // `- (BOOL)verifySSL { return [[self domainObject:K] boolValue]; }`: an accessor that
    // converts the wrapper's answer to the type it declares (the two agreeing; a conversion
    // alone, `[[self pref:K] integerValue] == NSOnState` of a registered bool, says less).
    if call.castType == nil, m.open > 1, t.isPunctuation(m.open - 1, 0x5B),
      let outer = parseMessage(at: m.open - 1), outer.receiver == m.open..<(m.close + 1),
      let refined = DefaultsAPI.refiners[outer.selector],
      let declared = declaredReturn(of: outer, after: m.open - 2),
      DefaultsAPI.type(ofClass: declared) == refined
    {
      call.castType = declared
    }
    facts.wrapperCalls.append(call)
  }

  /// The function a wrapper call is made in, when one of its arguments names a parameter of
  /// that function.
  func enclosing(of arguments: [KeyExpr?]) -> EnclosingFunction? {
    guard let s = scope, let selector = s.selector, !s.parameters.isEmpty,
      arguments.contains(where: { $0?.names.contains(where: s.parameters.contains) == true })
    else { return nil }
    return EnclosingFunction(
      selector: selector, className: className, parameters: s.parameters,
      parameterTypes: s.parameterTypes, labels: [])
  }
}
