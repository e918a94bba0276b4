import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The getters, setters and other methods of `NSUserDefaults` (Objective-C selectors) and
/// `UserDefaults` (Swift names), and what each says of the key's type.
enum DefaultsAPI {
  struct Method {
    var access: KeyAccess
    var type: MigrationPlan.ValueType?
    /// The argument that is the key, and the one that is the value set.
    var key: Int
    var value: Int?
    /// `objectForKey:`: the type comes from what the code does with the result.
    var refinable = false
  }

  static let objc: [String: Method] = [
    "objectForKey:": Method(access: .get, type: nil, key: 0, refinable: true),
    "valueForKey:": Method(access: .get, type: nil, key: 0, refinable: true),
    "boolForKey:": Method(access: .get, type: .bool, key: 0),
    "integerForKey:": Method(access: .get, type: .integer, key: 0),
    "floatForKey:": Method(access: .get, type: .double, key: 0),
    "doubleForKey:": Method(access: .get, type: .double, key: 0),
    "stringForKey:": Method(access: .get, type: .string, key: 0, refinable: true),
    "stringArrayForKey:": Method(access: .get, type: .stringArray, key: 0),
    "arrayForKey:": Method(access: .get, type: .array, key: 0, refinable: true),
    "dictionaryForKey:": Method(access: .get, type: .dictionary, key: 0),
    "dataForKey:": Method(access: .get, type: .data, key: 0, refinable: true),
    "URLForKey:": Method(access: .get, type: .url, key: 0),
    "setObject:forKey:": Method(access: .set, type: nil, key: 1, value: 0),
    "setValue:forKey:": Method(access: .set, type: nil, key: 1, value: 0),
    "setBool:forKey:": Method(access: .set, type: .bool, key: 1, value: 0),
    "setInteger:forKey:": Method(access: .set, type: .integer, key: 1, value: 0),
    "setFloat:forKey:": Method(access: .set, type: .double, key: 1, value: 0),
    "setDouble:forKey:": Method(access: .set, type: .double, key: 1, value: 0),
    "setURL:forKey:": Method(access: .set, type: .url, key: 1, value: 0),
    "removeObjectForKey:": Method(access: .remove, type: nil, key: 0),
    "addObserver:forKeyPath:options:context:": Method(access: .observe, type: nil, key: 1),
    "removeObserver:forKeyPath:": Method(access: .observe, type: nil, key: 1),
    "removeObserver:forKeyPath:context:": Method(access: .observe, type: nil, key: 1),
  ]

  static let swift: [String: Method] = [
    "object(forKey:)": Method(access: .get, type: nil, key: 0, refinable: true),
    "value(forKey:)": Method(access: .get, type: nil, key: 0, refinable: true),
    "bool(forKey:)": Method(access: .get, type: .bool, key: 0),
    "integer(forKey:)": Method(access: .get, type: .integer, key: 0),
    "float(forKey:)": Method(access: .get, type: .double, key: 0),
    "double(forKey:)": Method(access: .get, type: .double, key: 0),
    "string(forKey:)": Method(access: .get, type: .string, key: 0, refinable: true),
    "stringArray(forKey:)": Method(access: .get, type: .stringArray, key: 0),
    "array(forKey:)": Method(access: .get, type: .array, key: 0, refinable: true),
    "dictionary(forKey:)": Method(access: .get, type: .dictionary, key: 0),
    "data(forKey:)": Method(access: .get, type: .data, key: 0, refinable: true),
    "url(forKey:)": Method(access: .get, type: .url, key: 0),
    "set(_:forKey:)": Method(access: .set, type: nil, key: 1, value: 0),
    "setValue(_:forKey:)": Method(access: .set, type: nil, key: 1, value: 0),
    "removeObject(forKey:)": Method(access: .remove, type: nil, key: 0),
    "addObserver(_:forKeyPath:options:context:)": Method(access: .observe, type: nil, key: 1),
    "removeObserver(_:forKeyPath:)": Method(access: .observe, type: nil, key: 1),
    "removeObserver(_:forKeyPath:context:)": Method(access: .observe, type: nil, key: 1),
  ]

  /// The getters whose answer is nil for an absent key: a test of it for nil is a test of
  /// presence.
  static let presenceGetters: Set<String> = [
    "objectForKey:", "valueForKey:", "stringForKey:", "arrayForKey:", "dictionaryForKey:",
    "dataForKey:", "stringArrayForKey:", "URLForKey:", "object(forKey:)", "value(forKey:)",
    "string(forKey:)", "array(forKey:)", "dictionary(forKey:)", "data(forKey:)",
    "stringArray(forKey:)", "url(forKey:)",
  ]

  /// The methods only user defaults have (of the classes apps use): a receiver the code does
  /// not say the class of, sent one of these, may be user defaults. `objectForKey:`,
  /// `setObject:forKey:` and their kin are a dictionary's and a cache's too.
  static let defaultsOnly: Set<String> = [
    "boolForKey:", "integerForKey:", "floatForKey:", "doubleForKey:", "stringForKey:",
    "stringArrayForKey:", "arrayForKey:", "dictionaryForKey:", "dataForKey:", "URLForKey:",
    "setBool:forKey:", "setInteger:forKey:", "setFloat:forKey:", "setDouble:forKey:",
    "setURL:forKey:", "registerDefaults:",
    "bool(forKey:)", "integer(forKey:)", "float(forKey:)", "double(forKey:)", "string(forKey:)",
    "stringArray(forKey:)", "array(forKey:)", "dictionary(forKey:)", "data(forKey:)",
    "url(forKey:)", "set(_:forKey:)", "register(defaults:)",
  ]

  /// Whether a use through `receiver` may be one of user defaults: any receiver known to be;
  /// one not known either way when the method is one only user defaults have, or its name
  /// says defaults, preferences, settings or a store.
  static func mayBeDefaults(_ receiver: ReceiverRef, selector: String) -> Bool {
    let text: String
    switch receiver {
    case .unknown(let t): text = t
    case .name(let n): text = n
    case .returned(let type, let method): text = type + "." + method
    default: return true
    }
    if defaultsOnly.contains(selector) { return true }
    return namesDefaults(text)
  }

  /// Whether a name says defaults, preferences, settings, a store or a suite (ASCII letters,
  /// any case).
  static func namesDefaults(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    for word in defaultsWords where bytes.count >= word.count {
      var i = 0
      while i + word.count <= bytes.count {
        var k = 0
        // ASCII letters in either case (`| 0x20` makes a capital small).
        while k < word.count, bytes[i + k] | 0x20 == word[k] { k += 1 }
        if k == word.count { return true }
        i += 1
      }
    }
    return false
  }

  static let defaultsWords: [[UInt8]] = ["default", "pref", "setting", "store", "suite"].map {
    Array($0.utf8)
  }

  /// What a method called on an `objectForKey:` result says of its type.
  static let refiners: [String: MigrationPlan.ValueType] = [
    "boolValue": .bool, "integerValue": .integer, "intValue": .integer, "longValue": .integer,
    "longLongValue": .integer, "unsignedIntegerValue": .integer, "unsignedIntValue": .integer,
    "shortValue": .integer, "unsignedLongValue": .integer, "unsignedLongLongValue": .integer,
    "doubleValue": .double, "floatValue": .double, "int64Value": .integer, "uintValue": .integer,
    "isEqualToString:": .string,
    "lowercaseString": .string, "uppercaseString": .string, "UTF8String": .string,
  ]

  /// Whether a value converted to `type` (`[value floatValue]`) says more than the class the
  /// variable holding an untyped getter's answer was declared with (`NSString *value = [d
  /// objectForKey:K]`): GNUstep apps keep numbers and flags as text (`KnobWidth = "3"`,
  /// `@"YES"`) and read them so; a typed getter's answer (`stringForKey:`) or a cast stays.
  static func converts(_ held: SourceUse, to type: MigrationPlan.ValueType) -> Bool {
    held.type == .string && held.typeReason?.hasPrefix("assigned to ") == true
      && objc[held.method].map { $0.refinable && $0.type == nil } == true
      && [.bool, .integer, .double].contains(type)
  }

  /// A class named in a cast, a declaration or `isKindOfClass:`, as a plan type.
  static func type(ofClass name: String) -> MigrationPlan.ValueType? {
    switch name {
    case "NSString", "NSMutableString", "String", "CFStringRef": .string
    case "NSArray", "NSMutableArray": .array
    case "NSDictionary", "NSMutableDictionary", "CFDictionaryRef": .dictionary
    case "NSData", "NSMutableData", "Data", "CFDataRef": .data
    case "NSDate", "Date", "CFDateRef": .date
    case "Bool", "BOOL": .bool
    case "Int", "NSInteger", "Int64", "Int32", "UInt", "NSUInteger", "int", "long": .integer
    case "Double", "CGFloat", "Float", "double", "float", "TimeInterval": .double
    case "URL", "NSURL": .url
    case "[String]", "Array<String>": .stringArray
    default:
      if name.hasPrefix("[") {
        Self.isDictionaryType(name) ? .dictionary : .array
      } else if name.hasPrefix("Array<") || name.hasPrefix("Set<") {
        .array
      } else if name.hasPrefix("Dictionary<") {
        .dictionary
      } else {
        nil
      }
    }
  }

  /// `[String: Any]` is a dictionary, `[[String: Any]]` an array (of dictionaries): a colon
  /// inside the outer brackets only.
  static func isDictionaryType(_ name: String) -> Bool {
    var depth = 0
    for c in name.utf8 {
      switch c {
      case UInt8(ascii: "["), UInt8(ascii: "<"), UInt8(ascii: "("): depth += 1
      case UInt8(ascii: "]"), UInt8(ascii: ">"), UInt8(ascii: ")"): depth -= 1
      case UInt8(ascii: ":") where depth == 1: return true
      default: break
      }
    }
    return false
  }

  /// Words in a condition around a default that make it depend on the run, not the code.
  static let conditionWords: Set<String> = [
    "systemVersion", "@available", "#available", "NSAppKitVersionNumber", "NSLocale",
    "preferredLanguages", "currentLocale", "Locale", "userInterfaceIdiom",
    "operatingSystemVersion", "isOperatingSystemAtLeastVersion", "UIDevice", "DEBUG",
    "NSFoundationVersionNumber", "kCFCoreFoundationVersionNumber",
  ]
}

extension ValueExpr {
  /// The type a value written to a key gives it (nil when the code does not say).
  var type: MigrationPlan.ValueType? {
    switch self {
    case .value(let v):
      switch v {
      case .bool: return .bool
      case .integer, .unsignedInteger: return .integer
      case .real: return .double
      case .string: return .string
      case .data: return .data
      case .date: return .date
      case .array(let a):
        return a.allSatisfy { $0.stringValue != nil } && !a.isEmpty ? .stringArray : .array
      case .dictionary: return .dictionary
      case .uid: return nil
      }
    case .name, .call: return nil
    case .computed(_, let type): return type
    case .converted(_, let type, _): return type
    case .array(let items):
      let strings = items.allSatisfy {
        if case .value(.string) = $0 { return true }
        return false
      }
      return strings && !items.isEmpty ? .stringArray : .array
    case .dictionary: return .dictionary
    }
  }
}
