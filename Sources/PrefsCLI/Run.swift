import PrefsTools
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

/// What one run of the command works with: where domain names resolve (`--layout`) and how
/// they reach `UserDefaults`.
enum Run {
  /// What the options before the verb, and the caller, set for one run.
  struct Settings: Sendable {
    /// The layout `prefs --layout gnustep|xdg|macos VERB …` chose (nil: the platform's).
    var layout: DefaultsPlatform?
    /// How domain names reach `UserDefaults` (none in the Linux command).
    var userDefaults: UserDefaultsAccess? = .platform
    /// Whose domains domain names name (`defaults -currentHost`, `-host NAME`).
    var host: HostScope = .any
    /// `prefs --lock-timeout SECONDS VERB …` (nil: not given).
    var lockTimeout: Double?
  }

  /// This run's settings: one task-local value, so that each run in a process (the tests
  /// start many at once) has its own. One value rather than one a setting: every task-local
  /// type costs a generic class's metadata at the first read, and `read` read four.
  @TaskLocal static var settings = Settings()

  /// Runs `body` with this run's settings changed by `change`.
  static func with<T>(_ change: (inout Settings) -> Void, _ body: () -> T) -> T {
    var changed = settings
    change(&changed)
    return $settings.withValue(changed, operation: body)
  }

  static var layout: DefaultsPlatform? { settings.layout }
  static var userDefaults: UserDefaultsAccess? { settings.userDefaults }
  static var host: HostScope { settings.host }
  static var lockTimeout: Double? { settings.lockTimeout }

  /// How long `migrate`, and every write of a run as root, waits for a domain's lock unless
  /// told otherwise: long enough for any app's synchronize (milliseconds), short enough that a
  /// lock a user holds on purpose never stalls an administrator's run.
  static let defaultLockTimeout = 10.0

  /// How long a write of this run waits for a domain's lock: as `--lock-timeout` says; else
  /// ``defaultLockTimeout`` for `migrate` and for a run as root; else as long as it takes (a
  /// user's own command waits for its own app).
  static func lockWait(migrating: Bool = false) -> Double? {
    lockTimeout ?? (migrating || ToolProcess.isPrivileged ? defaultLockTimeout : nil)
  }

  /// The layouts `--layout` takes.
  static let layouts: [(word: String, platform: DefaultsPlatform)] = [
    ("xdg", .linux), ("linux", .linux), ("macos", .macOS), ("gnustep", .gnustep),
  ]

  /// The environment (read when a verb needs it: it is not read at every start).
  static func environment() -> [String: String] { ProcessInfo.processInfo.environment }

  /// The resolver of FILE|DOMAIN words for this run. (Its locator is given the variables it
  /// and the resolver read, each read alone: made only for a verb that names a file or a
  /// domain.)
  static func resolver() -> DomainResolver { resolver(lockTimeout: lockWait()) }

  /// The resolver of this run, its writes waiting `lockTimeout` for a lock.
  static func resolver(lockTimeout: Double?) -> DomainResolver {
    DomainResolver {
      DomainResolver.Settings(
        layout: layout, userDefaults: userDefaults, host: host, lockTimeout: lockTimeout)
    }
  }

  /// The domain a FILE|DOMAIN word names, to read and change.
  static func editor(_ word: String) throws(CommandFailure) -> DomainEditor {
    let resolver = resolver()
    return DomainEditor(
      try attempt { () throws(ToolError) in try resolver.domain(word) }, resolver: resolver)
  }

  /// A FILE word as a path (`-`: standard input, for the verbs that read one).
  static func path(_ word: String) throws(CommandFailure) -> String {
    if word == "-" { return word }
    let resolver = resolver()
    return try attempt { () throws(ToolError) in try resolver.path(word) }
  }

  /// The bytes of `word` (a path, a domain, or `-`) and its path. A domain that does not
  /// exist, beside a file of that name in the current folder, says how to name the file (a
  /// domain name never names it), as `read` does.
  static func input(_ word: String) throws(CommandFailure) -> (path: String, input: InputBytes) {
    let path = try path(word)
    do {
      return (path, try InputFile.input(path))
    } catch {
      var failure = CommandFailure(error)
      if case .read(.file(.missing)) = error, let hint = resolver().fileHereHint(forPath: path) {
        failure.message += " (\(hint))"
      }
      throw failure
    }
  }
}

/// Runs a tool, its failure as the command's.
func attempt<T>(_ body: () throws(ToolError) -> T) throws(CommandFailure) -> T {
  do {
    return try body()
  } catch {
    throw CommandFailure(error)
  }
}

/// The way forward offered with every refusal of a fractional-second date.
enum DatePolicy {
  static let flag = "--truncate-dates"

  /// `message`, with the flag named when it is about a date's fraction of a second.
  static func hint(_ message: String) -> String {
    guard message.contains("fraction of a second") else { return message }
    return message + " (\(flag) writes such dates to the whole second)"
  }

  /// The value with its dates' fractions dropped when `truncating` and `format` is a text
  /// format that holds whole seconds (XML, GNUstep text); else as it is.
  static func apply(_ value: PlistValue, truncating: Bool, format: PlistFormat) -> PlistValue {
    truncating ? DomainEditor.storable(value, in: format) : value
  }
}

extension Console {
  /// Says once each file a change moved aside.
  func report(_ recoveries: [CorruptFileRecovery]) {
    for recovery in recoveries { message("warning: \(recovery)") }
  }

  /// A document's warnings, naming the file.
  func warn(_ warnings: [PlistWarning], path: String) {
    for warning in warnings { message("\(path): warning: \(warning)") }
  }
}
