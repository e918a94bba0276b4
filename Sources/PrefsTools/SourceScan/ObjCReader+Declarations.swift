import PreferencesMigration
import PropertyList

/// Declarations: an enum's constants and their values, and the declarations and assignments
/// at a statement's start (string constants, the variables that hold user defaults, locals
/// made from a getter's answer).
extension ObjCReader {
  static let enumKeywords: Set<String> = [
    "NS_ENUM", "NS_OPTIONS", "NS_CLOSED_ENUM", "CF_ENUM", "CF_OPTIONS", "enum",
  ]

  /// `typedef NS_ENUM(NSInteger, Mode) { ModeAsk, ModeUse = 4, ModeAll = ModeAsk | ModeUse };`:
  /// each constant's value (a registration names them: `@(ModeAsk)`). Returns where to go on.
  mutating func enumConstants(at i: Int) -> Int? {
    var k = i + 1
    while k < t.count, k < i + 12, !t.isPunctuation(k, 0x7B), !t.isPunctuation(k, 0x3B) {
      if t.isPunctuation(k, 0x28) { k = t.match(k) }
      k += 1
    }
    guard t.isPunctuation(k, 0x7B) else { return nil }
    let close = t.match(k)
    var next: Int64 = 0
    for part in t.commaSeparated((k + 1)..<close) where !part.isEmpty {
      guard t.isIdentifier(part.lowerBound) else { continue }
      let name = t.text(part.lowerBound)
      var value = next
      if t.isPunctuation(part.lowerBound + 1, 0x3D) {
        guard let v = constantInteger((part.lowerBound + 2)..<part.upperBound) else {
          next = 0
          continue
        }
        value = v
      }
      facts.valueConstants[name] = .value(.integer(value))
      next = value &+ 1
    }
    return close + 1
  }

  /// A constant integer expression of the code: numbers, constants known in this file, `-`,
  /// `|`, `+`, `<<`, `*`, parentheses and casts; nil for anything else.
  func constantInteger(_ range: Range<Int>) -> Int64? {
    t.foldedInteger(range, strip: inner) { k in
      let value =
        t.token(k).kind == .number
        ? number(t.text(k)) : t.isIdentifier(k) ? facts.valueConstants[t.text(k)] : nil
      guard case .value(.integer(let v))? = value else { return nil }
      return v
    }
  }

  /// `NSString *fontName, *fontKey;` in a function: each name a variable of that class (not
  /// given a value here; a list with an `=` is left alone).
  mutating func declaredList(from i: Int) {
    guard t.isIdentifier(i), t.isPunctuation(i + 1, 0x2A) else { return }
    let type = t.text(i)
    var names: [String] = []
    var k = i + 1
    while k < t.count, names.count < 64 {
      while t.isPunctuation(k, 0x2A) { k += 1 }
      guard t.isIdentifier(k) else { return }
      names.append(t.text(k))
      k += 1
      if t.isPunctuation(k, 0x3B) { break }
      guard t.isPunctuation(k, 0x2C) else { return }
      k += 1
    }
    for name in names where scope?.locals[name] == nil {
      bindType(type, to: name)
      var variable = LocalVariable()
      variable.type = type
      scope?.locals[name] = variable
    }
  }

  /// A declaration or an assignment at a statement's start: `NSString *const K = @"k";`,
  /// `NSUserDefaults *d = [NSUserDefaults standardUserDefaults];`, `self.defaults = …;`,
  /// `NSData *data = [d dataForKey:K];`.
  /// (`declaredType`: a later declarator of a list, `*no = …` of `NSNumber *yes = …, *no =
  /// …;`, its class the list's; `listed` how many came before it.)
  mutating func declaration(at i: Int, declaredType: String? = nil, listed: Int = 0) {
    // First without making a string: a declaration or an assignment reaches `=` (or `;`)
    // through names, `*`, `.` and `->` only.
    var scan = i
    var star = false
    while scan < t.count, scan < i + 12 {
      let token = t.token(scan)
      if token.kind == .identifier {
        scan += 1
        continue
      }
      if t.isPunctuation(scan, 0x2A) {
        star = true
        scan += 1
        continue
      }
      if t.isPunctuation(scan, 0x2E) || t.isText(scan, "->") {
        scan += 1
        continue
      }
      if let end = genericEnd(at: scan) {
        scan = end
        continue
      }
      break
    }
    // `values[@"k"] = @3;`: an entry of a dictionary the function builds.
    if scope != nil, t.isIdentifier(i), t.isPunctuation(i + 1, 0x5B),
      scope?.locals[t.text(i)]?.entries != nil
    {
      let close = t.match(i + 1)
      if t.isPunctuation(close + 1, 0x3D) {
        let value = expressionRange(from: close + 2)
        let name = t.text(i)
        scope?.locals[name]?.added.append(((i + 2)..<close, value))
      }
      return
    }
    // `NSString *name, *key;`: each a variable of the function, of that class.
    if scope != nil, star, t.isPunctuation(scan, 0x2C) {
      declaredList(from: i)
      return
    }
    // (`NSString *s;`, and `id entry;`, a variable given a value later.)
    guard
      t.isPunctuation(scan, 0x3D)
        || t.isPunctuation(scan, 0x3B)
          && (star || scope != nil && scan == i + 2 && t.isText(i, "id"))
    else { return }
    // In a function, only a value that can be user defaults, a key, a dictionary, a getter's
    // answer or a resource matters: a message, a literal, a name, a cast.
    if scope != nil, t.isPunctuation(scan, 0x3D) {
      let v = scan + 1
      let kind = v < t.count ? t.token(v).kind : .endDirective
      guard
        kind == .string || kind == .identifier || t.isPunctuation(v, 0x5B)
          || t.isPunctuation(v, 0x40)
          || t.isPunctuation(v, 0x28)
      else { return }
    }
    var k = i
    var type = declaredType
    var name: String?
    var isDeclaration = declaredType != nil
    while k < t.count, k < i + 12 {
      if t.isPunctuation(k, 0x3D) { break }
      // `NSDictionary<NSString *, id> *d`: the type's parameters are not names.
      if let end = genericEnd(at: k) {
        k = end
        continue
      }
      if t.isPunctuation(k, 0x3B) || t.isPunctuation(k, 0x7B) || t.isPunctuation(k, 0x28)
        || t.isPunctuation(k, 0x5B)
        || t.token(k).kind != .identifier && !t.isPunctuation(k, 0x2A)
          && !t.isPunctuation(k, 0x2E) && !t.isText(k, "->")
      {
        if t.isPunctuation(k, 0x3B), let n = name, let ty = type, isDeclaration {
          // `NSUserDefaults *defaults;`, `Settings *settings;`; in a function, a variable given
          // its value later (`static NSDictionary *defaults;`).
          bindType(ty, to: n)
          if scope != nil, scope?.locals[n] == nil {
            var variable = LocalVariable()
            variable.type = ty
            scope?.locals[n] = variable
          }
        }
        return
      }
      if t.isIdentifier(k) {
        let word = t.text(k)
        if Self.qualifiers.contains(word) {
          k += 1
          continue
        }
        if name != nil, !t.isPunctuation(k - 1, 0x2E), !t.isText(k - 1, "->") {
          type = name
          isDeclaration = true
        }
        name = word
      } else if t.isPunctuation(k, 0x2A) {
        isDeclaration = true
        if type == nil { type = name }
      }
      k += 1
    }
    guard t.isPunctuation(k, 0x3D), let name else { return }
    // The value: to the `;` at this level (a declaration's, to the `,` before the next
    // declarator of its list).
    var end = k + 1
    while end < t.count, !t.isPunctuation(end, 0x3B), !t.isPunctuation(end, 0x7D),
      !(isDeclaration && t.isPunctuation(end, 0x2C))
    {
      if t.isPunctuation(end, 0x28) || t.isPunctuation(end, 0x5B) || t.isPunctuation(end, 0x7B) {
        end = t.match(end)
      }
      end += 1
    }
    // `NSNumber *yes = …, *no = …;`, `static NSString *A = @"a", *B = @"b";`: each declarator a
    // variable (or a constant) of the list's class (a list of at most 64).
    var nextDeclarator: Int?
    if isDeclaration, t.isPunctuation(end, 0x2C), listed < 64 {
      var next = end + 1
      while t.isPunctuation(next, 0x2A)
        || t.isIdentifier(next) && Self.qualifiers.contains(t.text(next))
      {
        next += 1
      }
      if t.isIdentifier(next), t.isPunctuation(next + 1, 0x3D) { nextDeclarator = next }
    }
    // (Read once this one is: its value may name the variable before it.)
    defer {
      if let nextDeclarator, let type {
        declaration(at: nextDeclarator, declaredType: type, listed: listed + 1)
      }
    }
    let value = (k + 1)..<min(end, t.count)
    guard !value.isEmpty else { return }
    let member = t.isPunctuation(k - 2, 0x2E) || t.isText(k - 2, "->") || name.hasPrefix("_")
    if member, name == "associatedUserDefaultsKey", !gatherOnly {
      associatedKey(value, at: i)
      return
    }
    let local = scope != nil && isDeclaration
    if let s = scope, s.selector?.hasPrefix("init") == true, !local, s.locals[name] == nil,
      !s.parameters.contains(name)
    {
      // `_key = [key copy];`, `self.key = key;` in an initializer: the member holds the
      // parameter.
      var given: String?
      if case .name(let p) = keyOf(value), s.parameters.contains(p) {
        given = p
      } else if case .name(let p) = valueOf(value), s.parameters.contains(p) {
        given = p
      }
      if let given {
        initMembers[Self.bare(name)] = given
        keptMembers.insert(name)
      }
    }
    let receiver = receiverOf(value)
    var receiverFound = false
    switch receiver {
    case .standard, .suite:
      receiverFound = true
    case .name(let other):
      // `d = defaults` copies a binding (`_defaults = defaults` in an initializer given the
      // defaults as a parameter keeps the one the property has).
      if Self.bare(other) == Self.bare(name) { return }
      if scope?.locals[other]?.receiver != nil || facts.receivers[Self.bare(other)] != nil {
        receiverFound = true
      } else if other.hasSuffix("()"), type == "NSUserDefaults" {
        // `NSUserDefaults *d = SharedPrefs();`: what the C function returns (looked up in the
        // tree), user defaults as declared (the standard ones, where the tree has no body).
        facts.types[other] = type
        receiverFound = true
      }
    default: break
    }
    if receiverFound {
      var bound = resolvedLocally(receiver)
      if case .name(let other) = bound, let known = facts.receivers[Self.bare(other)] {
        bound = known
      }
      // (`NSUserDefaults *d = nil; … d = [[NSUserDefaults alloc] initWithSuiteName:…];`:
      // the function's variable, given its user defaults later.)
      let copied = domainCopy(value)
      if local || !member && scope?.locals[name] != nil {
        scope?.locals[name, default: LocalVariable()].receiver = bound
        scope?.locals[name]?.domainCopy = copied
      } else if !copied {
        // (A member given a copy of a domain is not bound: one method's dictionary, which
        // another may give anything.)
        facts.receivers[Self.bare(name)] = resolvedLocally(receiver)
      }
      return
    }
    // `gStatus = (int)status;`: a global (or member) given a variable that holds a getter's
    // answer holds it too, in this function.
    if !local, scope != nil, scope?.locals[name] == nil {
      let r = inner(value)
      if r.count == 1, t.isIdentifier(r.lowerBound),
        let other = scope?.locals[t.text(r.lowerBound)],
        other.use != nil || other.template != nil
      {
        var variable = LocalVariable()
        variable.use = other.use
        if let pending = other.use, pending < 0 {
          variable.use = awaitAnswer(of: -pending - 1, into: name)
        }
        variable.template = other.template
        scope?.locals[name] = variable
        return
      }
      // `scrollBackLines = [ud integerForKey:K];` of a file's static variable: it holds the
      // answer too, in this function (`if (scrollBackLines <= 0) scrollBackLines = 256;`).
      if !member, let first = r.first, t.isPunctuation(first, 0x5B),
        t.match(first) == r.upperBound - 1,
        let m = parseMessage(at: first), DefaultsAPI.objc[m.selector]?.access == .get
      {
        var variable = LocalVariable()
        variable.use = awaitAnswer(of: first, into: name)
        scope?.locals[name] = variable
        return
      }
    }
    if local || (scope != nil && scope?.locals[name] != nil && !member) {
      var variable = scope?.locals[name] ?? LocalVariable()
      if let type { variable.type = type }
      if type == "NSString" || type == "NSMutableString" || !isDeclaration
        || Self.collectionTypes.contains(type ?? "")
      {
        // A variable given a constant (a key, a collection of keys) holds it; given anything
        // else (again), it holds what only the run knows.
        let key = localKey(value)
        if case .runtime = key { variable.key = nil } else { variable.key = key }
      } else if t.isPunctuation(value.lowerBound, 0x40),
        t.isPunctuation(value.lowerBound + 1, 0x5B) || t.isPunctuation(value.lowerBound + 1, 0x7B)
      {
        // `id keys = @[…]`, `NSDictionary *types = @{key: class, …}`
        let key = localKey(value)
        if case .oneOf = key { variable.key = key }
      }
      // The use whose value it holds: the message it is given (a value given later is not
      // that use's any more, unless made of it: `x = x > 0 ? x : 1.5`).
      if t.isPunctuation(value.lowerBound, 0x5B) {
        variable.use = awaitAnswer(of: value.lowerBound, into: name)
        variable.template = nil
      } else if !value.contains(where: { t.isIdentifier($0) && t.text($0) == name }) {
        variable.use = nil
        variable.template = nil
      }
      if let held = variable.type,
        held == "NSDictionary" || held == "NSMutableDictionary" || held == "id"
      {
        if case .dictionary(let entries) = valueOf(value) { variable.entries = entries }
      }
      variable.initial = isDeclaration ? value : nil
      if let resource = resourceName(in: value) { variable.resource = resource }
      if case .name(let p)? = resourceParameter(in: value) { variable.resourceParameter = p }
      if let file = loadedFile(value) { variable.file = file }
      if variable.resource != nil || variable.resourceParameter != nil || variable.file != nil {
        scope?.holdsResources = true
      }
      if t.contains(value, "dataWithJSONObject") || t.contains(value, "JSONEncoder") {
        variable.json = true
      }
      scope?.locals[name] = variable
      return
    }
    let literal =
      t.isPunctuation(value.lowerBound, 0x40)
      && (t.isPunctuation(value.lowerBound + 1, 0x5B)
        || t.isPunctuation(value.lowerBound + 1, 0x7B))
    // (An instance variable by its bare name, `fontKeys = [[NSArray arrayWithObjects:…] retain]`:
    // no variable or parameter of the function.)
    let instanceVariable =
      !member && !local && scope?.locals[name] == nil
      && scope?.parameters.contains(name) == false && t.isPunctuation(value.lowerBound, 0x5B)
    if scope != nil, member && literal || instanceVariable {
      // `_keyTypes = @{kA: number, …}`, `self.names = @[…]`: a collection of constants a
      // member holds, looked up by `self.keyTypes` (Santa's loop over its configuration keys).
      if case .oneOf(let items) = keyOf(value),
        literal || items.allSatisfy({ if case .literal = $0 { true } else { false } })
      {
        keyClasses(value)
        let bare = Self.bare(name)
        if case .oneOf(let earlier)? = facts.constants[bare] {
          // (Each collection given once: a set, not a search of the earlier ones per item.)
          var seen = Set(earlier)
          facts.constants[bare] = .oneOf(earlier + items.filter { seen.insert($0).inserted })
        } else if facts.constants[bare] == nil {
          facts.constants[bare] = .oneOf(items)
        }
      }
    }
    if scope == nil, type == "NSString" || type == "CFStringRef" || isDeclaration {
      let key = keyOf(value)
      switch key {
      case .literal, .concat, .name: facts.constants[name] = key
      default: break
      }
      if case .value = valueOf(value) { facts.valueConstants[name] = valueOf(value) }
    } else if scope != nil, isDeclaration, t.token(i).conditional == false,
      t.isText(i, "static")
    {
      // A function's `static NSString *const K = @"k";` is a constant like any other.
      if case .literal = keyOf(value) { facts.constants[name] = keyOf(value) }
    }
  }

  /// Declared types of a variable that may hold a collection of keys.
  static let collectionTypes: Set<String> = [
    "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "id",
  ]

  static let qualifiers: Set<String> = [
    "static", "const", "extern", "FOUNDATION_EXPORT", "__strong", "__weak", "nonnull",
    "_Nonnull", "__block", "volatile", "register", "self", "UIKIT_EXTERN", "APPKIT_EXTERN",
    "__unsafe_unretained", "nullable", "_Nullable",
  ]

  func resolvedLocally(_ receiver: ReceiverRef) -> ReceiverRef {
    if case .name(let other) = receiver, let bound = scope?.locals[other]?.receiver { return bound }
    return receiver
  }

  /// `@{kURL: [NSString class], kMode: number}` (`Class number = [NSNumber class];` before
  /// it): each key's class, where it names one plan type (a number is a flag, an integer or
  /// a real: none).
  mutating func keyClasses(_ value: Range<Int>) {
    let r = inner(value)
    guard r.count > 3, t.isPunctuation(r.lowerBound + 1, 0x7B) else { return }
    for part in items((r.lowerBound + 2)..<(r.upperBound - 1)) {
      guard let colon = t.colonAtTop(part) else { continue }
      let v = (colon + 1)..<part.upperBound
      var className: String?
      if v.count == 4, t.isPunctuation(v.lowerBound, 0x5B), t.isText(v.lowerBound + 2, "class") {
        className = t.text(v.lowerBound + 1)
      } else if v.count == 1, t.isIdentifier(v.lowerBound) {
        className = classVariable(t.text(v.lowerBound), before: r.lowerBound)
      }
      guard let className, let type = DefaultsAPI.type(ofClass: className) else { continue }
      facts.keyClasses.append((keyOf(part.lowerBound..<colon), type))
    }
  }

  /// `Class string = [NSString class];` shortly before `k`: the class the variable holds.
  func classVariable(_ name: String, before k: Int) -> String? {
    var i = k - 1
    while i > max(0, k - 400) {
      if t.isText(i, "Class"), t.text(i + 1) == name, t.isPunctuation(i + 2, 0x3D),
        t.isPunctuation(i + 3, 0x5B), t.isText(i + 5, "class")
      {
        return t.text(i + 4)
      }
      i -= 1
    }
    return nil
  }
}
