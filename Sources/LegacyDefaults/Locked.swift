internal import CSystemCalls

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value guarded by a pthread mutex (``ThreadLock``).
///
/// Used instead of `Synchronization.Mutex` because ThreadSanitizer on Linux does not see the
/// futex that `Mutex` is built on, and so reports every access it guards as a race; with a
/// pthread mutex, `swift test --sanitize=thread` can check the store for real races.
package final class Locked<Value>: @unchecked Sendable {
  private let lock = ThreadLock()
  // Not checked for exclusive access at run time: the mutex already makes every access
  // exclusive (the check was a third of a typed read's instructions).
  @exclusivity(unchecked) private var value: Value

  package init(_ value: Value) { self.value = value }

  package func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}

/// A pthread mutex, recursive when asked (what `NSLock` and `NSRecursiveLock` are, without
/// linking Foundation). Allocated once, so it never moves.
package final class ThreadLock: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  package init(recursive: Bool = false) {
    mutex = .allocate(capacity: 1)
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    if recursive { pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE)) }
    pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  package func lock() { pthread_mutex_lock(mutex) }
  /// Takes the lock if that needs no waiting (a recursive lock this thread holds, too).
  package func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }
  package func unlock() { pthread_mutex_unlock(mutex) }
}

/// Threads for parallel work, without libdispatch's Swift overlay (which the command would
/// otherwise load at every start for the two verbs that run in parallel).
package enum Threads {
  /// Calls `body(0)` … `body(count - 1)` at the same time, each on its own thread (the
  /// caller's runs `body(0)`, unless `offTheCaller`), and returns when all have returned: what
  /// `DispatchQueue.concurrentPerform` does for a handful of workers. A thread that cannot
  /// be started has its call made on the caller's thread instead.
  ///
  /// `offTheCaller`: every call on a started thread, the caller only waiting (a batch whose
  /// work switches credentials, which the main thread never does: one worker for the whole
  /// batch rather than a thread of its own for each switch).
  package static func concurrentPerform(
    iterations count: Int, offTheCaller: Bool = false, _ body: @Sendable (Int) -> Void
  ) {
    guard count > 1 || (offTheCaller && count == 1) else {
      if count == 1 { body(0) }
      return
    }
    withoutActuallyEscaping(body) { body in
      var started: [pthread_t] = []
      var inline: [Int] = []
      for index in (offTheCaller ? 0 : 1)..<count {
        if let thread = start({ body(index) }) {
          started.append(thread)
        } else {
          inline.append(index)
        }
      }
      if !offTheCaller { body(0) }
      for index in inline { body(index) }
      for thread in started { pthread_join(thread, nil) }
    }
  }

  /// Runs `body` on a thread of its own and waits for it: its result, or its error. Where no
  /// thread can be started, ``DefaultsError/cannotWrite(path:reason:)`` (the work is not done
  /// on this thread instead: see ``Credentials/acting(_:)``).
  package static func joined<T>(_ body: () throws(DefaultsError) -> T) throws(DefaultsError) -> T {
    let outcome = withoutActuallyEscaping(body) { body -> Result<T, DefaultsError>? in
      let job = JoinedJob(body)
      guard let thread = start({ job.run() }) else { return nil }
      pthread_join(thread, nil)
      return job.result
    }
    guard let outcome else {
      throw .cannotWrite(
        path: "(credentials)",
        reason:
          "no thread could be started to work as another user: \(FileAccess.errnoText(EAGAIN))")
    }
    return try outcome.get()
  }

  /// Runs `body` on a thread of its own that nobody joins: whether it started.
  package static func detach(_ body: @escaping @Sendable () -> Void) -> Bool {
    guard let thread = start(body) else { return false }
    pthread_detach(thread)
    return true
  }

  /// A new thread running `body` once; nil when none could be started.
  private static func start(_ body: @escaping @Sendable () -> Void) -> pthread_t? {
    // A thread inherits its creator's credentials: one started by a thread working as a user
    // would go on as that user, out of ``Credentials/acting(_:)``'s reach.
    assert(
      prefs_thread_switched() == 0,
      "a thread started by a thread that works as another user would inherit the user")
    let job = Unmanaged.passRetained(Job(body: body)).toOpaque()
    // glibc's pthread_t is an integer; Darwin's and musl's are pointers (optional where
    // pthread_create writes one).
    #if canImport(Glibc)
      var thread = pthread_t()
    #else
      var thread: pthread_t?
    #endif
    // The start routine's context is optional with glibc and musl (their headers carry no
    // nullability), not on Apple platforms.
    #if canImport(Darwin)
      let status = pthread_create(&thread, nil, { Threads.run($0) }, job)
    #else
      let status = pthread_create(
        &thread, nil,
        { context in
          guard let context else { return nil }
          return Threads.run(context)
        }, job)
    #endif
    guard status == 0 else {
      Unmanaged<Job>.fromOpaque(job).release()
      return nil
    }
    return thread
  }

  /// A started thread's work: its job, once.
  private static func run(_ context: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    Unmanaged<Job>.fromOpaque(context).takeRetainedValue().body()
    return nil
  }

  private final class Job {
    let body: @Sendable () -> Void
    init(body: @escaping @Sendable () -> Void) { self.body = body }
  }
}

/// The work of ``Threads/joined(_:)``: run once on the started thread, its outcome read after
/// the join (`@unchecked Sendable`: the join orders the two).
private final class JoinedJob<T>: @unchecked Sendable {
  let body: () throws(DefaultsError) -> T
  var result: Result<T, DefaultsError>?

  init(_ body: @escaping () throws(DefaultsError) -> T) { self.body = body }

  func run() { result = Result { () throws(DefaultsError) -> T in try body() } }
}
