/// How one legacy domain's migration ended, for the report (``MigrationReport``): the command's
/// batches and the migration at launch say it the same way.

/// How one legacy file ended.
public enum FileStatus: String, Sendable, Hashable, CaseIterable {
  /// The new store was written (or, in a dry run, would be).
  case migrated
  /// The output already holds exactly this (or the file is already migrated): nothing written.
  case unchanged
  /// The plan cannot carry a value (unconvertible, unmapped under `error`): nothing written.
  case refused
  /// The legacy file does not parse: nothing written.
  case malformed
  /// The legacy domain does not exist or cannot be read, or (the source of another domain)
  /// holds no keys: nothing written.
  case missing
  /// Writing failed (the previous output, if any, is intact).
  case failed
  /// Another process held the domain's lock for the whole wait (`--lock-timeout`): nothing
  /// was written; a later run migrates it.
  case busy
}

/// The outcome of one file: where it went, how it ended, and every key's fate.
public struct FileOutcome: Sendable, Hashable {
  public var path: String
  public var output: String?
  public var status: FileStatus
  public var message: String?
  public var keys: [KeyReport]
  /// Where the original was copied before an in-place migration.
  public var backup: String?
  /// What the legacy domain is, in the report's words: `file`, or the storage's own noun
  /// (`StorageIdentity.noun`: `domain` for a `UserDefaults` suite or memory, at launch).
  public var noun = "file"

  public init(
    path: String, output: String?, status: FileStatus, message: String?, keys: [KeyReport],
    backup: String?
  ) {
    self.path = path
    self.output = output
    self.status = status
    self.message = message
    self.keys = keys
    self.backup = backup
  }
}
