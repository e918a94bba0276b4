import PreferencesMigration
import PropertyList

/// Objects that hold a key: a constant a type's initializer makes (`static let tips =
/// PreferenceKey("k", default: true)`), whose members the code reads (`key.name`,
/// `key.defaultValue`) where it calls user defaults or `@AppStorage` with it.
extension ScanModel {
  /// A type's initializers, or the memberwise one of a struct that declares none.
  static func initializers(of type: String, _ info: TypeMembers) -> [TypeMembers.Initializer] {
    guard info.initializers.isEmpty, info.isStruct, !info.stored.isEmpty else {
      return info.initializers
    }
    return [
      TypeMembers.Initializer(
        selector: type + "(", parameters: info.stored, labels: info.stored,
        members: Dictionary(info.stored.map { ($0, $0) }, uniquingKeysWith: { a, _ in a }))
    ]
  }

  /// A use whose key (or default, or receiver) names a member of its type: each of the type's
  /// initializers that sets that member from a parameter is a wrapper (`[[Setting alloc]
  /// initWithKey:@"k"]`, `Setting("k", fallback: 20)`, `@Stored(key: "k") var x`).
  @discardableResult
  mutating func addMemberWrappers(_ template: SourceUse) -> Bool {
    guard let type = template.ownerType, let info = members[type] else { return false }
    var made = false
    let initializers = Self.initializers(of: type, info)
    func bare(_ name: String) -> String {
      var n = name
      if n.hasPrefix("self.") { n.removeFirst(5) }
      if n.hasPrefix("_") { n.removeFirst() }
      return n
    }
    for initializer in initializers {
      func parameter(_ name: String) -> String? { initializer.members[bare(name)] }
      var named = template.key.names
      if case .name(let n)? = template.value { named.append(n) }
      if case .name(let n) = template.receiver { named.append(n) }
      guard template.key.names.contains(where: { parameter($0) != nil }) else { continue }
      var use = template
      use.key = use.key.substituting { n in parameter(n).map { .name($0) } }
      if case .name(let n)? = use.value, let p = parameter(n) { use.value = .name(p) }
      if case .name(let n) = use.receiver, let p = parameter(n) { use.receiver = .name(p) }
      var defaults: [String: ReceiverRef] = [:]
      for (name, receiver) in initializer.defaults { defaults[name] = receiver }
      let wrapper = SourceWrapper(
        selector: initializer.selector, className: type, parameters: initializer.parameters,
        key: use.key, use: use, parameterTypes: initializer.parameterTypes,
        labels: initializer.labels, parameterDefaults: defaults)
      wrappers[initializer.selector, default: []].append(wrapper)
      made = true
    }
    return made
  }

  /// A use whose key is a member of its type that no initializer sets (`var defaultKey:
  /// String? { didSet { … bool(forKey: key) } }` of a settings cell): each assignment
  /// `x.defaultKey = "K"` elsewhere gives a key (never `self.key = …`, the type's own). Only a
  /// `String` member without a value that one type of the tree alone declares (an assignment
  /// says nothing of the object's type).
  mutating func addMemberSetter(_ template: SourceUse) -> Bool {
    guard let type = template.ownerType, case .name(let n) = template.key else { return false }
    let name = n.hasPrefix("self.") ? String(n.dropFirst(5)) : n
    guard let info = members[type], info.stored.contains(name),
      let declared = info.declared[name], declared == "String" || declared == "String?",
      members.filter({ $0.value.stored.contains(name) || $0.value.declared[name] != nil })
        .count == 1
    else { return false }
    var use = template
    use.key = .name("newValue")
    // (A fallback another member holds, `bool(forKey: key, fallback: fallback)`: whatever the
    // object was given before, which says nothing here.)
    if case .name(let m)? = use.value, info.declared[m] != nil || info.stored.contains(m) {
      use.value = nil
      use.defaultSource = nil
    }
    let selector = SourceWrapper.assignment(to: name)
    let wrapper = SourceWrapper(
      selector: selector, className: type, parameters: ["newValue"], key: use.key, use: use,
      parameterTypes: [declared], labels: ["newValue"])
    wrappers[selector, default: []].append(wrapper)
    return true
  }

  /// A use in an extension of a protocol whose key names one of its static requirements
  /// (`static var key: String { get }`, `UserDefaults.standard.set(v, forKey: key)`): each
  /// conforming type's own constant (`static var key = "HintCharacters"`), one use each; the
  /// default the use names, that type's too. False when no conforming type gives one.
  mutating func addConformerUses(_ template: SourceUse) -> Bool {
    guard let p = template.ownerType, files.contains(where: { $0.protocols.contains(p) }) else {
      return false
    }
    func bare(_ name: String) -> String {
      name.hasPrefix("self.") || name.hasPrefix("Self.") ? String(name.dropFirst(5)) : name
    }
    var made = false
    for (type, declared) in declarations.sorted(by: { $0.key < $1.key })
    where declared.conformances.contains(p) {
      var given = false
      var use = template
      use.key = use.key.substituting { n in
        guard constants[type + "." + bare(n)] != nil else { return nil }
        given = true
        return .name(type + "." + bare(n))
      }
      guard given else { continue }
      if case .name(let v)? = use.value, valueConstants[type + "." + bare(v)] != nil {
        use.value = .name(type + "." + bare(v))
      }
      // `save(value: T)`: the type's `typealias T = String`.
      if let stored = use.storedType?.replacing("?", with: ""),
        let alias = declarations[type + "." + stored]?.aliasOf
      {
        use.storedType = alias
        if use.type == nil { use.type = DefaultsAPI.type(ofClass: alias) }
      }
      use.ownerType = nil
      add(use)
      made = true
    }
    return made
  }

  /// Each member an object constant's initializer sets from a parameter, a constant of its own
  /// named after the object's (`Preferences.tips.name` "k", `Preferences.tips.defaultValue`
  /// true).
  mutating func addObjectMembers() {
    for f in files {
      for (name, object) in f.objectConstants.sorted(by: { $0.key < $1.key }) {
        guard let info = members[object.type] else { continue }
        for initializer in Self.initializers(of: object.type, info)
        where initializer.selector == object.type + "(" {
          guard
            let indices = Self.argumentIndices(
              labels: initializer.labels, parameters: initializer.parameters.count,
              callLabels: object.labels, arguments: object.keys.count)
          else { continue }
          for (member, parameter) in initializer.members {
            guard let p = initializer.parameters.firstIndex(of: parameter), let a = indices[p]
            else { continue }
            let qualified = name + "." + member
            if constants[qualified] == nil, !object.keys[a].isRuntime {
              constants[qualified] = object.keys[a]
            }
            if valueConstants[qualified] == nil { valueConstants[qualified] = object.values[a] }
          }
          if types[name] == nil { types[name] = object.type }
          break
        }
      }
    }
  }

  /// `member` (`.name`) of the object each alternative of the first argument names; what only
  /// the run knows where that is no object constant of the tree.
  func objectMember(_ member: String, of arguments: [KeyExpr], source: String, depth: Int)
    -> [KeyExpr]
  {
    guard let object = arguments.first else { return [.runtime(source)] }
    return expand(object, depth: depth + 1).map { element in
      if case .name(let n) = element, constants[n + member] != nil { return .name(n + member) }
      return .runtime(source)
    }
  }

  /// The value `member` (`.defaultValue`) of the object constant an argument names.
  func objectValue(_ argument: KeyExpr?, member: String) -> ValueExpr? {
    guard case .name(let n)? = argument else { return nil }
    return valueConstants[n + member]
  }

  /// `@AppStorage(Preferences.tips) var tips` through an initializer of an extension of
  /// `AppStorage` taking the object: the key and default its members hold.
  func adaptedAppStorage(_ found: SourceUse) -> SourceUse {
    guard case .name(let n) = found.key, found.method == "@AppStorage", lookup(n) == nil else {
      return found
    }
    var use = found
    for f in files {
      for adapter in f.appStorageAdapters where constants[n + "." + adapter.key] != nil {
        use.key = .name(n + "." + adapter.key)
        if use.value == nil, let member = adapter.value,
          let value = valueConstants[n + "." + member]
        {
          use.value = value
          use.defaultSource = .fallback
        }
        return use
      }
    }
    return use
  }

  /// Whether an overload fits the object a call gives it: `value(for key: PreferenceKey<Bool>)`
  /// an object whose generic member holds a Bool, and a generic one (`PreferenceKey<Value>`)
  /// only where no overload of the same name declares the type the object holds.
  func overloadFits(_ wrapper: SourceWrapper, _ call: WrapperCall, indices: [Int?]) -> Bool {
    func argument(_ declared: String?) -> String? {
      guard let declared, let open = declared.firstIndex(of: "<"), declared.hasSuffix(">") else {
        return nil
      }
      return String(
        declared[declared.index(after: open)..<declared.index(before: declared.endIndex)])
    }
    for (p, declared) in wrapper.parameterTypes.enumerated() {
      guard let inner = argument(declared), p < indices.count, let a = indices[p],
        a < call.arguments.count, case .name(let n)? = call.arguments[a], let type = types[n],
        declared?.hasPrefix(type + "<") == true
      else { continue }
      let held = heldTypes(n, of: type)
      guard !held.isEmpty else { continue }
      if let concrete = DefaultsAPI.type(ofClass: inner) {
        if !held.contains(concrete) { return false }
        continue
      }
      let siblings = wrappers[wrapper.selector] ?? []
      if siblings.contains(where: { s in
        p < s.parameterTypes.count
          && argument(s.parameterTypes[p]).flatMap(DefaultsAPI.type(ofClass:)).map(held.contains)
            == true
      }) {
        return false
      }
    }
    return true
  }

  /// The types of the constant values an object constant's generic members hold (those not
  /// declared with a type of their own: `let defaultValue: Value`).
  func heldTypes(_ name: String, of type: String) -> Set<MigrationPlan.ValueType> {
    guard let info = members[type] else { return [] }
    var held: Set<MigrationPlan.ValueType> = []
    for initializer in Self.initializers(of: type, info) {
      for member in initializer.members.keys
      where info.declared[member].flatMap(DefaultsAPI.type(ofClass:)) == nil {
        if let t = valueConstants[name + "." + member]?.type { held.insert(t) }
      }
    }
    return held
  }

  /// What the returns of a function give for `arguments`: one key, or one of several.
  static func alternatives(_ found: [FunctionReturn], arguments: [KeyExpr]) -> KeyExpr? {
    var keys: [KeyExpr] = []
    for r in found {
      let key = r.key.substituting { name in
        guard let index = r.parameters.firstIndex(of: name) else { return nil }
        return index < arguments.count ? arguments[index] : .runtime(name)
      }
      if case .runtime = key { continue }
      if !keys.contains(key) { keys.append(key) }
    }
    if keys.isEmpty { return nil }
    return keys.count == 1 ? keys[0] : .oneOf(keys)
  }

  /// The user defaults `type`'s method `method` returns: its class's (or an ancestor's)
  /// method; by the name alone only where no class of the tree is known to return defaults
  /// from a method of that name (a Swift function, a property).
  func returnedReceiver(_ type: String, _ method: String) -> ReceiverRef? {
    var owner: String? = type
    var seen: Set<String> = []
    while let o = owner, seen.insert(o).inserted {
      if let bound = receivers[o + "." + method] { return bound }
      owner = superclasses[o]
    }
    guard let bound = receivers[method] else { return nil }
    let suffix = "." + method
    return receivers.keys.contains { $0.hasSuffix(suffix) } ? nil : bound
  }

  /// Whether a key holds alternatives or a call (directly or through its names).
  func hasChoice(_ expr: KeyExpr, depth: Int) -> Bool {
    guard depth < 16 else { return false }
    switch expr {
    case .literal, .runtime: return false
    case .oneOf, .call, .member: return true
    case .name(let n): return lookup(n).map { hasChoice($0, depth: depth + 1) } ?? false
    case .concat(let parts): return parts.contains { hasChoice($0, depth: depth + 1) }
    }
  }

  /// The entries a registered value holds, each its own (a dictionary some of whose values
  /// are computed still registers its constant ones); nil when it is not a dictionary.
  func registeredEntries(_ value: ValueExpr, depth: Int = 0) -> ValueExpr? {
    guard depth < 8 else { return nil }
    switch value {
    case .dictionary: return value
    case .name(let n):
      return valueConstants[n].flatMap { registeredEntries($0, depth: depth + 1) }
    case .call(let f, _, _):
      // (Each return's: methods of that name in several classes, each registering its own.)
      var all: [ValueEntry] = []
      var found = false
      for r in returns[f] ?? [] {
        if case .dictionary(let d)? = registeredEntries(r.value, depth: depth + 1) {
          found = true
          all += d
        }
      }
      return found ? .dictionary(all) : nil
    default: return nil
    }
  }

  /// The Swift standard library's collection methods: a wrapper of that name is only called
  /// where the tree shows the receiver is its type.
  static let collectionSelectors: Set<String> = [
    "contains(_:)", "contains(where:)", "append(_:)", "insert(_:)", "remove(_:)",
    "first(where:)", "firstIndex(of:)", "index(of:)", "filter(_:)", "map(_:)", "removeAll()",
    "union(_:)", "formUnion(_:)", "subtracting(_:)", "update(with:)",
  ]

  /// The class a receiver is an instance of, where it says: a type's, or what a type's method
  /// returns (user defaults when the tree says the method returns them, else the type's own).
  func classOf(_ receiver: ReceiverRef) -> String? {
    switch receiver {
    case .type(let type): type
    case .returned(let type, let method):
      returnedReceiver(type, method) != nil ? "NSUserDefaults" : type
    default: nil
    }
  }

  /// Whether `type` is `ancestor` or one of its subclasses.
  func isKind(_ type: String, of ancestor: String) -> Bool {
    var current = type
    var seen: Set<String> = []
    while seen.insert(current).inserted {
      if current == ancestor { return true }
      guard let parent = superclasses[current] else { return false }
      current = parent
    }
    return false
  }

  /// Whether each `.case` a call gives is a case of the enum the wrapper's parameter declares
  /// (an overload by its parameter's type: `subscript(bool: Keys.Bool)` for `.synced`); true
  /// where the parameter's type is no enum of the tree.
  static func declaresCase(
    _ wrapper: SourceWrapper, _ call: WrapperCall, _ declarations: [String: TypeDeclaration]
  ) -> Bool {
    for (p, declared) in wrapper.parameterTypes.enumerated() {
      guard let declared, p < call.arguments.count, case .name(let n)? = call.arguments[p],
        n.hasPrefix("."), let cases = declarations[declared]?.cases, !cases.isEmpty
      else { continue }
      if !cases.contains(where: { $0.name == n.dropFirst() }) { return false }
    }
    return true
  }
}

extension ScanModel {
  /// `set(key.defaultValue, forKey: key.rawValue)` for each of an enum's cases: one use a
  /// case, its value the member's for that case; nil for any other use.
  func eachCase(_ use: SourceUse) -> [SourceUse]? {
    guard case .call(let f, _, let source)? = use.value, f.hasPrefix(SwiftReader.caseMember)
    else { return nil }
    let member = String(f.dropFirst(SwiftReader.caseMember.count))
    return expand(use.key, depth: 0).map { key in
      var one = use
      one.key = key
      // (A case's value naming such a member again is not followed: it would loop.)
      switch caseValue(key, member) {
      case .call(let g, _, _)? where g.hasPrefix(SwiftReader.caseMember):
        one.value = .computed(source, nil)
      case let value?: one.value = value
      case nil: one.value = .computed(source, nil)
      }
      if one.type == nil { one.type = one.value?.type }
      return one
    }
  }

  /// `member` of the enum case `key` names (`Key.lock`): what the enum's computed property
  /// returns for that case (`var defaultValue: Any? { switch self { case .lock: … } }`).
  func caseValue(_ key: KeyExpr, _ member: String) -> ValueExpr? {
    guard case .name(let n) = key, let dot = n.lastIndex(of: ".") else { return nil }
    let type = n[..<dot].split(separator: ".").last.map(String.init) ?? ""
    guard let table = switchReturns[type + "." + member] else { return nil }
    return table[String(n[n.index(after: dot)...])] ?? table["default"]
  }

  /// A use's receiver, a member of the use's own type (or of a class it inherits from)
  /// bound by that type's name (`Prefs.userDefaults`) before any member of that name.
  func ownReceiver(_ use: SourceUse, file: Int) -> ReceiverRef {
    ownReceiver(use.receiver, owner: use.receiverOwner, file: file)
  }

  /// `receiver` as written in a method of `owner`: that type's member (or a class's it
  /// inherits) of its name, before any other of that name.
  func ownReceiver(_ receiver: ReceiverRef, owner given: String?, file: Int) -> ReceiverRef {
    // `string(forKey:)` in a method of `class Configuration: UserDefaults` made for a suite by
    // its `convenience init()`: that suite.
    if receiver == .extendedDefaults, let owner = given, let suite = subclassSuites[owner] {
      return .suite(suite)
    }
    guard case .name(let n) = receiver, var owner = given else { return receiver }
    var seen: Set<String> = []
    while seen.insert(owner).inserted {
      let name = owner + "." + n
      if let bound = (file < files.count ? files[file].receivers[name] : nil) ?? receivers[name] {
        return bound
      }
      guard let parent = superclasses[owner] else { break }
      owner = parent
    }
    return receiver
  }

  /// PAPreferences: each `@dynamic` property of a subclass is a key of the standard user
  /// defaults named as the property (the library's accessors, made at run time, read and write
  /// it with the getter and setter of the property's type).
  mutating func addDynamicProperties() {
    guard files.contains(where: { !$0.dynamicProperties.isEmpty }) else { return }
    var declared: [String: [String: String]] = [:]
    for f in files {
      for (c, properties) in f.objcProperties {
        declared[c, default: [:]].merge(properties) { a, _ in a }
      }
    }
    for n in files.indices {
      for d in files[n].dynamicProperties {
        // (A category of NSUserDefaults whose accessors a dynamic-property category makes,
        // unless the category writes the getter itself.)
        let library = isKind(d.className, of: "PAPreferences")
        guard library || isKind(d.className, of: "NSUserDefaults"),
          !files[n].gettersDefined.contains(d.className + "." + d.name)
        else { continue }
        let type = declared[d.className]?[d.name]
        var use = SourceUse(
          key: .literal(d.name), receiver: .standard, access: .get,
          method: library
            ? "PAPreferences @dynamic property" : "@dynamic property of NSUserDefaults",
          type: type.flatMap(DefaultsAPI.type(ofClass:)), line: d.line)
        if let type, use.type != nil { use.typeReason = "declared \(type)" }
        use.name = d.name
        use.file = n
        add(use)
      }
    }
  }

  /// The user defaults the object a call is made on was made with (`standardStorage` of `let
  /// standardStorage = Storage(defaults: .standard)`), where `receiver`, the wrapper's, is
  /// the parameter of that type's initializer they were given to; nil for anything else.
  func madeWith(_ call: WrapperCall, _ receiver: ReceiverRef) -> ReceiverRef? {
    guard case .name(var object) = call.receiver, case .name(let p) = receiver,
      let (selector, index) = SwiftReader.parameter(named: p), call.file < files.count
    else { return nil }
    if object.hasPrefix("self.") { object.removeFirst(5) }
    let objects = files[call.file].objectConstants
    guard let made = objects[(call.callerType.map { $0 + "." } ?? "") + object] ?? objects[object]
    else { return nil }
    // `Storage(defaults:)`: the initializer's labels.
    guard selector.hasPrefix(made.type + "("), selector.hasSuffix(")") else { return nil }
    let labels = selector.dropFirst(made.type.count + 1).dropLast().split(separator: ":")
      .map(String.init)
    guard index < labels.count else { return nil }
    let at = labels[index] == "_" ? index : made.labels.firstIndex(of: labels[index])
    guard let at, at < made.receivers.count else { return nil }
    return made.receivers[at]
  }
}
