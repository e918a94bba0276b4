import Foundation
import LegacyDefaults
import Observation
import Preferences
import PreferencesExamples
import PropertyList
import Synchronization
import TestSupport
import Testing

/// The `@Setting` model (seed 000's `AppSettings`) under `withObservationTracking`: a change
/// made through the model, through another store of the same domain, and by another process
/// all reach the tracking, and the model reads the new value, without a synchronize.
@Suite struct ObservableModelTests {
  /// Whether `withObservationTracking` over `read` fires after `change` runs (it may fire on
  /// another thread a moment later: the file watcher's).
  @MainActor
  static func fires(_ read: () -> Void, after change: () throws -> Void) rethrows -> Bool {
    let fired = Mutex(false)
    withObservationTracking(read) { fired.withLock { $0 = true } }
    try change()
    return eventually { fired.withLock { $0 } }
  }

  /// A domain file and two typed stores over it, as two parts of an app (or two apps) open it.
  struct Domain {
    let folder: TemporaryFolder
    let url: URL
    init() throws {
      folder = try TemporaryFolder()
      url = folder.file("com.exmo.settings.plist")
    }
    func store() throws -> PreferencesStore { try PreferencesStore(url: url) }
  }

  @MainActor @Test func aWriteThroughTheModelIsTrackedAndWrittenThrough() throws {
    let domain = try Domain()
    let settings = AppSettings(store: try domain.store())
    #expect(settings.username == "Lucas")
    #expect(try Self.fires({ _ = settings.username }) { settings.username = "Grijander" })
    #expect(settings.username == "Grijander")
    // Written through: the file holds it (read by the property-list reader, not the store).
    let file = try PropertyList.read(Data(contentsOf: domain.url)).value
    #expect(file["username"] == "Grijander")
  }

  @MainActor @Test func aWriteThroughASecondStoreOfTheDomainIsTracked() throws {
    let domain = try Domain()
    let settings = AppSettings(store: try domain.store())
    let other = try domain.store()
    #expect(try Self.fires({ _ = settings.colorMode }) { other[Keys.colorMode] = .dark })
    #expect(eventually { settings.colorMode == .dark })
    // And a second model over the same store sees the first's writes at once.
    let second = AppSettings(store: settings.preferences)
    #expect(try Self.fires({ _ = second.username }) { settings.username = "Ana" })
    #expect(second.username == "Ana")
  }

  @MainActor @Test func aWriteByAnotherProcessIsTracked() throws {
    let domain = try Domain()
    let settings = AppSettings(store: try domain.store())
    #expect(settings.username == "Lucas")
    let writer = External.product("prefs-stress")
    let tracked = try Self.fires({ _ = settings.username }) {
      let result = try External.run(writer, ["set-string", domain.url.path, "username", "Ana"])
      #expect(result.status == 0, "\(result.stderr)")
    }
    #expect(tracked)
    #expect(eventually { settings.username == "Ana" })
    // A raw value no case has, from another process: the default, reported, still tracked.
    let before = settings.preferences.issues.count
    let odd = try Self.fires({ _ = settings.colorMode }) {
      let result = try External.run(
        writer, ["set-string", domain.url.path, "appearance.colorMode", "Sepia"])
      #expect(result.status == 0, "\(result.stderr)")
    }
    #expect(odd)
    #expect(eventually { settings.preferences.issues.count == before + 1 })
    #expect(settings.colorMode == .system)
    #expect(settings.preferences.defaults.object(forKey: "appearance.colorMode") == "Sepia")
    // Read many times: decoded once per change, reported once.
    for _ in 0..<10 { _ = settings.colorMode }
    #expect(settings.preferences.issues.count == before + 1)
  }

  /// The cell is the store's, one per key: two models share it, and a read of it is tracked.
  @Test func aStoreKeepsOneCellPerKey() throws {
    let store = PreferencesStore.inMemory()
    let cell = store.cell(for: Keys.rankingSize)
    #expect(cell === store.cell(for: Keys.rankingSize))
    #expect(cell.value == 5)
    let fired = Mutex(false)
    withObservationTracking {
      _ = cell.value
    } onChange: {
      fired.withLock { $0 = true }
    }
    store[Keys.rankingSize] = 12
    #expect(fired.withLock { $0 })
    #expect(cell.value == 12)
    try store.reset(Keys.rankingSize)
    #expect(cell.value == 5)
  }

  /// A change reported while an older one is still being decoded on another thread (here
  /// held there by the issue handler, which decoding calls): the cell ends at the newer value,
  /// not at the older one that finished last.
  @Test func aSlowOlderChangeDoesNotOverwriteANewerOne() throws {
    let store = PreferencesStore.inMemory()
    let key = Key<Int>("n", default: 0)
    let cell = store.cell(for: key)
    let inHandler = DispatchSemaphore(value: 0)
    let first = Mutex(true)
    store.onIssue = { _ in
      let isFirst = first.withLock { isFirst -> Bool in
        defer { isFirst = false }
        return isFirst
      }
      guard isFirst else { return }
      inHandler.signal()
      usleep(300_000)
    }
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      try? store.defaults.set("not a number", forKey: "n")  // decoded: reported, then held
      done.signal()
    }
    inHandler.wait()
    store[key] = 7  // the newer change, made and reported while the older one is held
    done.wait()
    #expect(cell.value == 7)
    #expect(store.issues.count == 1)
  }

  /// Changes reported from many threads at once leave the cell at the store's last value
  /// (whichever thread wrote last), never at one a slower thread read before it.
  @Test(arguments: 0..<3) func concurrentChangesEndAtTheStoresValue(round: Int) throws {
    let store = PreferencesStore.inMemory()
    let cell = store.cell(for: Keys.rankingSize)
    Threads.concurrentPerform(iterations: 4) { n in
      for i in 0..<300 { store[Keys.rankingSize] = n * 1000 + i + round }
    }
    #expect(cell.value == store[Keys.rankingSize])
  }
}
