import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Keys and values: a key's expression, a value's literal or message.
extension ObjCReader {
  // MARK: - Keys and values

  /// `range` without the parentheses around it and the casts before it.
  func inner(_ range: Range<Int>) -> Range<Int> {
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
  /// The arms of `c ? A : B` at the top level of `r` (A empty for `c ?: B`), or nil.
  func ternaryArms(_ r: Range<Int>) -> (Range<Int>, Range<Int>)? {
    var k = r.lowerBound
    var question: Int?
    while k < r.upperBound {
      if t.isPunctuation(k, 0x28) || t.isPunctuation(k, 0x5B) || t.isPunctuation(k, 0x7B) {
        k = t.match(k) + 1
        continue
      }
      if question == nil, t.isPunctuation(k, 0x3F) {
        question = k
      } else if let q = question, t.isPunctuation(k, 0x3A) {
        guard q > r.lowerBound, k + 1 < r.upperBound else { return nil }
        return ((q + 1)..<k, (k + 1)..<r.upperBound)
      }
      k += 1
    }
    return nil
  }

  func keyOf(_ range: Range<Int>) -> KeyExpr {
    let r = inner(range)
    guard let first = r.first else { return .runtime("") }
    // `c ? @"A" : @"B"`: either (`k ?: @"B"`: k, else B); a chain `a ? @"A" : b ? @"B" : @"C"`
    // walked in a loop, up to 16 arms. An empty text is a placeholder, never a key; `name ?:
    // @""` is what the run gives; a ternary within an arm's test or first arm is not followed.
    if var (yes, no) = ternaryArms(r) {
      var arms: [KeyExpr] = []
      while true {
        let arm = yes.isEmpty ? r.lowerBound..<(yes.lowerBound - 1) : yes
        guard arms.count < 16, ternaryArms(arm) == nil else { return .runtime(t.source(r)) }
        let key = keyOf(arm)
        if yes.isEmpty, key.isRuntime { return .runtime(t.source(r)) }
        arms.append(key)
        guard let (nextYes, nextNo) = ternaryArms(no) else { break }
        (yes, no) = (nextYes, nextNo)
      }
      arms.append(keyOf(no))
      arms = arms.filter { $0 != .literal("") }
      return arms.count == 1 ? arms[0] : .oneOf(arms)
    }
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
    // `self.key`, `self->_key`: a member.
    if r.count == 3, t.isText(first, "self"),
      t.isPunctuation(first + 1, 0x2E) || t.isText(first + 1, "->"),
      t.isIdentifier(first + 2)
    {
      return .name("self." + Self.bare(t.text(first + 2)))
    }
    // `@[a, b]`: any one of its elements (the array a loop takes its keys from).
    if t.isPunctuation(first, 0x40), t.isPunctuation(first + 1, 0x5B),
      t.match(first + 1) == r.upperBound - 1
    {
      return .oneOf(items((first + 2)..<(r.upperBound - 1)).map(keyOf))
    }
    // `@{key: value, …}`: any one of its keys (what a loop over a dictionary is given).
    if t.isPunctuation(first, 0x40), t.isPunctuation(first + 1, 0x7B),
      t.match(first + 1) == r.upperBound - 1
    {
      return .oneOf(
        items((first + 2)..<(r.upperBound - 1)).compactMap { part in
          t.colonAtTop(part).map { keyOf(part.lowerBound..<$0) }
        })
    }
    // `keys[i]`: an element of a collection.
    if t.isIdentifier(first), t.isPunctuation(first + 1, 0x5B),
      t.match(first + 1) == r.upperBound - 1
    {
      return .call("[]", [keyOf(first..<(first + 1))], source: t.source(r))
    }
    // `ShortcutKeys()`, `KeyFor(x)`: what a C function of the tree returns.
    if t.isIdentifier(first), t.isPunctuation(first + 1, 0x28),
      t.match(first + 1) == r.upperBound - 1,
      !isKeyword(first), !t.isText(first, "NSStringFromSelector")
    {
      // `Str(@"%@%@", a, b)`: a format, written by a function of the app's own.
      let parts = t.commaSeparated((first + 2)..<(r.upperBound - 1))
      if let format = parts.first, format.count == 1, let text = t.stringValue(format.lowerBound),
        FormatPieces.specifiers(text) == parts.count - 1, parts.count > 1
      {
        return FormatPieces.split(text, arguments: parts.dropFirst().map { t.source(inner($0)) })
      }
      return .call(t.text(first) + "()", parts.map(keyOf), source: t.source(r))
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
      case "stringWithString:", "initWithString:", "copy", "mutableCopy", "retain", "autorelease",
        "stringByExpandingTildeInPath", "stringByStandardizingPath":
        if let arg = m.arguments.first { return keyOf(arg) }
        return keyOf(m.receiver)
      case "pathForResource:ofType:", "URLForResource:withExtension:":
        // A bundle resource: its file name (`Defaults.plist`).
        guard m.arguments.count == 2 else { return .runtime(t.source(r)) }
        return .concat([keyOf(m.arguments[0]), .literal("."), keyOf(m.arguments[1])])
      case "objectAtIndex:", "firstObject", "lastObject", "objectAtIndexedSubscript:",
        "anyObject":
        // An element of a collection.
        return .call("[]", [keyOf(m.receiver)], source: t.source(r))
      case "arrayWithObjects:", "setWithObjects:", "arrayWithArray:":
        guard let a = m.arguments.first else { return .runtime(t.source(r)) }
        let elements = items(a).filter { !($0.count == 1 && t.isText($0.lowerBound, "nil")) }
        if m.selector == "arrayWithArray:" { return keyOf(a) }
        return .oneOf(elements.map(keyOf))
      default:
        // A method of the tree (`[self keyForName:x]`, `[Prefs shortcutNames]`): what it
        // returns.
        if isOwnReceiver(m.receiver) {
          // `[OEDBSaveState entityName]`: a class's own method, by its class first.
          var called = m.selector
          if m.receiver.count == 1, let c = m.receiver.first, t.isIdentifier(c),
            t.text(c).first?.isUppercase == true
          {
            called = t.text(c) + "." + m.selector
          }
          return .call(called, m.arguments.map(keyOf), source: t.source(r))
        }
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
            if let entries = local.entries {
              return .dictionary(
                entries
                  + local.added.map { ValueEntry(key: localKey($0.key), value: valueOf($0.value)) })
            }
            // `NSNumber *yes = [NSNumber numberWithBool:YES];`, never given another value:
            // the constant it was declared with (a number or a string: a collection may be
            // filled after, `[favorites addObject:…]`).
            if let initial = local.initial, local.type?.hasPrefix("NSMutable") != true,
              !initial.contains(where: { t.isIdentifier($0) && t.text($0) == name })
            {
              let value = valueOf(initial)
              // (A collection only where neither the variable nor what made it can change:
              // `NSArray *order = [NSArray arrayWithObjects:…]`.)
              let fixed =
                (local.type == "NSArray" || local.type == "NSDictionary")
                && !initial.contains(where: {
                  t.isIdentifier($0)
                    && (t.text($0).hasPrefix("NSMutable") || t.text($0).hasPrefix("mutableCopy"))
                })
              switch value {
              case .value(.array), .value(.dictionary), .array, .dictionary:
                if fixed { return value }
              case .value, .converted(.value, _, _): return value
              // `NSDictionary *defaults = self.factoryDefaults;`: what the method returns.
              case .call where local.type == "NSDictionary" || local.type == "id": return value
              default: break
              }
            }
            // (A `CFNumberRef` says no more than `id`: what made it may.)
            return .computed(
              name,
              local.type.flatMap(DefaultsAPI.type(ofClass:))
                ?? local.initial.flatMap { valueOf($0).type })
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
    if r.count >= 3, let folded = constantInteger(r) { return .value(.integer(folded)) }
    if r.count == 4, t.isText(first, "CFSTR"), let s = t.stringValue(first + 2) {
      return .value(.string(s))
    }
    if t.isPunctuation(first, 0x5B), t.match(first) == r.upperBound - 1,
      let m = parseMessage(at: first)
    {
      return messageValue(m, text: text)
    }
    // `CFNumberCreate(NULL, kCFNumberIntType, &value)`: a number of the kind it names.
    if t.isText(first, "CFNumberCreate"), t.isPunctuation(first + 1, 0x28),
      t.match(first + 1) == r.upperBound - 1
    {
      let arguments = t.commaSeparated((first + 2)..<(r.upperBound - 1))
      if arguments.count == 3, arguments[1].count == 1 {
        return .computed(text, Self.cfNumberType(t.text(arguments[1].lowerBound)))
      }
    }
    // `NSStringFromPoint(origin)`, `NSStringFromRect(frame)`: a string.
    if t.hasPrefix(first, "NSStringFrom"),
      t.isPunctuation(first + 1, 0x28),
      t.match(first + 1) == r.upperBound - 1
    {
      return .computed(text, .string)
    }
    // `self.class.defaultWidth`, `Self.defaultWidth`: a class property of the code's own, what
    // its getter returns.
    if r.count >= 3, r.count % 2 == 1, t.isIdentifier(r.upperBound - 1),
      stride(from: first + 1, to: r.upperBound, by: 2).allSatisfy({ t.isPunctuation($0, 0x2E) }),
      stride(from: first, to: r.upperBound, by: 2).allSatisfy({ t.isIdentifier($0) }),
      t.isText(first, "self") && (r.count == 3 || t.isText(first + 2, "class"))
        || (r.count == 3 && isOwnReceiver(first..<(first + 1)))
    {
      return .call(t.text(r.upperBound - 1), [], source: text)
    }
    return .computed(text, nil)
  }

  /// Whether a message's receiver is the code's own (`self`, `[self class]`, a class of the
  /// tree, `super`): a method whose returns the model can follow.
  func isOwnReceiver(_ range: Range<Int>) -> Bool {
    guard let first = range.first else { return false }
    if range.count == 1 {
      let name = t.text(first)
      return name == "self" || name == "super"
        || (name.first?.isUppercase == true && !Self.isFrameworkType(name)
          && scope?.locals[name] == nil)
    }
    // `[self class]`, `[[self class] x]`.
    if t.isPunctuation(first, 0x5B), let m = parseMessage(at: first), m.selector == "class" {
      return isOwnReceiver(m.receiver)
    }
    return false
  }

  /// The kind of number a `CFNumberType` constant makes; nil for one it does not name.
  static func cfNumberType(_ name: String) -> MigrationPlan.ValueType? {
    switch name {
    case "kCFNumberSInt8Type", "kCFNumberSInt16Type", "kCFNumberSInt32Type", "kCFNumberSInt64Type",
      "kCFNumberCharType", "kCFNumberShortType", "kCFNumberIntType", "kCFNumberLongType",
      "kCFNumberLongLongType", "kCFNumberCFIndexType", "kCFNumberNSIntegerType":
      .integer
    case "kCFNumberFloat32Type", "kCFNumberFloat64Type", "kCFNumberFloatType",
      "kCFNumberDoubleType", "kCFNumberCGFloatType":
      .double
    default: nil
    }
  }

  func number(_ text: String) -> ValueExpr? {
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
  func messageValue(_ m: Message, text: String) -> ValueExpr {
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
      if case .name = v { return .converted(v, .bool, source: text) }
      return .computed(text, .bool)
    case "numberWithInteger:", "numberWithInt:", "numberWithLong:", "numberWithLongLong:",
      "numberWithUnsignedInteger:", "numberWithUnsignedInt:", "numberWithShort:",
      "initWithInteger:",
      "initWithInt:":
      guard let a = args.first else { break }
      let v = valueOf(a)
      if case .value(.integer) = v { return v }
      if case .value(.bool(let b)) = v { return .value(.integer(b ? 1 : 0)) }
      if case .name = v { return .converted(v, .integer, source: text) }
      return .computed(text, .integer)
    case "numberWithFloat:", "numberWithDouble:", "initWithFloat:", "initWithDouble:":
      guard let a = args.first else { break }
      let v = valueOf(a)
      if case .value(.integer(let i)) = v { return .value(.real(Double(i))) }
      if case .value(.real) = v { return v }
      if case .name = v { return .converted(v, .double, source: text) }
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
    case "dictionaryWithCapacity:" where receiver.hasSuffix("Dictionary"):
      return .dictionary([])
    case "init", "initWithCapacity:":
      // `[[NSMutableDictionary alloc] init]`: an empty one, filled in steps.
      if let inner = m.receiver.first, t.isPunctuation(inner, 0x5B),
        let alloc = parseMessage(at: inner), alloc.selector == "alloc", alloc.receiver.count == 1
      {
        let made = t.text(alloc.receiver.lowerBound)
        if made.hasSuffix("Dictionary") { return .dictionary([]) }
        if made.hasSuffix("Array") { return .value(.array([])) }
      }
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
    case "now" where receiver == "NSDate":
      return .computed(text, .date)
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
    case "copy", "mutableCopy", "autorelease",
      "retain"
    where m.receiver.count == 1 && t.isIdentifier(m.receiver.lowerBound)
      && scope?.locals[t.text(m.receiver.lowerBound)] != nil:
      // `return [defaultValues copy];`: the local dictionary filled in steps, as it is.
      return valueOf(m.receiver)
    case "boolValue", "integerValue", "intValue", "doubleValue", "floatValue", "longValue",
      "longLongValue", "unsignedIntegerValue", "copy":
      // A member or parameter converted on the way (`[_defaultValue boolValue]`): the value it
      // holds, as a name the model follows.
      if m.receiver.count == 1, t.isIdentifier(m.receiver.lowerBound),
        scope?.locals[t.text(m.receiver.lowerBound)] == nil
      {
        return .name(Self.bare(t.text(m.receiver.lowerBound)))
      }
    default:
      if isOwnReceiver(m.receiver), !m.selector.hasPrefix("init"), m.selector != "alloc",
        m.selector != "new"
      {
        // (Its arguments are not read: a value a function returns takes none the model follows.)
        return .call(m.selector, [], source: text)
      }
    }
    return .computed(text, nil)
  }
}
