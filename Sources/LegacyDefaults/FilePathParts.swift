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

/// A file's path split as `URL(fileURLWithPath:)` splits it — its absolute ``path`` (`.path`),
/// its ``folder`` (`.deletingLastPathComponent().path`), its ``name`` (`.lastPathComponent`)
/// and its ``standardized`` path (`.standardizedFileURL.path`) — worked out from the text for
/// the spellings a user types (`./x.plist`, `x.plist`, `a/b.plist`, `/abs/x.plist`), and by
/// `URL` itself for any other (`..`, `//`, a trailing `/`, an absolute path with `.`).
///
/// Why not `URL` every time: in a one-file command its first relative path costs more than
/// the rest of the run. `URL` makes the path absolute through `FileManager`, and its set of
/// separators and its `String.append(contentsOf:)` have the runtime look up two protocol
/// conformances, each a scan of every conformance in the program: about 0.45 M instructions, a
/// third of what `prefs read FILE KEY` executes in all. And `URL` expands a leading `~` or
/// `~user` through the user database (`getpwuid_r`, `getpwnam`: the name service switch, what
/// a static glibc binary must not call); here every leading `~` is worked out first
/// (``init(_:)``), so `URL` never sees one.
package struct FilePathParts: Sendable, Hashable {
  /// The path from the root.
  package let path: String
  /// The folder holding the file (`/` for a file at the root).
  package let folder: String
  /// The file's name in ``folder``.
  package let name: String
  /// ``path`` with `.` and `..` worked out as `URL.standardizedFileURL` works them out.
  package let standardized: String

  package init(_ spelled: String) {
    // `URL` would expand a leading `~` itself, through the user database (`getpwnam`: the
    // name service switch, which a static glibc binary must never enter). Here `~` and `~/`
    // are `HOME`'s (else this user's account), `~user` that user's home (``Accounts``); a
    // tilde that names no home (no such user, no home at all) is a name in the current
    // folder, as written — what Apple's `URL(fileURLWithPath:)` makes of it. `URL` is never
    // given a path that begins with `~`.
    let given = PathText.expandingTildeForURL(spelled)
    if let simple = Self.simple(given) {
      self = simple
    } else {
      let url = URL(fileURLWithPath: given)
      path = url.path
      folder = url.deletingLastPathComponent().path
      name = url.lastPathComponent
      standardized = url.standardizedFileURL.path
    }
  }

  /// The parts of `absolute`, an absolute path of names (its bytes).
  private init(absolute: [UInt8]) {
    let slash = absolute.lastIndex(of: UInt8(ascii: "/")) ?? 0
    path = String(decoding: absolute, as: UTF8.self)
    folder = slash == 0 ? "/" : String(decoding: absolute[..<slash], as: UTF8.self)
    name = String(decoding: absolute[(slash + 1)...], as: UTF8.self)
    standardized = path
  }

  /// The parts of a path whose spelling leaves nothing to interpret (see the type's
  /// documentation); nil for any other. (Bytes throughout: a path's characters are never
  /// looked at, only its slashes and dots.)
  private static func simple(_ given: String) -> FilePathParts? {
    let utf8 = given.utf8
    guard let first = utf8.first, first != UInt8(ascii: "~"), utf8.last != UInt8(ascii: "/")
    else { return nil }
    var bytes: [UInt8]
    if first == UInt8(ascii: "/") {
      // Absolute: every component a name (no `.`, `..` or empty one).
      guard plainComponents(utf8.dropFirst(), allowingDots: false) else { return nil }
      bytes = Array(utf8)
    } else {
      // Relative: `URL` resolves it against the current folder, its `.` components dropped.
      guard plainComponents(utf8[...], allowingDots: true), let cwd = currentFolder() else {
        return nil
      }
      bytes = cwd == [UInt8(ascii: "/")] ? [] : cwd
      bytes.reserveCapacity(bytes.count + utf8.count + 1)
      var start = bytes.count
      bytes.append(UInt8(ascii: "/"))
      for byte in utf8 {
        if byte == UInt8(ascii: "/") {
          // The component just copied: dropped when it is `.`.
          if bytes.count == start + 2, bytes[start + 1] == UInt8(ascii: ".") {
            bytes.removeLast()
          } else {
            start = bytes.count
            bytes.append(byte)
          }
        } else {
          bytes.append(byte)
        }
      }
      if bytes.count == start + 2, bytes[start + 1] == UInt8(ascii: ".") { return nil }
    }
    // Nothing `URL` would standardize (Apple's automount prefixes, looked up only for a path
    // that could start with one).
    if bytes.count > 9, bytes[1] == UInt8(ascii: "p") || bytes[1] == UInt8(ascii: "v"),
      Self.automountPrefixes.contains(where: { bytes.starts(with: $0) })
    {
      return nil
    }
    return FilePathParts(absolute: bytes)
  }

  /// The prefixes `URL.standardizedFileURL` strips on Apple platforms.
  private static let automountPrefixes: [[UInt8]] = [
    Array("/private/".utf8), Array("/var/automount/".utf8),
  ]

  /// Whether `bytes` (a path without its leading `/`) is names separated by single slashes:
  /// no empty component, no `..`, and no `.` unless `allowingDots`.
  private static func plainComponents(_ bytes: Substring.UTF8View, allowingDots: Bool) -> Bool {
    var length = 0
    var dots = 0
    for byte in bytes {
      if byte == UInt8(ascii: "/") {
        guard length > 0, dots != length || (dots == 1 && allowingDots) else { return false }
        length = 0
        dots = 0
      } else {
        length += 1
        if byte == UInt8(ascii: ".") { dots += 1 }
      }
    }
    return length > 0 && (dots != length || (dots == 1 && allowingDots))
  }

  /// The current folder's bytes (`getcwd`: absolute, without links or `.`), nil when it
  /// cannot be named (removed, or too long).
  private static func currentFolder() -> [UInt8]? {
    guard let bytes = SystemCalls.currentFolder(), bytes.first == UInt8(ascii: "/") else {
      return nil
    }
    return bytes
  }
}
