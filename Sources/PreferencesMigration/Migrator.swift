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
  /// Not named by the plan, left out (`unmapped: drop`).
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
}

/// The migration of one legacy domain, before anything is written.
public struct DomainMigration: Sendable, Hashable {
  /// How the domain ended.
  public enum Result: Sendable, Hashable {
    /// The new store's values (including the schema version).
    case migrated([String: PlistValue])
    /// Why the file is refused (unconvertible values, unmapped keys under `unmapped: error`).
    case refused(String)
  }

  public var keys: [KeyReport]
  public var result: Result

  /// The new store's values, or nil when refused.
  public var output: [String: PlistValue]? {
    if case .migrated(let values) = result { return values }
    return nil
  }

  /// Why the file is refused, or nil when migrated.
  public var refusal: String? {
    if case .refused(let reason) = result { return reason }
    return nil
  }
}

/// Applies a plan to legacy values. Pure: no files, no printing.
public struct Migrator: Sendable {
  public let plan: MigrationPlan

  public init(plan: MigrationPlan) { self.plan = plan }

  public func migrate(_ legacy: [String: PlistValue]) -> DomainMigration {
    var output: [String: PlistValue] = [:]
    var reports: [KeyReport] = []
    var problems: [String] = []
    let mapped = Set(plan.entries.map(\.from))

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

    for key in legacy.keys.sorted() where !mapped.contains(key) {
      var report = KeyReport(from: key, to: nil, action: .kept, legacy: legacy[key])
      switch plan.unmapped {
      case .keep:
        if key == MigrationPlan.schemaVersionKey || output[key] != nil {
          report.action = .dropped
          report.note = "its name is taken in the new store"
        } else {
          report.to = key
          report.value = legacy[key]
          output[key] = legacy[key]
        }
      case .drop:
        report.action = .dropped
      case .error:
        report.action = .dropped
        report.note = "not in the plan (unmapped: error)"
        problems.append("\(key): not in the plan")
      }
      reports.append(report)
    }

    guard problems.isEmpty else {
      return DomainMigration(keys: reports, result: .refused(problems.joined(separator: "; ")))
    }
    output[MigrationPlan.schemaVersionKey] = .int(plan.schemaVersion)
    return DomainMigration(keys: reports, result: .migrated(output))
  }

  enum Conversion {
    case success(PlistValue, KeyAction, String?)
    case failure(String)
  }

  /// What the legacy code read, in the typed key's stored form.
  func convert(_ value: PlistValue, _ entry: MigrationPlan.Entry) -> Conversion {
    let dialect = plan.dialect
    func cannot() -> Conversion {
      .failure("a \(value.typeName) cannot be read as \(entry.type.rawValue)")
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
    if let type = entry.type.legacyType { return read(as: type) }
    switch entry.type {
    case .enum:
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
    case .any:
      return .success(value, .migrated, nil)
    default:
      return cannot()
    }
  }
}
