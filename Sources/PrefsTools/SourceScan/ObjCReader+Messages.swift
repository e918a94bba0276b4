import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Messages to user defaults: each with its receiver, key and what the code does with its
/// value.
extension ObjCReader {
  // MARK: - Messages

  /// The parts of a message `[receiver part:arg part2:arg2]`.
  struct Message {
    var open: Int
    var close: Int
    var receiver: Range<Int>
    var selector: String
    var arguments: [Range<Int>]
  }

  /// The message whose `[` is at `open`; nil for an array subscript or literal.
  func parseMessage(at open: Int) -> Message? {
    let close = t.match(open)
    guard close < t.count, close > open + 1 else { return nil }
    // `a[0]`, `dict[@"k"]`, `@[…]`: not a message.
    if open > 0, open != boundary,
      t.isIdentifier(open - 1) && !t.isText(open - 1, "return") && !t.isText(open - 1, "in")
        && !t.isText(open - 1, "else") || t.isPunctuation(open - 1, 0x5D)
        || t.isPunctuation(open - 1, 0x40)
        || t.isPunctuation(open - 1, 0x29) && isCallResult(open - 1)
    {
      return nil
    }
    let receiverEnd = primaryEnd(from: open + 1, limit: close)
    guard receiverEnd < close, t.isIdentifier(receiverEnd) else { return nil }
    if t.isPunctuation(receiverEnd + 1, 0x5D) {
      return Message(
        open: open, close: close, receiver: (open + 1)..<receiverEnd,
        selector: t.text(receiverEnd), arguments: [])
    }
    var selector = ""
    var arguments: [Range<Int>] = []
    var k = receiverEnd
    while k < close {
      guard t.isIdentifier(k), t.isPunctuation(k + 1, 0x3A) else { return nil }
      selector += t.text(k) + ":"
      let start = k + 2
      var j = start
      var questions = 0
      while j < close {
        if t.isPunctuation(j, 0x3F) {
          questions += 1
        } else if t.isPunctuation(j, 0x3A) {
          if questions > 0 { questions -= 1 }
        } else if t.isIdentifier(j), t.isPunctuation(j + 1, 0x3A), questions == 0, j > start {
          break
        } else if t.isPunctuation(j, 0x28) || t.isPunctuation(j, 0x5B) || t.isPunctuation(j, 0x7B) {
          j = t.match(j)
        } else if t.isPunctuation(j, 0x2C) {
          // Variadic arguments (`dictionaryWithObjectsAndKeys:`) run on to the end.
        }
        j += 1
      }
      arguments.append(start..<min(j, close))
      k = j
    }
    return Message(
      open: open, close: close, receiver: (open + 1)..<receiverEnd, selector: selector,
      arguments: arguments)
  }

  /// Whether the `)` at `i` ends a call (`f(x)[0]`), not a condition or a cast.
  func isCallResult(_ i: Int) -> Bool {
    let open = t.match(i)
    guard open > 0, open < i, t.isIdentifier(open - 1) else { return false }
    return !isKeyword(open - 1) && !isCastEnd(i)
  }

  /// Whether the `)` at `i` ends a cast (`(NSString *)[…]`), not a call.
  func isCastEnd(_ i: Int) -> Bool {
    let open = t.match(i)
    guard open >= 0, open < i else { return false }
    return (open + 1..<i).allSatisfy { t.isIdentifier($0) || t.isPunctuation($0, 0x2A) }
      && (open == 0 || !t.isIdentifier(open - 1))
  }

  /// The end of one primary expression from `start`: a message, a parenthesized or cast
  /// expression, a name with its members and calls, a literal.
  func primaryEnd(from start: Int, limit: Int) -> Int {
    var k = start
    guard k < limit else { return k }
    if t.isPunctuation(k, 0x28) {
      let close = t.match(k)
      if isCastEnd(close), close + 1 < limit { return primaryEnd(from: close + 1, limit: limit) }
      k = close + 1
    } else if t.isPunctuation(k, 0x5B) {
      k = t.match(k) + 1
    } else if t.isPunctuation(k, 0x40), k + 1 < limit {
      k += 1
      if t.isPunctuation(k, 0x28) || t.isPunctuation(k, 0x5B) || t.isPunctuation(k, 0x7B) {
        k = t.match(k) + 1
      } else {
        k += 1
      }
    } else if t.isIdentifier(k) || t.isString(k) || t.token(k).kind == .number {
      k += 1
      while k < limit, t.isString(k), t.isString(k - 1) { k += 1 }
    } else {
      return k
    }
    while k < limit {
      if t.isPunctuation(k, 0x2E) || t.isText(k, "->"), t.isIdentifier(k + 1) {
        k += 2
      } else if t.isPunctuation(k, 0x28) {
        k = t.match(k) + 1
      } else {
        break
      }
    }
    return min(k, limit)
  }

  /// The receiver a range of tokens names.
  func receiverOf(_ range: Range<Int>) -> ReceiverRef {
    var r = range
    while r.count >= 2, t.isPunctuation(r.lowerBound, 0x28),
      t.match(r.lowerBound) == r.upperBound - 1
    {
      r = (r.lowerBound + 1)..<(r.upperBound - 1)
    }
    guard let first = r.first else { return .none }
    if t.isPunctuation(first, 0x28) {
      let close = t.match(first)
      if isCastEnd(close) {
        if t.isText(first + 1, "NSUserDefaults") { return .standard }
        return receiverOf((close + 1)..<r.upperBound)
      }
      return .none
    }
    if t.isPunctuation(first, 0x5B), let m = parseMessage(at: first), m.close == r.upperBound - 1 {
      let inner = m.receiver
      if m.selector == "standardUserDefaults" || m.selector == "sharedUserDefaultsController" {
        return .standard
      }
      if m.selector == "values", receiverOf(inner) == .standard { return .standard }
      // `[[d dictionaryRepresentation] objectForKey:K]`: d's keys.
      if m.selector == "dictionaryRepresentation" { return receiverOf(inner) }
      if let domain = persistentDomain(m) { return domain }
      if m.selector == "initWithSuiteName:", let arg = m.arguments.first {
        if t.isText(arg.lowerBound, "nil"), arg.count == 1 { return .standard }
        return .suite(keyOf(arg))
      }
      if inner.count == 1, t.isIdentifier(inner.lowerBound) {
        let name = t.text(inner.lowerBound)
        if name.first?.isUppercase == true {
          if Self.isFrameworkType(name) { return .none }
          return m.arguments.isEmpty ? .returned(type: name, method: m.selector) : .type(name)
        }
        // `[self defaults]`: a method or property of the class, looked up like one.
        if name == "self", m.arguments.isEmpty { return .name(m.selector) }
      }
      // A message's answer the code does not say the class of (`[self store]`).
      return .unknown("")
    }
    if t.isIdentifier(first) {
      let name = t.text(first)
      // `SharedPrefs()`: what a C function of the tree returns (its name with `()`).
      if r.count == 3, t.isPunctuation(first + 1, 0x28), t.isPunctuation(first + 2, 0x29) {
        return .name(name + "()")
      }
      if r.count == 3, t.isPunctuation(first + 1, 0x2E) {
        let member = t.text(first + 2)
        if name == "NSUserDefaults", member == "standardUserDefaults" { return .standard }
        if name == "NSUserDefaultsController", member == "sharedUserDefaultsController" {
          return .standard
        }
        if name == "self" { return .name(Self.bare(member)) }
        return .none
      }
      if r.count == 3, t.isText(first + 1, "->"), name == "self" {
        return .name(Self.bare(t.text(first + 2)))
      }
      if r.count == 1 {
        if name == "self" || name == "super" { return .type(className ?? "") }
        if let bound = scope?.locals[name] {
          if let receiver = bound.receiver { return receiver }
          // A Foundation or UIKit object (an NSDictionary, a view) is never user defaults.
          if let type = bound.type, type.first?.isUppercase == true, !Self.isFrameworkType(type) {
            return .type(type)
          }
          // `id`, or a variable without a declared class: it may be.
          if bound.type == nil || bound.type == "id" { return .unknown(name) }
          return .none
        }
        if name.first?.isUppercase == true, facts.receivers[name] == nil, !name.contains("_"),
          name != name.uppercased()
        {
          return .type(name)
        }
        return .name(Self.bare(name))
      }
    }
    return .none
  }

  /// A domain kept as a dictionary: `[d persistentDomainForName:N]` (N's keys: the global
  /// domain's and the app's own are the standard ones), its `mutableCopy` or `copy`, and
  /// `[NSMutableDictionary dictionaryWithDictionary:]` of one; the keys its `setObject:forKey:`
  /// and `objectForKey:` name are that domain's (written back by `setPersistentDomain:forName:`).
  func persistentDomain(_ m: Message) -> ReceiverRef? {
    switch m.selector {
    case "persistentDomainForName:":
      guard let name = m.arguments.first else { return nil }
      var inner = receiverOf(m.receiver)
      if case .name(let n) = inner, let known = facts.receivers[n] { inner = known }
      guard inner.isDefaults else { return nil }
      if name.count == 1, t.isText(name.lowerBound, "NSGlobalDomain") { return .standard }
      if t.isPunctuation(name.lowerBound, 0x5B), let n = parseMessage(at: name.lowerBound),
        n.selector == "bundleIdentifier"
      {
        return .standard
      }
      return .suite(localKey(name))
    case "mutableCopy", "copy":
      let inner = receiverOf(m.receiver)
      return inner.isDefaults ? inner : nil
    case "dictionaryWithDictionary:", "initWithDictionary:":
      guard let given = m.arguments.first else { return nil }
      let inner = receiverOf(given)
      return inner.isDefaults ? inner : nil
    default: return nil
    }
  }

  /// Whether `value` is a domain kept as a dictionary (see `persistentDomain(_:)`, and
  /// `dictionaryRepresentation`).
  func domainCopy(_ value: Range<Int>) -> Bool {
    let r = inner(value)
    guard let first = r.first, t.isPunctuation(first, 0x5B), t.match(first) == r.upperBound - 1,
      let m = parseMessage(at: first)
    else { return false }
    return m.selector == "dictionaryRepresentation" || persistentDomain(m) != nil
  }

  /// Whether the function writes the dictionary `name` back as a domain
  /// (`setPersistentDomain:name forName:N`) after `start`.
  mutating func writesBack(_ name: String, after start: Int) -> Bool {
    let end = min(scope?.end ?? t.count, t.count)
    if writeBacks.end != end {
      // (The function's writes back, found in one pass over its body.)
      var last: [String: Int] = [:]
      var k = max(0, min(start, t.match(end - 1)))
      while k + 2 < end {
        if t.isText(k, "setPersistentDomain"), t.isPunctuation(k + 1, 0x3A), t.isIdentifier(k + 2) {
          last[t.text(k + 2)] = k
        }
        k += 1
      }
      writeBacks = (end, last)
    }
    return (writeBacks.last[name] ?? -1) > start
  }

  /// The receiver of a message, as far as this file can tell.
  func receiverOfMessage(_ m: Message) -> ReceiverRef { receiverOf(m.receiver) }

  /// A message at `open`: a use of a key when it is one of the defaults methods, else what it
  /// says of a use nearby.
  mutating func message(at open: Int) {
    // Most messages are none of the defaults methods, nor what refines one: told apart by
    // the first part of the selector, before the message is parsed.
    let close = t.match(open)
    guard close < t.count else { return }
    let first = primaryEnd(from: open + 1, limit: close)
    guard first < close, t.isIdentifier(first),
      firstWords.contains(hash(first)) || !wrapperSelectors.isEmpty
    else { return }
    guard !readEarly.contains(open), let m = parseMessage(at: open) else { return }
    if wrapperSelectors.contains(m.selector) {
      gatherWrapperCall(m)
    }
    if m.selector.hasPrefix("enumerateObjects") { bindBlockParameter(m) }
    if gatherOnly { return }
    if buildEntries(m) { return }
    if let api = DefaultsAPI.objc[m.selector] {
      use(m, api)
      return
    }
    switch m.selector {
    case "registerDefaults:":
      register(m)
    case "addSuiteNamed:":
      addSuite(m)
    case "bind:toObject:withKeyPath:options:":
      binding(m)
    default:
      if LibraryModels.objcKeySelectors[m.selector] != nil {
        libraryMessage(m)
      } else {
        refine(m)
      }
    }
  }

  func condition(at i: Int) -> String? {
    if t.token(i).conditional { return "inside a preprocessor condition (#if)" }
    return ifs.lazy.compactMap { self.runDependence($0.condition) }.first
  }

  /// Why a condition makes the defaults inside it depend on the run (an OS version, the
  /// locale), or nil.
  func runDependence(_ condition: Range<Int>) -> String? {
    for k in condition where t.isIdentifier(k) && DefaultsAPI.conditionWords.contains(t.text(k)) {
      return "inside `if (\(t.source(condition)))`"
    }
    return nil
  }

  /// The property a value read at `open` goes to: `x.prop = [...]`, `_prop = [...]`, a getter
  /// method's `return`.
  func assignedName(before open: Int) -> String? {
    var k = open - 1
    // Through a cast, and the other side of a presence test (`x = [d objectForKey:K] ? … : …`).
    if t.isPunctuation(k, 0x29), isCastEnd(k) { k = t.match(k) - 1 }
    if t.isPunctuation(k, 0x3D), t.isIdentifier(k - 1) {
      let name = t.text(k - 1)
      let member = t.isPunctuation(k - 2, 0x2E) || t.isText(k - 2, "->")
      let statement =
        t.isPunctuation(k - 2, 0x3B) || t.isPunctuation(k - 2, 0x7B) || t.isPunctuation(k - 2, 0x7D)
        || t.isPunctuation(k - 2, 0x29)
      if member || name.hasPrefix("_") || statement { return Self.bare(name) }
      return nil
    }
    if t.isText(k, "return"), let property = scope?.property { return property }
    return nil
  }

  /// A name for a value set: a property or an instance variable (`isSoundEnabled`,
  /// `self.rankingSize`, `_size`).
  func valueName(_ range: Range<Int>) -> String? {
    // In a setter method (`setSoundEnabled:`), its property.
    let setter = scope?.parameters.count == 1 ? scope?.property : nil
    if range.count == 1, t.isIdentifier(range.lowerBound) {
      let name = t.text(range.lowerBound)
      if scope?.parameters.contains(name) == true { return setter }
      // A local variable's name says little; a constant's or a literal's nothing.
      if scope?.locals[name] != nil || name.first?.isUppercase == true
        || ["nil", "true", "false", "value", "newValue"].contains(name)
      {
        return setter
      }
      return Self.bare(name)
    }
    if range.count == 3, t.isIdentifier(range.lowerBound),
      t.isPunctuation(range.lowerBound + 1, 0x2E),
      t.isIdentifier(range.lowerBound + 2)
    {
      return Self.bare(t.text(range.lowerBound + 2))
    }
    return setter
  }

  /// A use of a key through one of the defaults methods.
  mutating func use(_ m: Message, _ api: DefaultsAPI.Method) {
    guard api.key < m.arguments.count else { return }
    var receiver = receiverOfMessage(m)
    guard receiver != .none else { return }
    // A copy of a domain the function changes but never writes back changes no domain (a
    // crash report's copy of the settings, its private keys taken out).
    if api.access != .get, api.access != .presence, m.receiver.count == 1,
      scope?.locals[t.text(m.receiver.lowerBound)]?.domainCopy == true,
      !writesBack(t.text(m.receiver.lowerBound), after: m.close)
    {
      return
    }
    if api.access != .get, api.access != .presence, addedSuite(m.receiver) { receiver = .standard }
    // A receiver not known either way is kept only where it may be user defaults (a name is
    // looked up across the tree first).
    if case .unknown = receiver {
      // Its text only now (most receivers are never reported).
      receiver = .unknown(t.source(m.receiver))
      if !DefaultsAPI.mayBeDefaults(receiver, selector: m.selector) { return }
    }
    let key = keyOf(m.arguments[api.key])
    var use = SourceUse(
      key: key, receiver: receiver, access: api.access, method: m.selector, type: api.type,
      line: t.line(m.open))
    use.condition = condition(at: m.open)
    if presence.contains(m.open) {
      use.access = .presence
      use.type = nil
    }
    if let v = api.value, v < m.arguments.count {
      let valueRange = m.arguments[v]
      // A dictionary the function builds, set as a whole: a dictionary (its entries are not
      // read for a value a setter stores).
      let built =
        valueRange.count == 1 && t.isIdentifier(valueRange.lowerBound)
        && scope?.locals[t.text(valueRange.lowerBound)]?.entries != nil
      let value =
        built ? .computed(t.text(valueRange.lowerBound), .dictionary) : valueOf(valueRange)
      if api.type == nil {
        use.type = value.type
        if valueRange.count == 1, t.isIdentifier(valueRange.lowerBound),
          let local = scope?.locals[t.text(valueRange.lowerBound)], use.type == nil || local.json
        {
          use.takeType(of: local)
        }
        if t.contains(valueRange, "dataWithJSONObject") { use.takeJSONType() }
        // `setObject:@(flag) forKey:K` in `- (void)setFlag:(BOOL)flag`: the parameter's
        // declared type (a setter a macro writes for each setting).
        if use.type == nil, case .name(let n) = value, let s = scope,
          let p = s.parameters.firstIndex(of: n), p < s.parameterTypes.count,
          let declared = s.parameterTypes[p], let type = DefaultsAPI.type(ofClass: declared)
        {
          use.type = type
          use.typeReason = "the parameter \(n) is declared \(declared)"
        }
      }
      if case .value = value { use.value = value }
      if valueRange.count == 1, scope?.parameters.contains(t.text(valueRange.lowerBound)) == true {
        use.valueParameter = t.text(valueRange.lowerBound)
      }
      use.name = valueName(valueRange)
    } else if api.access == .get {
      use.name = assignedName(before: m.open)
      if api.refinable { refineInPlace(&use, m) }
      fallbackAfter(m, &use)
      if DefaultsAPI.presenceGetters.contains(m.selector), !presence.contains(m.open),
        let (absent, name) = ternaryAfterPresence(m)
      {
        use.access = .presence
        use.type = nil
        record(use, at: m.open)
        var fallback = use
        fallback.value = absent
        fallback.defaultSource = .fallback
        fallback.name = name
        fallback.method = m.selector + " == nil ? …"
        record(fallback, at: -1)
        return
      }
    }
    record(use, at: m.open)
  }

  /// From `start` to the end of an expression: `;`, `,`, or a closing bracket at this level.
  func expressionRange(from start: Int) -> Range<Int> {
    var k = start
    var questions = 0
    while k < t.count {
      if t.isPunctuation(k, 0x3B) || t.isPunctuation(k, 0x2C) || t.isPunctuation(k, 0x29)
        || t.isPunctuation(k, 0x5D) || t.isPunctuation(k, 0x7D)
      {
        break
      }
      if t.isPunctuation(k, 0x3F) { questions += 1 }
      // `[self setValue: n ?: @(d) forKey: @"x"]`: the message's next label ends it.
      if questions == 0, k > start, t.isIdentifier(k), t.isPunctuation(k + 1, 0x3A) { break }
      if t.isPunctuation(k, 0x3A) {
        if questions == 0 { break }
        questions -= 1
      }
      if t.isPunctuation(k, 0x28) || t.isPunctuation(k, 0x5B) || t.isPunctuation(k, 0x7B) {
        k = t.match(k)
      }
      k += 1
    }
    return start..<min(k, t.count)
  }

  mutating func record(_ use: SourceUse, at open: Int) {
    var use = use
    use.file = 0
    if scope?.isTemplate(use) == true {
      appendTemplate(use, at: open)
      return
    }
    // (The variables read in a block of their own: a copy of them alive while the function's
    // are changed would copy them all, each use.)
    var template = false
    var use2 = use
    do {
      // A key a parameter makes through a local (`NSString *k = [@"x." stringByAppendingString:
      // name]`): the wrapper's template too.
      let locals = scope?.locals ?? [:]
      let selector = scope?.selector
      let throughLocals =
        locals.isEmpty ? use.key : use.key.substituting { name in locals[name]?.key }
      if throughLocals != use.key,
        scope?.isTemplate(
          SourceUse(
            key: throughLocals, receiver: use.receiver, access: use.access, method: use.method,
            line: use.line)) == true
      {
        use.key = throughLocals
        template = true
      } else {
        // A key an instance variable or property holds (`_key`, `self.key`): its class's.
        if let className, scope != nil,
          use.key.names.contains(where: {
            ($0.hasPrefix("_") || $0.hasPrefix("self.") || keptMembers.contains($0))
              && locals[$0] == nil
          })
        {
          use.ownerType = className
        }
        // A variable of the function named as the key: known only at run time, unless it
        // holds a constant.
        use2 = use
        use2.key = use.key.substituting { name in
          if let local = locals[name] {
            return local.key ?? .runtime(name)
          }
          if name == "_cmd", let selector { return .literal(selector) }
          return nil
        }
      }
    }
    if template {
      appendTemplate(use, at: open)
      return
    }
    if open >= 0 { useAt[open] = facts.uses.count }
    facts.uses.append(use2)
    // The variable the value went into: what the code does with it later refines the type.
    if open >= 0, let names = awaitingUse.removeValue(forKey: open) {
      for name in names {
        guard let local = scope?.locals[name], local.use == -(open + 1) else { continue }
        scope?.locals[name]?.use = facts.uses.count - 1
        if use2.type == nil, let type = local.type, let planType = DefaultsAPI.type(ofClass: type) {
          facts.uses[facts.uses.count - 1].type = planType
          facts.uses[facts.uses.count - 1].typeReason = "assigned to \(type) *"
        }
      }
    }
  }

  /// Variable `name` given the answer of the message at `open` before the message is read:
  /// the mark it holds until then (the message's use, or template, replaces it).
  mutating func awaitAnswer(of open: Int, into name: String) -> Int {
    awaitingUse[open, default: []].append(name)
    return -(open + 1)
  }

  /// A wrapper's template: the variable its answer goes into holds it.
  mutating func appendTemplate(_ use: SourceUse, at open: Int) {
    guard let index = scope?.templates.count else { return }
    var use = use
    for name in open >= 0 ? awaitingUse.removeValue(forKey: open) ?? [] : [] {
      guard let local = scope?.locals[name], local.use == -(open + 1) else { continue }
      scope?.locals[name]?.use = nil
      scope?.locals[name]?.template = index
      if use.type == nil, let type = local.type, let planType = DefaultsAPI.type(ofClass: type) {
        use.type = planType
        use.typeReason = "assigned to \(type) *"
      }
    }
    if open >= 0 { templateAt[open] = index }
    scope?.templates.append(use)
  }
}
