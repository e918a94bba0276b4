import LegacyDefaults
import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A defaults domain the code uses: the standard one, or a suite.
package enum ScanDomain: Sendable, Hashable, CustomStringConvertible {
  case standard
  case suite(String)

  package var description: String {
    switch self {
    case .standard: "the standard domain"
    case .suite(let name): "suite \(name)"
    }
  }
}

/// The tree's facts put together: names looked up across files, receivers resolved to
/// domains, wrappers' calls made uses, then each key's type and default decided.
///
/// Values are followed from where the code writes them to the call that uses them: a name to its
/// constant (a macro, a `let`, an enum case, a collection of keys), a call to what the function
/// returns for its arguments, a parameter to each call's argument (a wrapper, and a function
/// calling a wrapper with its own parameter), a member to what the type's initializers set it from
/// (an object that keeps its key, a property wrapper, an object a constant holds).
struct ScanModel {
  var files: [FileFacts]
  let dialect: Dialect
  var constants: [String: KeyExpr] = [:]
  var valueConstants: [String: ValueExpr] = [:]
  var receivers: [String: ReceiverRef] = [:]
  var superclasses: [String: String] = [:]
  var customEncoded: Set<String> = []
  var runtimeMembers: Set<String> = []
  var keyClasses: [(key: KeyExpr, type: MigrationPlan.ValueType)] = []
  var types: [String: String] = [:]
  var wrappers: [String: [SourceWrapper]] = [:]
  /// What each function returns, by its selector.
  var returns: [String: [FunctionReturn]] = [:]
  var switchReturns: [String: [String: ValueExpr]] = [:]
  var subclassSuites: [String: KeyExpr] = [:]
  var members: [String: TypeMembers] = [:]
  /// The user defaults calls give functions' parameters, with the calling file.
  var argumentReceivers: [String: (receiver: ReceiverRef, file: Int)] = [:]
  var declarations: [String: TypeDeclaration] = [:]
  var uses: [(use: SourceUse, domain: ScanDomain)] = []
  /// Uses whose receiver may be user defaults but is not known to be: the evidence's.
  var unknown: [SourceUse] = []
  /// The bundle files the code registers (`Defaults.plist`), with the use that registers each.
  var registeredFiles: [(name: String, use: SourceUse)] = []
  var extraNotes: [String] = []
  /// The properties declaring a key (a library's, a property wrapper's) no code names again.
  var unusedDeclarations: Set<PropertyDeclaration> = []
  /// The wrappers some call made uses of (by selector): the rest are reported as patterns.
  var called: Set<String> = []
  /// The callers' fallbacks recorded (a call's file, line and selector): each once.
  var fallbacksAdded: Set<String> = []
  /// How deep a wrapper's call of its own type's wrapper is being followed.
  var nesting = 0

  init(files: [FileFacts], dialect: Dialect) {
    self.files = files
    self.dialect = dialect
    for (index, f) in files.enumerated() {
      constants.merge(f.constants) { a, _ in a }
      valueConstants.merge(f.valueConstants) { a, _ in a }
      receivers.merge(f.receivers) { a, _ in a }
      superclasses.merge(f.superclasses) { a, _ in a }
      customEncoded.formUnion(f.customEncoded)
      runtimeMembers.formUnion(f.runtimeMembers)
      keyClasses += f.keyClasses
      types.merge(f.types) { a, _ in a }
      for (selector, found) in f.returns { returns[selector, default: []] += found }
      declarations.merge(f.declarations, uniquingKeysWith: TypeDeclaration.merged)
      switchReturns.merge(f.switchReturns) { a, _ in a }
      subclassSuites.merge(f.subclassSuites) { a, _ in a }
      for (name, given) in f.argumentReceivers {
        if case .suite? = argumentReceivers[name]?.receiver { continue }
        argumentReceivers[name] = (given, index)
      }
      for (type, found) in f.members {
        var known = members[type] ?? TypeMembers()
        known.initializers += found.initializers
        if known.stored.isEmpty { known.stored = found.stored }
        known.initial.merge(found.initial) { a, _ in a }
        known.declared.merge(found.declared) { a, _ in a }
        known.isStruct = known.isStruct || found.isStruct
        members[type] = known
      }
    }
    let (seeded, tests) = (Self.seededFunctions(files), Self.presenceTests(files))
    for n in files.indices {
      for w in files[n].wrappers where w.use.testedBy.map(tests.contains) ?? true {
        var w = w
        w.use.file = n
        wrappers[w.selector, default: []].append(w)
      }
      for (name, use) in files[n].registeredFiles {
        var use = use
        use.file = n
        registeredFiles.append((name, use))
      }
    }
    addDynamicProperties()
    addObjectMembers()
    for n in files.indices {
      for found in files[n].uses where found.testedBy.map(tests.contains) ?? true {
        // `@UserDefault(…)` of a property wrapper the tree declares: the wrapper's own calls
        // say what it stores (a package's macro is only taken where no type of that name is).
        // (An extension of the package's type is not one of the tree's.)
        if found.library == .preferenceMacro || found.library == .persisted,
          let declared = declarations[String(found.method.dropFirst())],
          declared.kind != "extension"
        {
          continue
        }
        let use = completed(found, seeded: seeded)
        // A key a member holds: a template of each initializer (or assignment) that sets the
        // member, else a use like any other (a constant of that name, or a pattern).
        if use.ownerType != nil {
          var template = use
          template.file = n
          if addMemberWrappers(template) || addConformerUses(template) { continue }
          if addMemberSetter(template) { continue }
        }
        add(use)
      }
    }
  }

  /// A use whose receiver is resolved: kept with its domain, made a wrapper call, reported as
  /// a receiver that may be user defaults, or dropped (not user defaults).
  mutating func add(_ use: SourceUse) {
    // A registered dictionary named here and made elsewhere (Swift `register(defaults: x)`,
    // `[d registerDefaults:[self defaultValues]]`).
    if use.access == .register, case .runtime = use.key, let value = use.value {
      switch resolveValue(value) {
      case .constant(.dictionary(let d)):
        for u in use.registering(
          d.map { ValueEntry(key: .literal($0.key), value: .value($0.value)) })
        {
          add(u)
        }
      default:
        if case .dictionary(let entries) = registeredEntries(value) {
          for u in use.registering(entries) { add(u) }
        } else if case .call(let f, _, _) = value {
          // A dictionary a function reads from a bundle file (`+cleanDefaults` returning
          // `[NSPropertyListSerialization propertyListFromData:[… contentsAtPath:path] …]`).
          for r in returnsOf(f) ?? [] {
            guard let file = r.file, case .key(let name) = resolveKey(file) else { continue }
            registeredFiles.append((name.contains(".") ? name : name + ".plist", use))
          }
        }
      }
      return
    }
    if use.access == .registerFile {
      switch resolveKey(use.key) {
      case .key(let name):
        registeredFiles.append((name.contains(".") ? name : name + ".plist", use))
      case .pattern: break
      }
      return
    }
    if let each = eachCase(use) {
      for one in each { add(one) }
      return
    }
    switch resolve(ownReceiver(use, file: use.file), file: use.file) {
    case .domain(let domain):
      uses.append((use, domain))
      if let absent = use.absentWritten() { uses.append((absent, domain)) }
    case .unknown:
      if use.access != .register, DefaultsAPI.mayBeDefaults(use.receiver, selector: use.method) {
        unknown.append(use)
      }
    case .wrapper(let type):
      // A wrapper class's own method with a defaults selector (`[[Settings shared]
      // boolForKey:K]`): its body's uses, with this key.
      guard let templates = wrappers[use.method]?.filter({ $0.className == type }),
        !templates.isEmpty,
        let api = DefaultsAPI.objc[use.method] ?? DefaultsAPI.swift[use.method]
      else {
        // `[preferences registerDefaults:d]` of a wrapper class whose own `registerDefaults:`
        // merges the dictionary into its domain by other means (`setPersistentDomain:`): a
        // registration of the app's, as the wrapper's other methods read them.
        if use.access == .register { uses.append((use, .standard)) }
        return
      }
      var call = WrapperCall(
        use, calling: api, name: use.name, condition: use.condition, file: use.file,
        line: use.line)
      call.declaredType = use.storedType
      if use.access == .set || use.type == .json, !use.weakType { call.givenType = use.type }
      call.absentValue = use.absentValue
      for template in templates { instantiate(template, call) }
    case .none: return
    }
  }

  /// The fallbacks given where a managed property is read, kept only for the keys of managed
  /// properties (any other `UserDefaults.standard.NAME` is a computed property of the app's).
  mutating func keepManagedReads() {
    guard uses.contains(where: { $0.use.managedRead }) else { return }
    let managed = Set(
      uses.compactMap { u -> String? in
        guard u.use.method.hasPrefix("@NSManaged") || u.use.method.hasPrefix("@dynamic"),
          case .literal(let k) = u.use.key
        else { return nil }
        return k
      })
    uses.removeAll { u in
      guard u.use.managedRead, case .literal(let k) = u.use.key else { return false }
      return !managed.contains(k)
    }
  }

  /// A binding to `values.a.b` where the code reads, writes or registers `a.b` itself: the
  /// binding is of that key (user defaults keys may hold dots), not of `a`.
  mutating func joinBoundPaths() {
    // (An observer of the shared controller's `values.a.b` too.)
    var paths: [Int: String] = [:]
    for n in uses.indices {
      if let path = uses[n].use.boundPath {
        paths[n] = path
      } else if uses[n].use.access == .observe || uses[n].use.access == .bind,
        case .literal(let k) = uses[n].use.key, k.hasPrefix("values."),
        k.dropFirst(7).contains(".")
      {
        paths[n] = String(k.dropFirst(7))
      }
    }
    guard !paths.isEmpty else { return }
    var keys: Set<String> = []
    for (use, _) in uses where use.access != .bind && use.access != .observe {
      if case .key(let k) = resolveKey(use.key), k.contains(".") { keys.insert(k) }
    }
    for (n, path) in paths where keys.contains(path) {
      uses[n].use.key = .literal(path)
      uses[n].use.boundPath = nil
    }
  }

  /// Registered files' uses, read by the scan once every wrapper is followed.
  mutating func addRegistered(_ registered: [SourceUse]) {
    for use in registered { add(use) }
  }

  /// The wrappers no call made a use of, whose key the wrapper builds (`@"Flag" + name`):
  /// patterns, the parameters what only the run knows.
  mutating func addUncalledWrappers() {
    for (selector, list) in wrappers.sorted(by: { $0.key < $1.key })
    where !called.contains(selector) {
      for wrapper in list {
        // A member no assignment gave a key (`storageKey=`): the member's pattern.
        if let member = SourceWrapper.assignedMember(selector) {
          var use = wrapper.use
          use.key = .runtime(member)
          use.ownerType = nil
          if case .domain(let d) = resolve(use.receiver, file: use.file) { uses.append((use, d)) }
          continue
        }
        guard case .concat(let parts) = wrapper.use.key,
          parts.contains(where: { part in
            if case .name(let n) = part { return !wrapper.parameters.contains(n) }
            return true
          })
        else { continue }
        var use = wrapper.use
        use.key = use.key.substituting { name in
          wrapper.parameters.contains(name) ? .runtime(name) : nil
        }
        use.ownerType = nil
        if case .domain(let domain) = resolve(use.receiver, file: use.file) {
          uses.append((use, domain))
        }
      }
    }
  }

  enum Resolved {
    case domain(ScanDomain)
    case wrapper(String)
    /// May be user defaults, not known to be.
    case unknown
    case none
  }

  /// Foundation's names of the volatile domains of the app's own search list.
  static let ownVolatileDomains: Set<String> = [
    "NSRegistrationDomain", "NSArgumentDomain", "UserDefaults.registrationDomain",
    "UserDefaults.argumentDomain", ".registrationDomain", ".argumentDomain",
  ]

  func resolve(_ receiver: ReceiverRef, file: Int, depth: Int = 0) -> Resolved {
    guard depth < 8 else { return .none }
    switch receiver {
    case .standard: return .domain(.standard)
    case .suite(let expr):
      // `initWithSuiteName:NSRegistrationDomain`: the registered values of the app's own
      // search list (its keys, as registered), not a suite of its own.
      if case .name(let n) = expr, Self.ownVolatileDomains.contains(n), constants[n] == nil {
        return .domain(.standard)
      }
      switch resolveKey(expr) {
      case .key(let name): return .domain(.suite(name))
      case .pattern(let p, _): return .domain(.suite(p))
      }
    case .extendedDefaults: return .domain(.standard)
    case .name(let n):
      // A function's parameter: what its callers give, else its own default.
      if n.hasPrefix("param:"), let given = argumentReceivers[n] {
        return resolve(given.receiver, file: given.file, depth: depth + 1)
      }
      if file < files.count, let bound = files[file].receivers[n] {
        return resolve(bound, file: file, depth: depth + 1)
      }
      if let bound = receivers[n] { return resolve(bound, file: file, depth: depth + 1) }
      // `.group` (`@AppStorage(…, store: .group)`): a static member of UserDefaults.
      if n.hasPrefix("."),
        let bound = receivers["UserDefaults" + n] ?? receivers[String(n.dropFirst())]
      {
        return resolve(bound, file: file, depth: depth + 1)
      }
      // `Settings.shared`: an instance of a type; `Manager.shared.storage`: its member.
      if let dot = n.firstIndex(of: "."), n.first?.isUppercase == true {
        let type = String(n[..<dot])
        let member = String(n[n.index(after: dot)...])
        let last = String(n[n.index(after: n.lastIndex(of: ".") ?? dot)...])
        if let bound = receivers[type + "." + member] ?? receivers[member]
          ?? receivers[type + "." + last], n.contains(".")
        {
          return resolve(bound, file: file, depth: depth + 1)
        }
        if member.contains("."), let bound = receivers[last] {
          return resolve(bound, file: file, depth: depth + 1)
        }
        // `UserDefaults.group` whose declaration the tree does not show (or shows in a form
        // not followed): user defaults, not known which (never taken for the standard ones).
        if type == "UserDefaults" || type == "NSUserDefaults" { return .unknown }
        return resolve(.type(type), file: file, depth: depth + 1)
      }
      // A property whose class the code declares: user defaults or not.
      let bare = n.lastIndex(of: ".").map { String(n[n.index(after: $0)...]) } ?? n
      if let type = (file < files.count ? files[file].types[bare] : nil) ?? types[bare] {
        return resolve(.type(type), file: file, depth: depth + 1)
      }
      return conformsToDefaults(bare, file: file) ? .domain(.standard) : .unknown
    case .type(let name):
      // `[TCADefaults boolForKey:]`: a macro of user defaults written like a class.
      if let bound = receivers[name], bound != .type(name) {
        return resolve(bound, file: file, depth: depth + 1)
      }
      // An instance of a subclass of UserDefaults its `convenience init()` makes for a suite.
      if let suite = subclassSuites[name] {
        return resolve(.suite(suite), file: file, depth: depth + 1)
      }
      var type = name
      var seen: Set<String> = []
      while seen.insert(type).inserted {
        if type == "NSUserDefaults" || type == "UserDefaults" { return .domain(.standard) }
        guard let parent = superclasses[type] else { break }
        type = parent
      }
      if adoptsDefaultsProtocol(name) { return .domain(.standard) }
      if wrappers.values.contains(where: { $0.contains { $0.className == name } }) {
        return .wrapper(name)
      }
      return .none
    case .returned(let type, let method):
      if let bound = returnedReceiver(type, method) {
        return resolve(bound, file: file, depth: depth + 1)
      }
      let owner = resolve(.type(type), file: file, depth: depth + 1)
      // `[Helper defaultsDB]` whose body the tree does not show: reported, never taken.
      if case .none = owner, DefaultsAPI.namesDefaults(method) { return .unknown }
      return owner
    case .unknown: return .unknown
    case .none: return .none
    }
  }

  enum ResolvedKey: Equatable {
    case key(String)
    /// A key with pieces known only at run time (`Flag*Image`), and their source.
    case pattern(String, [String])
  }

  /// The key an expression names (the first, for one that names several).
  func resolveKey(_ expr: KeyExpr) -> ResolvedKey {
    resolveKeys(expr).first ?? .pattern("*", ["…"])
  }

  /// The one key of an expression without alternatives: its literal pieces, the constants
  /// its names stand for, `*` for what only the run knows.
  func resolveSingle(_ expr: KeyExpr) -> ResolvedKey {
    if case .literal(let s) = expr { return .key(s) }
    var text = ""
    var runtime: [String] = []
    var wild = false
    func walk(_ e: KeyExpr, _ depth: Int) {
      func wildcard(_ source: String) {
        // Adjacent wildcards are one.
        if !wild { text += "*" }
        wild = true
        runtime.append(source)
      }
      guard depth < 16 else {
        wildcard("…")
        return
      }
      switch e {
      case .literal(let s):
        text += s
        if !s.isEmpty { wild = false }
      case .runtime(let r): wildcard(r)
      case .concat(let parts): for p in parts { walk(p, depth + 1) }
      case .name(let n):
        if let c = lookup(n) {
          walk(c, depth + 1)
        } else {
          wildcard(n)
        }
      case .oneOf(let items):
        if let first = items.first { walk(first, depth + 1) } else { wildcard("…") }
      case .call(_, _, let source): wildcard(source)
      case .member(_, let name): wildcard("…." + name)
      }
    }
    walk(expr, 0)
    return runtime.isEmpty ? .key(text) : .pattern(text, runtime)
  }

  /// A name's constant: as written, then (`Keys.sound`, `.sound`) by its last part; then
  /// what a function or computed property of that name without parameters returns.
  func lookup(_ name: String) -> KeyExpr? {
    if let c = constants[name] { return c }
    // `Keys.sound`, `.sound`: a type's constant, by its last part; `client.id` (a variable's
    // property) is none.
    if let first = name.first, first.isLowercase, name.contains("."),
      !name.hasPrefix("self.")
    {
      return nil
    }
    // `Keys.V2.session`: the nested type's (`V2.session`) before any `session`.
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    var path = parts.dropFirst()
    while path.count > 1 {
      if let c = constants[path.joined(separator: ".")] { return c }
      path = path.dropFirst()
    }
    if let dot = name.lastIndex(of: ".") {
      let last = String(name[name.index(after: dot)...])
      // `InfoPlistReader.main.appGroup`: the type's computed property, which the run answers
      // (not another type's constant of that name).
      if parts.count > 2, let head = parts.first,
        runtimeMembers.contains(String(head) + "." + last)
      {
        return nil
      }
      if let c = constants["." + last] ?? constants[last] { return c }
      if let found = returns[last], let key = Self.alternatives(found, arguments: []) {
        return key
      }
    }
    if let found = returns[name], let key = Self.alternatives(found, arguments: []) { return key }
    return nil
  }

  /// A value with its names looked up: a constant, or the source text of what is not one.
  enum ResolvedValue: Equatable {
    case constant(PlistValue)
    case computed(String)
  }

  func resolveValue(_ value: ValueExpr, depth: Int = 0) -> ResolvedValue {
    guard depth < 16 else { return .computed("…") }
    switch value {
    case .value(let v): return .constant(v)
    case .computed(let text, _): return .computed(text)
    case .name(let n):
      // `Options().step`: the initial value of that type's property, and nothing else.
      if let call = n.firstRange(of: "().") {
        let type = String(n[..<call.lowerBound])
        let property = String(n[call.upperBound...])
        guard let initial = members[type]?.initial[property] else { return .computed(n) }
        return resolveValue(initial, depth: depth + 1)
      }
      if let v = valueConstants[n] { return resolveValue(v, depth: depth + 1) }
      // `HashAlgorithm.md5`: that enum's case, before a value of that last name elsewhere.
      if n.contains("."), let c = constants[n], case .key(let s) = resolveKey(c) {
        return .constant(.string(s))
      }
      // `Constants.width`, `.width` (a type's, by its last name); never `mode.enabled`, a
      // property of an instance the run makes.
      if let dot = n.lastIndex(of: "."),
        n.first?.isUppercase == true || n.hasPrefix(".") || n.hasPrefix("self."),
        let v = valueConstants[String(n[n.index(after: dot)...])]
      {
        return resolveValue(v, depth: depth + 1)
      }
      // A string constant (`kThemeLight`), an enum case's raw value (`.light`,
      // `Theme.light`): the name as written, never another of the same last part.
      if let c = constants[n], case .key(let s) = resolveKey(c) { return .constant(.string(s)) }
      return .computed(n)
    case .array(let items):
      var out: [PlistValue] = []
      for item in items {
        guard case .constant(let v) = resolveValue(item, depth: depth + 1) else {
          return .computed("an array with a value only known at run time")
        }
        out.append(v)
      }
      return .constant(.array(out))
    case .dictionary(let entries):
      var out = PlistDictionary()
      for entry in entries {
        guard case .key(let k) = resolveKey(entry.key),
          case .constant(let v) = resolveValue(entry.value, depth: depth + 1)
        else { return .computed("a dictionary with a value only known at run time") }
        out[k] = v
      }
      return .constant(.dictionary(out))
    case .converted(let inner, let type, let source):
      // (The JSON of a case of a type that encodes itself is not the case's raw value.)
      if type == .json, case .name(let n) = inner, let dot = n.lastIndex(of: "."),
        customEncoded.contains(String(n[..<dot]).split(separator: ".").last.map(String.init) ?? "")
      {
        return .computed(source)
      }
      guard case .constant(let v) = resolveValue(inner, depth: depth + 1) else {
        return .computed(source)
      }
      let converted: PlistValue? =
        switch (type, v) {
        case (.bool, .bool), (.integer, .integer), (.double, .real): v
        case (.bool, .integer(let i)): .bool(i != 0)
        case (.integer, .bool(let b)): .integer(b ? 1 : 0)
        case (.double, .integer(let i)): .real(Double(i))
        // `Int(2.9)` is 2, as Swift truncates.
        case (.integer, .real(let d)): Int64(exactly: d.rounded(.towardZero)).map { .integer($0) }
        case (.url, .string(let s)): URL(string: s) == nil ? nil : .string(s)
        // JSON of a constant: the value it decodes to (a plan's `json` default).
        case (.json, _): v
        default: nil
        }
      return converted.map { .constant($0) } ?? .computed(source)
    case .call(let f, let arguments, let source):
      // `fallbacks[key]` of a dictionary the tree declares: the entry the key names.
      if f.hasPrefix(SwiftReader.entryLookup) {
        guard arguments.count == 1,
          case .dictionary(let entries)? =
            valueConstants[String(f.dropFirst(SwiftReader.entryLookup.count))],
          case .key(let k) = resolveKey(arguments[0]),
          let entry = entries.first(where: { resolveKey($0.key) == .key(k) })
        else { return .computed(source) }
        return resolveValue(entry.value, depth: depth + 1)
      }
      // `fallback(Toggle.a)` of a function returning by a `switch` on its parameter: case a's.
      if arguments.count == 1, let table = switchReturns[f], case .name(let n) = arguments[0] {
        let name = n.split(separator: ".").last.map(String.init) ?? n
        if let v = table[name] ?? table["default"] { return resolveValue(v, depth: depth + 1) }
      }
      // What the function returns, when every return gives the same constant.
      let found = (returns[f] ?? []).map { resolveValue($0.value, depth: depth + 1) }
      if let first = found.first, found.allSatisfy({ $0 == first }),
        case .constant = first
      {
        return first
      }
      return .computed(source)
    }
  }

}
