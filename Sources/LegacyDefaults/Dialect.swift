import Foundation
import PropertyList

/// Whose `NSUserDefaults` getters decide what a stored value meant. The three real
/// implementations disagree on loose values (`"YES"`, `" 12"`, a real read as an integer), so
/// every typed read names one.
public enum Dialect: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Apple's documented behaviour (iOS and macOS), as tabled in the defaults-semantics spec.
  case apple
  /// GNUstep Base 1.28.
  case gnustep
  /// swift-corelibs-foundation's `UserDefaults` on Linux.
  case corelibs

  public var description: String { rawValue }

  // MARK: - Typed getters

  /// What `boolForKey:` returned for `value` (nil: the key is absent).
  public func bool(_ value: PlistValue?) -> Bool {
    guard let value else { return false }
    switch value {
    case .bool(let b): return b
    case .integer(let i): return i != 0
    case .unsignedInteger(let u): return u != 0
    case .real(let d): return d != 0 || d.isNaN
    case .string(let s): return boolOfString(s)
    case .date, .data, .array, .dictionary, .uid: return false
    }
  }

  /// What `integerForKey:` returned.
  public func integer(_ value: PlistValue?) -> Int {
    guard let value else { return 0 }
    switch value {
    case .bool(let b): return b ? 1 : 0
    case .integer(let i): return Int(i)
    case .unsignedInteger(let u): return u > UInt64(Int.max) ? .max : Int(u)
    case .real(let d): return NumberText.clampedInteger(d)
    case .string(let s): return integerOfString(s)
    case .date, .data, .array, .dictionary, .uid: return 0
    }
  }

  /// What `doubleForKey:` returned.
  public func double(_ value: PlistValue?) -> Double {
    guard let value else { return 0 }
    switch value {
    case .bool(let b): return b ? 1 : 0
    case .integer(let i): return Double(i)
    case .unsignedInteger(let u): return Double(u)
    case .real(let d): return d
    case .string(let s): return doubleOfString(s)
    case .date, .data, .array, .dictionary, .uid: return 0
    }
  }

  /// What `floatForKey:` returned.
  public func float(_ value: PlistValue?) -> Float { Float(double(value)) }

  /// What `stringForKey:` returned.
  public func string(_ value: PlistValue?) -> String? {
    guard let value else { return nil }
    switch value {
    case .string(let s): return s
    case .bool(let b): return b ? "1" : "0"
    case .integer(let i): return String(i)
    case .unsignedInteger(let u): return String(u)
    case .real(let d): return NumberText.appleDescription(d)
    case .date, .data, .array, .dictionary, .uid: return nil
    }
  }

  /// What `arrayForKey:` returned: the array, else nil.
  public func array(_ value: PlistValue?) -> [PlistValue]? { value?.arrayValue }

  /// What `dictionaryForKey:` returned: the dictionary, else nil.
  public func dictionary(_ value: PlistValue?) -> [String: PlistValue]? { value?.dictionaryValue }

  /// What `dataForKey:` returned: the data, else nil.
  public func data(_ value: PlistValue?) -> Data? {
    if case .data(let d)? = value { return d }
    return nil
  }

  /// What `objectForKey:` gave as a date: the date, else nil.
  public func date(_ value: PlistValue?) -> Date? {
    if case .date(let d)? = value { return d }
    return nil
  }

  /// What `stringArrayForKey:` returned: the array when every element is a string.
  public func stringArray(_ value: PlistValue?) -> [String]? {
    guard case .array(let elements)? = value else { return nil }
    var strings: [String] = []
    strings.reserveCapacity(elements.count)
    for element in elements {
      guard case .string(let s) = element else { return nil }
      strings.append(s)
    }
    return strings
  }

  /// What `URLForKey:` returned: a string is a file URL of the path with `~` expanded; data
  /// holding a keyed-archived `NSURL` is that URL; anything else nil (never a trap).
  public func url(_ value: PlistValue?, home: String? = nil) -> URL? {
    switch value {
    case .string(let s)?: return URL(fileURLWithPath: PathText.expandingTilde(s, home: home))
    case .data(let d)?: return KeyedArchiveURL.decode(d)
    default: return nil
    }
  }

  // MARK: - Strings, per dialect

  func boolOfString(_ s: String) -> Bool {
    switch self {
    case .apple, .gnustep, .corelibs:
      if s == "YES" { return true }
      switch s.lowercased() {
      case "yes", "y", "true": return true
      default: return NumberText.appleInteger(s) != 0
      }
    }
  }

  func integerOfString(_ s: String) -> Int {
    NumberText.appleInteger(s)
  }

  func doubleOfString(_ s: String) -> Double {
    NumberText.appleDouble(s)
  }
}

/// `~` expansion for paths read from defaults.
enum PathText {
  /// `~` and `~/…` become the home folder; `~user/…` that user's home when the user exists;
  /// anything else is unchanged.
  static func expandingTilde(_ path: String, home: String? = nil) -> String {
    guard path.hasPrefix("~") else { return path }
    let rest = path.dropFirst()
    let slash = rest.firstIndex(of: "/") ?? rest.endIndex
    let user = rest[..<slash]
    let tail = rest[slash...]
    let base: String?
    if user.isEmpty {
      base = home ?? ProcessInfo.processInfo.environment["HOME"] ?? homeOf(user: nil)
    } else {
      base = homeOf(user: String(user))
    }
    guard var expanded = base else { return path }
    while expanded.count > 1, expanded.hasSuffix("/") { expanded.removeLast() }
    return expanded + tail
  }

  static func homeOf(user: String?) -> String? {
    let entry = user.map { getpwnam($0) } ?? getpwuid(getuid())
    guard let entry, let dir = entry.pointee.pw_dir else { return nil }
    return String(cString: dir)
  }
}
