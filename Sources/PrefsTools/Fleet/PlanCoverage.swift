import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What a dry run of a plan over a fleet of legacy files shows: the suspected typos, the
/// legacy keys no entry names, the keys the plan drops on purpose, the entries no file has,
/// and the values that would fall back or be refused, each with how many files and a few
/// examples.
package struct PlanCoverage: Sendable, Hashable {
  package struct Finding: Sendable, Hashable {
    package var key: String
    package var files: Int
    package var examples: [String]
  }

  /// An entry whose `from` a file does not have beside a legacy key of that file no entry
  /// names, the two near misses of each other (``MigrationPlan/isNearMiss(_:_:)``).
  package struct Typo: Sendable, Hashable {
    /// The entry's `from`.
    package var entry: String
    /// The legacy key it probably means.
    package var key: String
    package var files: Int
    package var examples: [String]
  }

  package var files: Int
  /// Files that would migrate (or are migrated already).
  package var migrating: Int
  /// Files by status, for those that would not migrate.
  package var failing: [FileStatus: Int]
  /// Suspected typos: under `unmapped: drop` each refuses its files (the setting would be
  /// lost), under `keep` the key is kept and the entry's typed key reads its default.
  package var typos: [Typo]
  /// Legacy keys no entry names (nor the plan's `drop`).
  package var unmapped: [Finding]
  /// Legacy keys the plan's `drop` drops on purpose.
  package var dropped: [Finding]
  /// Entries whose legacy key no file has.
  package var unused: [String]
  /// Values that would read as the entry's default.
  package var fallbacks: [Finding]
  /// Values the type cannot hold (the file is refused).
  package var refusals: [Finding]

  /// Whether the whole fleet would migrate.
  package var passes: Bool { migrating == files }

  package init(plan: MigrationPlan, outcomes: [FileOutcome]) {
    files = outcomes.count
    migrating = outcomes.filter { $0.status == .migrated || $0.status == .unchanged }.count
    failing = [:]
    for outcome in outcomes where outcome.status != .migrated && outcome.status != .unchanged {
      failing[outcome.status, default: 0] += 1
    }
    let named = Set(plan.entries.map(\.from))
    var unmapped: [String: Finding] = [:]
    var dropped: [String: Finding] = [:]
    var typos: [String: Typo] = [:]
    var fallbacks: [String: Finding] = [:]
    var refusals: [String: Finding] = [:]
    var present = Set<String>()
    func note(_ table: inout [String: Finding], _ key: String, _ file: String) {
      var finding = table[key] ?? Finding(key: key, files: 0, examples: [])
      finding.files += 1
      if finding.examples.count < 3 { finding.examples.append(file) }
      table[key] = finding
    }
    for outcome in outcomes {
      for key in outcome.keys {
        guard let from = key.from else { continue }
        if key.action != .defaulted, named.contains(from) { present.insert(from) }
        if let entry = key.nearMiss, !named.contains(from) {
          let id = entry + "\u{0}" + from
          var typo = typos[id] ?? Typo(entry: entry, key: from, files: 0, examples: [])
          typo.files += 1
          if typo.examples.count < 3 { typo.examples.append(outcome.path) }
          typos[id] = typo
        }
        switch key.action {
        case .kept, .dropped:
          if named.contains(from) || from == MigrationPlan.schemaVersionKey { break }
          if plan.drop.contains(from), key.action == .dropped {
            note(&dropped, from, outcome.path)
          } else {
            note(&unmapped, from, outcome.path)
          }
        case .fallback: note(&fallbacks, from, outcome.path)
        case .unconvertible: note(&refusals, from, outcome.path)
        default: break
        }
      }
    }
    let order = { (a: Finding, b: Finding) in
      a.files > b.files || (a.files == b.files && a.key < b.key)
    }
    self.unmapped = unmapped.values.sorted(by: order)
    self.dropped = dropped.values.sorted(by: order)
    self.typos = typos.values.sorted {
      $0.files > $1.files || ($0.files == $1.files && ($0.entry, $0.key) < ($1.entry, $1.key))
    }
    self.fallbacks = fallbacks.values.sorted(by: order)
    self.refusals = refusals.values.sorted(by: order)
    self.unused = plan.entries.map(\.from).filter { !present.contains($0) }.sorted()
  }

  /// The summary as a person reads it.
  package func text() -> String {
    var out = "\(files) file\(files == 1 ? "" : "s"): \(migrating) would migrate"
    for status in FileStatus.allCases {
      if let n = failing[status] { out += ", \(n) \(status.rawValue)" }
    }
    out += "\n"
    func section(_ title: String, _ findings: [Finding]) {
      guard !findings.isEmpty else { return }
      out += "\(title):\n"
      for finding in findings {
        out += "  \(finding.key.shownSafely): \(finding.files) file\(finding.files == 1 ? "" : "s")"
        out += " (e.g. " + finding.examples.map(\.shownSafely).joined(separator: ", ") + ")\n"
      }
    }
    if !typos.isEmpty {
      out += "suspected typos (an entry a file does not have, beside a key no entry names):\n"
      for typo in typos {
        out +=
          "  \(typo.entry.shownSafely): did you mean \(typo.key.shownSafely)? \(typo.files) file"
        out += typo.files == 1 ? "" : "s"
        out += " (e.g. " + typo.examples.map(\.shownSafely).joined(separator: ", ") + ")\n"
      }
    }
    section("legacy keys no entry names", unmapped)
    section("legacy keys the plan drops on purpose (drop)", dropped)
    section("values that would read as the default", fallbacks)
    section("values the type cannot hold (the file is refused)", refusals)
    if !unused.isEmpty {
      out += "entries no file has: " + unused.map(\.shownSafely).joined(separator: ", ") + "\n"
    }
    return out
  }
}
