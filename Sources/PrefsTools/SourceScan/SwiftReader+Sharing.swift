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
