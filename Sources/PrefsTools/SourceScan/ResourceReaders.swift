import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Bindings of Interface Builder files to the shared user defaults controller
/// (`values.KEY`): `.xib` and `.storyboard` (`<binding destination="…" keyPath="values.KEY">`
/// to a `<userDefaultsController>`), and the older `designable.nib` archives
/// (`NSNibBindingConnector` to an `NSUserDefaultsController` object).
enum InterfaceReader {
  /// One XML tag: its name, attributes, and whether it closes (`</x>`) or closes itself.
  struct Tag {
    var name: String
    var attributes: [String: String]
    var closing: Bool
    var selfClosing: Bool
    var line: Int
    /// The text after the tag, to the next `<`.
    var text: String
  }

  static func tags(_ bytes: [UInt8]) -> [Tag] {
    var tags: [Tag] = []
    var i = 0
    var line = 1
    let n = bytes.count
    while i < n {
      if bytes[i] == 0x0A { line += 1 }
      guard bytes[i] == 0x3C else {
        i += 1
        continue
      }
      // Comments, declarations, CDATA: skipped.
      if i + 3 < n, bytes[i + 1] == 0x21 || bytes[i + 1] == 0x3F {
        let end: [UInt8] =
          bytes[i + 1] == 0x21 && bytes[i + 2] == 0x2D ? [0x2D, 0x2D, 0x3E] : [0x3E]
        var k = i + 2
        while k < n, !(bytes[k...].starts(with: end)) {
          if bytes[k] == 0x0A { line += 1 }
          k += 1
        }
        i = k + end.count
        continue
      }
      var k = i + 1
      let closing = k < n && bytes[k] == 0x2F
      if closing { k += 1 }
      let nameStart = k
      while k < n, !isSpace(bytes[k]), bytes[k] != 0x3E, bytes[k] != 0x2F { k += 1 }
      let name = String(decoding: bytes[nameStart..<k], as: UTF8.self)
      var attributes: [String: String] = [:]
      var selfClosing = false
      let tagLine = line
      while k < n, bytes[k] != 0x3E {
        if bytes[k] == 0x0A { line += 1 }
        if bytes[k] == 0x2F, k + 1 < n, bytes[k + 1] == 0x3E {
          selfClosing = true
          k += 1
          continue
        }
        if isSpace(bytes[k]) {
          k += 1
          continue
        }
        let attrStart = k
        while k < n, bytes[k] != 0x3D, !isSpace(bytes[k]), bytes[k] != 0x3E { k += 1 }
        let attr = String(decoding: bytes[attrStart..<k], as: UTF8.self)
        guard k < n, bytes[k] == 0x3D, k + 1 < n, bytes[k + 1] == 0x22 || bytes[k + 1] == 0x27
        else {
          // `name=` with no quote (a damaged file): past the `=`, so the walk always moves on.
          if k < n, bytes[k] == 0x3D || k == attrStart { k += 1 }
          continue
        }
        let quote = bytes[k + 1]
        k += 2
        let valueStart = k
        while k < n, bytes[k] != quote {
          if bytes[k] == 0x0A { line += 1 }
          k += 1
        }
        attributes[attr] = entities(String(decoding: bytes[valueStart..<min(k, n)], as: UTF8.self))
        k += 1
      }
      k += 1
      var textEnd = k
      while textEnd < n, bytes[textEnd] != 0x3C { textEnd += 1 }
      let text = entities(String(decoding: bytes[min(k, n)..<min(textEnd, n)], as: UTF8.self))
      tags.append(
        Tag(
          name: name, attributes: attributes, closing: closing, selfClosing: selfClosing,
          line: tagLine, text: text))
      i = k
    }
    return tags
  }

  private static func isSpace(_ b: UInt8) -> Bool {
    b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
  }

  static func entities(_ s: String) -> String {
    guard s.contains("&") else { return s }
    return s.replacing("&quot;", with: "\"").replacing("&apos;", with: "'")
      .replacing("&lt;", with: "<").replacing("&gt;", with: ">")
      .replacing("&amp;", with: "&")
  }

  /// A transformer that makes a flag of whether the key is set (`NSIsNil`, `NSIsNotNil`).
  static func testsPresence(_ transformer: String) -> Bool {
    transformer.contains("IsNil") || transformer.contains("IsNotNil")
  }

  /// The type a binding shows: by its name, the control it is on, its value transformer.
  static func bindingType(_ name: String, control: String?, transformer: String?) -> MigrationPlan
    .ValueType?
  {
    if let transformer {
      if transformer.contains("UnarchiveFromData") { return .data }
      if transformer.contains("NegateBoolean") { return .bool }
      if testsPresence(transformer) { return nil }
    }
    switch name {
    case "selectedIndex", "selectedTag": return .integer
    case "selectedValue", "selectedObject", "title", "fontName", "displayPatternValue1":
      return .string
    case "fontSize": return .double
    case _ where name.hasPrefix("enabled") || name.hasPrefix("hidden") || name == "editable":
      return .bool
    case "value":
      switch control {
      // A menu item's `value` is its state, on or off (NSValueBinding of NSMenuItem).
      case "button-check", "button-switch", "switch", "menuItem": return .bool
      case "slider", "levelIndicator", "stepper": return .double
      case "textField", "comboBox", "searchField", "secureTextField", "textView", "tokenField":
        return .string
      case "colorWell": return .data
      case "datePicker": return .date
      default: return nil
      }
    default: return nil
    }
  }

  /// The uses an interface file makes.
  static func uses(_ bytes: [UInt8], designable: Bool) -> [SourceUse] {
    let tags = tags(bytes)
    // A designable.nib is an Interface Builder 3 archive (`<archive>`), or, saved by a newer
    // Xcode, a xib document like any other.
    return designable && tags.contains { $0.name == "archive" } ? nibUses(tags) : xibUses(tags)
  }

  private static func xibUses(_ tags: [Tag]) -> [SourceUse] {
    var controllers: Set<String> = []
    for tag in tags where tag.name == "userDefaultsController" {
      if let id = tag.attributes["id"] { controllers.insert(id) }
    }
    var stack: [String] = []
    var buttonType: [String?] = []
    var uses: [SourceUse] = []
    var pending: (use: SourceUse, depth: Int)?
    var cellType: String?
    for tag in tags {
      if tag.closing {
        if let p = pending, stack.count == p.depth {
          uses.append(p.use)
          pending = nil
        }
        if !stack.isEmpty { stack.removeLast() }
        if tag.name == "button", !buttonType.isEmpty { buttonType.removeLast() }
        continue
      }
      if tag.name == "button" { buttonType.append(nil) }
      if tag.name == "buttonCell" { cellType = tag.attributes["type"] ?? "push" }
      if tag.name == "buttonCell", !buttonType.isEmpty, buttonType[buttonType.count - 1] == nil {
        buttonType[buttonType.count - 1] = tag.attributes["type"] ?? "push"
      }
      if tag.name == "binding", let destination = tag.attributes["destination"],
        controllers.contains(destination), let path = tag.attributes["keyPath"],
        path.hasPrefix("values.")
      {
        let key = String(path.dropFirst(7).split(separator: ".", maxSplits: 1).first ?? "")
        let name = tag.attributes["name"] ?? ""
        // The control: the element around `<connections>`.
        var control =
          stack.count >= 2 && stack[stack.count - 1] == "connections" ? stack[stack.count - 2] : nil
        if control == "button", let type = buttonType.last ?? nil { control = "button-" + type }
        // A cell of a matrix bound on its own (`<buttonCell type="check">`).
        if control == "buttonCell", let cellType { control = "button-" + cellType }
        var use = SourceUse(
          key: .literal(key), receiver: .standard, access: .bind,
          method: "binding \"\(name)\"" + (control.map { " of a \($0)" } ?? ""), line: tag.line)
        use.type = bindingType(
          name, control: control, transformer: tag.attributes["valueTransformerName"])
        use.weakType = true
        let whole = String(path.dropFirst(7))
        if whole != key { use.boundPath = whole }
        if tag.selfClosing {
          uses.append(use)
        } else {
          pending = (use, stack.count + 1)
        }
      }
      // A MASShortcutView given its key in Interface Builder: MASShortcut stores the shortcut
      // there, archived.
      if tag.name == "userDefinedRuntimeAttribute",
        tag.attributes["keyPath"] == "associatedUserDefaultsKey",
        let key = tag.attributes["value"], !key.isEmpty
      {
        var use = SourceUse(
          key: .literal(key), receiver: .standard, access: .bind,
          method: "MASShortcutView associatedUserDefaultsKey", type: .data, line: tag.line)
        use.library = .masShortcut
        uses.append(use)
      }
      if let p = pending, tag.name == "string", tag.attributes["key"] == "NSValueTransformerName" {
        var use = p.use
        // (`NSIsNil`, `NSIsNotNil`: whether the key is set, whatever it holds.)
        use.type =
          Self.testsPresence(tag.text)
          ? nil
          : bindingType(
            use.method.split(separator: "\"").dropFirst().first.map(String.init) ?? "",
            control: nil,
            transformer: tag.text) ?? use.type
        pending = (use, p.depth)
      }
      if !tag.selfClosing { stack.append(tag.name) }
    }
    return uses
  }

  private static func nibUses(_ tags: [Tag]) -> [SourceUse] {
    var controllers: Set<String> = []
    var classes: [String: String] = [:]
    for tag in tags where tag.name == "object" {
      if let id = tag.attributes["id"], let cls = tag.attributes["class"] {
        classes[id] = cls
        if cls == "NSUserDefaultsController" { controllers.insert(id) }
      }
    }
    var uses: [SourceUse] = []
    var depth = 0
    var connector:
      (
        depth: Int, line: Int, destination: String?, source: String?, binding: String?,
        path: String?, transformer: String?
      )?
    for tag in tags {
      if tag.closing {
        if let c = connector, c.depth == depth {
          if let d = c.destination, controllers.contains(d), let path = c.path,
            path.hasPrefix("values.")
          {
            let key = String(path.dropFirst(7).split(separator: ".", maxSplits: 1).first ?? "")
            let control: String? = c.source.flatMap { classes[$0] }.map {
              switch $0 {
              case "NSButton": "button-check"
              case "NSSlider": "slider"
              case "NSTextField": "textField"
              case "NSColorWell": "colorWell"
              case "NSPopUpButton": "popUpButton"
              default: $0
              }
            }
            var use = SourceUse(
              key: .literal(key), receiver: .standard, access: .bind,
              method: "binding \"\(c.binding ?? "")\""
                + (c.source.flatMap { classes[$0] }.map { " of an \($0)" } ?? ""),
              line: c.line)
            use.type = bindingType(c.binding ?? "", control: control, transformer: c.transformer)
            use.weakType = true
            if path.dropFirst(7) != key { use.boundPath = String(path.dropFirst(7)) }
            uses.append(use)
          }
          connector = nil
        }
        depth -= 1
        continue
      }
      if !tag.selfClosing { depth += 1 }
      if tag.name == "object", tag.attributes["class"] == "NSNibBindingConnector" {
        connector = (depth, tag.line, nil, nil, nil, nil, nil)
        continue
      }
      guard connector != nil else { continue }
      switch (tag.name, tag.attributes["key"]) {
      case ("reference", "NSDestination"): connector?.destination = tag.attributes["ref"]
      case ("reference", "NSSource"): connector?.source = tag.attributes["ref"]
      case ("string", "NSBinding"): connector?.binding = tag.text
      case ("string", "NSKeyPath"): connector?.path = tag.text
      case ("string", "NSValueTransformerName"): connector?.transformer = tag.text
      default: break
      }
    }
    return uses
  }
}

/// Property lists an app's defaults come from: an iOS `Settings.bundle` pane (its
/// `PreferenceSpecifiers`) and a bundle file the code registers.
enum PlistSources {
  /// The uses of one Settings pane: each specifier with a `Key`, its type and its
  /// `DefaultValue`.
  /// Specifier types (InAppSettingsKit's) that show a row with a `Key` but store no value.
  static let storesNothing: Set<String> = [
    "IASKOpenURLSpecifier", "IASKButtonSpecifier", "IASKMailComposeSpecifier",
  ]

  static func settingsUses(_ value: PlistValue) -> [SourceUse] {
    guard case .dictionary(let root) = value,
      case .array(let specifiers)? = root["PreferenceSpecifiers"]
    else {
      return []
    }
    var uses: [SourceUse] = []
    for (n, item) in specifiers.enumerated() {
      guard case .dictionary(let d) = item, case .string(let key)? = d["Key"], !key.isEmpty else {
        continue
      }
      let kind = d["Type"]?.stringValue ?? "?"
      // InAppSettingsKit's buttons, links and mail panes have a `Key` and store nothing.
      if Self.storesNothing.contains(kind) { continue }
      var use = SourceUse(
        key: .literal(key), receiver: .standard, access: .settings, method: kind, line: 0)
      use.place = "PreferenceSpecifiers[\(n)]"
      use.weakType = true
      switch kind {
      case "PSToggleSwitchSpecifier":
        use.type = .bool
        if let on = d["TrueValue"], case .bool = on {
        } else if let on = d["TrueValue"] {
          use.type = valueType(on)
        }
      case "PSSliderSpecifier": use.type = .double
      case "PSTextFieldSpecifier": use.type = .string
      case "PSMultiValueSpecifier", "PSRadioGroupSpecifier", "PSTitleValueSpecifier":
        if case .array(let values)? = d["Values"] {
          let types = Set(values.compactMap(valueType))
          use.type = types.count == 1 ? types.first : nil
        } else if let value = d["DefaultValue"] {
          use.type = valueType(value)
        }
      default: use.type = d["DefaultValue"].flatMap(valueType)
      }
      if let value = d["DefaultValue"] {
        use.value = .value(value)
        use.defaultSource = .settingsBundle
      }
      uses.append(use)
    }
    return uses
  }

  /// The child panes a Settings pane names (`PSChildPaneSpecifier`'s `File`).
  static func childPanes(_ value: PlistValue) -> [String] {
    guard case .dictionary(let root) = value,
      case .array(let specifiers)? = root["PreferenceSpecifiers"]
    else {
      return []
    }
    return specifiers.compactMap { item in
      guard case .dictionary(let d) = item, d["Type"]?.stringValue == "PSChildPaneSpecifier" else {
        return nil
      }
      return d["File"]?.stringValue
    }
  }

  static func valueType(_ value: PlistValue) -> MigrationPlan.ValueType? {
    ValueExpr.value(value).type
  }
}

/// A dictionary the app keeps in its Info.plist and registers as defaults
/// (`[defaults registerDefaults:[bundle objectForInfoDictionaryKey:@"AppDefaults"]]`): named
/// among the registered resources as the file and the entry, which resolves to the entry of
/// the tree's Info.plist that holds it.
enum InfoDictionaryEntry {
  static let file = "Info.plist"
  /// (The unit separator: no file name a literal gives holds it.)
  static let separator: Character = "\u{1F}"

  /// The registered resource naming `entry` of the Info.plist.
  static func resource(_ entry: String) -> String { file + String(separator) + entry }

  /// The entry a registered resource names, if it is an Info.plist's entry.
  static func entry(of resource: String) -> String? {
    guard let at = resource.firstIndex(of: separator) else { return nil }
    return String(resource[resource.index(after: at)...])
  }

  /// Objective-C `[bundle objectForInfoDictionaryKey:@"X"]`, `[[bundle infoDictionary]
  /// objectForKey:@"X"]` (or `valueForKey:`); Swift `bundle.object(forInfoDictionaryKey: "X")`,
  /// `bundle.infoDictionary?["X"]`: the resource naming entry X, where token `k` starts one.
  static func named(at k: Int, _ t: SourceTokens) -> String? {
    if t.isText(k, "objectForInfoDictionaryKey"), t.isPunctuation(k + 1, 0x3A) {
      return t.stringValue(k + 2).map(resource)
    }
    if t.isText(k, "forInfoDictionaryKey"), t.isPunctuation(k + 1, 0x3A),
      t.isText(k - 2, "object") || t.isText(k - 2, "value")
    {
      return t.stringValue(k + 2).map(resource)
    }
    guard t.isText(k, "infoDictionary") else { return nil }
    if t.isPunctuation(k + 1, 0x5D),
      t.isText(k + 2, "objectForKey") || t.isText(k + 2, "valueForKey"),
      t.isPunctuation(k + 3, 0x3A)
    {
      return t.stringValue(k + 4).map(resource)
    }
    var open = k + 1
    if t.isPunctuation(open, 0x3F) || t.isPunctuation(open, 0x21) { open += 1 }
    if t.isPunctuation(open, 0x5B), t.isPunctuation(open + 2, 0x5D) {
      return t.stringValue(open + 1).map(resource)
    }
    return nil
  }
}
