import PreferencesMigration

extension SwiftReader {
  /// The labels of a getter's fallback in the extensions of UserDefaults packages give
  /// (`bool(forKey: K, fallback: true)`).
  static let fallbackLabels: Set<String> = ["fallback", "default", "defaultValue", "or"]

  /// `UserDefaults.standard.bool(forKey: K, fallback: true)`: a getter with a fallback that
  /// an extension outside the tree (a package's) adds to user defaults the code names: the
  /// getter it extends, and its fallback's argument. (A wrapper of that name the tree
  /// declares is followed as a wrapper too.)
  func getterWithFallback(_ c: Call) -> (DefaultsAPI.Method, Range<Int>)? {
    guard c.labels.count == 2, c.arguments.count == 2, c.labels[0] == "forKey",
      Self.fallbackLabels.contains(c.labels[1]),
      let api = DefaultsAPI.swift[t.text(c.name) + "(forKey:)"], api.access == .get
    else { return nil }
    switch receiverOf(c.receiver) {
    case .standard, .suite: return (api, c.arguments[1])
    default: return nil
    }
  }
}

extension SwiftReader {
  /// `cell.defaultKey = "SwipeActions"`: a value given to a member that keeps a key for its
  /// type's defaults calls (see ``ScanModel/addMemberSetter(_:)``), as a call of
  /// `defaultKey=` with that one argument.
  mutating func memberAssignment(at i: Int) {
    let value = expressionRange(from: i + 2)
    guard !value.isEmpty else { return }
    var call = WrapperCall(
      selector: SourceWrapper.assignment(to: t.text(i)), receiver: .none,
      arguments: [localKey(value)], values: [valueOf(value)], name: nil,
      condition: conditionText(at: i), line: t.line(i))
    call.labels = ["newValue"]
    call.receivers = [nil]
    facts.wrapperCalls.append(call)
  }
}

extension SwiftReader {
  /// `{ … return "a" … return c ? "b" : "c" … }()`: a closure run once to make a constant (a
  /// key chosen under `#if`, or by a test at run time), each key its returns give; nil when
  /// `value` is no such closure or a return gives a key not known before run time.
  func closureKey(_ value: Range<Int>) -> KeyExpr? {
    // (The call may be on the closing brace's line, after the expression's end.)
    let open = value.lowerBound
    guard value.count >= 2, t.isPunctuation(open, 0x7B) else { return nil }
    let close = t.match(open)
    guard close + 2 < t.count, close + 3 >= value.upperBound, t.isPunctuation(close + 1, 0x28),
      t.isPunctuation(close + 2, 0x29)
    else { return nil }
    var keys: [KeyExpr] = []
    // (A return of an `#else` branch first: the build without the condition's flag, whose
    // name a suite made of it takes, `#if BETA return "x.beta" #else return "x" #endif`.)
    var later: [KeyExpr] = []
    var k = open + 1
    while k < close {
      // A closure or a function inside returns for itself.
      if t.isPunctuation(k, 0x7B) {
        k = t.match(k) + 1
        continue
      }
      if t.isText(k, "return") {
        let returned = expressionRange(from: k + 1)
        // `test ? "a" : "b"`: either.
        let branches = ternaryBranches(returned).map { [$0.0, $0.1] } ?? [returned]
        for branch in branches {
          let key = keyOf(branch)
          switch key {
          case .literal, .oneOf:
            if t.token(k).alternative {
              if !later.contains(key) { later.append(key) }
            } else if !keys.contains(key) {
              keys.append(key)
            }
          default: return nil
          }
        }
        k = max(returned.upperBound, k + 1)
        continue
      }
      k += 1
    }
    keys = later + keys.filter { !later.contains($0) }
    if keys.isEmpty { return nil }
    return keys.count == 1 ? keys[0] : .oneOf(keys)
  }
}

extension SwiftReader {
  /// The parameter of a dictionary type (`_ configuration: [Key: Any]`) that `name` is, or that
  /// the local `name` was made from: a registration of what the caller gives.
  func givenDictionary(_ name: String) -> String? {
    guard let s = scope, s.selector != nil else { return nil }
    if let p = s.locals[name]?.parameter { return p }
    guard let index = s.parameters.firstIndex(of: name), index < s.parameterTypes.count,
      let type = s.parameterTypes[index], DefaultsAPI.isDictionaryType(type)
    else { return nil }
    return name
  }

  /// `let tuple = configuration.map { … }` of a dictionary parameter (or of a local made from
  /// one): the parameter, for a registration of it later.
  func madeFromGivenDictionary(_ value: Range<Int>) -> String? {
    var found: String?
    for k in value where t.isIdentifier(k) && !t.isPunctuation(k - 1, 0x2E) {
      guard let p = givenDictionary(t.text(k)) else { continue }
      if found != nil, found != p { return nil }
      found = p
    }
    return found
  }

  /// The user defaults a closure that initializes a property makes (its first
  /// `UserDefaults(suiteName:)` or `UserDefaults.standard`).
  func madeInClosure(_ range: Range<Int>) -> ReceiverRef? {
    // A closure that returns one of several (`if lite { return .standard } else { return
    // group ?? .standard }`): the suite, where the app keeps its settings; the standard
    // domain only when no return gives one.
    // (A return of an `#else` branch is the default build's, `#if DEBUG return debugSuite
    // #else return .standard #endif`: the others' are not looked at.)
    var standard = false
    let returns = range.filter { t.isText($0, "return") }
    let later = returns.filter { t.token($0).alternative }
    for k in later.isEmpty ? returns : later {
      let value = beforeCoalescing(expressionRange(from: k + 1))
      if value.count == 1, let bound = facts.receivers[t.text(value.lowerBound)],
        case .suite = bound
      {
        return bound
      }
      let given = receiverOf(value)
      switch given {
      case .suite: return given
      case .name(let n):
        if let bound = facts.receivers[n], case .suite = bound { return bound }
      case .standard: standard = true
      default: break
      }
    }
    if standard { return .standard }
    for k in range where t.isText(k, "UserDefaults") {
      if t.isPunctuation(k + 1, 0x28) {
        let receiver = receiverOf(k..<(t.match(k + 1) + 1))
        if receiver != .none { return receiver }
      }
      if t.isPunctuation(k + 1, 0x2E), t.isText(k + 2, "standard") { return .standard }
    }
    return nil
  }

  /// `let d = X` (or `guard let`, `if let`) of a body ending `return d`: X.
  func returnedLocal(in body: Range<Int>) -> Range<Int>? {
    guard body.count >= 3, t.isIdentifier(body.upperBound - 1),
      t.isText(body.upperBound - 2, "return")
    else { return nil }
    let name = t.text(body.upperBound - 1)
    for k in body where t.isText(k, "let") || t.isText(k, "var") {
      guard t.text(k + 1) == name else { continue }
      var e = k + 2
      if t.isPunctuation(e, 0x3A) { e = typeEnd(from: e + 1) }
      guard t.isPunctuation(e, 0x3D) else { continue }
      var value = expressionRange(from: e + 1)
      if let brace = t.topLevelBrace(in: value) { value = value.lowerBound..<brace }
      if let at = value.first(where: { t.isText($0, "else") }) { value = value.lowerBound..<at }
      return value.isEmpty ? nil : value
    }
    return nil
  }
}

extension SwiftReader {
  /// `register(defaults: …)`: each entry of the dictionary (written there, held in a local or
  /// a constant, given by the caller, or made elsewhere) a registered default.
  mutating func register(_ c: Call) {
    guard let arg = c.arguments.first else { return }
    let receiver = receiverOf(c.receiver)
    guard receiver != .none else { return }
    var entries: [ValueEntry]?
    var named: ValueExpr?
    let value = valueOf(arg)
    switch value {
    case .dictionary(let e): entries = e
    case .name(let n):
      named = value
      if let local = scope?.locals[n] { entries = local.entries }
      if let given = givenDictionary(n) {
        // `register(defaults: d)` of a dictionary the caller gives: each call's.
        var use = SourceUse(
          key: .name(given), receiver: receiver, access: .register, method: "register(defaults:)",
          condition: conditionText(at: c.name), line: t.line(c.name))
        use.value = .name(given)
        use.defaultSource = .registration
        record(use, at: c.name)
        return
      }
      if entries == nil,
        case .dictionary(let e)? = facts.valueConstants[n]
          ?? facts.valueConstants[(typeName.map { $0 + "." } ?? "") + n]
      {
        entries = e
      }
    case .call: named = value
    default: break
    }
    let base = SourceUse(
      key: .literal(""), receiver: receiver, access: .register, method: "register(defaults:)",
      condition: conditionText(at: c.name), line: t.line(c.name))
    recordRegistration(base, entries: entries, in: arg, madeElsewhere: named)
  }
}
