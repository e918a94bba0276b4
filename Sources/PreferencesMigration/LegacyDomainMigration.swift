import LegacyDefaults
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The migration of one legacy domain by a plan, as every path runs it: `prefs migrate`
/// (the command's batch runner, to another file or in place) and the migration at launch
/// (`migrate(_:)` over the store's own domain, `migrate(_:from:)` from another domain). One
/// set of rules, in this order:
///
/// 1. A legacy domain that does not parse is `malformed`.
/// 2. A destination that is another domain and already records a schema version is
///    `unchanged` (this plan's) or `refused` (another's).
/// 3. A legacy domain that records one is a store already: `unchanged` or `refused` the same
///    way.
/// 4. A legacy domain that holds no keys: the source of another domain (`--to`, `from:`) is
///    `missing` ("no such file", or "… holds no keys"), since a suite or a path that was
///    misspelt holds nothing too; the store's own domain at launch is a new install, and an
///    existing file migrated in place becomes the store: both are stamped with the schema
///    version so that later runs are `unchanged`. A file migrated in place must exist.
/// 5. The plan (``Migrator``): `migrated`, or `refused` (a value the type cannot hold, a key
///    under `unmapped: error`, a key that would be dropped beside an entry it is probably a
///    typo of).
///
/// Nothing is written for any outcome but `migrated`; the caller writes the values returned.
package struct LegacyDomainMigration: Sendable {
  /// Where the migrated values go, which decides what a domain holding no keys means.
  package enum Destination: Sendable, Hashable {
    /// The legacy file itself, replaced by the new store (`prefs migrate --in-place`).
    case inPlace
    /// The store's own domain at launch, where legacy and typed keys live side by side.
    case ownDomain
    /// Another domain: `prefs migrate --to` (`recorded` nil: the output is compared, not its
    /// schema version) or the store that `migrate(_:from:)` writes into (`recorded`: the
    /// schema version it holds, if any).
    case another(recorded: PlistValue?)
  }

  package let plan: MigrationPlan

  package init(plan: MigrationPlan) { self.plan = plan }

  /// The migrated values of the legacy domain `legacy` (held by the storage `source`), or nil
  /// with the outcome saying why nothing is to be written.
  package func run(
    _ legacy: DomainSnapshot, from source: StorageIdentity, into destination: Destination,
    _ outcome: inout FileOutcome
  ) -> PlistDictionary? {
    outcome.noun = source.noun
    if let unreadable = legacy.unreadable {
      // Read as the dialect's own reader reads it: what it refuses gave the app no value.
      outcome.status = .malformed
      outcome.message =
        "\(outcome.path): \(unreadable.reason) (read as \(plan.dialect.reader) reads "
        + "\("\(plan.dialect) app's".withArticle) files: the app read no value from this file)"
      return nil
    }
    if case .another(let recorded?) = destination {
      // The destination is already a store of some plan: nothing to do, whatever the source.
      outcome.status = recorded == .int(plan.schemaVersion) ? .unchanged : .refused
      outcome.message =
        "\(outcome.output ?? "the store") is already migrated with schema version "
        + PropertyList.describe(recorded)
      return nil
    }
    if let recorded = legacy.values[MigrationPlan.schemaVersionKey] {
      // Already a store of this plan: nothing to do (running the plan twice changes nothing).
      outcome.keys = legacy.values.sortedByKey.map {
        KeyReport(from: $0.key, to: $0.key, action: .kept, legacy: $0.value, value: $0.value)
      }
      if recorded == .int(plan.schemaVersion) {
        outcome.status = .unchanged
        outcome.message = "already migrated with schema version \(plan.schemaVersion)"
      } else {
        outcome.status = .refused
        outcome.message =
          "already migrated with schema version \(PropertyList.describe(recorded)), "
          + "not \(plan.schemaVersion)"
      }
      return nil
    }
    // The snapshot says whether the medium holds no domain at all (no file): not an empty one.
    switch destination {
    case .inPlace where legacy.isAbsent, .another where legacy.isAbsent:
      outcome.status = .missing
      outcome.message = "\(outcome.path): no such \(source.noun)"
      return nil
    case .another where legacy.values.isEmpty:
      outcome.status = .missing
      outcome.message = "\(outcome.path) holds no keys"
      return nil
    case .inPlace where legacy.values.isEmpty, .ownDomain where legacy.values.isEmpty:
      outcome.message =
        "\(outcome.path) holds no legacy keys: a new store, recorded as schema version "
        + "\(plan.schemaVersion) so that later runs report unchanged"
    default: break
    }
    let migration = Migrator(plan: plan).migrate(legacy.values)
    outcome.keys = migration.keys
    switch migration.result {
    case .migrated(let values):
      // Where the app's reader was lenient (a date it normalised, a prefix of a strings file
      // it kept, base64 it cut short), the values are the ones it gave: the report says so.
      let lenient = legacy.warnings.compactMap { warning -> String? in
        guard case .readAs = warning else { return nil }
        return "\(outcome.path): \(warning)"
      }
      let notes = lenient + migration.warnings
      if !notes.isEmpty { outcome.message = notes.joined(separator: "; ") }
      return values
    case .refused(let reason):
      outcome.status = .refused
      outcome.message = reason
      return nil
    }
  }
}
