import Foundation
import Preferences
import TestSupport
import Testing

@Suite struct ReadmeSnippetTests {
  /// The README block is the compiled snippet, line for line.
  @Test func readmeShowsTheCompiledSnippet() throws {
    let compiled = try ReadmeSnippet.compiled("Tests/PreferencesTests/ReadmeSnippet.swift")
    #expect(!compiled.isEmpty)
    #expect(try ReadmeSnippet.shown("library") == compiled)
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
