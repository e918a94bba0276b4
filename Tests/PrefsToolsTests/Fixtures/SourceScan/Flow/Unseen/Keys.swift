// swift-format-ignore-file
// (An app's code as written, force unwraps included: what the scan reads.)
import Foundation
import SwiftyUserDefaults

// (Declared before the Codable type it stores: the extension's conformance joins the type's.)
extension Generator: DefaultsSerializable {}

public var Defaults = DefaultsAdapter(
  defaults: UserDefaults(suiteName: "group.example.unseen")!, keyStore: DefaultsKeys())

public extension DefaultsKeys {
  var gitURL: DefaultsKey<URL> { DefaultsKey("un.gitURL", defaultValue: URL(string: "https://")!) }
  var showFolders: DefaultsKey<Bool> { DefaultsKey("un.showFolders", defaultValue: true) }
  var generator: DefaultsKey<Generator> { DefaultsKey("un.generator", defaultValue: Generator()) }
  var signature: DefaultsKey<String?> { return DefaultsKey("un.signature") }
  // Trap: declared, named only in a comment below and as another function: no key.
  var legacyPath: DefaultsKey<String?> { DefaultsKey("un.legacyPath") }
}

func show() {
  if Defaults.showFolders { print(Defaults.gitURL, Defaults.generator, Defaults.signature ?? "") }
  // Defaults.legacyPath = nil
  _ = Cache.legacyPath(for: "x")
}
