import Foundation
import Preferences
import TestSupport
import Testing

@Suite struct ReadmeSnippetTests {
  static func lines(_ text: String, from begin: String, to end: String) -> [String] {
    let all = text.components(separatedBy: "\n")
    guard let start = all.firstIndex(where: { $0.contains(begin) }),
      let stop = all[start...].firstIndex(where: { $0.contains(end) })
    else { return [] }
    return Array(all[(start + 1)..<stop])
  }

  /// The README block under "Use it as a library" is the compiled snippet, line for line.
  @Test func readmeShowsTheCompiledSnippet() throws {
    let root = External.packageRoot
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let source = try String(
      contentsOf: root.appendingPathComponent("Tests/PreferencesTests/ReadmeSnippet.swift"),
      encoding: .utf8)
    let afterMarker = Self.lines(
      readme, from: "<!-- snippet: library -->", to: "<!-- end snippet -->")
    // The marker is followed by a ```swift fence; the block ends at the closing fence.
    let shown = Array(
      afterMarker.drop { !$0.hasPrefix("```swift") }.dropFirst().prefix { $0 != "```" })
    let compiled = Self.lines(source, from: "// README BEGIN", to: "// README END")
    #expect(!compiled.isEmpty)
    #expect(shown == compiled)
  }

  /// Runs to completion as written: the change stream starts with the current value.
  @Test(.timeLimit(.minutes(1)))
  func theSnippetRuns() async throws {
    let store = PreferencesStore.inMemory()
    try await readmeExample(store: store)
    #expect(store[Keys.volume] == 0.5)
    #expect(store[Keys.lastPlace]?.address == "Seoul")
  }
}
