import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Calls to user defaults: each with its receiver, key and what the code does with its value.
extension SwiftReader {
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
    /// `Pref<String>(key: "k")`: the type argument it is made with.
    var generic: String? = nil
  }

  func parseCall(at i: Int) -> Call? {
    guard t.isPunctuation(i + 1, 0x28) else { return nil }
    let open = i + 1
    let close = t.match(open)
    guard close <= t.count else { return nil }
    let (labels, arguments) = labelledArguments((open + 1)..<min(close, t.count))
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

  /// A call's arguments between its brackets: each one's label (`_` for none) and its value.
  func labelledArguments(_ range: Range<Int>) -> (labels: [String], arguments: [Range<Int>]) {
    var labels: [String] = []
    var arguments: [Range<Int>] = []
    for part in t.commaSeparated(range) {
      if t.isIdentifier(part.lowerBound), t.isPunctuation(part.lowerBound + 1, 0x3A), part.count > 2
      {
        labels.append(t.text(part.lowerBound))
        arguments.append((part.lowerBound + 2)..<part.upperBound)
      } else {
        labels.append("_")
        arguments.append(part)
      }
    }
    return (labels, arguments)
  }

  /// `self[.item]` where the tree declares a subscript that reads or writes user defaults: a
  /// call of `subscript(_:)` (matched to the subscript of the type it is written in only).
  func subscriptCall(at i: Int) -> Call? {
    guard wrapperSelectors.contains(where: { $0.hasPrefix("subscript(") }) else { return nil }
    return subscriptCall(at: i, open: i + 1, receiver: i..<(i + 1))
  }

  /// The call of `subscript(…)` whose brackets open at `open`, made on `receiver`; nil for
  /// empty brackets.
  func subscriptCall(at i: Int, open: Int, receiver: Range<Int>) -> Call? {
    let close = t.match(open)
    guard close < t.count, close > open + 1 else { return nil }
    let (labels, arguments) = labelledArguments((open + 1)..<close)
    return Call(
      name: i, open: open, close: close, receiver: receiver,
      selector: "subscript(" + labels.map { $0 + ":" }.joined() + ")", labels: labels,
      arguments: arguments)
  }

  /// `UserDefaults.standard[.synced]`, `group?[.seen] = true`: a call of a subscript an
  /// extension of UserDefaults (or of a protocol they are made to conform to) declares, on
  /// user defaults the reader knows (the standard ones, a suite, a static member of
  /// UserDefaults, a variable bound to them); nil for any other subscript.
  func defaultsSubscriptCall(at i: Int) -> Call? {
    var open = i + 1
    if t.isPunctuation(open, 0x3F) || t.isPunctuation(open, 0x21) { open += 1 }
    guard t.isPunctuation(open, 0x5B), !t.isText(i, "self"),
      wrapperSelectors.contains(where: { $0.hasPrefix("subscript(") })
    else { return nil }
    let receiver = receiverStart(before: i + 1)..<(i + 1)
    switch receiverOf(receiver) {
    case .standard, .suite: break
    case .name(let n) where n.hasPrefix("UserDefaults.") || facts.receivers[n]?.isDefaults == true:
      break
    default: return nil
    }
    return subscriptCall(at: i, open: open, receiver: receiver)
  }

  /// The first token of the postfix expression that ends before `end` (`UserDefaults.standard`,
  /// `self.defaults`, `UserDefaults(suiteName: "g")!`).
  func receiverStart(before end: Int) -> Int {
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
      if inDefaultsExtension { return .extendedDefaults }
      // A method of a subclass of UserDefaults (`register(defaults:)` in its initializer):
      // its own, as `self.register(…)`.
      if let type = types.last, type.kind == "class",
        facts.superclasses[type.name] == "UserDefaults"
      {
        return .type(type.name)
      }
      return .none
    }
    var r = range
    while let last = r.last, r.count > 1, t.isPunctuation(last, 0x21) || t.isPunctuation(last, 0x3F)
    {
      r = r.lowerBound..<last
    }
    if r.isEmpty { return inDefaultsExtension ? .extendedDefaults : .none }
    let first = r.lowerBound
    // `.standard` where a UserDefaults is expected.
    if r.count == 2, t.isPunctuation(first, 0x2E), t.isText(first + 1, "standard") {
      return .standard
    }
    // `.init(suiteName: G)` where a UserDefaults is expected (no other type takes that label).
    if t.isPunctuation(first, 0x2E), t.isText(first + 1, "init"), t.isPunctuation(first + 2, 0x28),
      t.match(first + 2) == r.upperBound - 1, t.isText(first + 3, "suiteName"),
      t.isPunctuation(first + 4, 0x3A)
    {
      return .suite(localKey((first + 5)..<(r.upperBound - 1)))
    }
    if t.isText(first, "UserDefaults") {
      if r.count == 3, t.isPunctuation(first + 1, 0x2E), t.isText(first + 2, "standard") {
        return .standard
      }
      // `UserDefaults.group`: a static member an extension declares (looked up in the tree).
      if r.count == 3, t.isPunctuation(first + 1, 0x2E), t.isIdentifier(first + 2) {
        return .name("UserDefaults." + t.text(first + 2))
      }
      // (`UserDefaults.init(suiteName: G)` is `UserDefaults(suiteName: G)`.)
      let open =
        t.isPunctuation(first + 1, 0x2E) && t.isText(first + 2, "init") ? first + 3 : first + 1
      if t.isPunctuation(open, 0x28), t.match(open) == r.upperBound - 1 {
        if r.count == open - first + 2 { return .standard }
        if t.isText(open + 1, "suiteName") {
          let arg = (open + 3)..<(r.upperBound - 1)
          if arg.count == 1, t.isText(arg.lowerBound, "nil") { return .standard }
          return .suite(localKey(arg))
        }
      }
      return .none
    }
    // `TrackedUserDefaults(suiteName: G)`: a subclass of UserDefaults made for a suite.
    if t.isIdentifier(first), t.text(first).hasSuffix("UserDefaults"),
      t.isPunctuation(first + 1, 0x28), t.match(first + 1) == r.upperBound - 1,
      t.isText(first + 2, "suiteName"), t.isPunctuation(first + 3, 0x3A)
    {
      return .suite(localKey((first + 4)..<(r.upperBound - 1)))
    }
    if let adapted = adapterReceiver(r) { return adapted }
    if r.count == 1 {
      let name = t.text(first)
      if name == "self" { return inDefaultsExtension ? .extendedDefaults : .type(typeName ?? "") }
      // `standard.bool(forKey: K)` in a static function of an extension of UserDefaults.
      if name == "standard", inDefaultsExtension, scope?.locals[name] == nil { return .standard }
      if let local = scope?.locals[name] {
        if let receiver = local.receiver { return receiver }
        // A variable of a declared class is that class; one without may be user defaults.
        if let type = local.type { return type.hasPrefix("UserDefaults") ? .standard : .type(type) }
        return .unknown(name)
      }
      // A parameter of the app's own type (`_ d: UserDefaulting`, a protocol UserDefaults is
      // made to conform to): that type, which the model follows.
      if let s = scope, let index = s.parameters.firstIndex(of: name),
        index < s.parameterTypes.count,
        let type = s.parameterTypes[index], let first = type.first, first.isUppercase,
        type.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
      {
        return .type(type)
      }
      // (`Self.value(for: key)`: the type's own.)
      if name == "Self", let typeName { return .type(typeName) }
      if name.first?.isUppercase == true { return .type(name) }
      return .name(name)
    }
    if r.count == 3, t.isPunctuation(first + 1, 0x2E), t.isIdentifier(first + 2) {
      let head = t.text(first)
      let member = t.text(first + 2)
      if head == "self" { return .name(member) }
      if head == "NSUbiquitousKeyValueStore" { return .none }
      return .name(head + "." + member)
    }
    // `HelperTools.defaultsDB()`: what a type's function without arguments returns.
    if r.count == 5, t.isIdentifier(first), t.isPunctuation(first + 1, 0x2E),
      t.isIdentifier(first + 2), t.isPunctuation(first + 3, 0x28), t.isPunctuation(first + 4, 0x29),
      t.text(first).first?.isUppercase == true
    {
      return .returned(type: t.text(first), method: t.text(first + 2))
    }
    // `AppEnvironment.current.defaults`: a chain of members, named as written.
    if r.count >= 5, r.count % 2 == 1,
      stride(from: first, to: r.upperBound, by: 2).allSatisfy({ t.isIdentifier($0) }),
      stride(from: first + 1, to: r.upperBound, by: 2).allSatisfy({ t.isPunctuation($0, 0x2E) })
    {
      let names = stride(from: first, to: r.upperBound, by: 2).map { t.text($0) }
      return .name((names.first == "self" ? names.dropFirst() : names[...]).joined(separator: "."))
    }
    return .unknown("")
  }

  mutating func call(at i: Int, parsed: Call? = nil) {
    guard !readEarly.contains(i), let c = parsed ?? parseCall(at: i) else { return }
    if !gatherOnly { inlineShortcutNames(c) }
    let ownCall = c.receiver == nil || c.receiver.map({ t.source($0) }) == "self"
    if let f = scope?.selector, ownCall {
      // A call of the type's own function: what a first launch's writes may go through.
      let callee = Self.baseName(c.selector)
      facts.callees[Self.baseName(f), default: []].insert(callee)
      if firstStatementWhenAbsent(c) { facts.seedCalls.insert(callee) }
    }
    // User defaults given to a parameter (`save(toUserDefaults: suite)`), in a function or to
    // an initializer anywhere (`static let shared = Store(defaults: UserDefaults.group)`).
    if ownCall && (scope?.selector != nil || t.text(c.name).first?.isUppercase == true) {
      // (A name only as a local holds it, a parameter's own included; or a static member of
      // UserDefaults, `UserDefaults.group`, which the tree declares.)
      for (index, argument) in c.arguments.enumerated() {
        let bound =
          argument.count == 1 ? scope?.locals[t.text(argument.lowerBound)]?.receiver : nil
        let given = bound ?? receiverOf(beforeCoalescing(argument))
        switch given {
        case .standard, .suite: break
        case .name where bound != nil: break
        case .name(let n) where n.hasPrefix("UserDefaults."): break
        default: continue
        }
        let name = Self.parameterName(c.selector, index)
        if case .suite? = facts.argumentReceivers[name] { continue }
        facts.argumentReceivers[name] = given
      }
    }
    let typePrefix = String(c.selector.prefix { $0 != "(" }) + "("
    if wrapperSelectors.contains(c.selector) || wrapperSelectors.contains(typePrefix) {
      let receiver = receiverOf(c.receiver)
      var call = WrapperCall(
        selector: c.selector, receiver: receiver, arguments: c.arguments.map(memberOrLocalKey),
        values: c.arguments.map { valueOf($0) }, name: assignedName(before: c),
        condition: conditionText(at: i), line: t.line(i))
      call.labels = c.labels
      call.callerName = functionName
      call.callerType = typeName
      if receiver == .extendedDefaults, let s = scope, s.selector == nil {
        // `self[#function]` in a property of an extension of UserDefaults: the user defaults
        // its uses are made on (`UserDefaults.shared.x`) are that property's.
        call.extensionProperty = s.property
      }
      wrapperPresence(c, &call)
      call.receivers = c.arguments.map(argumentReceiver)
      call.enclosing = enclosing(of: call.arguments)
      call.declaredType = declaredType(before: c) ?? returnedType(c) ?? c.generic
      call.fallback = fallbackAfter(c) ?? guardFallback(c) ?? ifLetFallback(c)
      if call.declaredType == nil { call.declaredType = closureRawType(after: c) }
      for argument in c.arguments {
        if let published = publishedValue(argument) {
          // `save(value, forKey: K)` in `$p.sink { value in … }`: p's type and initial value.
          call.declaredType = published.stored
          call.givenType = DefaultsAPI.type(ofClass: published.stored)
          call.absentValue = published.absent
          if call.name == nil { call.name = published.property }
        } else if argument.count == 1, let local = scope?.locals[t.text(argument.lowerBound)],
          local.json
        {
          call.givenType = .json
        } else if let stored = memberRawValue(argument) {
          // `save(value: mode.rawValue, key: K)` of a property declared `var mode: Mode`.
          call.declaredType = call.declaredType ?? stored
        } else if let property = inoutProperty(argument) {
          // `ifPresent(key: K, assign: &p)`: p keeps its initial value when the key is absent.
          call.declaredType = call.declaredType ?? property.type
          call.fallback = call.fallback ?? property.initial
          if call.name == nil { call.name = property.name }
        }
      }
      if t.isText(c.close + 1, "as"),
        t.isPunctuation(c.close + 2, 0x3F) || t.isPunctuation(c.close + 2, 0x21)
      {
        let start = c.close + 3
        call.castType = t.source(start..<typeEnd(from: start)).replacing(" ", with: "")
      } else if t.isText(c.close + 1, "as"),
        t.isIdentifier(c.close + 2) || t.isPunctuation(c.close + 2, 0x5B)
      {
        // `read() as String?`: a generic wrapper's answer, the type it is made.
        let start = c.close + 2
        call.castType = t.source(start..<typeEnd(from: start)).replacing(" ", with: "")
          .replacing("?", with: "")
      }
      facts.wrapperCalls.append(call)
    }
    if gatherOnly { return }
    if let api = DefaultsAPI.swift[c.selector] {
      use(c, api)
      return
    }
    if let (api, fallback) = getterWithFallback(c) {
      use(c, api, fallback: fallback)
      return
    }
    if libraryOrRepresentationCall(c, at: i) { return }
    if c.selector == "register(defaults:)" {
      register(c)
    } else if c.selector.hasPrefix("decode(_:from:)"), c.arguments.count == 2 {
      // A PropertyListDecoder reads a property list's bytes (data), not JSON.
      if let r = c.receiver, t.contains(r, "PropertyListDecoder") {
        refine(c.arguments[1], as: .data, reason: "decoded by PropertyListDecoder")
      } else {
        refine(c.arguments[1], as: .json, reason: "decoded by JSONDecoder")
      }
    } else if c.selector.hasPrefix("jsonObject(with:") {
      refine(c.arguments[0], as: .json, reason: "parsed by JSONSerialization")
    } else if c.selector.hasSuffix("(rawValue:)"),
      t.text(c.name).first?.isUppercase == true
    {
      madeFromRawValue(c)
    }
  }

  mutating func use(_ c: Call, _ api: DefaultsAPI.Method, fallback: Range<Int>? = nil) {
    guard api.key < c.arguments.count else { return }
    var receiver = receiverOf(c.receiver)
    if receiver == .none, c.receiver == nil, let type = typeName {
      // `object(forKey: key)` inside `enum Store`: Store's own method (a wrapper when Store
      // declares one of that name).
      receiver = .type(type)
    }
    guard receiver != .none else { return }
    if case .unknown = receiver {
      receiver = .unknown(c.receiver.map { t.source($0) } ?? "")
      if !DefaultsAPI.mayBeDefaults(receiver, selector: c.selector) { return }
    }
    var use = SourceUse(
      key: keyOf(c.arguments[api.key]), receiver: receiver, access: api.access,
      method: c.selector, type: api.type, line: t.line(c.name))
    use.receiverOwner = receiverOwner(of: receiver)
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
        // (`save(value: T)` of a protocol: each conforming type's `typealias T`.)
        if use.type == nil { use.storedType = type }
      }
      if use.type == nil, valueRange.count == 1,
        let local = scope?.locals[t.text(valueRange.lowerBound)]
      {
        use.takeType(of: local)
      }
      if use.type == nil,
        valueRange.count == 1 || valueRange.count == 3 && t.isText(valueRange.lowerBound, "self"),
        let type = types.last?.name,
        let declared = facts.members[type]?.declared[t.text(valueRange.upperBound - 1)]
      {
        // `set(value, forKey: key)` of a stored property declared `var value: Float`.
        use.type = DefaultsAPI.type(ofClass: declared.replacing("?", with: ""))
        if use.type == nil { use.storedType = declared }
      }
      if use.type == nil, let stored = rawValueOwner(valueRange) {
        // `set(newValue?.rawValue, forKey: K)` in `var mode: Mode? { … set { … } }`.
        use.storedType = stored
      }
      if t.contains(valueRange, "JSONEncoder") || isJSONLocal(valueRange) {
        use.takeJSONType()
      } else if t.contains(valueRange, "PropertyListEncoder") {
        // `set(try? PropertyListEncoder().encode(rules), forKey: K)`: a property list's bytes.
        use.type = .data
        use.typeReason = "PropertyListEncoder's data"
      }
      if let published = publishedValue(valueRange) {
        // In `$p.sink { value in … }`: stored as p's type; p's initial value when absent.
        use.storedType = published.stored
        if use.type == nil { use.type = DefaultsAPI.type(ofClass: published.stored) }
        use.absentValue = published.absent
        use.name = published.property
      }
      if case .value = value { use.value = value }
      if api.access == .set, let f = scope?.selector {
        switch value {
        case .value, .name:
          use.seed = SeedWrite(function: Self.baseName(f), type: typeName, value: value)
        default: break
        }
      }
      if valueRange.count == 1, scope?.parameters.contains(t.text(valueRange.lowerBound)) == true {
        use.valueParameter = t.text(valueRange.lowerBound)
      }
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
      if api.refinable, let (type, end) = cast(at: k) {
        if !Self.type(&use, byCast: type, reason: "as? \(type)"), type.hasSuffix(".RawValue") {
          // `as? Mode.RawValue`: an enum stored by its raw value.
          use.storedType = String(type.dropLast(9))
        }
        k = end
      }
      let opened = (c.receiver?.lowerBound ?? c.name) - 1
      // `(d.object(forKey: K) as? NSNumber)?.boolValue ?? false`: the number's conversion types
      // it; its fallback follows.
      if k > c.close + 1, t.isPunctuation(k, 0x29), t.match(k) == opened {
        var j = k + 1
        if t.isPunctuation(j, 0x3F) || t.isText(j, "?") { j += 1 }
        if t.isPunctuation(j, 0x2E), t.isIdentifier(j + 1),
          let type = DefaultsAPI.refiners[t.text(j + 1)]
        {
          if use.type == nil {
            use.type = type
            use.typeReason = "." + t.text(j + 1)
          }
          k = j + 2
        }
      }
      // `(d.object(forKey: K) as? [String]) ?? []`: the fallback after the parentheses.
      if k > c.close + 1, t.isPunctuation(k, 0x29), t.match(k) == opened, t.isText(k + 1, "??") {
        k += 1
      }
      // (After a getter that answers a number or a flag, `??` is the optional receiver's: the
      // key's absence gives 0 or false, never nil.)
      if t.isText(k, "??"), DefaultsAPI.presenceGetters.contains(c.selector) {
        let range = coalescedRange(from: k + 1)
        use.value = valueOf(range)
        use.defaultSource = .fallback
        // `Theme(rawValue: d.string(forKey: K) ?? "") ?? .light`: no case's raw value is
        // empty, so the enum's own fallback is what the app gets.
        if case .value(.string(""))? = use.value, let outer = rawValueFallback(after: range) {
          use.value = outer
        }
        // `(d.object(forKey: K) ?? []) as! [String]`: the cast of the whole types the key.
        let close = range.upperBound
        if api.refinable, use.type == nil, t.isPunctuation(close, 0x29), t.match(close) == opened,
          let (type, _) = cast(at: close + 1)
        {
          _ = Self.type(&use, byCast: type, reason: "as! \(type)")
        }
        if use.type == nil, case .value = use.value { use.type = use.value?.type }
      }
      // `defaults.object(forKey: K) == nil` in a condition: a presence test.
      if DefaultsAPI.presenceGetters.contains(c.selector), t.isText(k, "==") || t.isText(k, "!="),
        t.isText(k + 1, "nil")
      {
        use.access = .presence
        use.type = nil
        use.trueWhenPresent = t.isText(k, "!=")
        if let absent = ternaryAbsent(
          after: k + 2, key: c.arguments[api.key], nil: t.isText(k, "=="))
        {
          use.value = valueOf(absent)
          use.defaultSource = .fallback
        }
      }
    }
    if let fallback {
      use.value = valueOf(fallback)
      use.defaultSource = .fallback
    }
    record(use, at: c.name)
  }

  mutating func record(_ use: SourceUse, at i: Int) {
    var use2 = use
    let locals = scope?.locals ?? [:]
    use2.key = parameterMembers(use.key).substituting { name in
      KeyExpr.local(name) { locals[$0].map { $0.key } }
    }
    if let pending = pendingPresence, i >= pending.start, i <= pending.start + 8 {
      // The getter of a presence test a variable holds.
      use2.access = .presence
      use2.type = nil
      scope?.locals[pending.name]?.presence = (use2, pending.whenPresent)
      pendingPresence = nil
    }
    // A key a parameter makes (through a local too: `let key = "done.\(name)"`): the
    // wrapper's template.
    if scope?.isTemplate(use2) == true {
      if let s = scope, i >= 0 {
        for (name, local) in s.locals
        where local.use.map({ $0 < 0 && -($0 + 1) <= i && i <= -($0 + 1) + 6 }) == true {
          scope?.locals[name]?.use = nil
          scope?.locals[name]?.template = s.templates.count
        }
      }
      scope?.templates.append(use2)
      return
    }
    // A key a stored property holds (`self.key`): its type's. (Declared before or after the
    // use: a member's name, not a local's nor a parameter's, that an initializer of the type
    // sets is looked up over the whole tree.)
    if let type = types.last?.name,
      use2.key.names.contains(where: { name in
        facts.members[type]?.stored.contains(name) == true
          || name.first?.isLowercase == true && !name.contains(".")
            && scope?.locals[name] == nil && scope?.parameters.contains(name) != true
          || name.hasPrefix("self.")
      })
    {
      use2.ownerType = type
    }
    if use2.receiver == .extendedDefaults, let s = scope, s.selector == nil, s.property != nil {
      use2.extensionProperty = s.property
    } else if use2.receiver == .extendedDefaults, let s = scope, s.parameters.isEmpty,
      let selector = s.selector, selector.hasSuffix("()"), selector != "init()"
    {
      // A method of the extension without parameters (`func removeLegacySettings()`): the
      // user defaults its calls are made on, as a property's accesses.
      use2.extensionProperty = String(selector.dropLast(2))
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
}
