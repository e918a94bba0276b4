import PreferencesMigration
import PropertyList

/// Following values through the tree: keys with alternatives (a collection, a function's
/// returns), wrappers' calls (one level, two, an initializer that keeps the key in a member).
extension ScanModel {
  // MARK: - Keys with alternatives

  /// Every key an expression may name: one for a plain key, one a collection's element, one a
  /// function's return; `*` where a piece is known only at run time.
  func resolveKeys(_ expr: KeyExpr) -> [ResolvedKey] {
    var out: [ResolvedKey] = []
    for alternative in expand(expr, depth: 0) {
      let resolved = resolveSingle(alternative)
      if !out.contains(resolved) { out.append(resolved) }
    }
    return out
  }

  /// At most this many keys from one expression (a product of collections).
  static let alternativesLimit = 512

  /// `expr` as the alternatives it stands for, each without a collection or a call.
  func expand(_ expr: KeyExpr, depth: Int) -> [KeyExpr] {
    guard depth < 16 else { return [expr] }
    switch expr {
    case .literal, .runtime: return [expr]
    case .name(let n):
      guard let c = lookup(n), hasChoice(c, depth: depth) else { return [expr] }
      return expand(c, depth: depth + 1)
    case .oneOf(let items):
      return Array(items.flatMap { expand($0, depth: depth + 1) }.prefix(Self.alternativesLimit))
    case .call("[]", let arguments, let source):
      // An element of a collection: one of its keys.
      guard let collection = arguments.first, hasChoice(collection, depth: depth) else {
        return [.runtime(source)]
      }
      return expand(collection, depth: depth + 1)
    case .call(let f, let arguments, let source) where f.hasPrefix("."):
      // A member of the object an argument names (`key.name` of `PreferenceKey("k", …)`).
      return objectMember(f, of: arguments, source: source, depth: depth)
    case .call(let f, let arguments, let source):
      // `[OEDBSaveState entityName]` of `class var entityName: String { "SaveState" }`: that
      // class's constant.
      if arguments.isEmpty, f.first?.isUppercase == true, f.contains("."), let c = constants[f] {
        return expand(c, depth: depth + 1)
      }
      guard let found = returnsOf(f),
        let key = Self.alternatives(found, arguments: arguments)
      else { return [.runtime(source)] }
      return expand(key, depth: depth + 1)
    case .member(let base, let member):
      // Each element's property, looked up as a name (`leftHalf.name`).
      return expand(base, depth: depth + 1).map { element in
        switch element {
        case .name(let n): return .name(n + "." + member)
        case .literal(let s): return .name(s + "." + member)
        default: return .runtime("…." + member)
        }
      }
    case .concat(let parts):
      var results: [[KeyExpr]] = [[]]
      for part in parts {
        let options = expand(part, depth: depth + 1)
        results = results.flatMap { r in options.map { r + [$0] } }
        if results.count > Self.alternativesLimit {
          results = Array(results.prefix(Self.alternativesLimit))
        }
      }
      return results.map { .concat($0) }
    }
  }

  /// Whether `property` is a Swift stored property of a protocol UserDefaults is made to
  /// conform to (`let storage: LocalStorage` beside `extension UserDefaults: LocalStorage {}`),
  /// declared with that one type by the types of the use's file (else of the whole tree).
  func conformsToDefaults(_ property: String, file: Int) -> Bool {
    let local = file < files.count ? files[file].members : [:]
    var declared = Set(local.values.compactMap { $0.declared[property] })
    if declared.isEmpty { declared = Set(members.values.compactMap { $0.declared[property] }) }
    guard declared.count == 1, let type = declared.first?.replacing("?", with: "") else {
      return false
    }
    return superclasses[type] == "UserDefaults"
  }

  /// Whether the class `type` adopts a protocol UserDefaults is made to conform to (`class
  /// LocalStorageProvider: NSObject, LocalStorage`): one more implementation of it, used as user
  /// defaults wherever the code uses it (its keys, its registrations).
  func adoptsDefaultsProtocol(_ type: String) -> Bool {
    guard let declaration = declarations[type], declaration.kind == "class" else { return false }
    return declaration.conformances.contains { superclasses[$0] == "UserDefaults" }
  }

  /// A function's returns by its selector: as written, then by its last part (`[Prefs
  /// defaultValues]`, `Self.keys(for:)`).
  func returnsOf(_ selector: String) -> [FunctionReturn]? {
    if let found = returns[selector] { return found }
    if let dot = selector.lastIndex(of: ".") {
      return returns[String(selector[selector.index(after: dot)...])]
    }
    return nil
  }

  // MARK: - Wrappers

  mutating func addWrapperCalls(_ calls: [WrapperCall]) {
    // A call that fits no wrapper yet may fit one another call of this round makes (a
    // method calling the closure that wraps user defaults, read in a later file): tried again
    // while the round makes new wrappers, whatever the files' order.
    var pending = calls
    for _ in 0..<4 {
      let known = wrappers.values.reduce(0) { $0 + $1.count }
      var unmatched: [WrapperCall] = []
      for call in pending {
        let found = wrappersFor(call)
        if found.isEmpty { unmatched.append(call) }
        for wrapper in found { instantiate(wrapper, call) }
      }
      guard !unmatched.isEmpty, wrappers.values.reduce(0, { $0 + $1.count }) > known else {
        break
      }
      pending = unmatched
    }
  }

  /// The wrappers a call may be: by its selector, or (a Swift initializer) by its type.
  func wrappersFor(_ call: WrapperCall) -> [SourceWrapper] {
    // `self[.item]`: the subscript of the type the call is written in, no other's.
    if call.selector.hasPrefix("subscript(") {
      return (wrappers[call.selector] ?? []).filter {
        guard let owner = $0.className else { return false }
        if owner == call.callerType { return true }
        // `UserDefaults.standard[.synced]`: a subscript of an extension of UserDefaults (or of
        // a protocol they conform to), the overload whose enum declares the case given.
        guard owner == "UserDefaults" || superclasses[owner] == "UserDefaults" else {
          return false
        }
        switch call.receiver {
        case .standard, .suite, .name: break
        default: return false
        }
        return Self.declaresCase($0, call, declarations)
      }
    }
    var found = wrappers[call.selector] ?? []
    if let open = call.selector.firstIndex(of: "(") {
      let base = String(call.selector[...open])
      found += (wrappers[base] ?? []).filter { Self.argumentIndices($0, call) != nil }
      // A function whose defaulted parameters or trailing closure the call leaves out.
      for (selector, list) in wrappers
      where selector != call.selector && selector != base
        && selector.hasPrefix(base)
      {
        found += list.filter { !$0.labels.isEmpty && Self.argumentIndices($0, call) != nil }
      }
    }
    // `names.contains(name)`: a collection's method, unless the call is made in the wrapper's
    // own type or on what the tree knows to be one of it (or user defaults, for an extension
    // of UserDefaults).
    if Self.collectionSelectors.contains(call.selector) {
      found = found.filter { w in
        guard let owner = w.className else { return false }
        if owner == call.callerType, call.receiver == .none || call.receiver == .type(owner) {
          return true
        }
        if let c = classOf(call.receiver), isKind(c, of: owner) { return true }
        switch call.receiver {
        case .standard, .suite: return owner == "UserDefaults" || owner == "NSUserDefaults"
        default: return false
        }
      }
    }
    return found
  }

  /// For each parameter of `wrapper`, the index of the call's argument that gives it (nil
  /// where the call leaves it out); nil when the call's labels do not fit the parameters.
  static func argumentIndices(_ wrapper: SourceWrapper, _ call: WrapperCall) -> [Int?]? {
    argumentIndices(
      labels: wrapper.labels, parameters: wrapper.parameters.count, callLabels: call.labels,
      arguments: call.arguments.count)
  }

  /// The same, by the labels of the parameters and of the call's arguments.
  static func argumentIndices(
    labels: [String], parameters: Int, callLabels: [String], arguments: Int
  ) -> [Int?]? {
    guard !labels.isEmpty, !callLabels.isEmpty else {
      return (0..<parameters).map { $0 < arguments ? $0 : nil }
    }
    var out = [Int?](repeating: nil, count: parameters)
    var p = 0
    for (a, label) in callLabels.enumerated() {
      // The parameters left out before this argument must have defaults (or be the wrapped
      // value a property wrapper's attribute gives by its `=`).
      while p < labels.count, labels[p] != label { p += 1 }
      guard p < labels.count, p < parameters else { return nil }
      out[p] = a
      p += 1
    }
    return out
  }

  /// A wrapper's use, made for one call: its parameters replaced by the call's arguments.
  /// Where the call is itself inside a function whose parameter it passes on, that function
  /// becomes a wrapper too (its calls are gathered in the next round).
  mutating func instantiate(_ wrapper: SourceWrapper, _ call: WrapperCall) {
    guard let indices = Self.argumentIndices(wrapper, call),
      overloadFits(wrapper, call, indices: indices)
    else { return }
    // `Other.setInt(key:value:)` is another class's method of the same name.
    if let type = classOf(call.receiver), let owner = wrapper.className, type != owner,
      !isKind(type, of: owner)
    {
      return
    }
    // A type's own method named as user defaults' (`set(_:forKey:)` of a struct standing for
    // them): called on a receiver of no known class, only one whose name says defaults (a
    // cache's `set(_:forKey:)` is not).
    if classOf(call.receiver) == nil, wrapper.className != nil,
      DefaultsAPI.swift[wrapper.selector] != nil || DefaultsAPI.objc[wrapper.selector] != nil
    {
      switch call.receiver {
      case .name(let text), .unknown(let text):
        if !DefaultsAPI.namesDefaults(text) { return }
      default: break
      }
    }
    called.insert(wrapper.selector)
    func argumentIndex(_ name: String) -> (parameter: Int, argument: Int?)? {
      guard let p = wrapper.parameters.firstIndex(of: name) else { return nil }
      return (p, p < indices.count ? indices[p] : nil)
    }
    func argument(_ name: String) -> KeyExpr? {
      guard let (p, a) = argumentIndex(name) else { return nil }
      guard let a, a < call.arguments.count, var arg = call.arguments[a] else {
        // `read()` of `read(property: String = #function)`: the caller's property.
        if a == nil, wrapper.callerNameParameters.contains(name), let caller = call.callerName {
          return .literal(caller)
        }
        return .runtime(name)
      }
      // `.sound` for a parameter of type PrefKey: PrefKey.sound.
      if case .name(let n) = arg, n.hasPrefix("."), p < wrapper.parameterTypes.count,
        let type = wrapper.parameterTypes[p]
      {
        arg = .name(type + n)
      }
      return arg
    }
    var use = wrapper.use
    use.key = use.key.substituting(argument)
    // `register(defaults: configuration)` of the dictionary the caller gives: its entries.
    if use.access == .register, case .name(let p) = wrapper.use.key,
      wrapper.use.value == .name(p)
    {
      use.key = .runtime("registered dictionary given to \(wrapper.selector)")
    }
    // `getValue(key: .k) as? String` of a wrapper answering `value(forKey:)`: the cast types it.
    if use.type == nil, use.access == .get || use.access == .presence, let cast = call.castType,
      let type = DefaultsAPI.type(ofClass: cast)
    {
      use.type = type
      use.typeReason = "as? \(cast) at the call"
      if type == .array { use.storedType = use.storedType ?? cast }
    }
    if case .name(let n)? = use.value, let (_, a) = argumentIndex(n) {
      use.value = a.flatMap { $0 < call.values.count ? call.values[$0] : nil }
      // (A call that leaves the parameter out: its declared value, `defaultValue: String =
      // "Visible"`.)
      if a == nil { use.value = wrapper.parameterValues[n] }
      if use.value == nil { use.defaultSource = nil }
      // (`if #available(macOS 10.15, *) { … ?? defaultValue }`: the caller's one value, whichever
      // system's branch reads the key; a test of the run's values still makes it conditional.)
      if use.condition?.contains("#available(") == true { use.condition = nil }
    }
    // What a setter of the wrapper writes when the key is absent (`if value(for: key) == nil {
    // setValue(defaultValue, for: key) }` in an initializer): what the call gives.
    if case .name(let n)? = use.absentValue, let (_, a) = argumentIndex(n) {
      use.absentValue = a.flatMap { $0 < call.values.count ? call.values[$0] : nil }
    }
    // `register(defaults: [key: JSONEncoder().encode(defaultValue)])`: the JSON of what the
    // call gives.
    if case .converted(.name(let n), let type, let source)? = use.value,
      let (_, a) = argumentIndex(n)
    {
      use.value = a.flatMap { $0 < call.values.count ? call.values[$0] : nil }
        .map { .converted($0, type, source: source) }
      if use.value == nil { use.defaultSource = nil }
    }
    // `?? key.defaultValue`: that member of the object the call gives.
    if case .name(let n)? = use.value, let dot = n.firstIndex(of: "."),
      let (_, a) = argumentIndex(String(n[..<dot]))
    {
      use.value = a.flatMap {
        $0 < call.arguments.count ? objectValue(call.arguments[$0], member: String(n[dot...])) : nil
      }
      if use.value == nil { use.defaultSource = nil }
    }
    if let v = use.value, case .name(let n) = v, wrapper.parameters.contains(n) { use.value = nil }
    // `?? fallback(toggle)`: the function called with this call's argument.
    if case .call(let f, let arguments, let source)? = use.value,
      arguments.contains(where: { $0.names.contains(where: wrapper.parameters.contains) })
    {
      use.value = .call(f, arguments.map { $0.substituting(argument) }, source: source)
    }
    // A wrapper that says no type stores what its callers give (`Setting("k", fallback: 20)`):
    // a hint the code's own getters overrule.
    if use.type == nil, let type = use.value?.type {
      use.type = type
      use.weakType = true
    }
    // A receiver a parameter gives (`store: UserDefaults = .standard`): the call's, else the
    // parameter's default.
    var receiverFile = wrapper.use.file
    if case .name(let n) = use.receiver, let (_, a) = argumentIndex(n) {
      if let a, a < call.receivers.count, let given = call.receivers[a] {
        use.receiver = given
        receiverFile = call.file
      } else if let given = wrapper.parameterDefaults[n] {
        use.receiver = given
      }
    }
    // `standardStorage.value(for: .k)` of `let standardStorage = Storage(defaults: .standard)`:
    // the user defaults that object was made with, where the wrapper reads the member its
    // initializer gives them.
    if let given = madeWith(call, ownReceiver(use, file: receiverFile)) {
      use.receiver = given
      use.receiverOwner = nil
      receiverFile = call.file
    }
    // A method of an extension of UserDefaults (`store.set(object: v, forKey: K)`): the user
    // defaults it is called on (the standard ones when the call names none).
    if use.receiver == .extendedDefaults {
      switch call.receiver {
      case .standard, .suite, .name, .returned:
        use.receiver = call.receiver
        receiverFile = call.file
      default: break
      }
      // (Made in a property of an extension of UserDefaults: that property's accesses say
      // which user defaults.)
      if use.receiver == .extendedDefaults, let property = call.extensionProperty {
        use.extensionProperty = property
      }
    }
    // The property's type (`@Stored(…) var x: Bool`) where the wrapper's own is generic.
    if let declared = call.declaredType,
      use.storedType.map({
        LibraryModels.storedType($0, library: use.library, declarations: declarations) == nil
      }) ?? true
    {
      use.storedType = declared
    }
    // A setter of a parameter's value: typed by what the call gives (a constant, or its own
    // parameter's declared type one level up).
    if let parameter = use.valueParameter, let (_, a) = argumentIndex(parameter) {
      use.valueParameter = nil
      if let a, a < call.values.count, let given = call.values[a] {
        if use.type == nil, let type = given.type { use.type = type }
        if call.inAbsentBranch, use.access == .set { use.absentValue = given }
        if case .name(let n) = given, let enclosing = call.enclosing,
          let p = enclosing.parameters.firstIndex(of: n)
        {
          use.valueParameter = n
          if use.type == nil, p < enclosing.parameterTypes.count,
            let declared = enclosing.parameterTypes[p]
          {
            use.type = DefaultsAPI.type(ofClass: declared.replacing("?", with: ""))
          }
        }
      }
    }
    // A setter given JSON data or a published property's value at the call.
    // (Or a getter the call's own use typed: `object(forKey: key) as? Bool` in a wrapper.)
    let settable = use.access == .set && (use.type == nil || use.weakType)
    let readable = (use.access == .get || use.access == .presence) && use.type == nil
    if let given = call.givenType,
      settable || readable || (use.type == .data && given == .json)
    {
      use.type = given
      use.weakType = false
    }
    if use.access == .set, call.absentValue != nil { use.absentValue = call.absentValue }
    // `setValue(defaultValue, for: key)` where the key was tested absent: the other argument.
    if call.inAbsentBranch, use.access == .set, use.absentValue == nil, call.values.count == 2,
      let k = wrapper.use.key.names.lazy.compactMap({ argumentIndex($0)?.argument }).first, k < 2
    {
      use.absentValue = call.values[1 - k]
    }
    if call.testedForNil, use.access == .get {
      // (Only tested for nil: its getter's type is not the key's.)
      use.access = .presence
      use.type = nil
      use.typeReason = nil
    }
    if let enclosing = call.enclosing, use.type == nil, case .name(let n)? = use.value,
      let p = enclosing.parameters.firstIndex(of: n), p < enclosing.parameterTypes.count,
      let declared = enclosing.parameterTypes[p]
    {
      // `setDate(key:value: Date)` passing its `value` on: the type its parameter declares.
      use.type = DefaultsAPI.type(ofClass: declared.replacing("?", with: ""))
      if use.type == nil { use.storedType = declared }
    }
    if let enclosing = call.enclosing,
      use.key.names.contains(where: { enclosing.parameters.contains($0) })
    {
      // A wrapper calling itself, or an overload its call's labels also match (`bool(forKey:
      // key)` in `bool(forKey:defaultValue:)`): the key is its own parameter, which only its
      // callers give (never a constant of the same name elsewhere).
      guard enclosing.selector != wrapper.selector else { return }
      // Two levels: the function the call is in passes its own parameter.
      var derived = use
      derived.file = call.file
      derived.line = call.line
      derived.method = call.selector + " → " + use.method
      if let fallback = call.fallback, use.access == .get || use.access == .presence {
        // `return T(rawValue: getString(key: key)) ?? defaultValue`: the outer fallback is
        // what the function's callers see.
        derived.value = fallback
        derived.defaultSource = .fallback
      }
      let made = SourceWrapper(
        selector: enclosing.selector, className: enclosing.className,
        parameters: enclosing.parameters, key: derived.key, use: derived,
        parameterTypes: enclosing.parameterTypes, labels: enclosing.labels)
      if !(wrappers[enclosing.selector] ?? []).contains(where: {
        $0.key == made.key && $0.use.method == made.use.method
      }) {
        wrappers[enclosing.selector, default: []].append(made)
      }
      return
    }
    // The receiver is the wrapper's: resolved in its file.
    let domain: ScanDomain
    switch resolve(ownReceiver(use, file: receiverFile), file: receiverFile) {
    case .domain(let d): domain = d
    case .wrapper(let type):
      // A wrapper calling its type's own wrapper (`ifPresent(key:assign:)` calling
      // `object(forKey:)` of the same enum): that one's body, with this call's key.
      // (A few levels: wrappers that call each other in a cycle end.)
      guard nesting < 4, let templates = wrappers[use.method]?.filter({ $0.className == type }),
        !templates.isEmpty, templates.allSatisfy({ $0.selector != wrapper.selector }),
        let api = DefaultsAPI.objc[use.method] ?? DefaultsAPI.swift[use.method]
      else { return }
      var inner = WrapperCall(
        use, calling: api, name: call.name ?? use.name,
        condition: call.condition ?? use.condition, file: call.file, line: call.line)
      // (What this wrapper's own use says: its type, its `?? V`.)
      inner.declaredType = call.declaredType
      inner.fallback = call.fallback
      if inner.fallback == nil, use.defaultSource == .fallback { inner.fallback = use.value }
      inner.castType = call.castType
      inner.givenType = call.givenType ?? (use.weakType ? nil : use.type)
      inner.absentValue = call.absentValue
      nesting += 1
      for template in templates { instantiate(template, inner) }
      nesting -= 1
      return
    default: return
    }
    use.method = call.selector + " → " + use.method
    use.file = call.file
    use.line = call.line
    use.place = nil
    use.ownerType = nil
    if let name = call.name { use.name = name }
    if let declaration = call.declaration { use.declaration = declaration }
    if let condition = call.condition { use.condition = condition }
    if use.access == .registerFile {
      if case .key(let name) = resolveKey(use.key) {
        registeredFiles.append((name.contains(".") ? name : name + ".plist", use))
      }
      return
    }
    // The dictionary the caller gave a registering function: its entries.
    if use.access == .register, case .runtime = use.key, let value = use.value,
      case .dictionary(let entries)? = registeredEntries(value)
    {
      for u in use.registering(entries) { uses.append((u, domain)) }
      return
    }
    uses.append((use, domain))
    if let absent = use.absentWritten() { uses.append((absent, domain)) }
    // `getInt(key: K) ?? 0`: what the caller falls back to when the wrapper answers nil.
    if let fallback = call.fallback, use.access == .get || use.access == .presence {
      var absent = use
      absent.access = .presence
      absent.value = fallback
      absent.defaultSource = .fallback
      absent.method = call.selector + " ?? …"
      if absent.type == nil { absent.type = fallback.type }
      absent.weakType = true
      if fallbacksAdded.insert("\(absent.file):\(absent.line):\(absent.method)").inserted {
        uses.append((absent, domain))
      }
    }
  }

  /// A use with what only the whole tree tells: the value a first launch writes, the type of
  /// a property of its type it writes, the app's own `Defaults` of a SwiftyUserDefaults-style
  /// key.
  func completed(_ found: SourceUse, seeded: Set<String>) -> SourceUse {
    var use = adaptedAppStorage(found)
    // A value written by a function the first launch runs: the key's value when absent.
    if use.access == .set, use.absentValue == nil, let seed = use.seed,
      seeded.contains(seed.function), let value = seedValue(seed)
    {
      use.absentValue = .value(value)
    }
    if use.access == .set, use.type == nil, use.storedType == nil, let seed = use.seed {
      typeByMember(&use, seed)
    }
    // A SwiftyUserDefaults-style key of an app that declares its own `Defaults` (`var
    // Defaults: UserDefaults = …`): kept there, not in the library's standard domain.
    if use.library == .swiftyUserDefaults, use.receiver == .standard,
      let own = receivers["Defaults"]
    {
      use.receiver = own
    }
    return use
  }

  /// The methods the tree defines as presence tests true when the key is there (`func
  /// valueExists(forKey key: String) -> Bool { object(forKey: key) != nil }`): a fallback found
  /// by a test through a method (``SourceUse/testedBy``) is kept only if it names one of them.
  static func presenceTests(_ files: [FileFacts]) -> Set<String> {
    var tests: Set<String> = []
    for f in files {
      for w in f.wrappers where w.use.access == .presence && w.use.trueWhenPresent == true {
        tests.insert(w.selector)
      }
    }
    return tests
  }

  /// The functions a first launch runs: each called while a marker key is absent, and what
  /// those call of their own type, two levels down.
  static func seededFunctions(_ files: [FileFacts]) -> Set<String> {
    var seeded = Set(files.flatMap(\.seedCalls))
    guard !seeded.isEmpty else { return [] }
    var callees: [String: Set<String>] = [:]
    for f in files { callees.merge(f.callees) { $0.union($1) } }
    var frontier = seeded
    for _ in 0..<2 {
      frontier = Set(frontier.flatMap { callees[$0] ?? [] }).subtracting(seeded)
      seeded.formUnion(frontier)
    }
    return seeded
  }

  /// The constant a seeded setter writes: a constant, or a property of the writer's type
  /// holding a fresh instance (`general.flag` of `var general = GeneralDefaults()`), whose
  /// declaration gives the value.
  func seedValue(_ seed: SeedWrite) -> PlistValue? {
    var value = seed.value
    if case .name(let n) = value, let type = seed.type {
      let parts = n.split(separator: ".").map(String.init)
      guard parts.count == 2 || parts.count == 3 && parts[0] == "self" else { return nil }
      let holder = parts[parts.count - 2]
      let property = parts[parts.count - 1]
      guard case .computed(let made, _)? = members[type]?.initial[holder], made.hasSuffix("()"),
        let first = made.first, first.isUppercase,
        made.dropLast(2).allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
      else { return nil }
      value = .name(made + "." + property)
    }
    guard case .constant(let v) = resolveValue(value) else { return nil }
    return v
  }

  /// A setter of a stored property of its own type, declared in another file (`set(flag,
  /// forKey: K)`, `set(mode.rawValue, forKey: K)` of `var mode: Mode` in `Settings`): stored
  /// as the property's declared type (an enum by its raw value), else its initial value's.
  func typeByMember(_ use: inout SourceUse, _ seed: SeedWrite) {
    guard let type = seed.type, let found = members[type], case .name(let n) = seed.value else {
      return
    }
    var parts = n.split(separator: ".").map(String.init)
    if parts.first == "self" { parts.removeFirst() }
    let raw = parts.count == 2 && parts[1] == "rawValue"
    guard parts.count == 1 || raw, let property = parts.first else { return }
    if let declared = found.declared[property] {
      let bare = declared.replacing("?", with: "").replacing("!", with: "")
      if !raw, let planType = DefaultsAPI.type(ofClass: bare) {
        use.type = planType
      } else {
        use.storedType = bare
      }
    } else if !raw, let initial = found.initial[property], case .value(let v) = initial {
      use.type = ValueExpr.value(v).type
    }
  }
}
