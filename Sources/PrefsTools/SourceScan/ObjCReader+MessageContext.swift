import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What the code around a getter's message says of its answer: its type (a cast, the variable
/// it initializes, a message sent to it: `boolValue`, `isKindOfClass:`, JSON parsing) and its
/// fallback (`?:`, a ternary on the key's presence).
extension ObjCReader {
  /// `x = [d objectForKey:K] ? [d boolForKey:K] : YES;` (and `(… != nil) ?`, `== nil ?`): the
  /// value the absent side gives, and the name it goes to.
  func ternaryAfterPresence(_ m: Message) -> (ValueExpr, String?)? {
    var k = m.close + 1
    var present = true
    var start = m.open
    if t.isText(k, "!=") || t.isText(k, "=="), t.isText(k + 1, "nil") || t.isText(k + 1, "NULL") {
      present = t.isText(k, "!=")
      k += 2
    }
    if t.isPunctuation(k, 0x29), t.match(k) == start - 1 || t.match(k) == start - 2 {
      if t.isPunctuation(start - 1, 0x21) {
        present.toggle()
        start -= 1
      }
      start = t.match(k)
      k += 1
    } else if t.isPunctuation(start - 1, 0x21) {
      present.toggle()
      start -= 1
    }
    guard t.isPunctuation(k, 0x3F), !t.isPunctuation(k + 1, 0x3A) else { return nil }
    let first = expressionRange(from: k + 1)
    guard t.isPunctuation(first.upperBound, 0x3A) else { return nil }
    let second = expressionRange(from: first.upperBound + 1)
    return (valueOf(present ? second : first), assignedName(before: start))
  }

  /// `NSString *s =` ending at `k` (the `=`): the class the variable is declared with, and
  /// its plan type.
  func assignedClass(before k: Int) -> (String, MigrationPlan.ValueType)? {
    guard t.isPunctuation(k, 0x3D), t.isIdentifier(k - 1), t.isPunctuation(k - 2, 0x2A),
      let type = DefaultsAPI.type(ofClass: t.text(k - 3))
    else { return nil }
    return (t.text(k - 3), type)
  }

  /// What the tokens just around a getter's message say of its type: a cast before it, the
  /// declared type of the variable it initializes.
  func refineInPlace(_ use: inout SourceUse, _ m: Message) {
    var k = m.open - 1
    if t.isPunctuation(k, 0x29), isCastEnd(k) {
      let open = t.match(k)
      if let type = DefaultsAPI.type(ofClass: t.text(open + 1)) {
        use.type = type
        use.typeReason = "cast to \(t.text(open + 1))"
        return
      }
      k = open - 1
    }
    if let (declared, type) = assignedClass(before: k) {
      use.type = type
      use.typeReason = "assigned to \(declared) *"
    } else if use.type == nil || use.type == .array, t.isText(k, "in"), t.isIdentifier(k - 1),
      t.isPunctuation(k - 2, 0x2A), t.isIdentifier(k - 3), t.isPunctuation(k - 4, 0x28),
      t.isText(k - 5, "for"), t.isPunctuation(m.close + 1, 0x29)
    {
      // `for (NSString *link in [d objectForKey:K])`: an array of strings.
      use.type = t.isText(k - 3, "NSString") ? .stringArray : .array
      use.otherElements = !t.isText(k - 3, "NSString") && !t.isText(k - 3, "id")
      use.typeReason = "enumerated as \(t.text(k - 3)) *"
    } else if use.type == nil, let (declared, type) = returnedObject(m, after: k) {
      // `- (NSString *)lastTemplate { return [d objectForKey:K]; }`
      use.type = type
      use.typeReason = "returned as \(declared) *"
    } else if use.type == nil, t.isPunctuation(k, 0x28), t.isPunctuation(m.close + 1, 0x29),
      t.isIdentifier(k - 1),
      t.text(k - 1).hasSuffix("FromString"),
      t.text(k - 1).hasPrefix("NS") || t.text(k - 1).hasPrefix("CG")
    {
      // `NSPointFromString([d objectForKey:K])`
      use.type = .string
      use.typeReason = "given to \(t.text(k - 1))"
    }
  }

  /// `[d stringForKey:K] ?: @"x"`: the default when absent.
  func fallbackAfter(_ m: Message, _ use: inout SourceUse) {
    let k = m.close + 1
    guard t.isPunctuation(k, 0x3F), t.isPunctuation(k + 1, 0x3A) else { return }
    let range = expressionRange(from: k + 2)
    use.value = valueOf(range)
    use.defaultSource = .fallback
    if use.name == nil { use.name = assignedName(before: m.open) }
  }

  /// A message that is not one of the defaults methods: it may say what an `objectForKey:`'s
  /// result is (`[[d objectForKey:K] boolValue]`, `isKindOfClass:`, JSON parsing).
  mutating func refine(_ m: Message) {
    // The use whose result is the receiver, or the argument.
    func useOf(_ range: Range<Int>) -> Int? {
      var r = range
      while r.count >= 2, t.isPunctuation(r.lowerBound, 0x28),
        isCastEnd(t.match(r.lowerBound))
      {
        r = (t.match(r.lowerBound) + 1)..<r.upperBound
      }
      guard let first = r.first else { return nil }
      if t.isPunctuation(first, 0x5B), t.match(first) == r.upperBound - 1 {
        return useAt[first] ?? pendingUse(at: first)
      }
      if r.count == 1, t.isIdentifier(first), let use = scope?.locals[t.text(first)]?.use, use >= 0
      {
        return use
      }
      return nil
    }
    var target: Int?
    var type: MigrationPlan.ValueType?
    var reason = ""
    if let refined = DefaultsAPI.refiners[m.selector] {
      target = useOf(m.receiver)
      type = refined
      reason = m.selector
    } else if m.selector == "isKindOfClass:", let arg = m.arguments.first {
      target = useOf(m.receiver)
      if t.isPunctuation(arg.lowerBound, 0x5B), t.isIdentifier(arg.lowerBound + 1) {
        type = DefaultsAPI.type(ofClass: t.text(arg.lowerBound + 1))
        reason = "isKindOfClass:[\(t.text(arg.lowerBound + 1)) class]"
      }
    } else if m.selector.hasPrefix("JSONObjectWithData:"), let arg = m.arguments.first {
      target = useOf(arg)
      type = .json
      reason = "parsed by NSJSONSerialization"
    } else if m.selector.hasPrefix("unarchiveObjectWithData:")
      || m.selector.hasPrefix("unarchivedObjectOfClass:"), let arg = m.arguments.last
    {
      target = useOf(arg)
      type = .data
      reason = "unarchived by NSKeyedUnarchiver"
    }
    if target == nil, let type {
      // A wrapper's own getter (`[[d objectForKey:key] boolValue]`, `key` a parameter).
      let range =
        m.selector.hasPrefix("JSONObjectWithData:")
          || m.selector.hasPrefix("unarchive") ? (m.arguments.first ?? m.receiver) : m.receiver
      var r = range
      while r.count >= 2, t.isPunctuation(r.lowerBound, 0x28), isCastEnd(t.match(r.lowerBound)) {
        r = (t.match(r.lowerBound) + 1)..<r.upperBound
      }
      if let first = r.first, let index = templateAt[first], let count = scope?.templates.count,
        index < count, scope?.templates[index].type == nil
      {
        scope?.templates[index].type = type
        scope?.templates[index].typeReason = reason
      } else if r.count == 1, let first = r.first, t.isIdentifier(first),
        let local = scope?.locals[t.text(first)], local.template != nil
      {
        refineHeld(local, type, reason: reason)
      }
      return
    }
    guard let target, let type, target < facts.uses.count else { return }
    let current = facts.uses[target]
    guard current.access == .get,
      current.type == nil || current.type == .data || current.type == .string && type == .json
        || DefaultsAPI.converts(current, to: type)
    else { return }
    facts.uses[target].type = type
    facts.uses[target].typeReason = reason
  }

  /// The use an inner message will make (read before the outer one is done): the inner is
  /// read now.
  mutating func pendingUse(at open: Int) -> Int? {
    guard useAt[open] == nil, let m = parseMessage(at: open), let api = DefaultsAPI.objc[m.selector]
    else {
      return useAt[open]
    }
    use(m, api)
    readEarly.insert(open)
    return useAt[open]
  }

  /// The object class a method declares it returns, and its plan type, when the send `m`
  /// (with `k` the token before it) is the whole of a `return` (`- (NSString *)cacheDir {
  /// return [self toolObject:K]; }`); nil for a class that says no stored type.
  func returnedObject(_ m: Message, after k: Int) -> (String, MigrationPlan.ValueType)? {
    guard let declared = declaredReturn(of: m, after: k),
      let type = DefaultsAPI.type(ofClass: declared),
      [.string, .array, .dictionary, .data, .date, .url].contains(type)
    else { return nil }
    return (declared, type)
  }

  /// The type the method declares it returns, when the send `m` (`k` the token before it) is
  /// the whole of a `return`.
  func declaredReturn(of m: Message, after k: Int) -> String? {
    guard t.isText(k, "return"), t.isPunctuation(m.close + 1, 0x3B) else { return nil }
    return scope?.returnTypeToken.map { t.text($0) }
  }

  /// `defaults[@"k"]`, `defaults[@"k"] = v` on a variable holding user defaults: NSUserDefaults'
  /// keyed subscripting (`objectForKeyedSubscript:`, which a category may add), a getter of an
  /// object (typed by the variable it is assigned to) or a setter. Whether the `[` at `i` is
  /// such a subscript (else it opens a message).
  mutating func keyedSubscript(at i: Int) -> Bool {
    let name = t.text(i - 1)
    let close = t.match(i)
    guard close > i + 1, !t.isPunctuation(i - 2, 0x2E), !t.isText(i - 2, "->"),
      !isKeyword(i - 1),
      let receiver = scope?.locals[name] != nil
        ? scope?.locals[name]?.receiver : facts.receivers[Self.bare(name)],
      receiver.isDefaults
    else { return false }
    if gatherOnly { return true }
    let keyRange = (i + 1)..<close
    let sets = t.isPunctuation(close + 1, 0x3D)
    var use = SourceUse(
      key: localKey(keyRange), receiver: receiver, access: sets ? .set : .get,
      method: sets ? "setObject:forKeyedSubscript:" : "objectForKeyedSubscript:",
      line: t.line(i))
    if sets {
      let value = expressionRange(from: close + 2)
      use.value = valueOf(value)
      use.type = use.value?.type
    } else {
      // `NSString *s = defaults[@"k"];`: the class it is assigned to.
      if let (declared, type) = assignedClass(before: i - 2) {
        use.type = type
        use.typeReason = "assigned to \(declared) *"
      }
    }
    use.condition = condition(at: i)
    record(use, at: -1)
    return true
  }
}
