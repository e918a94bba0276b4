import PreferencesMigration

/// swift-sharing's user defaults keys (Point-Free's `Sharing`, also in the Composable
/// Architecture): `@Shared(.appStorage("k")) var x = false` is read as `@AppStorage`; a key
/// declared once for the app,
/// ```swift
/// extension SharedKey where Self == AppStorageKey<Bool>.Default {
///   static var soundOn: Self { Self[.appStorage("sound-on"), default: true] }
/// }
/// ```
/// holds the extension's `T`, with the `default:` of its subscript.
extension SwiftReader {
  /// `store: .group` of `@AppStorage`'s or `appStorage`'s arguments: the defaults named, the
  /// standard domain when none is.
  func storeReceiver(_ parts: ArraySlice<Range<Int>>) -> ReceiverRef {
    var receiver = ReceiverRef.standard
    for part in parts where t.isText(part.lowerBound, "store") {
      receiver = givenStore((part.lowerBound + 2)..<part.upperBound)
    }
    return receiver
  }

  /// The user defaults an argument `store` names (`.group`, `UserDefaults(suiteName: "g")`).
  func givenStore(_ store: Range<Int>) -> ReceiverRef {
    let receiver = receiverOf(store)
    switch receiver {
    case .standard, .suite: return receiver
    // `store: defaults`, a parameter of user defaults: what its callers give.
    case .name(let n) where n.hasPrefix("param:"): return receiver
    // `.group`, `Self.group`, `shared.defaults`: looked up in the tree.
    default: return .name(t.source(store).replacing(" ", with: ""))
    }
  }

  /// `appStorage(K, store: s)` or `Self[.appStorage(K), default: D]` at `i`, in a member of
  /// `extension SharedKey where Self == AppStorageKey<T>`: the key K holds T, D when absent.
  mutating func sharedKey(at i: Int, holding typeText: String) {
    guard t.isPunctuation(i + 1, 0x28) else { return }
    let parts = t.commaSeparated((i + 2)..<t.match(i + 1))
    guard let keyRange = parts.first else { return }
    let stored = typeText.hasSuffix("?") ? String(typeText.dropLast()) : typeText
    var use = SourceUse(
      key: keyOf(keyRange), receiver: storeReceiver(parts.dropFirst()), access: .get,
      method: "appStorage", type: DefaultsAPI.type(ofClass: stored), line: t.line(i))
    use.storedType = stored
    use.library = .appStorage
    if use.type != nil { use.typeReason = "AppStorageKey<\(typeText)>" }
    // `Self[.appStorage(K), default: D]`: the subscript's default.
    if t.isPunctuation(i - 1, 0x2E), t.isPunctuation(i - 2, 0x5B), t.isText(i - 3, "Self") {
      let subscriptParts = t.commaSeparated((i - 1)..<t.match(i - 2))
      if let d = subscriptParts.first(where: {
        t.isText($0.lowerBound, "default") && t.isPunctuation($0.lowerBound + 1, 0x3A)
      }) {
        let value = valueOf((d.lowerBound + 2)..<d.upperBound)
        if !t.isText(d.lowerBound + 2, "nil") || d.count > 3 {
          use.value = value
          use.defaultSource = .fallback
        }
      }
    }
    use.condition = conditionText(at: i)
    record(use, at: i)
  }

  /// `self.init(wrappedValue: key.defaultValue, key.name)` in an initializer of an extension
  /// of `AppStorage` whose parameter `key` is an object holding a key: the members it reads.
  mutating func appStorageAdapter(_ c: Call) {
    guard types.contains(where: { $0.name == "AppStorage" && $0.kind == "extension" }),
      let parameters = scope?.parameters, let keyAt = c.labels.firstIndex(of: "_")
    else { return }
    func member(_ range: Range<Int>) -> String? {
      guard range.count == 3, parameters.contains(t.text(range.lowerBound)),
        t.isPunctuation(range.lowerBound + 1, 0x2E), t.isIdentifier(range.lowerBound + 2)
      else { return nil }
      return t.text(range.lowerBound + 2)
    }
    guard let key = member(c.arguments[keyAt]) else { return }
    let value = c.labels.firstIndex(of: "wrappedValue").flatMap { member(c.arguments[$0]) }
    let adapter = AppStorageAdapter(key: key, value: value)
    if !facts.appStorageAdapters.contains(adapter) { facts.appStorageAdapters.append(adapter) }
  }

  /// `@AppStorage("k") var x = true`, `@AppStorage(Keys.k, store: …) var x: Int = 5`; the
  /// same of swift-sharing's `@Shared(.appStorage("k"))`, whose declaration follows the
  /// attribute's close (`declarationAfter`).
  mutating func appStorage(at i: Int, declarationAfter: Int? = nil) {
    guard t.isPunctuation(i + 1, 0x28) else {
      // `@AppStorage var x: Bool`, its key given by the initializer (`_x = .init(…)`).
      if declarationAfter == nil, t.isText(i + 1, "var"), t.isIdentifier(i + 2),
        t.isPunctuation(i + 3, 0x3A), let type = typeName
      {
        let typeText = t.source((i + 4)..<typeEnd(from: i + 4)).replacing(" ", with: "")
        appStorageLater[type + "._" + t.text(i + 2)] = typeText
      }
      return
    }
    let close = t.match(i + 1)
    let method = declarationAfter == nil ? "@AppStorage" : "@Shared(.appStorage)"
    let parts = t.commaSeparated((i + 2)..<close)
    let after = declarationAfter ?? close
    var k = after + 1
    while k < t.count, !t.isText(k, "var"), k < after + 6 { k += 1 }
    guard t.isText(k, "var"), t.isIdentifier(k + 1) else { return }
    let name = t.text(k + 1)
    k += 2
    var typeText = ""
    if t.isPunctuation(k, 0x3A) {
      let end = typeEnd(from: k + 1)
      typeText = t.source((k + 1)..<end).replacing(" ", with: "")
      k = end
    }
    let initial = t.isPunctuation(k, 0x3D) ? expressionRange(from: k + 1) : nil
    // (A static property no code names is no key: `static var` between the two. An
    // instance's is the view's state, which SwiftUI reads: a key.)
    recordAppStorage(
      parts[...], name: name, typeText: typeText, initial: initial, method: method, at: i,
      declaration: staticDeclaration(name, modifiers: (after + 1)..<k))
  }

  /// `self._x = .init(wrappedValue: false, Keys.x, store: defaults)` (or `AppStorage(…)`) in
  /// an initializer, for `@AppStorage var x: Bool` declared without its key.
  mutating func appStorageGiven(at i: Int, typeText: String) {
    var k = i + 2
    if t.isPunctuation(k, 0x2E), t.isText(k + 1, "init") {
      k += 1
    } else if !t.isText(k, "AppStorage") {
      return
    }
    guard t.isPunctuation(k + 1, 0x28) else { return }
    var parts = t.commaSeparated((k + 2)..<t.match(k + 1))
    var initial: Range<Int>?
    if let at = parts.firstIndex(where: {
      t.isText($0.lowerBound, "wrappedValue") && t.isPunctuation($0.lowerBound + 1, 0x3A)
    }) {
      initial = (parts[at].lowerBound + 2)..<parts[at].upperBound
      parts.remove(at: at)
      // `wrappedValue: defaults.guideWidth`: the stored value as read elsewhere, no fallback
      // of its own.
      switch initial.map(valueOf) {
      case .name(let n)? where n.first?.isLowercase == true && n.contains("."): initial = nil
      case .computed?, .call?: initial = nil
      default: break
      }
    }
    recordAppStorage(
      parts[...], name: String(t.text(i).dropFirst()), typeText: typeText, initial: initial,
      method: "@AppStorage", at: i)
  }

  /// An `@AppStorage` property: its key (the first of `parts`), its store, type and initial
  /// value.
  mutating func recordAppStorage(
    _ parts: ArraySlice<Range<Int>>, name: String, typeText: String, initial: Range<Int>?,
    method: String, at i: Int, declaration: PropertyDeclaration? = nil
  ) {
    guard let keyRange = parts.first else { return }
    let receiver = storeReceiver(parts.dropFirst())
    let type =
      typeText.isEmpty
      ? nil
      : DefaultsAPI.type(ofClass: typeText.hasSuffix("?") ? String(typeText.dropLast()) : typeText)
    var use = SourceUse(
      key: keyOf(keyRange), receiver: receiver, access: .get, method: method, type: type,
      line: t.line(i))
    use.name = name
    use.declaration = declaration
    if !typeText.isEmpty {
      // An enum stored by its raw value, an array the tree makes RawRepresentable: typed
      // through the declarations.
      use.storedType = typeText
      use.library = .appStorage
    }
    if type != nil { use.typeReason = "\(method) var \(name): \(typeText)" }
    if let given = initial {
      let value = valueOf(given)
      use.value = value
      use.defaultSource = .fallback
      // `= Set<String>()`, `= [String]()`: the type it makes is the one stored.
      if typeText.isEmpty, given.count >= 3, t.isPunctuation(given.upperBound - 1, 0x29),
        t.isPunctuation(given.upperBound - 2, 0x28),
        t.isText(given.lowerBound, "Set") || t.isPunctuation(given.lowerBound, 0x5B)
      {
        let made = given.lowerBound..<(given.upperBound - 2)
        use.storedType = t.source(made).replacing(" ", with: "")
        use.library = .appStorage
      }
      if use.type == nil {
        use.type = value.type
        // `= .light` of an enum: a string raw value, a `RawRepresentable` stored as it.
        if case .name(let n) = value, n.hasPrefix(".") { use.type = nil }
      }
    }
    use.condition = conditionText(at: i)
    let count = facts.uses.count
    record(use, at: i)
    if facts.uses.count > count, let type = typeName {
      appStorageUses[type + "." + name] = facts.uses.count - 1
    }
  }
}
