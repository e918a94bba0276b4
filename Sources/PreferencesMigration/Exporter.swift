import Foundation
import LegacyDefaults
import PropertyList

/// The plan backwards: typed values back to legacy keys, in the types the legacy code wrote
/// (`setBool:` a boolean, `setInteger:` an integer, an enum its raw string, a `json` value the
/// JSON bytes an app that stored `Codable` values as JSON wrote), so that a release can be
/// rolled back.
public struct Exporter: Sendable {
  public let plan: MigrationPlan

  public init(plan: MigrationPlan) { self.plan = plan }

  public struct Result: Sendable, Hashable {
    public var legacy: [String: PlistValue]
    /// Typed values that do not have their entry's type (the file is refused).
    public var problems: [String]
  }

  public func export(_ store: [String: PlistValue]) -> Result {
    var legacy: [String: PlistValue] = [:]
    var problems: [String] = []
    let targets = Set(plan.entries.map(\.to))
    for entry in plan.entries {
      guard let typed = store[entry.to] else { continue }
      switch back(typed, entry) {
      case .some(let value): legacy[entry.from] = value
      case .none:
        problems.append("\(entry.to): a \(typed.typeName) is not a \(entry.type.rawValue) value")
      }
    }
    let legacyNames = Set(plan.entries.map(\.from))
    for (key, value) in store
    where !targets.contains(key) && key != MigrationPlan.schemaVersionKey
      && !legacyNames.contains(key)
    {
      legacy[key] = value
    }
    return Result(legacy: legacy, problems: problems)
  }

  func back(_ typed: PlistValue, _ entry: MigrationPlan.Entry) -> PlistValue? {
    switch (entry.type, typed) {
    case (.bool, .bool), (.integer, .integer), (.integer, .unsignedInteger), (.double, .real),
      (.string, .string), (.date, .date), (.data, .data), (.array, .array),
      (.dictionary, .dictionary), (.any, _), (.enum, .string):
      return typed
    case (.double, .integer(let i)): return .real(Double(i))
    case (.stringArray, .array(let list)):
      return list.allSatisfy { if case .string = $0 { true } else { false } } ? typed : nil
    case (.url, .string(let text)):
      guard let url = URL(string: text) else { return nil }
      if url.isFileURL { return .string(url.path) }
      return try? .data(KeyedArchive.archive(url))
    case (.json, .dictionary), (.json, .array), (.json, .string), (.json, .integer),
      (.json, .real), (.json, .bool):
      guard let text = try? PropertyList.json(typed, lossless: true, compact: true) else {
        return nil
      }
      return .data(Data(text.utf8))
    default:
      return nil
    }
  }
}
