import LegacyDefaults
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The plan backwards: typed values back to legacy keys, in the types the legacy code wrote
/// (`setBool:` a boolean, `setInteger:` an integer, an enum its raw string, a `json` value the
/// JSON bytes an app that stored `Codable` values as JSON wrote), so that a release can be
/// rolled back.
public struct Exporter: Sendable {
  public let plan: MigrationPlan

  public init(plan: MigrationPlan) { self.plan = plan }

  /// What the export produced.
  public struct Output: Sendable, Hashable {
    /// The legacy domain, keys as they go in the file (by their bytes).
    public var legacy: PlistDictionary
    /// Typed values that do not have their entry's type (the file is refused).
    public var problems: [String]
  }

  public func export(_ store: [String: PlistValue]) -> Output { export(PlistDictionary(store)) }

  /// ``export(_:)-([String:PlistValue])`` of a store as its file holds it: keys compared by
  /// their bytes, so keys that differ only in Unicode normalization stay two keys.
  public func export(_ store: PlistDictionary) -> Output {
    var legacy = PlistDictionary()
    var problems: [String] = []
    for entry in plan.entries {
      guard let typed = store[entry.to] else { continue }
      switch back(typed, entry) {
      case .success(let value): legacy[entry.from] = value
      case .failure(let problem): problems.append("\(entry.to): \(problem.reason)")
      }
    }
    let named = Set(plan.entries.flatMap { [DomainKey($0.to), DomainKey($0.from)] })
    for (key, value) in store
    where !named.contains(DomainKey(key)) && key != MigrationPlan.schemaVersionKey {
      legacy[key] = value
    }
    return Output(legacy: legacy, problems: problems)
  }

  /// Why a typed value cannot go back to its legacy key.
  struct Problem: Error {
    var reason: String
  }

  /// A typed value back in the type the legacy code wrote (one arm a plan type, so that a
  /// new type is a case the compiler asks for here).
  func back(_ typed: PlistValue, _ entry: MigrationPlan.Entry) -> Swift.Result<PlistValue, Problem>
  {
    let wrongType = Swift.Result<PlistValue, Problem>.failure(
      Problem(
        reason: "\(typed.typeName.withArticle) is not \("\(entry.type.rawValue) value".withArticle)"
      ))
    func holds(_ matches: Bool) -> Swift.Result<PlistValue, Problem> {
      matches ? .success(typed) : wrongType
    }
    switch entry.type {
    case .bool: if case .bool = typed { return .success(typed) } else { return wrongType }
    case .integer:
      switch typed {
      case .integer, .unsignedInteger: return .success(typed)
      default: return wrongType
      }
    case .double:
      switch typed {
      case .real: return .success(typed)
      case .integer(let i): return .success(.real(Double(i)))
      default: return wrongType
      }
    case .string, .enum: return holds(typed.stringValue != nil)
    case .date: if case .date = typed { return .success(typed) } else { return wrongType }
    case .data: if case .data = typed { return .success(typed) } else { return wrongType }
    case .array: return holds(typed.arrayValue != nil)
    case .dictionary: return holds(typed.dictionaryValue != nil)
    case .any: return .success(typed)
    case .stringArray:
      guard let list = typed.arrayValue else { return wrongType }
      return holds(list.allSatisfy { $0.stringValue != nil })
    case .url:
      guard case .string(let text) = typed else { return wrongType }
      guard let url = URL(string: text) else {
        return .failure(Problem(reason: "\"\(text)\" is not a URL"))
      }
      if url.isFileURL { return .success(.string(url.path)) }
      do {
        return .success(.data(try KeyedArchive.archive(url)))
      } catch {
        return .failure(Problem(reason: "the URL \(text) cannot be archived: \(error)"))
      }
    case .json:
      switch typed {
      case .dictionary, .array, .string, .integer, .real, .bool:
        do {
          return .success(
            .data(Data(try PropertyList.json(typed, lossless: true, compact: true).utf8)))
        } catch {
          return .failure(Problem(reason: "it has no JSON form: \(error)"))
        }
      default: return wrongType
      }
    }
  }
}
