internal import CSystemCalls

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension FileAccess {
  /// A large file's bytes in place: mapped, not copied. Reading a 4 MB domain whole copied it
  /// into 4 MB of fresh memory, which the kernel first had to zero: most of what
  /// `prefs read FILE KEY` of one key among 100,000 took.
  ///
  /// A mapping of a file can fault where a read returns an error: a page the file no longer
  /// backs when it is touched (another process truncated the file meanwhile: the file's owner,
  /// when root reads a user's file) or a page the disk, or a FUSE server, cannot read. Those
  /// faults are contained (`prefs_guarded_map`): the page reads as zeros, instead of the
  /// process ending with SIGBUS. So a result made from the bytes is used only after
  /// ``verify()`` says they were the file's; a reader that finds them not to be reads the file
  /// again, or reports it.
  ///
  /// One mapping at a time in a process (the guard is process-wide); the mapping lives as
  /// long as this value and every ``data`` made of it.
  package final class MappedFile: @unchecked Sendable {
    /// The file as its reader named it.
    package let path: String
    private let file: OpenFile
    /// The bytes, without a copy (``SystemCalls/guardedMapping(_:size:)``): the mapping lives
    /// as long as they do, in this value or any copy of them.
    package let data: Data

    /// The file's size when it was opened, which is how much is mapped.
    package var count: Int { file.size }

    fileprivate init(file: OpenFile, data: Data) {
      self.path = file.path
      self.file = file
      self.data = data
    }

    /// Throws when what was read through the mapping may not be the file's: a page was no
    /// longer the file's when it was touched (it read as zeros), or the file's size,
    /// modification or change time is not what it was when it was opened (a writer changed it
    /// in place). Only a file nobody but this process's user may write is mapped
    /// (``FileAccess/OpenFile/mapped()``), so what passes here stays the file's.
    package func verify() throws(Failure) {
      let faults = prefs_guarded_faults()
      guard faults == 0 else {
        throw .io(
          path: path,
          reason:
            "it changed while it was read: \(faults) page\(faults == 1 ? "" : "s") of it could not "
            + "be read (the file was truncated, or the disk failed)")
      }
      try file.checkUnchanged()
    }
  }
}

extension FileAccess.OpenFile {
  /// Files from this size on are mapped by ``mapped()``; a smaller one is read (a read of a
  /// few pages costs less than a mapping's set-up). Read whole, a 570 KB domain took 232
  /// faults for a one-key read, more than a mapped 4 MB one (132).
  package static let mappingThreshold = 64 << 10

  /// The file mapped in place (``FileAccess/MappedFile``), or nil when it is read instead:
  /// smaller than ``mappingThreshold`` or larger than the read's limit, another user may
  /// write it (``othersMayWrite``), another mapping is live in the process, or the system
  /// would not map it (a file that is not a regular file on disk: the caller reads it as
  /// usual, and reports what the read finds).
  package func mapped() -> FileAccess.MappedFile? {
    guard size >= Self.mappingThreshold, size <= limit, !othersMayWrite else { return nil }
    guard let data = SystemCalls.guardedMapping(fd, size: size) else { return nil }
    return FileAccess.MappedFile(file: self, data: data)
  }
}
