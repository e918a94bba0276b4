import LegacyDefaults
import PreferencesMigration
import PropertyList

/// Why a tool of the command could not do what it was asked: the cases the command maps to
/// its exit codes (in one place), each saying what and where.
package enum ToolError: Error, Sendable, CustomStringConvertible {
  /// The words do not name anything usable (a bad domain name, `UserDefaults` that this
  /// build lacks, a value that does not parse as its flag says).
  case usage(String)
  /// No such domain (`hint`: how to name what the word may have meant).
  case noSuchDomain(String, hint: String?)
  /// No such key in the domain.
  case noSuchKey(String, domain: String)
  /// No application of that name in the application folders (`defaults -app NAME`), or one
  /// whose bundle names no identifier (`reason`).
  case noSuchApplication(String, reason: String?)
  /// The key exists already (`rename`'s new key).
  case keyExists(String, domain: String)
  /// A file that could not be read as a property list or as a domain.
  case read(DomainReadError)
  /// The store refused or failed (a write, a lock, a value a domain cannot hold).
  case store(DefaultsError)
  /// An output that could not be written.
  case output(FileAccess.Failure)
  /// A typed value whose text is not one (`-bool maybe`): the flag, the text, and what the
  /// flag takes.
  case invalidValue(flag: String, text: String, expected: String)
  /// A plan file that does not follow the plan format (`path`: the plan).
  case plan(path: String, PlanError)
  /// A key path that could not be followed or edited (`plutil`'s key paths).
  case keyPath(KeyPathError)
  /// A value the output format cannot hold (`path`: the file or stream written).
  case unrepresentable(path: String, PlistError)

  package var description: String {
    switch self {
    case .usage(let message): message
    case .noSuchDomain(let name, let hint):
      // A domain named by its file's path (`./x.plist`, `/tmp/x.plist`) is a file to the user.
      (name.contains("/") ? "the file \(name) does not exist" : "the domain \(name) does not exist")
        + (hint.map { " (\($0))" } ?? "")
    case .noSuchKey(let key, let domain): "the key \"\(key)\" does not exist in \(domain)"
    case .noSuchApplication(let name, let reason):
      "Couldn't find an application named \"\(name)\"" + (reason.map { " (\($0))" } ?? "")
    case .keyExists(let key, let domain): "the key \"\(key)\" already exists in \(domain)"
    case .read(let error): error.description
    case .store(let error): error.description
    case .output(let failure): failure.description
    case .invalidValue(let flag, let text, let expected): "\(flag) takes \(expected), not \(text)"
    case .plan(let path, let error): "\(path): \(error)"
    case .keyPath(let error): "\(error)"
    case .unrepresentable(let path, let error): "\(path): \(error)"
    }
  }
}
