import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads one Objective-C or C file's tokens into its facts: macros and string constants,
/// the variables that hold user defaults, every message to them with its key, what the code
/// does with a value (`boolValue` on `objectForKey:`'s result, a cast), the defaults it
/// registers and the ones it falls back to.
struct ObjCReader {
  let t: SourceTokens
  var facts: FileFacts
  /// Phase 2: only the calls of these wrappers are gathered.
  let wrapperSelectors: Set<String>
  let gatherOnly: Bool

  private let firstWords = Self.firstWords
  /// The first token of a macro's body: a message may start there (after the macro's name).
  private var boundary = -1
  private var className: String?
  private var scope: FunctionScope?
  /// Enclosing `if` blocks: where each ends, and its condition's tokens.
  private var ifs: [(end: Int, condition: Range<Int>)] = []
  /// Sends already read as part of a pattern (a presence test), by their `[` token.
  private var presence: Set<Int> = []
  /// The use each send made, by its `[` token (for what the code does with its result).
  private var useAt: [Int: Int] = [:]
  /// Inner messages already read for an outer one (``pendingUse(at:)``): not read again.
  private var readEarly: Set<Int> = []

  init(tokens: SourceTokens, path: String, wrappers: Set<String> = [], gatherOnly: Bool = false) {
    t = tokens
    facts = FileFacts(path: path)
    wrapperSelectors = wrappers
    self.gatherOnly = gatherOnly
  }

  // MARK: - The walk

  mutating func read() -> FileFacts {
    var i = 0
    while i < t.count {
      if let scope, i >= scope.end { endScope() }
      while let last = ifs.last, i >= last.end { ifs.removeLast() }
      let token = t.token(i)
      switch token.kind {
      case .define:
        i = define(at: i)
        continue
      case .identifier:
        if let next = identifier(at: i) {
          i = next
          continue
        }
      case .punctuation:
        if t.isPunctuation(i, 0x5B) {
          message(at: i)
        } else if scope == nil, t.isPunctuation(i, 0x2D) || t.isPunctuation(i, 0x2B),
          t.isPunctuation(i + 1, 0x28), className != nil
        {
          i = method(at: i)
          continue
        } else if t.isPunctuation(i, 0x5E),
          t.isPunctuation(i + 1, 0x28) || t.isPunctuation(i + 1, 0x7B)
        {
          // A block's parameters are its own: nothing to follow.
        }
      default: break
      }
      i += 1
    }
    endScope()
    return facts
  }

  private mutating func endScope() {
    guard let s = scope else { return }
    if let selector = s.selector, !s.templates.isEmpty, !gatherOnly {
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
  private mutating func define(at i: Int) -> Int {
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
  private mutating func identifier(at i: Int) -> Int? {
    let word = t.token(i)
    let length = word.end - word.start
    let first = t.bytes[Int(word.start)]
    if first == 0x40 {  // @implementation, @interface, @end, @property
      if t.isText(i, "@implementation") || t.isText(i, "@interface") {
        className = t.isIdentifier(i + 1) ? t.text(i + 1) : nil
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
      return nil
    }
    if length == 2, t.isText(i, "if"), scope != nil, t.isPunctuation(i + 1, 0x28) {
      ifStatement(at: i)
      return nil
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
    if !gatherOnly, isStatementStart(i) { declaration(at: i) }
    return nil
  }

  private func isKeyword(_ i: Int) -> Bool {
    t.isText(i, "if") || t.isText(i, "while") || t.isText(i, "for") || t.isText(i, "switch")
      || t.isText(i, "return") || t.isText(i, "sizeof") || t.isText(i, "__attribute__")
      || t.isText(i, "defined")
  }

  private func isStatementStart(_ i: Int) -> Bool {
    guard i > 0 else { return true }
    return t.isPunctuation(i - 1, 0x3B) || t.isPunctuation(i - 1, 0x7B)
      || t.isPunctuation(i - 1, 0x7D)
      || t.token(i - 1).kind == .endDirective || (t.isPunctuation(i - 1, 0x29) && scope == nil)
  }

  /// The parameter names of a C parameter list: the last name of each comma-separated part.
  private func parameterNames(in range: Range<Int>) -> [String] {
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
  private mutating func method(at i: Int) -> Int {
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
    guard t.isPunctuation(k, 0x7B) else { return k }
    // A getter method (`- (BOOL)soundEnabled`) or a setter one (`setSoundEnabled:`) stands
    // for a property of that name.
    var property: String?
    let returnsNothing = t.isText(i + 2, "void") || t.isText(i + 2, "IBAction")
    if parameters.isEmpty, !returnsNothing {
      property = selector
    } else if parameters.count == 1, selector.hasPrefix("set"), selector.count > 4 {
      let name = selector.dropFirst(3).dropLast()
      property = name.prefix(1).lowercased() + name.dropFirst()
    }
    scope = FunctionScope(
      selector: selector, parameters: parameters, parameterTypes: types,
      end: t.match(k) + 1, property: property)
    // A parameter declared `(NSUserDefaults *)defaults` holds user defaults (the standard
    // ones, as far as the code shows).
    for (name, type) in zip(parameters, types) where type == "NSUserDefaults" {
      scope?.locals[name, default: LocalVariable()].receiver = .standard
    }
    return k + 1
  }

  /// `@property (…) Type *name;`: the type of a property (user defaults, or a wrapper).
  private mutating func property(at i: Int) {
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
    bindType(type, to: name)
  }

  private mutating func bindType(_ type: String, to name: String) {
    let bare = Self.bare(name)
    if type == "NSUserDefaults" {
      if facts.receivers[bare] == nil { facts.receivers[bare] = .standard }
    } else if type.first?.isUppercase == true, !type.hasPrefix("NS"), !type.hasPrefix("UI") {
      facts.types[bare] = type
    }
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
      "unarchivedObjectOfClass",
    ])
    return Set(words.map(hash))
  }()

  static func isFrameworkType(_ type: String) -> Bool {
    type != "NSUserDefaults"
      && (type.hasPrefix("NS") || type.hasPrefix("UI") || type.hasPrefix("CF")
        || type.hasPrefix("CG"))
  }

  /// A name without the `_` of its instance variable.
  static func bare(_ name: String) -> String {
    name.hasPrefix("_") ? String(name.dropFirst()) : name
  }

  /// A declaration or an assignment at a statement's start: `NSString *const K = @"k";`,
  /// `NSUserDefaults *d = [NSUserDefaults standardUserDefaults];`, `self.defaults = …;`,
  /// `NSData *data = [d dataForKey:K];`.
  private mutating func declaration(at i: Int) {
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
      break
    }
    guard t.isPunctuation(scan, 0x3D) || t.isPunctuation(scan, 0x3B) && star else { return }
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
    var type: String?
    var name: String?
    var isDeclaration = false
    while k < t.count, k < i + 12 {
      if t.isPunctuation(k, 0x3D) { break }
      if t.isPunctuation(k, 0x3B) || t.isPunctuation(k, 0x7B) || t.isPunctuation(k, 0x28)
        || t.isPunctuation(k, 0x5B)
        || t.token(k).kind != .identifier && !t.isPunctuation(k, 0x2A)
          && !t.isPunctuation(k, 0x2E) && !t.isText(k, "->")
      {
        if t.isPunctuation(k, 0x3B), let n = name, let ty = type, isDeclaration {
          // `NSUserDefaults *defaults;`, `Settings *settings;`
          bindType(ty, to: n)
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
    // The value: to the `;` at this level.
    var end = k + 1
    while end < t.count, !t.isPunctuation(end, 0x3B), !t.isPunctuation(end, 0x7D) {
      if t.isPunctuation(end, 0x28) || t.isPunctuation(end, 0x5B) || t.isPunctuation(end, 0x7B) {
        end = t.match(end)
      }
      end += 1
    }
    let value = (k + 1)..<min(end, t.count)
    guard !value.isEmpty else { return }
    let member = t.isPunctuation(k - 2, 0x2E) || t.isText(k - 2, "->") || name.hasPrefix("_")
    let local = scope != nil && isDeclaration
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
      }
    default: break
    }
    if receiverFound {
      var bound = resolvedLocally(receiver)
      if case .name(let other) = bound, let known = facts.receivers[Self.bare(other)] {
        bound = known
      }
      if local {
        scope?.locals[name, default: LocalVariable()].receiver = bound
      } else {
        facts.receivers[Self.bare(name)] = resolvedLocally(receiver)
      }
      return
    }
    if local || (scope != nil && scope?.locals[name] != nil && !member) {
      var variable = scope?.locals[name] ?? LocalVariable()
      if let type { variable.type = type }
      if type == "NSString" || type == "NSMutableString" || !isDeclaration {
        // A variable given a constant holds it; given anything else (again), it holds what
        // only the run knows.
        let key = keyOf(value)
        if case .runtime = key { variable.key = nil } else { variable.key = key }
      }
      if t.isPunctuation(value.lowerBound, 0x5B) { variable.use = -(value.lowerBound + 1) }
      if type == "NSDictionary" || type == "NSMutableDictionary" || type == "id" {
        if case .dictionary(let entries) = valueOf(value) { variable.entries = entries }
      }
      if let resource = resourceName(in: value) { variable.resource = resource }
      if t.contains(value, "dataWithJSONObject") || t.contains(value, "JSONEncoder") {
        variable.json = true
      }
      scope?.locals[name] = variable
      return
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

  static let qualifiers: Set<String> = [
    "static", "const", "extern", "FOUNDATION_EXPORT", "__strong", "__weak", "nonnull",
    "_Nonnull", "__block", "volatile", "register", "self", "UIKIT_EXTERN", "APPKIT_EXTERN",
    "__unsafe_unretained", "nullable", "_Nullable",
  ]

  private func resolvedLocally(_ receiver: ReceiverRef) -> ReceiverRef {
    if case .name(let other) = receiver, let bound = scope?.locals[other]?.receiver { return bound }
    return receiver
  }

  /// `pathForResource:@"Defaults" ofType:@"plist"`, `URLForResource:withExtension:`: the
  /// file name.
  private func resourceName(in range: Range<Int>) -> String? {
    for k in range where t.isText(k, "pathForResource") || t.isText(k, "URLForResource") {
      guard let name = t.stringValue(k + 2) else { continue }
      if let ext = t.stringValue(k + 5), !name.hasSuffix("." + ext) { return name + "." + ext }
      return name.contains(".") ? name : name + ".plist"
    }
    return scope?.resource(in: range, t)
  }

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
  private func isCallResult(_ i: Int) -> Bool {
    let open = t.match(i)
    guard open > 0, open < i, t.isIdentifier(open - 1) else { return false }
    return !isKeyword(open - 1) && !isCastEnd(i)
  }

  /// Whether the `)` at `i` ends a cast (`(NSString *)[…]`), not a call.
  private func isCastEnd(_ i: Int) -> Bool {
    let open = t.match(i)
    guard open >= 0, open < i else { return false }
    return (open + 1..<i).allSatisfy { t.isIdentifier($0) || t.isPunctuation($0, 0x2A) }
      && (open == 0 || !t.isIdentifier(open - 1))
  }

  /// The end of one primary expression from `start`: a message, a parenthesized or cast
  /// expression, a name with its members and calls, a literal.
  private func primaryEnd(from start: Int, limit: Int) -> Int {
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
      if m.selector == "initWithSuiteName:", let arg = m.arguments.first {
        if t.isText(arg.lowerBound, "nil"), arg.count == 1 { return .standard }
        return .suite(keyOf(arg))
      }
      if inner.count == 1, t.isIdentifier(inner.lowerBound) {
        let name = t.text(inner.lowerBound)
        if name.first?.isUppercase == true { return .type(name) }
      }
      return .none
    }
    if t.isIdentifier(first) {
      let name = t.text(first)
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

  /// The receiver of a message, as far as this file can tell.
  private func receiverOfMessage(_ m: Message) -> ReceiverRef { receiverOf(m.receiver) }

  /// A message at `open`: a use of a key when it is one of the defaults methods, else what it
  /// says of a use nearby.
  private mutating func message(at open: Int) {
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
    if gatherOnly { return }
    if let api = DefaultsAPI.objc[m.selector] {
      use(m, api)
      return
    }
    switch m.selector {
    case "registerDefaults:":
      register(m)
    case "bind:toObject:withKeyPath:options:":
      binding(m)
    default:
      refine(m)
    }
  }

  private func condition(at i: Int) -> String? {
    if t.token(i).conditional { return "inside a preprocessor condition (#if)" }
    return ifs.lazy.compactMap { self.runDependence($0.condition) }.first
  }

  /// Why a condition makes the defaults inside it depend on the run (an OS version, the
  /// locale), or nil.
  private func runDependence(_ condition: Range<Int>) -> String? {
    for k in condition where t.isIdentifier(k) && DefaultsAPI.conditionWords.contains(t.text(k)) {
      return "inside `if (\(t.source(condition)))`"
    }
    return nil
  }

  /// The property a value read at `open` goes to: `x.prop = [...]`, `_prop = [...]`, a getter
  /// method's `return`.
  private func assignedName(before open: Int) -> String? {
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
  private func valueName(_ range: Range<Int>) -> String? {
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
  private mutating func use(_ m: Message, _ api: DefaultsAPI.Method) {
    guard api.key < m.arguments.count else { return }
    let receiver = receiverOfMessage(m)
    guard receiver != .none else { return }
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
      let value = valueOf(valueRange)
      if api.type == nil {
        use.type = value.type
        if valueRange.count == 1, t.isIdentifier(valueRange.lowerBound),
          let local = scope?.locals[t.text(valueRange.lowerBound)], use.type == nil || local.json
        {
          if local.json {
            use.type = .json
            use.typeReason = "JSON data"
          } else if let type = local.type {
            use.type = DefaultsAPI.type(ofClass: type)
          }
        }
        if t.contains(valueRange, "dataWithJSONObject") {
          use.type = .json
          use.typeReason = "JSON data"
        }
      }
      if case .value = value { use.value = value }
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

  /// `x = [d objectForKey:K] ? [d boolForKey:K] : YES;` (and `(… != nil) ?`, `== nil ?`): the
  /// value the absent side gives, and the name it goes to.
  private func ternaryAfterPresence(_ m: Message) -> (ValueExpr, String?)? {
    var k = m.close + 1
    var present = true
    var start = m.open
    if t.isText(k, "!=") || t.isText(k, "=="), t.isText(k + 1, "nil") || t.isText(k + 1, "NULL") {
      present = t.isText(k, "!=")
      k += 2
    }
    if t.isPunctuation(k, 0x29), t.match(k) == start - 1 || t.match(k) == start - 2 {
      if t.isPunctuation(start - 1, 0x21) {
        present.toggle()
        start -= 1
      }
      start = t.match(k)
      k += 1
    } else if t.isPunctuation(start - 1, 0x21) {
      present.toggle()
      start -= 1
    }
    guard t.isPunctuation(k, 0x3F), !t.isPunctuation(k + 1, 0x3A) else { return nil }
    let first = expressionRange(from: k + 1)
    guard t.isPunctuation(first.upperBound, 0x3A) else { return nil }
    let second = expressionRange(from: first.upperBound + 1)
    return (valueOf(present ? second : first), assignedName(before: start))
  }

  /// What the tokens just around a getter's message say of its type: a cast before it, the
  /// declared type of the variable it initializes.
  private func refineInPlace(_ use: inout SourceUse, _ m: Message) {
    var k = m.open - 1
    if t.isPunctuation(k, 0x29), isCastEnd(k) {
      let open = t.match(k)
      if let type = DefaultsAPI.type(ofClass: t.text(open + 1)) {
        use.type = type
        use.typeReason = "cast to \(t.text(open + 1))"
        return
      }
      k = open - 1
    }
    if t.isPunctuation(k, 0x3D), t.isIdentifier(k - 1), t.isPunctuation(k - 2, 0x2A),
      let type = DefaultsAPI.type(ofClass: t.text(k - 3))
    {
      use.type = type
      use.typeReason = "assigned to \(t.text(k - 3)) *"
    }
  }

  /// `[d stringForKey:K] ?: @"x"`: the default when absent.
  private func fallbackAfter(_ m: Message, _ use: inout SourceUse) {
    let k = m.close + 1
    guard t.isPunctuation(k, 0x3F), t.isPunctuation(k + 1, 0x3A) else { return }
    let range = expressionRange(from: k + 2)
    use.value = valueOf(range)
    use.defaultSource = .fallback
    if use.name == nil { use.name = assignedName(before: m.open) }
  }

  /// From `start` to the end of an expression: `;`, `,`, or a closing bracket at this level.
  private func expressionRange(from start: Int) -> Range<Int> {
    var k = start
    var questions = 0
    while k < t.count {
      if t.isPunctuation(k, 0x3B) || t.isPunctuation(k, 0x2C) || t.isPunctuation(k, 0x29)
        || t.isPunctuation(k, 0x5D) || t.isPunctuation(k, 0x7D)
      {
        break
      }
      if t.isPunctuation(k, 0x3F) { questions += 1 }
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

  private mutating func record(_ use: SourceUse, at open: Int) {
    var use = use
    use.file = 0
    if scope?.isTemplate(use) == true {
      scope?.templates.append(use)
      return
    }
    // A variable of the function named as the key: known only at run time, unless it holds
    // a constant.
    var use2 = use
    use2.key = use.key.substituting { name in
      if let local = scope?.locals[name] {
        return local.key ?? .runtime(name)
      }
      if name == "_cmd", let selector = scope?.selector { return .literal(selector) }
      return nil
    }
    if open >= 0 { useAt[open] = facts.uses.count }
    facts.uses.append(use2)
    // The variable the value went into: what the code does with it later refines the type.
    if let s = scope {
      for (name, local) in s.locals where local.use == -(open + 1) {
        scope?.locals[name]?.use = facts.uses.count - 1
        if use2.type == nil, let type = local.type, let planType = DefaultsAPI.type(ofClass: type) {
          facts.uses[facts.uses.count - 1].type = planType
          facts.uses[facts.uses.count - 1].typeReason = "assigned to \(type) *"
        }
      }
    }
  }

  /// A message that is not one of the defaults methods: it may say what an `objectForKey:`'s
  /// result is (`[[d objectForKey:K] boolValue]`, `isKindOfClass:`, JSON parsing).
  private mutating func refine(_ m: Message) {
    // The use whose result is the receiver, or the argument.
    func useOf(_ range: Range<Int>) -> Int? {
      var r = range
      while r.count >= 2, t.isPunctuation(r.lowerBound, 0x28),
        isCastEnd(t.match(r.lowerBound))
      {
        r = (t.match(r.lowerBound) + 1)..<r.upperBound
      }
      guard let first = r.first else { return nil }
      if t.isPunctuation(first, 0x5B), t.match(first) == r.upperBound - 1 {
        return useAt[first] ?? pendingUse(at: first)
      }
      if r.count == 1, t.isIdentifier(first), let use = scope?.locals[t.text(first)]?.use, use >= 0
      {
        return use
      }
      return nil
    }
    var target: Int?
    var type: MigrationPlan.ValueType?
    var reason = ""
    if let refined = DefaultsAPI.refiners[m.selector] {
      target = useOf(m.receiver)
      type = refined
      reason = m.selector
    } else if m.selector == "isKindOfClass:", let arg = m.arguments.first {
      target = useOf(m.receiver)
      if t.isPunctuation(arg.lowerBound, 0x5B), t.isIdentifier(arg.lowerBound + 1) {
        type = DefaultsAPI.type(ofClass: t.text(arg.lowerBound + 1))
        reason = "isKindOfClass:[\(t.text(arg.lowerBound + 1)) class]"
      }
    } else if m.selector.hasPrefix("JSONObjectWithData:"), let arg = m.arguments.first {
      target = useOf(arg)
      type = .json
      reason = "parsed by NSJSONSerialization"
    } else if m.selector.hasPrefix("unarchiveObjectWithData:")
      || m.selector.hasPrefix("unarchivedObjectOfClass:"), let arg = m.arguments.last
    {
      target = useOf(arg)
      type = .data
      reason = "unarchived by NSKeyedUnarchiver"
    }
    guard let target, let type, target < facts.uses.count else { return }
    let current = facts.uses[target]
    guard current.access == .get,
      current.type == nil || current.type == .data || current.type == .string && type == .json
    else { return }
    facts.uses[target].type = type
    facts.uses[target].typeReason = reason
  }

  /// The use an inner message will make (read before the outer one is done): the inner is
  /// read now.
  private mutating func pendingUse(at open: Int) -> Int? {
    guard useAt[open] == nil, let m = parseMessage(at: open), let api = DefaultsAPI.objc[m.selector]
    else {
      return useAt[open]
    }
    use(m, api)
    readEarly.insert(open)
    return useAt[open]
  }

  // MARK: - Registration

  private mutating func register(_ m: Message) {
    guard let arg = m.arguments.first else { return }
    let receiver = receiverOfMessage(m)
    guard receiver != .none else { return }
    var entries: [ValueEntry]?
    switch valueOf(arg) {
    case .dictionary(let e): entries = e
    default:
      if arg.count == 1, t.isIdentifier(arg.lowerBound),
        let local = scope?.locals[t.text(arg.lowerBound)]
      {
        entries = local.entries
      }
    }
    let line = t.line(m.open)
    let base = SourceUse(
      key: .literal(""), receiver: receiver, access: .register, method: "registerDefaults:",
      condition: condition(at: m.open), line: line)
    if let entries {
      for use in base.registering(entries) { record(use, at: -1) }
      return
    }
    if let resource = resourceName(in: arg) {
      facts.registeredFiles.append((resource, base))
      return
    }
    facts.warnings.append(
      ScanWarning(
        path: facts.path, line: line,
        message:
          "registerDefaults: of a dictionary the scan cannot read (\(t.source(arg))): its defaults are not known"
      ))
  }

  /// `[control bind:@"value" toObject:[NSUserDefaultsController sharedUserDefaultsController]
  /// withKeyPath:@"values.KEY" options:…]`.
  private mutating func binding(_ m: Message) {
    guard m.arguments.count >= 3, receiverOf(m.arguments[1]) == .standard else { return }
    var key = keyOf(m.arguments[2])
    guard let stripped = Self.droppingValuesPrefix(key) else { return }
    key = stripped
    let name = t.stringValue(m.arguments[0].lowerBound) ?? ""
    var use = SourceUse(
      key: key, receiver: .standard, access: .bind, method: "bind:@\"\(name)\" (values.KEY)",
      line: t.line(m.open))
    use.type = InterfaceReader.bindingType(name, control: nil, transformer: nil)
    use.weakType = true
    record(use, at: m.open)
  }

  /// A key path `values.KEY` (or `values.KEY.more`) as the key.
  static func droppingValuesPrefix(_ key: KeyExpr) -> KeyExpr? {
    switch key {
    case .literal(let s):
      guard s.hasPrefix("values.") else { return nil }
      let rest = s.dropFirst(7)
      return .literal(String(rest.split(separator: ".", maxSplits: 1).first ?? rest))
    case .concat(let parts):
      guard case .literal(let head)? = parts.first, head.hasPrefix("values.") else { return nil }
      let rest = String(head.dropFirst(7))
      return rest.isEmpty
        ? (parts.count == 2 ? parts[1] : .concat(Array(parts.dropFirst())))
        : .concat([.literal(rest)] + parts.dropFirst())
    default: return nil
    }
  }

  // MARK: - Fallback branches

  /// `if ([d objectForKey:K] != nil) … else x = V;` and its `== nil`, `!` and bare forms: the
  /// value of the absent branch is the key's default.
  private mutating func ifStatement(at i: Int) {
    let open = i + 1
    let close = t.match(open)
    guard close < t.count else { return }
    let thenRange = statement(from: close + 1)
    var elseRange: Range<Int>?
    if t.isText(thenRange.upperBound, "else") {
      elseRange = statement(from: thenRange.upperBound + 1)
    }
    ifs.append((end: (elseRange ?? thenRange).upperBound, condition: (open + 1)..<close))
    guard let (send, present) = presenceTest((open + 1)..<close),
      let m = parseMessage(at: send), DefaultsAPI.presenceGetters.contains(m.selector),
      let keyRange = m.arguments.first
    else { return }
    let receiver = receiverOfMessage(m)
    guard receiver != .none else { return }
    presence.insert(send)
    guard let absent = present ? elseRange : thenRange else { return }
    let key = keyOf(keyRange)
    guard let (value, name) = absentValue(in: absent, key: key) else { return }
    var use = SourceUse(
      key: key, receiver: receiver, access: .presence, method: m.selector + " == nil",
      line: t.line(absent.lowerBound))
    use.value = value
    use.defaultSource = .fallback
    use.name = name
    use.condition = condition(at: send)
    record(use, at: -1)
  }

  /// A statement from `start`: a block to its `}`, or to its `;`.
  private func statement(from start: Int) -> Range<Int> {
    if t.isPunctuation(start, 0x7B) { return start..<(t.match(start) + 1) }
    if t.isText(start, "if"), t.isPunctuation(start + 1, 0x28) {
      let then = statement(from: t.match(start + 1) + 1)
      if t.isText(then.upperBound, "else") {
        return start..<statement(from: then.upperBound + 1).upperBound
      }
      return start..<then.upperBound
    }
    var k = start
    while k < t.count, !t.isPunctuation(k, 0x3B) {
      if t.isPunctuation(k, 0x28) || t.isPunctuation(k, 0x5B) || t.isPunctuation(k, 0x7B) {
        k = t.match(k)
      }
      k += 1
    }
    return start..<min(k + 1, t.count)
  }

  /// A condition that tests a getter's answer for nil: the message's `[`, and whether the
  /// condition is true when the key is present.
  private func presenceTest(_ range: Range<Int>) -> (Int, Bool)? {
    var r = range
    while r.count >= 2, t.isPunctuation(r.lowerBound, 0x28),
      t.match(r.lowerBound) == r.upperBound - 1
    {
      r = (r.lowerBound + 1)..<(r.upperBound - 1)
    }
    guard let first = r.first else { return nil }
    var negated = false
    var start = first
    if t.isPunctuation(start, 0x21) {
      negated = true
      start += 1
    }
    func isNil(_ k: Int) -> Bool { t.isText(k, "nil") || t.isText(k, "NULL") || t.isText(k, "Nil") }
    // nil == [..] / nil != [..]
    if isNil(start), t.isText(start + 1, "==") || t.isText(start + 1, "!="),
      t.isPunctuation(start + 2, 0x5B),
      t.match(start + 2) == r.upperBound - 1, !negated
    {
      return (start + 2, t.isText(start + 1, "!="))
    }
    guard t.isPunctuation(start, 0x5B) else { return nil }
    let close = t.match(start)
    if close == r.upperBound - 1 { return (start, !negated) }
    if !negated, close + 3 == r.upperBound {
      if t.isText(close + 1, "=="), isNil(close + 2) { return (start, false) }
      if t.isText(close + 1, "!="), isNil(close + 2) { return (start, true) }
    }
    return nil
  }

  /// The first value the absent branch gives the key: an assignment (`x = YES;`), a setter of
  /// the same key (`[d setBool:YES forKey:K]`), a `return`.
  private func absentValue(in range: Range<Int>, key: KeyExpr) -> (ValueExpr, String?)? {
    var k = range.lowerBound
    if t.isPunctuation(k, 0x7B) { k += 1 }
    while k < range.upperBound {
      if t.isText(k, "return") {
        let value = expressionRange(from: k + 1)
        return (valueOf(value), scope?.property)
      }
      if t.isPunctuation(k, 0x5B), let m = parseMessage(at: k),
        let api = DefaultsAPI.objc[m.selector],
        api.access == .set, let v = api.value, m.arguments.count > api.key,
        keyOf(m.arguments[api.key]) == key
      {
        return (valueOf(m.arguments[v]), valueName(m.arguments[v]))
      }
      if t.isPunctuation(k, 0x3D), k > range.lowerBound {
        let value = expressionRange(from: k + 1)
        let name = t.isIdentifier(k - 1) ? Self.bare(t.text(k - 1)) : nil
        return (valueOf(value), name)
      }
      if t.isPunctuation(k, 0x28) || t.isPunctuation(k, 0x5B) || t.isPunctuation(k, 0x7B) {
        // A nested statement's own brackets.
        k = t.match(k)
      }
      k += 1
    }
    return nil
  }

  // MARK: - Ternary presence tests

  // (`x = [d objectForKey:K] ? [d boolForKey:K] : YES;` is read by ``ternaryAfterPresence``
  // from the message's end.)

  // MARK: - C calls

  /// `CFPreferencesCopyAppValue(CFSTR("k"), kCFPreferencesCurrentApplication)` and its kin;
  /// and calls of C wrappers.
  private mutating func cCall(at i: Int) {
    let first = t.bytes[Int(t.token(i).start)]
    guard !wrapperSelectors.isEmpty || first == 0x43 else { return }
    let name = t.text(i)
    if wrapperSelectors.contains(name + "()") {
      let close = t.match(i + 1)
      let arguments = t.commaSeparated((i + 2)..<close)
      facts.wrapperCalls.append(
        WrapperCall(
          selector: name + "()", receiver: .none, arguments: arguments.map { keyOf($0) },
          values: arguments.map { valueOf($0) }, name: assignedName(before: i),
          condition: condition(at: i), line: t.line(i)))
    }
    guard !gatherOnly, name.hasPrefix("CFPreferences") else { return }
    let close = t.match(i + 1)
    let arguments = t.commaSeparated((i + 2)..<close)
    let method: (KeyAccess, MigrationPlan.ValueType?, Int)?
    switch name {
    case "CFPreferencesCopyAppValue", "CFPreferencesCopyValue": method = (.get, nil, 1)
    case "CFPreferencesGetAppBooleanValue": method = (.get, .bool, 1)
    case "CFPreferencesGetAppIntegerValue": method = (.get, .integer, 1)
    case "CFPreferencesSetAppValue", "CFPreferencesSetValue": method = (.set, nil, 2)
    default: method = nil
    }
    guard let (access, type, domainIndex) = method, arguments.count > domainIndex else { return }
    let domain = arguments[domainIndex]
    let receiver: ReceiverRef =
      t.isText(domain.lowerBound, "kCFPreferencesCurrentApplication")
      ? .standard : .suite(keyOf(domain))
    var use = SourceUse(
      key: keyOf(arguments[0]), receiver: receiver, access: access, method: name, type: type,
      line: t.line(i))
    if access == .set {
      let value = valueOf(arguments[1])
      use.type = value.type
      if case .value = value { use.value = value }
    }
    use.condition = condition(at: i)
    record(use, at: -1)
  }

  /// The elements of an array written in the code (`@[…]`, `[NSArray arrayWithObjects:…,
  /// nil]`), for the keys of `dictionaryWithObjects:forKeys:`.
  private func listElements(_ range: Range<Int>) -> [Range<Int>]? {
    guard let first = range.first else { return nil }
    if t.isPunctuation(first, 0x40), t.isPunctuation(first + 1, 0x5B) {
      return items((first + 2)..<(range.upperBound - 1))
    }
    if t.isPunctuation(first, 0x5B), let m = parseMessage(at: first),
      m.selector == "arrayWithObjects:",
      let a = m.arguments.first
    {
      return items(a).filter { !($0.count == 1 && t.isText($0.lowerBound, "nil")) }
    }
    return nil
  }

  /// The elements of a list (`@[…]`, `@{…}`, a variadic argument): an element in the `#else`
  /// of a condition whose `#if` branch is read too stands in for the one before it, and is
  /// left out.
  private func items(_ range: Range<Int>) -> [Range<Int>] {
    t.commaSeparated(range).filter { !$0.isEmpty && !t.token($0.lowerBound).alternative }
  }

  /// An element's value: one inside a condition depends on the build, not a constant.
  private func itemValue(_ range: Range<Int>) -> ValueExpr {
    let value = valueOf(range)
    guard !range.isEmpty, t.token(range.lowerBound).conditional else { return value }
    return .computed(t.source(range) + " (chosen by a preprocessor condition)", value.type)
  }

  private mutating func gatherWrapperCall(_ m: Message) {
    facts.wrapperCalls.append(
      WrapperCall(
        selector: m.selector, receiver: receiverOfMessage(m),
        arguments: m.arguments.map { keyOf($0) },
        values: m.arguments.map { valueOf($0) }, name: assignedName(before: m.open),
        condition: condition(at: m.open), line: t.line(m.open)))
  }

  // MARK: - Keys and values

  /// `range` without the parentheses around it and the casts before it.
  private func inner(_ range: Range<Int>) -> Range<Int> {
    var r = range
    while r.count >= 2, t.isPunctuation(r.lowerBound, 0x28) {
      let close = t.match(r.lowerBound)
      if close == r.upperBound - 1 {
        r = (r.lowerBound + 1)..<(r.upperBound - 1)
      } else if isCastEnd(close) {
        r = (close + 1)..<r.upperBound
      } else {
        break
      }
    }
    return r
  }

  /// The key a range of tokens names.
  func keyOf(_ range: Range<Int>) -> KeyExpr {
    let r = inner(range)
    guard let first = r.first else { return .runtime("") }
    // Adjacent literals and macro names: `@"a" @"b"`, `PREFIX @"x"`.
    if r.allSatisfy({ t.isString($0) || t.isIdentifier($0) }), r.count <= 8 {
      var parts: [KeyExpr] = []
      for k in r {
        if let s = t.stringValue(k) {
          parts.append(.literal(s))
        } else {
          let name = t.text(k)
          if name == "nil" || name == "NULL" { return .runtime(name) }
          parts.append(.name(name))
        }
      }
      if parts.count == 1 { return parts[0] }
      // Only literals and names next to each other concatenate (in C, only literals do;
      // a macro that expands to one does too).
      if r.contains(where: { t.isString($0) }) { return .concat(parts) }
      return .runtime(t.source(r))
    }
    if r.count == 4, t.isText(first, "CFSTR"), let s = t.stringValue(first + 2) {
      return .literal(s)
    }
    if t.isText(first, "NSStringFromSelector"), t.isText(first + 2, "@selector"),
      t.isIdentifier(first + 4)
    {
      var name = ""
      var k = first + 4
      while k < r.upperBound, !t.isPunctuation(k, 0x29) {
        name += t.text(k)
        k += 1
      }
      return .literal(name)
    }
    if t.isPunctuation(first, 0x5B), t.match(first) == r.upperBound - 1,
      let m = parseMessage(at: first)
    {
      switch m.selector {
      case "stringWithFormat:", "localizedStringWithFormat:", "initWithFormat:":
        if let format = m.arguments.first {
          let pieces = t.commaSeparated(format)
          if let fmt = pieces.first, let text = t.stringValue(fmt.lowerBound), fmt.count == 1 {
            return FormatPieces.split(text, arguments: pieces.dropFirst().map { t.source($0) })
          }
        }
        return .runtime(t.source(r))
      case "stringByAppendingString:", "stringByAppendingPathComponent:":
        let head = keyOf(m.receiver)
        let tail = m.arguments.first.map(keyOf) ?? .runtime("")
        let separator: [KeyExpr] =
          m.selector == "stringByAppendingPathComponent:" ? [.literal("/")] : []
        return .concat([head] + separator + [tail])
      case "stringByAppendingFormat:":
        let head = keyOf(m.receiver)
        if let format = m.arguments.first {
          let pieces = t.commaSeparated(format)
          if let fmt = pieces.first, let text = t.stringValue(fmt.lowerBound), fmt.count == 1 {
            return .concat([
              head, FormatPieces.split(text, arguments: pieces.dropFirst().map { t.source($0) }),
            ])
          }
        }
        return .concat([head, .runtime(t.source(r))])
      case "stringWithString:", "initWithString:", "copy":
        if let arg = m.arguments.first { return keyOf(arg) }
        return keyOf(m.receiver)
      default:
        return .runtime(t.source(r))
      }
    }
    return .runtime(t.source(r))
  }

  /// The value a range of tokens writes.
  func valueOf(_ range: Range<Int>) -> ValueExpr {
    let r = inner(range)
    guard let first = r.first else { return .computed("", nil) }
    var text: String { t.source(r) }
    if t.isPunctuation(first, 0x40), r.count >= 2 {
      let inner = (first + 1)..<r.upperBound
      if t.isPunctuation(first + 1, 0x5B), t.match(first + 1) == r.upperBound - 1 {
        return .array(items((first + 2)..<(r.upperBound - 1)).map(itemValue))
      }
      if t.isPunctuation(first + 1, 0x7B), t.match(first + 1) == r.upperBound - 1 {
        var entries: [ValueEntry] = []
        for part in items((first + 2)..<(r.upperBound - 1)) {
          guard let colon = t.colonAtTop(part) else { continue }
          let value = itemValue((colon + 1)..<part.upperBound)
          entries.append(
            ValueEntry(
              key: keyOf(part.lowerBound..<colon),
              value: t.token(part.lowerBound).conditional
                ? .computed(t.source(part) + " (chosen by a preprocessor condition)", value.type)
                : value))
        }
        return .dictionary(entries)
      }
      // `@5`, `@YES`, `@(expr)`: the boxed value itself.
      return valueOf(inner)
    }
    if r.count == 1 {
      switch t.token(first).kind {
      case .string: return .value(.string(t.stringValue(first) ?? ""))
      case .number: return number(t.text(first)) ?? .computed(text, nil)
      case .character: return .computed(text, .integer)
      case .identifier:
        switch t.text(first) {
        case "YES", "true", "TRUE", "kCFBooleanTrue": return .value(.bool(true))
        case "NO", "false", "FALSE", "kCFBooleanFalse": return .value(.bool(false))
        case "nil", "NULL", "Nil", "NSNull": return .computed(text, nil)
        default:
          let name = t.text(first)
          if let local = scope?.locals[name] {
            if let entries = local.entries { return .dictionary(entries) }
            return .computed(name, local.type.flatMap(DefaultsAPI.type(ofClass:)))
          }
          if scope?.parameters.contains(name) == true { return .name(name) }
          return .name(name)
        }
      default: return .computed(text, nil)
      }
    }
    if t.isPunctuation(first, 0x2D), r.count == 2, t.token(first + 1).kind == .number,
      let v = number("-" + t.text(first + 1))
    {
      return v
    }
    if r.allSatisfy({ t.isString($0) }) {
      return .value(.string(r.compactMap { t.stringValue($0) }.joined()))
    }
    if r.count == 4, t.isText(first, "CFSTR"), let s = t.stringValue(first + 2) {
      return .value(.string(s))
    }
    if t.isPunctuation(first, 0x5B), t.match(first) == r.upperBound - 1,
      let m = parseMessage(at: first)
    {
      return messageValue(m, text: text)
    }
    return .computed(text, nil)
  }

  private func number(_ text: String) -> ValueExpr? {
    var s = text.lowercased()
    while let last = s.last, "ulf".contains(last), !s.hasPrefix("0x") || last != "f" {
      s.removeLast()
    }
    if s.hasPrefix("0x") || s.hasPrefix("-0x") {
      let negative = s.hasPrefix("-")
      guard let v = Int64(s.dropFirst(negative ? 3 : 2), radix: 16) else { return nil }
      return .value(.integer(negative ? -v : v))
    }
    if let v = Int64(s) { return .value(.integer(v)) }
    if let v = Double(s) { return .value(.real(v)) }
    return nil
  }

  /// A message that makes a value: `[NSNumber numberWithBool:YES]`, `[NSArray arrayWithObjects:…,
  /// nil]`, `[NSDictionary dictionaryWithObjectsAndKeys:…, nil]`, `[NSDate date]`.
  private func messageValue(_ m: Message, text: String) -> ValueExpr {
    let receiver = m.receiver.count == 1 ? t.text(m.receiver.lowerBound) : ""
    let args = m.arguments
    switch m.selector {
    case "numberWithBool:", "initWithBool:":
      guard let a = args.first else { break }
      let v = valueOf(a)
      if case .value(let p) = v {
        switch p {
        case .bool: return v
        case .integer(let i): return .value(.bool(i != 0))
        default: break
        }
      }
      return .computed(text, .bool)
    case "numberWithInteger:", "numberWithInt:", "numberWithLong:", "numberWithLongLong:",
      "numberWithUnsignedInteger:", "numberWithUnsignedInt:", "numberWithShort:",
      "initWithInteger:",
      "initWithInt:":
      guard let a = args.first else { break }
      let v = valueOf(a)
      if case .value(.integer) = v { return v }
      if case .value(.bool(let b)) = v { return .value(.integer(b ? 1 : 0)) }
      return .computed(text, .integer)
    case "numberWithFloat:", "numberWithDouble:", "initWithFloat:", "initWithDouble:":
      guard let a = args.first else { break }
      let v = valueOf(a)
      if case .value(.integer(let i)) = v { return .value(.real(Double(i))) }
      if case .value(.real) = v { return v }
      return .computed(text, .double)
    case "arrayWithObjects:":
      guard let a = args.first else { break }
      let elements = items(a).filter { !($0.count == 1 && t.isText($0.lowerBound, "nil")) }
      return .array(elements.map(itemValue))
    case "arrayWithObject:":
      return .array(args.map(valueOf))
    case "array", "new":
      if receiver.hasSuffix("Array") { return .value(.array([])) }
      if receiver.hasSuffix("Dictionary") { return .dictionary([]) }
      if receiver == "NSDate" { return .computed(text, .date) }
    case "dictionary":
      return .dictionary([])
    case "dictionaryWithObjectsAndKeys:", "initWithObjectsAndKeys:":
      guard let a = args.first else { break }
      let elements = items(a).filter { !($0.count == 1 && t.isText($0.lowerBound, "nil")) }
      var entries: [ValueEntry] = []
      var n = 0
      while n + 1 < elements.count {
        entries.append(ValueEntry(key: keyOf(elements[n + 1]), value: itemValue(elements[n])))
        n += 2
      }
      return .dictionary(entries)
    case "dictionaryWithObject:forKey:":
      guard args.count == 2 else { break }
      return .dictionary([ValueEntry(key: keyOf(args[1]), value: valueOf(args[0]))])
    case "dictionaryWithObjects:forKeys:", "initWithObjects:forKeys:":
      guard args.count == 2, case .array(let values) = valueOf(args[0]),
        let keys = listElements(args[1])
      else { break }
      return .dictionary(zip(keys, values).map { ValueEntry(key: keyOf($0.0), value: $0.1) })
    case "dictionaryWithDictionary:":
      if let a = args.first { return valueOf(a) }
    case "date", "distantPast", "distantFuture", "dateWithTimeIntervalSinceNow:",
      "dateWithTimeIntervalSince1970:", "dateWithTimeIntervalSinceReferenceDate:":
      return .computed(text, .date)
    case "stringWithFormat:", "stringWithString:", "localizedStringForKey:value:table:":
      return .computed(text, .string)
    case "archivedDataWithRootObject:", "archivedDataWithRootObject:requiringSecureCoding:error:":
      return .computed(text, .data)
    case "dataWithJSONObject:options:error:":
      return .computed(text, .json)
    case "URLWithString:", "fileURLWithPath:":
      return .computed(text, .url)
    default: break
    }
    return .computed(text, nil)
  }
}
