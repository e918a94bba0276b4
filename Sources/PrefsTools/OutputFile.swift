import LegacyDefaults
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Writing a converted or exported file (`convert -o`, `export`, `defaults export`, `plutil
/// -convert`): the one place that decides how an output reaches the disk.
package enum OutputFile {
  /// Writes `data`, the encoding of `value` in `format`, to `path`. When the target is a
  /// domain (a dictionary in a property-list format, written where a store keeps a domain: a
  /// `<file>.lock` is beside it, or it is in the preferences folder) it goes through the
  /// domain's one way in (locked, atomic, exactly `data`'s bytes), so a running app's
  /// synchronize is not undone. Any other output (JSON, a top-level array, a file of the
  /// user's elsewhere) is replaced atomically, keeping the owner and mode of the file it
  /// replaces, leaving no lock file behind. Returns the files moved aside.
  package static func write(
    _ data: Data, to path: String, value: PlistValue, format: PlistFormat?,
    resolver: DomainResolver
  ) throws(ToolError) -> [CorruptFileRecovery] {
    if case .dictionary(let values) = value, let format, resolver.isDomainFile(path) {
      // A domain is a Swift dictionary in the store: two keys that only Unicode
      // normalization tells apart would become one.
      if let (first, second) = values.indistinctKeys {
        throw .store(.indistinctKeys(path: path, keys: [first, second]))
      }
      do {
        let domain = DomainFile(url: URL(fileURLWithPath: path))
        _ = try domain.read()
        let snapshot = try domain.update(
          DomainFile.WriteOptions(
            format: format, truncatingDates: false, always: true, createsFolder: false)
        ) {
          DomainChanges(replacing: $0.values, with: values)
        }
        return snapshot.recoveries
      } catch {
        // A file there that is not a dictionary is not a domain: replaced as any output.
        guard case .notADictionary = error else { throw .store(error) }
      }
    }
    try write(data, to: path)
    return []
  }

  /// Writes `data` to `path`, a file that is not a domain (``DomainResolver/isDomainFile(_:)``
  /// is false: a converted file streamed without its value), replaced atomically as any
  /// output is.
  package static func write(_ data: Data, to path: String) throws(ToolError) {
    do {
      try FileAccess.atomicWrite(data, to: path)
    } catch {
      throw .output(error)
    }
  }
}
