import LegacyDefaults

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// SIGINT and SIGTERM as a request to stop, not a death: a batch (`migrate`) stops starting
/// files, lets those in flight end, prints the report of what was done and exits 130 or 143
/// (128 + the signal), as a shell reports a command the signal ended.
///
/// The two signals are blocked in the thread that starts watching, before any worker starts
/// (workers inherit the mask), and taken by one thread of their own with `sigwait`: no code
/// runs in a signal handler.
final class Interruption: Sendable {
  /// The signal taken (0: none yet).
  private let taken = Locked<Int32>(0)

  /// Starts watching for SIGINT and SIGTERM (call before the batch's threads start).
  init() {
    var set = Self.signals
    pthread_sigmask(SIG_BLOCK, &set, nil)
    let watcher = Unmanaged.passRetained(self).toOpaque()
    #if canImport(Glibc)
      var thread = pthread_t()
    #else
      var thread: pthread_t?
    #endif
    #if canImport(Darwin)
      let started = pthread_create(&thread, nil, { Interruption.wait($0) }, watcher)
    #else
      let started = pthread_create(
        &thread, nil,
        { context in
          guard let context else { return nil }
          return Interruption.wait(context)
        }, watcher)
    #endif
    if started == 0 {
      #if canImport(Glibc)
        pthread_detach(thread)
      #else
        if let thread { pthread_detach(thread) }
      #endif
    } else {
      // Without the thread the signals would be lost: let them end the process as before.
      Unmanaged<Interruption>.fromOpaque(watcher).release()
      pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
  }

  private static var signals: sigset_t {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGINT)
    sigaddset(&set, SIGTERM)
    return set
  }

  private static func wait(_ context: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    let watcher = Unmanaged<Interruption>.fromOpaque(context).takeRetainedValue()
    var set = signals
    while true {
      var signal: Int32 = 0
      guard sigwait(&set, &signal) == 0 else { continue }
      watcher.taken.withLock { if $0 == 0 { $0 = signal } }
    }
  }

  /// Whether a stop was asked for.
  var requested: Bool { taken.withLock { $0 } != 0 }

  /// The signal taken, and its name (nil: none).
  var signal: (number: Int32, name: String)? {
    let number = taken.withLock { $0 }
    switch number {
    case 0: return nil
    case SIGINT: return (number, "SIGINT")
    default: return (number, "SIGTERM")
    }
  }
}
