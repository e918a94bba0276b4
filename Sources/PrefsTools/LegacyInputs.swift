import LegacyDefaults

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The legacy domains a migration or a plan reads, as the command names them: paths, domain
/// names, folders (their `.plist` files, sorted) and `-` (a list of paths on standard input,
/// one a line).
package enum LegacyInputs {
  package static func expand(_ items: [String], resolver: DomainResolver, inputLimit: Int)
    throws(ToolError) -> [String]
  {
    var paths: [String] = []
    for item in items {
      if item == "-" {
        let input: Data
        do {
          input = try FileAccess.readStandardInput(limit: inputLimit)
        } catch {
          throw .read(.file(error))
        }
        paths += String(decoding: input, as: UTF8.self).split(whereSeparator: \.isNewline)
          .map(String.init).filter { !$0.isEmpty }
        continue
      }
      let path = try resolver.path(item)
      if DomainResolver.isPath(item), FileAccess.isFolder(path) {
        let names: [String]
        do {
          names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
          throw .read(
            .file(
              .io(path: path, reason: "cannot list the folder: \(FileAccess.reason(of: error))")))
        }
        paths += names.filter { $0.hasSuffix(".plist") }.sorted().map {
          URL(fileURLWithPath: path).appendingPathComponent($0).path
        }
        continue
      }
      paths.append(path)
    }
    return paths
  }
}
