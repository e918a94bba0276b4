import Foundation
import PropertyList
import TestSupport
import Testing

/// Where the committed fixtures live.
enum Fixtures {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures")
  static let valid = root.appendingPathComponent("valid")
  static let hostile = root.appendingPathComponent("hostile")
  static let hostileOK = root.appendingPathComponent("hostile-ok")

  /// Every fixture file (not the expectations) in a folder, sorted.
  static func files(in folder: URL) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { !$0.hasSuffix(".json") && !$0.hasSuffix(".md") }.sorted()
  }

  /// The expectation for a file: `X.expected.json`, else `NAME.expected.json`.
  static func expectation(for name: String) throws -> PlistValue {
    let own = valid.appendingPathComponent(name + ".expected.json")
    let base = name.split(separator: ".").first.map(String.init) ?? name
    let shared = valid.appendingPathComponent(base + ".expected.json")
    let url = FileManager.default.fileExists(atPath: own.path) ? own : shared
    return try TypedJSON.decode(Data(contentsOf: url))
  }
}
