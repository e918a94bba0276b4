import Foundation
import LegacyDefaults
import PropertyList
import Synchronization
import TestSupport
import Testing

/// A store over a domain file follows the file without a synchronize: the process's watcher
/// (`DomainWatcher`) announces every change, the store reads the whole new file and tells its
/// observers; its own writes are recognised, torn files skipped.
@Suite struct LiveFileTests {
  /// The values one key's observer received, in order.
  final class Seen: Sendable {
    let values = Mutex<[PlistValue?]>([])
    var all: [PlistValue?] { values.withLock { $0 } }
    var last: PlistValue?? { values.withLock { $0.last } }
    func record(_ value: PlistValue?) { values.withLock { $0.append(value) } }
  }

  /// Another writer of the file (as another process writes it: through the one way to a
  /// domain file, locked and replaced by rename).
  func write(_ values: DomainChanges, to url: URL) throws {
    _ = try DomainFile(url: url).update { _ in values }
  }

  @Test(.timeLimit(.minutes(1)))
  func anotherWritersRenameReachesObserversStreamsAndReads() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("com.example.live.plist")
    try write(["name": "Lucas"], to: url)
    let store = try DefaultsStore(url: url, flushAtExit: false)
    let seen = Seen()
    let observation = store.observe("name") { seen.record($0) }
    defer { observation.cancel() }
    var stream = store.changes("name", initial: false).makeAsyncIterator()

    try write(["name": "Grijander"], to: url)
    #expect(await stream.next() == .some("Grijander"))
    #expect(store.object(forKey: "name") == "Grijander")  // a plain read, no synchronize
    #expect(seen.all == ["Grijander"])
    #expect(!store.hasPendingChanges)
  }

  /// Another process (`prefs write`, as a user or a script runs it) changes the file: the
  /// store's change stream yields the new value, and a plain read has it, without a
  /// synchronize. (Before the watcher, neither did within 5 s: issue 24.)
  @Test(.timeLimit(.minutes(1)))
  func anotherProcesssPrefsWriteArrivesWithoutSynchronize() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("com.example.other.plist")
    try write(["volume": 0.5], to: url)
    let store = try DefaultsStore(url: url, flushAtExit: false)
    var stream = store.changes("volume", initial: false).makeAsyncIterator()
    let result = try External.run(
      External.product("prefs"), ["write", url.path, "volume", "-float", "0.25"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(await stream.next() == .some(.real(0.25)))
    #expect(store.double(forKey: "volume") == 0.25)
    let removed = try External.run(External.product("prefs"), ["delete", url.path, "volume"])
    #expect(removed.status == 0, "\(removed.stderr)")
    #expect(await stream.next() == .some(nil))
  }

  /// The store's own writes come back as announcements of its file: recognised by the bytes it
  /// wrote, never read back (nor told to observers twice). Another writer's change is read.
  @Test func aStoresOwnWritesAreNotEchoed() throws {
    let folder = try TemporaryFolder()
    let url = folder.file("own.plist")
    let store = try DefaultsStore(url: url, flushAtExit: false)
    let seen = Seen()
    let observation = store.observe("n") { seen.record($0) }
    defer { observation.cancel() }
    for n in 1...20 {
      try store.set(n, forKey: "n")
      try store.synchronizeOrThrow()
    }
    // A marker written by someone else, after: once it is seen, every earlier announcement has
    // been handled.
    try write(["marker": true], to: url)
    #expect(eventually { store.object(forKey: "marker") == .bool(true) })
    #expect(seen.all == (1...20).map { .int($0) })
    #expect(store.announcedReads == 1)
  }

  /// A writer that writes the file in place, closing it between two halves (the close is what
  /// inotify reports): the half-written file does not parse and is skipped; observers see the
  /// old state, then the whole new one, never a key gone in between.
  @Test func aFileCaughtHalfWrittenIsNeverPublished() throws {
    let folder = try TemporaryFolder()
    let url = folder.file("inplace.plist")
    try PropertyList.write(["a": 1, "b": 2], as: .xml).write(to: url)
    let store = try DefaultsStore(url: url, flushAtExit: false)
    let a = Seen()
    let b = Seen()
    let observations = [store.observe("a") { a.record($0) }, store.observe("b") { b.record($0) }]
    defer { for o in observations { o.cancel() } }
    let bytes = try PropertyList.write(["a": 10, "b": 20], as: .xml)
    let half = bytes.count / 2
    let handle = try FileHandle(forWritingTo: url)
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: bytes.prefix(half))
    try handle.close()  // announced: the file now holds half a document
    usleep(200_000)
    #expect(store.object(forKey: "a") == 1)
    let rest = try FileHandle(forWritingTo: url)
    try rest.seekToEnd()
    try rest.write(contentsOf: bytes.dropFirst(half))
    try rest.close()
    #expect(eventually { store.object(forKey: "b") == 20 })
    #expect(a.all == [10])
    #expect(b.all == [20])
  }

  /// A domain nobody has written, in a preferences folder that does not exist either: the
  /// watcher waits on the nearest existing parent and follows the folders as they are made.
  @Test func aDomainThatDoesNotExistYetIsSeenWhenWritten() throws {
    let folder = try TemporaryFolder()
    let url = folder.url.appendingPathComponent("a/b/c/new.plist")
    let store = try DefaultsStore(url: url, flushAtExit: false)
    let seen = Seen()
    let observation = store.observe("k") { seen.record($0) }
    defer { observation.cancel() }
    try FileManager.default.createDirectory(
      at: folder.url.appendingPathComponent("a/b"), withIntermediateDirectories: true)
    usleep(50_000)
    try write(["k": "first"], to: url)  // makes a/b/c, then the file
    #expect(eventually { store.object(forKey: "k") == "first" })
    try write(["k": "second"], to: url)
    #expect(eventually { store.object(forKey: "k") == "second" })
    #expect(seen.all == ["first", "second"])
  }

  /// The folder deleted (the domain is gone: observers are told) and made again: followed.
  @Test func aDeletedAndRecreatedFolderIsFollowed() throws {
    let folder = try TemporaryFolder()
    let prefs = folder.url.appendingPathComponent("prefs")
    let url = prefs.appendingPathComponent("com.example.plist")
    try write(["k": "one"], to: url)
    let store = try DefaultsStore(url: url, flushAtExit: false)
    let seen = Seen()
    let observation = store.observe("k") { seen.record($0) }
    defer { observation.cancel() }
    try FileManager.default.removeItem(at: prefs)
    #expect(eventually { store.object(forKey: "k") == nil })
    for round in 1...3 {
      try write(["k": .string("again \(round)")], to: url)
      #expect(eventually { store.object(forKey: "k") == .string("again \(round)") })
    }
    // Replaced by another folder moved into its place.
    let elsewhere = folder.url.appendingPathComponent("staging")
    try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
    try PropertyList.write(["k": "moved in"], as: .binary).write(
      to: elsewhere.appendingPathComponent("com.example.plist"))
    try FileManager.default.removeItem(at: prefs)
    try FileManager.default.moveItem(at: elsewhere, to: prefs)
    #expect(eventually { store.object(forKey: "k") == "moved in" })
    #expect(seen.all.first == .some(nil))
    #expect(seen.last == .some("moved in"))
  }

  /// A burst of writes while the observer is busy: fewer announcements than writes, in order,
  /// ending at the value the file holds after the last.
  @Test func aBurstOfWritesIsCoalesced() throws {
    let folder = try TemporaryFolder()
    let url = folder.file("burst.plist")
    try write(["n": 0], to: url)
    let store = try DefaultsStore(url: url, flushAtExit: false)
    let seen = Seen()
    let observation = store.observe("n") { value in
      seen.record(value)
      usleep(50_000)  // a slow observer: writes meanwhile pile up
    }
    defer { observation.cancel() }
    let writes = 200
    for n in 1...writes {
      _ = try DomainFile(url: url).update(DomainFile.WriteOptions(durable: false)) { _ in
        ["n": .int(n)]
      }
    }
    #expect(eventually { seen.last == .some(.int(writes)) })
    let numbers = seen.all.compactMap { value -> Int64? in
      guard case .integer(let n)? = value else { return nil }
      return n
    }
    #expect(numbers.count < writes / 2)
    #expect(numbers.last == Int64(writes))
    #expect(numbers == numbers.sorted())
    #expect(Set(numbers).count == numbers.count)
  }

  /// Two stores over one file in one process: each sees the other's writes, neither its own.
  @Test func twoStoresOnOneFileFollowEachOther() throws {
    let folder = try TemporaryFolder()
    let url = folder.file("shared.plist")
    let first = try DefaultsStore(url: url, flushAtExit: false)
    let second = try DefaultsStore(url: url, flushAtExit: false)
    try first.set("from first", forKey: "a")
    try first.synchronizeOrThrow()
    #expect(eventually { second.object(forKey: "a") == "from first" })
    try second.set("from second", forKey: "b")
    try second.synchronizeOrThrow()
    #expect(eventually { first.object(forKey: "b") == "from second" })
    #expect(first.announcedReads == 1)
    #expect(second.announcedReads == 1)
  }
}

/// The watcher itself: one per process, kernel watches per folder, nothing when idle.
@Suite struct DomainWatcherTests {
  @Test func oneKernelWatchPerFolderAndNothingOnceCancelled() throws {
    let folder = try TemporaryFolder()
    let watcher = DomainWatcher()
    #expect(!watcher.isRunning)
    var watches: [DomainWatcher.Watch] = []
    for f in 0..<4 {
      for d in 0..<5 {
        let path = folder.url.appendingPathComponent("f\(f)/d\(d).plist").path
        watches += [try #require(watcher.watch(path: path) {})]
      }
    }
    #expect(watcher.isRunning)
    // Four folders that do not exist: each waits on the temporary folder, one watch for all.
    #expect(watcher.kernelWatchCount == 1)
    for f in 0..<4 {
      try FileManager.default.createDirectory(
        at: folder.url.appendingPathComponent("f\(f)"), withIntermediateDirectories: true)
    }
    #expect(eventually { watcher.kernelWatchCount == 4 })
    for watch in watches { watch.cancel() }
    #expect(eventually { !watcher.isRunning })
    #expect(watcher.kernelWatchCount == 0)
    // And it starts again for the next watch.
    let again = watcher.watch(path: folder.file("x.plist").path) {}
    #expect(watcher.isRunning)
    again?.cancel()
    #expect(eventually { !watcher.isRunning })
  }

  /// What a command that watches several domains uses (`DomainFile.follow`): each file's
  /// states before and after each change of its values, from one watcher; a write that
  /// changes no value, and a file caught half-written, are not changes.
  @Test func followingSeveralFilesGivesEachChangeWithTheStateBefore() throws {
    let folder = try TemporaryFolder()
    let files = [folder.file("a.plist"), folder.url.appendingPathComponent("sub/b.plist")]
    let seen = Mutex<[(String, [String: PlistValue], [String: PlistValue])]>([])
    var follows: [DomainWatcher.Watch] = []
    for url in files {
      let file = DomainFile(url: url)
      let follow = file.follow(from: try file.read()) { previous, current in
        seen.withLock {
          $0.append(
            (url.lastPathComponent, previous.values.swiftDictionary, current.values.swiftDictionary)
          )
        }
      }
      follows += [try #require(follow)]
    }
    defer { for f in follows { f.cancel() } }
    _ = try DomainFile(url: files[0]).update { _ in ["k": 1] }
    _ = try DomainFile(url: files[1]).update { _ in ["x": "y"] }
    #expect(eventually { seen.withLock { $0.count } == 2 })
    // The same values in another format: new bytes, no change of values.
    _ = try DomainFile(url: files[0]).update(DomainFile.WriteOptions(format: .binary)) { _ in [:] }
    usleep(200_000)
    #expect(seen.withLock { $0.count } == 2)
    try FileManager.default.removeItem(at: files[0])
    #expect(eventually { seen.withLock { $0.count } == 3 })
    usleep(100_000)
    let changes = seen.withLock { $0 }
    #expect(changes.count == 3)
    #expect(changes.map(\.0) == ["a.plist", "b.plist", "a.plist"])
    #expect(changes.map(\.1) == [[:], [:], ["k": 1]])
    #expect(changes.map(\.2) == [["k": 1], ["x": "y"], [:]])
  }

  /// A handler may cancel its own watch and start another from the watcher's thread.
  @Test func aHandlerMayCancelAndWatch() throws {
    let folder = try TemporaryFolder()
    let watcher = DomainWatcher()
    let url = folder.file("h.plist")
    let state = Mutex<(watch: DomainWatcher.Watch?, calls: Int, replaced: Bool)>((nil, 0, false))
    let second = Mutex(0)
    let first = watcher.watch(path: url.path) {
      let old = state.withLock { s -> DomainWatcher.Watch? in
        s.calls += 1
        defer { s.watch = nil }
        return s.watch
      }
      old?.cancel()
      let next = watcher.watch(path: url.path) { second.withLock { $0 += 1 } }
      state.withLock {
        $0.watch = next; $0.replaced = true
      }
    }
    state.withLock { $0.watch = first }
    try Data("x".utf8).write(to: url, options: .atomic)
    #expect(eventually { state.withLock { $0.replaced } })
    try Data("y".utf8).write(to: url, options: .atomic)
    #expect(eventually { second.withLock { $0 } >= 1 })
    #expect(state.withLock { $0.calls } == 1)
    state.withLock { $0.watch?.cancel() }
    #expect(eventually { !watcher.isRunning })
  }

  /// The claim about a process: one thread and one inotify queue for every store, whatever
  /// the number of stores and folders, and none before the first or after the last.
  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/task")))
  func aProcessHasOneWatcherThreadAndNoneWhenIdle() throws {
    let folder = try TemporaryFolder()
    let result = try External.run(
      External.product("prefs-stress"),
      ["watcher-threads", folder.file("a.plist").path, folder.file("b/c.plist").path])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.output.split(separator: "\n").map(String.init)
    try #require(lines.count == 3)
    func numbers(_ line: String) -> [Int] { line.split(separator: " ").compactMap { Int($0) } }
    let (idle, open, closed) = (numbers(lines[0]), numbers(lines[1]), numbers(lines[2]))
    #expect(idle[0] == 0, "no watcher thread before a store: \(lines)")
    #expect(open[0] == 1, "one watcher thread for three stores: \(lines)")
    #expect(open[1] == idle[1] + 1, "one inotify queue: \(lines)")
    #expect(closed == idle, "nothing left once the stores are released: \(lines)")
  }
}
