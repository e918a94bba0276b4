/// Whose reader a property list is read as. The readers of the legacy apps disagree on some
/// bytes (a key twice in a binary dictionary, a lowercase `\u` escape in OpenStep text, a
/// `CF$UID` dictionary in XML, base64 that is not padded): a migration must carry the value the
/// app itself saw, so every such choice is made by naming the reader.
public enum PlistReader: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// CoreFoundation's `CFPropertyListCreateWithData`: what `NSUserDefaults`, `CFPreferences`
  /// and `PropertyListSerialization` read files with on Apple platforms, and corelibs'
  /// `UserDefaults` on Linux.
  case coreFoundation
  /// GNUstep Base's `NSPropertyListSerialization` (`propertyListWithData:…`), what GNUstep's
  /// `NSUserDefaults` reads a domain file with.
  case gnustep

  public var description: String {
    switch self {
    case .coreFoundation: "CoreFoundation"
    case .gnustep: "GNUstep"
    }
  }
}

/// How bytes are read as a property list: as ``reader`` reads them, and whether what only
/// another reader accepts is read too.
///
/// - ``exact``: the file is read as ``reader`` reads it, and what that reader refuses is
///   refused (a migration: a file the app could not read gave the app nothing). Where the
///   reader was lenient (it normalised a date, kept a prefix, dropped bytes of base64), the
///   value is the one it gave, with a warning.
/// - not ``exact`` (``lenient``): values as ``reader`` gives them, but text that only the
///   other reader reads (GNUstep's typed values under CoreFoundation, CoreFoundation's strings
///   files under GNUstep) is read too, with a warning: files prefs wrote itself (an OpenStep
///   domain grows GNUstep's typed values), and the tools that name no dialect. What
///   ``reader`` reads is read as it reads it either way (CoreFoundation's `<key>` where a
///   value stands, its end of the document, its 16-byte integers): not exact reads more,
///   never another value.
public struct PlistReadOptions: Sendable, Hashable {
  public var reader: PlistReader
  public var exact: Bool

  public init(reader: PlistReader, exact: Bool) {
    self.reader = reader
    self.exact = exact
  }

  /// Any file either reader reads, values as CoreFoundation gives them: `PropertyList.read`
  /// without options, `prefs lint`, `prefs convert`.
  public static let lenient = PlistReadOptions(reader: .coreFoundation, exact: false)
  /// Exactly as CoreFoundation reads it (the `apple` and `corelibs` dialects).
  public static let coreFoundation = PlistReadOptions(reader: .coreFoundation, exact: true)
  /// Exactly as GNUstep Base reads it (the `gnustep` dialect).
  public static let gnustep = PlistReadOptions(reader: .gnustep, exact: true)
}
