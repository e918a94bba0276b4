import LegacyDefaults
import PreferencesMigration

// The lower layers' types the command names: the values its options take, the errors it maps
// to exit codes, the results it prints. Named here so that the command imports PrefsTools
// alone (`Docs/architecture.md`, "The command's one dependency"): every behaviour it needs of
// those layers (reading, writing, watching, locking, the process's credentials) is one of
// PrefsTools' functions, never a call into them.
//
// A type the command comes to name is added here, on purpose; `@_exported import` would name
// all of them, and the command could reach past its tools again without anyone deciding it.

/// A reader of legacy values (`--dialect`): whose getters' answers a read gives.
package typealias Dialect = LegacyDefaults.Dialect
/// An Objective-C getter (`read --as`).
package typealias LegacyType = LegacyDefaults.LegacyType
/// Where domain names resolve (`--layout`).
package typealias DefaultsPlatform = LegacyDefaults.DefaultsPlatform
/// A store's failure (the command's exit code 64, 65, 66, 73 or 75).
package typealias DefaultsError = LegacyDefaults.DefaultsError
/// A file's failure (the command's exit code 65, 66, 73 or 74).
package typealias FileFailure = FileAccess.Failure
/// A file moved aside by a change because it did not parse (reported as a warning).
package typealias CorruptFileRecovery = LegacyDefaults.CorruptFileRecovery
/// The keys a change of a domain sets and removes (`plutil`'s edits).
package typealias DomainChanges = LegacyDefaults.DomainChanges
/// What tells a file's versions apart without reading it (`watch`).
package typealias FileStamp = LegacyDefaults.FileStamp
/// A file watched for changes; the watch ends when cancelled or released (`watch`).
package typealias FileWatch = DomainWatcher.Watch
/// A value guarded by a lock.
package typealias Locked = LegacyDefaults.Locked
/// A migration plan (`--plan PLAN`).
package typealias MigrationPlan = PreferencesMigration.MigrationPlan
/// What a migration did, file by file and key by key.
package typealias MigrationReport = PreferencesMigration.MigrationReport
/// A JSON value as the plan file and the command's JSON output spell it.
package typealias JSONValue = PreferencesMigration.JSONValue
