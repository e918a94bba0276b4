import LegacyDefaults
import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A legacy file that gave no values, in `migrate`'s terms.
package struct UnreadLegacyFile: Error, Sendable, Hashable {
  package var path: String
  /// `missing` (absent, not a regular file, unreadable) or `malformed` (does not parse, or
  /// is not a dictionary).
  package var status: FileStatus
  package var message: String
}

extension PlanInference {
  /// One legacy domain's values, read exactly as `dialect`'s reader read it (as the
  /// migration reads it): an absent or unreadable file is an error, never an empty domain.
  package static func legacyValues(
    at path: String, dialect: Dialect = .apple, limits: PlistLimits = .default
  ) -> Result<[String: PlistValue], UnreadLegacyFile> {
    let snapshot: DomainSnapshot
    do {
      var file = DomainFile(path: path, limits: limits)
      file.readOptions = dialect.readOptions(exact: true)
      snapshot = try file.read()
    } catch {
      // Absent reads as no bytes (below); a file there that cannot be read (a FIFO, denied,
      // an I/O error) failed.
      let status: FileStatus = if case .cannotRead = error { .failed } else { .malformed }
      return .failure(UnreadLegacyFile(path: path, status: status, message: "\(error)"))
    }
    if let unreadable = snapshot.unreadable {
      return .failure(UnreadLegacyFile(path: path, status: .malformed, message: unreadable.reason))
    }
    guard snapshot.bytes != nil else {
      return .failure(UnreadLegacyFile(path: path, status: .missing, message: "no such file"))
    }
    return .success(snapshot.values.swiftDictionary)
  }

  /// Reads every file, `jobs` at a time, into one inference; `progress(done, total)` after
  /// each. The files that gave no values come back in the order of `paths`.
  package static func infer(
    _ paths: [String], dialect: Dialect, jobs: Int,
    progress: (@Sendable (Int, Int) -> Void)? = nil
  ) -> (inference: PlanInference, unread: [UnreadLegacyFile]) {
    let merged = Locked(PlanInference(dialect: dialect))
    let failures = Locked([(index: Int, file: UnreadLegacyFile)]())
    let next = Locked(0)
    let finished = Locked(0)
    Threads.concurrentPerform(iterations: max(1, min(jobs, paths.count))) { _ in
      var local = PlanInference(dialect: dialect)
      while true {
        let index = next.withLock { n -> Int in
          defer { n += 1 }
          return n
        }
        guard index < paths.count else { break }
        switch legacyValues(at: paths[index], dialect: dialect) {
        case .success(let values): local.add(values, file: paths[index])
        case .failure(let unread): failures.withLock { $0.append((index, unread)) }
        }
        let done = finished.withLock { n -> Int in
          n += 1
          return n
        }
        progress?(done, paths.count)
      }
      merged.withLock { $0.merge(local) }
    }
    let unread = failures.withLock { $0.sorted { $0.index < $1.index }.map(\.file) }
    return (merged.withLock { $0 }, unread)
  }

  /// The evidence behind each proposed entry, as a table (for standard error): the key, in how
  /// many files, the type proposed, the kinds and the few distinct values seen, and notes.
  package func evidenceTable() -> String {
    var rows: [[String]] = [["KEY", "FILES", "TYPE", "EVIDENCE"]]
    var notes: [String] = []
    for proposal in proposals() {
      let key = proposal.entry.from
      guard let item = evidence[key] else { continue }
      let kinds = item.kinds.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key.rawValue)" }
      var type = proposal.entry.type.rawValue
      if !proposal.entry.values.isEmpty {
        type += " (" + proposal.entry.values.map(\.shownSafely).joined(separator: "|") + ")"
      }
      var evidence = kinds.joined(separator: ", ")
      // A few distinct values are shown, most common first: they are what an enum or a
      // default is chosen from.
      if !item.tooManyDistinct, item.distinct.count <= 5 {
        let values = item.distinct.sorted {
          $0.value > $1.value || ($0.value == $1.value && "\($0.key)" < "\($1.key)")
        }
        evidence +=
          "; values "
          + values.map { "\(MigrationReport.short($0.key)) ×\($0.value)" }.joined(separator: ", ")
      }
      if proposal.entry.type == .enum {
        for group in Self.differingOnlyInCase(proposal.entry.values) {
          evidence += "; differ only in case: " + group.joined(separator: "/")
        }
      }
      rows.append([key.shownSafely, "\(item.files)/\(domains)", type, evidence])
      if let note = proposal.note {
        notes.append("\(key.shownSafely): \(note.withControlsEscaped)")
      }
    }
    let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
    var out = ""
    for row in rows {
      for column in 0..<3 { out += row[column].padded(to: widths[column] + 2) }
      out += row[3] + "\n"
    }
    for note in notes { out += "note: \(note)\n" }
    out +=
      "\(evidence.count) key\(evidence.count == 1 ? "" : "s") in "
      + "\(domains) file\(domains == 1 ? "" : "s")\n"
    return out
  }
}
