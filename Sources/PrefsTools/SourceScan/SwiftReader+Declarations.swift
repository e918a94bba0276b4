import PreferencesMigration
import PropertyList

/// Declarations: an enum's cases and their raw values, and `let`/`var` bindings (constants,
/// the variables that hold user defaults, what a local is made from).
extension SwiftReader {
  /// `case a, b = "bee"` of an enum: each case's raw value (a `String` enum's name when it
  /// writes none), its constant, and the enum's `allCases`.
  mutating func enumCases(from start: Int, in type: String) {
    var k = start
    let rawType = facts.declarations[type]?.rawType
    while k < t.count, t.isIdentifier(k) {
      let name = t.text(k)
      if rawType == "String" {
        var value = name
        if t.isPunctuation(k + 1, 0x3D), let s = t.stringValue(k + 2) {
          value = s
          k += 2
        }
        facts.constants[type + "." + name] = .literal(value)
        if facts.constants["." + name] == nil { facts.constants["." + name] = .literal(value) }
        facts.declarations[type]?.cases.append((name, value))
      } else if let rawType, rawType != "Character" {
        // A number: written, else one more than the case before (from 0).
        var value: ValueExpr
        if t.isPunctuation(k + 1, 0x3D) {
          let negative = t.isPunctuation(k + 2, 0x2D)
          let end = k + (negative ? 4 : 3)
          value = valueOf((k + 2)..<end)
          k = end - 1
        } else if case .value(.integer(let last))? = facts.valueConstants[
          type + "." + (facts.declarations[type]?.cases.last?.name ?? "")]
        {
          // (Past Int64.max the source does not compile: no constant, never a trap.)
          let (next, overflow) = last.addingReportingOverflow(1)
          value = overflow ? .computed(name, .integer) : .value(.integer(next))
        } else {
          value = .value(.integer(0))
        }
        facts.valueConstants[type + "." + name] = value
        if facts.valueConstants["." + name] == nil { facts.valueConstants["." + name] = value }
        // An `@objc enum`'s case as Objective-C names it (`OptionDisplayName` of `case
        // displayName` in `Option`).
        let objcName = type + name.prefix(1).uppercased() + name.dropFirst()
        if facts.valueConstants[objcName] == nil { facts.valueConstants[objcName] = value }
        facts.declarations[type]?.cases.append((name, name))
      } else {
        facts.declarations[type]?.cases.append((name, name))
      }
      k += 1
      if t.isPunctuation(k, 0x28) { k = t.match(k) + 1 }
      guard t.isPunctuation(k, 0x2C) else { break }
      k += 1
    }
    if rawType == "String", let cases = facts.declarations[type]?.cases {
      facts.constants[type + ".allCases"] = .oneOf(cases.map { .literal($0.raw) })
    }
    // A nested enum (`Search.Mode`): its cases under the qualified name too.
    let qualified = types.map(\.name).joined(separator: ".")
    if qualified != type, let declaration = facts.declarations[type] {
      facts.declarations[qualified] = declaration
      for c in declaration.cases {
        if let key = facts.constants[type + "." + c.name] {
          facts.constants[qualified + "." + c.name] = key
        }
        if let value = facts.valueConstants[type + "." + c.name] {
          facts.valueConstants[qualified + "." + c.name] = value
        }
      }
    }
  }

  /// `let name = "key"`, `static let name = "key"`, `let defaults = UserDefaults.standard`,
  /// `var prop: Bool { … }`.
  mutating func binding(at i: Int) -> Int? {
    guard t.isIdentifier(i + 1) else { return nil }
    let name = t.text(i + 1)
    var k = i + 2
    var declared: String?
    if t.isPunctuation(k, 0x3A) {
      let typeStart = k + 1
      k = typeEnd(from: typeStart)
      declared = t.source(typeStart..<k, limit: 200).replacing(" ", with: "")
    }
    // `@Published var shown = true`: the type its literal has.
    // (The literal alone: what follows is on another line, or ends the statement.)
    if declared == nil, t.isPunctuation(k, 0x3D), scope == nil, !gatherOnly,
      k + 2 >= t.count || t.line(k + 2) != t.line(k + 1) || t.isPunctuation(k + 2, 0x3B)
        || t.isPunctuation(k + 2, 0x7D)
    {
      switch valueOf((k + 1)..<(k + 2)) {
      case .value(.bool): declared = "Bool"
      case .value(.integer): declared = "Int"
      case .value(.real): declared = "Double"
      case .value(.string): declared = "String"
      default: break
      }
    }
    if scope == nil, !gatherOnly, inDefaultsExtension, let declared,
      let key = managedKey(before: i, name: name)
    {
      managedProperty(key, name: name, declared: declared, at: i)
    }
    // A stored property of a type (`let key: String`, `var key: String? { didSet … }`): a
    // member its initializers may set.
    if scope == nil, let type = types.last,
      type.kind == "struct" || type.kind == "class"
        || type.kind == "actor", !t.isText(i - 1, "static"), !t.isText(i - 2, "static"),
      !t.isPunctuation(k, 0x7B) || t.isText(k + 1, "didSet") || t.isText(k + 1, "willSet")
    {
      // (In a wrapper-call pass too: a call's argument naming one is no constant.)
      if !t.isPunctuation(k, 0x3D) || t.isText(i, "var") {
        facts.members[type.name, default: TypeMembers()].stored.append(name)
      }
    }
    // The declared type of a property (stored, or with observers: `var on: Bool { didSet … }`).
    // (Read in a wrapper-call pass too: a call may give the property, `assign: &on`.)
    if scope == nil, let type = types.last, let declared,
      !t.isText(i - 1, "static"), !t.isText(i - 2, "static")
    {
      facts.members[type.name, default: TypeMembers()].declared[name] = declared
    }
    // The initial value of a property (`@Published var order: Order = .date`): what it holds
    // until the code gives it another.
    if scope == nil, let type = types.last, t.isPunctuation(k, 0x3D),
      !t.isText(i - 1, "static"), !t.isText(i - 2, "static")
    {
      var given = valueOf(expressionRange(from: k + 1))
      if case .name(let n) = given, n.hasPrefix("."), let declared {
        given = .name(declared.replacing("?", with: "") + n)
      }
      facts.members[type.name, default: TypeMembers()].initial[name] = given
    }
    if t.isPunctuation(k, 0x7B), scope == nil || scope?.selector == nil {
      // A computed property: the uses inside stand for it; one expression is what it
      // returns (`var keys: [String] { ["a", "b"] }`).
      if scope == nil {
        let givesDefaults = declared?.hasPrefix("UserDefaults") == true
        if givesDefaults {
          // `var defaults: UserDefaults { .standard }`: the suite or the standard domain it returns.
          let body = (k + 1)..<t.match(k)
          var given = body
          if t.isText(given.lowerBound, "return") {
            given = (given.lowerBound + 1)..<given.upperBound
          } else if let made = returnedLocal(in: body) {
            // `guard let d = UserDefaults(suiteName: G) else { fatalError() }; return d`.
            given = made
          }
          // (`UserDefaults(suiteName: G) ?? .standard` is the suite; a body of statements is
          // followed by what it returns. Bound as the type's member, before the accessor's own
          // scope opens.)
          let receiver = receiverOf(beforeCoalescing(given))
          if receiver.isDefaults { bind(name, receiver) }
          // `{ .group }`, `{ UserDefaults.group }`: a static member of UserDefaults.
          let member = beforeCoalescing(given)
          if member.count == 2, t.isPunctuation(member.lowerBound, 0x2E),
            t.isIdentifier(member.lowerBound + 1), !receiver.isDefaults
          {
            bind(name, .name("UserDefaults." + t.text(member.lowerBound + 1)))
          } else if case .name(let n) = receiver, n.hasPrefix("UserDefaults.") {
            bind(name, receiver)
          }
        }
        scope = FunctionScope(
          selector: nil, parameters: [], end: t.match(k) + 1, property: name)
        if !givesDefaults, !gatherOnly,
          !libraryKey(named: name, declared: declared, value: (k + 1)..<t.match(k))
        {
          computedConstant(name, body: k)
          if let type = types.last, type.kind == "enum" {
            caseStrings(name, body: k, of: type.name)
            rawValueMember(name, body: k, of: type.name)
          }
          // `var defaultValue: Any? { switch self { case .a: return V … } }` of an enum (or an
          // extension of one): each case's.
          if let type = types.last, type.kind == "enum" || type.kind == "extension" {
            switchReturns(body: k, selector: type.name + "." + name, subject: "self")
          }
        }
      }
      return k + 1
    }
    guard t.isPunctuation(k, 0x3D) else {
      if declared == "UserDefaults" || declared == "UserDefaults!" {
        bind(name, .standard)
      }
      return nil
    }
    var value = expressionRange(from: k + 1)
    // `if let d = UserDefaults(suiteName: G) {`: in a condition a brace opens the body, never
    // a trailing closure.
    if t.isText(i - 1, "if") || t.isText(i - 1, "guard") || t.isText(i - 1, "while")
      || t.isPunctuation(i - 1, 0x2C) && scope != nil,
      let brace = t.topLevelBrace(in: value)
    {
      value = value.lowerBound..<brace
    }
    if gatherOnly, !input.propertiesWanted.isEmpty {
      // A pass for properties' accesses: the user defaults a variable holds.
      let receiver = receiverOf(value)
      if receiver.isDefaults { bind(name, receiver) }
    }
    if gatherOnly {
      // A wrapper-call pass: only the variables a call's key may come from.
      if scope != nil {
        var local = scope?.locals[name] ?? LocalVariable()
        local.type = declared
        let key = localKey(value)
        local.key = key.isRuntime ? nil : key
        scope?.locals[name] = local
      }
      return nil
    }
    if libraryKey(named: name, declared: declared, value: value) { return nil }
    var receiver = receiverOf(value)
    if receiver == .none || receiver == .unknown(""), let chosen = chosenReceiver(value) {
      receiver = chosen
    }
    // `let group = UserDefaults(suiteName: G) ?? .standard`: that suite (the standard domain
    // only where the suite cannot be made).
    if receiver == .none || receiver == .unknown(""),
      case let made = receiverOf(beforeCoalescing(value)), case .suite = made
    {
      receiver = made
    }
    // `let userDefaults: UserDefaults = .shared`: a static member of UserDefaults.
    if declared?.hasPrefix("UserDefaults") == true, value.count == 2,
      t.isPunctuation(value.lowerBound, 0x2E), t.isIdentifier(value.lowerBound + 1),
      receiver != .standard
    {
      receiver = .name("UserDefaults." + t.text(value.lowerBound + 1))
    }
    if t.isPunctuation(value.lowerBound, 0x7B), receiver != .standard {
      // `let storage: UserDefaults = { … UserDefaults(suiteName: G) … }()`: what the closure
      // makes.
      receiver = madeInClosure(value) ?? receiver
    }
    switch receiver {
    case .standard, .suite:
      bind(name, receiver)
      return nil
    case .name(let other) where scope?.locals[other]?.receiver != nil:
      bind(name, scope?.locals[other]?.receiver ?? .none)
      return nil
    case .name(let other) where other.hasPrefix("UserDefaults."):
      // `let store = UserDefaults.group`: the static member an extension declares.
      bind(name, receiver)
      return nil
    case .returned where declared == nil || declared?.hasPrefix("UserDefaults") == true:
      // `var container: UserDefaults = HelperTools.defaultsDB()`: what that method returns.
      bind(name, receiver)
      return nil
    default: break
    }
    if scope == nil || scope?.selector == nil && scope?.property == nil {
      if let type = typeName,
        (1...3).contains(where: { t.isText(i - $0, "private") || t.isText(i - $0, "fileprivate") })
      {
        facts.privateConstants.insert(type + "." + name)
      }
      recordConstant(
        name, closureKey(value) ?? keyOf(value), stored: scope == nil && !t.isText(i - 1, "lazy"))
      if let object = objectConstant(value) {
        facts.objectConstants[(typeName.map { $0 + "." } ?? "") + name] = object
      }
      var given = valueOf(value)
      // `static let mode: Mode = .center`: that type's case.
      if case .name(let n) = given, n.hasPrefix("."), let declared {
        given = .name(declared.replacing("?", with: "") + n)
      }
      switch given {
      case .dictionary:
        facts.valueConstants[(typeName.map { $0 + "." } ?? "") + name] = given
      case .value, .name:
        if case .value = given { facts.valueConstants[name] = given }
        if let type = typeName { facts.valueConstants[type + "." + name] = given }
        // In nested types (`enum Constant { enum setting { static let lock = … } }`):
        // `Constant.setting.lock` too, and each shorter path.
        for start in types.indices.dropLast() {
          let path = types[start...].map(\.name).joined(separator: ".") + "." + name
          if facts.valueConstants[path] == nil { facts.valueConstants[path] = given }
        }
      default: break
      }
      return nil
    }
    var local = LocalVariable()
    local.parameter = madeFromGivenDictionary(value)
    local.type = declared
    let key = localKey(value)
    switch key {
    case .literal, .concat, .oneOf: local.key = key
    case .call: local.key = key
    case .name(let n)
    where value.count == 1 && n.first?.isLowercase == true && scope?.locals[n] == nil
      && scope?.parameters.contains(n) != true:
      // `if let key = suppressionKey`: the member itself, as if the code named it there.
      local.key = key
    default: break
    }
    if case .dictionary(let entries) = valueOf(value) { local.entries = entries }
    if encodesJSON(value) { local.json = true }
    // `let data = try? encoder.encode(v)` of `let encoder = JSONEncoder()`, `let text =
    // String(bytes: data!, encoding: .utf8)` of that data: JSON too.
    if value.contains(where: {
      t.isIdentifier($0) && !t.isPunctuation($0 - 1, 0x2E)
        && scope?.locals[t.text($0)]?.json == true
    }) {
      local.json = true
    }
    if local.type == nil { local.type = madeType(value) }
    if let resource = resourceName(in: value) { local.resource = resource }
    if case .name(let p)? = resourceParameter(in: value) { local.resourceParameter = p }
    if let file = loadedFile(value) { local.file = file }
    if local.resource != nil || local.resourceParameter != nil || local.file != nil {
      scope?.holdsResources = true
    }
    // `let data = defaults.data(forKey: K)`: the variable holds that use's value; `let v =
    // other` the value another holds; `let exists = d.object(forKey: K) != nil` a test of it.
    local.use = -(value.lowerBound + 1)
    if value.count == 1, let other = scope?.locals[t.text(value.lowerBound)] {
      local.use = other.use
      local.template = other.template
      local.key = local.key ?? other.key
    }
    // `let data = text.data(using: .utf8)` of a string a getter answered: that string's bytes,
    // what a decoder given `data` makes of the key.
    if value.count >= 4, t.isPunctuation(value.lowerBound + 1, 0x2E),
      t.isText(value.lowerBound + 2, "data"), t.isPunctuation(value.lowerBound + 3, 0x28),
      let other = scope?.locals[t.text(value.lowerBound)], other.use.map({ $0 >= 0 }) == true
    {
      local.use = other.use
      local.template = other.template
    }
    // `let value = data.flatMap { try? JSONDecoder().decode(T.self, from: $0) }`: nil when
    // the answer it maps was, so its `?? V` is the key's fallback too.
    if value.count >= 4, t.isPunctuation(value.lowerBound + 1, 0x2E),
      t.isText(value.lowerBound + 2, "flatMap") || t.isText(value.lowerBound + 2, "map"),
      t.isPunctuation(value.lowerBound + 3, 0x7B) || t.isPunctuation(value.lowerBound + 3, 0x28),
      t.match(value.lowerBound + 3) == value.upperBound - 1,
      let other = scope?.locals[t.text(value.lowerBound)], other.use.map({ $0 >= 0 }) == true
    {
      local.use = other.use
      local.template = other.template
    }
    scope?.locals[name] = local
    if value.count >= 3, t.isText(value.upperBound - 1, "nil"),
      t.isText(value.upperBound - 2, "!=") || t.isText(value.upperBound - 2, "==")
    {
      pendingPresence = (name, value.lowerBound, t.isText(value.upperBound - 2, "!="))
    }
    return nil
  }

  /// `var mode: Mode = { guard let s = d.string(forKey: K) else { return .light } … }() {
  /// didSet { … } }`: the closure that makes a property's first value, and its observers, read
  /// as the property's accessors (a fallback of the closure is the key's default).
  ///
  /// `var string: (String) -> String? = { UserDefaults.standard.string(forKey: $0) }` (a
  /// struct of closures standing for user defaults, injected for tests): a function
  /// `string(_:)` whose parameters are `$0`… (or the names before `in`).
  mutating func initializerScope(at i: Int) {
    guard t.isIdentifier(i + 1), types.last != nil else { return }
    let name = t.text(i + 1)
    var k = i + 2
    var functionType: Range<Int>?
    if t.isPunctuation(k, 0x3A) {
      // `@Sendable (String, Int) async throws -> String?`
      var open = k + 1
      while t.isIdentifier(open), t.text(open).hasPrefix("@") { open += 1 }
      var arrow = t.isPunctuation(open, 0x28) ? t.match(open) + 1 : open
      while t.isText(arrow, "async") || t.isText(arrow, "throws") { arrow += 1 }
      if t.isPunctuation(open, 0x28), t.isText(arrow, "->") {
        functionType = (open + 1)..<(t.match(open))
        k = typeEnd(from: arrow + 1)
      } else {
        k = typeEnd(from: k + 1)
      }
    }
    guard t.isPunctuation(k, 0x3D), t.isPunctuation(k + 1, 0x7B) else { return }
    let close = t.match(k + 1)
    guard close + 2 < t.count else { return }
    if t.isPunctuation(close + 1, 0x28), t.isPunctuation(close + 2, 0x29) {
      var end = close + 3
      if end < t.count, t.isPunctuation(end, 0x7B) { end = t.match(end) + 1 }
      scope = FunctionScope(selector: nil, parameters: [], end: end, property: name)
      return
    }
    guard let functionType else { return }
    let parameterRanges = t.commaSeparated(functionType).filter { !$0.isEmpty }
    let count = parameterRanges.count
    guard count > 0 else { return }
    var parameters = (0..<count).map { "$" + String($0) }
    // `{ key in … }`, `{ (value, key) in … }`: the names given.
    var n = k + 2
    if t.isPunctuation(n, 0x28) { n += 1 }
    var named: [String] = []
    while t.isIdentifier(n), !t.isText(n, "in") {
      named.append(t.text(n))
      n += 1
      if t.isPunctuation(n, 0x2C) { n += 1 }
    }
    if t.isPunctuation(n, 0x29) { n += 1 }
    if t.isText(n, "in"), named.count == count { parameters = named }
    scope = FunctionScope(
      selector: name + "(" + String(repeating: "_:", count: count) + ")",
      parameters: parameters, end: close + 1)
    scope?.labels = Array(repeating: "_", count: count)
    scope?.parameterTypes = parameterRanges.map { t.source($0).replacing(" ", with: "") }
  }

  /// `test ? UserDefaults(suiteName: G)! : .standard`: the suite the app keeps its settings
  /// in, named in the code; the standard domain over a suite named only at run time (a test
  /// run's `UUID().uuidString`); nil when `value` is no such choice.
  func chosenReceiver(_ value: Range<Int>) -> ReceiverRef? {
    guard let (yes, no) = ternaryBranches(value) else { return nil }
    let branches = [receiverOf(yes), receiverOf(no)]
    if let named = branches.first(where: {
      if case .suite(let name) = $0 { return !name.isRuntime }
      return false
    }) {
      return named
    }
    return branches.contains(.standard) ? .standard : nil
  }

  /// `try? String(contentsOfFile: p)`, `Data.init(…)`: the Foundation value type an
  /// initializer makes (nil for anything else).
  /// The key of `@NSManaged var NAME` (`@objc(KEY) @NSManaged var NAME`) at the `var` at `i`,
  /// nil when the property is not managed.
  func managedKey(before i: Int, name: String) -> String? {
    var k = i - 1
    var managed = false
    var key = name
    while k >= 0 {
      if t.isPunctuation(k, 0x29), k >= 3, t.isPunctuation(k - 2, 0x28), t.isText(k - 3, "@objc"),
        t.isIdentifier(k - 1)
      {
        key = t.text(k - 1)
        k -= 4
      } else if t.isText(k, "@NSManaged") {
        managed = true
        k -= 1
      } else if t.isIdentifier(k), Self.declarationModifiers.contains(t.text(k)) {
        k -= 1
      } else {
        break
      }
    }
    return managed ? key : nil
  }

  static let declarationModifiers: Set<String> = [
    "@objc", "@nonobjc", "dynamic", "private", "fileprivate", "internal", "public", "open",
    "final",
  ]

  /// `@NSManaged var NAME: T` in an extension of `UserDefaults`: accessors made at run time
  /// (a dynamic-property category such as Roxas') read and write the key of the property's
  /// Objective-C name with the getter and setter of its type.
  mutating func managedProperty(_ key: String, name: String, declared: String, at i: Int) {
    let stored = declared.replacing("?", with: "").replacing("!", with: "")
    var use = SourceUse(
      key: .literal(key), receiver: .standard, access: .get,
      method: "@NSManaged property of UserDefaults", type: DefaultsAPI.type(ofClass: stored),
      line: t.line(i))
    if use.type != nil { use.typeReason = "declared \(declared)" }
    use.name = name
    use.declaration = PropertyDeclaration(name: name, type: "UserDefaults")
    use.condition = conditionText(at: i)
    record(use, at: -1)
  }

  /// `UserDefaults.standard.NAME ?? V`: the fallback of a managed property's key where it is
  /// read (kept by the model only where NAME is a managed property's key).
  mutating func managedRead(at i: Int) {
    guard t.isPunctuation(i + 1, 0x2E), t.isText(i + 2, "standard"), t.isPunctuation(i + 3, 0x2E),
      t.isIdentifier(i + 4), t.isText(i + 5, "??")
    else { return }
    let name = t.text(i + 4)
    var use = SourceUse(
      key: .literal(name), receiver: .standard, access: .presence,
      method: "UserDefaults.standard.\(name) ??", line: t.line(i))
    use.value = valueOf(expressionRange(from: i + 6))
    use.defaultSource = .fallback
    use.weakType = true
    use.managedRead = true
    use.condition = conditionText(at: i)
    record(use, at: -1)
  }

  func madeType(_ range: Range<Int>) -> String? {
    if archives(range) { return "Data" }
    // `… as? NSData`, `… as! Data`: the type it is cast to.
    if range.count >= 4, t.isText(range.upperBound - 3, "as"),
      t.isPunctuation(range.upperBound - 2, 0x3F) || t.isPunctuation(range.upperBound - 2, 0x21),
      t.isIdentifier(range.upperBound - 1),
      ["NSData", "Data", "NSString", "String", "NSDate", "Date"].contains(
        t.text(range.upperBound - 1))
    {
      return t.text(range.upperBound - 1).replacing("NS", with: "")
    }
    var k = range.lowerBound
    if t.isText(k, "try") {
      k += 1
      if t.isPunctuation(k, 0x3F) || t.isPunctuation(k, 0x21) { k += 1 }
    }
    guard t.isIdentifier(k), ["String", "Data", "Date", "URL"].contains(t.text(k)) else {
      return nil
    }
    var open = k + 1
    if t.isPunctuation(open, 0x2E), t.isText(open + 1, "init") { open += 2 }
    guard t.isPunctuation(open, 0x28) else { return nil }
    let close = t.match(open)
    guard
      close + 1 == range.upperBound
        || close + 2 == range.upperBound
          && (t.isPunctuation(close + 1, 0x21) || t.isPunctuation(close + 1, 0x3F))
    else { return nil }
    return t.text(k)
  }

  /// Whether `range` makes JSON data: `JSONEncoder().encode(x)`, `JSONSerialization…`, or
  /// `encoder.encode(x)` of a property holding a `JSONEncoder`.
  func encodesJSON(_ range: Range<Int>) -> Bool {
    if t.contains(range, "JSONEncoder") || t.contains(range, "JSONSerialization") { return true }
    guard let type = typeName, let members = facts.members[type] else { return false }
    for k in range
    where t.isText(k, "encode") && t.isPunctuation(k + 1, 0x28) && t.isPunctuation(k - 1, 0x2E)
      && t.isIdentifier(k - 2)
    {
      let holder = t.text(k - 2)
      if members.declared[holder] == "JSONEncoder" { return true }
      if case .computed(let text, _)? = members.initial[holder], text.hasPrefix("JSONEncoder(") {
        return true
      }
    }
    return false
  }

  /// `PreferenceKey("k", default: true)`: a type's initializer called with its arguments.
  func objectConstant(_ range: Range<Int>) -> ObjectConstant? {
    guard let first = range.first, t.isIdentifier(first),
      t.text(first).first?.isUppercase == true
    else { return nil }
    // `Property<Bool>("k", …)` and `Property.init("k", …)` call the type's initializer too.
    var callee = first
    if t.isPunctuation(first + 1, 0x3C) { callee = t.angleEnd(from: first + 1) - 1 }
    if t.isPunctuation(callee + 1, 0x2E), t.isText(callee + 2, "init") { callee += 2 }
    guard callee < range.upperBound, let c = parseCall(at: callee),
      c.close == range.upperBound - 1, !c.arguments.isEmpty
    else { return nil }
    return ObjectConstant(
      type: t.text(first), labels: c.labels, keys: c.arguments.map { keyOf($0) },
      values: c.arguments.map { valueOf($0) }, receivers: c.arguments.map(argumentReceiver))
  }

  /// A constant that names a key (`let k = "key"`, `static let all = [...]`), under its type's
  /// name too.
  /// `stored`: the initial value of a stored property or a global, which can name no member
  /// of an instance (`let countKey = "ratingCount" + lastVersion`: a constant too).
  mutating func recordConstant(_ name: String, _ key: KeyExpr, stored: Bool = false) {
    switch key {
    case .literal, .oneOf: break
    case .concat(let parts)
    where stored && parts.contains(where: { if case .literal = $0 { true } else { false } })
      && parts.allSatisfy({
        switch $0 {
        case .literal: true
        case .name(let n): !n.hasPrefix("self.")
        default: false
        }
      }):
      break
    default: return
    }
    if let type = typeName { facts.constants[type + "." + name] = key }
    // In nested types (`enum Keys { enum V2 { static let session = "…" } }`): `Keys.V2.session`
    // too, and each shorter path, so that `V1.session` and `V2.session` stay apart.
    if types.count > 1 {
      for start in 0..<(types.count - 1) {
        let path = types[start...].map(\.name).joined(separator: ".") + "." + name
        if facts.constants[path] == nil { facts.constants[path] = key }
      }
    }
    if facts.constants[name] == nil { facts.constants[name] = key }
  }

  mutating func bind(_ name: String, _ receiver: ReceiverRef) {
    if let s = scope, s.selector != nil || s.property != nil {
      scope?.locals[name, default: LocalVariable()].receiver = receiver
    } else {
      facts.receivers[name] = receiver
      if let type = typeName { facts.receivers[type + "." + name] = receiver }
    }
  }
}
