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
      let store = (part.lowerBound + 2)..<part.upperBound
      receiver = receiverOf(store)
      switch receiver {
      case .standard, .suite: break
      // `.group`, `Self.group`, `shared.defaults`: looked up in the tree.
      default: receiver = .name(t.source(store).replacing(" ", with: ""))
      }
    }
    return receiver
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
}

extension SwiftReader {
  /// The labels of a getter's fallback in the extensions of UserDefaults packages give
  /// (`bool(forKey: K, fallback: true)`).
  static let fallbackLabels: Set<String> = ["fallback", "default", "defaultValue", "or"]

  /// `UserDefaults.standard.bool(forKey: K, fallback: true)`: a getter with a fallback that
  /// an extension outside the tree (a package's) adds to user defaults the code names: the
  /// getter it extends, and its fallback's argument. (A wrapper of that name the tree
  /// declares is followed as a wrapper too.)
  func getterWithFallback(_ c: Call) -> (DefaultsAPI.Method, Range<Int>)? {
    guard c.labels.count == 2, c.labels[0] == "forKey", Self.fallbackLabels.contains(c.labels[1]),
      let api = DefaultsAPI.swift[t.text(c.name) + "(forKey:)"], api.access == .get
    else { return nil }
    switch receiverOf(c.receiver) {
    case .standard, .suite: return (api, c.arguments[1])
    default: return nil
    }
  }
}

extension SwiftReader {
  /// `cell.defaultKey = "SwipeActions"`: a value given to a member that keeps a key for its
  /// type's defaults calls (see ``ScanModel/addMemberSetter(_:)``), as a call of
  /// `defaultKey=` with that one argument.
  mutating func memberAssignment(at i: Int) {
    let value = expressionRange(from: i + 2)
    guard !value.isEmpty else { return }
    var call = WrapperCall(
      selector: t.text(i) + "=", receiver: .none, arguments: [localKey(value)],
      values: [valueOf(value)], name: nil, condition: conditionText(at: i), line: t.line(i))
    call.labels = ["newValue"]
    call.receivers = [nil]
    facts.wrapperCalls.append(call)
  }
}
