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

  /// `self` with every `.name(n)` that `substitute` answers for replaced.
  func substituting(_ substitute: (String) -> KeyExpr?) -> KeyExpr {
    switch self {
    case .literal, .runtime: return self
    case .name(let n): return substitute(n) ?? self
    case .concat(let parts): return .concat(parts.map { $0.substituting(substitute) })
    }
  }

  var names: [String] {
    switch self {
    case .literal, .runtime: []
    case .name(let n): [n]
    case .concat(let parts): parts.flatMap(\.names)
    }
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
}

struct ValueEntry: Sendable, Hashable {
  var key: KeyExpr
  var value: ValueExpr
}

/// What the code calls a key's methods on.
enum ReceiverRef: Sendable, Hashable {
  /// `[NSUserDefaults standardUserDefaults]`, `UserDefaults.standard`, the shared user
  /// defaults controller.
  case standard
  /// `initWithSuiteName:`, `UserDefaults(suiteName:)`.
  case suite(KeyExpr)
  /// A variable, property, global or macro, looked up in the file, then in the tree.
  case name(String)
  /// An instance or the class of a type (`[Settings shared]`, `Settings *s`, `self` in a
  /// class): user defaults when the type is `NSUserDefaults`, a subclass or a wrapper.
  case type(String)
  case none
}

/// How a key is used at one place.
enum KeyAccess: String, Sendable, Hashable {
  case get, set, remove, observe, bind, register, settings, presence
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
}

/// A method or function that takes the key as a parameter and passes it to a getter or a
/// setter: each call of it with a constant key is a use of that key.
struct SourceWrapper: Sendable {
  /// The Objective-C selector (`boolForKey:defaultValue:`) or the Swift name with its
  /// labels (`bool(forKey:)`, `value(_:)`).
  var selector: String
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
}

/// A call of a wrapper found in the tree.
struct WrapperCall: Sendable {
  var selector: String
  var receiver: ReceiverRef
  var arguments: [KeyExpr?]
  var values: [ValueExpr?]
  var name: String?
  var condition: String?
  var file: Int = 0
  var line: Int
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
  var uses: [SourceUse] = []
  var wrappers: [SourceWrapper] = []
  var wrapperCalls: [WrapperCall] = []
  /// Bundle resources the code registers as defaults (`Defaults.plist`), with the use that
  /// registered them.
  var registeredFiles: [(name: String, use: SourceUse)] = []
  var warnings: [ScanWarning] = []
  var encoding: String = "UTF-8"

  init(path: String) { self.path = path }
}
