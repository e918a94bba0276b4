#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What says that the entry at a name is still the one seen before, without reading it: its
/// device and inode (an atomic writer renames a new file over the old one: a new inode), size,
/// modification time, change time and kind. The change time is the one a file's owner cannot
/// set: a writer that rewrites a file in place and puts its modification time back still moves
/// it. `watch` compares a domain file's stamps; GNUstep's lock breaker compares the stale
/// lock's before removing it; a read of a mapped file compares the file's before and after.
package struct FileStamp: Sendable, Equatable {
  package var device: UInt64
  package var inode: UInt64
  package var size: Int64
  package var seconds: Int
  package var nanoseconds: Int
  /// The change time (`st_ctim`), in nanoseconds since 1970.
  package var changed: Int
  package var isFolder: Bool

  /// The modification time, in seconds since 1970.
  package var date: Double { Double(seconds) + Double(nanoseconds) / 1e9 }

  package init(_ info: stat) {
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    size = Int64(info.st_size)
    #if canImport(Darwin)
      seconds = Int(info.st_mtimespec.tv_sec)
      nanoseconds = Int(info.st_mtimespec.tv_nsec)
      changed = Int(info.st_ctimespec.tv_sec) &* 1_000_000_000 &+ Int(info.st_ctimespec.tv_nsec)
    #else
      seconds = Int(info.st_mtim.tv_sec)
      nanoseconds = Int(info.st_mtim.tv_nsec)
      changed = Int(info.st_ctim.tv_sec) &* 1_000_000_000 &+ Int(info.st_ctim.tv_nsec)
    #endif
    isFolder = (info.st_mode & S_IFMT) == S_IFDIR
  }

  /// The stamp of what `path` names, following links (nil: nothing there, or unreadable).
  package init?(atPath path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    self.init(info)
  }

  /// The stamp of the entry `name` of a held folder, not following a link (nil: none).
  package init?(in folder: HeldFolder, _ name: String) {
    guard
      case .success(let info?) = Result(catching: { () throws(FileAccess.Failure) in
        try folder.entry(name)
      })
    else { return nil }
    self.init(info)
  }
}
