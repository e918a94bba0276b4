import LegacyDefaults
import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What a scan found: for each key of the domain scanned, its proposed entry and the evidence
/// behind it; the keys only known at run time (patterns), the keys of other suites, and the
/// files skipped.
package struct SourceScanResult: Sendable {
  /// One use of a key, as the evidence shows it.
  package struct Place: Sendable, Hashable {
    /// `Preference.m:14`, or a resource's place (`Settings.bundle/Root.plist
    /// PreferenceSpecifiers[2]`).
    package var location: String
    /// The getter, setter or resource (`boolForKey:`, `registerDefaults:`,
    /// `PSToggleSwitchSpecifier`).
    package var method: String
    /// What this use says: its type, a default, a condition.
    package var detail: String
  }

  /// A default found, and where.
  package struct FoundDefault: Sendable, Hashable {
    package var value: String
    package var source: String
    package var location: String
  }

  package struct Key: Sendable {
    package var entry: MigrationPlan.Entry
    package var places: [Place]
    package var defaults: [FoundDefault]
    /// Why the type is `any`, why a default was not written, which default won.
    package var notes: [String]
  }

  /// A key built at run time: its pattern (`Flag*Image`) and where.
  package struct Pattern: Sendable, Hashable {
    package var pattern: String
    package var domain: ScanDomain
    package var places: [Place]
    package var pieces: [String]
  }

  /// A use whose receiver may be user defaults but is not known to be (`[self.store
  /// boolForKey:K]` of a property of type `id`): never in the plan, listed for review.
  package struct UnknownReceiver: Sendable, Hashable {
    /// The key, or its pattern.
    package var key: String
    package var receiver: String
    package var place: Place
  }

  package var domain: ScanDomain
  package var dialect: Dialect
  package var keys: [Key]
  /// Keys the code only removes: proposed for the plan's `drop`.
  package var removed: [Key]
  package var patterns: [Pattern]
  /// The keys of the other domains the code uses, by domain.
  package var otherDomains: [(domain: ScanDomain, keys: [Key])]
  package var warnings: [ScanWarning]
  /// How many source and interface files were read.
  package var filesRead: Int
  package var unknownReceivers: [UnknownReceiver] = []
  /// Keys a property declares (a library's key, a property wrapper's) that no code uses
  /// (Defaults registers a key only when its property is first used): not in the plan, listed
  /// for review.
  package var unused: [Key] = []

  /// The plan: every key of the domain, its typed key named after the property the code keeps
  /// it in (else the key itself).
  package func plan() -> MigrationPlan {
    MigrationPlan(
      dialect: dialect, schemaVersion: 1, unmapped: .keep, drop: Set(removed.map(\.entry.from)),
      entries: keys.map(\.entry))
  }

  /// The evidence for standard error: each key with every place it is used, the defaults found
  /// and where each came from; the run-time keys; the other suites; the notes.
  package func evidenceText() -> String {
    var out = ""
    let rows =
      [["KEY", "TYPE", "DEFAULT", "TO"]]
      + keys.map { key in
        [
          key.entry.from, key.entry.type.rawValue,
          key.entry.defaultValue.map(MigrationReport.short) ?? "-", key.entry.to,
        ]
      }
    let widths = (0..<3).map { c in rows.map { $0[c].count }.max() ?? 0 }
    func printKey(_ key: Key, row: [String]?) {
      if let row {
        for c in 0..<3 { out += row[c].padded(to: widths[c] + 2) }
        out += row[3] + "\n"
      }
      for place in key.places {
        out +=
          "    \(place.location)  \(place.method)"
          + (place.detail.isEmpty ? "" : "  \(place.detail)") + "\n"
      }
      for d in key.defaults {
        out += "    default \(d.value): \(d.source), \(d.location)\n"
      }
      for note in key.notes { out += "    note: \(note)\n" }
    }
    for c in 0..<3 { out += rows[0][c].padded(to: widths[c] + 2) }
    out += rows[0][3] + "\n"
    for (n, key) in keys.enumerated() { printKey(key, row: rows[n + 1]) }
    if !removed.isEmpty {
      out += "only removed by the code (proposed for drop):\n"
      for key in removed {
        out += "  \(key.entry.from)\n"
        printKey(key, row: nil)
      }
    }
    if !unused.isEmpty {
      out += "declared, never used by the code (not in the plan):\n"
      for key in unused {
        out += "  \(key.entry.from)\n"
        printKey(key, row: nil)
      }
    }
    if !patterns.isEmpty {
      out += "keys built at run time (not in the plan):\n"
      for p in patterns {
        out +=
          "  \(p.pattern)" + (p.domain == domain ? "" : " (\(p.domain))") + "  from "
          + p.pieces.map { "`\($0)`" }.joined(separator: ", ") + "\n"
        for place in p.places { out += "    \(place.location)  \(place.method)\n" }
      }
    }
    for (other, keys) in otherDomains {
      if case .suite(let name) = other, name.contains("*") {
        out +=
          "\(other), its name made at run time (not in the plan; --suite NAME takes it as NAME):\n"
      } else {
        out += "\(other) (not in the plan; --suite scans it):\n"
      }
      for key in keys {
        out +=
          "  \(key.entry.from)  \(key.entry.type.rawValue)"
          + (key.entry.defaultValue.map { "  default \(MigrationReport.short($0))" } ?? "") + "\n"
        for place in key.places { out += "    \(place.location)  \(place.method)\n" }
      }
    }
    if !unknownReceivers.isEmpty {
      out += "receiver unknown (may be user defaults, not known to be: not in the plan):\n"
      for u in unknownReceivers {
        out += "  \(u.key)  \(u.place.location)  \(u.place.method) on `\(u.receiver)`\n"
      }
    }
    for warning in warnings { out += "warning: \(warning)\n" }
    out +=
      "\(keys.count) key\(keys.count == 1 ? "" : "s") of \(domain) in \(filesRead) file\(filesRead == 1 ? "" : "s")"
      + (patterns.isEmpty
        ? "" : ", \(patterns.count) run-time pattern\(patterns.count == 1 ? "" : "s")") + "\n"
    return out
  }
}

extension ScanModel {
  func result(target: String?, sourceFiles: Int, warnings: [ScanWarning], paths: [String])
    -> SourceScanResult
  {
    let domain: ScanDomain = target.map(ScanDomain.suite) ?? .standard
    var order: [ScanDomain: [String]] = [:]
    var byKey: [ScanDomain: [String: [SourceUse]]] = [:]
    var patterns: [String: SourceScanResult.Pattern] = [:]
    var patternOrder: [String] = []
    var patternUses: [String: [SourceUse]] = [:]
    var takenAsTarget = false
    var classOfKey: [String: MigrationPlan.ValueType] = [:]
    for (key, type) in keyClasses {
      if case .key(let k) = resolveKey(key), classOfKey[k] == nil { classOfKey[k] = type }
    }
    for (use, found) in uses {
      var d = found
      // A suite whose name is made at run time (`"group." + bundleID`, `*` where unknown):
      // the one `--suite NAME` names, when the pattern can be that name.
      if let target, case .suite(let p) = found, p.contains("*"), Self.matches(p, target) {
        d = .suite(target)
        takenAsTarget = true
      }
      for resolved in resolveKeys(use.key) {
        switch resolved {
        case .key(var k):
          // The shared user defaults controller's key path (`values.KEY`), observed or bound.
          if use.access == .observe || use.access == .bind, k.hasPrefix("values."), k.count > 7 {
            k = String(k.dropFirst(7).split(separator: ".", maxSplits: 1).first ?? "")
          }
          guard !k.isEmpty else { continue }
          if byKey[d]?[k] == nil { order[d, default: []].append(k) }
          var use = use
          // A getter that says no type, of a key a dictionary maps to its class.
          if use.type == nil, use.access == .get, let type = classOfKey[k] {
            use.type = type
            use.typeReason = "the class a dictionary of the keys maps it to"
          }
          byKey[d, default: [:]][k, default: []].append(use)
        case .pattern(let p, let pieces):
          let id = "\(d)\u{0}\(p)\u{0}" + pieces.joined(separator: "\u{0}")
          if patterns[id] == nil {
            patternOrder.append(id)
            patterns[id] = SourceScanResult.Pattern(
              pattern: p, domain: d, places: [], pieces: pieces)
          }
          patterns[id]?.places.append(
            SourceScanResult.Place(
              location: location(use, paths: paths), method: use.method, detail: ""))
          patternUses[id, default: []].append(use)
        }
      }
    }
    // A pattern the registered defaults or a Settings pane name concretely (`Slot%dColor`,
    // registered `Slot0Color`, `Slot1Color`): its uses are those keys' too.
    for id in patternOrder {
      guard let pattern = patterns[id], pattern.pattern != "*" else { continue }
      let d = pattern.domain
      let named = (order[d] ?? []).filter { k in
        Self.matches(pattern.pattern, k)
          && (byKey[d]?[k] ?? []).contains {
            $0.defaultSource == .registration || $0.defaultSource == .settingsBundle
          }
      }
      guard !named.isEmpty else { continue }
      for k in named {
        for var use in patternUses[id] ?? [] {
          use.method += " (as \(pattern.pattern))"
          byKey[d]?[k]?.append(use)
        }
      }
      patterns[id] = nil
    }
    var keys: [SourceScanResult.Key] = []
    var removed: [SourceScanResult.Key] = []
    var unused: [SourceScanResult.Key] = []
    var usedNames: Set<String> = []
    for k in order[domain] ?? [] {
      let key = decide(k, byKey[domain]?[k] ?? [], paths: paths, usedNames: &usedNames)
      let all = byKey[domain]?[k] ?? []
      if !unusedDeclarations.isEmpty,
        all.allSatisfy({ use in use.declaration.map { unusedDeclarations.contains($0) } == true })
      {
        unused.append(key)
      } else if all.allSatisfy({ $0.access == .remove }) {
        var key = key
        key.notes = []
        removed.append(key)
      } else {
        keys.append(key)
      }
    }
    var others: [(ScanDomain, [SourceScanResult.Key])] = []
    for (d, list) in order where d != domain {
      var names: Set<String> = []
      others.append(
        (d, list.map { decide($0, byKey[d]?[$0] ?? [], paths: paths, usedNames: &names) }))
    }
    others.sort { "\($0.0)" < "\($1.0)" }
    var unknownReceivers: [SourceScanResult.UnknownReceiver] = []
    for use in unknown {
      let receiver: String
      switch use.receiver {
      case .unknown(let text), .name(let text): receiver = text
      case .returned(let type, let method): receiver = type + "." + method
      default: receiver = "?"
      }
      for resolved in resolveKeys(use.key) {
        let key: String
        switch resolved {
        case .key(let k): key = k
        case .pattern(let p, _): key = p
        }
        let entry = SourceScanResult.UnknownReceiver(
          key: key, receiver: receiver,
          place: SourceScanResult.Place(
            location: location(use, paths: paths), method: use.method, detail: ""))
        if !unknownReceivers.contains(entry) { unknownReceivers.append(entry) }
      }
    }
    var result = SourceScanResult(
      domain: domain, dialect: dialect, keys: keys, removed: removed,
      patterns: patternOrder.compactMap { patterns[$0] }, otherDomains: others, warnings: warnings,
      filesRead: sourceFiles)
    result.unknownReceivers = unknownReceivers
    result.unused = unused
    if takenAsTarget, let target {
      result.warnings.append(
        ScanWarning(
          path: "--suite \(target)",
          message: "the keys of a suite whose name the code makes at run time are taken as its"))
    }
    return result
  }

  /// One key's entry from its uses: the type its getters and setters say, the default the
  /// running app saw, the name of the property it is kept in.
  func decide(_ key: String, _ uses: [SourceUse], paths: [String], usedNames: inout Set<String>)
    -> SourceScanResult.Key
  {
    var notes: [String] = []
    var places: [SourceScanResult.Place] = []
    var enumValues: [String] = []
    var uses = uses.enumerated().sorted {
      ($0.element.file, $0.element.line, $0.offset) < ($1.element.file, $1.element.line, $1.offset)
    }
    .map(\.element)
    // A Swift type a library (or @AppStorage, a property wrapper) stores: its plan type, an
    // enum's cases; a default written `.case` is that type's case.
    // (A value the code writes as JSON and decodes from JSON: its Swift type is what the JSON
    // holds, not how the key is stored.)
    let encoded = uses.contains { $0.type == .json && !$0.weakType }
    for n in uses.indices {
      guard let stored = uses[n].storedType, !encoded || uses[n].type == .json else { continue }
      var bare = stored.replacing("?", with: "").replacing("!", with: "")
      if declarations[bare] == nil, let dot = bare.lastIndex(of: ".") {
        // `Models.Visibility`: a type of another module, declared `Visibility` in the tree.
        bare = String(bare[bare.index(after: dot)...])
      }
      if case .name(let v)? = uses[n].value, v.hasPrefix(".") { uses[n].value = .name(bare + v) }
      // (`@AppStorage` data that the code decodes as JSON stays JSON.)
      guard
        uses[n].type == nil || uses[n].weakType || uses[n].madeFromRaw
          || uses[n].library == .appStorage && uses[n].type != .json
          || uses[n].type == .array,
        let (type, values) = LibraryModels.storedType(
          stored, library: uses[n].library, declarations: declarations),
        // (Made by its raw value: only a raw value's type says more than the getter; an
        // array's elements, only that they are strings.)
        !uses[n].madeFromRaw || uses[n].type == nil || [.enum, .integer, .double].contains(type),
        uses[n].type != .array || uses[n].weakType || uses[n].library != nil
          || type == .stringArray
      else { continue }
      uses[n].type = type
      uses[n].weakType = false
      uses[n].typeReason = "stored as \(stored)"
      if type == .enum { enumValues = values }
    }
    if let library = uses.compactMap(\.library).first {
      notes.append("the key of \(library.rawValue): the library reads and writes it")
    }
    if LibraryModels.isSparkleKey(key) {
      notes.append(
        "one of Sparkle's own keys: the updater reads and writes it (plan infer keeps it)")
    }
    // A registered value or a fallback named by a constant (`@PROXY_SYSTEM`, `kWidth`, a
    // generic wrapper's `var text = defaultText`): the constant's type, a hint as any
    // registered value's.
    for n in uses.indices
    where uses[n].type == nil && (uses[n].access == .register || uses[n].defaultSource != nil) {
      guard let value = uses[n].value, case .constant(let c) = resolveValue(value),
        let type = ValueExpr.value(c).type
      else { continue }
      uses[n].type = type
      uses[n].weakType = true
    }
    for use in uses {
      var detail: [String] = []
      if let type = use.type {
        detail.append(
          type.rawValue + (use.typeReason.map { " (\($0))" } ?? "")
            + (use.weakType ? ", a hint" : ""))
      }
      if use.access == .presence, use.defaultSource == nil { detail.append("tested for nil") }
      if let condition = use.condition { detail.append(condition) }
      let place = SourceScanResult.Place(
        location: location(use, paths: paths), method: use.method,
        detail: detail.joined(separator: "; "))
      // (One call of a wrapper two files define alike, an app's and its helper's, is one place.)
      if places.last != place { places.append(place) }
    }
    // The type: the code's getters and setters; else the hints (registered values, bindings,
    // Settings panes); two types are `any`, flagged.
    func types(_ list: [SourceUse]) -> [MigrationPlan.ValueType: [SourceUse]] {
      var found: [MigrationPlan.ValueType: [SourceUse]] = [:]
      for use in list { if let type = use.type { found[type, default: []].append(use) } }
      if found[.json] != nil, let data = found.removeValue(forKey: .data) { found[.json]? += data }
      // A String enum stored by its raw value and read as a string: the enum.
      if found[.enum] != nil, let text = found.removeValue(forKey: .string) {
        found[.enum]? += text
      }
      if found[.stringArray] != nil, let arrays = found[.array] {
        // An array written and read as strings: the getter decides.
        if arrays.allSatisfy({ $0.access == .set }) {
          found[.stringArray]? += arrays
          found[.array] = nil
        } else {
          let strings = found.removeValue(forKey: .stringArray) ?? []
          found[.array]? += strings
        }
      }
      return found
    }
    var strong = types(uses.filter { !$0.weakType })
    let weak = types(uses.filter(\.weakType))
    // A library that stores the key decides its type (`bindShortcut(withDefaultsKey:)` over
    // a migration's `data(forKey:)` of an older format).
    // (A shortcut library that stores the value over a key library that only names it:
    // GenericID's `Key<String>` of a MASShortcutView's key.)
    let shortcuts = types(
      uses.filter { [.masShortcut, .keyboardShortcuts].contains($0.library) && !$0.weakType })
    let libraryTypes =
      shortcuts.count == 1 ? shortcuts : types(uses.filter { $0.library != nil && !$0.weakType })
    if strong.count > 1, libraryTypes.count == 1 {
      notes.append(
        "used as \(strong.keys.map(\.rawValue).sorted().joined(separator: " and ")): typed as the library that stores it says"
      )
      strong = libraryTypes
    }
    // Written as one type and read as another the getter converts (`setInteger:` then
    // `boolForKey:`): the getter's, as the app reads it.
    let getterTypes = types(uses.filter { !$0.weakType && $0.access == .get })
    if strong.count > 1, getterTypes.count == 1, let read = getterTypes.keys.first,
      strong.keys.allSatisfy({ $0 == read || Self.reads(read, $0) })
    {
      notes.append(
        "written as \(strong.keys.filter { $0 != read }.map(\.rawValue).sorted().joined(separator: " and ")), read as \(read.rawValue): typed as the getter reads it"
      )
      strong = getterTypes
    }
    // Read as two numbers (`floatForKey:` and `integerForKey:`) but written and registered as
    // one each getter converts: as written, the way it is stored.
    let writtenTypes = types(uses.filter { $0.access == .set || $0.access == .register })
    if strong.count > 1, writtenTypes.count == 1, let written = writtenTypes.keys.first,
      strong.keys.allSatisfy({ $0 == written || Self.reads($0, written) })
    {
      notes.append(
        "read as \(strong.keys.filter { $0 != written }.map(\.rawValue).sorted().joined(separator: " and ")), written as \(written.rawValue): typed as it is stored"
      )
      strong = writtenTypes
    }
    // Read as a dictionary or an array and written as data (`value(forKey:) as? [String: Any]`
    // of an older format, `set(archived, forKey:)` of the current one): as it is stored now.
    if strong.count == 2, writtenTypes.keys.elementsEqual([.data]),
      strong.keys.allSatisfy({ [.data, .dictionary, .array, .stringArray].contains($0) })
    {
      notes.append(
        "read as \(strong.keys.filter { $0 != .data }.map(\.rawValue).joined()), written as data: typed as it is stored now"
      )
      strong = writtenTypes
    }
    // Read as a flag and as a number (`boolForKey:`, `integerForKey:`, each converting what is
    // there) with a Settings pane, a registration or a binding saying which: that one.
    if strong.count == 2, Set(strong.keys) == [.bool, .integer], weak.count == 1,
      let hinted = weak.keys.first, strong[hinted] != nil
    {
      notes.append("read as bool and integer, \(hinted.rawValue) where it is given: typed so")
      strong = [hinted: strong[hinted] ?? []]
    }
    let chosen = strong.isEmpty ? weak : strong
    var type: MigrationPlan.ValueType
    if chosen.count == 1, let only = chosen.keys.first {
      type = only
      // `arrayForKey:` says nothing of the elements: an array registered or written as
      // strings (and never as a literal of anything else) is stored as strings.
      if only == .array, uses.contains(where: { $0.type == .stringArray }),
        !uses.contains(where: {
          $0.type == .array && (Self.holdsNonStrings($0.value) || $0.otherElements)
        })
      {
        type = .stringArray
        notes.append("read as an array, registered or written as strings: typed string-array")
      }
    } else if chosen.isEmpty {
      type = .any
      notes.append("no getter or setter says its type (objectForKey: alone): typed any")
    } else {
      type = .any
      let list = chosen.sorted { $0.key.rawValue < $1.key.rawValue }.map { t, us in
        "\(t.rawValue) ("
          + us.prefix(3).map { location($0, paths: paths) + " " + $0.method }.joined(
            separator: ", ") + ")"
      }
      notes.append(
        "used as two types, " + list.joined(separator: " and ")
          + ": typed any, copied as it is; `plan check` over real files shows which one they hold")
    }

    // A key the system writes (`AppleLanguages`, a window's saved frame): its type, where the
    // code says none or only that it is an array.
    if let system = LibraryModels.systemKeyType(key),
      type == .any || type == .array && system == .stringArray
    {
      type = system
      notes.append("a key the system writes: typed \(system.rawValue)")
    }
    // A string whose default is a case of a String enum of the tree (`Theme.pink`): that enum,
    // its cases the values.
    if type == .string || type == .any && strong.isEmpty && weak.isEmpty {
      for use in uses {
        guard case .name(let n)? = use.value, let dot = n.lastIndex(of: "."), dot != n.startIndex,
          let declaration = declarations[String(n[..<dot])], declaration.rawType == "String"
        else { continue }
        type = .enum
        enumValues = declaration.cases.map(\.raw)
        break
      }
    }
    // The default: the tier the running app sees first, one constant value in it.
    var found: [SourceScanResult.FoundDefault] = []
    var tiers: [DefaultSource: [(ResolvedValue, SourceUse)]] = [:]
    for use in uses {
      guard let source = use.defaultSource, let value = use.value else { continue }
      let resolved = resolveValue(value)
      // `return nil` when absent: no default (the caller's own fallback is one).
      if case .computed(let text) = resolved, ["nil", "NULL", "Nil"].contains(text) { continue }
      // `if (n == 0) n = 0`: the getter's own 0, no default.
      if use.zeroTest, case .constant(let v) = resolved,
        v == .integer(0) || v == .real(0) || v == .bool(false)
      {
        continue
      }
      tiers[source, default: []].append((resolved, use))
      let text: String
      switch resolved {
      case .constant(let v): text = MigrationReport.short(v)
      case .computed(let c): text = "`\(c)` (computed at run time)"
      }
      found.append(
        SourceScanResult.FoundDefault(
          value: text, source: source.words + (use.condition.map { ", " + $0 } ?? ""),
          location: location(use, paths: paths)))
    }
    var defaultValue: PlistValue?
    if let (source, list) = tiers.min(by: { $0.key < $1.key }) {
      let constants = list.compactMap { r, _ -> PlistValue? in
        if case .constant(let v) = r { return v }
        return nil
      }
      // (A Swift declaration inside `#if MAINAPP … #endif` exists only in that build, with its
      // default: a condition only where another build gives another, two defaults below.)
      let conditional = list.contains {
        $0.1.condition != nil && $0.1.condition != SwiftReader.compilerCondition
      }
      // (`Downloader.aria2` of a type from outside the tree, beside a fallback "aria2": the
      // case of an enum stored by its raw value, the same default.)
      let computed = list.contains {
        guard case .computed(let text) = $0.0 else { return false }
        return !externalCase(text, agreesWith: constants)
      }
      var distinct: [PlistValue] = []
      for v in constants where !distinct.contains(where: { convert($0, type) == convert(v, type) })
      {
        distinct.append(v)
      }
      if conditional {
        notes.append("the default (\(source.words)) depends on a condition: reported, not written")
      } else if computed {
        notes.append(
          "the default (\(source.words)) is not a constant of the code (computed at run time, or chosen by a build flag): reported, not written"
        )
      } else if distinct.count > 1 {
        notes.append(
          "the code gives two defaults (\(distinct.map(MigrationReport.short).joined(separator: ", "))), both \(source.words): reported, not written"
        )
      } else if let v = distinct.first {
        if let converted = convert(v, type) {
          defaultValue = converted
          if tiers.count > 1 {
            notes.append(
              "the default \(source.words) hides the others (the running app saw it first)")
          }
        } else {
          notes.append(
            "the default \(MigrationReport.short(v)) is not a value the \(type.rawValue) getter reads: not written"
          )
        }
      }
    }
    // The typed key's name: the property the code keeps the value in.
    var counts: [String: Int] = [:]
    for use in uses {
      guard let name = use.name, !Self.genericNames.contains(name) else { continue }
      counts[name, default: 0] += 1
    }
    var to = key
    if let best = counts.max(by: {
      $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key)
    })?.key,
      let dotted = TypedKeyName.dotted(best, bool: type == .bool), !usedNames.contains(dotted),
      dotted != MigrationPlan.schemaVersionKey
    {
      to = dotted
    }
    if usedNames.contains(to) { to = key }
    usedNames.insert(to)
    return SourceScanResult.Key(
      entry: MigrationPlan.Entry(
        from: key, to: to, type: type, defaultValue: defaultValue,
        values: type == .enum ? enumValues : []),
      places: places, defaults: found, notes: notes)
  }
}
