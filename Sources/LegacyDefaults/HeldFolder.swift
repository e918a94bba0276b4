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
    let privileged = geteuid() == 0
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
  private static let walkFlags =
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

  private static func held(_ fd: Int32, path: String) throws(FileAccess.Failure) -> HeldFolder {
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
    let privileged = geteuid() == 0
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
    guard geteuid() == 0, othersMayChange(folder) else { return true }
    // A sticky folder of root's (/tmp): only root may rename or remove a root-owned link there.
    return folder.st_mode & S_ISVTX != 0 && folder.st_uid == 0 && link.st_uid == 0
  }
}

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
    guard (list { name in names.append(Array(name)) }) else { return nil }
    return names
  }

  /// The names in the folder that `keep` accepts (given each name's bytes), as their bytes
  /// decode; nil when it cannot be listed. Nothing is made of a name passed over (a write
  /// looking for its leftovers in a folder of many files reads their names in place).
  func names(where keep: (UnsafeRawBufferPointer) -> Bool) -> [String]? {
    var names: [String] = []
    let listed = list { name in
      if keep(name) { names.append(String(decoding: name, as: UTF8.self)) }
    }
    return listed ? names : nil
  }

  /// Calls `body` with the bytes of each name in the folder but `.` and `..`; false when the
  /// folder cannot be listed.
  private func list(_ body: (UnsafeRawBufferPointer) -> Void) -> Bool {
    let listing = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard listing >= 0, let dir = fdopendir(listing) else {
      if listing >= 0 { close(listing) }
      return false
    }
    defer { closedir(dir) }
    while let entry = readdir(dir) {
      withUnsafeBytes(of: &entry.pointee.d_name) { raw in
        guard let base = raw.baseAddress else { return }
        let name = UnsafeRawBufferPointer(start: base, count: strnlen(base, raw.count))
        let dots = name.count <= 2 && name.allSatisfy { $0 == 0x2E }
        if !dots { body(name) }
      }
    }
    return true
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
