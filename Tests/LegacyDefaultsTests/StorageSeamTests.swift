import Foundation
import LegacyDefaults
import LegacyDefaultsFoundation
import PropertyList
import Synchronization
import TestSupport
import Testing

/// The store's behaviour, run over each storage: the file, memory and `UserDefaults` run the
/// same code, so a difference between them (as the UID one was) fails here. The `UserDefaults`
/// storage runs over swift-corelibs-foundation here, on a suite named by an absolute path in a
/// temporary folder (corelibs keeps it in `<path>.plist`), never the user's own files.
enum StorageKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case file, memory, userDefaults

  var testDescription: String { rawValue }

  /// A place to open stores on: every store opened from one place shares its domain, as
  /// processes share a file.
  final class Place: Sendable {
    let kind: StorageKind
    let folder: TemporaryFolder
    let memory: InMemoryStorage

    init(_ kind: StorageKind, _ values: [String: PlistValue] = [:]) throws {
      self.kind = kind
      folder = try TemporaryFolder()
      memory = InMemoryStorage(values)
      if kind != .memory, !values.isEmpty {
        try PropertyList.write(.dictionary(values), as: .xml).write(to: file)
      }
    }

    var file: URL { folder.file("domain.plist") }
    /// The suite whose corelibs file is `file`.
    var suite: String { folder.file("domain").path }

    func store() throws -> DefaultsStore {
      switch kind {
      case .file: try DefaultsStore(url: file, flushAtExit: false)
      case .memory: try DefaultsStore(storage: memory, flushAtExit: false)
      case .userDefaults:
        try DefaultsStore(storage: UserDefaultsStorage(suiteName: suite), flushAtExit: false)
      }
    }

    /// What the storage holds, read afresh.
    func stored() throws -> [String: PlistValue] {
      try store().persistentDomain()
    }
  }
}

@Suite struct StorageSeamTests {
  @Test(arguments: StorageKind.allCases)
  func setReadRemoveAndTheRegisteredDefault(kind: StorageKind) throws {
    let place = try StorageKind.Place(kind, ["size": 12])
    let store = try place.store()
    store.register(defaults: ["size": 5, "name": "Lucas"])
    #expect(store.integer(forKey: "size") == 12)
    store.removeObject(forKey: "size")
    #expect(store.integer(forKey: "size") == 5)
    try store.set("Grijander", forKey: "name")
    #expect(store.hasPendingChanges)
    try store.synchronizeOrThrow()
    #expect(!store.hasPendingChanges)
    #expect(try place.stored() == ["name": "Grijander"])
  }

  /// After `removeObject`, `dictionaryRepresentation` shows the registered value, as
  /// `object(forKey:)` does (GNUstep: `"r"`; it was missing until the next synchronize).
  @Test(arguments: StorageKind.allCases)
  func aRemovalLetsLowerDomainsShowInTheDictionaryRepresentation(kind: StorageKind) throws {
    let place = try StorageKind.Place(kind, ["k": 5])
    let store = try place.store()
    store.register(defaults: ["k": "r"])
    store.removeObject(forKey: "k")
    #expect(store.object(forKey: "k") == "r")
    #expect(store.dictionaryRepresentation()["k"] == "r")
    try store.synchronizeOrThrow()
    #expect(store.dictionaryRepresentation()["k"] == "r")
  }

  @Test(arguments: StorageKind.allCases)
  func everyWriterRefusesTheEmptyKeyAndUIDs(kind: StorageKind) throws {
    let place = try StorageKind.Place(kind)
    let store = try place.store()
    #expect(throws: DefaultsError.emptyKey) { try store.set(1, forKey: "") }
    #expect(throws: DefaultsError.emptyKey) { try store.update("") { _ in 1 } }
    #expect(throws: DefaultsError.unsupportedValue(key: "k", type: "UID")) {
      try store.set(.array([.uid(3)]), forKey: "k")
    }
    #expect(throws: DefaultsError.unsupportedValue(key: "k", type: "UID")) {
      try store.update("k") { _ in .dictionary(["u": .uid(1)]) }
    }
    #expect(store.object(forKey: "k") == nil)
    #expect(try place.stored() == [:])
  }

  @Test(arguments: StorageKind.allCases)
  func anotherWritersKeysSurviveAndRemovalsMerge(kind: StorageKind) throws {
    let place = try StorageKind.Place(kind, ["gone": 1])
    let first = try place.store()
    let second = try place.store()
    try first.set("one", forKey: "a")
    first.removeObject(forKey: "gone")
    try second.set("two", forKey: "b")
    try first.synchronizeOrThrow()
    try second.synchronizeOrThrow()
    #expect(try place.stored() == ["a": "one", "b": "two"])
    // Every storage announces another store's write, and a plain read sees it without a
    // synchronize: memory and UserDefaults on the writer's thread (at once), a file through
    // the process's watcher (its thread, a moment later).
    if kind != .file { #expect(first.object(forKey: "b") == "two") }
    #expect(eventually { first.object(forKey: "b") == "two" })
    try first.synchronizeOrThrow()
    #expect(first.object(forKey: "b") == "two")
  }

  @Test(arguments: StorageKind.allCases)
  func updatesFromTwoStoresInterleavedLoseNothing(kind: StorageKind) throws {
    let place = try StorageKind.Place(kind)
    let stores = [try place.store(), try place.store()]
    for i in 0..<50 {
      for (n, store) in stores.enumerated() {
        try store.update("list") { old in .array((old?.arrayValue ?? []) + [.string("\(n)-\(i)")]) }
      }
    }
    let list = try place.stored()["list"]?.arrayValue ?? []
    #expect(list.count == 100)
    #expect(Set(list).count == 100)
  }

  @Test(arguments: StorageKind.allCases)
  func observersSeeLocalAndOtherStoresChanges(kind: StorageKind) throws {
    let place = try StorageKind.Place(kind)
    let store = try place.store()
    let seen = Mutex<[PlistValue?]>([])
    let observation = store.observe("name") { value in seen.withLock { $0.append(value) } }
    try store.set("Lucas", forKey: "name")
    try store.set("Lucas", forKey: "name")
    try store.synchronizeOrThrow()
    let other = try place.store()
    try other.set("Grijander", forKey: "name")
    try other.synchronizeOrThrow()
    try store.synchronizeOrThrow()
    store.removeObject(forKey: "name")
    #expect(seen.withLock { $0 } == ["Lucas", "Grijander", nil])
    observation.cancel()
  }

  @Test(arguments: StorageKind.allCases)
  func removePersistentDomainEmptiesTheStorage(kind: StorageKind) throws {
    let place = try StorageKind.Place(kind, ["a": 1, "b": 2])
    let store = try place.store()
    try store.set(3, forKey: "c")
    try store.removePersistentDomain()
    #expect(store.persistentDomain() == [:])
    #expect(!store.hasPendingChanges)
    #expect(try place.stored() == [:])
  }

  // MARK: - Re-entrancy and lock scope

  /// A transform that reads the same store, sets and synchronizes another key of it, and
  /// writes another store: completes (it deadlocked when the state lock was held), and every
  /// write lands.
  @Test(arguments: StorageKind.allCases)
  func anUpdateBodyMayReadAndWriteTheSameStoreAndOthers(kind: StorageKind) throws {
    let place = try StorageKind.Place(kind, ["a": 1, "b": 10])
    let elsewhere = try StorageKind.Place(kind)
    let store = try place.store()
    let other = try elsewhere.store()
    let sameDomain = try place.store()
    try store.update("a") { old in
      let b = store.integer(forKey: "b")
      do {
        try store.set(b + 1, forKey: "c")
        try store.synchronizeOrThrow()  // nested on the same domain
        try sameDomain.set("nested", forKey: "d")
        try sameDomain.synchronizeOrThrow()  // another store of the same domain
        try other.update("x") { _ in .int(b) }  // another domain
      } catch {
        Issue.record("nested write failed: \(error)")
      }
      return .int(Dialect.apple.integer(old) + b)
    }
    #expect(try place.stored() == ["a": 11, "b": 10, "c": 11, "d": "nested"])
    #expect(try elsewhere.stored() == ["x": 10])
    #expect(store.integer(forKey: "a") == 11)
  }

  /// Observers run without the store's lock: one that reads and writes the store completes.
  @Test(arguments: StorageKind.allCases)
  func anObserverMayUseTheStore(kind: StorageKind) throws {
    let place = try StorageKind.Place(kind)
    let store = try place.store()
    let observation = store.observe("trigger") { value in
      guard value != nil else { return }
      _ = store.dictionaryRepresentation()
      try? store.set(.string("seen"), forKey: "echo")
    }
    try store.set(1, forKey: "trigger")
    try store.synchronizeOrThrow()
    #expect(try place.stored() == ["trigger": 1, "echo": "seen"])
    observation.cancel()
  }

  /// Eight threads mixing locked increments, plain writes, reads and observers on one store:
  /// no deadlock, no lost increment.
  @Test(arguments: StorageKind.allCases)
  func eightThreadsMixingUpdatesReadsAndObservers(kind: StorageKind) async throws {
    let place = try StorageKind.Place(kind)
    let store = try place.store()
    let notified = Locked(0)
    let observation = store.observe("counter") { _ in
      _ = store.integer(forKey: "counter")
      notified.withLock { $0 += 1 }
    }
    let failures = Locked<[String]>([])
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for i in 0..<50 {
            do {
              try store.update("counter") { old in
                _ = store.object(forKey: "t\(task)")
                return .int(Dialect.apple.integer(old) + 1)
              }
              try store.set(i, forKey: "t\(task)")
              if i % 10 == 0 { try store.synchronizeOrThrow() }
              _ = store.dictionaryRepresentation()
            } catch {
              failures.withLock { $0.append("\(error)") }
            }
          }
        }
      }
    }
    try store.synchronizeOrThrow()
    #expect(failures.withLock { $0 } == [])
    let stored = try place.stored()
    #expect(stored["counter"] == 400)
    for task in 0..<8 { #expect(stored["t\(task)"] == 49) }
    #expect(notified.withLock { $0 } >= 1)
    observation.cancel()
  }

  // MARK: - The flush at exit

  @Test func aFailedFlushAtExitIsReportedOnStandardError() throws {
    let folder = try TemporaryFolder()
    let blocker = folder.file("not-a-folder")
    try Data("x".utf8).write(to: blocker)
    let file = blocker.appendingPathComponent("d.plist")
    let result = try External.run(
      External.product("prefs-stress"), ["exit-pending", file.path, "name", "Lucas"])
    #expect(result.status == 0)
    #expect(result.stderr.contains("pending changes were not written at exit"), "\(result.stderr)")
    #expect(result.stderr.contains(file.path))
  }
}

/// The domains themselves, as NSUserDefaults exposes them, on every storage.
@Suite struct DomainAPITests {
  @Test(arguments: StorageKind.allCases)
  func volatileDomains(kind: StorageKind) throws {
    let place = try StorageKind.Place(kind)
    let store = try place.store()
    store.register(defaults: ["r": 1])
    #expect(store.volatileDomain(forName: DefaultsStore.registrationDomain) == ["r": 1])
    try store.setVolatileDomain(["v": "x"], forName: "Session")
    #expect(store.volatileDomainNames.contains("Session"))
    #expect(store.volatileDomain(forName: "Session") == ["v": "x"])
    // Not in the search list, as in NSUserDefaults.
    #expect(store.object(forKey: "v") == nil)
    #expect(throws: DefaultsError.domainExists("Session")) {
      try store.setVolatileDomain([:], forName: "Session")
    }
    store.removeVolatileDomain(forName: "Session")
    #expect(store.volatileDomain(forName: "Session") == [:])
    #expect(store.searchList.first == DefaultsStore.argumentDomain)
    #expect(store.searchList.last == DefaultsStore.registrationDomain)
    #expect(store.searchList.contains(store.domainName))
  }

  @Test(arguments: StorageKind.allCases)
  func persistentDomainsByName(kind: StorageKind) throws {
    let place = try StorageKind.Place(kind, ["own": 1])
    let store = try place.store()
    #expect(try store.persistentDomain(forName: store.domainName) == ["own": 1])
    #expect(try store.persistentDomain(forName: "com.example.other") == nil)
    try store.setPersistentDomain(["o": "x"], forName: "com.example.other")
    #expect(try store.persistentDomain(forName: "com.example.other") == ["o": "x"])
    // Another store of the same medium sees it.
    #expect(try place.store().persistentDomain(forName: "com.example.other") == ["o": "x"])
    try store.removePersistentDomain(forName: "com.example.other")
    #expect(try store.persistentDomain(forName: "com.example.other") == nil)
    // Its own domain by name: replaced as one update.
    try store.setPersistentDomain(["new": 2], forName: store.domainName)
    #expect(try place.stored() == ["new": 2])
  }

  /// The global domain by name: read through the search list, written by name.
  @Test func theGlobalDomainByName() throws {
    let folder = try TemporaryFolder()
    let global = folder.file(".GlobalPreferences.plist")
    try PropertyList.write(["AppleLocale": "en_US"], as: .xml).write(to: global)
    let store = try DefaultsStore(
      url: folder.file("app.plist"), globalDomain: global, flushAtExit: false)
    #expect(store.searchList.contains(DefaultsStore.globalDomain))
    #expect(
      try store.persistentDomain(forName: DefaultsStore.globalDomain) == ["AppleLocale": "en_US"])
    try store.setPersistentDomain(["AppleLocale": "pt_BR"], forName: DefaultsStore.globalDomain)
    #expect(store.object(forKey: "AppleLocale") == "pt_BR")
    #expect(try PropertyList.read(Data(contentsOf: global)).value == ["AppleLocale": "pt_BR"])
  }
}

/// The threads `migrate` and `plan infer` run their workers on (in place of libdispatch's
/// Swift overlay, which the command no longer loads).
@Suite struct ThreadsTests {
  @Test(arguments: [0, 1, 2, 7, 64])
  func everyIterationRunsOnceAllAtOnce(_ count: Int) {
    let seen = Locked([Int](repeating: 0, count: count))
    let arrived = Locked(0)
    let metEveryOther = Locked(0)
    Threads.concurrentPerform(iterations: count) { index in
      seen.withLock { $0[index] += 1 }
      arrived.withLock { $0 += 1 }
      // A barrier: run one after another, the first would wait here alone until the deadline.
      let deadline = Date().addingTimeInterval(10)
      while arrived.withLock({ $0 }) < count, Date() < deadline { usleep(500) }
      if arrived.withLock({ $0 }) == count { metEveryOther.withLock { $0 += 1 } }
    }
    #expect(seen.withLock { $0 } == [Int](repeating: 1, count: count))
    #expect(metEveryOther.withLock { $0 } == count)
  }
}

/// `UserDefaults` announces a change on the writer's thread, which may hold a domain's lock:
/// a store told there must not wait for a lock another writer holds while that writer, posting
/// its own announcement, waits for ours (what a CI run once hung on: an update body writing
/// another suite while another thread removed a third suite's domain).
@Suite struct AnnouncementTests {
  @Test func crossingAnnouncementsDoNotDeadlock() throws {
    let folder = try TemporaryFolder()
    func store(_ name: String) throws -> DefaultsStore {
      try DefaultsStore(
        storage: UserDefaultsStorage(suiteName: folder.file(name).path), flushAtExit: false)
    }
    // Each thread holds its own suite's lock (an update body) and then writes a suite of its
    // own, whose announcement reaches the store the other thread holds.
    let held = [try store("a"), try store("b")]
    let written = [try store("c"), try store("d")]
    let arrived = Mutex(0)
    let finished = DispatchSemaphore(value: 0)
    let failures = Mutex<[String]>([])
    Thread.detachNewThread {
      Threads.concurrentPerform(iterations: 2) { n in
        do {
          try held[n].update("k") { _ in
            arrived.withLock { $0 += 1 }
            let deadline = Date().addingTimeInterval(10)
            while arrived.withLock({ $0 }) < 2, Date() < deadline { usleep(1000) }
            do {
              try written[n].set(n, forKey: "x")
              try written[n].synchronizeOrThrow()
            } catch {
              failures.withLock { $0.append("\(error)") }
            }
            return .int(Int64(n))
          }
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
      }
      finished.signal()
    }
    // A deadlock leaves the two threads stuck: reported, not waited for.
    let result = finished.wait(timeout: .now() + 30)
    #expect(result == .success, "the two writers deadlocked on each other's announcements")
    guard result == .success else { return }
    #expect(failures.withLock { $0 }.isEmpty)
    for (n, store) in written.enumerated() { #expect(store.integer(forKey: "x") == n) }
    // The announcements held back reach the stores afterwards.
    let deadline = Date().addingTimeInterval(10)
    while held.contains(where: { $0.object(forKey: "k") == nil }), Date() < deadline {
      usleep(1000)
    }
    for (n, store) in held.enumerated() { #expect(store.integer(forKey: "k") == n) }
  }
}
