import PreferencesMigration
import PropertyList

/// Values the Objective-C reader follows through a function: what it returns, the keys a loop
/// takes from a collection, a getter's answer held in a local and given a fallback later,
/// dictionaries built in steps.
extension ObjCReader {
  /// `return EXPR;`: what the function returns, in terms of its parameters.
  mutating func recordReturn(_ range: Range<Int>) {
    guard let selector = scope?.selector, let first = range.first else { return }
    let parameters = scope?.parameters ?? []
    let noted = scope?.returns == true
    // (`[OEDBSaveState entityName]`: that class's method, by `Class.selector` too.)
    let qualified = className.map { $0 + "." + selector }
    // Most returns are of none of the kinds a key or a registration can come from.
    // (A function that returns something is noted once; what it returns only when asked.)
    let wanted =
      input.returnsWanted.contains(selector)
      || qualified.map { input.returnsWanted.contains($0) } == true
    guard wanted || !noted else { return }
    guard
      t.isString(first) || t.isPunctuation(first, 0x40) || t.isPunctuation(first, 0x5B)
        || t.isIdentifier(first) && !FunctionReturn.trivial.contains(t.text(first))
        // `+ (double)defaultWidth { return 250; }`: a number a registration may box.
        || t.token(first).kind == .number && range.count == 1
    else { return }
    // `- (NSUserDefaults *)defaults { return [NSUserDefaults standardUserDefaults]; }`: the
    // method names user defaults, as a property would.
    if parameters.isEmpty, t.isPunctuation(first, 0x5B),
      range.contains(where: {
        t.isText($0, "standardUserDefaults") || t.isText($0, "initWithSuiteName")
      })
    {
      switch receiverOf(range) {
      case .standard, .suite:
        returnsDefaults(selector, receiverOf(range))
        return
      default: break
      }
    }
    // `static NSUserDefaults *db; … db = [[NSUserDefaults alloc] initWithSuiteName:G]; …
    // return db;`: the variable's binding, once made in a block or an earlier statement.
    if parameters.isEmpty, range.count == 1, t.isIdentifier(first) {
      let name = t.text(first)
      switch scope?.locals[name]?.receiver ?? facts.receivers[Self.bare(name)] {
      case .some(let bound) where bound.isDefaults:
        returnsDefaults(selector, bound)
        return
      default: break
      }
    }
    if !noted {
      facts.returnsDefined.insert(selector)
      if let qualified { facts.returnsDefined.insert(qualified) }
      scope?.returns = true
    }
    guard wanted else { return }
    let key = localKey(range)
    let value = valueOf(range)
    let file = loadedFile(range)
    guard file != nil || FunctionReturn.mayMatter(key, value) else { return }
    let found = FunctionReturn(parameters: parameters, key: key, value: value, file: file)
    facts.returns[selector, default: []].append(found)
    if let qualified { facts.returns[qualified, default: []].append(found) }
  }

  /// A method that returns user defaults: a receiver by its name (`[self defaults]`) and by
  /// its class's (`[HelperTools defaultsDB]`).
  mutating func returnsDefaults(_ selector: String, _ receiver: ReceiverRef) {
    facts.receivers[selector] = receiver
    if let className { facts.receivers[className + "." + selector] = receiver }
  }

  /// `[d addSuiteNamed:S]` on the standard user defaults a variable or a property holds
  /// (`d = [NSUserDefaults standardUserDefaults]` before it): the keys read through it are
  /// looked for in S (SelfControl's crash reporter's, Santa's managed `com.google.santa`).
  /// Only where that variable holds the standard ones: the standard user defaults the message
  /// is sent to itself (`[[NSUserDefaults standardUserDefaults] addSuiteNamed:…]`) stay the
  /// app's, and so does a variable given the standard ones again later.
  mutating func addSuite(_ m: Message) {
    guard let argument = m.arguments.first else { return }
    // (`[d addSuiteNamed:domain]`, `NSString *domain = @"…"` before it: that name.)
    let suite = localKey(argument)
    guard !suite.isRuntime else { return }
    guard let (name, isLocal) = suiteHolder(m.receiver) else { return }
    if isLocal {
      if scope?.locals[name]?.receiver == .standard {
        scope?.locals[name]?.receiver = .suite(suite)
        suitesAdded.insert(name)
      }
    } else if facts.receivers[name] == .standard {
      facts.receivers[name] = .suite(suite)
      suitesAdded.insert(name)
    }
  }

  /// The variable (`d`) or member (`_defaults`, `self.defaults`: bare) a receiver names.
  func suiteHolder(_ receiver: Range<Int>) -> (name: String, isLocal: Bool)? {
    let r = inner(receiver)
    if r.count == 1, t.isIdentifier(r.lowerBound) {
      let name = t.text(r.lowerBound)
      if scope?.locals[name] != nil { return (name, true) }
      return (Self.bare(name), false)
    }
    if r.count == 3, t.isText(r.lowerBound, "self"),
      t.isPunctuation(r.lowerBound + 1, 0x2E) || t.isText(r.lowerBound + 1, "->"),
      t.isIdentifier(r.lowerBound + 2)
    {
      return (Self.bare(t.text(r.lowerBound + 2)), false)
    }
    return nil
  }

  /// Whether a receiver is one `addSuiteNamed:` was sent to: a write or a registration through
  /// it is the app's own domain's (only reads look in the added suite).
  func addedSuite(_ receiver: Range<Int>) -> Bool {
    guard !suitesAdded.isEmpty, let (name, _) = suiteHolder(receiver) else { return false }
    return suitesAdded.contains(name)
  }

  /// `for (NSString *key in EXPR)`: the variable is any one of the collection's keys.
  mutating func forIn(at i: Int) {
    let open = i + 1
    let close = t.match(open)
    guard close < t.count,
      let inAt = (open + 1..<close).first(where: {
        t.isText($0, "in") && isTopLevel($0, from: open)
      }),
      t.isIdentifier(inAt - 1)
    else { return }
    let name = t.text(inAt - 1)
    var variable = scope?.locals[name] ?? LocalVariable()
    if t.isIdentifier(open + 1), inAt - 1 > open + 1 { variable.type = t.text(open + 1) }
    let key = localKey((inAt + 1)..<close)
    variable.key = key.isRuntime ? nil : key
    variable.use = nil
    scope?.locals[name] = variable
  }

  func isTopLevel(_ k: Int, from open: Int) -> Bool {
    var i = open + 1
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

  /// `[keys enumerateObjectsUsingBlock:^(NSString *key, …) {…}]`: the block's first
  /// parameter is any one of the collection's keys.
  mutating func bindBlockParameter(_ m: Message) {
    guard m.selector.hasPrefix("enumerateObjects"), let block = m.arguments.last,
      let caret = block.first(where: { t.isPunctuation($0, 0x5E) }),
      t.isPunctuation(caret + 1, 0x28)
    else { return }
    let close = t.match(caret + 1)
    guard let part = t.commaSeparated((caret + 2)..<close).first,
      let last = part.last, t.isIdentifier(last)
    else { return }
    let key = localKey(m.receiver)
    guard !key.isRuntime else { return }
    var variable = LocalVariable()
    variable.key = key
    let name = t.text(last)
    scope?.locals[name] = variable
  }

  /// `NAME ? NAME : V`, `NAME ?: V`, `NAME != nil ? NAME : V`, `NAME == nil ? V : NAME` on a
  /// local that holds a getter's answer: V is that key's fallback when absent.
  mutating func fallbackOnLocal(at i: Int, original: SourceUse) {
    let name = t.text(i)
    var k = i + 1
    var presentFirst = true
    var zero = false
    if !t.isPunctuation(k, 0x3F) {
      guard let test = absenceTest(at: k, of: original) else { return }
      presentFirst = !test.whenAbsent
      zero = test.zero
      k += test.length
      if t.isPunctuation(k, 0x29) { k += 1 }
    }
    guard t.isPunctuation(k, 0x3F) else { return }
    let absent: Range<Int>
    if t.isPunctuation(k + 1, 0x3A) {
      guard presentFirst else { return }
      absent = expressionRange(from: k + 2)
    } else {
      let first = expressionRange(from: k + 1)
      guard t.isPunctuation(first.upperBound, 0x3A) else { return }
      let second = expressionRange(from: first.upperBound + 1)
      // The present side must be the local itself (else it is a test, not a fallback).
      let present = presentFirst ? first : second
      guard (present.count == 1 && t.text(present.lowerBound) == name) || isValueOf(present, name)
      else { return }
      absent = presentFirst ? second : first
    }
    var use = original.fallback(
      " == nil ? …", valueOf(absent), zeroTest: zero, line: t.line(i), condition: condition(at: i))
    use.name = assignedName(before: i) ?? original.name
    record(use, at: -1)
  }

  /// `MAX(n, 6)`, `MAX(MIN(n, 10), 6)` (and inside `MIN(…, 10)`) on a local holding a number
  /// getter's answer: the getter's 0 when the key is absent becomes the bound, its fallback.
  mutating func clampFallback(at i: Int) {
    let close = t.match(i + 1)
    let parts = t.commaSeparated((i + 2)..<min(close, t.count))
    guard parts.count == 2 else { return }
    func local(_ r: Range<Int>) -> (String, SourceUse)? {
      var r = r
      // `MIN(n, 10)` inside.
      if r.count > 3, t.isText(r.lowerBound, "MIN"), t.isPunctuation(r.lowerBound + 1, 0x28),
        t.match(r.lowerBound + 1) == r.upperBound - 1,
        let first = t.commaSeparated((r.lowerBound + 2)..<(r.upperBound - 1)).first
      {
        r = first
      }
      guard r.count == 1, t.isIdentifier(r.lowerBound),
        let held = scope?.locals[t.text(r.lowerBound)].flatMap(held),
        held.type == .integer || held.type == .double
      else { return nil }
      return (t.text(r.lowerBound), held)
    }
    for (a, b) in [(parts[0], parts[1]), (parts[1], parts[0])] {
      guard let (_, original) = local(a) else { continue }
      let bound = valueOf(b)
      switch bound {
      case .value(.integer(let n)) where n > 0: break
      case .value(.real(let d)) where d > 0: break
      default: continue
      }
      var use = original
      use.access = .presence
      use.type = nil
      use.typeReason = nil
      use.method = original.method + " → MAX(…)"
      use.value = bound
      use.defaultSource = .fallback
      use.line = t.line(i)
      use.name = assignedName(before: i) ?? original.name
      use.condition = condition(at: i)
      record(use, at: -1)
      return
    }
  }

  /// Whether `range` is `[NAME boolValue]` and its kin: the local's value, converted.
  func isValueOf(_ range: Range<Int>, _ name: String) -> Bool {
    guard let first = range.first, t.isPunctuation(first, 0x5B), t.text(first + 1) == name else {
      return false
    }
    return DefaultsAPI.refiners[t.text(first + 2)] != nil
  }

  /// Whether a branch's first statement gives `target` a value made of `local` (`n = [v
  /// intValue];`).
  static func assignsFrom(_ branch: Range<Int>, target: String, local: String, _ t: SourceTokens)
    -> Bool
  {
    var k = branch.lowerBound
    if t.isPunctuation(k, 0x7B) { k += 1 }
    guard k + 2 < branch.upperBound, t.isIdentifier(k), t.text(k) == target,
      t.isPunctuation(k + 1, 0x3D)
    else { return false }
    var j = k + 2
    while j < branch.upperBound, !t.isPunctuation(j, 0x3B) {
      if t.isIdentifier(j), t.text(j) == local { return true }
      j += 1
    }
    return false
  }

  /// Whether a length test (`x.length` then `== 0`, `!= 0`, `> 0`, or nothing after a `!` or
  /// alone) is true when the text is empty; nil for any other test.
  static func emptyTest(_ r: Range<Int>, after: Int, negated: Bool, _ t: SourceTokens) -> Bool? {
    if after == r.upperBound { return negated }
    guard !negated, after + 2 == r.upperBound, t.text(after + 1) == "0" else { return nil }
    if t.isText(after, "==") { return true }
    if t.isText(after, "!=") || t.isPunctuation(after, 0x3E) { return false }
    return nil
  }

  /// `if (NAME == nil) NAME = V;`, `if (!NAME) { NAME = V; }` on a local that holds a getter's
  /// answer: V is the fallback.
  mutating func fallbackBranchOnLocal(
    condition: Range<Int>, then: Range<Int>, else elseRange: Range<Int>?, either: Bool = false
  ) {
    // `if (!s || ![valid containsObject:s]) { return V; }`: a test joined by `||` that the key's
    // absence meets takes the branch, whatever the others say (one that the key's presence
    // meets tells nothing of the branch).
    let alternatives = t.disjuncts(condition)
    if alternatives.count > 1 {
      for part in alternatives {
        fallbackBranchOnLocal(condition: part, then: then, else: nil, either: true)
      }
      return
    }
    // `if (override != 0 && value == 0)`: each test joined by `&&` (any one of them telling the
    // key absent makes the branch the absent one).
    let parts = t.conjuncts(condition, commaJoins: false)
    if parts.count > 1 {
      for part in parts { fallbackBranchOnLocal(condition: part, then: then, else: nil) }
      return
    }
    var r = condition
    var negated = false
    if t.isPunctuation(r.lowerBound, 0x21) {
      negated = true
      r = (r.lowerBound + 1)..<r.upperBound
    }
    // `s.length == 0`, `![s length]`: an empty text, as a missing one, is the absent branch's.
    var lengthTest: Bool?
    let dotted =
      r.count >= 3 && t.isIdentifier(r.lowerBound) && t.isPunctuation(r.lowerBound + 1, 0x2E)
      && t.isText(r.lowerBound + 2, "length")
    let sent =
      r.count >= 4 && t.isPunctuation(r.lowerBound, 0x5B) && t.isIdentifier(r.lowerBound + 1)
      && t.isText(r.lowerBound + 2, "length") && t.isPunctuation(r.lowerBound + 3, 0x5D)
    if dotted || sent {
      let variable = dotted ? r.lowerBound : r.lowerBound + 1
      let after = dotted ? r.lowerBound + 3 : r.lowerBound + 4
      guard let test = Self.emptyTest(r, after: after, negated: negated, t) else { return }
      lengthTest = test
      r = variable..<(variable + 1)
    }
    guard let first = r.first, t.isIdentifier(first),
      let local = scope?.locals[t.text(first)], let original = held(local)
    else { return }
    let name = t.text(first)
    var absentFirst: Bool
    var zero = false
    if let lengthTest {
      guard DefaultsAPI.presenceGetters.contains(original.method) else { return }
      absentFirst = lengthTest
    } else if r.count == 1 {
      absentFirst = negated
    } else if r.count == 3, !negated, let test = absenceTest(at: first + 1, of: original) {
      absentFirst = test.whenAbsent
      zero = test.zero
    } else {
      return
    }
    // The local was tested for nil after a getter that answers nil when absent: a bool's or
    // a number's value is no presence (`if (version < 2) [d setInteger:2 …]` is an upgrade,
    // which a number's 0 also meets).
    let nilWhenAbsent = !zero && DefaultsAPI.presenceGetters.contains(original.method)
    if either, !absentFirst { return }
    guard var absent = absentFirst ? then : elseRange else {
      // `NSString *s = [d objectForKey:K]; if (s) { return s; } return V;`
      if !absentFirst, nilWhenAbsent, let after = returnAfter(then) {
        let use = original.fallback(
          " == nil", valueOf(after), zeroTest: false, line: t.line(after.lowerBound),
          condition: self.condition(at: after.lowerBound))
        record(use, at: -1)
      }
      return
    }
    // A toggle (`if (x == 0) x = 1; else x = 0;`) gives both branches a value: no fallback.
    if let other = absentFirst ? elseRange : then, Self.assigns(other, name, t) { return }
    // `else if (defaultValue > 0) { …; return defaultValue; }`: a test of something else in
    // the absent branch; its body is what the key's absence runs.
    while let inner = nestedBody(absent, unless: name) { absent = inner }
    // The branch gives the local its value, or writes the key (`v = [d objectForKey:K]; if
    // (v == nil) [d setBool:YES forKey:K];`: a first launch's value).
    var k = absent.lowerBound
    if t.isPunctuation(k, 0x7B) { k += 1 }
    let value: Range<Int>
    if t.text(k) == name, t.isPunctuation(k + 1, 0x3D) {
      value = expressionRange(from: k + 2)
    } else if t.isText(k, "return"), let returned = returnedInstead(name, at: k) {
      // `if (!s) { return @"Plain Text"; } return s;`: what the function answers for the key.
      value = returned
    } else if let at = lastReturn(in: absent),
      let returned = returnedInstead(name, at: at)
        ?? returnedBeside(name, at: at, present: absentFirst ? elseRange : then)
    {
      // `{ [self setBool:d forKey:key notify:NO]; return d; }`: written back, then answered.
      k = at
      value = returned
    } else if nilWhenAbsent, let (at, written) = setterOfKey(original.key, in: absent) {
      k = at
      value = written
    } else if t.isIdentifier(k), t.isPunctuation(k + 1, 0x3D),
      let present = absentFirst ? elseRange : then,
      Self.assignsFrom(present, target: t.text(k), local: name, t)
    {
      // `if (v) { n = [v intValue]; } else { n = 20; }`: what the other branch makes of the
      // key's value, this one gives when it is absent.
      value = expressionRange(from: k + 2)
    } else {
      return
    }
    // As the code tests it: `== nil`, `< 1.0`.
    let test = r.count == 3 ? " \(t.text(first + 1)) \(t.text(first + 2))" : " == nil"
    let use = original.fallback(
      test, valueOf(value), zeroTest: zero, line: t.line(k), condition: self.condition(at: k))
    record(use, at: -1)
  }

  /// `return V;` at `k`, in a function that returns the local `name` itself later (`return
  /// name;`, `return [name boolValue];`): V, what the function answers in its place; nil when
  /// the function never answers with the local (a `return NO` of a function that loads is no
  /// value of the key).
  func returnedInstead(_ name: String, at k: Int) -> Range<Int>? {
    let returned = expressionRange(from: k + 1)
    guard !returned.isEmpty, !(returned.count == 1 && t.isText(returned.lowerBound, "nil")),
      let end = scope?.end
    else { return nil }
    var i = returned.upperBound
    while i < min(end, t.count) {
      if t.isText(i, "return") {
        let later = expressionRange(from: i + 1)
        if later.count == 1, t.text(later.lowerBound) == name { return returned }
        if isValueOf(later, name) { return returned }
        i = max(later.upperBound, i + 1)
        continue
      }
      i += 1
    }
    return nil
  }

  /// The first setter of `key` in a branch, at the top of it: its `[` and its value.
  func setterOfKey(_ key: KeyExpr, in range: Range<Int>) -> (Int, Range<Int>)? {
    var k = range.lowerBound
    if t.isPunctuation(k, 0x7B) { k += 1 }
    while k < range.upperBound {
      if let written = valueWritten(at: k, to: key) { return (k, written) }
      if t.isPunctuation(k, 0x28) || t.isPunctuation(k, 0x5B) || t.isPunctuation(k, 0x7B) {
        k = t.match(k)
      }
      k += 1
    }
    return nil
  }

  /// Whether a branch assigns `name` (`name = …`).
  /// The body of an `if` that `range` begins with, when its test does not name the local
  /// `name` (a test of the key itself is a branch of its own).
  func nestedBody(_ range: Range<Int>, unless name: String) -> Range<Int>? {
    let k = range.lowerBound
    guard t.isText(k, "if"), t.isPunctuation(k + 1, 0x28) else { return nil }
    let close = t.match(k + 1)
    guard close < range.upperBound - 1,
      !((k + 2)..<close).contains(where: { t.isIdentifier($0) && t.text($0) == name })
    else { return nil }
    let body = statement(from: close + 1)
    return body.lowerBound..<min(body.upperBound, range.upperBound)
  }

  /// `return V;` at `k` in the absent branch of a test whose present branch answers with the
  /// local `name` itself (`if (s) { return [s boolValue]; } else { …; return V; }`): V.
  func returnedBeside(_ name: String, at k: Int, present: Range<Int>?) -> Range<Int>? {
    let returned = expressionRange(from: k + 1)
    guard let present, !returned.isEmpty,
      !(returned.count == 1 && t.isText(returned.lowerBound, "nil")),
      let at = lastReturn(in: present)
    else { return nil }
    let answer = expressionRange(from: at + 1)
    let answers = answer.count == 1 && t.text(answer.lowerBound) == name || isValueOf(answer, name)
    return answers ? returned : nil
  }

  /// The `return` a block ends with (its last statement at its own level), if any.
  func lastReturn(in block: Range<Int>) -> Int? {
    var k = block.lowerBound
    var end = block.upperBound
    if t.isPunctuation(k, 0x7B) {
      k += 1
      end = min(end, t.match(block.lowerBound))
    }
    var last: Int?
    var statementStart = true
    while k < end {
      if t.isPunctuation(k, 0x7B) || t.isPunctuation(k, 0x28) || t.isPunctuation(k, 0x5B) {
        k = t.match(k) + 1
        statementStart = false
        continue
      }
      if statementStart { last = t.isText(k, "return") ? k : nil }
      statementStart = t.isPunctuation(k, 0x3B)
      k += 1
    }
    return last
  }

  static func assigns(_ range: Range<Int>, _ name: String, _ t: SourceTokens) -> Bool {
    range.contains { k in
      t.isIdentifier(k) && t.isPunctuation(k + 1, 0x3D) && t.text(k) == name
    }
  }

  /// The typed setters a category of NSMutableDictionary gives (`setBool:forKey:`), by the
  /// type each boxes.
  static let typedEntrySetters: [String: MigrationPlan.ValueType] = [
    "setBool:forKey:": .bool, "setInt:forKey:": .integer, "setInteger:forKey:": .integer,
    "setLongLong:forKey:": .integer, "setDouble:forKey:": .double, "setFloat:forKey:": .double,
  ]

  /// `[values setObject:V forKey:K]`, `addEntriesFromDictionary:` on a dictionary the function
  /// builds: its entries.
  mutating func buildEntries(_ m: Message) -> Bool {
    guard
      m.selector == "setObject:forKey:" || m.selector == "setValue:forKey:"
        || m.selector == "addEntriesFromDictionary:" || Self.typedEntrySetters[m.selector] != nil,
      m.receiver.count == 1, t.isIdentifier(m.receiver.lowerBound)
    else { return false }
    let name = t.text(m.receiver.lowerBound)
    guard scope?.locals[name]?.entries != nil else { return false }
    // `[d setBool:YES forKey:K]` on a dictionary being built: a category's setter (the
    // dictionary is not user defaults), the value boxed as that type.
    if let type = Self.typedEntrySetters[m.selector] {
      guard m.arguments.count == 2 else { return true }
      let entry = ValueEntry(
        key: keyOf(m.arguments[1]),
        value: .converted(valueOf(m.arguments[0]), type, source: t.source(m.arguments[0])))
      scope?.locals[name]?.entries?.append(entry)
      return true
    }
    switch m.selector {
    case "setObject:forKey:", "setValue:forKey:":
      guard m.arguments.count == 2 else { return true }
      scope?.locals[name]?.added.append((m.arguments[1], m.arguments[0]))
    case "addEntriesFromDictionary:":
      guard let arg = m.arguments.first else { return true }
      switch valueOf(arg) {
      case .dictionary(let entries):
        scope?.locals[name]?.entries? += entries
      case .call(let selector, _, let source):
        // What a method returns: its entries, once the tree is read.
        scope?.locals[name]?.entries?.append(
          ValueEntry(key: .runtime(source), value: .call(selector, [], source: source)))
      default:
        // `[(Class<P>)cls defaults]`, `[cls defaults]` of a `Class` variable: any class of the
        // tree answering it, each one's entries.
        // (A unary message: its selector the name before the `]`.)
        let close = arg.upperBound - 1
        if arg.count >= 4, t.isPunctuation(arg.lowerBound, 0x5B),
          t.match(arg.lowerBound) == close, t.isIdentifier(close - 1),
          t.isIdentifier(close - 2) || t.isPunctuation(close - 2, 0x29),
          ((arg.lowerBound + 1)..<(close - 1)).contains(where: {
            t.isText($0, "Class")
              || t.isIdentifier($0) && scope?.locals[t.text($0)]?.type == "Class"
          })
        {
          let source = t.source(arg)
          scope?.locals[name]?.entries?.append(
            ValueEntry(key: .runtime(source), value: .call(t.text(close - 1), [], source: source)))
        }
      }
    default: return false
    }
    return true
  }
}
