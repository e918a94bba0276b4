import LegacyDefaults
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Writing a converted or exported file (`convert -o`, `export`, `defaults export`, `plutil
/// -convert`): the bytes encoded, exactly, through the domain file's one way out (held folder,
/// atomic replacement keeping the owner and mode of the file replaced, a symbolic link refused).
package enum OutputFile {
  /// Writes `data`, the encoding of `value` in `format`, to `path`. A domain (a dictionary in
  /// a property-list format, in the preferences folder) is written under the domain's lock,
  /// kept, so a running app's synchronize is not undone; any other output takes the lock only
  /// when one is there (a `<file>.lock` beside it: a store uses it), and leaves none. Returns
  /// the files moved aside.
  package static func write(
    _ data: Data, to path: String, value: PlistValue, format: PlistFormat?,
    resolver: DomainResolver
  ) throws(ToolError) -> [CorruptFileRecovery] {
    let isDomain: Bool =
      if case .dictionary = value, format != nil { resolver.isInPreferencesFolder(path) } else {
        false
      }
    try write(data, to: path, resolver: resolver, asDomain: isDomain)
    return []
  }

  /// Writes `data` to `path`, a file that is not a domain (a converted file streamed without
  /// its value), as ``write(_:to:value:format:resolver:)`` writes any output.
  package static func write(_ data: Data, to path: String, resolver: DomainResolver)
    throws(ToolError)
  {
    try write(data, to: path, resolver: resolver, asDomain: false)
  }

  /// A domain is flushed as every domain write is: the file before its rename, the folder
  /// after it. Any other output is flushed before its rename only: a crash can never leave it
  /// empty or torn (it is the old file or the new one), but one soon after the command can
  /// bring the old one back, which a run of the command again makes new. The folder's flush
  /// is what an output derived from a file that is still there can do without: here it costs
  /// about as much as the file's (BENCHMARKS.md, "the price of a flush").
  private static func write(
    _ data: Data, to path: String, resolver: DomainResolver, asDomain: Bool
  ) throws(ToolError) {
    var file = resolver.output(for: path)
    // Not a domain (JSON, a top-level array): never a lock file made for it.
    if !asDomain { file.locking = .whenShared }
    do {
      try file.replaceContents(with: data, syncingFolder: asDomain)
    } catch {
      throw .store(error)
    }
  }
}

extension OutputFile {
  /// What stands in the way of a file at a path, for messages that say why a write failed.
  package enum Obstacle: Sendable, Hashable {
    /// The folder it would be in does not exist.
    case missingFolder
    /// A folder is at the path.
    case folder
  }

  /// What stands in the way of writing `path` (nil: nothing of the above).
  package static func obstacle(to path: String) -> Obstacle? {
    let folder = FilePathParts(path).folder
    if !FileManager.default.fileExists(atPath: folder) { return .missingFolder }
    if FileAccess.isFolder(path) { return .folder }
    return nil
  }
}
