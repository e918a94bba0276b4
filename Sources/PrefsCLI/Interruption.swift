import PrefsTools

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
    let taken = self.taken
    let started = ToolProcess.detach {
      var set = Self.signals
      while true {
        var signal: Int32 = 0
        guard sigwait(&set, &signal) == 0 else { continue }
        taken.withLock { if $0 == 0 { $0 = signal } }
        // Lock waits in flight end now (a user's lock held for ever stalls nothing).
        ToolProcess.interruptLockWaits()
      }
    }
    // Without the thread the signals would be lost: let them end the process as before.
    if started {
      ToolProcess.watchForInterruption()
    } else {
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
