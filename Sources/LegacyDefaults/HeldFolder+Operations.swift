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

// MARK: - Operations in the folder

extension HeldFolder {
  /// `<folder>/<name>`, for messages.
  package func path(of name: String) -> String {
    path == "/" ? "/" + name : path + "/" + name
  }

  /// What is at `name`, not following a link; nil when nothing is.
  package func entry(_ name: String) throws(FileAccess.Failure) -> stat? {
    var info = stat()
    guard fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
      if errno == ENOENT { return nil }
      throw errnoFailure(errno, name)
    }
    return info
  }

  /// The failure `code` of an operation on `name`.
  func errnoFailure(_ code: Int32, _ name: String) -> FileAccess.Failure {
    let at = path(of: name)
    switch code {
    case ENOENT, ENOTDIR: return .missing(path: at)
    case EACCES, EPERM: return .denied(path: at)
    case ELOOP: return .refused(path: at, reason: "it is a symbolic link")
    default: return .io(path: at, reason: FileAccess.errnoText(code))
    }
  }

  /// The regular file `name`, open for reading, checked on its descriptor: not waiting on a
  /// FIFO (`O_NONBLOCK`), never a device, a folder or (unless `followingLink`, for a read
  /// that replaces nothing) a symbolic link; no larger than `limit`; and when root works in a
  /// user's folder, the user's own file with one link (a hard link to a file the user may not
  /// read is not the user's file).
  ///
  /// Run as root, the last component obeys the walk's rule: a link is followed only where no
  /// other user could have planted it or can change it — a folder only root can change (or, in
  /// root's sticky folder, root's own link), or the folder of the owner root works as when
  /// neither its group nor everyone may write it (the kernel then judges the link as that
  /// owner). A link in a folder others may change (group- or world-writable, sticky or not,
  /// whatever `fs.protected_symlinks` says) is refused.
  package func openForReading(_ name: String, limit: Int, followingLink: Bool = false)
    throws(FileAccess.Failure) -> FileAccess.OpenFile
  {
    let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY
    var fd = openat(self.fd, name, flags | O_NOFOLLOW)
    if fd < 0, errno == ELOOP, followingLink {
      guard let link = try entry(name), (link.st_mode & S_IFMT) == S_IFLNK else {
        throw errnoFailure(ELOOP, name)
      }
      guard followsLastLink(link) else {
        throw .refused(
          path: path(of: name),
          reason: "it is a symbolic link in a folder that a user other than root can change "
            + "(uid \(owner), mode \(String(mode & 0o7777, radix: 8))): prefs run as root "
            + "follows no link a user could plant")
      }
      fd = openat(self.fd, name, flags)
    }
    guard fd >= 0 else {
      let code = errno
      if code == ELOOP {
        throw .refused(
          path: path(of: name),
          reason: "it is a symbolic link (prefs replaces domain files, never links)")
      }
      if code == ENXIO { throw .notRegular(path: path(of: name), kind: "a socket or a device") }
      throw errnoFailure(code, name)
    }
    do {
      let info = try checkRegular(fd, name, limit: limit)
      return FileAccess.OpenFile(path: path(of: name), fd: fd, info: info, limit: limit)
    } catch {
      close(fd)
      throw error
    }
  }

  /// Whether a reader that follows a last link follows `link`, found in this folder (see
  /// ``openForReading(_:limit:followingLink:)``).
  func followsLastLink(_ link: stat) -> Bool {
    // An unprivileged process follows links as the kernel would: they lead only where its
    // user can go.
    guard Credentials.process.user == 0 else { return true }
    let shared = mode & (S_IWGRP | S_IWOTH) != 0
    if actor != nil { return !shared }
    var folder = stat()
    folder.st_uid = owner
    folder.st_gid = group
    folder.st_mode = mode
    return Self.followable(link: link, in: folder)
  }

  /// Refuses a new file `name` here, this process being root, when the folder is a user's that
  /// sits in a folder others may change (a sticky `/tmp`, a group-writable shared folder) and
  /// is not that folder's owner's: any user could have made it first under the name the
  /// administrator meant (`SHARED/prefs-cache`), so what root writes would become that
  /// user's. A file there the user already has is the user's, and is replaced as the user.
  func checkMayCreate(_ name: String) throws(FileAccess.Failure) {
    guard Credentials.process.user == 0, owner != 0 else { return }
    var parent = stat()
    guard fstatat(fd, "..", &parent, 0) == 0 else { throw errnoFailure(errno, "..") }
    guard parent.st_uid != owner, parent.st_mode & (S_IWGRP | S_IWOTH) != 0 else { return }
    throw .refused(
      path: path(of: name),
      reason: "its folder \(path) belongs to uid \(owner) and sits in a folder others may "
        + "change (\(FilePathParts(path).folder), mode \(String(parent.st_mode & 0o7777, radix: 8))): "
        + "any user could have made it first; prefs run as root makes no new file there "
        + "(run as that user, or write elsewhere)")
  }

  /// The size of the regular file open as `fd`, refused as ``openForReading(_:limit:followingLink:)`` says.
  private func checkRegular(_ fd: Int32, _ name: String, limit: Int) throws(FileAccess.Failure)
    -> stat
  {
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw errnoFailure(errno, name) }
    let kind = info.st_mode & S_IFMT
    guard kind == S_IFREG else {
      if kind == S_IFDIR { throw .isFolder(path: path(of: name)) }
      throw .notRegular(path: path(of: name), kind: FileAccess.kindName(kind))
    }
    try checkOwned(info, name)
    let size = Int(info.st_size)
    if size > limit { throw .tooLarge(path: path(of: name), size: size, limit: limit) }
    return info
  }

  /// A file root finds in a folder a user can change: the folder owner's own (root working as
  /// that user), or with one link (root in a folder others may write, with root's own
  /// credentials).
  ///
  /// Links count only where they could make root do what the user could not. Working as the
  /// folder's owner, root reads only what the owner may read and replaces only the owner's
  /// entry (a new file renamed over the name; a file is never written in place), so a second
  /// link — another user's hard link to the owner's domain, made where
  /// `fs.protected_hardlinks` is 0 — changes nothing that root may do, and must not freeze the
  /// owner's domain. With root's own credentials in a folder others may change, a hard link
  /// there could name a file only root may read (`/etc/shadow`): refused.
  func checkOwned(_ info: stat, _ name: String) throws(FileAccess.Failure) {
    if let actor, info.st_uid != actor.user {
      throw .refused(
        path: path(of: name),
        reason: "it belongs to uid \(info.st_uid), not to uid \(actor.user) who owns the "
          + "folder: prefs run as root works in a user's folder on that user's files only")
    }
    if actor == nil, othersMayChange, info.st_nlink != 1 {
      throw .refused(
        path: path(of: name),
        reason: "it has \(info.st_nlink) hard links: prefs run as root reads and replaces a "
          + "file with one link only, in a folder a user can change")
    }
  }

  /// `name` opened with `flags` (never following a link, close-on-exec, `O_NONBLOCK`), or
  /// created exclusively with `mode` when `create`; the descriptor, or the `errno`.
  func open(_ name: String, flags: Int32, create: Bool = false, mode: mode_t = 0o600)
    -> Result<Int32, Errno>
  {
    let all = flags | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | (create ? O_CREAT | O_EXCL : 0)
    let fd = create ? openat(self.fd, name, all, mode) : openat(self.fd, name, all)
    return fd >= 0 ? .success(fd) : .failure(Errno(errno))
  }

  /// `from` renamed to `to`, both in this folder (replacing what `to` names).
  func rename(_ from: String, to: String) -> Errno? {
    renameat(fd, from, fd, to) == 0 ? nil : Errno(errno)
  }

  /// `from` renamed to `to` in `folder`, only if nothing has that name (EEXIST).
  func rename(_ from: String, toNew to: String, in folder: HeldFolder? = nil) -> Errno? {
    let target = folder?.fd ?? fd
    if prefs_renameat_noreplace(fd, from, target, to) == 0 { return nil }
    guard errno == ENOSYS || errno == EINVAL else { return Errno(errno) }
    // No renameat2 here (or not on this file system): link, then unlink, which never replaces.
    guard linkat(fd, from, target, to, 0) == 0 else { return Errno(errno) }
    unlinkat(fd, from, 0)
    return nil
  }

  /// Removes the file `name` (a folder when `folder`); nil, or the `errno`.
  @discardableResult
  func remove(_ name: String, folder: Bool = false) -> Errno? {
    unlinkat(fd, name, folder ? AT_REMOVEDIR : 0) == 0 ? nil : Errno(errno)
  }

  /// The folder `name` in this one, made (mode `mode`, owned by whom works here) when it is not
  /// there, and held; a symbolic link there is refused.
  package func makeFolder(_ name: String, mode: mode_t = 0o700) throws(FileAccess.Failure)
    -> HeldFolder
  {
    let made = Result { () throws(DefaultsError) -> Int32 in
      try acting { () throws(DefaultsError) -> Int32 in
        mkdirat(fd, name, mode) == 0 || errno == EEXIST ? 0 : errno
      }
    }
    switch made {
    case .success(0): return try child(name)
    case .success(let code):
      throw .cannotCreate(path: path(of: name), reason: FileAccess.errnoText(code))
    case .failure(let error): throw .cannotCreate(path: path(of: name), reason: error.description)
    }
  }

  /// The folder `name` in this one, held; a symbolic link there is refused.
  package func child(_ name: String) throws(FileAccess.Failure) -> HeldFolder {
    let child = openat(fd, name, Self.walkFlags)
    guard child >= 0 else {
      let code = errno
      if code == ELOOP || code == ENOTDIR {
        if let info = try entry(name), (info.st_mode & S_IFMT) == S_IFLNK {
          throw .refused(path: path(of: name), reason: "it is a symbolic link, not a folder")
        }
        throw .cannotCreate(path: path(of: name), reason: "it is not a folder")
      }
      throw errnoFailure(code, name)
    }
    return try Self.held(child, path: path(of: name))
  }

  /// The names in the folder as their bytes (nil when it cannot be listed), `.` and `..` left
  /// out.
  package func rawNames() -> [[UInt8]]? {
    var names: [[UInt8]] = []
    guard (list { name in names.append(name) }) else { return nil }
    return names
  }

  /// The names in the folder that `keep` accepts (given each name's bytes), as their bytes
  /// decode; nil when it cannot be listed. Nothing is made of a name passed over (a write
  /// looking for its leftovers in a folder of many files reads their names in one reused
  /// array).
  func names(where keep: ([UInt8]) -> Bool) -> [String]? {
    var names: [String] = []
    let listed = list { name in
      if keep(name) { names.append(String(decoding: name, as: UTF8.self)) }
    }
    return listed ? names : nil
  }

  /// Calls `body` with the bytes of each name in the folder but `.` and `..`; false when the
  /// folder cannot be listed.
  private func list(_ body: ([UInt8]) -> Void) -> Bool {
    let listing = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard listing >= 0 else { return false }
    return SystemCalls.listFolder(listing) { name, _, _ in body(name) }
  }

  /// Flushes the folder's entries to disk (after a rename into it).
  func sync() {
    let dir = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard dir >= 0 else { return }
    fsync(dir)
    close(dir)
  }

  /// Replaces `name` with `data` atomically: a temporary file created exclusively in this
  /// folder (an unpredictable name, never following a link), given `ownership`, written,
  /// flushed (when `durable`), renamed over `name` (or, `replacing` false, given `name` only if
  /// nothing has it: ``FileAccess/Failure/cannotCreate(path:reason:)`` with EEXIST otherwise),
  /// and the folder flushed (when `durable` and `syncingFolder`). On any failure the temporary
  /// file is removed and `name` is untouched.
  ///
  /// The two flushes buy different things. The file's makes the rename publish only complete
  /// bytes: after a crash `name` is the old file or the new one, never an empty or torn one.
  /// The folder's makes the rename itself survive a crash once this returns (without it, a
  /// crash within the file system's commit interval can bring the old file back). A domain
  /// needs both: it is the only copy of a user's settings. An output derived from another file
  /// (`convert -o`, an export) keeps the first and may skip the second (see `OutputFile`).
  package func replace(
    _ name: String, with data: Data, ownership: FileAccess.Ownership, durable: Bool = true,
    syncingFolder: Bool = true, replacing: Bool = true
  ) throws(FileAccess.Failure) {
    let (temporary, fd) = try createTemporary(for: name)
    var failure: FileAccess.Failure?
    let owned = ownership.apply(to: fd)
    if owned != 0 {
      failure = .cannotCreate(
        path: path(of: name),
        reason: "giving the new file its owner and mode: \(FileAccess.errnoText(owned))")
    } else {
      let written = FileAccess.writeAll(data, to: fd)
      if written != 0 {
        failure = .io(
          path: path(of: name),
          reason: "writing the temporary file: \(FileAccess.errnoText(written))")
      } else if durable, fsync(fd) != 0 {
        failure = .io(
          path: path(of: name),
          reason: "flushing the temporary file: \(FileAccess.errnoText(errno))")
      }
    }
    close(fd)
    if failure == nil {
      if let code = replacing ? rename(temporary, to: name) : rename(temporary, toNew: name) {
        failure = .cannotCreate(path: path(of: name), reason: code.text)
      }
    }
    if let failure {
      remove(temporary)
      throw failure
    }
    if durable, syncingFolder { sync() }
  }

  /// A new temporary file for `name` in this folder: `.<name>.tmp-XXXXXX` (a shorter name
  /// for a `name` too long to take 12 more bytes), created exclusively with mode 0600.
  func createTemporary(for name: String) throws(FileAccess.Failure) -> (name: String, fd: Int32) {
    let prefix = Self.temporaryPrefix(for: name)
    for _ in 0..<100 {
      let candidate = prefix + Self.randomSuffix()
      switch open(candidate, flags: O_WRONLY, create: true) {
      case .success(let fd): return (candidate, fd)
      case .failure(let code) where code.code == EEXIST: continue
      case .failure(let code):
        throw .cannotCreate(path: path(of: name), reason: code.text)
      }
    }
    throw .cannotCreate(path: path(of: name), reason: "no free temporary name")
  }

  /// The prefix of the temporary files of `name`: `.<name>.tmp-`; for a name that leaves no
  /// room for 12 more bytes in 255, its first bytes and a digest of the rest instead.
  static func temporaryPrefix(for name: String) -> String {
    "." + FileAccess.sibling(of: name, adding: ".tmp-XXXXXX".utf8.count + 1) + ".tmp-"
  }

  /// Six letters or digits from one draw of the system's generator (one `getrandom`).
  private static func randomSuffix() -> String {
    let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
    var generator = SystemRandomNumberGenerator()
    var draw = generator.next()
    var suffix: [UInt8] = []
    for _ in 0..<6 {
      suffix.append(letters[Int(draw % UInt64(letters.count))])
      draw /= UInt64(letters.count)
    }
    return String(decoding: suffix, as: UTF8.self)
  }
}

/// An `errno` value.
package struct Errno: Error, Sendable, Hashable {
  package var code: Int32
  package init(_ code: Int32) { self.code = code }
  package var text: String { FileAccess.errnoText(code) }
}

extension FileAccess {
  /// The name of a file beside `name` that adds `extra` bytes to it (`.lock`, a temporary
  /// file's suffix): `name` itself when the sum fits a file name's 255 bytes, else as many of
  /// its first bytes as fit with a digest of the whole (the same for every process: the lock of
  /// a long name is one file).
  package static func sibling(of name: String, adding extra: Int) -> String {
    let bytes = Array(name.utf8)
    guard bytes.count + extra > 255 else { return name }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    let digest = "~" + String(hash, radix: 16)
    var keep = max(0, 255 - extra - digest.utf8.count)
    // Cut at a character's start.
    while keep > 0, keep < bytes.count, bytes[keep] & 0xC0 == 0x80 { keep -= 1 }
    return String(decoding: bytes.prefix(keep), as: UTF8.self) + digest
  }
}
