import PreferencesMigration
import PropertyList

/// The libraries apps use for their defaults, each as small as what it stores: where the
/// app's code names a key, and in what form the library stores a Swift type.
///
/// - sindresorhus/Defaults: `Key<T>("name", default: v, suite: s)` in `extension
///   Defaults.Keys` (or `Defaults.Key<T>(…)`); the default is registered; a type is stored
///   natively, a `RawRepresentable` by its raw value, a `Codable` value (an enum that is both
///   too) as JSON text, an array element by element.
/// - SwiftyUserDefaults: `DefaultsKey<T>("name", defaultValue: v)` (or `.init(…)` of a
///   property declared `DefaultsKey<T>`); the default is the getter's when absent.
/// - GenericID: `Key<T>("name")` in `extension UserDefaults.DefaultsKeys`, read and written
///   as `defaults[.name]`; a type stored natively (the getter's zero is no default), with
///   `transformer: .keyedArchive` as archived data, `.json` as JSON data.
/// - KeyboardShortcuts: a `KeyboardShortcuts.Name("name")` is the key
///   `KeyboardShortcuts_name`, a shortcut stored as JSON text (`false` when disabled); its
///   `default:` (`initial:`) shortcut, written when the key is absent, the default.
/// - MASShortcut: the key given to `bindShortcutWithDefaultsKey:toAction:`,
///   `associatedUserDefaultsKey`, `registerDefaultShortcuts:`: archived data, or a dictionary
///   with `MASDictionaryTransformerName`.
/// - Sparkle: its own keys (`SU…`) where the app names them, marked as the library's.
/// - SwiftUI: `@AppStorage("k", store: s)`; `@SceneStorage` is a scene's state, not user
///   defaults.
enum LibraryModels {
  enum Library: String, Sendable, Hashable {
    case defaults = "sindresorhus/Defaults"
    case swiftyUserDefaults = "SwiftyUserDefaults"
    case genericID = "GenericID"
    case keyboardShortcuts = "KeyboardShortcuts"
    case masShortcut = "MASShortcut"
    case appStorage = "@AppStorage"
    case preferenceMacro = "a user defaults macro"
    case persisted = "PersistedPropertyWrapper"
  }

  /// AndrewBennet/PersistedPropertyWrapper's `@Persisted("k", defaultValue: v, storage: s)`:
  /// a property-list value stored as it is, a `RawRepresentable` by its raw value;
  /// `@Persisted(encodedDataKey: "k", …)` a `Codable` value as JSON data. (Realm's
  /// `@Persisted(primaryKey: true) var id` is a database column: it names no key.)
  static let persisted = "@Persisted"

  /// Whether an imported module is named for keeping settings (`PersistedPropertyWrapper`,
  /// `UserDefaultsWrapper`, `SwiftyPreferences`): then an attribute of it the tree does not
  /// declare, given a key as its first argument (`@Stored("k", default: 1)`), stores the
  /// property under that key.
  static func isPreferencePackage(_ module: String) -> Bool {
    let name = module.lowercased()
    return ["default", "persist", "preference", "setting"].contains { name.contains($0) }
  }

  /// Attributes of the language and the test library, never a package's wrapper.
  static let languageAttributes: Set<String> = ["@available", "@Test", "@Suite", "@objc"]

  /// Attributes that, when the tree does not declare them, are a package's macro (or property
  /// wrapper) storing the property in user defaults (`@UserPreference(defaultValue: true) var
  /// x: Bool`): the key is its `key:` (or first unnamed) argument, else the property's name;
  /// the default its `defaultValue:` (`default:`), else the property's initial value; the
  /// store the type's member of user defaults, else the standard ones. A value that is not a
  /// property-list type is taken as stored `Codable`, as JSON.
  static let preferenceMacros: Set<String> = [
    "@UserPreference", "@UserDefault", "@UserDefaults", "@UserDefaultsBacked",
    "@DefaultsBacked", "@Preference", "@StoredDefault",
  ]

  /// MASShortcut's methods that take a defaults key, and which argument it is.
  static let objcKeySelectors: [String: Int] = [
    "bindShortcutWithDefaultsKey:toAction:": 0,
    "setAssociatedUserDefaultsKey:withTransformerName:": 0,
    "registerDefaultShortcuts:": 0,
  ]

  /// Framework types that are strings stored by their raw value
  /// (`NSPasteboard.PasteboardType`, `Notification.Name`).
  static let stringTypes: Set<String> = [
    "NSPasteboard.PasteboardType", "PasteboardType", "Notification.Name", "NSNotification.Name",
    "NSAppearance.Name", "NSImage.Name", "NSColor.Name", "UTType.Identifier",
  ]

  /// Keys the system itself writes, whose type is known whatever the code does with them
  /// (`object(forKey: "AppleLanguages")`, a test of a window's saved frame).
  static func systemKeyType(_ key: String) -> MigrationPlan.ValueType? {
    switch key {
    case "AppleLanguages", "AppleKeyboards": return .stringArray
    case "AppleInterfaceStyle", "AppleLocale": return .string
    default:
      // AppKit's saved frames: `NSWindow Frame <name>` holds the frame as text.
      return key.hasPrefix("NSWindow Frame ") ? .string : nil
    }
  }

  /// KeyboardShortcuts' prefix of its keys.
  static let keyboardShortcutsPrefix = "KeyboardShortcuts_"

  /// Whether `key` is one of Sparkle's own (`SUEnableAutomaticChecks`, `SULastCheckTime`):
  /// the updater reads and writes it.
  static func isSparkleKey(_ key: String) -> Bool {
    guard key.hasPrefix("SU"), key.count > 3 else { return false }
    let third = key[key.index(key.startIndex, offsetBy: 2)]
    return third.isUppercase
  }

  /// The plan type (and an enum's values) of a Swift type as `library` stores it; nil when
  /// the type says nothing the scan knows.
  static func storedType(
    _ written: String, library: Library?, declarations: [String: TypeDeclaration],
    depth: Int = 0
  ) -> (type: MigrationPlan.ValueType, values: [String])? {
    var name = written.replacing(" ", with: "")
    while name.hasSuffix("?") || name.hasSuffix("!") { name.removeLast() }
    if name.hasPrefix("Optional<"), name.hasSuffix(">") {
      name = String(name.dropFirst(9).dropLast())
    }
    if library == .preferenceMacro {
      // A property-list type as it is; any other Codable value (a set, an enum, a struct, a
      // URL) as JSON.
      if name.hasPrefix("Set<") { return (.json, []) }
      let plain = storedType(name, library: nil, declarations: declarations, depth: depth + 1)
      switch plain?.type {
      case .bool?, .integer?, .double?, .string?, .date?, .data?: return plain
      case .stringArray? where name.hasPrefix("["): return plain
      case nil where declarations[name] == nil: return nil
      default: return (.json, [])
      }
    }
    // `typealias PluginID = String`: the type it names (a few links at most).
    if let alias = declarations[name]?.aliasOf, depth < 4 {
      return storedType(alias, library: library, declarations: declarations, depth: depth + 1)
    }
    // `extension Array: RawRepresentable` (@AppStorage of an array): its raw value is text.
    if library == .appStorage, name.hasPrefix("["), !name.contains(":"),
      let array = declarations["Array"], array.conformances.contains("RawRepresentable")
    {
      return array.rawType == "String" || array.rawType == nil ? (.json, []) : nil
    }
    // `@AppStorage("k") var x: CodableWrapper<Action>`: a generic struct the tree makes
    // RawRepresentable, its raw value text (the JSON of the value it wraps).
    if library == .appStorage, let open = name.firstIndex(of: "<"),
      let wrapper = declarations[String(name[..<open])], wrapper.kind != "enum",
      wrapper.conformances.contains("RawRepresentable")
    {
      return wrapper.rawType == "String" || wrapper.rawType == nil ? (.json, []) : nil
    }
    // (The same of a set: `extension Set: RawRepresentable`.)
    if library == .appStorage, name.hasPrefix("Set<"),
      let set = declarations["Set"], set.conformances.contains("RawRepresentable")
    {
      return set.rawType == "String" || set.rawType == nil ? (.json, []) : nil
    }
    if name.hasPrefix("Set<") || name.hasPrefix("[") && !name.contains(":") {
      let element =
        name.hasPrefix("Set<")
        ? String(name.dropFirst(4).dropLast()) : String(name.dropFirst().dropLast())
      if element == "String" || stringTypes.contains(element) { return (.stringArray, []) }
      let stored = storedType(
        element, library: library, declarations: declarations, depth: depth + 1)
      if stored?.type == .enum || stored?.type == .string { return (.stringArray, []) }
      // Defaults stores each Codable element as JSON text.
      if library == .defaults, stored?.type == .json { return (.json, []) }
      return (.array, [])
    }
    if name.hasPrefix("["), name.contains(":") { return (.dictionary, []) }
    switch name {
    case "Bool": return (.bool, [])
    case "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64":
      return (.integer, [])
    case "Double", "Float", "CGFloat", "TimeInterval": return (.double, [])
    case "String", "UUID": return (.string, [])
    case "CGSize", "NSSize", "CGPoint", "NSPoint", "CGRect", "NSRect":
      // Codable in Foundation: Defaults stores them as JSON text.
      return library == .defaults ? (.json, []) : nil
    case "Date": return (.date, [])
    case "Data": return (.data, [])
    case "URL":
      // Defaults stores a URL as JSON text; @AppStorage and SwiftyUserDefaults as a URL.
      return library == .defaults ? (.json, []) : (.url, [])
    default: break
    }
    let last = name.split(separator: ".").last.map(String.init) ?? name
    guard let declaration = declarations[name] ?? declarations[last] else { return nil }
    let codable = declaration.conformances.contains { $0 == "Codable" || $0 == "Decodable" }
    if let raw = declaration.rawType {
      let preferRaw = declaration.conformances.contains {
        $0.hasSuffix("PreferRawRepresentable")
      }
      // Defaults stores a Codable enum as JSON text, unless it prefers its raw value.
      if library == .defaults, codable, !preferRaw { return (.json, []) }
      switch raw {
      case "String": return (.enum, declaration.cases.map(\.raw))
      case "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32",
        "UInt64":
        return (.integer, [])
      case "Double", "Float", "CGFloat": return (.double, [])
      default: return nil
      }
    }
    if codable { return (.json, []) }
    if declaration.conformances.contains(where: { $0 == "NSSecureCoding" || $0 == "NSCoding" }) {
      return (.data, [])
    }
    return nil
  }
}

extension ObjCReader {
  /// A MASShortcut method given a defaults key (`bindShortcutWithDefaultsKey:toAction:`,
  /// `registerDefaultShortcuts:`): a key of the standard domain, stored as archived data (or
  /// a dictionary with `MASDictionaryTransformerName`).
  mutating func libraryMessage(_ m: Message) {
    guard let index = LibraryModels.objcKeySelectors[m.selector], index < m.arguments.count else {
      return
    }
    let dictionary = t.tokens.indices.contains { t.isText($0, "MASDictionaryTransformerName") }
    let type: MigrationPlan.ValueType = dictionary ? .dictionary : .data
    if m.selector == "registerDefaultShortcuts:" {
      // Its values are shortcuts archived when registered: the keys, no constant default.
      guard case .dictionary(let entries) = valueOf(m.arguments[0]) else { return }
      for entry in entries {
        var use = SourceUse(
          key: entry.key, receiver: .standard, access: .bind,
          method: "MASShortcutBinder registerDefaultShortcuts:", type: type, line: t.line(m.open))
        use.library = .masShortcut
        record(use, at: -1)
      }
      return
    }
    var use = SourceUse(
      key: localKey(m.arguments[index]), receiver: .standard, access: .bind,
      method: "MASShortcut " + m.selector, type: type, line: t.line(m.open))
    use.library = .masShortcut
    use.condition = condition(at: m.open)
    record(use, at: m.open)
  }

  /// `view.associatedUserDefaultsKey = K;`: MASShortcut's view stores its shortcut under K.
  mutating func associatedKey(_ value: Range<Int>, at i: Int) {
    let dictionary = t.tokens.indices.contains { t.isText($0, "MASDictionaryTransformerName") }
    var use = SourceUse(
      key: localKey(value), receiver: .standard, access: .bind,
      method: "MASShortcutView associatedUserDefaultsKey", type: dictionary ? .dictionary : .data,
      line: t.line(i))
    use.library = .masShortcut
    record(use, at: -1)
  }
}

extension SwiftReader {
  /// `@UserPreference(key: "k", defaultValue: v) var x: T` (one of
  /// ``LibraryModels/preferenceMacros``, the tree declaring no such type): the key it stores.
  mutating func preferenceMacro(at i: Int) {
    var parts: [Range<Int>] = []
    var labels: [String] = []
    // (PersistedPropertyWrapper's, or another attribute of a package named for settings: its
    // key given, never the property's name.)
    let persisted = t.text(i) == LibraryModels.persisted
    let packaged = persisted || !LibraryModels.preferenceMacros.contains(t.text(i))
    var k = i + 1
    if t.isPunctuation(k, 0x28), let c = parseCall(at: i) {
      parts = c.arguments
      labels = c.labels
      k = t.match(i + 1) + 1
      // `@ObservableUserDefault(.init(key: "k", defaultValue: v, store: .standard))`: a package's
      // attribute given one configuration, its arguments the attribute's.
      if packaged, parts.count == 1, let only = parts.first, t.isPunctuation(only.lowerBound, 0x2E),
        t.isText(only.lowerBound + 1, "init"), let inner = parseCall(at: only.lowerBound + 1),
        inner.close == only.upperBound - 1, inner.labels.contains("key")
      {
        parts = inner.arguments
        labels = inner.labels
      }
    }
    // Other attributes and modifiers may stand between it and `var`.
    let attributeEnd = k
    while k < t.count, k < attributeEnd + 12, !t.isText(k, "var"), !t.isText(k, "let") {
      if t.isPunctuation(k, 0x28) { k = t.match(k) }
      k += 1
    }
    // (A static property may be an enum's: `enum SortOrder { @Persisted(…) static var x }`.)
    guard t.isText(k, "var") || t.isText(k, "let"), t.isIdentifier(k + 1),
      let type = types.last,
      type.kind == "class" || type.kind == "struct" || type.kind == "enum" && packaged
    else { return }
    let name = t.text(k + 1)
    var n = k + 2
    var typeText: String?
    if t.isPunctuation(n, 0x3A) {
      let end = typeEnd(from: n + 1)
      typeText = t.source((n + 1)..<end).replacing(" ", with: "")
      n = end
    }
    let initial = t.isPunctuation(n, 0x3D) ? expressionRange(from: n + 1) : nil
    var key: KeyExpr = .literal(name)
    let encoded = persisted ? labels.firstIndex(of: "encodedDataKey") : nil
    if let at = encoded ?? labels.firstIndex(of: "key") ?? labels.firstIndex(of: "_"),
      at < parts.count
    {
      key = keyOf(parts[at])
    } else if packaged {
      return
    }
    // (Another package's attribute: a key written as text, `@Stored("k")`.)
    if packaged, !persisted, let first = parts.first,
      first.count != 1 || !t.isString(first.lowerBound)
    {
      return
    }
    // The store: `storage:`; else the type's member of user defaults (`store:
    // UserDefaultsProtocol`).
    let members = facts.members[type.name]?.declared ?? [:]
    let store = members.keys.sorted().first { members[$0]?.hasPrefix("UserDefaults") == true }
    var use = SourceUse(
      key: key, receiver: store.map { .name($0) } ?? .standard, access: .get,
      method: String(t.text(i)), line: t.line(i))
    if packaged, let at = labels.firstIndex(of: "storage") ?? labels.firstIndex(of: "store"),
      at < parts.count
    {
      use.receiver = givenStore(parts[at])
    } else if store != nil {
      use.receiverOwner = type.name
    }
    use.library = persisted ? .persisted : .preferenceMacro
    if encoded != nil { use.type = .json }
    // (The property is its own accessor: an instance's is a key though no code names it, as
    // `@AppStorage`'s; a static one only where some code does.)
    use.name = name
    use.declaration = staticDeclaration(name, modifiers: attributeEnd..<k)
    use.storedType = typeText
    if let at = labels.firstIndex(where: { $0 == "defaultValue" || $0 == "default" }),
      at < parts.count
    {
      use.value = valueOf(parts[at])
    } else if let initial {
      use.value = valueOf(initial)
    }
    if use.value != nil { use.defaultSource = .fallback }
    if typeText == nil, use.type == nil, let value = use.value { use.type = value.type }
    use.condition = conditionText(at: i)
    record(use, at: -1)
  }

  /// SwiftyUserDefaults' `DefaultsAdapter(defaults: d, keyStore: DefaultsKeys())`: d, whose
  /// keys the adapter's are; nil for anything else.
  func adapterReceiver(_ r: Range<Int>) -> ReceiverRef? {
    guard let first = r.first, t.isText(first, "DefaultsAdapter"), let c = parseCall(at: first),
      c.close == r.upperBound - 1, let index = c.labels.firstIndex(of: "defaults")
    else { return nil }
    return receiverOf(c.arguments[index])
  }

  /// A key a library declares (`static let x = Key<Bool>("x", default: false)` in `extension
  /// Defaults.Keys`, `DefaultsKey<Int>("n", defaultValue: 0)`, `Self("toggle")` in `extension
  /// KeyboardShortcuts.Name`): its use, recorded; false when `value` is none of them.
  mutating func libraryKey(named name: String, declared: String?, value: Range<Int>) -> Bool {
    guard var start = value.first else { return false }
    let extended = types.last?.full ?? ""
    // `Defaults.Key<T>(`, `Key<T>(` in `extension Defaults.Keys`, `DefaultsKey<T>(`, `.init(`
    // of a property declared one of them.
    var library: LibraryModels.Library?
    var generic: String?
    // (A computed property's body may `return` it.)
    if t.isText(start, "return") { start += 1 }
    if t.isText(start, "Defaults"), t.isPunctuation(start + 1, 0x2E) { start += 2 }
    // `NSSecureCodingKey<NSColorSpace>(`: Defaults' key of an object it archives.
    let archived = t.isText(start, "NSSecureCodingKey")
    if t.isText(start, "Key") || t.isText(start, "DefaultsKey") || archived,
      t.isPunctuation(start + 1, 0x3C)
    {
      let close = t.angleEnd(from: start + 1)
      generic = t.source((start + 2)..<(close - 1)).replacing(" ", with: "")
      library =
        t.isText(start, "DefaultsKey")
        ? .swiftyUserDefaults
        : extended.hasSuffix("UserDefaults.DefaultsKeys") && !archived
          ? .genericID
          : (extended.hasSuffix("Defaults.Keys") || start != value.lowerBound ? .defaults : nil)
      // The call's `(` follows the generic arguments' `>`.
      start = close - 1
    } else if t.isText(start, "Key"), t.isPunctuation(start + 1, 0x28),
      extended.hasSuffix("Defaults.Keys") || start != value.lowerBound
    {
      // `Defaults.Key("k", default: 0)`: the type its default has.
      library = .defaults
    } else if t.isText(start, "DefaultsKey"), let declared, declared.hasPrefix("DefaultsKey<") {
      // `var k: DefaultsKey<Bool> { DefaultsKey("k", defaultValue: false) }`: the declared type's.
      library = .swiftyUserDefaults
      generic = String(declared.dropFirst(12).dropLast())
    } else if t.isPunctuation(start, 0x2E), t.isText(start + 1, "init"), let declared {
      if declared.hasPrefix("DefaultsKey<") {
        library = .swiftyUserDefaults
        generic = String(declared.dropFirst(12).dropLast())
      } else if declared.hasPrefix("Key<") || declared.hasPrefix("Defaults.Key<"),
        extended.hasSuffix("Defaults.Keys") || declared.hasPrefix("Defaults.")
      {
        library = .defaults
        generic = String(declared.drop { $0 != "<" }.dropFirst().dropLast())
      } else if extended.hasSuffix("KeyboardShortcuts.Name") {
        library = .keyboardShortcuts
      }
      start += 1
    } else if extended.hasSuffix("KeyboardShortcuts.Name"),
      t.isText(start, "Self") || t.isText(start, "Name")
    {
      library = .keyboardShortcuts
    } else if t.isText(start, "KeyboardShortcuts"), t.isText(start + 2, "Name") {
      library = .keyboardShortcuts
      start += 2
    }
    guard let library, t.isPunctuation(start + 1, 0x28), let c = parseCall(at: start),
      let first = c.arguments.first, c.labels.first == "_"
    else { return false }
    var use = SourceUse(
      key: keyOf(first), receiver: .standard, access: .get, method: library.rawValue,
      line: t.line(start))
    use.library = library
    use.name = name
    use.declaration = PropertyDeclaration(name: name, type: types.last?.name)
    use.condition = conditionText(at: start)
    switch library {
    case .keyboardShortcuts:
      use.key = .concat([.literal(LibraryModels.keyboardShortcutsPrefix), use.key])
      use.type = .json
      use.typeReason = "a KeyboardShortcuts shortcut: JSON text, false when disabled"
      // The initial shortcut, which `Name.init` writes when the key is absent.
      for (label, argument) in zip(c.labels, c.arguments)
      where label == "default" || label == "initial" {
        use.value = initialShortcut(argument)
        use.defaultSource = use.value == nil ? nil : .fallback
      }
    case .defaults where archived:
      use.type = .data
      use.typeReason = "a Defaults NSSecureCodingKey: the object as NSKeyedArchiver data"
      for (label, argument) in zip(c.labels, c.arguments) where label == "default" {
        use.value = .computed(t.source(argument), .data)
        use.defaultSource = .registration
      }
    case .genericID:
      use.storedType = generic
      for (label, argument) in zip(c.labels, c.arguments) where label == "transformer" {
        // `.keyedArchive` archives the value, `.json` encodes it: both stored as data.
        use.storedType = nil
        use.type = t.contains(argument, "json") ? .json : .data
        use.typeReason = "a GenericID key with a transformer: " + t.source(argument)
      }
    case .defaults, .swiftyUserDefaults:
      use.storedType = generic
      for (label, argument) in zip(c.labels, c.arguments) {
        if label == "default" || label == "defaultValue" {
          use.value = valueOf(argument)
          // Defaults registers its default; SwiftyUserDefaults' getter gives it when absent.
          use.defaultSource = library == .defaults ? .registration : .fallback
        }
        if label == "suite" {
          use.receiver = argumentReceiver(argument) ?? .unknown(t.source(argument))
        }
      }
    default: break
    }
    if use.storedType == nil, use.type == nil, let value = use.value { use.type = value.type }
    record(use, at: -1)
    return true
  }
}
