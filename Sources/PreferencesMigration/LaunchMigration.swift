import LegacyDefaults
import Preferences
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Migration at launch, in the app: the plan run over the store's own domain, where the old
/// flat keys and the new typed keys live side by side.
extension DefaultsStore {
  /// Runs `plan` over this store's domain as one update: each legacy key read as the plan's
  /// dialect getter reads it, written under its typed key; legacy keys removed or kept as the
  /// plan says; the schema version written. Returns the report `prefs migrate` prints.
  ///
  /// The same rules as `prefs migrate --in-place` (one migration of one domain for both).
  /// Idempotent: once the domain carries the plan's schema version, a call reports `unchanged`
  /// and writes nothing. A domain holding no keys is a new install: it is stamped with the
  /// schema version (reported `migrated`, with a message saying so), so that the typed keys
  /// the app writes afterwards are never taken for legacy keys. Atomic on a file (one hold of
  /// the domain's lock) and all-or-nothing on `UserDefaults` (when its synchronize fails,
  /// every key it set is restored). A refusal (an unconvertible value, an unmapped key under
  /// `unmapped: error`, a key that would be dropped beside an entry it is probably a typo of,
  /// another schema version) writes nothing and is in the report, not thrown; a storage
  /// failure is thrown.
  public func migrate(_ plan: MigrationPlan) throws(DefaultsError) -> MigrationReport {
    let name = identity.description
    let step = LegacyDomainMigration(plan: plan)
    var outcome = FileOutcome(
      path: name, output: name, status: .migrated, message: nil, keys: [], backup: nil)
    try updateDomain { values in
      outcome = FileOutcome(
        path: name, output: name, status: .migrated, message: nil, keys: [], backup: nil)
      let current = values
      guard
        let migrated = step.run(
          DomainSnapshot(values: current), from: identity, into: .ownDomain, &outcome)
      else { return [:] }
      return DomainChanges(replacing: current, with: migrated)
    }
    return MigrationReport(files: [outcome], dryRun: false)
  }

  /// Runs `plan` over another domain (`source`: a suite the app is leaving, a file) into this
  /// store: the migrated keys are set here, one update, and the source is left as it was.
  ///
  /// The same rules as `prefs migrate --to` (one migration of one domain for both), and
  /// idempotent on this store's schema version: once this store carries it, a call reports
  /// `unchanged`. A source that holds no keys (a suite or a file that does not exist, or was
  /// misspelt) is reported `missing` ("UserDefaults(name) holds no keys") and nothing is
  /// written, not even the schema version, so the right source still migrates later.
  public func migrate(_ plan: MigrationPlan, from source: any DefaultsStorage)
    throws(DefaultsError) -> MigrationReport
  {
    let legacy = try source.load()
    let name = source.identity.description
    let step = LegacyDomainMigration(plan: plan)
    func fresh() -> FileOutcome {
      FileOutcome(
        path: name, output: identity.description, status: .migrated, message: nil, keys: [],
        backup: nil)
    }
    var outcome = fresh()
    try updateDomain { values in
      outcome = fresh()
      let into = LegacyDomainMigration.Destination.another(
        recorded: values[MigrationPlan.schemaVersionKey])
      guard let migrated = step.run(legacy, from: source.identity, into: into, &outcome) else {
        return [:]
      }
      return DomainChanges(replacing: PlistDictionary(), with: migrated)
    }
    return MigrationReport(files: [outcome], dryRun: false)
  }
}

extension PreferencesStore {
  /// `DefaultsStore.migrate(_:)` on this store's domain (call it once at
  /// launch, before the first read of a typed key). Failures of the storage are thrown as
  /// `PreferenceError.storage(_:)`.
  public func migrate(_ plan: MigrationPlan) throws(PreferenceError) -> MigrationReport {
    do {
      return try defaults.migrate(plan)
    } catch {
      throw .storage(error)
    }
  }

  /// `DefaultsStore.migrate(_:from:)`: another domain into this store.
  public func migrate(_ plan: MigrationPlan, from source: any DefaultsStorage)
    throws(PreferenceError) -> MigrationReport
  {
    do {
      return try defaults.migrate(plan, from: source)
    } catch {
      throw .storage(error)
    }
  }
}
