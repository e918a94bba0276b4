import LegacyDefaults
import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The legacy domains a migration or a plan reads, as the command names them: paths, domain
/// names, folders (their `.plist` files, sorted) and `-` (a list of paths on standard input,
/// one a line).
package enum LegacyInputs {
  /// The legacy files named, and the files of a folder named whose names are not UTF-8 (shown
  /// as ``Swift/String/shown(bytes:)`` does): a path of prefs is text, so such a file cannot be
  /// read, and is reported for what it is rather than as missing.
  package struct Expansion: Sendable {
    package var paths: [String] = []
    package var unnamable: [String] = []
    /// For a domain name whose file does not exist, when a file or folder of that name is in
    /// the current folder: how to name it (by the file's path), as `read` says it.
    package var hints: [String: String] = [:]

    /// `message` with the hint for `path`, if any.
    package func message(_ message: String, forPath path: String) -> String {
      guard let hint = hints[path] else { return message }
      return message + "; " + hint
    }

    /// The files that cannot be named, as files not read (`plan infer`, `plan check`).
    package var unread: [UnreadLegacyFile] {
      unnamable.map {
        UnreadLegacyFile(path: $0, status: .failed, message: LegacyInputs.unnamableReason)
      }
    }

    /// The files that cannot be named, as `migrate` reports them: there, and nothing done.
    package var unnamedOutcomes: [FileOutcome] {
      unnamable.map {
        FileOutcome(
          path: $0, output: nil, status: .failed, message: LegacyInputs.unnamableReason,
          keys: [], backup: nil)
      }
    }
  }

  package static func expand(_ items: [String], resolver: DomainResolver, inputLimit: Int)
    throws(ToolError) -> Expansion
  {
    var expansion = Expansion()
    for item in items {
      if item == "-" {
        let input: Data
        do {
          input = try FileAccess.readStandardInput(limit: inputLimit)
        } catch {
          throw .read(.file(error))
        }
        expansion.paths += String(decoding: input, as: UTF8.self).split(
          whereSeparator: \.isNewline
        )
        .map(String.init).filter { !$0.isEmpty }
        continue
      }
      let path = try resolver.path(item)
      if DomainResolver.isPath(item), let folder = HeldFolder.openIfFolder(path) {
        guard let names = folder.rawNames() else {
          throw .read(.file(.io(path: path, reason: "cannot list the folder")))
        }
        let suffix = Array(".plist".utf8)
        var found: [String] = []
        for name in names
        where name.count > suffix.count && name.suffix(suffix.count) == suffix[...] {
          guard let text = String(validating: name, as: UTF8.self) else {
            let folder = path.hasSuffix("/") ? path : path + "/"
            expansion.unnamable.append(String.shown(bytes: Array(folder.utf8) + name))
            continue
          }
          found.append(text)
        }
        expansion.paths += found.sorted().map {
          PathText.joined(FilePathParts(path).path, $0)
        }
        continue
      }
      expansion.paths.append(path)
      if !DomainResolver.isPath(item), !FileManager.default.fileExists(atPath: path),
        let hint = resolver.fileHereHint(forPath: path)
      {
        expansion.hints[path] = hint
      }
    }
    return expansion
  }

  /// Why a file of ``Expansion/unnamable`` is not migrated.
  static let unnamableReason =
    "its name is not UTF-8, so prefs cannot name it: nothing was read or written (rename it to "
    + "a UTF-8 name, then run again)"
}

/// An input file of a verb that reads one and writes nothing back to it (`lint`, `convert`,
/// `import`'s PLIST, `export`'s STORE, every `plutil` input).
package enum InputFile {
  /// The file as a document, through the domain file's one way in; `-` is standard input.
  package static func document(_ path: String) throws(ToolError) -> PlistDocument {
    do {
      if path == "-" { return try DomainFile.standardInput() }
      return try DomainFile.document(atPath: path)
    } catch {
      throw .read(error)
    }
  }

  /// The file's bytes, read as ``document(_:)`` reads them (`-`: standard input): for a
  /// verb that looks at them before a document is needed (a binary file converted or checked
  /// without building its values).
  package static func bytes(_ path: String) throws(ToolError) -> Data {
    do {
      if path == "-" { return try DomainFile.standardInputBytes() }
      return try DomainFile.bytes(atPath: path)
    } catch {
      throw .read(error)
    }
  }

  /// The file's bytes as ``bytes(_:)`` reads them, or mapped in place when it is large: for a
  /// verb that checks, converts or looks up a file without building its values, and uses what
  /// it made of them once ``InputBytes/verify()`` passes.
  package static func input(_ path: String) throws(ToolError) -> InputBytes {
    do {
      if path == "-" {
        return InputBytes(data: try DomainFile.standardInputBytes(), path: "standard input")
      }
      return try DomainFile.input(atPath: path)
    } catch {
      throw .read(error)
    }
  }

  /// The document of ``input(_:)``'s bytes, used only once they are known to have been the
  /// file's: when the bytes changed while they were read (a mapped file cut meanwhile), that
  /// is the error, not what the parse made of them.
  package static func document(_ input: InputBytes, path: String) throws(ToolError)
    -> PlistDocument
  {
    let document = Result { () throws(ToolError) in try Self.document(input.data, path: path) }
    try input.verified()
    return try document.get()
  }

  /// Bytes of ``bytes(_:)`` as the document ``document(_:)`` gives for the same file.
  package static func document(_ data: Data, path: String) throws(ToolError) -> PlistDocument {
    do {
      return try DomainFile.parse(data, path: path == "-" ? "standard input" : path)
    } catch {
      throw .read(error)
    }
  }

  /// A domain file's bytes, read as every input is (``DomainFile/bytes(atPath:limits:)``): for
  /// a verb that keeps them to compare with what the file holds later (`watch`).
  package static func domainBytes(atPath path: String) throws(DomainReadError) -> Data {
    try DomainFile.bytes(atPath: path)
  }

  /// Bytes of a domain file as a document, a failure naming the file.
  package static func parse(_ data: Data, path: String) throws(DomainReadError) -> PlistDocument {
    try DomainFile.parse(data, path: path)
  }

  /// A document's dictionary when it is a domain's (a dictionary whose keys a domain keeps
  /// apart), else the store's error.
  package static func domainValues(of document: PlistDocument, path: String)
    throws(DefaultsError) -> PlistDictionary
  {
    try DomainFile.domain(of: document, path: path)
  }

  /// A migration plan file (`--plan PLAN`), read as every input is and checked as the plan
  /// format says.
  package static func plan(_ path: String) throws(ToolError) -> MigrationPlan {
    let data: Data
    do {
      data = try FileAccess.readFile(path, limit: 16 << 20)
    } catch {
      throw .read(.file(error))
    }
    do {
      return try MigrationPlan.load(json: data)
    } catch {
      throw .plan(path: path, error)
    }
  }
}

/// Where `migrate --to OUT` writes: one file, or for several legacy files (or an existing
/// folder) `OUT/<name>` each, the folder made when missing (never the folders above it).
package enum MigrationOutput {
  package static func destination(_ out: String, files: Int, dryRun: Bool) throws(ToolError)
    -> MigrationRunner.Destination
  {
    let exists = FileManager.default.fileExists(atPath: out)
    let isFolder = exists && FileAccess.isFolder(out)
    guard files > 1 || isFolder else { return .file(out) }
    if exists, !isFolder {
      throw .usage("--to \(out) is a file; several legacy files need a folder")
    }
    if !exists, !dryRun {
      // The folder, never the folders above it.
      let parts = FilePathParts(out)
      do throws(FileAccess.Failure) {
        _ = try HeldFolder.open(parts.folder).makeFolder(parts.name)
      } catch {
        throw .output(error)
      }
    }
    return .folder(out)
  }

  /// `--in-place --backup DIR`: DIR made when it is not there (the folder, never the folders
  /// above it), as `--to OUT` is; a dry run makes nothing.
  package static func backupFolder(_ folder: String, dryRun: Bool) throws(ToolError) -> String {
    guard !dryRun, !FileManager.default.fileExists(atPath: folder) else { return folder }
    let parts = FilePathParts(folder)
    do throws(FileAccess.Failure) {
      _ = try HeldFolder.open(parts.folder).makeFolder(parts.name)
    } catch {
      throw .output(error)
    }
    return folder
  }
}
