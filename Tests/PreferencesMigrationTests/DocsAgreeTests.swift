import Foundation
import TestSupport
import Testing

/// The DocC article `MigratingLegacyDefaults` mirrors `MIGRATION.md`: the tables a reader looks
/// things up in (Objective-C → Swift, the deliberate deviations from the references) and the
/// guarantees of `synchronize()` are the same text in both, so that they cannot contradict
/// each other again (they did on keys that differ only in Unicode normalization).
@Suite struct DocsAgreeTests {
  static func text(_ path: String) throws -> String {
    try String(contentsOf: External.packageRoot.appendingPathComponent(path), encoding: .utf8)
  }

  static let article =
    "Sources/PreferencesMigration/PreferencesMigration.docc/"
    + "MigratingLegacyDefaults.md"

  /// The lines of the table whose header row starts with `header`.
  static func table(_ text: String, header: String) -> [String] {
    let lines = text.components(separatedBy: "\n")
    guard let start = lines.firstIndex(where: { $0.hasPrefix(header) }) else { return [] }
    return Array(lines[start...].prefix { $0.hasPrefix("|") })
  }

  /// The paragraphs after the heading that contains `heading`, up to the next heading.
  static func section(_ text: String, heading: String) -> [String] {
    let lines = text.components(separatedBy: "\n")
    guard let start = lines.firstIndex(where: { $0.hasPrefix("#") && $0.contains(heading) })
    else { return [] }
    return Array(lines[(start + 1)...].prefix { !$0.hasPrefix("#") })
  }

  @Test func theTablesAreTheSame() throws {
    let migration = try Self.text("MIGRATION.md")
    let article = try Self.text(Self.article)
    for header in ["| case | reference behaviour | prefs |", "| Objective-C"] {
      let expected = Self.table(migration, header: header)
      #expect(expected.count > 10, "\(header)")
      // The header's first cell is spelt with backticks in one and not the other.
      #expect(Self.table(article, header: header).dropFirst() == expected.dropFirst(), "\(header)")
    }
  }

  @Test func theSynchronizeGuaranteesAreTheSame() throws {
    let heading = "guarantees (and the references do not)"
    let expected = Self.section(try Self.text("MIGRATION.md"), heading: heading)
    #expect(expected.count > 10)
    #expect(Self.section(try Self.text(Self.article), heading: heading) == expected)
  }
}
