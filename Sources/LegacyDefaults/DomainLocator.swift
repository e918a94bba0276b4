import Foundation

/// Where each platform keeps a defaults domain's file.
public enum DefaultsPlatform: String, Sendable, Hashable, CaseIterable {
  /// `$XDG_CONFIG_HOME/<domain>.plist`, else `~/.config/<domain>.plist` (as corelibs does, so
  /// existing Linux files are found).
  case linux
  /// `~/Library/Preferences/<domain>.plist`.
  case macOS
  /// `$GNUSTEP_USER_DEFAULTS_DIR/<domain>.plist`, else `~/GNUstep/Defaults/<domain>.plist`.
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

  /// Checks that `name` is a plain file name: not empty, no `/`, no NUL, not `.`/`..`, no `..`.
  public static func validate(_ name: String) throws(DefaultsError) {
    if name.isEmpty { throw .invalidDomainName(name, reason: "is empty") }
    if name.contains("/") { throw .invalidDomainName(name, reason: "contains a path separator") }
    if name.contains("\0") { throw .invalidDomainName(name, reason: "contains a NUL character") }
    if name.contains("..") || name == "." {
      throw .invalidDomainName(name, reason: "contains '..' (it could name a file elsewhere)")
    }
  }

  /// The folder that holds the domains.
  public func folder() throws(DefaultsError) -> URL {
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? PathText.homeOf(user: nil)
    func underHome(_ path: String) throws(DefaultsError) -> URL {
      guard let home else {
        throw .cannotRead(path: "~/" + path, reason: "no home folder (HOME is not set)")
      }
      return URL(fileURLWithPath: home).appendingPathComponent(path, isDirectory: true)
    }
    switch platform {
    case .linux:
      if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
        return URL(fileURLWithPath: xdg, isDirectory: true)
      }
      return try underHome(".config")
    case .macOS:
      return try underHome("Library/Preferences")
    case .gnustep:
      if let dir = environment["GNUSTEP_USER_DEFAULTS_DIR"], dir.hasPrefix("/") {
        return URL(fileURLWithPath: dir, isDirectory: true)
      }
      return try underHome("GNUstep/Defaults")
    }
  }

  /// The file of domain `name`.
  public func url(forDomain name: String) throws(DefaultsError) -> URL {
    try Self.validate(name)
    return try folder().appendingPathComponent(name + ".plist", isDirectory: false)
  }
}
