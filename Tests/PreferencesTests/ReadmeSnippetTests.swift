import Foundation
import Observation
import Preferences
import Synchronization
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

/// The README's two models, `@Setting` and the hand-written `didSet` one, shown as compiled,
/// and run the same way: a write through the model, through a second store of the domain, and
/// by another process all reach `withObservationTracking` and the model's value.
@Suite struct ReadmeModelSnippetTests {
  @Test func readmeShowsTheCompiledModels() throws {
    for (name, path) in [
      ("model", "Tests/PreferencesTests/ReadmeModelSnippet.swift"),
      ("model-didset", "Tests/PreferencesTests/ReadmeDidSetSnippet.swift"),
    ] {
      let compiled = try ReadmeSnippet.compiled(path)
      #expect(!compiled.isEmpty)
      #expect(try ReadmeSnippet.shown(name) == compiled, "\(name)")
    }
  }

  /// Polls `condition` on the main actor, letting it run meanwhile (the hand-written model
  /// applies other writers' changes in a main-actor task).
  @MainActor
  static func until(_ condition: () -> Bool) async throws -> Bool {
    for _ in 0..<2000 {
      if condition() { return true }
      try await Task.sleep(for: .milliseconds(5))
    }
    return condition()
  }

  @MainActor
  static func check(
    read: () -> String, write: (String) -> Void, url: URL
  ) async throws {
    let second = try PreferencesStore(url: url)
    let writer = External.product("prefs-stress")
    for (n, how) in ["the model", "a second store", "another process"].enumerated() {
      let value = "value \(n)"
      let fired = Mutex(false)
      withObservationTracking {
        _ = read()
      } onChange: {
        fired.withLock { $0 = true }
      }
      switch n {
      case 0: write(value)
      case 1: second[Keys.userName] = value
      default:
        let result = try External.run(writer, ["set-string", url.path, "nombreUsuario", value])
        #expect(result.status == 0, "\(result.stderr)")
      }
      #expect(try await until { fired.withLock { $0 } }, "a write through \(how) is tracked")
      #expect(try await until { read() == value }, "a write through \(how) is read")
    }
  }

  @MainActor @Test func theSettingModelFollowsEveryWriter() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("seed.plist")
    let settings = UserSettings(store: try PreferencesStore(url: url))
    #expect(settings.userName == "Lucas")
    try await Self.check(read: { settings.userName }, write: { settings.userName = $0 }, url: url)
  }

  @MainActor @Test func theHandWrittenModelFollowsEveryWriter() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("seed.plist")
    let settings = UserSettingsByHand(store: try PreferencesStore(url: url))
    #expect(settings.userName == "Lucas")
    try await Self.check(read: { settings.userName }, write: { settings.userName = $0 }, url: url)
  }
}
