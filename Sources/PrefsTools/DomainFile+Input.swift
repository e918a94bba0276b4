import LegacyDefaults
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// The command's input: the files its verbs print, convert or check, read through the held
// folder of the file layer (as the folder's owner, for root) and parsed whole or one key at a
// time. A store never reads this way (it reads a domain, ``DomainFile/load()``).

/// Why a file could not be read as a property list, for the readers that print, convert or
/// check a file (``DomainFile/document()``, ``DomainFile/value(forKey:)``,
/// ``DomainFile/standardInput(limits:)``), where the store reads such a file as empty.
package enum DomainReadError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file could not be read (missing, denied, not a regular file, too large, I/O).
  case file(FileAccess.Failure)
  /// The bytes are not a property list; `reason` says where they broke, and what they look
  /// like when that explains it better (JSON, text that starts like no property list).
  case malformed(path: String, reason: String)
  /// A valid file whose top level is not a dictionary, or one whose keys a domain cannot keep
  /// apart: the store's own errors.
  case domain(DefaultsError)

  package var description: String {
    switch self {
    case .file(let failure): failure.description
    case .malformed(let path, let reason): "\(path): \(reason)"
    case .domain(let error): error.description
    }
  }
}

/// What ``DomainFile/value(forKey:)`` found.
package enum KeyLookup: Sendable, Hashable {
  /// The value, decoded alone from a binary file.
  case found(PlistValue)
  /// The key is not there.
  case absent
  /// The file had to be read whole (not binary, or anything unusual in it): the document,
  /// with its warnings, for the caller to report and look the key up in.
  case read(PlistDocument)
}

extension DomainFile {
  /// The file as a document, whatever its top level: the one way the command's verbs read a
  /// file they print, convert or check (a symbolic link is followed: reading replaces
  /// nothing). A file that is not a regular file or is larger than the input limit, and bytes
  /// that are not a property list, are errors.
  package func document() throws(DomainReadError) -> PlistDocument {
    try Self.document(atPath: path, limits: limits)
  }

  /// ``document()`` of the file at `path` (without making a `DomainFile`: a command that only
  /// reads starts faster without the URL work a domain file does for its locks).
  package static func document(atPath path: String, limits: PlistLimits = .default)
    throws(DomainReadError) -> PlistDocument
  {
    try parse(try bytes(atPath: path, limits: limits), path: path, limits: limits)
  }

  /// The dictionary of a file that must be a domain (a dictionary whose keys a domain keeps
  /// apart), with the document's warnings.
  package func domainDocument() throws(DomainReadError) -> (
    values: PlistDictionary, document: PlistDocument
  ) {
    let document = try document()
    do {
      return (try Self.domain(of: document, path: path), document)
    } catch {
      throw .domain(error)
    }
  }

  /// One key: a binary file decodes only that key's value (one key of a 100,000-key domain
  /// without building the other 99,999); any other file, or anything unusual in a binary
  /// one, is read whole as ``document()`` reads it.
  package func value(forKey key: String) throws(DomainReadError) -> KeyLookup {
    try Self.value(forKey: key, atPath: path, limits: limits)
  }

  /// ``value(forKey:)`` of the file at `path`.
  package static func value(
    forKey key: String, atPath path: String, limits: PlistLimits = .default
  ) throws(DomainReadError) -> KeyLookup {
    let input = try input(atPath: path, limits: limits)
    let lookup = PropertyList.binaryValue(forKey: key, in: input.data, limits: limits)
    try input.verify()
    switch lookup {
    case .found(let value): return .found(value)
    case .absent: return .absent
    case .undecided:
      let document = Result { () throws(DomainReadError) in
        try Self.parse(input.data, path: path, limits: limits)
      }
      try input.verify()
      return .read(try document.get())
    }
  }

  /// Standard input as a document (`-` on the command line), read up to the input limit.
  package static func standardInput(limits: PlistLimits = .default) throws(DomainReadError)
    -> PlistDocument
  {
    try parse(try standardInputBytes(limits: limits), path: "standard input", limits: limits)
  }

  /// The bytes of standard input, up to the input limit.
  package static func standardInputBytes(limits: PlistLimits = .default)
    throws(DomainReadError) -> Data
  {
    do {
      return try FileAccess.readStandardInput(limit: limits.maxInputBytes)
    } catch {
      throw .file(error)
    }
  }

  /// The file's bytes: a regular file, read (never mapped) up to the limit, in its held folder
  /// as whom that folder is worked in (root reading a user's file reads it as the user: a link
  /// there is followed with the user's rights only).
  package static func bytes(atPath path: String, limits: PlistLimits = .default)
    throws(DomainReadError)
    -> Data
  {
    try input(atPath: path, limits: limits, mapping: false).data
  }

  /// The file's bytes as ``bytes(atPath:limits:)`` reads them, or, for a large file, mapped
  /// in place (``InputBytes``): what is made of them counts once ``InputBytes/verify()``
  /// passes.
  package static func input(
    atPath path: String, limits: PlistLimits = .default, mapping: Bool = true
  ) throws(DomainReadError) -> InputBytes {
    let parts = FilePathParts(path)
    let held: HeldFolder
    do throws(FileAccess.Failure) {
      held = try HeldFolder.open(parts.folder)
    } catch {
      // No such folder: no such file, as the caller named it.
      if case .missing = error { throw .file(.missing(path: path)) }
      throw .file(error)
    }
    let read = Result { () throws(DefaultsError) in
      try held.acting { () throws(DefaultsError) in
        Result { () throws(FileAccess.Failure) in
          let file = try held.openForReading(
            parts.name, limit: limits.maxInputBytes, followingLink: true)
          if mapping, let mapped = file.mapped() {
            return InputBytes(data: mapped.data, path: path, mapping: mapped)
          }
          return InputBytes(data: try file.readAll(), path: path, mapping: nil)
        }
      }
    }
    switch read {
    case .success(.success(let input)): return input
    case .success(.failure(let failure)): throw .file(failure.named(path))
    case .failure(let error): throw .domain(error)
    }
  }

  /// Bytes read from `path` as a document, every failure naming the file (the second half
  /// of ``document(atPath:limits:)``, for a caller that looked at the bytes first).
  package static func parse(_ data: Data, path: String, limits: PlistLimits = .default)
    throws(DomainReadError)
    -> PlistDocument
  {
    do {
      return try PropertyList.read(data, limits: limits)
    } catch {
      throw .malformed(path: path, reason: error.explained(for: data))
    }
  }
}

/// A file's bytes as the command's readers take them: read into memory, or, for a large file,
/// mapped in place (``FileAccess/MappedFile``: a 4 MB domain is not copied). Anything made of
/// mapped bytes is used only once ``verify()`` passes: a page the file no longer backed when
/// it was touched (the file truncated meanwhile, a disk error) read as zeros.
package struct InputBytes {
  /// The bytes (for a mapped file, without a copy: the mapping lives as long as they do).
  package let data: Data
  /// The file as its reader named it.
  package let path: String
  let mapping: FileAccess.MappedFile?

  /// Bytes read into memory (standard input, a small file).
  package init(data: Data, path: String) {
    self.init(data: data, path: path, mapping: nil)
  }

  init(data: Data, path: String, mapping: FileAccess.MappedFile?) {
    self.data = data
    self.path = path
    self.mapping = mapping
  }

  /// Throws when the bytes may not have been the file's while they were read (a mapped file
  /// that changed meanwhile); bytes read into memory always were.
  package func verify() throws(DomainReadError) {
    do throws(FileAccess.Failure) {
      try mapping?.verify()
    } catch {
      throw .file(error.named(path))
    }
  }

  /// ``verify()``, its failure the command's reading error.
  package func verified() throws(ToolError) {
    do {
      try verify()
    } catch {
      throw .read(error)
    }
  }
}
