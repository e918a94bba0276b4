#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one watcher of domain files in a process: every ``DomainFile`` someone observes
/// (``DomainFile/observeChanges(_:)``, so every open `DefaultsStore` over a file) is watched by
/// one thread and one kernel queue (inotify on Linux, kqueue on Apple platforms), never a
/// thread per store or per file. With nothing watched there is no thread and no descriptor:
/// the thread closes the queue and ends when the last watch is cancelled, and the next watch
/// starts them again.
///
/// What is watched is the folder, for the file's name, never the file alone: every atomic
/// writer (prefs, `plutil`, `defaults`, an editor that saves by renaming) replaces the file,
/// and a watch on the old file would see nothing after the first write. On Linux the folder's
/// inotify watch reports the name that changed: a file renamed into place (`IN_MOVED_TO`),
/// written in place and closed (`IN_CLOSE_WRITE`, never the writes before the close),
/// created, deleted or moved away. On Apple platforms a kqueue `EVFILT_VNODE` watch on the
/// folder reports that an entry changed (no name: every watched file of the folder is then
/// announced), and one on each watched file reports writes in place.
///
/// A folder that does not exist yet (a domain no one has written, in a preferences folder that
/// is not there either) is waited for on its nearest existing parent, one level at a time; a
/// folder that is deleted or moved away (its watch reports it gone) is looked for again the
/// same way, and its files are announced, so a folder deleted and made again is followed.
/// (A rename of a folder further up, say the home folder, is not seen: the watch stays on the
/// moved folder.)
///
/// Handlers run on the watcher's thread, one at a time, and no lock is held while they run:
/// a handler may watch, cancel, read and write. A handler is told only that its file may have
/// changed: announcements of one file made while its handler runs come as one more call, so a
/// burst of writes is a few calls, and the handler reads the file as it is then (whole, from
/// the name, as ``DomainFile/reload(unlessAt:mark:)`` does). A watch the kernel refuses (the
/// per-user limit of inotify watches) leaves that file unannounced: its changes are seen at
/// the next synchronize, as before.
package final class DomainWatcher: Sendable {
  /// The process's watcher.
  package static let shared = DomainWatcher()

  private let state = Locked(State())

  /// A watcher of its own (tests); ``shared`` is the one every file uses.
  package init() {}

  /// Keeps a watch going until cancelled or released.
  package final class Watch: Sendable {
    private let end: @Sendable () -> Void
    private let ended = Locked(false)

    init(end: @escaping @Sendable () -> Void) { self.end = end }

    package func cancel() {
      let first = ended.withLock { done -> Bool in
        defer { done = true }
        return !done
      }
      if first { end() }
    }

    deinit { cancel() }
  }

  /// Calls `handler` (on the watcher's thread) each time the file at `path` may have been
  /// changed, created, replaced or removed; nil when this platform or process cannot watch
  /// (no inotify or kqueue queue could be made, or no thread started).
  package func watch(path: String, _ handler: @escaping @Sendable () -> Void) -> Watch? {
    let (folder, name) = Self.split(path)
    let id = state.withLock { s -> UInt64? in
      if s.backend == nil {
        guard let backend = Backend.make() else { return nil }
        s.backend = backend
        s.threadAlive = true
        guard Threads.detach({ [self] in run() }) else {
          s.threadAlive = false
          backend.close()
          s.backend = nil
          return nil
        }
      }
      s.next += 1
      let id = s.next
      s.subscriptions[id] = Subscription(folder: folder, name: name, handler: handler)
      let isNew = s.folders[folder] == nil
      s.folders[folder, default: Folder()].subscribers.insert(id)
      s.folders[folder]?.byName[name, default: []].insert(id)
      if isNew {
        arm(folder, in: &s, announce: false)
      } else if Backend.watchesFiles {
        armFiles(folder, in: &s)
      }
      return id
    }
    guard let id else { return nil }
    return Watch { [self] in cancel(id) }
  }

  /// Whether the watcher's thread and queue exist now (tests: nothing when nothing is watched).
  package var isRunning: Bool { state.withLock { $0.backend != nil || $0.threadAlive } }

  /// The number of kernel watches held now (folders and, on Apple platforms, files).
  package var kernelWatchCount: Int { state.withLock { $0.owners.count + $0.fileOwners.count } }

  // MARK: - State

  private struct Subscription {
    let folder: String
    let name: String
    let handler: @Sendable () -> Void
  }

  /// Where a folder's watch is: on the folder itself, or on its nearest existing parent,
  /// waiting for `next` (the name of the following path component) to appear.
  private enum Arming: Equatable {
    case unarmed
    case folder(Int32)
    case ancestor(Int32, next: String)

    var id: Int32? {
      switch self {
      case .unarmed: nil
      case .folder(let id), .ancestor(let id, _): id
      }
    }
  }

  private struct Folder {
    var subscribers: Set<UInt64> = []
    /// The subscribers by the name they watch: an event names a file, and its subscribers
    /// are found at once (a folder of 100,000 watched domains has 100,000 subscribers).
    var byName: [String: Set<UInt64>] = [:]
    var arming = Arming.unarmed
    /// kqueue only: the watch on each watched file itself, by name.
    var files: [String: Int32] = [:]
  }

  private struct State {
    var subscriptions: [UInt64: Subscription] = [:]
    var folders: [String: Folder] = [:]
    /// Kernel watch → the folders it serves (one folder's own watch may be another's parent).
    var owners: [Int32: Set<String>] = [:]
    /// kqueue only: kernel watch of a file → its folder and name.
    var fileOwners: [Int32: (folder: String, name: String)] = [:]
    var next: UInt64 = 0
    var backend: Backend?
    var threadAlive = false
    /// Subscriptions to call at the end of this round of events.
    var due: Set<UInt64> = []
  }

  private func cancel(_ id: UInt64) {
    state.withLock { s in
      guard let subscription = s.subscriptions.removeValue(forKey: id) else { return }
      s.due.remove(id)
      let folder = subscription.folder
      s.folders[folder]?.subscribers.remove(id)
      s.folders[folder]?.byName[subscription.name]?.remove(id)
      if s.folders[folder]?.byName[subscription.name]?.isEmpty == true {
        s.folders[folder]?.byName[subscription.name] = nil
      }
      if s.folders[folder]?.subscribers.isEmpty == true {
        release(folder, in: &s)
        s.folders[folder] = nil
      } else if Backend.watchesFiles {
        armFiles(folder, in: &s)
      }
      // The thread sees that nothing is watched, closes the queue and ends.
      if s.subscriptions.isEmpty { s.backend?.wake() }
    }
  }

  /// Gives up a folder's kernel watches (its own or its parent's, and its files').
  private func release(_ folder: String, in s: inout State) {
    if let id = s.folders[folder]?.arming.id {
      s.owners[id]?.remove(folder)
      if s.owners[id]?.isEmpty == true {
        s.owners[id] = nil
        s.backend?.unwatch(id)
      }
    }
    s.folders[folder]?.arming = .unarmed
    for (_, file) in s.folders[folder]?.files ?? [:] {
      s.fileOwners[file] = nil
      s.backend?.unwatch(file)
    }
    s.folders[folder]?.files = [:]
  }

  /// Watches `folder`, or its nearest existing parent when it is not there. `announce`: its
  /// files may have changed unseen (a re-arm): their subscribers are called.
  private func arm(_ folder: String, in s: inout State, announce: Bool) {
    release(folder, in: &s)
    guard let backend = s.backend else { return }
    var attempts = 0
    while attempts < 16 {
      attempts += 1
      var target = folder
      var armed: Int32?
      while true {
        if let id = backend.watchFolder(target) {
          armed = id
          break
        }
        let code = errno
        guard code == ENOENT || code == ENOTDIR, target != "/" else { break }
        target = Self.parent(target)
      }
      guard let id = armed else { break }
      s.owners[id, default: []].insert(folder)
      if target == folder {
        s.folders[folder]?.arming = .folder(id)
        if Backend.watchesFiles { armFiles(folder, in: &s) }
        break
      }
      let next = Self.component(after: target, in: folder)
      s.folders[folder]?.arming = .ancestor(id, next: next)
      // The folder may have been made between the failed watch and this one: look again.
      guard Self.isFolder(Self.join(target, next)) else { break }
      release(folder, in: &s)
    }
    if announce {
      for id in s.folders[folder]?.subscribers ?? [] { s.due.insert(id) }
    }
  }

  /// kqueue only: a watch on each watched file of `folder` (a file replaced since is watched
  /// anew; a missing one is watched once the folder reports a change).
  private func armFiles(_ folder: String, in s: inout State) {
    guard let backend = s.backend, case .folder = s.folders[folder]?.arming else { return }
    let names = Set((s.folders[folder]?.byName ?? [:]).keys)
    for (name, file) in s.folders[folder]?.files ?? [:] {
      s.fileOwners[file] = nil
      backend.unwatch(file)
      s.folders[folder]?.files[name] = nil
    }
    for name in names {
      guard let file = backend.watchFile(Self.join(folder, name)) else { continue }
      s.folders[folder]?.files[name] = file
      s.fileOwners[file] = (folder, name)
    }
  }

  /// Marks what a round of kernel events concerns.
  private func handle(_ events: [Event], in s: inout State) {
    var rearm: Set<String> = []
    var rearmFiles: Set<String> = []
    for event in events {
      if event.overflow {
        // Events were dropped: every folder is looked at again.
        rearm.formUnion(s.folders.keys)
        continue
      }
      if let (folder, name) = s.fileOwners[event.id] {
        s.due.formUnion(s.folders[folder]?.byName[name] ?? [])
        if event.gone { rearmFiles.insert(folder) }
        continue
      }
      for folder in s.owners[event.id] ?? [] {
        switch s.folders[folder]?.arming {
        case .folder(let id) where id == event.id:
          if event.gone {
            rearm.insert(folder)
          } else if let name = event.name {
            s.due.formUnion(s.folders[folder]?.byName[name] ?? [])
          } else {
            for id in s.folders[folder]?.subscribers ?? [] { s.due.insert(id) }
            rearmFiles.insert(folder)
          }
        case .ancestor(let id, let next) where id == event.id:
          if event.gone || event.name == nil || event.name == next { rearm.insert(folder) }
        default:
          break
        }
      }
    }
    for folder in rearm where s.folders[folder] != nil { arm(folder, in: &s, announce: true) }
    for folder in rearmFiles.subtracting(rearm) { armFiles(folder, in: &s) }
  }

  /// The watcher's thread: waits for kernel events, marks the subscriptions they concern, and
  /// calls those handlers without the lock. Ends (closing the queue) once nothing is watched.
  private func run() {
    Self.nameThread()
    while true {
      let backend = state.withLock { s -> Backend? in
        guard let backend = s.backend else {
          s.threadAlive = false
          return nil
        }
        if s.subscriptions.isEmpty {
          for folder in Array(s.folders.keys) { release(folder, in: &s) }
          s.folders = [:]
          backend.close()
          s.backend = nil
          s.threadAlive = false
          return nil
        }
        s.threadAlive = true
        return backend
      }
      guard let backend else { return }
      let events = backend.wait()
      let calls = state.withLock { s -> [@Sendable () -> Void] in
        handle(events, in: &s)
        let calls = s.due.sorted().compactMap { s.subscriptions[$0]?.handler }
        s.due = []
        return calls
      }
      for call in calls { call() }
    }
  }

  // MARK: - Paths

  /// An absolute path's folder and name (`/a/b.plist` → `/a`, `b.plist`).
  static func split(_ path: String) -> (folder: String, name: String) {
    let absolute = path.hasPrefix("/") ? path : join(currentFolder(), path)
    guard let slash = absolute.lastIndex(of: "/") else { return ("/", absolute) }
    let folder = String(absolute[..<slash])
    return (folder.isEmpty ? "/" : folder, String(absolute[absolute.index(after: slash)...]))
  }

  static func parent(_ folder: String) -> String { split(folder).folder }

  static func join(_ folder: String, _ name: String) -> String {
    folder.hasSuffix("/") ? folder + name : folder + "/" + name
  }

  /// The name of the component of `folder` right below its ancestor `ancestor`.
  static func component(after ancestor: String, in folder: String) -> String {
    let rest = folder.dropFirst(ancestor == "/" ? 1 : ancestor.count + 1)
    return String(rest.prefix { $0 != "/" })
  }

  static func isFolder(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }

  private static func currentFolder() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return "/" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  // MARK: - The thread

  /// The watcher's thread is called `prefs-watcher` (in `ps -T`, a debugger, `/proc`).
  static let threadName = "prefs-watcher"

  private static func nameThread() {
    #if canImport(Darwin)
      _ = pthread_setname_np(threadName)
    #else
      // pthread_setname_np is not in the Glibc module (it needs _GNU_SOURCE): the thread's
      // name is its /proc comm file.
      let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
      guard descriptor >= 0 else { return }
      var name = Array(threadName.utf8)
      _ = write(descriptor, &name, name.count)
      closeDescriptor(descriptor)
    #endif
  }
}

// MARK: - Kernel queues

/// `close(2)` (the queues' own `close()` hides it inside them).
func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }

extension DomainWatcher {
  /// One kernel event: on watch `id`, about the entry `name` of a watched folder (nil: some
  /// entry, or the watched file itself), or the watched folder or file itself `gone`
  /// (deleted, moved, unmounted); `overflow`: the queue dropped events.
  struct Event {
    var id: Int32
    var name: String?
    var gone = false
    var overflow = false
  }
}
