import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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
    switch number(value) {
    case .bool(let b): return b
    case .integer(let i): return i != 0
    case .unsigned(let u): return u != 0
    case .real(let d): return d != 0 || d.isNaN
    case .text(let s):
      switch self {
      case .apple: return NumberText.appleBool(s)
      case .gnustep: return NumberText.gnustepBool(s)
      case .corelibs: return NumberText.corelibsBool(s)
      }
    case .none: return false
    }
  }

  /// What `integerForKey:` returned.
  public func integer(_ value: PlistValue?) -> Int {
    guard let value else { return 0 }
    switch number(value) {
    case .bool(let b): return b ? 1 : 0
    case .integer(let i): return i
    case .unsigned: return .max
    case .real(let d):
      // Apple clamps and reads NaN as 0; GNUstep and corelibs use the x86-64 conversion,
      // which gives Int64.min for NaN, infinities and everything outside [-2^63, 2^63).
      return self == .apple ? NumberText.clampedInteger(d) : NumberText.x86Integer(d)
    case .text(let s):
      switch self {
      case .apple: return NumberText.appleInteger(s)
      case .gnustep: return NumberText.gnustepInteger(s)
      case .corelibs: return NumberText.corelibsInteger(s)
      }
    case .none: return 0
    }
  }

  /// What `doubleForKey:` returned.
  public func double(_ value: PlistValue?) -> Double {
    guard let value else { return 0 }
    switch number(value) {
    case .bool(let b): return b ? 1 : 0
    case .integer(let i): return Double(i)
    case .unsigned(let u): return Double(u)
    case .real(let d): return d
    case .text(let s):
      switch self {
      case .apple: return NumberText.appleDouble(s)
      case .gnustep: return NumberText.gnustepDouble(s)
      case .corelibs: return NumberText.corelibsNumberText(s).flatMap { Double($0) } ?? 0
      }
    case .none: return 0
    }
  }

  /// What `floatForKey:` returned: `Float(double)`, except that corelibs parses a string
  /// straight to `Float` (correctly rounded, not rounded twice).
  public func float(_ value: PlistValue?) -> Float {
    if self == .corelibs, case .string(let s)? = value {
      return NumberText.corelibsNumberText(s).flatMap { Float($0) } ?? 0
    }
    if self == .corelibs, let value, case .integer(let i) = number(value) {
      return Float(i)
    }
    return Float(double(value))
  }

  /// What `stringForKey:` returned.
  public func string(_ value: PlistValue?) -> String? {
    guard let value else { return nil }
    if case .string(let s) = value { return s }
    switch (self, number(value)) {
    case (.gnustep, _): return nil
    case (_, .bool(let b)): return b ? "1" : "0"
    case (_, .integer(let i)): return String(i)
    case (_, .unsigned(let u)): return String(u)
    case (.apple, .real(let d)): return NumberText.appleDescription(d)
    case (_, .real(let d)): return d.description
    default: return nil
    }
  }

  /// A stored value as the getters see it.
  enum Number {
    case bool(Bool)
    case integer(Int)
    /// Above Int64.max.
    case unsigned(UInt64)
    case real(Double)
    case text(String)
    case none
  }

  /// Integers above Int64.max: Apple clamps them to Int.max in `integer` only. GNUstep's XML
  /// reader clamps them to Int64.max before any getter runs (``adopting(_:readFrom:)`` does
  /// that where GNUstep does, when the store reads an XML file), while its typed-text reader
  /// keeps them unsigned: `double` is then the unsigned value, and `integer` clamps (GNUstep
  /// wraps, MIGRATION.md). corelibs reads them (and Int64.max itself) as nothing at all, a
  /// plain bug: prefs reads them as Apple does.
  func number(_ value: PlistValue) -> Number {
    switch value {
    case .bool(let b): .bool(b)
    case .integer(let i): .integer(Int(i))
    case .unsignedInteger(let u) where u <= UInt64(Int.max): .integer(Int(u))
    case .unsignedInteger(let u): .unsigned(u)
    case .real(let d): .real(d)
    case .string(let s): .text(s)
    case .date, .data, .array, .dictionary, .uid: .none
    }
  }

  /// A domain's values as this dialect's reader left them for the getters. GNUstep's XML
  /// reader clamps an integer above Int64.max to Int64.max (so `objectForKey:` sees it clamped
  /// too); its binary and typed-text readers, and the other dialects, keep what the file holds.
  public func adopting(_ values: [String: PlistValue], readFrom format: PlistFormat?)
    -> [String: PlistValue]
  {
    guard self == .gnustep, format == .xml, values.values.contains(where: Self.holdsUnsigned)
    else { return values }
    return values.mapValues(Self.clampingUnsigned)
  }

  private static func holdsUnsigned(_ value: PlistValue) -> Bool {
    switch value {
    case .unsignedInteger(let u): u > UInt64(Int64.max)
    case .array(let a): a.contains(where: holdsUnsigned)
    case .dictionary(let d): d.values.contains(where: holdsUnsigned)
    default: false
    }
  }

  private static func clampingUnsigned(_ value: PlistValue) -> PlistValue {
    switch value {
    case .unsignedInteger(let u) where u > UInt64(Int64.max): .integer(.max)
    case .array(let a): .array(a.map(clampingUnsigned))
    case .dictionary(let d): .dictionary(d.mapValues(clampingUnsigned))
    default: value
    }
  }

  /// What `arrayForKey:` returned: the array, else nil.
  public func array(_ value: PlistValue?) -> [PlistValue]? { value?.arrayValue }

  /// What `dictionaryForKey:` returned: the dictionary, else nil.
  public func dictionary(_ value: PlistValue?) -> [String: PlistValue]? {
    value?.dictionaryValue?.swiftDictionary
  }

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
  /// holding a keyed-archived `NSURL` is that URL; anything else nil (never a trap, where
  /// corelibs traps on data that is not an archive). GNUstep 1.28 has no `URLForKey:`; the
  /// `gnustep` dialect answers as Apple does.
  public func url(_ value: PlistValue?, home: String? = nil) -> URL? {
    switch value {
    case .string(let s)?:
      let base =
        home
        ?? (self == .corelibs
          ? ProcessInfo.processInfo.environment["CFFIXED_USER_HOME"] ?? PathText.homeOf(user: nil)
          : nil)
      return URL(fileURLWithPath: PathText.expandingTilde(s, home: base))
    case .data(let d)?: return KeyedArchiveURL.decode(d)
    default: return nil
    }
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
