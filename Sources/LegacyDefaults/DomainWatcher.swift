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
        guard Self.startThread({ [self] in run() }) else {
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

  private final class Start {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }

  /// Starts a detached thread running `body` (never joined: it ends by itself, and a handler
  /// running on it may release the last watch).
  private static func startThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    let context = Unmanaged.passRetained(Start(body)).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    #if canImport(Darwin)
      var thread: pthread_t?
      let status = pthread_create(
        &thread, &attributes,
        { context in
          Unmanaged<Start>.fromOpaque(context).takeRetainedValue().body()
          return nil
        }, context)
    #else
      var thread = pthread_t()
      let status = pthread_create(
        &thread, &attributes,
        { context in
          guard let context else { return nil }
          Unmanaged<Start>.fromOpaque(context).takeRetainedValue().body()
          return nil
        }, context)
    #endif
    if status != 0 { Unmanaged<Start>.fromOpaque(context).release() }
    return status == 0
  }
}

// MARK: - Kernel queues

/// `close(2)` (the queues' own `close()` hides it inside them).
private func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }

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

  #if canImport(Glibc) || canImport(Musl)
    /// inotify: one queue, a watch per folder reporting the names that changed; a pipe wakes
    /// the thread.
    struct Backend: Sendable {
      let queue: Int32
      let wakeRead: Int32
      let wakeWrite: Int32

      /// inotify names the file that changed in a watched folder: no watch per file.
      static let watchesFiles = false

      static let folderMask =
        UInt32(IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CLOSE_WRITE)
        | UInt32(IN_DELETE_SELF | IN_MOVE_SELF) | UInt32(IN_ONLYDIR)

      static func make() -> Backend? {
        let queue = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard queue >= 0 else { return nil }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
          closeDescriptor(queue)
          return nil
        }
        for end in ends {
          _ = fcntl(end, F_SETFD, FD_CLOEXEC)
          _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        return Backend(queue: queue, wakeRead: ends[0], wakeWrite: ends[1])
      }

      /// A watch on the folder at `path`; nil with `errno` set (ENOENT: not there; ENOTDIR:
      /// not a folder; ENOSPC: the per-user watch limit).
      func watchFolder(_ path: String) -> Int32? {
        let id = inotify_add_watch(queue, path, Self.folderMask)
        return id >= 0 ? id : nil
      }

      func watchFile(_ path: String) -> Int32? { nil }

      func unwatch(_ id: Int32) { _ = inotify_rm_watch(queue, id) }

      func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
      }

      func close() {
        closeDescriptor(queue)
        closeDescriptor(wakeRead)
        closeDescriptor(wakeWrite)
      }

      /// Waits for events or a wake-up, and returns every event queued.
      func wait() -> [Event] {
        var waiting = [
          pollfd(fd: queue, events: Int16(POLLIN), revents: 0),
          pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
        ]
        while poll(&waiting, 2, -1) < 0, errno == EINTR {}
        var sink = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &sink, sink.count) > 0 {}
        var events: [Event] = []
        // Room for many events at once (each is 16 bytes and its NUL-padded name).
        withUnsafeTemporaryAllocation(byteCount: 64 * 1024, alignment: 8) { buffer in
          guard let base = buffer.baseAddress else { return }
          while true {
            let count = read(queue, base, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            var offset = 0
            while offset + 16 <= count {
              let id = base.loadUnaligned(fromByteOffset: offset, as: Int32.self)
              let mask = base.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
              let length = Int(base.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
              var name: String?
              if length > 0, offset + 16 + length <= count {
                let bytes = UnsafeRawBufferPointer(start: base + offset + 16, count: length)
                name = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
              }
              let gone = UInt32(IN_DELETE_SELF | IN_MOVE_SELF) | UInt32(IN_IGNORED | IN_UNMOUNT)
              events.append(
                Event(
                  id: id, name: name, gone: mask & gone != 0,
                  overflow: mask & UInt32(IN_Q_OVERFLOW) != 0))
              offset += 16 + length
            }
          }
        }
        return events
      }
    }
  #elseif canImport(Darwin)
    // Not compiled on Linux, where this package is built and tested: written against
    // <sys/event.h> and kept to the calls below.
    /// kqueue: one queue, an `EVFILT_VNODE` watch per folder (an entry changed: no name) and
    /// per watched file (written in place), each on a descriptor opened `O_EVTONLY`; an
    /// `EVFILT_USER` event wakes the thread.
    struct Backend: Sendable {
      let queue: Int32

      /// A folder's kqueue event names no file: each watched file is watched itself too, for
      /// writers that write it in place.
      static let watchesFiles = true

      static func make() -> Backend? {
        let queue = kqueue()
        guard queue >= 0 else { return nil }
        var wake = kevent(
          ident: 0, filter: Int16(EVFILT_USER), flags: UInt16(EV_ADD | EV_CLEAR), fflags: 0,
          data: 0, udata: nil)
        guard kevent(queue, &wake, 1, nil, 0, nil) == 0 else {
          closeDescriptor(queue)
          return nil
        }
        return Backend(queue: queue)
      }

      private func register(_ path: String, flags: Int32, events: Int32) -> Int32? {
        let descriptor = open(path, O_EVTONLY | O_CLOEXEC | flags)
        guard descriptor >= 0 else { return nil }
        var change = kevent(
          ident: UInt(descriptor), filter: Int16(EVFILT_VNODE),
          flags: UInt16(EV_ADD | EV_CLEAR), fflags: UInt32(events), data: 0, udata: nil)
        guard kevent(queue, &change, 1, nil, 0, nil) == 0 else {
          let code = errno
          closeDescriptor(descriptor)
          errno = code
          return nil
        }
        return descriptor
      }

      func watchFolder(_ path: String) -> Int32? {
        register(
          path, flags: O_DIRECTORY, events: NOTE_WRITE | NOTE_DELETE | NOTE_RENAME | NOTE_REVOKE)
      }

      func watchFile(_ path: String) -> Int32? {
        register(
          path, flags: O_NOFOLLOW,
          events: NOTE_WRITE | NOTE_EXTEND | NOTE_DELETE | NOTE_RENAME | NOTE_REVOKE)
      }

      /// Closing the descriptor removes its kqueue event.
      func unwatch(_ id: Int32) { closeDescriptor(id) }

      func wake() {
        var trigger = kevent(
          ident: 0, filter: Int16(EVFILT_USER), flags: 0, fflags: UInt32(NOTE_TRIGGER), data: 0,
          udata: nil)
        _ = kevent(queue, &trigger, 1, nil, 0, nil)
      }

      func close() { closeDescriptor(queue) }

      func wait() -> [Event] {
        var received = [kevent](
          repeating: kevent(ident: 0, filter: 0, flags: 0, fflags: 0, data: 0, udata: nil),
          count: 64)
        var count: Int32 = -1
        while count < 0 {
          count = kevent(queue, nil, 0, &received, Int32(received.count), nil)
          if count < 0, errno != EINTR { return [] }
        }
        let gone = UInt32(NOTE_DELETE | NOTE_RENAME | NOTE_REVOKE)
        return received.prefix(Int(count)).compactMap { event in
          guard event.filter == Int16(EVFILT_VNODE) else { return nil }
          return Event(id: Int32(event.ident), name: nil, gone: event.fflags & gone != 0)
        }
      }
    }
  #endif
}
