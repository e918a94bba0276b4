import Foundation
import TestSupport
import Testing

/// The quick test line (`swift test --skip /Slow/`, README) skips the slow tests by the one
/// rule that they live in suites named `Slow`: a test tagged `.slow` anywhere else would run in
/// the quick line, and a `Slow` suite without the tag would be skipped unmarked.
@Suite struct SlowSuiteTests {
  static let tests = External.packageRoot.appendingPathComponent("Tests")

  @Test func theSlowTagIsGivenOnlyToSuitesNamedSlowAndEverySuchSuiteHasIt() throws {
    let files = try #require(FileManager.default.enumerator(atPath: Self.tests.path))
      .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
    var tagged = 0
    var slowSuites = 0
    for file in files where file != "PropertyListTests/SlowSuiteTests.swift" {
      let text = try String(
        contentsOf: Self.tests.appendingPathComponent(file), encoding: .utf8)
      for line in text.split(separator: "\n") {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("///") || trimmed.hasPrefix("//") { continue }
        let isSlowSuite = trimmed.contains("struct Slow {")
        if isSlowSuite { slowSuites += 1 }
        if trimmed.contains(".tags(.slow") {
          tagged += 1
          #expect(
            isSlowSuite && trimmed.hasPrefix("@Suite("),
            "\(file): the .slow tag outside a suite named Slow: \(trimmed)")
        } else if isSlowSuite {
          Issue.record("\(file): a suite named Slow without the .slow tag: \(trimmed)")
        }
      }
    }
    // The slow tests the README's numbers speak of: the durability and torture suites, the
    // 10,000-file batch, the two live-writer races, the million bit patterns, and the two
    // packages built of their own.
    #expect(tagged >= 8, "\(tagged) suites tagged .slow")
    #expect(slowSuites == tagged)
  }
}
