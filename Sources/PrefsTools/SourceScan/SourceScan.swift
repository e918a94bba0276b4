import LegacyDefaults
import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `prefs plan scan`: reads an app's Objective-C, C and Swift source (and the property lists
/// and interface files it ships) and drafts the plan that migrates its defaults: every key the
/// code uses with a user-defaults receiver, the type its getters and setters say, and the
/// default the running app saw, each with the places it comes from.
///
/// Files are read in parallel, each once (a second time only for a file that calls a wrapper
/// found elsewhere); what a file says is kept as its constants and uses, never its text, so
/// memory follows the largest file, not the tree.
package enum SourceScan {
  package struct Options: Sendable {
    /// Whose getters read a registered value (`@"YES"` registered for a `boolForKey:`).
    package var dialect: Dialect
    /// Scan for this suite's domain (`initWithSuiteName:`) instead of the standard one.
    package var suite: String?
    package var jobs: Int
    /// The largest source file read (a larger one is named and skipped).
    package var fileLimit: Int

    package init(
      dialect: Dialect = .apple, suite: String? = nil, jobs: Int = 2, fileLimit: Int = 64 << 20
    ) {
      self.dialect = dialect
      self.suite = suite
      self.jobs = jobs
      self.fileLimit = fileLimit
    }
  }

  /// Scans `paths` (files and folders, recursively).
  package static func scan(_ paths: [String], options: Options = Options()) -> SourceScanResult {
    let (files, walkWarnings, projects) = SourceFiles.collect(paths)
    let list = files
    var all = [FileFacts](repeating: FileFacts(path: ""), count: files.count)
    var whole = [Bool](repeating: false, count: files.count)
    var macros: MacroTable?
    func readAll(_ indices: [Int], _ reading: Reading) {
      let table = macros
      let read = eachIndex(indices, jobs: options.jobs) { index -> (FileFacts, Bool)? in
        var lookup: (@Sendable (String) -> FunctionMacro?)?
        if let table { lookup = { table.lookup($0, in: index) } }
        return readFacts(list[index], limit: options.fileLimit, reading: reading, macros: lookup)
      }
      for (index, (facts, isWhole)) in read {
        all[index] = facts
        whole[index] = isWhole
      }
    }
    // A Settings bundle's panes: its Root.plist (Root~ipad.plist too) and the child panes
    // they name, in turn; a plist of the bundle no pane names is not shown by Settings.
    let panes = settingsPanes(list, limit: options.fileLimit)
    readAll(
      files.indices.filter { list[$0].kind != .plist || panes.contains(list[$0].path) },
      .automatic(names: []))
    // A file that never names user defaults but names a variable, a macro or a class bound
    // to them elsewhere (`#define DEFAULTS [NSUserDefaults standardUserDefaults]`, a
    // property of a header): read whole now.
    var names = Set(all.flatMap(\.receivers.keys))
    for f in all {
      for (type, parent) in f.superclasses
      where parent == "NSUserDefaults" || parent == "UserDefaults" || parent == "PAPreferences" {
        names.insert(type)
      }
      for w in f.wrappers { if let c = w.className { names.insert(c) } }
    }
    let rest = files.indices.filter {
      !whole[$0] && (list[$0].kind == .objc || list[$0].kind == .swift)
    }
    if !names.isEmpty, !rest.isEmpty {
      readAll(rest, .automatic(names: names.sorted().map { Array($0.utf8) }))
    }
    // Function-like macros defined in one file and called in another (a header's): the files
    // that name one are read again, whole, with every macro of the tree expanded.
    let table = MacroTable(
      all.map { $0.functionMacros }, includes: all.map { $0.includes }, paths: list.map(\.path))
    if !table.isEmpty {
      macros = table
      let words = table.names.map { Array($0.utf8) }
      let calling = files.indices.filter { n in
        list[n].kind == .objc
          && ((try? FileAccess.readFile(list[n].path, limit: options.fileLimit)).map {
            let bytes = [UInt8]($0)
            return words.contains { ByteSearch.contains(bytes, $0) }
          } ?? false)
      }
      if !calling.isEmpty { readAll(calling, .whole) }
    }
    // What the functions the keys and registrations call return: worked out on a second
    // read of the files that define them only (the first read notes which functions return
    // something), the functions those returns call in turn.
    var asked: Set<String> = []
    /// The returns of the functions `needed` names (those not asked before), read from the
    /// files that define them.
    func readReturns(_ needed: Set<String>) -> [(Int, [String: [FunctionReturn]])] {
      // (`OEDBSaveState.entityName`: that class's method, else any of that name.)
      let bare = needed.compactMap { n in
        n.lastIndex(of: ".").map { String(n[n.index(after: $0)...]) }
      }
      let wanted = needed.union(bare).subtracting(asked)
      let defining = files.indices.filter { !all[$0].returnsDefined.isDisjoint(with: wanted) }
      guard !defining.isEmpty else { return [] }
      asked.formUnion(wanted)
      let table = macros
      return eachIndex(defining, jobs: options.jobs) { index -> [String: [FunctionReturn]]? in
        var lookup: (@Sendable (String) -> FunctionMacro?)?
        if let table { lookup = { table.lookup($0, in: index) } }
        return readFacts(
          list[index], limit: options.fileLimit, reading: .returns(wanted), macros: lookup)?.0
          .returns
      }
    }
    for _ in 0..<4 {
      var needed: Set<String> = []
      // (A file read for its constants only calls nothing.)
      for n in all.indices where whole[n] || !all[n].returns.isEmpty {
        needed.formUnion(all[n].calls)
      }
      let found = readReturns(needed)
      if found.isEmpty { break }
      for (index, returns) in found {
        for (selector, list) in returns { all[index].returns[selector, default: []] += list }
      }
    }
    all = all.enumerated().map { n, f -> FileFacts in
      var f = f
      f.path = list[n].path
      for k in f.uses.indices { f.uses[k].file = n }
      for k in f.wrapperCalls.indices { f.wrapperCalls[k].file = n }
      return f
    }
    var warnings = walkWarnings + all.flatMap(\.warnings)
    let sourceFiles = zip(files, all).filter {
      $0.0.kind != .plist && $0.1.warnings.allSatisfy { !$0.message.hasSuffix("skipped") }
    }.count

    var model = ScanModel(files: all, dialect: options.dialect)
    // Wrappers whose selectors are not the defaults API's: their calls are gathered from the
    // files that name them (a second read of those files only).
    var rounds = 0
    var done: Set<String> = []
    while rounds < 4 {
      rounds += 1
      var selectors = Set(model.wrappers.keys).subtracting(DefaultsAPI.objc.keys)
        .subtracting(DefaultsAPI.swift.keys).subtracting(done)
      guard !selectors.isEmpty else { break }
      done.formUnion(selectors)
      // A Swift function is called by its name and the labels of the arguments given (a
      // defaulted parameter or a trailing closure left out): its name is gathered.
      for selector in selectors where selector.hasSuffix(")") {
        if let open = selector.firstIndex(of: "(") { selectors.insert(String(selector[...open])) }
      }
      let gathered = selectors
      // (A subscript of an extension of UserDefaults is called on them with a case of its
      // enum, `UserDefaults.standard[.synced]`: a file with `[.` is read for it too.)
      let words =
        gathered.map(Self.searchWord)
        + (gathered.contains { $0.hasPrefix("subscript(") } ? [Array("[.".utf8)] : [])
      let gatheredCalls = readEach(
        list, options: options, reading: .wrapperCalls(gathered, words: words), \.wrapperCalls)
      // What the calls' arguments call (`[store flagForKey:[self keyFor:@"x"]]`).
      var needed: Set<String> = []
      for call in gatheredCalls {
        for argument in call.arguments { if let argument { needed.formUnion(argument.calls) } }
      }
      for (_, returns) in readReturns(needed) {
        for (selector, list) in returns { model.returns[selector, default: []] += list }
      }
      model.addWrapperCalls(gatheredCalls.sorted { ($0.file, $0.line) < ($1.file, $1.line) })
    }
    readPropertyAccesses(&model, list: list, options: options)
    // Registered bundle files (the code's, and those a wrapper's call names): resolved to the
    // property lists in the tree by their names.
    var plistsByName: [String: [Int]] = [:]
    for (n, file) in files.enumerated() where file.kind == .plist {
      plistsByName[String(file.path.split(separator: "/").last ?? ""), default: []].append(n)
    }
    var registered: [SourceUse] = []
    // (Each file read once, however many registrations name it.)
    var plists: [Int: Result<PlistValue, ScanWarning>] = [:]
    var registeredOnce: Set<String> = []
    for (name, base) in model.registeredFiles {
      let entry = InfoDictionaryEntry.entry(of: name)
      let wanted =
        entry == nil ? String(name.split(separator: "/").last ?? "") : InfoDictionaryEntry.file
      let by = base.file < list.count ? list[base.file].path : "?"
      // An Info.plist's entry: the first of the tree's Info.plist files that holds it (an
      // extension's or a test's has none).
      var read: Result<PlistValue, ScanWarning>?
      var first: Int?
      for n in plistsByName[wanted] ?? [] {
        let value = plists[n] ?? readPlist(files[n].path, limit: options.fileLimit)
        plists[n] = value
        if let entry {
          guard case .success(.dictionary(let d)) = value, let held = d[entry] else { continue }
          read = .success(held)
        } else {
          read = value
        }
        first = n
        break
      }
      guard let read, let first else {
        let what = entry.map { "the entry \($0) of its Info.plist" } ?? name
        warnings.append(
          ScanWarning(
            path: by, line: base.line,
            message: "registers \(what), which is not in the tree: its defaults are not known"))
        continue
      }
      // (The same file, or entry, registered again by the same file on the same receiver:
      // its keys are read once.)
      guard registeredOnce.insert("\(first)|\(entry ?? "")|\(base.file)|\(base.receiver)").inserted
      else {
        continue
      }
      let path = files[first].path
      switch read {
      case .failure(let warning): warnings.append(warning)
      case .success(.dictionary(let d)):
        // Each key of the file is registered, its place the file's, by the code's line.
        for var use in base.registering(
          d.map { ValueEntry(key: .literal($0.key), value: .value($0.value)) })
        {
          use.file = first
          use.line = 0
          use.place = "registered by \(by):\(base.line)"
          registered.append(use)
        }
      case .success:
        warnings.append(
          ScanWarning(path: path, message: "registered as defaults, but not a dictionary"))
      }
    }
    model.addRegistered(registered)
    model.addUncalledWrappers()
    model.keepManagedReads()
    model.joinBoundPaths()
    warnings += ownDomains(&model, files: list, projects: projects, options: options)
    model.unusedDeclarations = Self.unusedDeclarations(
      Set(model.uses.compactMap(\.use.declaration)), list: list, limit: options.fileLimit)
    return model.result(
      target: options.suite, sourceFiles: sourceFiles, warnings: warnings, paths: all.map(\.path))
  }

  /// The Swift properties that declare a key — a library's (`static let isFirstLaunch =
  /// Key<Bool>("isFirstLaunch", default: true)`) or through a property wrapper (`@Stored(key:
  /// "tip") static var tip: Bool`) — that no code names again: a key the app never reads nor
  /// writes (and Defaults, which registers a key when its property is first used, never
  /// registers). A second read of the source files, only when the tree has such declarations.
  /// A name counts as used unless it is declared there (`let`, `var`, `case`, `func` before it)
  /// or is another type's member (`TipKey.tip`, where the property is `TipManager`'s); so a key
  /// is left out only when nothing could be a use of it.
  static func unusedDeclarations(
    _ declared: Set<PropertyDeclaration>, list: [SourceFile], limit: Int
  ) -> Set<PropertyDeclaration> {
    guard !declared.isEmpty else { return [] }
    var unused = declared
    // (Objective-C files too: a Swift `@objc` property may be named only there.)
    for file in list where (file.kind == .swift || file.kind == .objc) && !unused.isEmpty {
      // (A file that cannot be read was warned of on the first read: nothing is left out.)
      guard let data = try? FileAccess.readFile(file.path, limit: limit) else { return [] }
      let bytes = withoutComments([UInt8](data))
      unused = unused.filter { !isUsed($0, in: bytes) }
    }
    return unused
  }

  /// `bytes` with its `//` and `/* */` comments made spaces (line ends kept): a name in a
  /// comment, code left out, is no use. (Strings are stepped over, so `"https://…"` stays.)
  static func withoutComments(_ source: [UInt8]) -> [UInt8] {
    var bytes = source
    var i = 0
    var inString = false
    while i < bytes.count {
      let b = bytes[i]
      if inString {
        if b == 0x5C {
          i += 2
          continue
        }
        if b == 0x22 || b == 0x0A { inString = false }
        i += 1
        continue
      }
      if b == 0x22 {
        inString = true
      } else if b == 0x2F, i + 1 < bytes.count, bytes[i + 1] == 0x2F {
        while i < bytes.count, bytes[i] != 0x0A {
          bytes[i] = 0x20
          i += 1
        }
        continue
      } else if b == 0x2F, i + 1 < bytes.count, bytes[i + 1] == 0x2A {
        bytes[i] = 0x20
        bytes[i + 1] = 0x20
        i += 2
        while i < bytes.count, !(bytes[i] == 0x2A && i + 1 < bytes.count && bytes[i + 1] == 0x2F) {
          if bytes[i] != 0x0A { bytes[i] = 0x20 }
          i += 1
        }
        if i < bytes.count { bytes[i] = 0x20 }
        if i + 1 < bytes.count { bytes[i + 1] = 0x20 }
        i += 2
        continue
      }
      i += 1
    }
    return bytes
  }

  /// Whether `bytes` names the declared property anywhere but in a declaration, a string of
  /// its own, as another type's member, or as a function called (`cachePath(forVideo: v)`).
  static func isUsed(_ declaration: PropertyDeclaration, in bytes: [UInt8]) -> Bool {
    let name = Array(declaration.name.utf8)
    guard let first = name.first, bytes.count >= name.count else { return false }
    func isWordByte(_ b: UInt8) -> Bool {
      b == 0x5F || (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || b >= 0x80
    }
    /// The identifier that ends before `end` (spaces skipped), and where it starts.
    func word(before end: Int) -> (String, Int)? {
      var k = end
      while k > 0, bytes[k - 1] == 0x20 || bytes[k - 1] == 0x09 { k -= 1 }
      let stop = k
      while k > 0, isWordByte(bytes[k - 1]) { k -= 1 }
      return k < stop ? (String(decoding: bytes[k..<stop], as: UTF8.self), k) : nil
    }
    /// Whether `at` is inside a string of its line (an odd count of unescaped quotes before
    /// it).
    func insideString(_ at: Int) -> Bool {
      var k = at
      var quotes = 0
      while k > 0, bytes[k - 1] != 0x0A {
        if bytes[k - 1] == 0x22, k < 2 || bytes[k - 2] != 0x5C { quotes += 1 }
        k -= 1
      }
      return quotes % 2 == 1
    }
    var i = 0
    let last = bytes.count - name.count
    while i <= last {
      let end = i + name.count
      guard bytes[i] == first, bytes[i..<end].elementsEqual(name),
        i == 0 || !isWordByte(bytes[i - 1]), end == bytes.count || !isWordByte(bytes[end]),
        // Inside a string (`"tip"`, `"app.tip"`, a key's own): not a use of the property.
        !insideString(i)
      else {
        i += 1
        continue
      }
      i = end
      // `cachePath(forVideo: v)`: a function of that name, called with arguments.
      var after = end
      while after < bytes.count, bytes[after] == 0x20 { after += 1 }
      if after + 1 < bytes.count, bytes[after] == 0x28, bytes[after + 1] != 0x29 { continue }
      var k = i - name.count
      while k > 0, bytes[k - 1] == 0x20 || bytes[k - 1] == 0x09 { k -= 1 }
      if k > 0, bytes[k - 1] == 0x2E {
        // `X.name`: a use unless X is another type (`TipKey.tip`, capitalized, not the
        // declaring one); an instance (`manager.name`, `Manager.shared.name`) and `.name` (an
        // implicit member, `Defaults[.name]`, `\.name`) are uses, and so is SwiftyUserDefaults'
        // `Defaults.name` (its adapter's member lookup).
        guard let (owner, _) = word(before: k - 1), let initial = owner.first,
          initial.isUppercase, owner != declaration.type, owner != "Self", owner != "Defaults"
        else {
          // (A static property is the type's: `settings.name` is an instance's member of that
          // name, `self.name` in a static method the type's own.)
          if declaration.isStatic, let (owner, _) = word(before: k - 1),
            owner.first?.isLowercase == true, owner != "self"
          {
            continue
          }
          return true
        }
        continue
      }
      if let (keyword, _) = word(before: k),
        ["let", "var", "case", "func"].contains(keyword)
      {
        continue
      }
      return true
    }
    return false
  }

  /// The word a file must hold to call a wrapper: the longest part of its selector.
  static func searchWord(_ selector: String) -> [UInt8] {
    // A type's subscript is called as `self[…]` (in the type or an extension of it).
    if selector.hasPrefix("subscript(") { return Array("self[".utf8) }
    // (`defaultKey=`, an assignment's: the member.)
    let parts = selector.split(whereSeparator: {
      $0 == ":" || $0 == "(" || $0 == ")" || $0 == "_" || $0 == "="
    })
    return Array((parts.max { $0.count < $1.count }.map(String.init) ?? selector).utf8)
  }

  static func readPlist(_ path: String, limit: Int) -> Result<PlistValue, ScanWarning> {
    let data: Data
    do {
      data = try FileAccess.readFile(path, limit: limit)
    } catch {
      return .failure(ScanWarning(path: path, message: "\(error.reason): skipped"))
    }
    do {
      return .success(try PropertyList.read(data).value)
    } catch {
      return .failure(ScanWarning(path: path, message: "not a property list (\(error)): skipped"))
    }
  }

  /// How much of a file to read.
  enum Reading: Sendable {
    /// All of a file that names user defaults (or a receiver bound to them elsewhere);
    /// only the constants of one that does not.
    case automatic(names: [[UInt8]])
    /// All of the file (one that calls a macro of another file).
    case whole
    /// All of the file, for what these functions return.
    case returns(Set<String>)
    /// The calls of these wrappers, in a file that names one (`words`).
    case wrapperCalls(Set<String>, words: [[UInt8]])
    /// The accesses of these properties of an extension of UserDefaults, in a Swift file
    /// that names one after a `.` (`members`: the names' bytes).
    case propertyAccesses(Set<String>, members: Set<[UInt8]>)
  }

  /// The words that make a file worth reading whole: it names user defaults.
  static let triggers: [[UInt8]] = [
    "UserDefaults", "registerDefaults", "AppStorage", "CFPreferences",
    // swift-sharing's `@Shared(.appStorage("k"))`.
    "appStorage(",
    // MASShortcut's binder (`bindShortcutWithDefaultsKey:`, `registerDefaultShortcuts:`).
    "ShortcutBinder",
    // PAPreferences: a subclass's declared properties (its implementation, which makes them
    // `@dynamic`, is read whole for naming the subclass).
    "PAPreferences",
  ].map { Array($0.utf8) }

  /// The Settings panes of every `Settings.bundle` in `files`: each `Root*.plist`, and the
  /// `.plist` of each `PSChildPaneSpecifier`'s `File` in the same bundle, followed once; and
  /// InAppSettingsKit's `InAppSettings.bundle`, whose `NAME.inApp.plist` it reads before
  /// `NAME.plist`.
  static func settingsPanes(_ files: [SourceFile], limit: Int) -> Set<String> {
    var byFolder: [String: [String: String]] = [:]
    for file in files where file.kind == .plist {
      let parts = file.path.split(separator: "/", omittingEmptySubsequences: false)
      guard
        let bundle = parts.lastIndex(where: {
          $0 == "Settings.bundle" || $0 == "InAppSettings.bundle"
        })
      else { continue }
      let folder = parts[...bundle].joined(separator: "/")
      let name = parts[(bundle + 1)...].joined(separator: "/")
      byFolder[folder, default: [:]][name] = file.path
    }
    var panes: Set<String> = []
    for (_, plists) in byFolder {
      var queue = plists.filter { $0.key.hasPrefix("Root") && !$0.key.contains("/") }.map(\.value)
      while let path = queue.popLast() {
        guard panes.insert(path).inserted else { continue }
        guard case .success(let value) = readPlist(path, limit: limit) else { continue }
        for child in PlistSources.childPanes(value) {
          if let next = plists[child + ".inApp.plist"] ?? plists[child + ".plist"] ?? plists[child]
          {
            queue.append(next)
          }
        }
      }
    }
    return panes
  }

  /// What one file says, and whether it was read whole; nil for a file the reading skips.
  static func readFacts(
    _ file: SourceFile, limit: Int, reading: Reading,
    macros: (@Sendable (String) -> FunctionMacro?)? = nil
  ) -> (FileFacts, Bool)? {
    var facts = FileFacts(path: file.path)
    if file.kind == .plist {
      // Only a Settings pane is read now (the caller chose them); a registered file when the
      // code names it.
      guard case .automatic = reading, file.path.contains("Settings.bundle/") else {
        return (facts, false)
      }
      switch readPlist(file.path, limit: limit) {
      case .failure(let warning): facts.warnings.append(warning)
      case .success(let value): facts.uses = PlistSources.settingsUses(value)
      }
      return (facts, true)
    }
    let data: [UInt8]
    do {
      data = [UInt8](try FileAccess.readFile(file.path, limit: limit))
    } catch {
      guard case .automatic = reading else { return nil }
      facts.warnings.append(ScanWarning(path: file.path, message: "\(error.reason): skipped"))
      return (facts, true)
    }
    var whole = true
    var wrappers: Set<String> = []
    var properties: Set<String> = []
    switch reading {
    case .automatic(let names):
      whole =
        (triggers + names).contains { ByteSearch.contains(data, $0) }
        || file.kind == .interface
          && ByteSearch.contains(data, Array("serDefaultsController".utf8))
      if !whole, file.kind == .interface { return (facts, false) }
    case .wrapperCalls(let selectors, let words):
      guard words.contains(where: { ByteSearch.contains(data, $0) }) else {
        return nil
      }
      wrappers = selectors
    case .propertyAccesses(let names, let members):
      guard file.kind == .swift, namesMember(data, members) else { return nil }
      properties = names
    case .whole, .returns:
      whole = true
    }
    // A file of constants only: the definitions, without lexing the rest.
    if !whole, file.kind == .objc, !data.starts(with: [0xFF, 0xFE]),
      !data.starts(with: [0xFE, 0xFF])
    {
      if ByteSearch.firstIndex(of: 0, in: data, data.indices) != nil {
        facts.warnings.append(ScanWarning(path: file.path, message: "binary, not text: skipped"))
        return (facts, true)
      }
      return (DefinitionSkimmer.facts(data, path: file.path), false)
    }
    guard let (bytes, encoding) = SourceText.utf8(data) else {
      facts.warnings.append(ScanWarning(path: file.path, message: "binary, not text: skipped"))
      return (facts, true)
    }
    if file.kind == .objc || file.kind == .swift {
      var tokens = SourceLexer.tokens(of: bytes, swift: file.kind == .swift)
      if file.kind == .objc, macros != nil || !tokens.functionMacros.isEmpty {
        // The file's own function-like macros, then the tree's.
        let own = tokens.functionMacros
        let expanded = Preprocessor.expand(bytes, tokens: tokens) { own[$0] ?? macros?($0) }
        if let expanded {
          let includes = tokens.includes
          tokens = SourceLexer.tokens(of: expanded, swift: false)
          tokens.functionMacros = own
          tokens.includes = includes
        }
      }
      guard tokens.depth <= SourceTokens.nestingLimit else {
        facts.warnings.append(
          ScanWarning(
            path: file.path,
            message:
              "brackets nested \(tokens.depth) deep (more than \(SourceTokens.nestingLimit)): skipped"
          ))
        return (facts, true)
      }
      var input = SourceInput(
        tokens: tokens, path: file.path, wrapperSelectors: wrappers,
        gatherOnly: !wrappers.isEmpty || !properties.isEmpty)
      if case .returns(let wanted) = reading { input.returnsWanted = wanted }
      input.propertiesWanted = properties
      if file.kind == .objc {
        var reader = ObjCReader(input)
        facts = reader.read()
      } else {
        var reader = SwiftReader(input)
        facts = reader.read()
      }
      facts.functionMacros = tokens.functionMacros
      facts.includes = tokens.includes
      facts.encoding = encoding
      return (facts, whole)
    }
    if file.kind == .interface {
      facts.uses = InterfaceReader.uses(bytes, designable: file.path.hasSuffix("designable.nib"))
    }
    facts.encoding = encoding
    return (facts, whole)
  }
}
