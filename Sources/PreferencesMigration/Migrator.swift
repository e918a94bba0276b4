import LegacyDefaults
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What happened to one legacy key (the report's `action`).
public enum KeyAction: String, Sendable, Hashable, CaseIterable {
  /// The value already had the typed key's type: copied as it is.
  case migrated
  /// A loose value (`"YES"`, `" 12"`, a real for an integer) read as the dialect's getter reads it.
  case coerced
  /// Absent: the typed key's default covers it (written only with `materializeDefaults`).
  case defaulted
  /// An enum raw value outside its values (or, with `"invalid": "default"`, a value the type
  /// cannot hold): the default was used.
  case fallback
  /// Not named by the plan, copied as it is (`unmapped: keep`).
  case kept
  /// Not named by the plan, left out (`unmapped: drop`, or listed in the plan's `drop`).
  case dropped
  /// The type cannot hold the value at all: the file is refused.
  case unconvertible
}

/// One line of the report: a legacy key, where it went, and what it became.
public struct KeyReport: Sendable, Hashable {
  public var from: String?
  public var to: String?
  public var action: KeyAction
  public var legacy: PlistValue?
  public var value: PlistValue?
  public var note: String?
  /// The key this one is probably a typo of or for (``MigrationPlan/isNearMiss(_:_:)``): on a
  /// legacy key no entry names, the `from` of an entry this domain does not have; on that
  /// entry, the legacy key. The note says "did you mean".
  public var nearMiss: String?
}

/// The migration of one legacy domain, before anything is written.
public struct DomainMigration: Sendable, Hashable {
  /// How the domain ended.
  public enum Result: Sendable, Hashable {
    /// The new store's values (including the schema version), keys as the legacy domain held
    /// them (by their bytes).
    case migrated(PlistDictionary)
    /// Why the file is refused (unconvertible values, unmapped keys under `unmapped: error`).
    case refused(String)
  }

  public var keys: [KeyReport]
  public var result: Result
  /// What a person should read although the domain migrates: a legacy key kept under
  /// `unmapped: keep` beside an entry it is probably a typo of (the entry's typed key reads
  /// its default).
  public var warnings: [String] = []

  /// The new store's values, or nil when refused.
  package var output: PlistDictionary? {
    if case .migrated(let values) = result { return values }
    return nil
  }

  /// Why the file is refused, or nil when migrated.
  package var refusal: String? {
    if case .refused(let reason) = result { return reason }
    return nil
  }
}

/// Applies a plan to legacy values. Pure: no files, no printing.
public struct Migrator: Sendable {
  public let plan: MigrationPlan

  public init(plan: MigrationPlan) { self.plan = plan }

  public func migrate(_ legacy: [String: PlistValue]) -> DomainMigration {
    migrate(PlistDictionary(legacy))
  }

  /// ``migrate(_:)-([String:PlistValue])`` of a domain as its file holds it: keys compared by
  /// their bytes, so two keys that differ only in Unicode normalization are two keys, each
  /// named by a plan entry of its own bytes or kept as it is.
  public func migrate(_ legacy: PlistDictionary) -> DomainMigration {
    var output = PlistDictionary()
    var reports: [KeyReport] = []
    var problems: [String] = []
    var warnings: [String] = []
    let mapped = Set(plan.entries.map { DomainKey($0.from) })
    let dropped = Set(plan.drop.map(DomainKey.init))
    let typos = nearMisses(legacy, mapped: mapped, dropped: dropped)

    for entry in plan.entries {
      var report = KeyReport(from: entry.from, to: entry.to, action: .migrated)
      guard let value = legacy[entry.from] else {
        report.action = .defaulted
        if plan.materializeDefaults, let defaultValue = entry.defaultValue {
          output[entry.to] = defaultValue
          report.value = defaultValue
          report.note = "absent: the default was written"
        } else {
          report.note = "absent: the typed key's default covers it"
        }
        if let key = typos.byEntry[entry.from] {
          report.nearMiss = key
          report.note? += "; did you mean \"\(key)\"? this domain holds it and no entry names it"
        }
        reports.append(report)
        continue
      }
      report.legacy = value
      switch convert(value, entry) {
      case .success(let converted, let action, let note):
        report.action = action
        report.value = converted
        report.note = note
        output[entry.to] = converted
      case .failure(let reason):
        if entry.invalid == .default, let defaultValue = entry.defaultValue {
          report.action = .fallback
          report.value = defaultValue
          report.note = "\(reason); the default was used"
          output[entry.to] = defaultValue
        } else {
          report.action = .unconvertible
          report.note = reason
          problems.append("\(entry.from): \(reason)")
        }
      }
      reports.append(report)
    }

    // The keys no entry names, in the one key order (by their UTF-8 bytes).
    for (key, value) in legacy.sortedByKey where !mapped.contains(DomainKey(key)) {
      var report = KeyReport(from: key, to: nil, action: .kept, legacy: value)
      if dropped.contains(DomainKey(key)) {
        report.action = .dropped
        report.note = "dropped on purpose (the plan's drop list)"
        reports.append(report)
        continue
      }
      // The plan's `from` is probably this key misspelt (or the other way round): the entry's
      // typed key would read its default, and a drop would lose the setting.
      let entry = typos.byKey[key]
      let hint = entry.map {
        "the plan maps \"\($0)\", which this domain does not have: did you mean \"\(key)\"?"
      }
      report.nearMiss = entry
      switch plan.unmapped {
      case .keep:
        if key == MigrationPlan.schemaVersionKey || output[key] != nil {
          report.action = .dropped
          report.note = "its name is taken in the new store"
        } else {
          report.to = key
          report.value = value
          output[key] = value
        }
      case .drop:
        report.action = .dropped
      case .error:
        report.action = .dropped
        report.note = "not in the plan (unmapped: error)" + (hint.map { "; \($0)" } ?? "")
        problems.append("\(key): not in the plan" + (hint.map { "; \($0)" } ?? ""))
      }
      if let hint, plan.unmapped != .error {
        if report.action == .dropped {
          report.note = "would be dropped, but \(hint)"
          problems.append(
            "\(key): would be dropped, but \(hint) (correct that entry's from, or list "
              + "\"\(key)\" in the plan's drop if the drop is meant)")
        } else {
          report.note = "kept as it is, but \(hint)"
          warnings.append("\(key): kept as it is, but \(hint)")
        }
      }
      reports.append(report)
    }

    guard problems.isEmpty else {
      return DomainMigration(
        keys: reports, result: .refused(problems.joined(separator: "; ")), warnings: warnings)
    }
    output[MigrationPlan.schemaVersionKey] = .int(plan.schemaVersion)
    return DomainMigration(keys: reports, result: .migrated(output), warnings: warnings)
  }

  /// The suspected typos of one domain: each legacy key no entry names (nor the plan's
  /// `drop`) paired with the nearest entry whose `from` the domain does not have, and each
  /// such entry with its nearest key (``MigrationPlan/isNearMiss(_:_:)``; ties go to the first
  /// name in byte order).
  func nearMisses(
    _ legacy: PlistDictionary, mapped: Set<DomainKey>, dropped: Set<DomainKey>
  ) -> (byKey: [String: String], byEntry: [String: String]) {
    let absent = plan.entries.map(\.from).filter { legacy[$0] == nil }.map(FoldedKey.init)
    guard !absent.isEmpty else { return ([:], [:]) }
    let unnamed = legacy.keys.filter {
      !mapped.contains(DomainKey($0)) && !dropped.contains(DomainKey($0))
        && $0 != MigrationPlan.schemaVersionKey
    }
    var byKey: [String: (String, Int)] = [:]
    var byEntry: [String: (String, Int)] = [:]
    func closer(_ candidate: (String, Int), than current: (String, Int)?) -> Bool {
      guard let current else { return true }
      return candidate.1 < current.1
        || (candidate.1 == current.1
          && Array(candidate.0.utf8).lexicographicallyPrecedes(current.0.utf8))
    }
    for key in unnamed.map(FoldedKey.init) {
      for entry in absent {
        guard let distance = key.nearMissDistance(to: entry) else { continue }
        if closer((entry.key, distance), than: byKey[key.key]) {
          byKey[key.key] = (entry.key, distance)
        }
        if closer((key.key, distance), than: byEntry[entry.key]) {
          byEntry[entry.key] = (key.key, distance)
        }
      }
    }
    return (byKey.mapValues(\.0), byEntry.mapValues(\.0))
  }

  enum Conversion {
    case success(PlistValue, KeyAction, String?)
    case failure(String)
  }

  /// What the legacy code read, in the typed key's stored form.
  func convert(_ value: PlistValue, _ entry: MigrationPlan.Entry) -> Conversion {
    let dialect = plan.dialect
    func cannot() -> Conversion {
      .failure("\(value.typeName.withArticle) cannot be read as \(entry.type.rawValue)")
    }
    /// The legacy getter's answer, through the one vocabulary of legacy types.
    func read(as type: LegacyType) -> Conversion {
      let reading = dialect.read(value, as: type)
      guard let answer = reading.value else { return cannot() }
      switch reading.conversion {
      case .exact: return .success(answer, .migrated, nil)
      case .coerced:
        return .success(
          answer, .coerced, "read as \(dialect)'s \(entry.type.rawValue) getter reads it")
      case .unreadable: return cannot()
      }
    }
    switch entry.type.reading {
    case .getter(let type):
      return read(as: type)
    case .oneOf:
      let reading = dialect.read(value, as: .string)
      guard reading.conversion != .unreadable, case .string(let raw)? = reading.value,
        value.isScalar
      else { return cannot() }
      if entry.values.contains(raw) {
        return reading.conversion == .exact
          ? .success(.string(raw), .migrated, nil)
          : .success(.string(raw), .coerced, "read as \(dialect)'s string getter reads it")
      }
      guard let defaultValue = entry.defaultValue else {
        return .failure(
          "\"\(raw)\" is not one of \(entry.values.joined(separator: ", ")) and there is no default"
        )
      }
      return .success(
        defaultValue, .fallback,
        "\"\(raw)\" is not one of \(entry.values.joined(separator: ", ")): the default was used")
    case .json:
      let bytes: Data
      switch value {
      case .data(let d): bytes = d
      case .string(let s): bytes = Data(s.utf8)
      case .dictionary, .array: return .success(value, .migrated, nil)
      default: return cannot()
      }
      let parsed: JSONValue
      do {
        parsed = try JSONValue.parse(bytes)
      } catch {
        return .failure("not valid JSON: \(error)")
      }
      guard let native = parsed.plistValue else {
        return .failure("JSON with a null a property list cannot hold")
      }
      return .success(native, .coerced, "JSON \(value.typeName) stored as a native structure")
    case .asIs:
      return .success(value, .migrated, nil)
    }
  }
}
