import PrefsTools
import PropertyList

/// The command's exit codes, from sysexits(3), as the migration-plan contract lists them.
package enum ExitCode: Int32, Sendable, CaseIterable {
  /// Done.
  case ok = 0
  /// A key or domain that does not exist.
  case notFound = 1
  /// The command line is wrong.
  case usage = 64
  /// An input file is malformed (the message names the file and where it broke).
  case dataError = 65
  /// An input file is missing or cannot be read.
  case noInput = 66
  /// An output file cannot be created.
  case cannotCreate = 73
  /// Reading or writing failed.
  case ioError = 74
  /// Try again: another writer changed what this command changed (`edit`), or held the
  /// domain's lock for the whole wait (`--lock-timeout`).
  case temporaryFailure = 75
  /// `migrate` stopped by SIGINT (128 + 2), after printing the report of what was done.
  case interrupted = 130
  /// `migrate` stopped by SIGTERM (128 + 15), after printing the report of what was done.
  case terminated = 143
}

extension ExitCode {
  /// The exit-code rules, said once: `prefs help` and the manual page print this text.
  static let rules = """
    Exit codes: 0 done; 1 a domain or key that does not exist (read, read-type, delete,
    rename, find); 64 usage; 65 malformed or refused input (a file, a plan, a value the
    output format cannot hold, or a file prefs run as root will not read: a link, another
    user's file, one with several hard links); 66 an input that does not exist or cannot be
    read (the FILE of lint, convert, migrate, export and import, a plan, or a domain file that
    cannot be read);
    73 an output that cannot be created (a folder, a lock, or rename's new key that exists);
    74 I/O error, or an input that changed while it was read; 75 another process held the
    domain's lock for the whole wait (--lock-timeout; migrate: any file busy). diff: 0 same,
    1 different. edit: 1 when the editor fails (nothing changed), 75 when another writer
    changed a key you edited (its value kept, reported). migrate: 130 after SIGINT, 143 after
    SIGTERM (the report of the files done is printed first).
    """
}

extension ExitCode {
  /// A migration's status, from its report: 65 when a file is malformed or a value refused,
  /// else 66 when one is missing or its input cannot be read (a FIFO), else 73 when an output failed, else 75 when one was busy.
  init(_ report: MigrationReport) {
    self =
      if report.count(.malformed) + report.count(.refused) > 0 {
        .dataError
      } else if report.count(.missing) > 0 || report.files.contains(where: \.inputUnreadable) {
        .noInput
      } else if report.count(.failed) > 0 {
        .cannotCreate
      } else if report.count(.busy) > 0 {
        .temporaryFailure
      } else {
        .ok
      }
  }

  /// The status of legacy files read for a plan (`infer`, `plan swift`): 65 when a file is
  /// malformed, else 66 when one is missing or unreadable, else 0.
  init(unread: [UnreadLegacyFile]) {
    if unread.contains(where: { $0.status == .malformed }) {
      self = .dataError
    } else {
      self = unread.isEmpty ? .ok : .noInput
    }
  }
}

extension ExitCode {
  /// The `plutil` personality's status, as the port's: 0, or 1 for any failure.
  static func plutil(succeeded: Bool) -> ExitCode { succeeded ? .ok : .notFound }
}

/// A failure that ends a command with an exit code and a message for standard error.
struct CommandFailure: Error {
  var code: ExitCode
  var message: String

  init(_ code: ExitCode, _ message: String) {
    self.code = code
    self.message = message
  }
}

/// Each error type the command meets maps to its exit code here, once.
extension CommandFailure {
  /// A failure of the `plutil` personality: its message as the port words it, and the
  /// port's one failure status, 1 (``ExitCode/plutil(succeeded:)``).
  init(plutil message: String) { self.init(.plutil(succeeded: false), message) }

  /// A failure of the command's tools.
  init(_ error: ToolError) {
    switch error {
    case .usage, .invalidValue: self.init(.usage, error.description)
    case .noSuchDomain, .noSuchKey, .noSuchApplication, .keyPath:
      self.init(.notFound, error.description)
    case .keyExists: self.init(.cannotCreate, error.description)
    case .read(let read): self.init(read)
    case .store(let store): self.init(store)
    case .output(let failure): self.init(output: failure)
    case .unrepresentable, .plan: self.init(.dataError, error.description)
    }
  }

  /// A file that could not be read as a property list or a domain.
  init(_ error: DomainReadError) {
    switch error {
    case .file(let failure): self.init(failure)
    case .malformed: self.init(.dataError, error.description)
    case .domain(let store): self.init(store)
    }
  }

  /// A store failure.
  init(_ error: DefaultsError) {
    switch error {
    case .emptyKey, .unsupportedValue, .invalidDomainName, .domainExists:
      self.init(.usage, error.description)
    case .cannotRead: self.init(.noInput, error.description)
    case .notADictionary, .cannotEncode, .refused: self.init(.dataError, error.description)
    case .cannotWrite, .cannotLock: self.init(.cannotCreate, error.description)
    case .busy, .interrupted: self.init(.temporaryFailure, error.description)
    }
  }

  /// A file failure.
  init(_ failure: FileFailure) {
    switch failure {
    case .missing, .denied, .isFolder, .notRegular:
      self.init(.noInput, failure.description)
    // A file there that prefs run as root will not read for what it is (a link, another
    // user's file): refused input, as a malformed one is.
    case .refused: self.init(.dataError, failure.description)
    case .tooLarge: self.init(.dataError, failure.description)
    case .io: self.init(.ioError, failure.description)
    case .cannotCreate: self.init(.cannotCreate, failure.description)
    }
  }

  /// A failure of an output: as ``init(_:)-(FileFailure)``, but an output refused
  /// for what is at its name (a link) is one that cannot be created.
  init(output failure: FileFailure) {
    if case .refused = failure {
      self.init(.cannotCreate, failure.description)
    } else {
      self.init(failure)
    }
  }

  /// A value a writer cannot hold in its format (`path`: what was being written).
  init(_ error: PlistError, path: String) {
    self.init(.dataError, "\(path): \(error)")
  }
}
