#if canImport(Darwin)
  import Darwin

  extension DomainWatcher {
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
  }
#endif
