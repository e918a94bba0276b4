import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The app's own domain named by its bundle identifier: `CFPreferencesSetAppValue(k, v,
/// CFSTR("com.example.App"))`, or a helper's `UserDefaults(suiteName: "com.example.App")`, is
/// the standard domain of the application whose identifier that is, when that application is
/// built from the tree. The identifier is only in the Xcode project (PRODUCT_BUNDLE_IDENTIFIER)
/// or the application's Info.plist, never in the code's defaults calls.
extension SourceScan {
  /// The bundle identifiers of the tree's applications: each application target of the
  /// `project.pbxproj` files (`productType` `com.apple.product-type.application`), the
  /// PRODUCT_BUNDLE_IDENTIFIER of each of its build configurations, with `$(PRODUCT_NAME)` and
  /// `$(TARGET_NAME)` put in (`:rfc1034identifier`, `:identifier` as Xcode writes them); and
  /// the literal CFBundleIdentifier of an Info.plist whose CFBundlePackageType is APPL. An
  /// identifier still naming a setting the project does not hold (`$(APP_ID)`, from an
  /// .xcconfig) is not one. A file that cannot be read is a warning, never a guess.
  static func applicationIdentifiers(
    projects: [String], plists: [String], limit: Int
  ) -> (identifiers: Set<String>, warnings: [ScanWarning]) {
    var found: Set<String> = []
    var warnings: [ScanWarning] = []
    for path in projects {
      switch readPlist(path, limit: limit) {
      case .failure(let warning): warnings.append(warning)
      case .success(let root): found.formUnion(applicationIdentifiers(project: root))
      }
    }
    for path in plists where path.hasSuffix("Info.plist") {
      guard case .success(.dictionary(let info)) = readPlist(path, limit: limit),
        case .string("APPL")? = info["CFBundlePackageType"],
        case .string(let identifier)? = info["CFBundleIdentifier"],
        !identifier.contains("$"), !identifier.isEmpty
      else { continue }
      found.insert(identifier)
    }
    return (found, warnings)
  }

  /// The application identifiers one project names (its `objects`, linked by their ids).
  static func applicationIdentifiers(project root: PlistValue) -> Set<String> {
    guard case .dictionary(let top) = root, case .dictionary(let objects)? = top["objects"]
    else { return [] }
    func object(_ id: PlistValue?) -> PlistDictionary? {
      guard case .string(let id)? = id, case .dictionary(let d)? = objects[id] else { return nil }
      return d
    }
    var found: Set<String> = []
    for (_, value) in objects {
      guard case .dictionary(let target) = value,
        case .string("PBXNativeTarget")? = target["isa"],
        case .string("com.apple.product-type.application")? = target["productType"],
        let list = object(target["buildConfigurationList"]),
        case .array(let configurations)? = list["buildConfigurations"]
      else { continue }
      var targetName: String?
      if case .string(let n)? = target["name"] { targetName = n }
      for id in configurations {
        guard let configuration = object(id),
          case .dictionary(let settings)? = configuration["buildSettings"],
          case .string(let identifier)? = settings["PRODUCT_BUNDLE_IDENTIFIER"]
        else { continue }
        var productName: String?
        if case .string(let n)? = settings["PRODUCT_NAME"] { productName = n }
        if let expanded = expand(identifier, productName: productName, targetName: targetName) {
          found.insert(expanded)
        }
      }
    }
    return found
  }

  /// `com.example.$(PRODUCT_NAME:rfc1034identifier)` with the target's names put in; nil
  /// when a setting is left that the target does not give.
  package static func expand(_ text: String, productName: String?, targetName: String?)
    -> String?
  {
    var out = ""
    var rest = Substring(text)
    while let dollar = rest.firstIndex(of: "$") {
      out += rest[..<dollar]
      let after = rest.index(after: dollar)
      guard after < rest.endIndex, let close = closing(of: rest[after]) else { return nil }
      guard let end = rest[after...].firstIndex(of: close) else { return nil }
      let inside = rest[rest.index(after: after)..<end]
      let parts = inside.split(separator: ":", maxSplits: 1)
      let name = parts.first.map(String.init) ?? ""
      var value: String?
      switch name {
      case "TARGET_NAME": value = targetName
      case "PRODUCT_NAME":
        // PRODUCT_NAME is most often `$(TARGET_NAME)` itself (expanded once: no loop).
        value =
          productName.flatMap { expand($0, productName: nil, targetName: targetName) }
          ?? targetName
      default: value = nil
      }
      guard var v = value else { return nil }
      if parts.count == 2 {
        switch parts[1] {
        case "rfc1034identifier":
          v = String(v.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" })
        case "identifier", "c99extidentifier":
          v = String(v.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
        default: return nil
        }
      }
      out += v
      rest = rest[rest.index(after: end)...]
    }
    out += rest
    return out.isEmpty ? nil : out
  }

  private static func closing(of open: Character) -> Character? {
    switch open {
    case "(": ")"
    case "{": "}"
    default: nil
    }
  }

  /// The uses of a suite named by an application identifier of the tree moved to the standard
  /// domain (but for the suite the scan was asked for by that name).
  static func ownDomains(
    _ model: inout ScanModel, files: [SourceFile], projects: [String], options: Options
  ) -> [ScanWarning] {
    let named = Set(
      model.uses.compactMap { use -> String? in
        guard case .suite(let name) = use.domain, !name.contains("*"), name != options.suite
        else { return nil }
        return name
      })
    guard !named.isEmpty else { return [] }
    let (identifiers, warnings) = applicationIdentifiers(
      projects: projects, plists: files.filter { $0.kind == .plist }.map(\.path),
      limit: options.fileLimit)
    let own = named.intersection(identifiers)
    guard !own.isEmpty else { return warnings }
    for n in model.uses.indices {
      if case .suite(let name) = model.uses[n].domain, own.contains(name) {
        model.uses[n].domain = .standard
        model.uses[n].use.method += " (\(name): the app's own domain)"
      }
    }
    return warnings
  }
}
