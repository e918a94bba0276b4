import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What the Objective-C and Swift readers share: the function being read (its parameters
/// make a wrapper), its local variables, the conditions around a token.
struct FunctionScope {
  /// `boolForKey:defaultValue:` for a method, `prefBool()` for a C function, `value(_:)` for
  /// Swift; nil for a block or a closure (parameters of their own, no callers to follow).
  var selector: String?
  var parameters: [String]
  var parameterTypes: [String?] = []
  /// Swift: the parameters' argument labels (`_` for none).
  var labels: [String] = []
  /// Swift: the constant a parameter has when a call leaves it out (`defaultValue: String =
  /// "Visible"`).
  var parameterValues: [String: ValueExpr] = [:]
  /// Swift: the parameters whose default is `#function` (a call that leaves one out gives the
  /// name of the property or function it is written in).
  var callerNameParameters: Set<String> = []
  /// The token after the body's last.
  var end: Int
  /// The property a Swift accessor or an Objective-C getter or setter method stands for.
  var property: String?
  /// Swift: the type the function returns (`-> LockDelay`).
  var returnType: String?
  /// Objective-C: the token of the type a method returns (`- (NSString *)x`), its text made
  /// only when asked.
  var returnTypeToken: Int?
  var locals: [String: LocalVariable] = [:]
  /// Whether a variable holds a resource's name or a loaded file's (most functions have none:
  /// their variables are not looked through for one).
  var holdsResources = false
  /// Whether a return of the function was noted.
  var returns = false
  /// Uses whose key names a parameter: the wrapper's templates.
  var templates: [SourceUse] = []
}

extension FunctionScope {
  /// Whether a use's key names a parameter of this method or function: then it is the
  /// wrapper's template, made a use at each call.
  func isTemplate(_ use: SourceUse) -> Bool {
    selector != nil && !parameters.isEmpty
      && use.key.names.contains(where: { parameters.contains($0) })
  }

  /// The resource a local variable named in `range` was made from (`NSString *path =
  /// [[NSBundle mainBundle] pathForResource:…]`).
  func resource(in range: Range<Int>, _ t: SourceTokens) -> String? {
    guard holdsResources else { return nil }
    for k in range where t.isIdentifier(k) {
      if let resource = locals[t.text(k)]?.resource { return resource }
    }
    return nil
  }

  /// The parameter a local variable named in `range` was made from as a resource's name.
  func resourceParameter(in range: Range<Int>, _ t: SourceTokens) -> String? {
    guard holdsResources else { return nil }
    for k in range where t.isIdentifier(k) {
      if let name = locals[t.text(k)]?.resourceParameter { return name }
    }
    return nil
  }
}

extension SourceUse {
  /// The uses a registration of `entries` makes: each key with its value as a registered
  /// default (and as a hint of its type).
  func registering(_ entries: [ValueEntry]) -> [SourceUse] {
    entries.map { entry in
      var use = self
      use.access = .register
      use.key = entry.key
      use.value = entry.value
      use.type = entry.value.type
      use.weakType = true
      use.defaultSource = .registration
      return use
    }
  }

  /// The type of a value a set stores from `local`: JSON, when the variable holds JSON data;
  /// else the class it was declared as (nil when that says nothing).
  mutating func takeType(of local: LocalVariable) {
    if local.json {
      takeJSONType()
    } else if let type = local.type {
      self.type = DefaultsAPI.type(ofClass: type)
    }
  }

  /// The fallback a getter's use held in a local makes: `value` when the key is absent, the
  /// method named as the code tests the local (`test`: ` == nil`, ` < 1.0`).
  func fallback(
    _ test: String, _ value: ValueExpr, zeroTest: Bool, line: Int, condition: String?
  ) -> SourceUse {
    var use = self
    use.access = .presence
    use.type = nil
    use.typeReason = nil
    use.method = method + test
    use.value = value
    use.defaultSource = .fallback
    use.zeroTest = zeroTest
    use.line = line
    use.condition = condition
    return use
  }

  /// A setter's ``absentValue`` as the fallback use it makes (nil when it has none).
  func absentWritten() -> SourceUse? {
    guard access == .set, let value = absentValue else { return nil }
    var absent = self
    absent.access = .presence
    absent.value = value
    absent.defaultSource = .fallback
    absent.method = method + " (the value it writes when absent)"
    absent.absentValue = nil
    if absent.type == nil { absent.type = value.type }
    absent.weakType = true
    // (A literal's own type is only a hint: the stored type is the setter's, JSON data a
    // wrapper encodes included. An enum's case keeps the stored type that gives its raw value.)
    if case .name = value {} else { absent.storedType = nil }
    return absent
  }

  /// The value stored is JSON data (made by `JSONEncoder`, `dataWithJSONObject:`).
  mutating func takeJSONType() {
    type = .json
    typeReason = "JSON data"
  }
}

/// What a reader reads: one file's tokens, and which calls it gathers.
struct SourceInput {
  let tokens: SourceTokens
  let path: String
  /// Phase 2: only the calls of these wrappers are gathered.
  var wrapperSelectors: Set<String> = []
  var gatherOnly = false
  /// What these functions return is worked out (the first read only notes which functions
  /// return something that may be a key: most of their returns are never asked for).
  var returnsWanted: Set<String> = []
  /// Phase 3: the accesses of these properties of an extension of UserDefaults
  /// (`UserDefaults.shared.isLogging`) are noted, with the receiver each names.
  var propertiesWanted: Set<String> = []
}

/// What the Objective-C and Swift readers do alike with what they read.
protocol SourceReader {
  var input: SourceInput { get }
  /// The file's tokens (the input's, held as a stored property: read through a computed one
  /// they would be copied, their arrays retained, at every look).
  var t: SourceTokens { get }
  var facts: FileFacts { get set }
  /// The function (or method) being read, and where it ends.
  var scope: FunctionScope? { get set }
  /// Enclosing `if` blocks: where each ends, and its condition's tokens.
  var ifs: [(end: Int, condition: Range<Int>)] { get set }
  /// Leaves ``scope``: what it gathered becomes facts.
  mutating func endScope()
  /// Reads what starts at token `i`; returns the token the walk goes on from (past `i`).
  mutating func step(at i: Int) -> Int
  /// At token `i` of the walk: leaves the blocks that ended before it (by default, the
  /// function and the `if` blocks: ``leaveFunctionAndIfs(endedBy:)``).
  mutating func leaveBlocks(endedBy i: Int)
  /// A use as this file makes it (a wrapper's template, inside a wrapper; its key's locals
  /// resolved); `i`: the token it is at, -1 for none.
  mutating func record(_ use: SourceUse, at i: Int)
  /// The resource file a dictionary in `range` is loaded from (`pathForResource:ofType:`,
  /// `path(forResource:ofType:)`), or nil.
  func resourceName(in range: Range<Int>) -> String?
  /// The resource a dictionary in `range` is loaded from when a parameter of the function
  /// names it (`pathForResource:name ofType:@"plist"`): the parameter, as a key.
  func resourceParameter(in range: Range<Int>) -> KeyExpr?
  /// The file a dictionary in `range` is loaded from (`dictionaryWithContentsOfFile:path`,
  /// `NSDictionary(contentsOfFile: path)`, a variable made so), its name as a key to follow.
  func loadedFile(_ range: Range<Int>) -> KeyExpr?
  /// The type whose member `receiver` may be (`userDefaults` in a method of `Store`: Store's,
  /// or a class Store inherits it from); nil where a name is not looked up by its type.
  func receiverOwner(of receiver: ReceiverRef) -> String?
}

extension SourceReader {

  /// The use (or wrapper's template) whose answer `local` holds.
  func held(_ local: LocalVariable) -> SourceUse? {
    if let use = local.use, use >= 0, use < facts.uses.count { return facts.uses[use] }
    if let template = local.template, let s = scope, template < s.templates.count {
      return s.templates[template]
    }
    return nil
  }

  /// The test after a variable at `k - 1` that tells the key absent: `== nil`, `!= nil`, and
  /// for a number getter's answer (0 when absent) `== 0`, `!= 0`, `<= 0`, `> 0`. The tokens it
  /// takes, and whether it is true when the key is absent; nil for none.
  func absenceTest(at k: Int, of original: SourceUse) -> (
    length: Int, whenAbsent: Bool, zero: Bool
  )? {
    if t.isText(k + 1, "nil") || t.isText(k + 1, "NULL") {
      if t.isText(k, "==") { return (2, true, false) }
      if t.isText(k, "!=") { return (2, false, false) }
      return nil
    }
    let number =
      original.type == .integer || original.type == .double
      || [
        "integerForKey:", "doubleForKey:", "floatForKey:", "integer(forKey:)", "double(forKey:)",
        "float(forKey:)",
      ].contains(original.method)
    // The getter's 0 when absent: `== 0`, `<= 0`, and a bound above it (`if (width < 1.0)
    // width = 200;`: no stored width is below 1).
    guard number, t.token(k + 1).kind == .number,
      let bound = Self.decimal(t.text(k + 1)), bound >= 0
    else { return nil }
    if bound == 0, t.isText(k, "==") || t.isText(k, "<=") { return (2, true, true) }
    if bound == 0, t.isText(k, "!=") || t.isPunctuation(k, 0x3E) { return (2, false, true) }
    if bound > 0, t.isPunctuation(k, 0x3C) || t.isText(k, "<=") { return (2, true, true) }
    if bound > 0, t.isText(k, ">=") { return (2, false, true) }
    return nil
  }

  /// A decimal number's value, its C suffix (`1.0f`, `5UL`) and Swift's `_` left out; nil for
  /// a hexadecimal or octal one.
  static func decimal(_ text: String) -> Double? {
    guard !text.hasPrefix("0x"), !text.hasPrefix("0X") else { return nil }
    var s = Substring(text.replacing("_", with: ""))
    while let last = s.last, "fFlLuU".contains(last) { s = s.dropLast() }
    return Double(s)
  }

  /// Gives the use (or template) `local` holds the type the code shows, where it has none.
  mutating func refineHeld(_ local: LocalVariable, _ type: MigrationPlan.ValueType, reason: String)
  {
    // (`array(forKey:)`'s answer cast `as! [String]`: an array of strings.)
    // (`NSString *v = [d objectForKey:K]` then `[v boolValue]`: a flag kept as text.)
    let narrows = { (held: SourceUse) in
      held.type == nil || held.type == .array && type == .stringArray
        || DefaultsAPI.converts(held, to: type)
    }
    if let use = local.use, use >= 0, use < facts.uses.count {
      guard narrows(facts.uses[use]) else { return }
      facts.uses[use].type = type
      facts.uses[use].typeReason = reason
    } else if let template = local.template, let count = scope?.templates.count, template < count {
      guard let held = scope?.templates[template], narrows(held) else { return }
      scope?.templates[template].type = type
      scope?.templates[template].typeReason = reason
    }
  }
  var wrapperSelectors: Set<String> { input.wrapperSelectors }
  var gatherOnly: Bool { input.gatherOnly }

  /// Reads the file: token after token (``step(at:)``), leaving each block where it ends.
  mutating func read() -> FileFacts {
    var i = 0
    while i < t.count {
      leaveBlocks(endedBy: i)
      i = step(at: i)
    }
    endScope()
    return facts
  }

  mutating func leaveBlocks(endedBy i: Int) { leaveFunctionAndIfs(endedBy: i) }

  /// At token `i` of the walk: leaves the function and the `if` blocks that ended before it.
  mutating func leaveFunctionAndIfs(endedBy i: Int) {
    if let scope, i >= scope.end { endScope() }
    while let last = ifs.last, i >= last.end { ifs.removeLast() }
  }

  /// A registration of defaults, `base` the use it makes (its method, receiver and line):
  /// each of `entries`, the dictionary read here, as a registered default; else the resource
  /// file in `arg` it is loaded from, read with the resources; else, when it is a dictionary
  /// `madeElsewhere` by that name, that one, looked up across the tree; else a warning that
  /// its defaults are not known.
  mutating func recordRegistration(
    _ base: SourceUse, entries: [ValueEntry]?, in arg: Range<Int>,
    madeElsewhere value: ValueExpr? = nil
  ) {
    if let entries {
      for use in base.registering(entries) { record(use, at: -1) }
      return
    }
    if let resource = resourceName(in: arg) {
      facts.registeredFiles.append((resource, base))
      return
    }
    if let file = resourceParameter(in: arg) ?? loadedFile(arg) {
      // A file its caller names (`registerDefaultsFromFile:name`): made a registration at
      // each call.
      var use = base
      use.key = file
      use.access = .registerFile
      record(use, at: -1)
      return
    }
    if let value {
      var use = base
      use.key = .runtime("registered dictionary \(t.source(arg))")
      use.value = value
      use.defaultSource = .registration
      facts.uses.append(use)
      return
    }
    facts.warnings.append(
      ScanWarning(
        path: facts.path, line: base.line,
        message:
          "\(base.method) of a dictionary the scan cannot read (\(t.source(arg))): its defaults are not known"
      ))
  }

  /// A fallback branch (`if ([d objectForKey:K] == nil) x = V;`, `guard d.object(forKey: K)
  /// != nil else { return V }`): `value`, what the branch `absent` (taken when the key is not
  /// there) gives `name`, as the key's default; `getter` the presence test's.
  mutating func recordFallback(
    _ value: ValueExpr, name: String?, key: KeyExpr, receiver: ReceiverRef, getter: String,
    absent: Range<Int>, condition: String?, zeroTest: Bool = false, testedBy: String? = nil
  ) {
    var use = SourceUse(
      key: key, receiver: receiver, access: .presence, method: getter + " == nil",
      line: t.line(absent.lowerBound))
    use.value = value
    use.defaultSource = .fallback
    use.name = name
    use.receiverOwner = receiverOwner(of: receiver)
    use.condition = condition
    use.zeroTest = zeroTest
    use.testedBy = testedBy
    record(use, at: -1)
  }
}

struct LocalVariable {
  var type: String?
  var receiver: ReceiverRef?
  var key: KeyExpr?
  /// The use whose value the variable holds (`NSData *d = [defaults dataForKey:K]`).
  var use: Int?
  /// In a wrapper: the template whose value the variable holds (`id v = [d objectForKey:key]`
  /// with `key` a parameter), by its index in the function's templates.
  var template: Int?
  /// A dictionary built here (for `registerDefaults:`).
  var entries: [ValueEntry]?
  /// Entries added in steps (`d[K] = V;`, `[d setObject:V forKey:K]`), as the tokens of each
  /// key and value: read only if the dictionary is registered or returned (most are not).
  var added: [(key: Range<Int>, value: Range<Int>)] = []
  /// What the variable was made from: a resource name (`pathForResource:ofType:`), a JSON
  /// encoding.
  var resource: String?
  /// A resource named by a parameter of the function (`pathForResource:name …`).
  var resourceParameter: String?
  /// The file a dictionary was loaded from, as a key (see ``SourceReader/loadedFile(_:)``).
  var file: KeyExpr?
  /// A presence test it holds (`let exists = d.object(forKey: K) != nil`): the test's use, and
  /// whether the variable is true when the key is there.
  var presence: (use: SourceUse, whenPresent: Bool)?
  var json = false
  /// A copy of a domain kept as a dictionary (`[[d persistentDomainForName:N] mutableCopy]`):
  /// what the function sets in it changes the domain only if it writes the copy back.
  var domainCopy = false
  /// The parameter of the function the variable was made from (`let tuple =
  /// configuration.map { … }`, `Dictionary(uniqueKeysWithValues: tuple)`): a dictionary its
  /// caller gives, when it is registered.
  var parameter: String?
  /// The tokens of the value a declaration gave the variable (`int v = V;`), until it is
  /// given another (read only when a fallback needs it).
  var initial: Range<Int>?
  /// A closure parameter given a published property's values (`$p.sink { v in … }`): the
  /// property, its declared type and its initial value.
  var published: (property: String, type: String?, initial: ValueExpr?)?
}

/// Splits a printf-style format (`@"Flag%@Image"`) into its literal pieces and the run-time
/// pieces each specifier stands for.
enum FormatPieces {
  /// How many arguments a format takes (`%%` takes none).
  static func specifiers(_ format: String) -> Int {
    var count = 0
    var percent = false
    for c in format.unicodeScalars {
      if percent {
        if c == "%" {
          percent = false
        } else if c.properties.isAlphabetic || c == "@" {
          count += 1
          percent = false
        }
        continue
      }
      if c == "%" { percent = true }
    }
    return count
  }

  /// Whether an argument's source is a plain name (a variable, a parameter, a constant).
  static func isName(_ source: String) -> Bool {
    guard let first = source.unicodeScalars.first, first == "_" || first.properties.isAlphabetic
    else { return false }
    return source.unicodeScalars.allSatisfy {
      $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)
    }
  }

  static func split(_ format: String, arguments: [String]) -> KeyExpr {
    var parts: [KeyExpr] = []
    var text = ""
    var scalars = Array(format.unicodeScalars)
    scalars.append(" ")
    var i = 0
    var argument = 0
    while i < scalars.count - 1 {
      let c = scalars[i]
      if c == "%" {
        if scalars[i + 1] == "%" {
          text += "%"
          i += 2
          continue
        }
        // Flags, width, precision, length, then the conversion.
        var k = i + 1
        while k < scalars.count - 1, "0123456789.-+ #*$lhqLzjt'".unicodeScalars.contains(scalars[k])
        {
          k += 1
        }
        if !text.isEmpty { parts.append(.literal(text)) }
        text = ""
        // An argument that is a name (`%@` of `name`): followed, a wrapper's parameter too.
        let source = argument < arguments.count ? arguments[argument] : "%"
        parts.append(Self.isName(source) ? .name(source) : .runtime(source))
        argument += 1
        i = k + 1
        continue
      }
      text.unicodeScalars.append(c)
      i += 1
    }
    if !text.isEmpty { parts.append(.literal(text)) }
    return parts.count == 1 ? parts[0] : .concat(parts)
  }
}

/// Camel-case and snake-case words of a property name, for a typed key's name
/// (`isSoundEnabled` → `sound.enabled`, `rankingSize` → `ranking.size`).
enum TypedKeyName {
  static func dotted(_ property: String, bool: Bool) -> String? {
    var name = property
    while name.hasPrefix("_") { name.removeFirst() }
    var words: [String] = []
    var current = ""
    for c in name {
      if c == "_" {
        if !current.isEmpty { words.append(current) }
        current = ""
        continue
      }
      if c.isUppercase, let last = current.last, last.isLowercase || last.isNumber {
        words.append(current)
        current = ""
      }
      current.append(c)
    }
    if !current.isEmpty { words.append(current) }
    guard let first = words.first, first.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
    else {
      return nil
    }
    if bool, words.count > 1, first == "is" { words.removeFirst() }
    // An all-capitals name is a constant's, not a property's.
    if name == name.uppercased() { return nil }
    let lowered = words.map {
      $0 == $0.uppercased() && $0.count > 1 ? $0 : $0.prefix(1).lowercased() + $0.dropFirst()
    }
    guard let head = lowered.first else { return nil }
    if lowered.count == 1 { return head }
    let rest = lowered.dropFirst().enumerated().map { n, w in
      n == 0 ? w : w.prefix(1).uppercased() + w.dropFirst()
    }.joined()
    return head + "." + rest
  }
}
