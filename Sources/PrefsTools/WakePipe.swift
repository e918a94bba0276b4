#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A pipe a thread writes a byte to, to wake another waiting on it (with a time limit).
package final class WakePipe: Sendable {
  private let readEnd: Int32
  private let writeEnd: Int32

  package init() {
    var ends: [Int32] = [-1, -1]
    if pipe(&ends) == 0 {
      _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
      _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
    }
    readEnd = ends[0]
    writeEnd = ends[1]
  }

  deinit {
    close(readEnd)
    close(writeEnd)
  }

  /// Wakes the waiter (a full pipe already will).
  package func signal() {
    var byte: UInt8 = 1
    _ = write(writeEnd, &byte, 1)
  }

  /// Waits until signalled or `milliseconds` passed, then empties the pipe.
  package func wait(milliseconds: Int32) {
    var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
    _ = poll(&descriptor, 1, milliseconds)
    var buffer = [UInt8](repeating: 0, count: 64)
    while read(readEnd, &buffer, buffer.count) > 0 {}
  }
}
