import PreferencesMigration
import PropertyList

/// Reads one Objective-C or C file's tokens into its facts: macros and string constants,
/// the variables that hold user defaults, every message to them with its key, what the code
/// does with a value (`boolValue` on `objectForKey:`'s result, a cast), the defaults it
/// registers and the ones it falls back to.
struct ObjCReader: SourceReader {
  let input: SourceInput
  var facts: FileFacts

  let firstWords = Self.firstWords
  /// The first token of a macro's body: a message may start there (after the macro's name).
  var boundary = -1
  var className: String?
  /// The token after `@implementation Name`: a statement starts there.
  var implementationBody = -1
  var scope: FunctionScope?
  var ifs: [(end: Int, condition: Range<Int>)] = []
  /// Where the statement an `if` begins (`else if …`) ends, as the `if` before it found.
  var statementEnds: [Int: Int] = [:]
  /// Where the current function last writes a dictionary back as a domain
  /// (`setPersistentDomain:name forName:`), by the dictionary's name, and the function's end
  /// these were found for: each function read once, however many writes it makes.
  var writeBacks: (end: Int, last: [String: Int]) = (-1, [:])
  /// Sends already read as part of a pattern (a presence test), by their `[` token.
  var presence: Set<Int> = []
  /// The use each send made, by its `[` token (for what the code does with its result).
  var useAt: [Int: Int] = [:]
  /// The variables given a message's answer before the message is read, by the message's
  /// `[` (`int n = [d integerForKey:K];`): each takes the use the message makes.
  var awaitingUse: [Int: [String]] = [:]
  /// Inner messages already read for an outer one (``pendingUse(at:)``): not read again.
  var readEarly: Set<Int> = []
  /// In an initializer (`initWith…`): the members it sets from its parameters.
  var initMembers: [String: String] = [:]
  /// The members the class's initializers set from their parameters (`prefString =
  /// iprefString;`, an instance variable named without `_` or `self.`): a key made of one in
  /// another of its methods is the instance's.
  var keptMembers: Set<String> = []
  /// Variables and members (bare) given a suite by `addSuiteNamed:`: their reads are the
  /// suite's, their writes and registrations still the app's own.
  var suitesAdded: Set<String> = []
  /// The template each send made, by its `[` token (a wrapper's own getter).
  var templateAt: [Int: Int] = [:]

  let t: SourceTokens

  init(_ input: SourceInput) {
    self.input = input
    t = input.tokens
    facts = FileFacts(path: input.path)
  }

  // MARK: - The walk

  mutating func step(at i: Int) -> Int {
    switch t.token(i).kind {
    case .define:
      return define(at: i)
    case .identifier:
      if let next = identifier(at: i) { return next }
    case .punctuation:
      if t.isPunctuation(i, 0x5B) {
        // `defaults[@"k"]` on a variable holding user defaults: a subscript, not a message.
        if !(t.isIdentifier(i - 1) && keyedSubscript(at: i)) { message(at: i) }
      } else if scope == nil, t.isPunctuation(i, 0x2D) || t.isPunctuation(i, 0x2B),
        t.isPunctuation(i + 1, 0x28), className != nil
      {
        return method(at: i)
      } else if t.isPunctuation(i, 0x5E),
        t.isPunctuation(i + 1, 0x28) || t.isPunctuation(i + 1, 0x7B)
      {
        // A block's parameters are its own: nothing to follow.
      }
    default: break
    }
    return i + 1
  }

  mutating func endScope() {
    // (The scope's fields read where needed: a copy of it retains them all.)
    guard scope != nil else { return }
    if !initMembers.isEmpty {
      if let selector = scope?.selector, let className, selector.hasPrefix("init"), !gatherOnly {
        facts.members[className, default: TypeMembers()].initializers.append(
          TypeMembers.Initializer(
            selector: selector, parameters: scope?.parameters ?? [],
            parameterTypes: scope?.parameterTypes ?? [], members: initMembers))
      }
      initMembers = [:]
    }
    if scope?.templates.isEmpty == false, let s = scope, let selector = s.selector, !gatherOnly {
      facts.wrappers.append(
        SourceWrapper(
          selector: selector, className: className, parameters: s.parameters,
          key: s.templates[0].key, use: s.templates[0],
          defaultParameter: nil, valueParameter: nil))
      for extra in s.templates.dropFirst() {
        facts.wrappers.append(
          SourceWrapper(
            selector: selector, className: className, parameters: s.parameters, key: extra.key,
            use: extra))
      }
    }
    scope = nil
  }

  // MARK: - Definitions

  /// `#define NAME body`: a key, a value, or a receiver.
  mutating func define(at i: Int) -> Int {
    var end = i + 2
    while end < t.count, t.token(end).kind != .endDirective { end += 1 }
    guard !gatherOnly, t.isIdentifier(i + 1) else { return end + 1 }
    let name = t.text(i + 1)
    let body = (i + 2)..<end
    if body.isEmpty { return end + 1 }
    boundary = i + 2
    defer { boundary = -1 }
    switch receiverOf(body) {
    case .standard, .suite:
      facts.receivers[name] = receiverOf(body)
      return end + 1
    default: break
    }
    let key = keyOf(body)
    switch key {
    case .literal, .concat, .name: facts.constants[name] = key
    default: break
    }
    let value = valueOf(body)
    switch value {
    case .value, .name: facts.valueConstants[name] = value
    default: break
    }
    return end + 1
  }

  /// An identifier at `i`: a class's start or end, a declaration, a function's start, `if`,
  /// a C call of interest. Returns where to continue, or nil to go on at `i + 1`.
  mutating func identifier(at i: Int) -> Int? {
    let word = t.token(i)
    let length = word.end - word.start
    let first = t.bytes[Int(word.start)]
    if first == 0x40 {  // @implementation, @interface, @end, @property
      if t.isText(i, "@implementation") || t.isText(i, "@interface") {
        className = t.isIdentifier(i + 1) ? t.text(i + 1) : nil
        keptMembers = []
        if className != nil, t.isText(i, "@implementation") { implementationBody = i + 2 }
        if t.isPunctuation(i + 2, 0x3A), t.isIdentifier(i + 3), let className {
          facts.superclasses[className] = t.text(i + 3)
        }
        return nil
      }
      if t.isText(i, "@end") {
        endScope()
        className = nil
        return nil
      }
      if t.isText(i, "@property") {
        property(at: i)
        return nil
      }
      if t.isText(i, "@dynamic"), let className, !gatherOnly {
        // `@dynamic a, b;`: accessors made at run time (by PAPreferences, in user defaults).
        var k = i + 1
        while k < t.count, !t.isPunctuation(k, 0x3B) {
          if t.isIdentifier(k) {
            facts.dynamicProperties.append((className, t.text(k), t.line(k)))
          }
          k += 1
        }
        return nil
      }
      return nil
    }
    if scope == nil, !gatherOnly, Self.enumKeywords.contains(t.text(i)) {
      return enumConstants(at: i)
    }
    if length == 2, t.isText(i, "if"), scope != nil, t.isPunctuation(i + 1, 0x28) {
      ifStatement(at: i)
      return nil
    }
    if scope != nil {
      if length == 3, t.isText(i, "for"), t.isPunctuation(i + 1, 0x28) {
        forIn(at: i)
        return nil
      }
    }
    if scope != nil, !gatherOnly {
      if length == 6, t.isText(i, "return") {
        if scope?.returns == false
          || scope?.selector.map(input.returnsWanted.contains) == true
        {
          recordReturn(expressionRange(from: i + 1))
        }
        return nil
      }
      if length == 3, t.isPunctuation(i + 1, 0x28), t.isText(i, "MAX") {
        clampFallback(at: i)
      }
      // (The tokens after it first: most names are none of these.)
      if t.isPunctuation(i + 1, 0x3F) || t.isText(i + 1, "!=") || t.isText(i + 1, "==")
        || t.isText(i + 1, "<=") || t.isPunctuation(i + 1, 0x3E),
        let local = scope?.locals[t.text(i)], let original = held(local)
      {
        fallbackOnLocal(at: i, original: original)
      }
    }
    if scope == nil, t.isPunctuation(i + 1, 0x28), !isKeyword(i) {
      // A C function's definition: NAME(params) { … } at the top level.
      let close = t.match(i + 1)
      if close < t.count, t.isPunctuation(close + 1, 0x7B), !t.isPunctuation(i - 1, 0x2E) {
        let body = close + 1
        scope = FunctionScope(
          selector: t.text(i) + "()", parameters: parameterNames(in: (i + 2)..<close),
          end: t.match(body) + 1)
        return body + 1
      }
    }
    if t.isPunctuation(i + 1, 0x28), word.kind == .identifier {
      cCall(at: i)
    }
    // Declarations are read in a wrapper-call pass too: the variables a call's key comes from.
    if isStatementStart(i) { declaration(at: i) }
    return nil
  }

  func isKeyword(_ i: Int) -> Bool {
    t.isText(i, "if") || t.isText(i, "while") || t.isText(i, "for") || t.isText(i, "switch")
      || t.isText(i, "return") || t.isText(i, "sizeof") || t.isText(i, "__attribute__")
      || t.isText(i, "defined")
  }

  func isStatementStart(_ i: Int) -> Bool {
    guard i > 0 else { return true }
    return t.isPunctuation(i - 1, 0x3B) || t.isPunctuation(i - 1, 0x7B)
      || t.isPunctuation(i - 1, 0x7D)
      || t.token(i - 1).kind == .endDirective || (t.isPunctuation(i - 1, 0x29) && scope == nil)
      || t.isText(i - 1, "@end") || i == implementationBody
  }

  /// The parameter names of a C parameter list: the last name of each comma-separated part.
  func parameterNames(in range: Range<Int>) -> [String] {
    var names: [String] = []
    var last: String?
    var k = range.lowerBound
    while k < range.upperBound {
      if t.isPunctuation(k, 0x2C) {
        if let last { names.append(last) }
        last = nil
      } else if t.isIdentifier(k) {
        last = t.text(k)
      } else if t.isPunctuation(k, 0x28) || t.isPunctuation(k, 0x5B) {
        k = t.match(k)
      }
      k += 1
    }
    if let last, last != "void" { names.append(last) }
    return names
  }

  /// `- (type)part:(type)name part2:(type)name2 { … }`: a method and its parameters.
  mutating func method(at i: Int) -> Int {
    var k = t.match(i + 1) + 1
    var selector = ""
    var parameters: [String] = []
    var types: [String?] = []
    while k < t.count, !t.isPunctuation(k, 0x7B), !t.isPunctuation(k, 0x3B) {
      if t.isIdentifier(k), t.isPunctuation(k + 1, 0x3A) {
        selector += t.text(k) + ":"
        k += 2
        var type: String?
        if t.isPunctuation(k, 0x28) {
          type = t.isIdentifier(k + 1) ? t.text(k + 1) : nil
          k = t.match(k) + 1
        }
        if t.isIdentifier(k) {
          parameters.append(t.text(k))
          types.append(type)
        }
        k += 1
        continue
      }
      if t.isIdentifier(k), selector.isEmpty {
        selector = t.text(k)
      }
      k += 1
    }
    // (`- (void)update; { … }`: in an implementation, a `;` may end the signature before its
    // body.)
    if t.isPunctuation(k, 0x3B), t.isPunctuation(k + 1, 0x7B), implementationBody >= 0 { k += 1 }
    guard t.isPunctuation(k, 0x7B) else { return k }
    // A getter method (`- (BOOL)soundEnabled`) or a setter one (`setSoundEnabled:`) stands
    // for a property of that name.
    var property: String?
    let returnsNothing = t.isText(i + 2, "void") || t.isText(i + 2, "IBAction")
    if parameters.isEmpty, !returnsNothing {
      property = selector
      if let className, !gatherOnly { facts.gettersDefined.insert(className + "." + selector) }
    } else if parameters.count == 1, selector.hasPrefix("set"), selector.count > 4 {
      let name = selector.dropFirst(3).dropLast()
      property = name.prefix(1).lowercased() + name.dropFirst()
    }
    scope = FunctionScope(
      selector: selector, parameters: parameters, parameterTypes: types,
      end: t.match(k) + 1, property: property)
    if !returnsNothing, t.isPunctuation(i + 1, 0x28), t.isIdentifier(i + 2) {
      scope?.returnTypeToken = i + 2
    }
    // A parameter declared `(NSUserDefaults *)defaults` holds user defaults (the standard
    // ones, as far as the code shows).
    for (name, type) in zip(parameters, types) where type == "NSUserDefaults" {
      scope?.locals[name, default: LocalVariable()].receiver = .standard
    }
    initMembers = [:]
    return k + 1
  }

  /// `@property (…) Type *name;`: the type of a property (user defaults, or a wrapper).
  mutating func property(at i: Int) {
    var k = i + 1
    if t.isPunctuation(k, 0x28) { k = t.match(k) + 1 }
    var type: String?
    var name: String?
    while k < t.count, !t.isPunctuation(k, 0x3B) {
      if t.isIdentifier(k) {
        if type == nil {
          type = t.text(k)
        } else {
          name = t.text(k)
        }
      }
      k += 1
    }
    guard let type, let name else { return }
    if let className, !gatherOnly { facts.objcProperties[className, default: [:]][name] = type }
    bindType(type, to: name)
  }

  mutating func bindType(_ type: String, to name: String) {
    let bare = Self.bare(name)
    if type == "NSUserDefaults" {
      if facts.receivers[bare] == nil { facts.receivers[bare] = .standard }
    } else if type.first?.isUppercase == true,
      !Self.isFrameworkType(type) || Self.keyedStores.contains(type)
    {
      facts.types[bare] = type
    }
  }

  /// After a class's name, `<NSString *, id>` (lightweight generics): the token after its
  /// `>`; nil for anything else (`i < n` is a comparison).
  func genericEnd(at k: Int) -> Int? {
    guard t.isPunctuation(k, 0x3C), t.isIdentifier(k - 1),
      t.text(k - 1).first?.isUppercase == true
    else { return nil }
    var n = k + 1
    var depth = 1
    while n < t.count, n < k + 24 {
      if t.isPunctuation(n, 0x3E) {
        depth -= 1
        if depth == 0 { return n + 1 }
      } else if t.isPunctuation(n, 0x3C) {
        depth += 1
      } else if !t.isIdentifier(n), !t.isPunctuation(n, 0x2A), !t.isPunctuation(n, 0x2C) {
        return nil
      }
      n += 1
    }
    return nil
  }

  /// FNV-1a of an identifier's bytes.
  func hash(_ i: Int) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for k in Int(t.token(i).start)..<Int(t.token(i).end) {
      h = (h ^ UInt64(t.bytes[k])) &* 0x100_0000_01b3
    }
    return h
  }

  static func hash(_ word: Substring) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in word.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
    return h
  }

  /// The first parts of the selectors the reader looks at.
  static let firstWords: Set<UInt64> = {
    var words = Set(DefaultsAPI.objc.keys.compactMap { $0.split(separator: ":").first })
    for key in DefaultsAPI.refiners.keys {
      if let w = key.split(separator: ":").first { words.insert(w) }
    }
    words.formUnion([
      "registerDefaults", "bind", "isKindOfClass", "JSONObjectWithData", "unarchiveObjectWithData",
      "unarchivedObjectOfClass", "enumerateObjectsUsingBlock", "enumerateObjectsWithOptions",
      "addEntriesFromDictionary", "addSuiteNamed",
    ])
    for key in Array(LibraryModels.objcKeySelectors.keys) + Array(typedEntrySetters.keys) {
      if let w = key.split(separator: ":").first { words.insert(w) }
    }
    return Set(words.map(hash))
  }()

  /// Framework classes with user defaults' methods that are not user defaults (a property of
  /// one of these is never reported as a receiver that may be).
  static let keyedStores: Set<String> = [
    "NSUbiquitousKeyValueStore", "NSDictionary", "NSMutableDictionary", "NSCache", "NSCoder",
    "NSMapTable",
  ]

  static func isFrameworkType(_ type: String) -> Bool {
    type != "NSUserDefaults"
      && (type.hasPrefix("NS") || type.hasPrefix("UI") || type.hasPrefix("CF")
        || type.hasPrefix("CG"))
  }

  /// A name without the `_` of its instance variable.
  static func bare(_ name: String) -> String {
    name.hasPrefix("_") ? String(name.dropFirst()) : name
  }

  /// A key written in `range` with this function's variables looked up (their keys, or what
  /// only the run knows).
  func localKey(_ range: Range<Int>) -> KeyExpr {
    let key = keyOf(range)
    // (The variables copied out first: a closure over `self` would copy the reader.)
    guard let locals = scope?.locals, !locals.isEmpty, !key.names.isEmpty else { return key }
    return key.substituting { name in
      if let local = locals[name] { return local.key ?? .runtime(name) }
      return nil
    }
  }

  /// `pathForResource:@"Defaults" ofType:@"plist"`, `URLForResource:withExtension:`: the
  /// file name.
  func resourceName(in range: Range<Int>) -> String? {
    for k in range {
      if let entry = InfoDictionaryEntry.named(at: k, t) { return entry }
      guard t.isText(k, "pathForResource") || t.isText(k, "URLForResource") else { continue }
      guard let name = t.stringValue(k + 2) else { continue }
      if let ext = t.stringValue(k + 5), !name.hasSuffix("." + ext) { return name + "." + ext }
      return name.contains(".") ? name : name + ".plist"
    }
    return scope?.resource(in: range, t)
  }

  func loadedFile(_ range: Range<Int>) -> KeyExpr? {
    let r = inner(range)
    if r.count == 1, t.isIdentifier(r.lowerBound) {
      guard scope?.holdsResources == true else { return nil }
      return scope?.locals[t.text(r.lowerBound)]?.file
    }
    // `[NSPropertyListSerialization propertyListFromData:data mutabilityOption:…]`: its first
    // argument.
    if let first = r.first, t.isPunctuation(first, 0x5B), t.match(first) == r.upperBound - 1,
      let m = parseMessage(at: first), let argument = m.arguments.first,
      let part = m.selector.split(separator: ":").first.map(String.init)
    {
      if Self.fileReaders.contains(part) {
        let file = localKey(argument)
        return file.isRuntime ? nil : file
      }
      if part == "propertyListFromData" || part == "propertyListWithData" {
        return loadedFile(argument)
      }
    }
    for k in r where t.isIdentifier(k) && t.isPunctuation(k + 1, 0x3A) {
      let word = t.text(k)
      if Self.fileReaders.contains(word) {
        let file = localKey(expressionRange(from: k + 2))
        return file.isRuntime ? nil : file
      }
      // `propertyListFromData:data …`: what the data was read from.
      if word.hasPrefix("propertyListFromData") || word.hasPrefix("propertyListWithData") {
        return loadedFile(expressionRange(from: k + 2))
      }
    }
    return nil
  }

  /// The selectors (their first part) that read a file into a dictionary or data.
  static let fileReaders: Set<String> = [
    "dictionaryWithContentsOfFile", "initWithContentsOfFile", "dictionaryWithContentsOfURL",
    "initWithContentsOfURL", "contentsAtPath", "dataWithContentsOfFile", "dataWithContentsOfURL",
  ]

  /// (An Objective-C receiver is looked up by its name.)
  func receiverOwner(of receiver: ReceiverRef) -> String? { nil }

  func resourceParameter(in range: Range<Int>) -> KeyExpr? {
    for k in range where t.isText(k, "pathForResource") || t.isText(k, "URLForResource") {
      guard t.isPunctuation(k + 1, 0x3A), t.isIdentifier(k + 2),
        scope?.parameters.contains(t.text(k + 2)) == true
      else { continue }
      return .name(t.text(k + 2))
    }
    return scope?.resourceParameter(in: range, t).map { .name($0) }
  }

}
