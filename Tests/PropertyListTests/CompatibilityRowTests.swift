import Foundation
import PropertyList
import TestSupport
import Testing

/// Every refusal, and every reading that differs from the dialect's own reader, names its row
/// of Docs/compatibility.md (`[differential: ID]`, issue 46): the table is read here, and every
/// id the sources or the differential's rows name must be one of its rows.
@Suite struct CompatibilityRowTests {
  static func text(_ path: String) throws -> String {
    try String(
      contentsOf: External.packageRoot.appendingPathComponent(path), encoding: .utf8)
  }

  /// The ids `pattern` captures in `text`.
  static func ids(_ text: String, _ pattern: String) throws -> Set<String> {
    let regex = try Regex(pattern)
    var found: Set<String> = []
    for match in text.matches(of: regex) {
      if let id = match.output[1].substring { found.insert(String(id)) }
    }
    return found
  }

  /// The ids of the table's rows: `[differential: ID]` in a row of a table.
  static func tableIDs() throws -> Set<String> {
    let rows = try text("Docs/compatibility.md").split(separator: "\n").filter {
      $0.hasPrefix("|")
    }
    return try ids(rows.joined(separator: "\n"), #"\[differential: ([a-z0-9-]+)\]"#)
  }

  static func sourceFiles() throws -> [String] {
    let root = External.packageRoot.appendingPathComponent("Sources")
    guard let walk = FileManager.default.enumerator(atPath: root.path) else { return [] }
    return walk.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map {
      "Sources/" + $0
    }
  }

  @Test func everyRowNamedInTheSourcesIsARowOfTheTable() throws {
    let table = try Self.tableIDs()
    #expect(table.count >= 80)
    var named = Set(CompatibilityRow.allCases.map(\.rawValue))
    for file in try Self.sourceFiles() {
      named.formUnion(try Self.ids(try Self.text(file), #"\[differential: ([a-z0-9-]+)\]"#))
    }
    #expect(named.isSuperset(of: ["binary-set", "binary-null", "xml-key-without-value"]))
    #expect(named.subtracting(table).isEmpty, "not rows of the table: \(named.subtracting(table))")
    // The catch-all rows of several causes each are gone (issue 46: one cause a row).
    #expect(
      table.isDisjoint(with: [
        "malformed-xml", "openstep-abandoned", "malformed-binary", "gnustep-lax-xml",
        "gnustep-lax-binary", "gnustep-lax-text",
      ]))
  }

  @Test func everyRowOfTheDifferentialIsARowOfTheTable() throws {
    let table = try Self.tableIDs()
    let rows = try Self.ids(try Self.text("Scripts/Differential/rows.py"), #"Row\("([a-z0-9-]+)""#)
    #expect(rows.count >= 10)
    #expect(rows.subtracting(table).isEmpty, "not rows of the table: \(rows.subtracting(table))")
  }

  /// The errors and warnings that name a row give it, and it is in the table.
  @Test func refusalsAndReadingsNameTheirRow() throws {
    let table = try Self.tableIDs()
    let set = BinaryList.bplist(objects: [[0xC1, 1], [0x51, 0x61]])
    let null = BinaryList.bplist(objects: [[0x00]])
    let warning = try #require(try PropertyList.read(set).warnings.first)
    #expect(warning.compatibilityRow == "binary-set")
    let refusals: [(Data, PlistReadOptions, String)] = [
      (set, .gnustep, "binary-set"), (null, .coreFoundation, "binary-null"),
      (null, .lenient, "binary-null"),
    ]
    for (data, options, row) in refusals {
      #expect(throws: PlistError.self) { try PropertyList.read(data, options: options) }
      do {
        _ = try PropertyList.read(data, options: options)
      } catch {
        #expect(error.compatibilityRow == row)
      }
    }
    #expect(table.isSuperset(of: ["binary-set", "binary-null", "tools-read-more"]))
  }

  /// The refusals of the differential's rows name them: a truncated binary file, text not
  /// valid in its encoding, a safety limit, a non-string key, a binary date of NaN, an octal
  /// escape above \\177, a comment without its end.
  @Test func theDifferentialsRefusalsNameTheirRows() throws {
    let table = try Self.tableIDs()
    let deep = String(repeating: "(", count: 600) + String(repeating: ")", count: 600)
    let cases: [(Data, String)] = [
      (Data("bplist00".utf8) + Data([0xA1, 1]), "truncated-binary"),
      (Data([0x28, 0x22, 0xFF, 0x22, 0x29]), "invalid-text"),
      (Data(deep.utf8), "safety-limits"),
      (BinaryList.bplist(objects: [[0xD1, 1, 2], [0x10, 5], [0x51, 0x76]]), "nonstring-key"),
      (
        BinaryList.bplist(objects: [[0x33, 0x7F, 0xF8, 0, 0, 0, 0, 0, 0]]),
        "nonfinite-binary-date"
      ),
      (Data(#"("\351")"#.utf8), "octal-escape-above-177"),
      (Data("{ a = 1; } /* x".utf8), "unterminated-comment"),
    ]
    for (data, row) in cases {
      do {
        let document = try PropertyList.read(data, options: .coreFoundation)
        Issue.record("\(row): read as \(document.value)")
      } catch {
        #expect(error.compatibilityRow == row, "\(error)")
        #expect(table.contains(row))
      }
    }
  }

  /// Every refusal names a row of the table, whatever broke: every fixture, cut short at six
  /// places and with a byte flipped at six, read as each reader reads it.
  @Test func everyRefusalNamesARowOfTheTable() throws {
    let table = try Self.tableIDs()
    let options: [PlistReadOptions] = [
      .coreFoundation, .gnustep, .lenient, PlistReadOptions(reader: .gnustep, exact: false),
    ]
    var refusals = 0
    var rows: Set<String> = []
    for folder in [Fixtures.valid, Fixtures.hostile] {
      for name in Fixtures.files(in: folder) {
        let data = try Data(contentsOf: folder.appendingPathComponent(name))
        var inputs = [data]
        for k in 0..<6 {
          let place = data.count * k / 6 + (k == 0 ? 0 : 7 * k)
          inputs.append(data.prefix(min(place, data.count)))
          guard !data.isEmpty else { continue }
          var flipped = data
          flipped[flipped.startIndex + (place + 3) % data.count] ^= 0xA5
          inputs.append(flipped)
        }
        for input in inputs {
          for option in options {
            do {
              _ = try PropertyList.read(input, options: option)
            } catch {
              refusals += 1
              guard let row = error.compatibilityRow else {
                Issue.record("\(name) (\(input.count) bytes), \(option): no row in \(error)")
                continue
              }
              rows.insert(row)
              #expect(table.contains(row), "\(name): \(row) is no row of the table")
            }
          }
        }
      }
    }
    #expect(refusals > 1000)
    #expect(rows.count >= 30)
  }
}
