import LegacyDefaults
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `find WORD`: every domain of the preferences folder searched for keys and values that
/// contain a word, ignoring case.
package struct DomainSearch: Sendable {
  /// The matches of one domain, or why it was not searched.
  package enum Result: Sendable {
    case matches(PlistDictionary)
    /// The domain's file does not read, or is not a domain: it is named, and skipped.
    case skipped(ToolError)
  }

  package let word: String

  package init(word: String) { self.word = word }

  /// Each domain of the preferences folder that matches (or could not be searched), by name,
  /// in the order of the names.
  package func run(resolver: DomainResolver) throws(ToolError) -> [(
    domain: String, result: Result
  )] {
    let names = try resolver.domainNames().names
    var results: [(domain: String, result: Result)] = []
    for name in names {
      let file = DomainFile(path: try resolver.path(name))
      do {
        let (values, _) = try file.domainDocument()
        var matches = PlistDictionary()
        for (key, value) in values where contains(key) || contains(value) {
          matches[key] = value
        }
        if !matches.isEmpty { results.append((name, .matches(matches))) }
      } catch {
        results.append((name, .skipped(.read(error))))
      }
    }
    return results
  }

  func contains(_ text: String) -> Bool { text.lowercased().contains(word.lowercased()) }

  func contains(_ value: PlistValue) -> Bool {
    switch value {
    case .string(let s): contains(s)
    case .array(let a): a.contains { contains($0) }
    case .dictionary(let d): d.contains { contains($0.key) || contains($0.value) }
    case .data, .uid: false
    default: contains(PropertyList.describe(value))
    }
  }
}
