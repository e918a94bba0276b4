import Foundation

/// A value guarded by a pthread mutex (`NSLock`).
///
/// Used instead of `Synchronization.Mutex` because ThreadSanitizer on Linux does not see the
/// futex that `Mutex` is built on, and so reports every access it guards as a race; with a
/// pthread mutex, `swift test --sanitize=thread` can check the store for real races.
package final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  package init(_ value: Value) { self.value = value }

  package func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
