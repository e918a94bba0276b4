import Foundation
import TestSupport
import Testing

/// Every Swift block of the documents compiles as written: `Scripts/doc-blocks.sh` builds each
/// ```swift block of README.md, MIGRATION.md, `Docs/*.md` and the DocC articles from a package
/// of its own, with only the imports the reader sees (a fragment inside the scaffold its
/// marker names), in one build, and runs the README's migration at launch against a temporary
/// legacy file and domain.
@Suite struct DocBlocksTests {
  /// The documents the script reads, found here on their own.
  static func documents() throws -> [URL] {
    let root = External.packageRoot
    let files = FileManager.default
    var found = [
      root.appendingPathComponent("README.md"), root.appendingPathComponent("MIGRATION.md"),
    ]
    let docs = root.appendingPathComponent("Docs")
    found += try files.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }
      .map { docs.appendingPathComponent($0) }
    let sources = root.appendingPathComponent("Sources")
    for module in try files.contentsOfDirectory(atPath: sources.path) {
      let catalogue = sources.appendingPathComponent(module).appendingPathComponent(
        module + ".docc")
      guard let articles = try? files.contentsOfDirectory(atPath: catalogue.path) else { continue }
      found += articles.filter { $0.hasSuffix(".md") }.map { catalogue.appendingPathComponent($0) }
    }
    return found
  }

  /// The number of ```swift fences in the documents, counted without the script.
  static func swiftBlocks() throws -> (blocks: Int, documents: Int) {
    let documents = try documents()
    let blocks = try documents.map { url in
      try String(contentsOf: url, encoding: .utf8).split(
        separator: "\n", omittingEmptySubsequences: false
      )
      .filter { $0.trimmingCharacters(in: .whitespaces) == "```swift" }.count
    }
    return (blocks.reduce(0, +), documents.count)
  }

}

/// Slow: skipped by the quick test line (`swift test --skip /Slow/`).
extension DocBlocksTests {
  @Suite(.tags(.slow)) struct Slow {
    @Test(.timeLimit(.minutes(15)))
    func everySwiftBlockCompilesAsWritten() async throws {
      let script = External.packageRoot.appendingPathComponent("Scripts/doc-blocks.sh").path
      let result = try await External.runOffPool("/bin/bash", [script])
      #expect(result.status == 0, "\(result.output)\n\(result.stderr)")
      let checks = result.output.split(separator: "\n").filter {
        $0.hasPrefix("ok ") || $0.hasPrefix("FAIL ")
      }
      let (blocks, documents) = try DocBlocksTests.swiftBlocks()
      #expect(blocks >= 20)
      // Every block was compiled: none skipped by a marker or a fence the script missed.
      #expect(
        checks.first
          == "ok   the blocks compile as written (\(blocks) blocks from \(documents) documents)",
        "\(result.output)")
      // The README's migration at launch, run: from a legacy file elsewhere and from the own domain.
      #expect(checks.count == 9, "\(result.output)")
      #expect(checks.allSatisfy { $0.hasPrefix("ok ") }, "\(result.output)")
    }
  }
}
