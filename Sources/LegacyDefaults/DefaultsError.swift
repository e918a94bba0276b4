import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Every way the defaults store can fail. Each case names the key, domain or file involved.
public enum DefaultsError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
  /// `set(_:forKey:)` with the empty string as key.
  case emptyKey
  /// A value that is not a property-list value (a UID), or one a storage cannot hold.
  case unsupportedValue(key: String, type: String)
  /// A domain name that could name a file outside the preferences folder.
  case invalidDomainName(String, reason: String)
  /// A volatile domain of that name exists already.
  case domainExists(String)
  /// The domain's file exists but cannot be read.
  case cannotRead(path: String, reason: String)
  /// The file is there, and prefs run as root will not read it for what it is (a symbolic
  /// link, another user's file, a file with several hard links, one reached through a folder
  /// others may change): nothing was read or written.
  case refused(path: String, reason: String)
  /// The domain's file is a valid property list whose top level is not a dictionary (it is
  /// left where it is: it is not corrupt, it is not a defaults domain).
  case notADictionary(path: String, type: String)
  /// The domain's file (or its folder, or the temporary file) cannot be written.
  case cannotWrite(path: String, reason: String)
  /// The cross-process lock could not be taken.
  case cannotLock(path: String, reason: String)
  /// Another process held the domain's lock (`lock`: prefs' `<file>.lock`, or GNUstep's
  /// `.lck`) for the whole wait a write allows (`waited` seconds): nothing was written; try
  /// again later.
  case busy(path: String, lock: String, waited: Double)
  /// The process was interrupted (SIGINT, SIGTERM) while the write waited for `lock`: nothing
  /// was written.
  case interrupted(path: String, lock: String)
  /// A value could not be encoded in the domain file's format.
  case cannotEncode(path: String, error: PlistError)

  public var description: String {
    switch self {
    case .emptyKey: "the empty string cannot be a defaults key"
    case .unsupportedValue(let key, let type):
      "the value for \"\(key)\" is a \(type), which is not a property-list value"
    case .invalidDomainName(let name, let reason): "the domain name \"\(name)\" \(reason)"
    case .domainExists(let name): "a volatile domain named \"\(name)\" exists already"
    case .cannotRead(let path, let reason): "\(path): cannot read: \(reason)"
    case .refused(let path, let reason): "\(path): refused: \(reason)"
    case .notADictionary(let path, let type):
      "\(path) holds \(type.withArticle), not a dictionary of preferences"
    case .cannotWrite(let path, let reason): "\(path): cannot write: \(reason)"
    case .cannotLock(let path, let reason): "\(path): cannot write: \(reason)"
    case .busy(let path, let lock, let waited):
      "\(path): busy: another process held \(lock) for the \(Self.seconds(waited)) this "
        + "write waits (nothing was written; try again later, or wait longer with --lock-timeout)"
    case .interrupted(let path, let lock):
      "\(path): interrupted while waiting for \(lock) (nothing was written)"
    case .cannotEncode(let path, let error): "\(path): \(error)"
    }
  }

  public var errorDescription: String? { description }

  /// `waited` as a person reads it: `10 s`, `0.5 s`.
  private static func seconds(_ waited: Double) -> String {
    let rounded = (waited * 10).rounded() / 10
    return rounded == rounded.rounded() ? "\(Int(rounded)) s" : "\(rounded) s"
  }
}

/// A domain file that did not parse: found (its domain reads as empty) and, at the first write,
/// moved aside, never overwritten.
public struct CorruptFileRecovery: Sendable, Hashable, CustomStringConvertible {
  /// Where the file was.
  public var path: String
  /// Where it is now (`<name>.corrupt-<UTC time>`); nil while it has not been moved (nothing
  /// was written yet).
  public var movedTo: String?
  /// Why it did not parse.
  public var reason: String

  public var description: String {
    guard let movedTo else {
      return "\(path) does not parse (\(reason)); the domain reads as empty, and the file "
        + "will be moved aside, never overwritten, at the first write"
    }
    return "\(path) did not parse (\(reason)); it was moved to \(movedTo) and the domain "
      + "starts empty"
  }
}
