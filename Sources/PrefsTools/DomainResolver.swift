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

/// What a FILE|DOMAIN word of the command names, by one rule for every verb and the
/// `defaults` personality (`plutil` takes paths only, as plutil does), and how a domain is
/// reached and written.
///
/// The rule: a word with a `/` is a path (absolute, or relative to the current folder: `./x`,
/// `../x`, `a/b`), and so is a word ending in `.plist` (`com.x.plist` is that file in the
/// current folder); any other word is a domain name, in the preferences folder of
/// ``locator``, never a file of the current folder.
package struct DomainResolver: Sendable {
  /// Where domain names resolve, how they reach `UserDefaults` and whose they are, worked out
  /// when first needed: a path needs none of it, so a command naming a file reads neither the
  /// environment nor the run's settings.
  private let source: Source

  /// Where domain names resolve.
  package var locator: DomainLocator { source.resolved.locator }
  /// How domain names reach `UserDefaults` (none in the Linux command).
  package var userDefaults: UserDefaultsAccess? { source.resolved.userDefaults }
  /// Whose domains a domain name names: every host's, or one host's (``HostScope``).
  package var host: HostScope { source.resolved.host }
  /// How long a write waits for a domain's lock (nil: as long as it takes).
  package var lockTimeout: Double? { source.resolved.lockTimeout }
  /// The preferences folder, standardized (nil when it cannot be resolved).
  private var folder: String? { source.resolved.folder }

  package init(
    locator: DomainLocator, userDefaults: UserDefaultsAccess? = .platform, host: HostScope = .any,
    lockTimeout: Double? = nil
  ) {
    source = Source {
      Settings(
        locator: locator, userDefaults: userDefaults, host: host, lockTimeout: lockTimeout)
    }
  }

  /// A resolver whose settings `settings` gives when first needed.
  package init(resolving settings: @escaping @Sendable () -> Settings) {
    source = Source(settings)
  }

  /// What a resolver resolves with.
  package struct Settings: Sendable {
    package var locator: DomainLocator
    package var userDefaults: UserDefaultsAccess?
    package var host: HostScope
    package var lockTimeout: Double?

    package init(
      locator: DomainLocator, userDefaults: UserDefaultsAccess?, host: HostScope,
      lockTimeout: Double? = nil
    ) {
      self.locator = locator
      self.userDefaults = userDefaults
      self.host = host
      self.lockTimeout = lockTimeout
    }

    /// The command's settings: domain names laid out as `layout` says (nil: the platform's)
    /// under the folders the process's environment names (each variable the resolver reads,
    /// read alone: ``DomainResolver/variables``).
    package init(
      layout: DefaultsPlatform?, userDefaults: UserDefaultsAccess?, host: HostScope,
      lockTimeout: Double? = nil
    ) {
      self.init(
        locator: DomainLocator(
          platform: layout ?? .current, environment: DomainLocator.environment(variables)),
        userDefaults: userDefaults, host: host, lockTimeout: lockTimeout)
    }
  }

  /// The settings and the folder they name, made once, on first use.
  private final class Source: @unchecked Sendable {
    struct Resolved {
      var locator: DomainLocator
      var userDefaults: UserDefaultsAccess?
      var host: HostScope
      var lockTimeout: Double?
      var folder: String?
    }

    private let make: @Sendable () -> Settings
    private let lock = ThreadLock()
    private var made: Resolved?  // guarded by `lock`

    init(_ make: @escaping @Sendable () -> Settings) { self.make = make }

    var resolved: Resolved {
      lock.lock()
      defer { lock.unlock() }
      if let made { return made }
      let settings = make()
      let folder: String? =
        if case .success(let path) = Result(catching: { () throws(DefaultsError) in
          try settings.locator.folderPath()
        }) {
          FilePathParts(path).standardized
        } else {
          nil
        }
      let resolved = Resolved(
        locator: settings.locator, userDefaults: settings.userDefaults, host: settings.host,
        lockTimeout: settings.lockTimeout, folder: folder)
      made = resolved
      return resolved
    }
  }

  /// Every variable of its locator's environment a resolver reads: the locator's, and
  /// `PREFS_DOMAIN_STORAGE`.
  package static let variables = DomainLocator.variables + ["PREFS_DOMAIN_STORAGE"]

  /// The rule (see the type's documentation): whether `word` is a path.
  package static func isPath(_ word: String) -> Bool {
    word.contains("/") || word.hasSuffix(".plist")
  }

  /// A FILE argument as a path: a path as written (`~/` is the home folder), a domain name as
  /// its file in the preferences folder.
  package func path(_ word: String) throws(ToolError) -> String {
    if Self.isPath(word) { return expandingHome(word) }
    let id: String?
    do {
      id = try hostID()
    } catch {
      throw .store(error)
    }
    do {
      guard let id else { return try locator.path(forDomain: word) }
      try DomainLocator.validate(word)
      return PathText.joined(
        PathText.joined(try locator.folderPath(), HostScope.folder), "\(word).\(id).plist")
    } catch {
      throw .usage(error.description)
    }
  }

  /// The host part of a per-host domain's file name (nil: every host's domains).
  private func hostID() throws(DefaultsError) -> String? {
    switch host {
    case .any: return nil
    case .current: return try HostScope.currentHostID()
    case .named(let name):
      try DomainLocator.validate(name)
      return name
    }
  }

  /// A FILE|DOMAIN argument of the `defaults`-style verbs (read, read-type, write, delete,
  /// rename, import): a path is a file; a domain name is a `UserDefaults` domain on Apple
  /// platforms (`PREFS_DOMAIN_STORAGE=file` forces the file; elsewhere `=userdefaults` asks
  /// for `UserDefaults`, which only a ``UserDefaultsAccess`` given to the resolver provides)
  /// and the file in the preferences folder otherwise.
  package func domain(_ word: String) throws(ToolError) -> Domain {
    guard !Self.isPath(word) else { return file(expandingHome(word)) }
    // A host's domain is its ByHost file on every platform (`UserDefaults` has no host).
    guard host == .any else { return file(try path(word)) }
    let choice = locator.environment["PREFS_DOMAIN_STORAGE"]
    let viaUserDefaults = choice.map { $0 == "userdefaults" } ?? userDefaults?.isDefault ?? false
    guard viaUserDefaults else { return file(try path(word)) }
    guard let userDefaults else { throw .usage(UserDefaultsAccess.missing) }
    do {
      try DomainLocator.validate(word)
    } catch {
      throw .usage(error.description)
    }
    do {
      return Domain(place: .storage(try userDefaults.open(word)), resolver: self)
    } catch {
      throw .store(error)
    }
  }

  /// The domain file at `path`, with its routing: a domain some store uses (in the
  /// preferences folder, or with a `.lock` beside it) takes the domain's lock and keeps it;
  /// any other file of the user's is locked while it changes and left without a lock file.
  package func file(_ path: String) -> Domain {
    Domain(place: .file(path), resolver: self)
  }

  /// Whether `path` is in the preferences folder or its `ByHost` folder (the folders a write
  /// creates).
  package func isInPreferencesFolder(_ path: String) -> Bool {
    guard let folder else { return false }
    let parent = FilePathParts(FilePathParts(path).standardized).folder
    guard parent != folder else { return true }
    let above = FilePathParts(parent)
    return above.name == HostScope.folder && above.folder == folder
  }

  /// The domain file at `path`, for a write, with the one write policy of this run: a domain
  /// of the preferences folder takes its lock and keeps the lock file; any other file is
  /// locked while it changes (a lock file there, a store's, is kept; one this write made is
  /// removed again); the lock is waited for ``lockTimeout`` at most. (Where the path is, is
  /// decided from its words: nothing on disk is looked at twice.)
  package func writer(for path: String, limits: PlistLimits = .default) -> DomainFile {
    var file = DomainFile(path: path, limits: limits)
    file.locking = isInPreferencesFolder(path) ? .always : .transient
    file.lockTimeout = lockTimeout
    return file
  }

  /// The file at `path` as an output a command makes (a migrated store, a converted file): a
  /// domain of the preferences folder is written as ``writer(for:limits:)`` writes it; anywhere
  /// else the lock is taken only when one is there (a store uses the file), and none is made —
  /// a batch of 10,000 outputs leaves no 10,000 lock files. The one answer to "is this output a
  /// live domain?".
  package func output(for path: String, limits: PlistLimits = .default) -> DomainFile {
    var file = writer(for: path, limits: limits)
    if file.locking != .always { file.locking = .whenShared }
    return file
  }

  /// `~/x` (a quoted tilde the shell left) as the home folder's `x`: `HOME`'s, else the
  /// passwd file's (read as a file, never through the name service switch); with no home at
  /// all, `./~/x` (the folder named `~` here, as the shell leaves it).
  func expandingHome(_ path: String) -> String {
    guard path.utf8.starts(with: [UInt8(ascii: "~"), UInt8(ascii: "/")]) else { return path }
    let home =
      locator.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? PathText.homeOf(user: nil)
    guard let home else { return "./" + path }
    return PathText.joined(home, String(path.dropFirst(2)))
  }

  /// The name of the file at `path` (its last component, as `URL.lastPathComponent`).
  package static func fileName(_ path: String) -> String { FilePathParts(path).name }

  /// The failure for a domain that does not exist, with a hint when a file of the domain's
  /// name is in the current folder (a domain name never names it: `./NAME` does).
  package func missing(_ domain: Domain) -> ToolError {
    guard case .file(let path) = domain.place else { return .noSuchDomain(domain.name, hint: nil) }
    return .noSuchDomain(domain.name, hint: fileHereHint(forPath: path))
  }

  /// For a domain's file that does not exist, when a file or folder of the domain's name is in
  /// the current folder: how to name it instead (a domain name never names it).
  package func fileHereHint(forPath path: String) -> String? {
    guard isInPreferencesFolder(path) else { return nil }
    let file = FilePathParts(path).name
    guard file.hasSuffix(".plist") else { return nil }
    let word = String(file.dropLast(".plist".count))
    if FileAccess.isFolder(word) {
      return "\(word) in the current folder is a folder, not a domain: name it ./\(word) to "
        + "read its .plist files"
    }
    guard FileManager.default.fileExists(atPath: word) else { return nil }
    return "\(word) in the current folder is a file, not a domain: name it ./\(word)"
  }

  /// The names of the domains in the preferences folder (its `.plist` files), and the folder;
  /// for one host, the domains of its files in the `ByHost` folder (``path(_:)`` is the file of
  /// each name).
  package func domainNames() throws(ToolError) -> (folder: URL, names: [String]) {
    let folder: URL
    let suffix: String
    do {
      if let id = try hostID() {
        folder = try locator.folder().appendingPathComponent(HostScope.folder, isDirectory: true)
        suffix = ".\(id).plist"
      } else {
        folder = try locator.folder()
        suffix = ".plist"
      }
    } catch {
      throw .store(error)
    }
    let entries: [String]
    do {
      entries = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    } catch {
      // No preferences folder yet: no domains.
      if !FileManager.default.fileExists(atPath: folder.path) { return (folder, []) }
      throw .output(
        .io(path: folder.path, reason: "cannot list the folder: \(FileAccess.reason(of: error))"))
    }
    let names = entries.filter {
      $0.hasSuffix(suffix) && $0.count > suffix.count && !$0.hasPrefix(".")
    }
    .map { String($0.dropLast(suffix.count)) }.sorted()
    return (folder, names)
  }
}

/// Whose domains a domain name names, as `defaults -currentHost` and `-host NAME` choose.
///
/// macOS keeps a host's domains (screen saver, trackpad, menu bar settings) in
/// `~/Library/Preferences/ByHost/<domain>.<hardware UUID>.plist`. prefs keeps them the same way
/// in its preferences folder on every platform: `ByHost/<domain>.<host>.plist`, where the
/// current host is this machine's ID (systemd's `/etc/machine-id`, else D-Bus's
/// `/var/lib/dbus/machine-id`, the Linux counterpart of the hardware UUID, written in the
/// hardware UUID's form) and `-host NAME` names `NAME`'s files as written.
package enum HostScope: Sendable, Hashable {
  /// Every host's domains: the preferences folder itself.
  case any
  /// This machine's domains.
  case current
  /// The domains of the host `NAME`.
  case named(String)

  /// The folder of per-host domains, inside the preferences folder.
  package static let folder = "ByHost"

  /// Where the machine's ID is read from, in order.
  static let machineIDFiles = ["/etc/machine-id", "/var/lib/dbus/machine-id"]

  /// This machine's ID as a UUID (`3D1219C7-C4C5-404A-AA1F-6D2A48ADFDA4`), as macOS names
  /// ByHost files: from the first machine ID file that holds 32 hex digits.
  package static func currentHostID() throws(DefaultsError) -> String {
    for path in machineIDFiles {
      guard
        case .success(let data) = Result(catching: { () throws(FileAccess.Failure) in
          try FileAccess.readFile(path, limit: 4096)
        })
      else { continue }
      if let id = uuid(fromMachineID: String(decoding: data, as: UTF8.self)) { return id }
    }
    throw .cannotRead(
      path: machineIDFiles.joined(separator: " or "),
      reason: "no machine ID for -currentHost's ByHost domains (name the host with -host NAME)")
  }

  /// 32 hex digits (a machine ID file's line) as an upper-case UUID; nil for anything else.
  package static func uuid(fromMachineID text: String) -> String? {
    let digits = String(text.split(whereSeparator: \.isNewline).first ?? "").trimmingWhitespace()
    guard digits.utf8.count == 32, digits.utf8.allSatisfy({ $0.isHexDigit }) else { return nil }
    let upper = digits.uppercased()
    var parts: [Substring] = []
    var start = upper.startIndex
    for length in [8, 4, 4, 4, 12] {
      let end = upper.index(start, offsetBy: length)
      parts.append(upper[start..<end])
      start = end
    }
    return parts.joined(separator: "-")
  }
}

extension UInt8 {
  fileprivate var isHexDigit: Bool {
    (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
  }
}

/// A domain as the verbs reach it: a file, or a `UserDefaults` persistent domain.
package struct Domain: Sendable {
  package enum Place: Sendable {
    /// A file (a path, or a domain name resolved to the preferences folder): read and changed
    /// through the domain file's one way in and out, routed as ``DomainResolver/file(_:)``
    /// says.
    case file(String)
    /// Any other storage of a domain (a `UserDefaults` persistent domain: a domain name on
    /// Apple platforms, as `defaults` reaches it, so that `cfprefsd` sees the change).
    case storage(any DefaultsStorage)
  }

  package let place: Place
  /// For the routing of a write, worked out only for one.
  let resolver: DomainResolver

  /// In the preferences folder: the one folder a write creates.
  var inPreferencesFolder: Bool {
    guard case .file(let path) = place else { return false }
    return resolver.isInPreferencesFolder(path)
  }

  /// The path, or `UserDefaults(name)`, for messages.
  package var name: String {
    switch place {
    case .file(let path): path
    case .storage(let storage): storage.identity.description
    }
  }

  /// The domain's storage: for a file, the one way in and out of a domain file, routed as
  /// ``DomainResolver/file(_:)`` says.
  package var storage: any DefaultsStorage {
    switch place {
    case .file(let path): routed(path)
    case .storage(let storage): storage
    }
  }

  /// The domain file to change, locked as its routing says (a `UserDefaults` domain: nil).
  var file: DomainFile? {
    guard case .file(let path) = place else { return nil }
    return routed(path)
  }

  /// As ``DomainResolver/writer(for:)`` says.
  private func routed(_ path: String) -> DomainFile { resolver.writer(for: path) }
}
