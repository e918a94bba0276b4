import LegacyDefaults
import PropertyList

/// An application's bundle, as `defaults -app NAME` finds it: the domain of an application is
/// its bundle identifier.
package enum ApplicationBundle {
  /// Where a bundle keeps the property list that names it, in the order they are looked for:
  /// GNUstep's (`Resources/Info-gnustep.plist`, else `Resources/Info.plist`), then macOS's
  /// (`Contents/Info.plist`).
  static let infoFiles = [
    "Resources/Info-gnustep.plist", "Resources/Info.plist", "Contents/Info.plist",
  ]

  /// The bundle identifier (`CFBundleIdentifier`) of the application `name`: the bundle
  /// `NAME.app` (`NAME` itself when it ends in `.app`) in the first of `folders` that holds
  /// one, or, when `name` holds a `/`, the bundle at that path. An application not found, or
  /// whose bundle names no identifier, is `defaults`' refusal (not found).
  package static func identifier(ofApplication name: String, in folders: [String])
    throws(ToolError) -> String
  {
    let bundle = name.hasSuffix(".app") ? name : name + ".app"
    let candidates = name.contains("/") ? [name] : folders.map { $0 + "/" + bundle }
    for path in candidates where FileAccess.isFolder(path) {
      for info in infoFiles {
        let document: PlistDocument
        do {
          document = try DomainFile.document(atPath: path + "/" + info)
        } catch {
          // A bundle without this file may have the next; one that does not parse is named.
          if case .file(.missing) = error { continue }
          throw .read(error)
        }
        guard case .string(let identifier)? = document.value.dictionaryValue?["CFBundleIdentifier"],
          !identifier.isEmpty
        else {
          throw .noSuchApplication(name, reason: "\(path + "/" + info) names no CFBundleIdentifier")
        }
        return identifier
      }
    }
    throw .noSuchApplication(name, reason: nil)
  }
}
