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

/// A folder held open: every operation on the files in it — open to read, the lock, the
/// temporary file, the rename over the file, the backup beside it, GNUstep's `.lck` — is made
/// relative to this descriptor, so the folder is resolved once and a name swapped meanwhile (the
/// folder exchanged for a link, a component renamed) changes nothing of what is written where.
///
/// The walk to it (``open(_:creating:)``), modelled on systemd's `chase()` after
/// CVE-2018-6954: one `openat2(RESOLVE_NO_SYMLINKS)` where the kernel has it and no link is in
/// the way; else component by component, each `openat(O_PATH|O_DIRECTORY|O_NOFOLLOW)` from the
/// one before. A symbolic link is followed only when nobody but this process's user could have
/// planted it: for a process that is root, when the folder holding the link is one only root can
/// change (owned by root, not writable by another group or by all, or sticky with the link
/// root's). An unprivileged process follows links as the kernel would: they lead only where its
/// user can go.
///
/// When root holds a folder another user owns, ``actor`` is that user: the work in the folder
/// is done with the user's credentials (``Credentials``), and a file read there must be the
/// user's own, with one link.
package final class HeldFolder: @unchecked Sendable {
  /// The folder, absolute, as walked (for messages).
  package let path: String
  /// The descriptor (`O_PATH` on Linux), closed when the folder is released.
  let fd: Int32
  /// The folder's owner, group and mode, from its descriptor.
  package let owner: uid_t
  package let group: gid_t
  let mode: mode_t
  /// Whom the work in the folder is done as: nil, this process's own credentials (its user's
  /// folder, or a root-owned one); else the owner, for root in another user's folder.
  package let actor: Credentials?
  /// Whether a user other than root could change the folder's entries, this process being
  /// root: what is found in it is judged as a hostile user could have made it.
  let othersMayChange: Bool

  private init(path: String, fd: Int32, info: stat) {
    self.path = path
    self.fd = fd
    owner = info.st_uid
    group = info.st_gid
    mode = info.st_mode
    let privileged = Credentials.threadIsPrivileged
    othersMayChange = privileged && Self.othersMayChange(info)
    actor =
      privileged && info.st_uid != 0 && Credentials.canSwitch
      ? Credentials.of(owner: info.st_uid, group: info.st_gid) : nil
  }

  deinit { close(fd) }

  /// Runs `body` as ``actor`` (this process's own credentials when there is none).
  package func acting<T>(_ body: () throws(DefaultsError) -> T) throws(DefaultsError) -> T {
    guard let actor else { return try body() }
    return try actor.acting(body)
  }

  // MARK: - The walk

  private static let pathFlag = prefs_o_path()
  /// How a folder on the way is opened: only to name it (no read permission needed).
  static let walkFlags =
    (pathFlag != 0 ? pathFlag : O_RDONLY) | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC

  /// The folder at `path`, walked as the type's documentation says. A missing folder is
  /// created when `creating` (mode 0700, each missing component by whom the folder above it
  /// is worked in: a user's folder creates as the user), else ``FileAccess/Failure/missing(path:)``.
  package static func open(_ path: String, creating: Bool = false) throws(FileAccess.Failure)
    -> HeldFolder
  {
    let absolute = Self.absolute(path)
    // The one-call walk: no link anywhere (and no `..`, which the stack below takes as the
    // folder it came through).
    if !Self.hasDotDot(absolute) {
      let fd = prefs_openat2(
        AT_FDCWD, absolute, UInt64(walkFlags), 0, Self.resolveNoSymlinks | Self.resolveNoMagicLinks)
      if fd >= 0 { return try held(fd, path: absolute) }
      // Any other failure (a link on the way, an old kernel, a filter): the careful walk says
      // exactly what is there.
    }
    let components = absolute.split(separator: "/", omittingEmptySubsequences: true).map(
      String.init)
    return try walk(components, creating: creating, named: absolute)
  }

  /// The folder at `path` when it is one (walked as ``open(_:creating:)`` walks it), nil when
  /// the path names something else or nothing: how a command tells a folder to list from a
  /// file to read without a `stat` of the path, a walk a user could race between the stat and
  /// the open. Following a last link exactly as ``open(_:creating:)`` does.
  package static func openIfFolder(_ path: String) -> HeldFolder? {
    let absolute = Self.absolute(path)
    let slash = absolute.utf8.lastIndex(of: UInt8(ascii: "/")) ?? absolute.utf8.startIndex
    let name = String(absolute[absolute.index(after: slash)...])
    guard !name.isEmpty, name != ".", name != "..", !Self.hasDotDot(absolute) else {
      return try? open(absolute)
    }
    // What the name is, asked of the held folder above it: no path of the name is walked.
    let above = String(absolute[..<slash])
    guard let parent = try? open(above.isEmpty ? "/" : above) else { return nil }
    var info = stat()
    guard fstatat(parent.fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
    switch info.st_mode & S_IFMT {
    case S_IFDIR:
      let fd = openat(parent.fd, name, walkFlags)
      return fd >= 0 ? try? held(fd, path: absolute) : nil
    case S_IFLNK:
      // A link: the careful walk decides whether it is followed, as for any folder named.
      return try? open(absolute)
    default:
      return nil
    }
  }

  /// Whether a component of `path` is `..` (its bytes looked at: the common case, a path
  /// without one, is opened in one call before anything is split).
  static func hasDotDot(_ path: String) -> Bool {
    var run = 0  // dots since the last slash; -1 once the component has anything else
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "/"):
        if run == 2 { return true }
        run = 0
      case UInt8(ascii: "."): if run >= 0 { run += 1 }
      default: run = -1
      }
    }
    return run == 2
  }

  private static let resolveNoSymlinks: UInt64 = 0x04
  private static let resolveNoMagicLinks: UInt64 = 0x02

  /// `path` from the root: a relative one from the current folder (`getcwd`, which has no
  /// links in it).
  static func absolute(_ path: String) -> String {
    if path.utf8.first == UInt8(ascii: "/") { return path }
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return "/" + path }
    let cwd = String(
      decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return (cwd == "/" ? "" : cwd) + "/" + path
  }

  static func held(_ fd: Int32, path: String) throws(FileAccess.Failure) -> HeldFolder {
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let code = errno
      close(fd)
      throw .io(path: path, reason: FileAccess.errnoText(code))
    }
    return HeldFolder(path: path, fd: fd, info: info)
  }

  private struct Step {
    var fd: Int32
    var info: stat
    var path: String
  }

  private static func walk(_ components: [String], creating: Bool, named: String)
    throws(FileAccess.Failure) -> HeldFolder
  {
    let root = openat(AT_FDCWD, "/", walkFlags)
    guard root >= 0 else { throw .io(path: "/", reason: FileAccess.errnoText(errno)) }
    var rootInfo = stat()
    fstat(root, &rootInfo)
    var stack = [Step(fd: root, info: rootInfo, path: "")]
    // The names still to walk, last first.
    var pending = Array(components.reversed())
    var links = 0
    func release(_ steps: ArraySlice<Step>) { for step in steps { close(step.fd) } }
    defer { release(stack[...]) }
    while let name = pending.popLast() {
      guard let top = stack.last else { break }
      if name == "." || name.isEmpty { continue }
      if name == ".." {
        if stack.count > 1 { close(stack.removeLast().fd) }
        continue
      }
      let here = top.path + "/" + name
      let fd = openat(top.fd, name, walkFlags)
      if fd >= 0 {
        var info = stat()
        fstat(fd, &info)
        stack.append(Step(fd: fd, info: info, path: here))
        continue
      }
      let code = errno
      switch code {
      case ENOENT:
        guard creating else { throw .missing(path: named) }
        // Made by whom works in the folder above, then walked into as any other (a link
        // planted meanwhile is judged as any link).
        try makeFolder(name, in: top, path: here)
        pending.append(name)
      case ELOOP, ENOTDIR, EMLINK:
        var info = stat()
        guard fstatat(top.fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
          throw .io(path: here, reason: FileAccess.errnoText(errno))
        }
        guard (info.st_mode & S_IFMT) == S_IFLNK else {
          // A file where a folder must be: nothing is below it to read.
          guard creating else { throw .missing(path: named) }
          throw .cannotCreate(path: here, reason: "it is not a folder")
        }
        guard followable(link: info, in: top.info) else {
          throw .refused(
            path: here,
            reason: "it is a symbolic link in a folder that uid \(top.info.st_uid) can change: "
              + "prefs run as root follows no link a user could plant")
        }
        links += 1
        guard links <= 40, let target = readLink(top.fd, name) else {
          throw .io(path: here, reason: FileAccess.errnoText(ELOOP))
        }
        if target.hasPrefix("/") {
          release(stack.dropFirst())
          stack.removeSubrange(1...)
        }
        pending += target.split(separator: "/").map(String.init).reversed()
      case EACCES, EPERM: throw .denied(path: here)
      default: throw .io(path: here, reason: FileAccess.errnoText(code))
      }
    }
    guard let last = stack.popLast() else { throw .missing(path: named) }
    return HeldFolder(path: last.path.isEmpty ? "/" : last.path, fd: last.fd, info: last.info)
  }

  /// Makes the folder `name` (mode 0700) in the folder of `step`, as whoever works there.
  private static func makeFolder(_ name: String, in step: Step, path: String)
    throws(FileAccess.Failure)
  {
    let privileged = Credentials.threadIsPrivileged
    let actor =
      privileged && step.info.st_uid != 0 && Credentials.canSwitch
      ? Credentials.of(owner: step.info.st_uid, group: step.info.st_gid) : nil
    let made = Result { () throws(DefaultsError) -> Int32 in
      let body = { () throws(DefaultsError) -> Int32 in
        mkdirat(step.fd, name, 0o700) == 0 || errno == EEXIST ? 0 : errno
      }
      guard let actor else { return try body() }
      return try actor.acting(body)
    }
    switch made {
    case .success(0): return
    case .success(let code):
      throw .cannotCreate(path: path, reason: FileAccess.errnoText(code))
    case .failure(let error): throw .cannotCreate(path: path, reason: error.description)
    }
  }

  private static func readLink(_ folder: Int32, _ name: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let n = readlinkat(folder, name, &buffer, buffer.count - 1)
    guard n > 0 else { return nil }
    return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Whether a user other than root could add, remove or rename entries of a folder.
  static func othersMayChange(_ info: stat) -> Bool {
    info.st_uid != 0 || (info.st_mode & S_IWGRP != 0 && info.st_gid != 0)
      || info.st_mode & S_IWOTH != 0
  }

  /// Whether a walk by this process follows the link `link` found in the folder `folder`.
  static func followable(link: stat, in folder: stat) -> Bool {
    guard Credentials.threadIsPrivileged, othersMayChange(folder) else { return true }
    // A sticky folder of root's (/tmp): only root may rename or remove a root-owned link there.
    return folder.st_mode & S_ISVTX != 0 && folder.st_uid == 0 && link.st_uid == 0
  }
}
