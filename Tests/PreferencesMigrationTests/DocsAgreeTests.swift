import Foundation
import TestSupport
import Testing

/// Each reference statement is made in one document and pointed to from the others, so that
/// two copies cannot contradict each other again (they did, on keys that differ only in
/// Unicode normalization): the deliberate differences from the references are one page
/// (`Docs/compatibility.md`), the guarantees of `synchronize()` are the `LegacyDefaults`
/// documentation's, the safety limits `PropertyList`'s.
@Suite struct DocsAgreeTests {
  /// README.md, MIGRATION.md, `Docs/*.md` and the DocC articles, by path from the root.
  static func documents() throws -> [String: String] {
    let root = External.packageRoot
    let files = FileManager.default
    var paths = ["README.md", "MIGRATION.md"]
    paths += try files.contentsOfDirectory(atPath: root.appendingPathComponent("Docs").path)
      .filter { $0.hasSuffix(".md") }.map { "Docs/" + $0 }
    for module in try files.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)
    {
      let catalogue = "Sources/\(module)/\(module).docc"
      guard
        let articles = try? files.contentsOfDirectory(
          atPath: root.appendingPathComponent(catalogue).path)
      else { continue }
      paths += articles.filter { $0.hasSuffix(".md") }.map { "\(catalogue)/\($0)" }
    }
    var texts: [String: String] = [:]
    for path in paths {
      texts[path] = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }
    return texts
  }

  /// A statement, by a line only its one home holds, and that home.
  static let statements: [(line: String, home: String)] = [
    ("| case | reference behaviour | prefs |", "Docs/compatibility.md"),
    ("| case | macOS `defaults` | prefs |", "Docs/compatibility.md"),
    ("## Where prefs deliberately differs from a reference", "Docs/compatibility.md"),
    (
      "corelibs' `UserDefaults` loses writes made without `synchronize()`",
      "Sources/LegacyDefaults/LegacyDefaults.docc/LegacyDefaults.md"
    ),
    ("| nesting depth | 512 |", "Sources/PropertyList/PropertyList.docc/PropertyList.md"),
    ("| Objective-C (NSUserDefaults) | prefs (`import LegacyDefaults`) |", "MIGRATION.md"),
    ("**A folder is a held descriptor.**", "Docs/security.md"),
    ("decides by the first character that is not C white space", "MIGRATION.md"),
    ("prefs migrate --plan PLAN (--to OUT | --in-place)", "Docs/commands.md"),
  ]

  @Test(arguments: statements.map(\.line))
  func saidOnce(_ line: String) throws {
    let home = try #require(Self.statements.first { $0.line == line }?.home)
    let holders = try Self.documents().filter { $0.value.contains(line) }.keys.sorted()
    #expect(holders == [home], "\(line)")
  }

  /// The Markdown links between the documents lead to files that exist.
  @Test func theLinksLeadSomewhere() throws {
    let root = External.packageRoot
    let link = /\]\(([^)#:]+\.md)(#[^)]*)?\)/
    for (path, text) in try Self.documents() where !path.hasPrefix("Sources/") {
      let folder = (path as NSString).deletingLastPathComponent
      for match in text.matches(of: link) {
        let target = (folder as NSString).appendingPathComponent(String(match.output.1))
        #expect(
          FileManager.default.fileExists(atPath: root.appendingPathComponent(target).path),
          "\(path) links to \(match.output.1), which does not exist")
      }
    }
  }
}
