import LegacyDefaults
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

/// What a FILE|DOMAIN argument names.
enum Target {
  /// Where domain names resolve: the platform's layout, or the one `--layout` chose for this
  /// run (`prefs --layout gnustep|xdg|macos VERB …`).
  @TaskLocal static var locator = DomainLocator()

  /// How domain names reach `UserDefaults` in this run (none in the Linux command).
  @TaskLocal static var userDefaults: UserDefaultsAccess? = .platform

  /// The layouts `--layout` takes.
  static let layouts: [String: DefaultsPlatform] = [
    "xdg": .linux, "linux": .linux, "macos": .macOS, "gnustep": .gnustep,
  ]

  /// A domain as the `defaults`-style verbs reach it.
  enum Domain {
    /// A file (a path, or a domain name resolved to the platform's folder).
    case file(String)
    /// A `UserDefaults` persistent domain: a domain name on Apple platforms, as `defaults`
    /// reaches it, so that `cfprefsd` sees the change; opened through the run's access.
    case userDefaults(String, UserDefaultsAccess)

    /// The path, or `UserDefaults(name)`, for messages.
    var name: String {
      switch self {
      case .file(let path): path
      case .userDefaults(let domain, _): "UserDefaults(\(domain))"
      }
    }

    func storage() throws(CommandFailure) -> any DefaultsStorage {
      switch self {
      case .file(let path): return DomainFile(url: URL(fileURLWithPath: path))
      case .userDefaults(let domain, let access):
        do {
          return try access.open(domain)
        } catch {
          throw CommandFailure(error)
        }
      }
    }
  }

  /// Turns a FILE|DOMAIN argument into a path, by the one rule every verb and both
  /// personalities follow (``isPath(_:)``): a path is used as written, a domain name is the
  /// file in the preferences folder. (The run's locator is taken only for a domain name: it
  /// reads the whole environment.)
  static func path(_ argument: String, locator: DomainLocator? = nil)
    throws(CommandFailure) -> String
  {
    if isPath(argument) { return expandingHome(argument, locator: locator) }
    do {
      return try (locator ?? Target.locator).url(forDomain: argument).path
    } catch {
      throw CommandFailure(.usage, error.description)
    }
  }

  /// The one rule for a FILE|DOMAIN word: a word with a `/` is a path (absolute, or relative
  /// to the current folder: `./x`, `../x`, `a/b`), and so is a word ending in `.plist`
  /// (`com.x.plist` is that file in the current folder); any other word is a domain name,
  /// in the preferences folder, never a file of the current folder.
  static func isPath(_ argument: String) -> Bool {
    argument.contains("/") || argument.hasSuffix(".plist")
  }

  /// `~/x` (a quoted tilde the shell left) as the home folder's `x`.
  static func expandingHome(_ path: String, locator: DomainLocator? = nil) -> String {
    guard path.hasPrefix("~/"),
      let home = (locator ?? Target.locator).environment["HOME"], !home.isEmpty
    else { return path }
    return home + path.dropFirst()
  }

  /// The failure for a domain that does not exist (`name`: its path, or `UserDefaults(…)`),
  /// with a hint when a file of the domain's name is in the current folder (a domain name
  /// never names it: `./NAME` does).
  static func missingDomain(_ name: String) -> CommandFailure {
    var message = "the domain \(name) does not exist"
    let file = URL(fileURLWithPath: name).lastPathComponent
    if file.hasSuffix(".plist"), isInPreferencesFolder(name) {
      let word = String(file.dropLast(".plist".count))
      if FileManager.default.fileExists(atPath: word) {
        message += " (\(word) in the current folder is a file, not a domain: name it ./\(word))"
      }
    }
    return CommandFailure(.notFound, message)
  }

  /// A FILE|DOMAIN argument of the `defaults`-style verbs (read, read-type, write, delete,
  /// rename, import): a path is a file; a domain name is a `UserDefaults` domain on Apple
  /// platforms (`PREFS_DOMAIN_STORAGE=file` forces the file; elsewhere `=userdefaults` asks for
  /// `UserDefaults`, which only a ``UserDefaultsAccess`` handed to the run provides) and the
  /// file in the platform's folder otherwise.
  static func domain(_ argument: String, locator: DomainLocator? = nil)
    throws(CommandFailure) -> Domain
  {
    guard !isPath(argument) else { return .file(argument) }
    let locator = locator ?? Target.locator
    let choice = locator.environment["PREFS_DOMAIN_STORAGE"]
    let userDefaults =
      choice.map { $0 == "userdefaults" } ?? Target.userDefaults?.isDefault ?? false
    guard userDefaults else { return .file(try path(argument, locator: locator)) }
    guard let access = Target.userDefaults else {
      throw CommandFailure(.usage, UserDefaultsAccess.missing)
    }
    do {
      try DomainLocator.validate(argument)
    } catch {
      throw CommandFailure(.usage, error.description)
    }
    return .userDefaults(argument, access)
  }

  static let dialects: [String: Dialect] = Dictionary(
    uniqueKeysWithValues: Dialect.allCases.map { ($0.rawValue, $0) })

  /// The domain as it is now, read without locking, moving or creating anything: a failing
  /// command leaves the folder exactly as it was.
  static func inspect(_ domain: Domain) throws(CommandFailure) -> DomainSnapshot {
    let storage = try domain.storage()
    do {
      return try storage.load()
    } catch {
      throw CommandFailure(error)
    }
  }

  /// Whether the domain exists: its file, or a `UserDefaults` domain with a key.
  static func exists(_ domain: Domain, _ snapshot: DomainSnapshot) -> Bool {
    switch domain {
    case .file: snapshot.format != nil || snapshot.unreadable != nil
    case .userDefaults: !snapshot.values.isEmpty
    }
  }

  /// The domain's values for a verb that needs them to exist (delete, rename): a missing
  /// domain exits 1, an unparseable file 65, and nothing is touched.
  static func existingDomain(_ domain: Domain) throws(CommandFailure) -> [String: PlistValue] {
    let snapshot = try inspect(domain)
    if let unreadable = snapshot.unreadable {
      throw CommandFailure(.dataError, "\(domain.name) does not parse: \(unreadable.reason)")
    }
    guard exists(domain, snapshot) else {
      throw missingDomain(domain.name)
    }
    return snapshot.values.swiftDictionary
  }

  /// The domain as a document for the verbs that print it: a file as it parses (any top
  /// level, with its format and warnings), a `UserDefaults` domain as its dictionary.
  static func document(_ domain: Domain) throws(CommandFailure) -> PlistDocument {
    switch domain {
    case .file(let path):
      // A domain that does not exist is 1, as for `defaults` (a file verb says 66).
      var info = stat()
      guard lstat(path, &info) == 0 else {
        throw missingDomain(path)
      }
      return try Prefs.load(path)
    case .userDefaults:
      let snapshot = try inspect(domain)
      guard exists(domain, snapshot) else {
        throw missingDomain(domain.name)
      }
      return PlistDocument(value: .dictionary(snapshot.values), format: .binary)
    }
  }

  /// Changes the domain through its one way in (for a file: lock, re-read, change, atomic
  /// write), after a read that refuses a file that is not a domain without locking it. Files
  /// moved aside are reported once. `change` may record a failure and return no change.
  ///
  /// A date with a fraction of a second is refused by XML and GNUstep text files (naming the
  /// key) unless `truncatingDates`, which writes it to the whole second.
  static func update(
    _ domain: Domain, truncatingDates: Bool = false, console: Console,
    _ change: (DomainSnapshot) throws(DefaultsError) -> DomainChanges
  ) throws(CommandFailure) {
    _ = try inspect(domain)
    let storage = try domain.storage()
    let snapshot: DomainSnapshot
    do {
      if case .file(let path) = domain {
        // A domain takes its lock, as every store of it does; a file of the user's elsewhere
        // with no lock beside it is locked too (another prefs writer may be changing it) but
        // leaves no lock file. Only the preferences folder itself is ever created.
        var file = DomainFile(url: URL(fileURLWithPath: path))
        file.locking = isDomain(path) ? .always : .transient
        snapshot = try file.update(
          DomainFile.WriteOptions(
            truncatingDates: truncatingDates, createsFolder: isInPreferencesFolder(path)),
          change)
      } else {
        snapshot = try storage.update(change)
      }
    } catch {
      throw CommandFailure(error)
    }
    for recovery in snapshot.recoveries { console.message("warning: \(recovery)") }
  }
}

extension Target {
  /// Writes a converted or exported file. When the target is a domain (a dictionary in a
  /// property-list format, written where a store keeps a domain: a `<file>.lock` is beside it,
  /// or it is in the platform's preferences folder) it goes through the domain's one way in
  /// (locked, atomic, exactly `data`'s bytes), so a running app's synchronize is not undone.
  /// Any other output (JSON, a top-level array, a file of the user's elsewhere) is replaced
  /// atomically, leaving no lock file behind.
  static func write(
    _ data: Data, to out: String, value: PlistValue, console: Console,
    format: () -> PlistFormat?
  ) throws(CommandFailure) {
    if case .dictionary(let values) = value, let format = format(), isDomain(out) {
      // A domain is a Swift dictionary in the store: two keys that only Unicode
      // normalization tells apart would become one.
      if let (first, second) = values.indistinctKeys {
        throw CommandFailure(DefaultsError.indistinctKeys(path: out, keys: [first, second]))
      }
      do {
        let domain = DomainFile(url: URL(fileURLWithPath: out))
        _ = try domain.read()
        let snapshot = try domain.update(
          DomainFile.WriteOptions(
            format: format, truncatingDates: false, always: true, createsFolder: false)
        ) {
          DomainChanges(replacing: $0.values, with: values)
        }
        for recovery in snapshot.recoveries { console.message("warning: \(recovery)") }
        return
      } catch {
        guard case .notADictionary = error else { throw CommandFailure(error) }
      }
    }
    do {
      try FileAccess.atomicWrite(data, to: out)
    } catch {
      throw CommandFailure(error)
    }
  }
}

extension Target {
  /// Whether a path is a domain some store uses: a lock file beside it, or the platform's
  /// preferences folder holds it. The folder is worked out once, for testing many paths.
  static func domainTest(locator: DomainLocator = Target.locator) -> @Sendable (String) -> Bool {
    let inFolder = preferencesFolderTest(locator: locator)
    return { path in access(path + ".lock", F_OK) == 0 || inFolder(path) }
  }

  /// Whether a path is in the platform's preferences folder. The folder is worked out once.
  static func preferencesFolderTest(locator: DomainLocator = Target.locator)
    -> @Sendable (String) -> Bool
  {
    let folder: String? =
      if case .success(let url) = Result(catching: { () throws(DefaultsError) in
        try locator.folder()
      }) {
        url.standardizedFileURL.path
      } else {
        nil
      }
    return { path in
      guard let folder else { return false }
      return URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent().path
        == folder
    }
  }

  /// Whether `path` is in the platform's preferences folder (the one folder a write creates).
  static func isInPreferencesFolder(_ path: String) -> Bool {
    preferencesFolderTest()(path)
  }

  /// Whether `path` is a domain some store uses (see ``domainTest(locator:)``).
  static func isDomain(_ path: String, locator: DomainLocator = Target.locator) -> Bool {
    domainTest(locator: locator)(path)
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
    truncating ? DomainFile.storable(value, in: format) : value
  }
}

extension CommandFailure {
  /// A store failure with its documented exit code.
  init(_ error: DefaultsError) {
    switch error {
    case .emptyKey, .unsupportedValue, .invalidDomainName, .domainExists:
      self.init(.usage, error.description)
    case .cannotRead: self.init(.noInput, error.description)
    case .notADictionary, .indistinctKeys: self.init(.dataError, error.description)
    case .cannotWrite, .cannotLock: self.init(.cannotCreate, error.description)
    case .cannotEncode: self.init(.dataError, error.description)
    }
  }
}
