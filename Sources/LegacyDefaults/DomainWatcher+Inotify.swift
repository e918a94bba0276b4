#if canImport(Glibc) || canImport(Musl)
  #if canImport(Glibc)
    import Glibc
  #else
    import Musl
  #endif

  extension DomainWatcher {
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
        var byte: UInt8 = 0
        while read(wakeRead, &byte, 1) > 0 {}
        var events: [Event] = []
        let gone = UInt32(IN_DELETE_SELF | IN_MOVE_SELF) | UInt32(IN_IGNORED | IN_UNMOUNT)
        while true {
          let batch = SystemCalls.inotifyEvents(queue)
          guard !batch.isEmpty else { break }
          for event in batch {
            events.append(
              Event(
                id: event.watch, name: event.name, gone: event.mask & gone != 0,
                overflow: event.mask & UInt32(IN_Q_OVERFLOW) != 0))
          }
        }
        return events
      }
    }
  }
#endif
