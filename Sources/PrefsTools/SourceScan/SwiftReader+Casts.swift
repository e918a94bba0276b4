import PreferencesMigration
import PropertyList

/// Casts and conversions a getter's answer goes through, the names of user defaults
/// parameters, a selector's base name.
extension SwiftReader {
  /// `as? T`, `as! T` at `k`: T as written (its spaces out), and where it ends.
  func cast(at k: Int) -> (type: String, end: Int)? {
    guard t.isText(k, "as"), t.isPunctuation(k + 1, 0x3F) || t.isPunctuation(k + 1, 0x21) else {
      return nil
    }
    let end = typeEnd(from: k + 2)
    return (t.source((k + 2)..<end).replacing(" ", with: ""), end)
  }

  /// Types `use` by the Swift type a cast names (`as? [PluginID]`: what the elements are is
  /// looked up in the tree); false when that type says no plan type.
  static func type(_ use: inout SourceUse, byCast type: String, reason: String) -> Bool {
    guard let planType = DefaultsAPI.type(ofClass: type) else { return false }
    use.type = planType
    use.typeReason = reason
    if planType == .array { use.storedType = use.storedType ?? type }
    return true
  }

  /// Whether `range` is a local holding JSON (`data` of `let data = try encoder.encode(v)`).
  func isJSONLocal(_ range: Range<Int>) -> Bool {
    range.count == 1 && scope?.locals[t.text(range.lowerBound)]?.json == true
  }

  func receiverOwner(of receiver: ReceiverRef) -> String? {
    // (A subclass of UserDefaults: the class, whose initializer may name a suite.)
    if receiver == .extendedDefaults, let type = typeName,
      facts.superclasses[type] == "UserDefaults"
    {
      return type
    }
    guard case .name(let n) = receiver, !n.contains("."), !n.hasPrefix("param:") else {
      return nil
    }
    return typeName
  }

  /// `convenience init() { self.init(suiteName: Self.sharedSuiteName)! }` of a subclass of
  /// UserDefaults, its body's `{` at `open`: the suite its instances are made for.
  mutating func subclassSuite(body open: Int, parameters: [String]) {
    guard parameters.isEmpty, let type = typeName, facts.superclasses[type] == "UserDefaults",
      t.isText(open + 1, "self"), t.isPunctuation(open + 2, 0x2E), t.isText(open + 3, "init"),
      let c = parseCall(at: open + 3), c.labels == ["suiteName"]
    else { return }
    facts.subclassSuites[type] = keyOf(c.arguments[0])
  }

  /// The name a function's parameter of user defaults is known by (`param:save(to:)#0`).
  static func parameterName(_ selector: String, _ index: Int) -> String {
    "param:" + selector + "#" + String(index)
  }

  /// What ``parameterName(_:_:)`` made `name` of: the function's selector and the parameter's
  /// index; nil for any other name.
  static func parameter(named name: String) -> (selector: Substring, index: Int)? {
    guard name.hasPrefix("param:"), let hash = name.lastIndex(of: "#"),
      let index = Int(name[name.index(after: hash)...])
    else { return nil }
    return (name.dropFirst(6)[..<hash], index)
  }

  /// A static property's declaration (`static` among the tokens of `modifiers`), which only
  /// code naming the type reaches; nil for an instance's, a key whether named or not.
  func staticDeclaration(_ name: String, modifiers: Range<Int>) -> PropertyDeclaration? {
    guard modifiers.contains(where: { t.isText($0, "static") }) else { return nil }
    return PropertyDeclaration(name: name, type: typeName, isStatic: true)
  }

  /// `save(group:)` → `save`.
  static func baseName(_ selector: String) -> String {
    String(selector.prefix { $0 != "(" })
  }

  /// Whether the call `c` is the first statement of `if … .object(forKey: K) == nil { … }`:
  /// run while the key is absent.
  func firstStatementWhenAbsent(_ c: Call) -> Bool {
    let start = c.receiver.map { $0.lowerBound } ?? c.name
    let brace = start - 1
    guard brace >= 4, t.isPunctuation(brace, 0x7B), t.isText(brace - 1, "nil"),
      t.isText(brace - 2, "=="), t.isPunctuation(brace - 3, 0x29)
    else { return false }
    let open = t.match(brace - 3)
    return open > 0 && open < brace - 3 && t.isText(open - 1, "object")
      && t.isText(open + 1, "forKey")
  }
}
