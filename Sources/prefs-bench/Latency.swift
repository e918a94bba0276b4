import Foundation
import LegacyDefaults
import Preferences
import PropertyList

#if canImport(Glibc)
  import Glibc
#endif

/// How long another process's change takes to reach an observer: a child process runs
/// `prefs write FILE KEY -int N` (the release `prefs` beside prefs-bench), and this process,
/// which holds a store over the file, waits for N through `changes(for:)`. No synchronize.
///
/// Measured per round on one clock (`DispatchTime`, monotonic, shared by the processes of one
/// machine):
/// - `spawned`: just before the child is started;
/// - `renamed` (Linux): when a bare inotify watch of the folder, on a thread of its own in
///   this process, wakes for the file's name: the moment the child's rename lands, as the
///   kernel reports it to anyone (the floor of any watcher);
/// - `observed`: when the value arrives in the `for await` loop over `changes(for:)`.
/// The case reports spawned → observed (what a user waits: the child's start, lock, read,
/// write, flush and rename, then the announcement) against spawned → renamed (the same child
/// until its rename, with a zero-cost observer), and in the note renamed → observed (what the
/// watcher, the store's re-read of the file and the stream add), median and p99.
extension Bench {
  func changeLatency() throws {
    guard let prefs = prefsBeside(skipping: "change latency") else { return }
    let live = folder.appendingPathComponent("live")
    try FileManager.default.createDirectory(at: live, withIntermediateDirectories: true)
    let file = live.appendingPathComponent("com.example.live.plist")
    // A domain of a realistic size (200 keys), so that the re-read is not of an empty file.
    try PropertyList.write(.dictionary(makeDomain(200)), as: .binary).write(to: file)
    let store = try PreferencesStore(url: file)
    let key = Key<Int>("bench.counter", default: 0)

    let arrivals = Arrivals()
    let consumer = Task {
      for await value in store.changes(for: key, initial: false) {
        arrivals.record(value, at: DispatchTime.now().uptimeNanoseconds)
      }
    }
    defer { consumer.cancel() }
    let floor = RenameClock(folder: live.path, name: file.lastPathComponent)
    defer { floor?.stop() }

    let rounds = quick ? 30 : 200
    var endToEnd: [Double] = []
    var untilRename: [Double] = []
    var fromRename: [Double] = []
    for n in 1...rounds {
      floor?.reset()
      let spawned = DispatchTime.now().uptimeNanoseconds
      try time([prefs, "write", file.path, key.name, "-int", "\(n)"])
      guard let observed = arrivals.wait(for: n, seconds: 10) else {
        throw BenchError(description: "change latency: value \(n) never arrived in 10 s")
      }
      endToEnd.append(Double(observed - spawned) / 1e6)
      if let renamed = floor?.wait(seconds: 1) {
        untilRename.append(Double(renamed - spawned) / 1e6)
        fromRename.append(Double(Int64(observed) - Int64(renamed)) / 1e6)
      }
    }
    let note: String
    if fromRename.count == rounds {
      note =
        "from the rename to changes(for:): median \(Self.ms(Self.median(fromRename))), "
        + "p99 \(Self.ms(Self.p99(fromRename))); \(rounds) writes"
    } else {
      note = "no inotify floor on this platform; \(rounds) writes"
    }
    let baseline =
      floor == nil
      ? "(no floor measured)" : "the same `prefs write` until a bare inotify watch sees its rename"
    cases.append(
      Case(
        name: "another process's `prefs write` → `changes(for:)`, median",
        prefs: Self.median(endToEnd),
        baseline: baseline, baselineMs: untilRename.isEmpty ? 0 : Self.median(untilRename),
        note: note))
    cases.append(
      Case(
        name: "another process's `prefs write` → `changes(for:)`, p99", prefs: Self.p99(endToEnd),
        baseline: baseline, baselineMs: untilRename.isEmpty ? 0 : Self.p99(untilRename)))
  }

  static func median(_ samples: [Double]) -> Double { samples.sorted()[samples.count / 2] }

  /// The 99th percentile (nearest rank).
  static func p99(_ samples: [Double]) -> Double {
    let sorted = samples.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
  }

  static func ms(_ value: Double) -> String { String(format: "%.2f ms", value) }
}

/// The values the observer received, with when.
final class Arrivals: @unchecked Sendable {
  private let condition = NSCondition()
  private var times: [Int: UInt64] = [:]

  func record(_ value: Int, at time: UInt64) {
    condition.lock()
    if times[value] == nil { times[value] = time }
    condition.broadcast()
    condition.unlock()
  }

  func wait(for value: Int, seconds: Double) -> UInt64? {
    let deadline = Date().addingTimeInterval(seconds)
    condition.lock()
    defer { condition.unlock() }
    while times[value] == nil {
      guard condition.wait(until: deadline) else { return times[value] }
    }
    return times[value]
  }
}

/// The floor: a bare inotify watch of the folder on a thread of its own, timing each event
/// for the file's name (a rename into place or a close after writing). nil where there is no
/// inotify.
final class RenameClock: @unchecked Sendable {
  #if canImport(Glibc)
    private let queue: Int32
    private let lock = NSLock()
    private var latest: UInt64?
    private var running = true
    private let name: String
    private let done = DispatchSemaphore(value: 0)

    init?(folder: String, name: String) {
      queue = inotify_init1(Int32(IN_CLOEXEC))
      guard queue >= 0 else { return nil }
      guard inotify_add_watch(queue, folder, UInt32(IN_MOVED_TO | IN_CLOSE_WRITE)) >= 0 else {
        close(queue)
        return nil
      }
      self.name = name
      Thread.detachNewThread { [self] in loop() }
    }

    private func loop() {
      while lock.withLock({ running }) {
        var waiting = pollfd(fd: queue, events: Int16(POLLIN), revents: 0)
        guard poll(&waiting, 1, 100) > 0 else { continue }
        let events = SystemCalls.inotifyEvents(queue)
        let now = DispatchTime.now().uptimeNanoseconds
        let seen = events.contains { $0.name == name }
        if seen { lock.withLock { if latest == nil { latest = now } } }
      }
      close(queue)
      done.signal()
    }

    func reset() { lock.withLock { latest = nil } }
    /// When the floor's thread saw this round's rename (it may be scheduled after the
    /// observer: the machine has two cores for the child, both watchers and the consumer).
    func wait(seconds: Double) -> UInt64? {
      let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
      while DispatchTime.now().uptimeNanoseconds < deadline {
        if let latest = lock.withLock({ latest }) { return latest }
        usleep(200)
      }
      return nil
    }
    func stop() {
      lock.withLock { running = false }
      done.wait()
    }
  #else
    init?(folder: String, name: String) { nil }
    func reset() {}
    func wait(seconds: Double) -> UInt64? { nil }
    func stop() {}
  #endif
}
