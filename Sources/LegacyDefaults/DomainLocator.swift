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

/// Where each platform keeps a defaults domain's file.
public enum DefaultsPlatform: String, Sendable, Hashable, CaseIterable {
  /// `$XDG_CONFIG_HOME/<domain>.plist`, else `~/.config/<domain>.plist` (as corelibs does, so
  /// existing Linux files are found).
  case linux
  /// `~/Library/Preferences/<domain>.plist`.
  case macOS
  /// `GNUSTEP_USER_DEFAULTS_DIR` of GNUstep's configuration files (the file named by
  /// `GNUSTEP_CONFIG_FILE`, else `/etc/GNUstep/GNUstep.conf`, then `~/.GNUstep.conf`; a
  /// relative value is under the user's home folder from the password database, as GNUstep
  /// ignores `HOME`), else `GNUstep/Defaults` there. Writes of domain files there take GNUstep's
  /// lock of the folder as well as prefs' own (see `DomainFile`).
  case gnustep

  /// The platform this process runs on.
  public static var current: DefaultsPlatform {
    #if os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
      .macOS
    #else
      .linux
    #endif
  }
}

/// Resolves domain names to files, refusing names that could reach outside the folder.
public struct DomainLocator: Sendable, Hashable {
  public var platform: DefaultsPlatform
  public var environment: [String: String]

  public init(
    platform: DefaultsPlatform = .current,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    self.platform = platform
    self.environment = environment
  }

  /// Every variable of ``environment`` a locator reads.
  public static let variables = ["HOME", "XDG_CONFIG_HOME", "GNUSTEP_CONFIG_FILE"]

  /// `names` of this process's environment, each read alone (`getenv`): what a one-file
  /// command gives its locator, where `ProcessInfo`'s environment would make a dictionary of
  /// every variable first (0.37 M instructions for 35 variables, more than the rest of a
  /// one-key read).
  package static func environment(_ names: [String]) -> [String: String] {
    var values: [String: String] = [:]
    for name in names {
      if let value = getenv(name) { values[name] = String(cString: value) }
    }
    return values
  }

  /// Checks that `name` is a plain file name: not empty, no `/`, no NUL, not `.`/`..`, no `..`.
  public static func validate(_ name: String) throws(DefaultsError) {
    if name.isEmpty { throw .invalidDomainName(name, reason: "is empty") }
    if name.contains("/") { throw .invalidDomainName(name, reason: "contains a path separator") }
    if name.contains("\0") { throw .invalidDomainName(name, reason: "contains a NUL character") }
    if name.contains("..") || name == "." {
      throw .invalidDomainName(name, reason: "contains '..' (it could name a file elsewhere)")
    }
  }

  /// The folder that holds the domains. GNUstep's, once resolved, is one whose domain files
  /// this process writes under GNUstep's lock too.
  public func folder() throws(DefaultsError) -> URL {
    PathText.fileURL(try folderPath(), isDirectory: true)
  }

  /// ``folder()``'s path, worked out without a `URL` (a one-key command reaches its domain
  /// without one: see `FilePathParts`).
  public func folderPath() throws(DefaultsError) -> String {
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? PathText.homeOf(user: nil)
    func underHome(_ path: String) throws(DefaultsError) -> String {
      guard let home else {
        throw .cannotRead(path: "~/" + path, reason: "no home folder (HOME is not set)")
      }
      return PathText.joined(home, path)
    }
    switch platform {
    case .linux:
      if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
        return PathText.joined(xdg, "")
      }
      return try underHome(".config")
    case .macOS:
      return try underHome("Library/Preferences")
    case .gnustep:
      // As GNUstep Base resolves it: GNUSTEP_USER_DEFAULTS_DIR from its configuration files,
      // never from the environment; a relative value is under the user's home folder of the
      // password database (GNUstep ignores HOME).
      let userHome = PathText.homeOf(user: nil)
      let dir =
        gnustepConfiguration(home: userHome)["GNUSTEP_USER_DEFAULTS_DIR"] ?? "GNUstep/Defaults"
      let folder: String
      if dir.hasPrefix("/") {
        folder = PathText.joined(dir, "")
      } else {
        guard let userHome else {
          throw .cannotRead(path: dir, reason: "no home folder for this user")
        }
        folder = PathText.joined(userHome, dir)
      }
      // A running GNUstep app locks this folder to write it: so does every write here from now.
      GNUstepLock.register(folder: folder)
      return folder
    }
  }

  /// GNUstep's configuration: the system file (`GNUSTEP_CONFIG_FILE` from the environment,
  /// else `/etc/GNUstep/GNUstep.conf`), then the user's file it names
  /// (`GNUSTEP_USER_CONFIG_FILE`, default `.GNUstep.conf` in the user's home folder; empty:
  /// none), whose values win.
  func gnustepConfiguration(home: String?) -> [String: String] {
    var values = Self.configuration(
      at: environment["GNUSTEP_CONFIG_FILE"] ?? "/etc/GNUstep/GNUstep.conf")
    let userFile = values["GNUSTEP_USER_CONFIG_FILE"] ?? ".GNUstep.conf"
    if !userFile.isEmpty, let home {
      let path = userFile.hasPrefix("/") ? userFile : home + "/" + userFile
      values.merge(Self.configuration(at: path)) { $1 }
    }
    return values
  }

  /// `KEY=value` lines of a GNUstep configuration file (`#` comments, values optionally
  /// quoted); an absent or unreadable file has none.
  static func configuration(at path: String) -> [String: String] {
    guard
      case .success(let data) = Result(catching: { () throws(FileAccess.Failure) in
        try FileAccess.readFile(path, limit: 1 << 20)
      })
    else { return [:] }
    var values: [String: String] = [:]
    for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
      let text = line.trimmingWhitespace()
      guard !text.hasPrefix("#"), let equals = text.firstIndex(of: "=") else { continue }
      let key = text[..<equals].trimmingWhitespace()
      var value = text[text.index(after: equals)...].trimmingWhitespace()
      if value.count >= 2, let first = value.first, first == "\"" || first == "'",
        value.last == first
      {
        value = String(value.dropFirst().dropLast())
      }
      values[key] = value
    }
    return values
  }

  /// The file of domain `name`.
  public func url(forDomain name: String) throws(DefaultsError) -> URL {
    PathText.fileURL(try path(forDomain: name), isDirectory: false)
  }

  /// ``url(forDomain:)``'s path.
  public func path(forDomain name: String) throws(DefaultsError) -> String {
    try Self.validate(name)
    return PathText.joined(try folderPath(), name + ".plist")
  }
}
