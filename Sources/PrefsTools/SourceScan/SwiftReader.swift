import PreferencesMigration
import PropertyList

/// Reads one Swift file's tokens into its facts: `let` constants and `enum … : String` cases,
/// the variables that hold user defaults, the calls of `UserDefaults`' getters and setters
/// with their keys, `@AppStorage`, `register(defaults:)`, `?? literal` fallbacks, and what
/// the code does with `object(forKey:)` (`as? Int`, `JSONDecoder`).
struct SwiftReader: SourceReader {
  let input: SourceInput
  var facts: FileFacts

  /// The types being declared (`struct Keys {`), innermost last, with where each ends, and
  /// whether an enum's raw values are strings; `full` is the name as written
  /// (`Defaults.Keys` of an extension).
  var types: [(name: String, end: Int, kind: String, stringRaw: Bool, full: String)] = []
  var scope: FunctionScope?
  var ifs: [(end: Int, condition: Range<Int>)] = []
  var useAt: [Int: Int] = [:]

  let t: SourceTokens

  init(_ input: SourceInput) {
    self.input = input
    t = input.tokens
    facts = FileFacts(path: input.path)
  }

  mutating func leaveBlocks(endedBy i: Int) {
    // The types that ended, then the function and the `if` blocks.
    while let last = types.last, i >= last.end { types.removeLast() }
    leaveFunctionAndIfs(endedBy: i)
  }

  mutating func step(at i: Int) -> Int {
    if t.isIdentifier(i), let next = identifier(at: i) { return next }
    return i + 1
  }

  mutating func endScope() {
    guard scope?.templates.isEmpty == false, let s = scope, var selector = s.selector, !gatherOnly
    else {
      scope = nil
      return
    }
    // An initializer's calls are `Type(label: …)`: found by the type's name and the labels.
    if selector.hasPrefix("init("), let type = types.last, type.kind != "extension" {
      selector = type.name + "("
    }
    for template in s.templates {
      // (A function's labels too: a call may leave out a trailing closure or a defaulted
      // parameter, `ifPresent(key: .k) { … }` of `ifPresent(key:body:)`.)
      facts.wrappers.append(
        SourceWrapper(
          selector: selector, className: types.last?.name, parameters: s.parameters,
          key: template.key, use: template, parameterTypes: s.parameterTypes,
          labels: s.labels, parameterValues: s.parameterValues,
          callerNameParameters: s.callerNameParameters))
    }
    scope = nil
  }

  var typeName: String? { types.last?.name }
  /// What `#function` is here: the property an accessor stands for, else the function.
  var functionName: String? { scope?.property ?? scope?.selector }
  var inDefaultsExtension: Bool {
    // (Or of a protocol UserDefaults is made to conform to: `extension UserDefaultsType`.)
    types.contains {
      $0.kind == "extension"
        && ($0.name == "UserDefaults" || facts.superclasses[$0.name] == "UserDefaults")
    }
  }

  var readEarly: Set<Int> = []
  /// The file imports a package named for keeping settings (``LibraryModels/isPreferencePackage(_:)``).
  var preferencePackage = false
  /// `if get(forKey: .k) == nil { … }`: the branch's braces and the key's source, where a
  /// wrapper's setter of the same key writes what a first launch gets.
  var absentBranches: [(open: Int, close: Int, key: String)] = []
  /// The uses `@AppStorage` properties make, by `Type.name`: what the type does with the
  /// property's value (`JSONDecoder().decode(T.self, from: name)`) says how it is stored.
  var appStorageUses: [String: Int] = [:]
  /// `@AppStorage var x: T` declared without its key: T, by `Type._x`.
  var appStorageLater: [String: String] = [:]
  /// swift-sharing: the value type of the `extension SharedKey where Self ==
  /// AppStorageKey<T>` being read (T as written), and where that extension ends.
  var sharedKeyType: (type: String, end: Int)?
  /// A variable given a presence test (`let exists = d.object(forKey: K) != nil`), until its
  /// getter's use is recorded: its name, where its value starts, whether it is true when the
  /// key is there.
  var pendingPresence: (name: String, start: Int, whenPresent: Bool)?

  // MARK: - The walk

  mutating func identifier(at i: Int) -> Int? {
    let word = t.text(i)
    switch word {
    case "typealias":
      // `typealias PluginID = String` (not a generic one): an array of them is of strings.
      if !gatherOnly, t.isIdentifier(i + 1), t.isPunctuation(i + 2, 0x3D) {
        let end = typeEnd(from: i + 3)
        if end > i + 3 {
          let alias = TypeDeclaration(
            kind: "typealias", rawType: nil, conformances: [],
            aliasOf: t.source((i + 3)..<end).replacing(" ", with: ""))
          facts.declarations[t.text(i + 1)] = alias
          // (A type's own, `typealias T = String` meeting a protocol's associated type.)
          if let type = typeName { facts.declarations[type + "." + t.text(i + 1)] = alias }
        }
      }
      return nil
    case "class", "struct", "enum", "extension", "protocol", "actor":
      guard t.isIdentifier(i + 1) else { return nil }
      // `class func defaults() -> […]`, `class var x`: a member of the type, not a type.
      if word == "class", Self.classMemberWords.contains(t.text(i + 1)) { return nil }
      var k = i + 2
      var conformances: [String] = []
      var afterColon = false
      var depth = 0
      while k < t.count, !t.isPunctuation(k, 0x7B), !t.isPunctuation(k, 0x3B), k < i + 60 {
        if t.isPunctuation(k, 0x3C) { depth += 1 }
        if t.isPunctuation(k, 0x3E) { depth -= 1 }
        if t.isPunctuation(k, 0x3A), depth == 0 { afterColon = true }
        if t.isText(k, "where") { afterColon = false }
        if afterColon, depth == 0, t.isIdentifier(k) {
          // `Defaults.Serializable`: the whole dotted name.
          if t.isPunctuation(k - 1, 0x2E), let last = conformances.popLast() {
            conformances.append(last + "." + t.text(k))
          } else {
            conformances.append(t.text(k))
          }
        }
        k += 1
      }
      guard t.isPunctuation(k, 0x7B) else { return nil }
      // `extension UserDefaults.Key`: the last name.
      var name = t.text(i + 1)
      var full = name
      var n = i + 2
      while t.isPunctuation(n, 0x2E), t.isIdentifier(n + 1) {
        name = t.text(n + 1)
        full += "." + name
        n += 2
      }
      if word == "class", let close = Optional(k), t.isPunctuation(i + 2, 0x3A),
        t.isIdentifier(i + 3)
      {
        _ = close
        facts.superclasses[name] = t.text(i + 3)
      }
      // (`enum Bool: Swift.String`, where the enum's own name hides the standard type.)
      let rawType =
        word == "enum"
        ? conformances.first.flatMap {
          let raw = $0.hasPrefix("Swift.") ? String($0.dropFirst(6)) : $0
          return Self.rawTypes.contains(raw) ? raw : nil
        } : nil
      if word == "protocol", !gatherOnly { facts.protocols.insert(name) }
      if word != "extension", word != "protocol", !gatherOnly {
        facts.declarations[name] = TypeDeclaration(
          kind: word, rawType: rawType, conformances: conformances)
        if word == "struct" { facts.members[name, default: TypeMembers()].isStruct = true }
      }
      if word == "extension", full == "UserDefaults" || full == "Foundation.UserDefaults" {
        // `extension UserDefaults: UserDefaulting {}`: a value of the app's protocol is user
        // defaults, as far as the code shows (a parameter `_ d: UserDefaulting`).
        for p in conformances where p.first?.isUppercase == true && p != "Sendable" {
          facts.superclasses[p] = "UserDefaults"
        }
      }
      if word == "extension", !gatherOnly, !conformances.isEmpty {
        // `extension Color: RawRepresentable { init?(rawValue: Int) … }`: a framework type
        // the app stores by a raw value of its own (or, `Array: RawRepresentable`, as text).
        var known =
          facts.declarations[name]
          ?? TypeDeclaration(kind: "extension", rawType: nil, conformances: [])
        known.conformances += conformances
        if known.rawType == nil, conformances.contains("RawRepresentable"),
          let raw = (k..<t.match(k)).first(where: {
            t.isText($0, "rawValue") && t.isPunctuation($0 + 1, 0x3A) && t.isIdentifier($0 + 2)
              && t.isPunctuation($0 - 1, 0x28)
          })
        {
          known.rawType = t.text(raw + 2)
        }
        facts.declarations[name] = known
      }
      if word == "extension", full == "SharedKey",
        let s = (i..<k).first(where: {
          t.isText($0, "AppStorageKey") && t.isPunctuation($0 + 1, 0x3C)
        })
      {
        // `extension SharedKey where Self == AppStorageKey<Bool>.Default`: its keys hold T.
        let end = typeEnd(from: s + 2)
        sharedKeyType = (t.source((s + 2)..<end).replacing(" ", with: ""), t.match(k) + 1)
      }
      types.append((name, t.match(k) + 1, word, word == "enum" && rawType == "String", full))
      return k + 1
    case "func", "init", "subscript":
      // (`self.init(…)` is a call: an extension of AppStorage's, read for its members.)
      if word == "init", t.isPunctuation(i - 1, 0x2E), t.isText(i - 2, "self") {
        if scope != nil, !gatherOnly, let c = parseCall(at: i) { appStorageAdapter(c) }
        return nil
      }
      // `.init(value: get(forKey: "k"))`, `super.init(…)`: a call, its arguments read like
      // any others (never a declaration, whose signature is passed over).
      if word == "init", t.isPunctuation(i - 1, 0x2E) { return nil }
      return function(at: i)
    case "case":
      if let type = types.last, type.kind == "enum", scope == nil, !gatherOnly {
        enumCases(from: i + 1, in: type.name)
      }
      return nil
    case "let", "var":
      let next = binding(at: i)
      if scope == nil { initializerScope(at: i) }
      return next
    case "if", "guard", "while":
      if scope != nil, !gatherOnly { condition(at: i) }
      return nil
    case "import":
      // `import PersistedPropertyWrapper`: a package named for keeping settings.
      if scope == nil, types.isEmpty, t.isIdentifier(i + 1),
        LibraryModels.isPreferencePackage(t.text(i + 1))
      {
        preferencePackage = true
      }
      return nil
    case "for":
      if scope != nil { forIn(at: i) }
      return nil
    case "return":
      if scope != nil, !gatherOnly { recordReturn(expressionRange(from: i + 1)) }
      return nil
    case "@AppStorage", "@SceneStorage":
      // @SceneStorage is a scene's restored state, not user defaults.
      if !gatherOnly, word == "@AppStorage" { appStorage(at: i) }
      return nil
    case "@Shared", "@SharedReader":
      // swift-sharing: `@Shared(.appStorage("k")) var x: Bool = false`.
      if !gatherOnly, t.isPunctuation(i + 1, 0x28), t.isPunctuation(i + 2, 0x2E),
        t.isText(i + 3, "appStorage")
      {
        appStorage(at: i + 3, declarationAfter: t.match(i + 1))
      }
      return nil
    case "appStorage":
      if !gatherOnly, let shared = sharedKeyType, i < shared.end, scope != nil {
        sharedKey(at: i, holding: shared.type)
      }
    case "UserDefaults":
      if !gatherOnly { managedRead(at: i) }
    default:
      break
    }
    if !gatherOnly,
      LibraryModels.preferenceMacros.contains(word) || word == LibraryModels.persisted
        || preferencePackage && word.hasPrefix("@") && !word.hasPrefix("@_")
          && t.isPunctuation(i + 1, 0x28) && !LibraryModels.languageAttributes.contains(word),
      !wrapperSelectors.contains(String(word.dropFirst()) + "(")
    {
      preferenceMacro(at: i)
      return nil
    }
    if word.hasPrefix("@"), t.isPunctuation(i + 1, 0x28) {
      attribute(at: i)
      return nil
    }
    if !input.propertiesWanted.isEmpty, t.isPunctuation(i - 1, 0x2E),
      input.propertiesWanted.contains(word),
      !t.isPunctuation(i + 1, 0x28) || t.isPunctuation(i + 2, 0x29)
    {
      propertyAccess(at: i)
    }
    // (`self.key = …`: the type's own, set by its initializer, read as such.)
    if gatherOnly, t.isPunctuation(i - 1, 0x2E), t.isPunctuation(i + 1, 0x3D),
      !t.isText(i - 2, "self"), wrapperSelectors.contains(SourceWrapper.assignment(to: word))
    {
      memberAssignment(at: i)
    }
    if t.isPunctuation(i + 1, 0x5B), t.isText(i, "self"), let c = subscriptCall(at: i) {
      call(at: i, parsed: c)
    } else if let c = defaultsSubscriptCall(at: i) {
      call(at: i, parsed: c)
    }
    if t.isPunctuation(i + 1, 0x28) {
      call(at: i)
    } else if let c = initializerCall(at: i) {
      call(at: i, parsed: c)
    } else if t.isPunctuation(i + 1, 0x7B), t.isPunctuation(i - 1, 0x2E) {
      closure(at: i)
    } else if let local = scope?.locals[word],
      !(t.isText(i - 2, "self") && t.isPunctuation(i - 1, 0x2E) && t.isPunctuation(i + 1, 0x3D))
    {
      // (`self.store = store`: the member, not the parameter of that name.)
      localAfter(i, local)
    } else if !gatherOnly, word.hasPrefix("_"), t.isPunctuation(i + 1, 0x3D), let type = typeName,
      let typeText = appStorageLater[type + "." + word],
      !t.isPunctuation(i - 1, 0x2E) || t.isText(i - 2, "self")
    {
      appStorageGiven(at: i, typeText: typeText)
    } else if scope?.selector?.hasPrefix("init(") == true, t.isPunctuation(i + 1, 0x3D),
      !t.isPunctuation(i - 1, 0x2E) || t.isText(i - 2, "self"), let type = typeName,
      case let declared = facts.members[type]?.declared[word],
      declared?.hasPrefix("UserDefaults") == true || declared == nil && t.isText(i - 2, "self")
    {
      // `defaults = UserDefaults(suiteName: name) ?? .standard` in an initializer: the
      // property holds that suite (the standard domain only where the suite cannot be made);
      // `self.store = …` written before the member's declaration too (then only user defaults
      // made here: nothing else says the member is one).
      let receiver = receiverOf(beforeCoalescing(expressionRange(from: i + 2)))
      if receiver.isDefaults {
        facts.receivers[word] = receiver
        facts.receivers[type + "." + word] = receiver
      } else if declared != nil, case .name(let n) = receiver, n.hasPrefix("param:") {
        // `self.store = store`, a parameter of user defaults: what the callers give.
        facts.receivers[type + "." + word] = receiver
        if facts.receivers[word] == nil { facts.receivers[word] = receiver }
      } else if declared != nil, case .name(let n) = receiver, n.first?.isLowercase == true,
        n.contains("."), !n.hasPrefix("param:")
      {
        // `self.userDefaults = environment.userDefaults`: another object's, which the code
        // gives elsewhere: not known (reported so, never taken for the standard domain).
        // (By the type's name only: another type's member of the same name is not this one.)
        facts.receivers[type + "." + word] = .unknown(n)
      }
    } else if scope != nil, t.isPunctuation(i + 1, 0x3D),
      !t.isPunctuation(i - 1, 0x2E) || t.isText(i - 2, "self"),
      scope?.parameters.contains(word) == false, let use = appStorageUse(named: word)
    {
      // `data = try JSONEncoder().encode(v)`, `data = encoded` of an `@AppStorage` property
      // holding Data: JSON.
      let value = expressionRange(from: i + 2)
      if encodesJSON(value) || isJSONLocal(value) {
        refineUse(use, as: .json, reason: "given JSONEncoder's data")
      }
    } else if scope != nil, t.isPunctuation(i + 1, 0x3D),
      !t.isPunctuation(i - 1, 0x2E) || t.isText(i - 2, "self"),
      scope?.parameters.contains(word) == false,
      expressionRange(from: i + 2).contains(where: { t.isText($0, "forKey") })
    {
      // `value = d.float(forKey: key)`: a property given a getter's answer holds it, in
      // this function (a fallback may follow: `if value == 0 { value = 1 }`).
      var local = LocalVariable()
      local.use = -(i + 2 + 1)
      scope?.locals[word] = local
    }
    return nil
  }

  /// The raw types an enum's values may have.
  /// The words after `class` that make it a member's modifier (`class func`, `class override
  /// var`), not a class's declaration.
  static let classMemberWords: Set<String> = [
    "func", "var", "let", "subscript", "override", "final", "private", "fileprivate", "public",
    "internal", "open", "dynamic",
  ]

  static let rawTypes: Set<String> = [
    "String", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32",
    "UInt64", "Double", "Float", "CGFloat", "Character",
  ]

  /// `func name(_ key: String, default value: Bool) … {`: the function and its parameters.
  mutating func function(at i: Int) -> Int? {
    // `func encode(to encoder: Encoder)` of a type: its JSON is its own, not its raw value.
    if t.isText(i, "func"), t.isText(i + 1, "encode"), t.isPunctuation(i + 2, 0x28),
      t.isText(i + 3, "to"), let type = typeName
    {
      facts.customEncoded.insert(type)
    }
    var k = i + 1
    var name = t.text(i)
    if t.isText(i, "func") {
      guard t.isIdentifier(k) || t.token(k).kind == .punctuation else { return nil }
      name = t.text(k)
      k += 1
    }
    // (A failable initializer: `init?(suiteName:)`, `init!(…)`.)
    if name == "init", t.isPunctuation(k, 0x3F) || t.isPunctuation(k, 0x21) { k += 1 }
    if t.isPunctuation(k, 0x3C) { k = t.angleEnd(from: k) }
    guard t.isPunctuation(k, 0x28) else { return nil }
    let close = t.match(k)
    var labels: [String] = []
    var parameters: [String] = []
    var parameterTypes: [String?] = []
    var receiverDefaults: [String: ReceiverRef] = [:]
    var parameterValues: [String: ValueExpr] = [:]
    var callerNameParameters: Set<String> = []
    for part in t.commaSeparated((k + 1)..<close) {
      guard let colon = part.first(where: { t.isPunctuation($0, 0x3A) }) else { continue }
      let names = (part.lowerBound..<colon).filter { t.isIdentifier($0) }.map { t.text($0) }
      guard let last = names.last else { continue }
      // (A subscript's parameter has no argument label unless it declares one.)
      labels.append(names.count >= 2 ? names[names.count - 2] : name == "subscript" ? "_" : last)
      parameters.append(last)
      var type: String?
      var n = colon + 1
      while n < part.upperBound,
        t.isText(n, "inout") || t.token(n).kind == .identifier && t.text(n).hasPrefix("@")
      {
        n += 1
      }
      if t.isIdentifier(n) || t.isPunctuation(n, 0x5B) {
        // (A generic's `,` split the parameter: `p: AnyPublisher<URL?, Never>? = nil` ends
        // before its type does, so the type is taken no further than the part.)
        let end = min(typeEnd(from: n), part.upperBound)
        type = t.source(n..<end, limit: 200).replacing(" ", with: "")
        // `store: UserDefaults = .standard`: the receiver a call that leaves it out gets.
        if t.isPunctuation(end, 0x3D), end < part.upperBound {
          // (`UserDefaults(suiteName: group) ?? .standard`: that suite, the standard domain
          // only where it cannot be made.)
          let given = beforeCoalescing((end + 1)..<part.upperBound)
          var receiver = receiverOf(given)
          if receiver == .none || receiver == .unknown(t.source(given)),
            t.isPunctuation(given.lowerBound, 0x2E)
          {
            receiver = .name(t.source(given).replacing(" ", with: ""))
          }
          switch receiver {
          case .standard, .suite, .name: receiverDefaults[last] = receiver
          default: break
          }
          // `defaultValue: String = "Visible"`: the fallback a call that leaves it out gives.
          if case .value = valueOf(given) { parameterValues[last] = valueOf(given) }
          // `property: String = #function`: the caller's property.
          if given.count == 1, t.isText(given.lowerBound, "#function") {
            callerNameParameters.insert(last)
          }
        }
      }
      parameterTypes.append(type)
    }
    // The body: the first `{` after the signature (`-> Bool`, `throws`, `where …`).
    var b = close + 1
    var returnType: String?
    while b < t.count, !t.isPunctuation(b, 0x7B), !t.isPunctuation(b, 0x7D), b < close + 30 {
      if t.isText(b, "func") || t.isText(b, "var") || t.isText(b, "let") { return close + 1 }
      if t.isText(b, "->"), t.isIdentifier(b + 1) || t.isPunctuation(b + 1, 0x5B) {
        returnType = t.source((b + 1)..<typeEnd(from: b + 1)).replacing(" ", with: "")
      }
      b += 1
    }
    guard t.isPunctuation(b, 0x7B) else { return close + 1 }
    endScope()
    let selector = name + "(" + labels.map { $0 + ":" }.joined() + ")"
    scope = FunctionScope(
      selector: selector, parameters: parameters, parameterTypes: parameterTypes,
      labels: labels, parameterValues: parameterValues,
      callerNameParameters: callerNameParameters, end: t.match(b) + 1,
      returnType: returnType)
    for (index, (parameter, type)) in zip(parameters, parameterTypes).enumerated() {
      // A `UserDefaults` parameter: the defaults its callers give (looked up by the model),
      // else its default value's, else the standard ones.
      guard let type, type.hasPrefix("UserDefaults") else { continue }
      // (An initializer's, by the name its callers use: `Settings(store:)`.)
      let called =
        name == "init"
        ? (typeName ?? name) + "(" + labels.map { $0 + ":" }.joined() + ")" : selector
      let name = Self.parameterName(called, index)
      facts.receivers[name] = receiverDefaults[parameter] ?? .standard
      scope?.locals[parameter, default: LocalVariable()].receiver = .name(name)
    }
    if name == "init", !gatherOnly { subclassSuite(body: b, parameters: parameters) }
    if name == "init", let type = types.last, type.kind != "enum", !gatherOnly {
      initializer(
        of: type.name, body: (b + 1)..<t.match(b),
        signature: TypeMembers.Initializer(
          selector: type.name + "(", parameters: parameters, labels: labels,
          parameterTypes: parameterTypes, members: [:], defaults: receiverDefaults))
    } else if let type = types.last, type.kind == "class" || type.kind == "struct",
      !gatherOnly, !parameters.isEmpty, t.isText(i, "func"), !t.isText(i - 1, "static"),
      !t.isText(i - 1, "class")
    {
      // `func showSuppression(forKey key: String) { suppressionKey = key … }`: a method that
      // keeps a key in a member sets it for the type's other uses, as an initializer does.
      initializer(
        of: type.name, body: (b + 1)..<t.match(b),
        signature: TypeMembers.Initializer(
          selector: selector, parameters: parameters, labels: labels,
          parameterTypes: parameterTypes, members: [:], defaults: receiverDefaults))
    }
    singleExpressionReturn(body: b)
    if !gatherOnly, !parameters.isEmpty { switchReturns(body: b, selector: selector) }
    return close + 1
  }

  /// `init(key: String) { self.key = key }`: the members an initializer sets from its
  /// parameters, for the type's uses that name them.
  mutating func initializer(
    of type: String, body: Range<Int>, signature: TypeMembers.Initializer
  ) {
    let parameters = signature.parameters
    var members: [String: String] = [:]
    var k = body.lowerBound
    while k < body.upperBound {
      var member: Int?
      if t.isText(k, "self"), t.isPunctuation(k + 1, 0x2E), t.isIdentifier(k + 2),
        t.isPunctuation(k + 3, 0x3D)
      {
        member = k + 2
      } else if t.isIdentifier(k), t.isPunctuation(k + 1, 0x3D), !t.isPunctuation(k - 1, 0x2E),
        !parameters.contains(t.text(k))
      {
        member = k
      }
      if let member, t.isIdentifier(member + 2), parameters.contains(t.text(member + 2)),
        !t.isPunctuation(member + 3, 0x2E), !t.isPunctuation(member + 3, 0x28)
      {
        members[t.text(member)] = t.text(member + 2)
      }
      k += 1
    }
    guard !members.isEmpty else { return }
    var found = signature
    found.members = members
    facts.members[type, default: TypeMembers()].initializers.append(found)
  }

  /// A body that is one expression (`func keys() -> [String] { ["a", "b"] }`): what it
  /// returns.
  mutating func singleExpressionReturn(body b: Int) {
    guard !gatherOnly, t.isPunctuation(b, 0x7B) else { return }
    let close = t.match(b)
    guard close > b + 1, !t.isText(b + 1, "return"), !t.isText(b + 1, "let"),
      !t.isText(b + 1, "var"), !t.isText(b + 1, "if"), !t.isText(b + 1, "guard"),
      !t.isText(b + 1, "for"), !t.isText(b + 1, "get"), !t.isText(b + 1, "set"),
      !t.isText(b + 1, "switch")
    else { return }
    let range = expressionRange(from: b + 1)
    guard range.upperBound == close else { return }
    recordReturn(range)
  }

  /// The end of a type written from `start`: `[String: Int]`, `Swift.Int?`, `Set<String>`,
  /// `(Int, Int)`.
  func typeEnd(from start: Int) -> Int {
    var k = start
    if t.isPunctuation(k, 0x5B) || t.isPunctuation(k, 0x28) {
      k = t.match(k) + 1
    } else if t.isIdentifier(k) {
      k += 1
      while t.isPunctuation(k, 0x2E), t.isIdentifier(k + 1) { k += 2 }
      if t.isPunctuation(k, 0x3C) { k = t.angleEnd(from: k) }
    }
    while t.isPunctuation(k, 0x3F) || t.isPunctuation(k, 0x21),
      t.line(k) == t.line(max(start, k - 1))
    {
      k += 1
    }
    // (Never before `start`, whatever a damaged file's brackets say.)
    return max(start, min(k, t.count))
  }

  func resourceName(in range: Range<Int>) -> String? {
    for k in range {
      if let entry = InfoDictionaryEntry.named(at: k, t) { return entry }
      guard t.isText(k, "path") || t.isText(k, "url"), t.isPunctuation(k + 1, 0x28),
        t.isText(k + 2, "forResource"),
        let name = t.stringValue(k + 4)
      else { continue }
      if let ext = t.stringValue(k + 8), !name.hasSuffix("." + ext) { return name + "." + ext }
      return name.contains(".") ? name : name + ".plist"
    }
    return scope?.resource(in: range, t)
  }

  func loadedFile(_ range: Range<Int>) -> KeyExpr? {
    if range.count == 1, t.isIdentifier(range.lowerBound) {
      guard scope?.holdsResources == true else { return nil }
      return scope?.locals[t.text(range.lowerBound)]?.file
    }
    for k in range where t.isPunctuation(k + 1, 0x3A) {
      if t.isText(k, "contentsOfFile") || t.isText(k, "contentsOf") || t.isText(k, "atPath") {
        let file = localKey(expressionRange(from: k + 2))
        return file.isRuntime ? nil : file
      }
      // `PropertyListSerialization.propertyList(from: data, …)`: what the data was read from.
      if t.isText(k, "from"), t.isText(k - 2, "propertyList") {
        return loadedFile(expressionRange(from: k + 2))
      }
    }
    return nil
  }

  func resourceParameter(in range: Range<Int>) -> KeyExpr? {
    for k in range where t.isText(k, "path") || t.isText(k, "url") {
      guard t.isPunctuation(k + 1, 0x28), t.isText(k + 2, "forResource"), t.isIdentifier(k + 4),
        scope?.parameters.contains(t.text(k + 4)) == true
      else { continue }
      return .name(t.text(k + 4))
    }
    return scope?.resourceParameter(in: range, t).map { .name($0) }
  }

}
