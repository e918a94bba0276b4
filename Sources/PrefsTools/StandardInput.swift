#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A line typed on standard input (`edit`'s question), read a byte at a time so that nothing
/// after the line is consumed.
package enum StandardInput {
  /// The bytes up to the next line break or the end, as text (empty at the end).
  package static func line() -> String {
    var line: [UInt8] = []
    var byte: UInt8 = 0
    while read(STDIN_FILENO, &byte, 1) == 1 {
      if byte == UInt8(ascii: "\n") { break }
      line.append(byte)
    }
    return String(decoding: line, as: UTF8.self)
  }
}
