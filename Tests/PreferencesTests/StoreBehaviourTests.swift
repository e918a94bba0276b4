import Foundation
import LegacyDefaults
import Observation
import Preferences
import PreferencesExamples
import PropertyList
import Synchronization
import TestSupport
import Testing

@Suite struct StoreBehaviourTests {
  @Test func twoProcessesAppendingLoseNothing() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("list.plist")
    let stress = External.product("prefs-stress")
    let processes = try ["a", "b"].map { tag -> Process in
      let process = Process()
      process.executableURL = URL(fileURLWithPath: stress)
      process.arguments = ["append", file.path, "list", tag, "100"]
      try process.run()
      return process
    }
    for process in processes {
      process.waitUntilExit()
      #expect(process.terminationStatus == 0)
    }
    let list = try PreferencesStore(url: file).value(for: Key("list", default: [String]()))
    #expect(list.count == 200)
    #expect(Set(list).count == 200)
    // Each process's own appends stay in order.
    for tag in ["a", "b"] {
      #expect(list.filter { $0.hasPrefix(tag) } == (0..<100).map { "\(tag)-\($0)" })
    }
  }

  @Test func concurrentTasksWritingLeaveAConsistentState() async throws {
    let folder = try TemporaryFolder()
    let file = folder.file("concurrent.plist")
    let store = try PreferencesStore(url: file, writesThrough: false)
    let counter = Key("counter", default: 0)
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for i in 0..<1000 {
            store[Key("task\(task)", default: -1)] = i
            // Every tenth write also goes through modify (a locked read-modify-write).
            if i % 10 == 0 { try? store.modify(counter) { $0 += 1 } }
          }
        }
      }
    }
    try store.synchronize()
    let reopened = try PreferencesStore(url: file)
    for task in 0..<8 { #expect(reopened[Key("task\(task)", default: -1)] == 999) }
    #expect(reopened[counter] == 800)
    #expect(store.issues.isEmpty)
  }

  @Test func observationSeesLocalAndExternalChanges() async throws {
    let folder = try TemporaryFolder()
    let file = folder.file("observed.plist")
    let store = try PreferencesStore(url: file)
    let seen = Mutex<[Int]>([])
    let observation = store.observe(Keys.rankingSize) { value in seen.withLock { $0.append(value) }
    }
    store[Keys.rankingSize] = 10
    let other = try PreferencesStore(url: file)
    other[Keys.rankingSize] = 20
    try store.synchronize()
    try store.reset(Keys.rankingSize)
    #expect(seen.withLock { $0 } == [10, 20, 5])
    observation.cancel()
  }

  @Test func changesStream() async throws {
    let store = PreferencesStore.inMemory()
    let stream = store.changes(for: Keys.colorMode)
    let reader = Task {
      var values: [ColorModeOption] = []
      for await value in stream {
        values.append(value)
        if values.count == 3 { break }
      }
      return values
    }
    // The observer is registered when the stream is made: no wait is needed.
    store[Keys.colorMode] = .dark
    store[Keys.colorMode] = .light
    // The current value first, then each change.
    #expect(await reader.value == [.system, .dark, .light])
  }

  @Test func propertyWrapperForPlainClasses() {
    final class Sound {
      @StoredPreference var enabled: Bool
      init(store: PreferencesStore) { _enabled = StoredPreference(Keys.soundEnabled, in: store) }
    }
    let store = PreferencesStore.inMemory()
    let sound = Sound(store: store)
    #expect(sound.enabled == true)
    sound.enabled = false
    #expect(sound.enabled == false)
    #expect(store[Keys.soundEnabled] == false)
  }

  /// A locator given to `init(domain:locator:)` is where the domain lives, on every platform
  /// (on Apple platforms too, where no locator means the `UserDefaults` suite): the file is read
  /// back by python's plistlib, not by prefs.
  @Test(.enabled(if: Tools.python || External.required, "needs python3"))
  func domainLivesWhereTheLocatorSays() throws {
    let folder = try TemporaryFolder()
    let locator = DomainLocator(platform: .linux, environment: ["XDG_CONFIG_HOME": folder.url.path])
    let store = try PreferencesStore(domain: "com.example.located", locator: locator)
    store[Keys.rankingSize] = 12
    let file = folder.file("com.example.located.plist").path
    let result = try External.run(
      "/usr/bin/env",
      [
        "python3", "-c",
        "import plistlib,sys; print(plistlib.load(open(sys.argv[1],'rb'))['ranking.size'])", file,
      ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.output == "12\n")
  }

  @Test func seed002KeysCarryTheLegacyDefaults() {
    let store = PreferencesStore.inMemory()
    #expect(store[Keys.soundEnabled] == true)
    #expect(store[Keys.rankingSize] == 5)
  }
}

/// Seed 001: the location history.
@Suite struct LocationHistoryTests {
  static let seoul = UserLocationData(address: "Seoul", lat: "37.5", lon: "127.0")
  static let busan = UserLocationData(address: "Busan", lat: "35.1", lon: "129.0")
  static let jeju = UserLocationData(address: "Jeju", lat: "33.4", lon: "126.5")

  @Test func insertNewestFirstRemoveAtAndRemoveAll() throws {
    let history = LocationHistory(store: .inMemory())
    try history.insert(Self.seoul)
    try history.insert(Self.busan)
    try history.insert(Self.jeju)
    #expect(try history.entries() == [Self.jeju, Self.busan, Self.seoul])
    try history.remove(at: 1)
    #expect(try history.entries() == [Self.jeju, Self.seoul])
    #expect(throws: LocationHistoryError.indexOutOfRange(index: 2, count: 2)) {
      try history.remove(at: 2)
    }
    #expect(throws: LocationHistoryError.indexOutOfRange(index: -1, count: 2)) {
      try history.remove(at: -1)
    }
    #expect(try history.entries() == [Self.jeju, Self.seoul])
    try history.removeAll()
    #expect(try history.entries() == [])
  }

  @Test func currentLocation() {
    let history = LocationHistory(store: .inMemory())
    #expect(history.currentLocation == nil)
    history.currentLocation = Self.busan
    #expect(history.currentLocation == Self.busan)
    history.currentLocation = nil
    #expect(history.currentLocation == nil)
  }

  @Test func capAndDeduplication() throws {
    let history = LocationHistory(store: .inMemory(), limit: 2, deduplicatesAddresses: true)
    try history.insert(Self.seoul)
    try history.insert(Self.busan)
    try history.insert(Self.seoul)
    #expect(try history.entries() == [Self.seoul, Self.busan])
    try history.insert(Self.jeju)
    #expect(try history.entries() == [Self.jeju, Self.seoul])
  }

  @Test func aCorruptHistoryIsAnErrorAndIsNotOverwritten() throws {
    let store = PreferencesStore.inMemory(["weather.locationHistory": .data(Data("not json".utf8))])
    let history = LocationHistory(store: store)
    #expect(throws: PreferenceError.self) { try history.entries() }
    #expect(throws: PreferenceError.self) { try history.insert(Self.seoul) }
    #expect(
      store.defaults.object(forKey: "weather.locationHistory") == .data(Data("not json".utf8)))
  }

  @Test func theSeedsJSONBytesAreReadAndThenStoredNatively() throws {
    let json = #"{"history":[{"address":"Seoul","lat":"37.5","lon":"127.0"}]}"#
    let store = PreferencesStore.inMemory(["weather.locationHistory": .data(Data(json.utf8))])
    let history = LocationHistory(store: store)
    try history.insert(Self.busan)
    #expect(try history.entries() == [Self.busan, Self.seoul])
    #expect(
      store.defaults.object(forKey: "weather.locationHistory")?["history"]?.arrayValue?.count == 2)
  }
}

/// Seed 000: the observable settings model.
@Suite struct AppSettingsTests {
  @MainActor @Test func readsDefaultsAndWritesThrough() throws {
    let store = PreferencesStore.inMemory()
    let settings = AppSettings(store: store)
    #expect(settings.username == "Lucas")
    #expect(settings.colorMode == .system)
    settings.username = "Grijander"
    settings.colorMode = .dark
    #expect(store[Keys.username] == "Grijander")
    #expect(store.defaults.object(forKey: "appearance.colorMode") == "Dark")
  }

  @MainActor @Test func observationTrackingFiresOnChanges() async throws {
    let settings = AppSettings(store: .inMemory())
    let fired = Mutex(0)
    withObservationTracking {
      _ = settings.colorMode
    } onChange: {
      fired.withLock { $0 += 1 }
    }
    settings.colorMode = .light
    #expect(fired.withLock { $0 } == 1)
  }

  @MainActor @Test func followsChangesMadeElsewhere() async throws {
    let store = PreferencesStore.inMemory(["appearance.colorMode": "Unknown"])
    let settings = AppSettings(store: store)
    #expect(settings.colorMode == .system)  // the seed's `?? .system`, reported
    #expect(store.issues.count == 1)
    let changed = Mutex(false)
    withObservationTracking {
      _ = settings.username
    } onChange: {
      changed.withLock { $0 = true }
    }
    store[Keys.username] = "Ana"  // another part of the app writes the store directly
    for _ in 0..<100 where settings.username != "Ana" {
      try await Task.sleep(for: .milliseconds(5))
    }
    #expect(settings.username == "Ana")
    #expect(changed.withLock { $0 })
  }
}
