import PreferencesMigration
import PropertyList

/// A key as the code writes it, before the names in it are looked up across the tree.
indirect enum KeyExpr: Sendable, Hashable {
  case literal(String)
  /// A macro, a constant, a Swift `let`, an enum case (`PrefKey.sound`, or `.sound`), or a
  /// variable of the function: looked up when the whole tree is read.
  case name(String)
  /// Pieces written one after the other (adjacent literals, `stringByAppendingString:`, `+`).
  case concat([KeyExpr])
  /// A piece only known at run time (a format's `%@`, an interpolation, a variable): its
  /// source text.
  case runtime(String)
  /// Any one of these: an element of a collection the code writes (an array literal, an
  /// enum's cases, the list a function returns), each a key.
  case oneOf([KeyExpr])
  /// What a function or method of the tree returns for these arguments (`[self keyFor:x]`,
  /// `key(for: x)`, `ShortcutKeys()`): looked up when the whole tree is read; its source text
  /// when the tree has no such function.
  case call(String, [KeyExpr], source: String)
  /// A property of each key of a collection (`action.name` for a loop over
  /// `WindowAction.active`): the property of each element, looked up as a name
  /// (`leftHalf.name`).
  case member(KeyExpr, String)

  /// `self` with every `.name(n)` that `substitute` answers for replaced.
  func substituting(_ substitute: (String) -> KeyExpr?) -> KeyExpr {
    switch self {
    case .literal, .runtime: return self
    case .name(let n): return substitute(n) ?? self
    case .concat(let parts): return .concat(parts.map { $0.substituting(substitute) })
    case .oneOf(let items): return .oneOf(items.map { $0.substituting(substitute) })
    case .call(let f, let arguments, let source):
      return .call(f, arguments.map { $0.substituting(substitute) }, source: source)
    case .member(let base, let name): return .member(base.substituting(substitute), name)
    }
  }

  var names: [String] {
    switch self {
    case .literal, .runtime: []
    case .name(let n): [n]
    case .concat(let parts): parts.flatMap(\.names)
    case .oneOf(let items): items.flatMap(\.names)
    case .call(_, let arguments, _): arguments.flatMap(\.names)
    case .member(let base, _): base.names
    }
  }

  /// The functions it calls.
  var calls: [String] {
    switch self {
    case .literal, .runtime, .name: []
    case .concat(let parts): parts.flatMap(\.calls)
    case .oneOf(let items): items.flatMap(\.calls)
    case .call(let f, let arguments, _): [f] + arguments.flatMap(\.calls)
    case .member(let base, _): base.calls
    }
  }

  /// A variable's key for `name`, or for `local.member` a member of it: how a function's
  /// variables are looked up in a key (`lookup` gives a variable's key).
  static func local(_ name: String, _ lookup: (String) -> KeyExpr??) -> KeyExpr? {
    if let found = lookup(name) { return found ?? .runtime(name) }
    guard let dot = name.firstIndex(of: "."), dot != name.startIndex,
      let found = lookup(String(name[..<dot])), let key = found
    else { return nil }
    return .member(key, String(name[name.index(after: dot)...]))
  }

  /// Whether the key is known only at run time (no name, literal or call in it can make it
  /// one).
  var isRuntime: Bool {
    if case .runtime = self { return true }
    return false
  }
}

/// A value as the code writes it (a registered default, a fallback, a value set).
indirect enum ValueExpr: Sendable, Hashable {
  case value(PlistValue)
  /// A macro or constant naming a value.
  case name(String)
  /// Not a constant: its source text, and the type it has when the code says (`[NSDate
  /// date]` is a date, `[NSNumber numberWithBool:x]` a bool).
  case computed(String, MigrationPlan.ValueType?)
  case array([ValueExpr])
  case dictionary([ValueEntry])
  /// What a function or method of the tree returns (`[self defaultValues]`,
  /// `makeDefaults()`): looked up when the whole tree is read; else computed, its source.
  case call(String, [KeyExpr], source: String)
  /// A value converted to a type on the way (`[NSNumber numberWithInt:kWidth]`, `URL(string:
  /// "https://…")!`): the constant converted when it is one.
  case converted(ValueExpr, MigrationPlan.ValueType, source: String)

  /// The functions it calls.
  var calls: [String] {
    switch self {
    case .value, .name, .computed: []
    case .array(let items): items.flatMap(\.calls)
    case .dictionary(let entries): entries.flatMap { $0.key.calls + $0.value.calls }
    case .call(let f, let arguments, _): [f] + arguments.flatMap(\.calls)
    case .converted(let inner, _, _): inner.calls
    }
  }
}

/// A property declared in a type (`Keys`, the last name of `extension Defaults.Keys`).
struct PropertyDeclaration: Sendable, Hashable {
  var name: String
  var type: String?
  /// A type's own (`static var`): never named as an instance's member (`settings.name`).
  var isStatic = false
}

struct ValueEntry: Sendable, Hashable {
  var key: KeyExpr
  var value: ValueExpr
}

/// What the code calls a key's methods on.
enum ReceiverRef: Sendable, Hashable {
  /// `self` in an extension of UserDefaults: the user defaults a call of the method is made
  /// on; the standard ones where no call says.
  static let extendedDefaults = ReceiverRef.name("self")

  /// `[NSUserDefaults standardUserDefaults]`, `UserDefaults.standard`, the shared user
  /// defaults controller.
  case standard
  /// `initWithSuiteName:`, `UserDefaults(suiteName:)`.
  case suite(KeyExpr)
  /// A variable, property, global or macro, looked up in the file, then in the tree.
  case name(String)
  /// Not known to be user defaults, nor known not to be (a property of type `id`, a value
  /// of a type the code does not say): reported as such, never taken. Its source text.
  case unknown(String)
  /// An instance or the class of a type (`[Settings shared]`, `Settings *s`, `self` in a
  /// class): user defaults when the type is `NSUserDefaults`, a subclass or a wrapper.
  case type(String)
  /// What a type's method without arguments returns (`[HelperTools defaultsDB]`,
  /// `HelperTools.defaultsDB()`): the user defaults the tree says that method returns, else
  /// the type's own (a wrapper's `[Settings shared]`).
  case returned(type: String, method: String)
  case none

  /// The standard user defaults or a suite.
  var isDefaults: Bool {
    switch self {
    case .standard, .suite: true
    default: false
    }
  }
}

/// How a key is used at one place.
enum KeyAccess: String, Sendable, Hashable {
  case get, set, remove, observe, bind, register, settings, presence
  /// A bundle file registered as defaults, its name the key (made at a wrapper's call).
  case registerFile
}

/// Where a default comes from, in the order the running app sees them: a registration hides
/// a fallback branch (the key is never absent), which hides the Settings bundle's value (iOS
/// does not register it).
enum DefaultSource: Int, Sendable, Hashable, Comparable {
  case registration = 0, fallback = 1, settingsBundle = 2

  static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

  var words: String {
    switch self {
    case .registration: "registered"
    case .fallback: "the fallback when absent"
    case .settingsBundle: "the Settings bundle (iOS does not register it by itself)"
    }
  }
}

/// One use of a key in the code or a resource.
struct SourceUse: Sendable {
  var key: KeyExpr
  var receiver: ReceiverRef
  var access: KeyAccess
  /// The method or the resource (`boolForKey:`, `bool(forKey:)`, `PSToggleSwitchSpecifier`,
  /// `values.KEY binding "value"`).
  var method: String
  /// The type this use shows, and whether it is only a hint (a registered value, a binding,
  /// a Settings pane) that the code's getters and setters overrule.
  var type: MigrationPlan.ValueType?
  var weakType = false
  /// The code takes the array's elements for another class than strings (`for
  /// (NSDictionary *p in [d objectForKey:K])`).
  var otherElements = false
  /// What the code does with the value that gave the type (`boolValue`, `as? Int`), for the
  /// evidence.
  var typeReason: String?
  /// A default, and where it comes from.
  var value: ValueExpr?
  var defaultSource: DefaultSource?
  /// Why a default found here is not a fact (`#if DEBUG`, an OS version test).
  var condition: String?
  /// The property or variable the value goes to or comes from (a name for the typed key).
  var name: String?
  var file: Int = 0
  var line: Int
  /// Where in a resource, when it has no lines to count (`PreferenceSpecifiers[3]`).
  var place: String?
  /// The type whose method made the use, when its key names a member of that type (`_key`,
  /// `self.key`): ``ScanModel`` makes each initializer that sets the member from a parameter
  /// a wrapper, the use a template.
  var ownerType: String?
  /// Swift: the type a use is written in, when its receiver is a member named alone
  /// (`userDefaults.bool(forKey:)`): that type's member is looked up first.
  var receiverOwner: String?
  /// A Swift type the value is stored as (`Key<Layout>`, `@AppStorage var x: Layout`), for
  /// the model to type through the tree's declarations and the library's storage.
  var storedType: String?
  /// The value read is made into `storedType` by its raw value (`Mode(rawValue: raw)`): an
  /// enum of the tree types it over the getter's string.
  var madeFromRaw = false
  /// The library that stores the key (`Defaults`, `KeyboardShortcuts`, `Sparkle`): how it
  /// stores a type, and a note in the evidence.
  var library: LibraryModels.Library?
  /// The property whose declaration is the use (a library's key, `static let k = Key<Bool>(…)`;
  /// a property wrapper's attribute, `@Stored(key: "k") static var k: Bool`) and the type it
  /// is declared in: a key no code names again is never read nor written.
  var declaration: PropertyDeclaration?
  /// A setter's value when it is a parameter of a wrapper (`set(value, forKey: key)`): typed
  /// by what each call gives it.
  var valueParameter: String?
  /// A fallback found by a test of a number getter's 0 (`if (n == 0) n = V;`): a V of 0 is the
  /// getter's own answer, no default.
  var zeroTest = false
  /// A fallback found by a test through a method of the tree (`if d.valueExists(forKey: K)`),
  /// by its selector: kept only if the tree defines that method as a presence test.
  var testedBy: String?
  /// A presence test (`object(forKey: key) != nil`): whether it is true when the key is there.
  var trueWhenPresent: Bool?
  /// A setter's value that is a published property's (`$p.sink { v in set(v, forKey: K) }`):
  /// the property's initial value, which the sink writes when the key is absent.
  var absentValue: ValueExpr?
  /// A binding's whole key path after `values.` when it has dots (`values.panel.size`): the
  /// key is its first part, unless the code uses the whole path as a key of its own.
  var boundPath: String?
  /// The property of an extension of UserDefaults the use is in (`var isLogging: Bool {
  /// bool(forKey: K) }`): read on whatever user defaults its accesses name.
  var extensionProperty: String?
  /// A read of `UserDefaults.standard.NAME` given a fallback: a use only where NAME is the key
  /// of a managed (`@NSManaged`, `@dynamic`) property of user defaults.
  var managedRead = false
  /// Swift: a setter's value with the function and type it is written in (`set(general.flag,
  /// forKey: K)` in `save(group:)` of `Options`): what the app writes at its first launch
  /// when that function runs while a marker key is absent (``FileFacts/seedCalls``).
  var seed: SeedWrite?
}

/// A value a setter writes, where (see ``SourceUse/seed``). A class: one reference in every
/// use (a use is copied with each local that holds one).
final class SeedWrite: Sendable {
  /// The function's name, without its labels (`save`).
  let function: String
  let type: String?
  let value: ValueExpr

  init(function: String, type: String?, value: ValueExpr) {
    self.function = function
    self.type = type
    self.value = value
  }
}

/// A method or function that takes the key as a parameter and passes it to a getter or a
/// setter: each call of it with a constant key is a use of that key.
struct SourceWrapper: Sendable {
  /// The Objective-C selector (`boolForKey:defaultValue:`) or the Swift name with its
  /// labels (`bool(forKey:)`, `value(_:)`); `defaultKey=` for an assignment to a member that
  /// keeps a key (see ``assignment(to:)``).
  var selector: String

  /// The selector of an assignment `x.member = V` (its one parameter `newValue`).
  static func assignment(to member: String) -> String { member + "=" }

  /// The member an assignment's selector names, nil for any other selector.
  static func assignedMember(_ selector: String) -> String? {
    selector.hasSuffix("=") && !selector.contains("(") ? String(selector.dropLast()) : nil
  }
  /// The class it belongs to, when the receiver matters (its selector is one of
  /// `NSUserDefaults`'s own).
  var className: String?
  var parameters: [String]
  /// The key, with the parameters as names.
  var key: KeyExpr
  var use: SourceUse
  /// The parameter a fallback default comes from, and the one a set value comes from.
  var defaultParameter: Int?
  var valueParameter: Int?
  /// Swift: the parameters' types (an enum's cases named `.case` at the call).
  var parameterTypes: [String?] = []
  /// Swift: the parameters' argument labels (`_` for none), by which a call's arguments are
  /// matched when it may leave some out (an initializer's defaulted parameters).
  var labels: [String] = []
  /// Swift: the parameters a call may leave out, with the value each then has (a receiver
  /// for `store: UserDefaults = .standard`).
  var parameterDefaults: [String: ReceiverRef] = [:]
  /// Swift: the constants parameters have when a call leaves them out (a fallback given as
  /// `defaultValue: String = "Visible"`).
  var parameterValues: [String: ValueExpr] = [:]
  /// Swift: the parameters whose default is `#function` (`read(property: String = #function)`:
  /// a call that leaves it out gives the name of the property it is written in).
  var callerNameParameters: Set<String> = []
}

/// A call of a wrapper found in the tree.
struct WrapperCall: Sendable {
  var selector: String
  var receiver: ReceiverRef
  var arguments: [KeyExpr?]
  var values: [ValueExpr?]
  var name: String?
  /// What `#function` is where the call is written (the property an accessor stands for, else
  /// the function), for a parameter that defaults to it.
  var callerName: String?
  /// The type the call is written in (`self[.item]` is its own subscript's call only).
  var callerType: String?
  /// The property of an extension of UserDefaults the call is made in (its accessor's).
  var extensionProperty: String?
  var condition: String?
  var file: Int = 0
  var line: Int
  /// Swift: each argument's label (`_` for none).
  var labels: [String] = []
  /// Each argument as a receiver (`store: .group`), where it names one.
  var receivers: [ReceiverRef?] = []
  /// The type of the property a property wrapper's attribute declares (`var x: Bool`), or
  /// that a function returning the call's answer declares.
  /// For a property wrapper's attribute: the property it declares.
  var declaration: PropertyDeclaration?
  /// The type the call's answer is cast to (`getValue(key: .k) as? String`).
  var castType: String?
  var declaredType: String?
  /// What the caller gives when the call answers nil (`getInt(key: K) ?? 0`,
  /// `T(rawValue: getString(key: k)) ?? fallback`): the key's fallback when absent.
  var fallback: ValueExpr?
  /// What a setter writes when the key is absent (see ``SourceUse/absentValue``).
  var absentValue: ValueExpr?
  /// The call's answer is only tested for nil (`get(forKey: .k) == nil`): a presence test,
  /// whatever type the wrapper's getter reads.
  var testedForNil = false
  /// The call is in the branch such a test takes when the key is absent, with the same key:
  /// what a setter writes there is what a first launch gets.
  var inAbsentBranch = false
  /// The type a setter's value has at the call (JSON data a local holds, a published
  /// property's value): it types the key where the wrapper's own parameter does not.
  var givenType: MigrationPlan.ValueType?
  /// The function the call is in, when an argument names one of its parameters: the call
  /// then makes that function a wrapper too (two levels of wrappers).
  var enclosing: EnclosingFunction?
}

extension WrapperCall {
  /// The call `use` makes of a wrapper type's own defaults method (`api`): its key and value
  /// in the method's argument places, as a call the wrapper's body is followed with.
  init(
    _ use: SourceUse, calling api: DefaultsAPI.Method, name: String?, condition: String?,
    file: Int, line: Int
  ) {
    var arguments = [KeyExpr?](repeating: nil, count: max(api.key, api.value ?? 0) + 1)
    var values = [ValueExpr?](repeating: nil, count: arguments.count)
    arguments[api.key] = use.key
    if let v = api.value { values[v] = use.value }
    self.init(
      selector: use.method, receiver: use.receiver, arguments: arguments, values: values,
      name: name, condition: condition, file: file, line: line)
  }
}

/// The function a wrapper call is made in.
struct EnclosingFunction: Sendable, Hashable {
  var selector: String
  var className: String?
  var parameters: [String]
  var parameterTypes: [String?]
  var labels: [String]
}

/// What a function or method returns, in terms of its parameters (a key it builds, a list of
/// keys, a dictionary of defaults): each `return`.
struct FunctionReturn: Sendable {
  var parameters: [String]
  var key: KeyExpr
  var value: ValueExpr
  /// The file a returned dictionary was read from (`dictionaryWithContentsOfFile:`), as a key.
  var file: KeyExpr? = nil

  /// Whether a return can name a key or a value a registration takes (not `self`, `nil`, a
  /// flag, what only the run knows): most functions' returns are kept by none.
  static func mayMatter(_ key: KeyExpr, _ value: ValueExpr) -> Bool {
    switch value {
    case .dictionary, .array, .call: return true
    case .value(.string), .value(.array), .value(.dictionary): return true
    case .value(.integer), .value(.real): return true
    default: break
    }
    switch key {
    case .runtime: return false
    case .name(let n): return !trivial.contains(n)
    default: return true
    }
  }

  /// Names a function's return never makes a key of.
  static let trivial: Set<String> = [
    "self", "super", "nil", "Nil", "NULL", "YES", "NO", "true", "false",
  ]
}

/// A type's members that its initializers set from their parameters: how an object that keeps
/// a key (`Setting(key:)`, a property wrapper) is followed.
struct TypeMembers: Sendable {
  /// One initializer: its selector (`initWithKey:`, or `Setting(` for Swift, whose calls are
  /// matched by their labels), parameters, labels and types, what each member is set from,
  /// and the receivers its defaulted parameters give.
  struct Initializer: Sendable {
    var selector: String
    var parameters: [String]
    var labels: [String] = []
    var parameterTypes: [String?] = []
    var members: [String: String]
    var defaults: [String: ReceiverRef] = [:]
  }

  /// Each initializer's selector (`initWithKey:defaultValue:`, `Setting(key:fallback:)`) with
  /// its parameters, labels and what each member is set from.
  var initializers: [Initializer] = []
  /// Swift: the stored properties without a value, in order (a struct's memberwise
  /// initializer takes them by name).
  var stored: [String] = []
  /// The declared type of each stored property that says one (`var value: Float`).
  var declared: [String: String] = [:]
  /// The initial value of each property that gives one (`@Published var on = true`).
  var initial: [String: ValueExpr] = [:]
  var isStruct = false
}

/// A type the code declares, as far as storing its values goes: an enum's raw type and cases,
/// what it conforms to.
struct TypeDeclaration: Sendable {
  var kind: String
  var rawType: String?
  var conformances: [String]
  /// An enum's cases and their raw values (the name, for a String enum that writes none).
  var cases: [(name: String, raw: String)] = []
  /// `typealias PluginID = String`: the type it names.
  var aliasOf: String?

  /// One type as two files declare it: its declaration (not an extension, whichever file comes
  /// first), with what an extension elsewhere makes it conform to (`extension P: Codable {}`).
  static func merged(_ a: TypeDeclaration, _ b: TypeDeclaration) -> TypeDeclaration {
    var base = a.kind == "extension" && b.kind != "extension" ? b : a
    let other = a.kind == "extension" && b.kind != "extension" ? a : b
    base.conformances += other.conformances.filter { !base.conformances.contains($0) }
    base.rawType = base.rawType ?? other.rawType
    return base
  }
}

/// What one file says: the constants it defines, the receivers it binds, the uses it makes,
/// the wrappers it declares.
struct FileFacts: Sendable {
  var path: String
  /// Macros and string constants: each name's key.
  var constants: [String: KeyExpr] = [:]
  /// Macros and constants naming values (`#define kDefaultSize 5`).
  var valueConstants: [String: ValueExpr] = [:]
  /// Variables, properties, globals and macros that hold user defaults.
  var receivers: [String: ReceiverRef] = [:]
  /// Declared types of properties, ivars and globals (`Settings *settings`).
  var types: [String: String] = [:]
  /// Classes and their superclasses; categories of a class (`NSUserDefaults (App)`).
  var superclasses: [String: String] = [:]
  /// Swift types that write their own `encode(to:)`: their JSON is not their raw value.
  var customEncoded: Set<String> = []
  /// Keys a dictionary maps to the class their values must have (`@{kURL: [NSString class]}`
  /// a member holds, its keys read in a loop): the type of a key no getter types.
  var keyClasses: [(key: KeyExpr, type: MigrationPlan.ValueType)] = []
  /// Accesses of the properties of an extension of UserDefaults the third read asks for.
  var propertyAccesses: [PropertyAccess] = []
  /// Swift protocols the file declares (a key one of its static requirements holds is each
  /// conforming type's own).
  var protocols: Set<String> = []
  var uses: [SourceUse] = []
  var wrappers: [SourceWrapper] = []
  var wrapperCalls: [WrapperCall] = []
  /// Bundle resources the code registers as defaults (`Defaults.plist`), with the use that
  /// registered them.
  var registeredFiles: [(name: String, use: SourceUse)] = []
  var warnings: [ScanWarning] = []
  var encoding: String = "UTF-8"
  /// Function-like macros (`#define KEY(x) …`), expanded by ``Preprocessor``; and the files
  /// this one includes (`#import "Keys.h"`), whose macros it sees first.
  var functionMacros: [String: FunctionMacro] = [:]
  var includes: [String] = []
  /// What each function returns, by its selector (only those a key or a registration calls,
  /// worked out on a second read); and every function that returns something.
  var returns: [String: [FunctionReturn]] = [:]
  var returnsDefined: Set<String> = []
  /// Computed properties whose value only the run knows (`Type.name` of `var appGroup:
  /// String { infoPlistValue(forKey: Keys.appGroup) }`).
  var runtimeMembers: Set<String> = []
  /// `private` and `fileprivate` constants of a type (`UserDefaults.defaultKey`): this file's.
  var privateConstants: Set<String> = []
  /// Objective-C getter methods an implementation writes (`Class.name`): a `@dynamic`
  /// property with one is not made at run time.
  var gettersDefined: Set<String> = []

  /// The functions its keys and values call (whose returns the model needs).
  var calls: Set<String> {
    var found: Set<String> = []
    for use in uses {
      found.formUnion(use.key.calls)
      if let value = use.value { found.formUnion(value.calls) }
    }
    for wrapper in wrappers {
      found.formUnion(wrapper.use.key.calls)
      if let value = wrapper.use.value { found.formUnion(value.calls) }
    }
    for call in wrapperCalls {
      for argument in call.arguments { if let argument { found.formUnion(argument.calls) } }
    }
    for c in constants.values { found.formUnion(c.calls) }
    for v in valueConstants.values { found.formUnion(v.calls) }
    for list in returns.values {
      for r in list { found.formUnion(r.key.calls + r.value.calls) }
    }
    return found
  }
  /// Objective-C: each class's declared properties and their types (`@property BOOL on;`),
  /// and the properties an implementation makes `@dynamic` (PAPreferences keeps those in user
  /// defaults).
  var objcProperties: [String: [String: String]] = [:]
  /// Swift: a function whose body is a `switch` on its parameter, what each case returns
  /// (`default` for the rest), by the function's selector.
  var switchReturns: [String: [String: ValueExpr]] = [:]
  /// A subclass of UserDefaults whose `convenience init()` makes it for a suite
  /// (`self.init(suiteName: Self.suiteName)`): the suite its own methods read, by class.
  var subclassSuites: [String: KeyExpr] = [:]
  var dynamicProperties: [(className: String, name: String, line: Int)] = []
  /// Swift: functions called when a marker key is absent (`if d.object(forKey: K) == nil {
  /// saveOptions() }`, the app's first launch), by name; and the functions of its own type
  /// each function calls (`saveOptions` calls `save`), by name.
  var seedCalls: Set<String> = []
  var callees: [String: Set<String>] = [:]
  /// Swift: the user defaults a call gives a function's parameter (`save(to: suite)`), by
  /// ``SwiftReader/parameterName(_:_:)`` (a suite wins over the standard domain).
  var argumentReceivers: [String: ReceiverRef] = [:]
  /// Swift: constants a type's initializer makes (`static let tips = PreferenceKey("k",
  /// default: true)`), by name: the model gives each member that initializer sets from a
  /// parameter the call's argument (`Preferences.tips.name` is "k").
  var objectConstants: [String: ObjectConstant] = [:]
  /// Swift: an initializer of an extension of `AppStorage` taking such an object (`init(_ key:
  /// PreferenceKey<Value>) { self.init(wrappedValue: key.defaultValue, key.name) }`): the
  /// member naming the key, and the one giving the default.
  var appStorageAdapters: [AppStorageAdapter] = []
  var members: [String: TypeMembers] = [:]
  var declarations: [String: TypeDeclaration] = [:]

  init(path: String) { self.path = path }
}

/// A constant a type's initializer makes (see ``FileFacts/objectConstants``).
struct ObjectConstant: Sendable {
  var type: String
  var labels: [String]
  var keys: [KeyExpr]
  var values: [ValueExpr]
  /// Each argument as user defaults, where it names them (`Storage(defaults: .standard)`).
  var receivers: [ReceiverRef?] = []
}

/// See ``FileFacts/appStorageAdapters``.
struct AppStorageAdapter: Sendable, Hashable {
  var key: String
  var value: String?
}

/// `UserDefaults.shared.isLogging`: a property of an extension of UserDefaults read on the
/// user defaults its receiver names.
struct PropertyAccess: Sendable {
  var name: String
  var receiver: ReceiverRef
  /// The type the access is written in, whose member the receiver may be.
  var owner: String?
  var file = 0
  var line: Int
}
