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

  /// This dialect's answers where the implementations disagree: the one place a case is
  /// mapped to its rules, so that a new case does not compile without a conformance.
  var rules: any DialectRules.Type {
    switch self {
    case .apple: AppleRules.self
    case .gnustep: GNUstepRules.self
    case .corelibs: CorelibsRules.self
    }
  }

  /// Whose property-list reader this dialect's `NSUserDefaults` reads a domain file with:
  /// CoreFoundation's for `apple` and `corelibs`, GNUstep Base's for `gnustep`.
  public var reader: PlistReader { rules.fileReader }

  /// The options that read a domain file as this dialect's reader reads it: `exact`, refusing
  /// what it refuses (a legacy file a migration carries); otherwise also what only another
  /// reader reads, with a warning (a store's own file, which prefs may have written).
  public func readOptions(exact: Bool) -> PlistReadOptions {
    PlistReadOptions(reader: reader, exact: exact)
  }

  // MARK: - Typed getters

  /// What `boolForKey:` returned for `value` (nil: the key is absent).
  public func bool(_ value: PlistValue?) -> Bool {
    guard let value else { return false }
    switch Self.scalar(value) {
    case .number(.bool(let b)): return b
    case .number(.integer(let i)): return i != 0
    case .number(.unsigned(let u)): return u != 0
    case .number(.real(let d)): return d != 0 || d.isNaN
    case .text(let s): return rules.bool(text: s)
    case .none: return false
    }
  }

  /// What `integerForKey:` returned.
  public func integer(_ value: PlistValue?) -> Int {
    guard let value else { return 0 }
    switch Self.scalar(value) {
    case .number(.bool(let b)): return b ? 1 : 0
    case .number(.integer(let i)): return i
    case .number(.unsigned): return .max
    case .number(.real(let d)): return rules.integer(real: d)
    case .text(let s): return rules.integer(text: s)?.value ?? 0
    case .none: return 0
    }
  }

  /// What `doubleForKey:` returned.
  public func double(_ value: PlistValue?) -> Double {
    guard let value else { return 0 }
    switch Self.scalar(value) {
    case .number(.bool(let b)): return b ? 1 : 0
    case .number(.integer(let i)): return Double(i)
    case .number(.unsigned(let u)): return Double(u)
    case .number(.real(let d)): return d
    case .text(let s): return rules.double(text: s)?.value ?? 0
    case .none: return 0
    }
  }

  /// What `floatForKey:` returned: `Float(double)`, except where a dialect converts an integer
  /// or parses a string straight to `Float` (corelibs: correctly rounded, not rounded twice).
  public func float(_ value: PlistValue?) -> Float {
    guard let value else { return 0 }
    switch Self.scalar(value) {
    case .number(.integer(let i)): return rules.float(integer: i)
    case .text(let s): return rules.float(text: s) ?? 0
    case .number(.bool), .number(.unsigned), .number(.real), .none: return Float(double(value))
    }
  }

  /// What `stringForKey:` returned.
  public func string(_ value: PlistValue?) -> String? {
    guard let value else { return nil }
    switch Self.scalar(value) {
    case .text(let s): return s
    case .number(let n): return rules.string(number: n)
    case .none: return nil
    }
  }

  /// What this dialect's getters make of a stored string, for telling what an app that stored
  /// it meant (plan inference): `boolForKey:`'s answer, and the numbers `integerForKey:` and
  /// `doubleForKey:` read with where their parsers stopped, nil where the parser took no digit
  /// (the getter answered 0).
  package struct TextReading: Sendable {
    package var bool: Bool
    package var integer: ParsedNumber<Int>?
    package var double: ParsedNumber<Double>?
  }

  package func reading(text: String) -> TextReading {
    let rules = self.rules
    return TextReading(
      bool: rules.bool(text: text), integer: rules.integer(text: text),
      double: rules.double(text: text))
  }

  /// A stored number as the getters see it.
  enum Number {
    case bool(Bool)
    case integer(Int)
    /// Above Int64.max.
    case unsigned(UInt64)
    case real(Double)
  }

  /// A stored value as the number and string getters see it.
  enum Scalar {
    case number(Number)
    case text(String)
    /// A date, data, array or dictionary: no number and no string.
    case none
  }

  /// Integers above Int64.max: Apple clamps them to Int.max in `integer` only. GNUstep's XML
  /// reader clamps them to Int64.max before any getter runs (``adopting(_:readFrom:)`` does
  /// that where GNUstep does, when the store reads an XML file), while its typed-text reader
  /// keeps them unsigned: `double` is then the unsigned value, and `integer` clamps (GNUstep
  /// wraps, Docs/compatibility.md). corelibs reads them (and Int64.max itself) as nothing at all, a
  /// plain bug: prefs reads them as Apple does.
  static func scalar(_ value: PlistValue) -> Scalar {
    switch value {
    case .bool(let b): .number(.bool(b))
    case .integer(let i): .number(.integer(Int(i)))
    case .unsignedInteger(let u) where u <= UInt64(Int.max): .number(.integer(Int(u)))
    case .unsignedInteger(let u): .number(.unsigned(u))
    case .real(let d): .number(.real(d))
    case .string(let s): .text(s)
    case .date, .data, .array, .dictionary, .uid: .none
    }
  }

  /// A domain's values as this dialect's reader left them for the getters. GNUstep's XML
  /// reader clamps an integer above Int64.max to Int64.max (so `objectForKey:` sees it clamped
  /// too); its binary and typed-text readers, and the other dialects, keep what the file holds.
  package func adopting(_ values: PlistDictionary, readFrom format: PlistFormat?)
    -> PlistDictionary
  {
    rules.adopting(values, readFrom: format)
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
  /// `gnustep` dialect answers as Apple does. `~` is `home`, else the folder named by the
  /// environment variable the dialect reads for it (`homeVariable` of its rules).
  public func url(_ value: PlistValue?, home: String? = nil) -> URL? {
    switch value {
    case .string(let s)?:
      guard s.utf8.first == UInt8(ascii: "~") else { return URL(fileURLWithPath: s) }
      let base =
        home ?? ProcessInfo.processInfo.environment[rules.homeVariable]
        ?? PathText.homeOf(user: nil)
      // `stringByExpandingTildeInPath`: `~`, `~/…` the home folder, `~user/…` that user's;
      // a tilde that names no home (no such user, no home at all) stays as written, a name in
      // the current folder (`file://<cwd>/~nosuchuser/x`, Apple's answer). Never `URL`'s own
      // expansion, which asks the user database through the name service switch.
      return URL(fileURLWithPath: PathText.expandingTildeForURL(s, home: base))
    case .data(let d)?: return KeyedArchiveURL.decode(d)
    default: return nil
    }
  }
}

/// `~` expansion for paths read from defaults.
package enum PathText {
  /// `base` and `component` joined by one `/` (`base`'s trailing slashes dropped, as `URL`'s
  /// `appendingPathComponent` drops them); `base` alone when `component` is empty.
  package static func joined(_ base: String, _ component: String) -> String {
    var base = base
    while base.utf8.count > 1, base.utf8.last == UInt8(ascii: "/") { base.removeLast() }
    guard !component.isEmpty else { return base }
    return base == "/" ? "/" + component : base + "/" + component
  }

  /// `path` with a leading `~` expanded (``expandingTilde(_:home:)``) and, when it still
  /// begins with `~` (no such user, no home), `./` before it: a path `URL(fileURLWithPath:)`
  /// takes as written, a name in the current folder, never one it expands itself through the
  /// user database. (Bytes: `~` followed by a combining mark is still a leading `~` to `URL`.)
  package static func expandingTildeForURL(_ path: String, home: String? = nil) -> String {
    guard path.utf8.first == UInt8(ascii: "~") else { return path }
    let expanded = expandingTilde(path, home: home)
    return expanded.utf8.first == UInt8(ascii: "~") ? "./" + path : expanded
  }

  /// A file URL of `path` that Foundation never expands (``expandingTildeForURL(_:home:)``
  /// first, with no home given: a `~` of a path from the environment or a file).
  package static func fileURL(_ path: String, isDirectory: Bool) -> URL {
    let safe = path.utf8.first == UInt8(ascii: "~") ? "./" + path : path
    return URL(fileURLWithPath: safe, isDirectory: isDirectory)
  }

  /// `~` and `~/…` become the home folder; `~user/…` that user's home when the user exists;
  /// anything else is unchanged.
  static func expandingTilde(_ path: String, home: String? = nil) -> String {
    // Split by bytes: `~` and a combining mark after it are one `Character`, two bytes.
    let bytes = path.utf8
    guard bytes.first == UInt8(ascii: "~") else { return path }
    let afterTilde = bytes.index(after: bytes.startIndex)
    let slash = bytes[afterTilde...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
    let user = path[afterTilde..<slash]
    let tail = path[slash...]
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

  /// The home folder of `user` (nil: of this process's real user). Outside Apple platforms,
  /// from the local user database read as the file it is, else from the system's lookup
  /// through `/usr/bin/getent` (``Accounts``), never through the name service switch in this
  /// process: a statically linked glibc prefs that asked NSS would load its modules
  /// (`libnss_systemd`, and a second C library with it) and crash on a user the file does not
  /// hold. A lookup that fails is noted (``Accounts/note(_:)``: the command reports it) and
  /// gives no home. On Apple platforms (users in Open Directory, never a static executable)
  /// the system's lookup answers.
  package static func homeOf(user: String?) -> String? {
    #if canImport(Darwin)
      let entry = user.map { getpwnam($0) } ?? getpwuid(getuid())
      guard let entry, let dir = entry.pointee.pw_dir else { return nil }
      return String(cString: dir)
    #else
      do throws(Accounts.Failure) {
        let entry: Accounts.User?
        if let user {
          entry = try Accounts.user(named: user)
        } else {
          entry = try Accounts.user(uid: getuid())
        }
        guard let home = entry?.home, !home.isEmpty else { return nil }
        return home
      } catch {
        // Noted, and reported by the command; the caller says what it does without a home.
        Accounts.note(error)
        return nil
      }
    #endif
  }
}
