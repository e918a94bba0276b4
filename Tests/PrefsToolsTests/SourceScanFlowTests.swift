import Foundation
import PreferencesMigration
import PrefsTools
import PropertyList
import TestSupport
import Testing

/// `prefs plan scan` following a key from where the code writes it to the call that uses it
/// (issue 49): Fixtures/SourceScan/Flow, one folder a kind, each expected entry as the
/// fixture's comments say the code means it.
@Suite struct SourceScanFlowTests {
  static let flow = External.packageRoot.appendingPathComponent(
    "Tests/PrefsToolsTests/Fixtures/SourceScan/Flow")

  static func scan(_ folder: String, suite: String? = nil) -> SourceScanResult {
    SourceScan.scan(
      [flow.appendingPathComponent(folder).path],
      options: SourceScan.Options(suite: suite, jobs: 2))
  }

  typealias Expected = (String, MigrationPlan.ValueType, PlistValue?)

  /// The scan's keys are exactly `expected` (no other key), each with its type and default.
  static func expectExactly(_ result: SourceScanResult, _ expected: [Expected]) {
    let found = Dictionary(
      result.keys.map { ($0.entry.from, $0.entry) }, uniquingKeysWith: { a, _ in a })
    for (key, type, value) in expected {
      guard let entry = found[key] else {
        Issue.record("\(key) was not found; found \(found.keys.sorted())")
        continue
      }
      #expect(entry.type == type, "\(key): \(entry.type)")
      #expect(
        entry.defaultValue == value,
        "\(key): \(entry.defaultValue.map(MigrationReport.short) ?? "none")")
    }
    let extra = Set(found.keys).subtracting(expected.map(\.0))
    #expect(extra.isEmpty, "not keys: \(extra.sorted())")
  }

  @Test func objectiveCKeysThroughParametersCollectionsAndLocals() {
    let result = Self.scan("ObjC")
    Self.expectExactly(
      result,
      [
        // Parameters.m: a wrapper, its fallback parameter, two levels, a member, a category.
        ("wrapped.flag", .bool, nil), ("wrapped.count", .integer, .integer(7)),
        ("feature.beta", .bool, nil), ("autoplay", .bool, .bool(true)),
        ("compactMode", .bool, nil), ("boundFlag", .any, nil),
        // Collections.m: an array a method returns, one a C function returns, a local array
        // indexed, one enumerated by a block.
        ("panel.left", .bool, nil), ("panel.right", .bool, nil),
        ("shortcut.move", .data, nil), ("shortcut.resize", .data, nil),
        ("column.0.width", .double, nil), ("column.1.width", .double, nil),
        ("recent.files", .stringArray, nil), ("recent.folders", .stringArray, nil),
        // Locals.m: fallbacks held in a local; an unrelated ternary before.
        ("nick", .string, .string("Player")), ("theme", .string, .string("Light")),
        ("layout", .string, .string("grid")), ("sort", .string, .string("name")),
        ("later.count", .integer, nil),
        ("grid.columns", .integer, .integer(4)), ("grid.scale", .double, .real(1.5)),
        // Receivers.m: a parameter of type NSUserDefaults; the registration domain.
        ("param.synced", .bool, nil), ("launch.command", .stringArray, nil),
      ])
    // The keys of a loop that only removes them: proposed for drop.
    #expect(Set(result.removed.map(\.entry.from)) == ["legacy.one", "legacy.two"])
    #expect(result.otherDomains.isEmpty, "\(result.otherDomains.map(\.domain))")
  }

  @Test func aReceiverThatMayBeUserDefaultsIsReportedNeverTakenNorDropped() {
    let result = Self.scan("ObjC")
    #expect(result.unknownReceivers.map(\.key) == ["maybe.flag"], "\(result.unknownReceivers)")
    let evidence = result.evidenceText()
    #expect(evidence.contains("receiver unknown"), "\(evidence)")
    #expect(evidence.contains("maybe.flag"))
    // iCloud's store and a dictionary are known not to be user defaults: not even reported.
    #expect(!evidence.contains("cloud.flag"))
    #expect(!evidence.contains("dict.key"))
  }

  @Test func swiftKeysThroughParametersCollectionsAndLocals() {
    Self.expectExactly(
      Self.scan("Swift"),
      [
        // Parameters.swift: a property wrapper, a setting object, a helper, two levels, a
        // UserDefaults parameter, #function in an extension.
        ("wrapper.volume", .double, .real(0.5)), ("wrapper.showTips", .bool, .bool(true)),
        ("setting.maxItems", .integer, .integer(20)), ("flag.autoHide", .bool, nil),
        ("done.intro", .bool, nil), ("done.tour", .bool, nil), ("done.firstSync", .bool, nil),
        ("done.screen.settings", .bool, nil),
        ("counter.today", .integer, nil), ("showsRuler", .bool, nil), ("panel.shown", .bool, nil),
        // Collections.swift: an enum's cases (`?? ""`: the fallback when absent), literal
        // arrays, a computed list.
        ("theme", .string, .string("")), ("font.name", .string, .string("")),
        ("showGrid", .string, .string("")),
        ("toggle.sound", .bool, nil), ("toggle.haptics", .bool, nil),
        ("flag.a", .integer, nil), ("flag.b", .integer, nil),
        ("list.one", .double, nil), ("list.two", .double, nil),
        // Locals.swift.
        ("sw.theme", .string, .string("Light")), ("sw.name", .string, .string("Anonymous")),
        ("sw.zoom", .double, .real(1.25)), ("sw.columns", .integer, .integer(3)),
        ("sw.fontSize", .integer, .integer(12)), ("sw.optionalCount", .integer, nil),
        ("sw.height", .double, .real(0.9)), ("sw.offset", .double, .real(30)),
        ("sw.gap", .double, nil),
      ])
  }

  @Test func keysTheCPreprocessorMakes() {
    let result = Self.scan("Macros")
    Self.expectExactly(
      result,
      [
        ("showsRuler", .bool, nil), ("zoomShortcut", .data, nil), ("zoomLevel", .integer, nil),
        ("scrollSpeed", .double, nil), ("snapToGrid", .bool, nil), ("app.mode", .string, nil),
        ("platform.mac", .string, nil), ("platform.ios", .string, nil),
      ])
    #expect(!result.evidenceText().contains("neverCompiled"))
  }

  @Test func registeredDefaultsReachedThroughDataFlow() {
    Self.expectExactly(
      Self.scan("Registration"),
      [
        ("reg.step", .integer, .integer(3)), ("reg.flag", .bool, .bool(true)),
        ("reg.style", .string, .string("compact")),
        // The bundle file a category method loads, and the pattern it names concretely.
        ("flow.fromFile", .integer, .integer(9)),
        ("Slot0Color", .string, .string("red")), ("Slot1Color", .string, .string("blue")),
        // Swift: a local filled in steps, a function's dictionary.
        ("swreg.count", .integer, .integer(4)), ("swreg.on", .bool, .bool(true)),
        ("swreg.fromFunc", .string, .string("abc")),
        // A static dictionary made in a block, of enum constants; a file read as data.
        ("reg.mode", .integer, .integer(4)), ("reg.modes", .integer, .integer(12)),
        ("more.fromData", .integer, .integer(11)),
        // A class property's dictionary of a generic type, registered with dot syntax.
        ("reg.list", .array, .array([])), ("reg.limit", .integer, .integer(1440)),
      ])
  }

  /// What the third set of never-seen apps showed (GitX, Clipy, HexFiend, Kiwix): numbers a
  /// macro or another header's enum names, boxed; a bound above the getter's 0; points kept as
  /// text; a method's declared return type; a dictionary filled by updateValue(_:forKey:);
  /// defaults reached through a chain of members or a protocol UserDefaults conforms to; an
  /// @AppStorage enum with observers; sets of UUIDs.
  @Test func boxedNumbersBoundsChainsAndProtocols() {
    Self.expectExactly(
      Self.scan("Boxed"),
      [
        ("bx.lineLength", .integer, .integer(50)), ("bx.searchMode", .integer, .integer(2)),
        ("bx.panelWidth", .double, .real(250)), ("bx.split", .double, .real(200)),
        ("bx.origin", .string, nil), ("bx.lastTemplate", .string, nil), ("bx.store", .any, nil),
        ("bx.maxHistory", .integer, .integer(30)), ("bx.showIcon", .bool, .bool(true)),
        ("bx.migrated.v2", .bool, nil),
        ("bx.colorChoice", .integer, .integer(0)),
        ("bx.hotspots", .stringArray, .array([])), ("bx.languages", .stringArray, .array([])),
        // What the fourth set showed: @MACRO boxed, a menu item's binding, a wrapper's answer
        // cast at its call, a property wrapper's key, a Float raw value converted,
        // Foundation's named date.
        ("bx.proxy", .integer, .integer(3)), ("bx.quality", .integer, .integer(1)),
        ("bxMenuFlag", .bool, nil), ("bx.dir", .string, nil), ("bx.shown", .bool, .bool(false)),
        ("bx.rate", .double, .real(1)), ("bx.since", .date, .date(.distantPast)),
      ])
  }

  @Test func aKeyDeclaredAndNeverUsedIsListedApart() {
    let result = Self.scan("Boxed")
    #expect(result.unused.map(\.entry.from) == ["bx.tip"])
  }

  @Test func aSuiteNamedAtRunTimeIsTheOneSuiteNames() throws {
    // Without --suite: listed apart, under the pattern the code makes.
    let plain = Self.scan("Boxed")
    let pattern = try #require(plain.otherDomains.first { "\($0.domain)".contains("*") })
    #expect(pattern.keys.map(\.entry.from) == ["bx.groupFlag"])
    // With it: the suite's own keys.
    let suite = Self.scan("Boxed", suite: "group.com.example.app")
    #expect(suite.keys.map(\.entry.from) == ["bx.groupFlag"])
    #expect(suite.keys.first?.entry.type == .bool)
    // A suite the pattern cannot be is not taken.
    #expect(Self.scan("Boxed", suite: "com.other").keys.isEmpty)
  }

  /// What the fifth set of never-seen apps showed: a published property read through an
  /// `inout` wrapper and written back by its sink (its type and initial value), an enum's raw
  /// value, JSON data an encoder property makes.
  @Test func publishedPropertiesReadThroughInoutAndWrittenBySinks() {
    Self.expectExactly(
      Self.scan("Published"),
      [
        ("pb.badge", .bool, .bool(true)), ("pb.volume", .double, .real(0.25)),
        ("pb.order", .integer, .integer(1)), ("pb.frame", .json, nil),
        ("pb.label", .string, .string("Inbox")), ("pb.shadow", .bool, nil),
        ("pb.sort", .integer, nil),
      ])
  }

  /// PAPreferences: each `@dynamic` property of a subclass is a key named as the property,
  /// typed by its declaration; a Core Data class's `@dynamic` properties are no keys.
  @Test func paPreferencesDynamicPropertiesAreKeys() {
    Self.expectExactly(
      Self.scan("Dynamic"),
      [
        ("showRuler", .bool, nil), ("tabWidth", .integer, .integer(4)), ("zoom", .double, nil),
        ("fontName", .string, .string("Courier")), ("lastWindow", .dictionary, nil),
        ("exportFolder", .url, nil), ("syncOnLaunch", .bool, nil),
      ])
  }

  /// Defaults each class gives (`[(Class<P>)cls panelDefaults]` merged into the registered
  /// dictionary), and a binding to `values.a.b` where the code uses `a.b` as a key.
  @Test func defaultsGatheredFromEachClassAndDottedBindings() {
    let result = Self.scan("Gathered")
    Self.expectExactly(
      result,
      [
        ("clock.size", .double, .real(14.5)), ("clock.seconds", .bool, .bool(true)),
        ("note.lines", .integer, .integer(3)), ("panel.visible", .bool, .bool(false)),
        // Grid.m: a getter's 0 raised to a bound by MAX.
        ("grid.rows", .integer, .integer(6)), ("grid.scale", .double, nil),
      ])
    #expect(result.evidenceText().contains("Panels.xib"))
  }

  /// A key a method makes of the instance's own property (`"\(profileID)-…"`) is a pattern,
  /// never the key another type's constant of that name would make.
  @Test func anInstancesPropertyInAKeyIsKnownOnlyAtRunTime() {
    let result = Self.scan("Members")
    Self.expectExactly(result, [("mb.theme", .string, nil)])
    #expect(Set(result.patterns.map(\.pattern)) == ["*-nickname", "*-visible"])
  }

  /// A fallback a function computes by a `switch` on the key it is given: each key's case.
  @Test func aFallbackAFunctionComputesPerKey() {
    Self.expectExactly(
      Self.scan("Computed"),
      [
        ("cp.sounds", .bool, .bool(true)), ("cp.badges", .bool, .bool(false)),
        ("cp.tips", .bool, .bool(true)),
      ])
  }

  /// A String enum property written by its raw value (the enum), a guard's `else` returning
  /// the fallback of a wrapper's answer, an empty string made by `String()`.
  @Test func guardFallbacksAndRawValuesOfProperties() throws {
    let result = Self.scan("Guarded")
    Self.expectExactly(
      result,
      [
        ("gd.mode", .enum, nil), ("gd.helper", .bool, .bool(true)),
        ("gd.home", .string, .string("https://example.com/start")),
        ("gd.note", .string, .string("")), ("gd.notice", .string, nil),
      ])
    let mode = try #require(result.keys.first { $0.entry.from == "gd.mode" })
    #expect(mode.entry.values == ["light", "dark"])
  }

  /// Wrappers of two types calling each other: followed a few levels, the scan ends; the
  /// outer wrapper's cast and `?? false` type and default the key.
  @Test func wrappersCallingEachOtherEnd() {
    Self.expectExactly(Self.scan("Cycle"), [("cy.flag", .bool, .bool(false))])
  }

  @Test func theLibrariesAppsUseForDefaults() throws {
    let result = Self.scan("Libraries")
    Self.expectExactly(
      result,
      [
        // sindresorhus/Defaults: each stored form.
        ("launchAtLogin", .bool, .bool(false)), ("refreshRate", .double, .real(1.5)),
        ("lastOpened", .date, nil), ("layout", .enum, .string("grid")),
        ("density", .integer, .integer(2)),
        // A Codable enum is registered as JSON text ("\"metric\""): its default is what it holds.
        ("unit", .json, .string("metric")), ("bookmarks", .json, .array([])),
        ("tags", .stringArray, .array(["inbox"])),
        // SwiftyUserDefaults.
        ("username", .string, nil), ("launchCount", .integer, .integer(0)),
        // KeyboardShortcuts, MASShortcut, Sparkle's key.
        ("KeyboardShortcuts_togglePanel", .json, nil),
        (
          "KeyboardShortcuts_showSearch", .json,
          .dictionary(["carbonKeyCode": .integer(0x28), "carbonModifiers": .integer(0x900)])
        ),
        (
          "KeyboardShortcuts_capture", .json,
          .dictionary(["carbonKeyCode": .integer(0x78), "carbonModifiers": .integer(0x1200)])
        ),
        ("KeyboardShortcuts_custom", .json, nil), ("KeyboardShortcuts_chosen", .json, nil),
        ("shortcut.toggle", .data, nil), ("shortcut.search", .data, nil),
        ("SUEnableAutomaticChecks", .bool, nil),
        // @AppStorage: the standard store, an enum.
        ("standardFlag", .bool, .bool(true)), ("appLayout", .enum, .string("list")),
        ("recentQueries", .json, .array([])),
      ])
    // The enum's cases are the entry's values.
    let layout = try #require(result.keys.first { $0.entry.from == "layout" })
    #expect(layout.entry.values == ["grid", "list"])
    // The suite's keys, listed apart.
    let group = result.otherDomains.first { $0.domain == .suite("group.flow.shared") }
    #expect(Set(group?.keys.map(\.entry.from) ?? []) == ["sharedCount", "groupFlag"])
    // Sparkle's key is marked as the library's.
    let sparkle = try #require(result.keys.first { $0.entry.from == "SUEnableAutomaticChecks" })
    #expect(sparkle.notes.contains { $0.contains("Sparkle") }, "\(sparkle.notes)")
    // @SceneStorage is the scene's state, not user defaults.
    #expect(!result.evidenceText().contains("selectedTab"))
    // A key declared and never used is not in the plan: listed apart.
    #expect(result.unused.map(\.entry.from) == ["neverUsed"])
    #expect(result.evidenceText().contains("declared, never used by the code"))
  }

  /// What a sixth set of never-seen apps showed: a suite a class method returns (made once in
  /// a block), used from Objective-C, from Swift and by a property wrapper's store; keys
  /// written when absent by a wrapper after an object getter held in a local; a default folded
  /// from `5*1024*1024` or named by a Swift `@objc enum`'s case; a date the code makes.
  @Test func aSuiteAClassMethodReturnsAndTheValuesWrittenWhenAbsent() {
    Self.expectExactly(
      Self.scan("Returned", suite: "group.example.shared"),
      [
        ("Sound", .bool, .bool(true)), ("MaxUploadSize", .integer, .integer(5_242_880)),
        // PrivacyOptionNameOnly: the second case of an Int enum numbered from 0.
        ("PrivacyLevel", .integer, .integer(1)), ("AlertSound", .string, .string("chime")),
        ("LastStart", .date, nil), ("PhoneNumber", .string, nil),
        ("HasCompletedOnboarding", .bool, nil),
        // Tested for presence and removed: what it held is not said.
        ("LegacyOutbox", .any, nil),
      ])
    // The standard domain's version number: an upgrade is no default; the cache's key is none.
    let standard = Self.scan("Returned")
    Self.expectExactly(standard, [("ServicesVersion", .integer, nil)])
    #expect(!standard.evidenceText().contains("thumbnail"))
    #expect(standard.unknownReceivers.map(\.key) == ["avatar"])
  }

  /// `@NSManaged` properties of an extension of `UserDefaults` (and `@dynamic` ones of a
  /// category of NSUserDefaults) are keys of their Objective-C names, typed by their
  /// declarations, registered through `#keyPath(UserDefaults.name)`; a Core Data object's
  /// are not keys.
  @Test func managedPropertiesOfUserDefaultsAreKeys() {
    let result = Self.scan("Managed")
    Self.expectExactly(
      result,
      [
        ("skinOpacity", .double, .real(0.7)), ("lastCollectionID", .string, .string("all")),
        ("shortcutIdentifiers", .stringArray, nil), ("servers", .array, nil),
        ("purchaseLink", .url, nil), ("sortOrder", .string, .string("name")),
        ("showsToolbar", .bool, nil), ("recentCount", .integer, nil),
        ("Legacy.TimeInterval", .integer, nil),
      ])
    #expect(result.unused.map(\.entry.from) == ["neverRead"])
  }

  /// What a seventh set of never-seen apps showed: a wrapper's declared default kept when the
  /// key is absent (a variable replaced only when the key is there, a `return` after a branch
  /// that returns the key's value), a Swift helper whose `guard … == nil else { return }` is
  /// followed by the setter, InAppSettingsKit's `InAppSettings.bundle` (`*.inApp.plist`, its
  /// link rows no keys), and sindresorhus/Defaults' `NSSecureCodingKey` (archived data).
  @Test func defaultsKeptWhenAbsentAndInAppSettings() {
    Self.expectExactly(
      Self.scan("Kept"),
      [
        ("Interval", .integer, .integer(5)), ("Temperature", .bool, .bool(true)),
        ("Sensor", .string, .string("automatic")),
        // Traps: no default.
        ("Count", .any, nil), ("Rounded", .bool, nil), ("Title", .string, nil),
        ("ShowThumbnails", .bool, .bool(true)), ("TextSize", .integer, .integer(2)),
        ("Migrated", .string, nil),
        ("send_dnt", .bool, .bool(true)), ("homepage", .string, .string("https://example.com")),
        ("colorSpace", .data, nil),
        // A private constant of one name in each of two types: each type's own.
        ("preference", .data, nil), ("layout", .data, nil),
      ])
  }

  /// What a ninth set of never-seen apps showed: registered numbers boxed with a literal type
  /// (`NSNumber(value: 1086 as UInt16)`), a fresh instance's property as the fallback
  /// (`?? Options().step`: the property's initial value), a key constant a closure makes
  /// (`static let k: String = { … return "a" … }()`: each key it returns), and what the first
  /// launch writes (`if d.object(forKey: marker) == nil { saveAll() }`, two calls down).
  @Test func seededValuesAndClosureConstants() {
    Self.expectExactly(
      Self.scan("Seeded"),
      [
        ("Socks.Port", .integer, .integer(1086)), ("Socks.Timeout", .integer, .integer(60)),
        ("Pac.Local", .bool, .bool(true)), ("Http.Port", .integer, .integer(1087)),
        ("step", .double, .real(33.6)), ("speed", .double, .real(2.7)),
        ("label", .string, .string("wheel")),
        ("libraryPath", .string, nil), ("libraryPath-preview", .string, nil),
        ("zoomLevel", .integer, nil), ("exportedWraps", .bool, nil),
        ("LibraryLevel", .integer, nil),
        // A generic wrapper's keys typed by their properties' initial values.
        ("tool.sample", .string, .string("Hello")), ("tool.alg", .enum, .string("MD5")),
        // A library's key on user defaults chosen by a test: the standard domain.
        ("showInMenubar", .bool, .bool(true)),
        // Registered through a category's typed setters of a dictionary.
        ("Dcc.action", .integer, .integer(1)), ("General.confirm_quit", .bool, .bool(true)),
        ("Theme.log_font_size", .double, .real(12)),
        // What the first launch writes: a constant, a property of a fresh instance.
        ("settingsExist", .string, .string("settingsExist")), ("hideIcon", .bool, .bool(false)),
        ("volume", .integer, .integer(7)),
        ("givenVolume", .integer, nil), ("laterVolume", .integer, nil), ("migrated", .bool, nil),
        // Traps: no default.
        ("Http.Address", .any, nil), ("limit", .double, nil), ("other", .double, nil),
      ])
  }

  /// Suites reached through data flow: a stored property of user defaults given a suite in the
  /// initializer (`defaults = UserDefaults(suiteName: name) ?? .standard`: the suite named as
  /// written or, made at run time, by its pattern), a closure that gives the suite or the
  /// standard domain, a parameter of user defaults its caller gives a suite, a C function that
  /// makes one.
  @Test func suitesReachedThroughDataFlow() {
    let domains = Self.scan("Seeded").otherDomains.map { domain, keys in
      (domain, keys.map(\.entry.from).sorted())
    }
    let found = Dictionary(domains, uniquingKeysWith: { a, _ in a })
    #expect(found[.suite("*.toast")] == ["positionX"])
    #expect(found[.suite("group.example")] == ["sharedFlag"])
    // A closure giving the group's suite or the standard domain, the app's own `Defaults`.
    #expect(found[.suite("group.example.app")] == ["QuickToggle"])
    // A parameter of user defaults given a suite by its caller; a C function's suite.
    #expect(found[.suite("group.example.settings")] == ["mode", "renderCount", "wraps"])
    #expect(
      found[.suite("group.example.shared")] == [
        "GifQuality", "LossyEnabled", "PngLevel", "StripAll",
      ])
    // A suite named in the code, chosen by a test over the standard domain.
    #expect(found[.suite("group.example.widget")] == ["widgetFlag"])
    #expect(found.count == 6)
  }

  /// The suites' keys typed by what their setters write: a property of the type, declared in
  /// another file (an enum by its raw value); the registered defaults of a C function's suite.
  @Test func suiteKeysTypedByTheirTypesProperties() {
    Self.expectExactly(
      Self.scan("Seeded", suite: "group.example.settings"),
      [("renderCount", .integer, nil), ("mode", .integer, nil), ("wraps", .bool, nil)])
    Self.expectExactly(
      Self.scan("Seeded", suite: "group.example.shared"),
      [
        ("PngLevel", .integer, .integer(4)), ("StripAll", .bool, .bool(true)),
        ("LossyEnabled", .bool, nil), ("GifQuality", .integer, .integer(90)),
      ])
  }

  /// What the code makes of a value says how it is stored: `@AppStorage` data decoded by
  /// JSONDecoder (or given JSONEncoder's) is JSON; a string made into an enum by its raw value
  /// (`Mode(rawValue: raw) ?? .light`, a setter's `newValue?.rawValue`) is the enum's, with the
  /// case after `??` as the default where the getter can answer nil.
  @Test func valuesTypedByWhatTheCodeMakesOfThem() {
    Self.expectExactly(
      Self.scan("Made"),
      [
        ("made.preserved", .json, nil), ("made.excluded", .json, nil),
        ("made.lastFeed", .enum, nil), ("made.sorting", .enum, .string("date")),
        ("made.theme", .enum, nil), ("made.kind", .enum, nil),
        ("made.provider", .enum, .string("google")),
        // Traps.
        ("made.blob", .data, .data(Data())), ("made.shadowed", .data, .data(Data())),
        ("made.tab", .integer, nil), ("made.options", .integer, nil),
        ("made.title", .string, .string("Untitled")),
        // An array of an alias of String; the system's own keys (Aliases.swift).
        ("made.disabled", .stringArray, .array([])), ("AppleLanguages", .stringArray, .array([])),
        ("NSWindow Frame main", .string, nil),
        // Trap: an array of a struct.
        ("made.plugins", .array, .array([])),
      ])
  }

  /// What a thirteenth set of never-seen apps showed: user defaults behind a struct of
  /// closures injected for tests (`Current.defaults.bool(forKey: K)`, whatever the files'
  /// order; a cache's own `set(_:forKey:)` is no key), a property's initializing closure and
  /// its observers read as accessors (the closure's fallback is the default), `if let x = …
  /// as? T { return x }` then `return V`, registered constants held in locals (`boolYes`), a
  /// key read as two numbers but written as one, an array registered as strings.
  @Test func injectedDefaultsAndInitializingClosures() {
    Self.expectExactly(
      Self.scan("Injected"),
      [
        ("inj.installPath", .string, .string("/Applications")), ("inj.unxip", .bool, .bool(false)),
        ("inj.downloader", .string, .string("aria2")),
        ("inj.scheme", .enum, .string("system")), ("inj.interval", .json, .string("today")),
        ("inj.maxLength", .integer, .integer(10)), ("inj.alwaysOnTop", .bool, .bool(false)),
        ("inj.previewWidth", .string, .string("1000px")),
        ("inj.ShowOSD", .bool, .bool(true)), ("inj.CloseOnStopped", .bool, .bool(false)),
        ("inj.CacheSize", .integer, .integer(10000)),
        (
          "inj.Editors", .stringArray,
          .array([.string("com.apple.TextEdit"), .string("com.example.Edit")])
        ),
        // Traps.
        ("inj.count", .integer, nil), ("inj.Favorites", .array, nil),
        ("inj.Levels", .array, .array([.integer(1), .integer(2)])),
      ])
    Self.expectExactly(
      Self.scan("Injected", suite: "com.example.center"), [("inj.doNotDisturb", .bool, nil)])
  }

  /// What a fourteenth set of never-seen apps showed: property wrappers whose members are
  /// declared after the accessors using them, whose default user defaults are an app group's
  /// (`defaults: UserDefaults = UserDefaults.group`, a static member of an extension), whose
  /// registered value is the JSON of the wrapped value; a method of an extension of
  /// UserDefaults called on a group's defaults; a declaration inside `#if MAINAPP` with its
  /// default.
  @Test func wrappersDeclaredInAnyOrderWithTheirSuites() {
    Self.expectExactly(
      Self.scan("Wrapped"),
      [
        ("wrapped.launches", .integer, .integer(0)),
        ("wrapped.trigger", .json, .string("keyboardShortcut")),
        // Traps: a type's own JSON; a property of a value the run makes.
        ("wrapped.position", .json, nil), ("wrapped.enabled", .json, nil),
      ])
    Self.expectExactly(
      Self.scan("Wrapped", suite: "group.example.wrapped"),
      [
        ("wrapped.username", .string, .string("")), ("wrapped.lineWidth", .double, .real(2.5)),
        ("wrapped.sessionIds", .json, nil),
      ])
  }

  /// What a fifteenth set of never-seen apps showed: a prefix header's macro standing for user
  /// defaults, written like a class; a getter's fallback returned in a branch the key's absence
  /// takes (`!s || …`, `n <= 0`); a value assigned just before a presence test; both branches
  /// sending one message, with the key's value and with V; SwiftyUserDefaults' computed keys on
  /// an adapter's suite, a Codable type made a library's by an extension read first; a property
  /// wrapper's suite bound by `if let`, its default under `#available`; JSON text a local
  /// encoder makes; an instance variable an initializer keeps a key's part in (`prefix =
  /// iprefix;`, no `_`), each allocation's argument making the instance's keys; a cast of a
  /// getter and its fallback together (`(d.object(forKey: K) ?? []) as! [String]`), a fallback
  /// after a cast in parentheses; a presence test joined with others that the key's absence
  /// decides; a class adopting a protocol UserDefaults is made to conform to; a presence test
  /// through a method of the tree (`valueExists(forKey:)`); constant objects holding a key
  /// (`PreferenceKey("k", default: true)`) read by their members, not a member of a value
  /// only the run knows (`item.title`).
  @Test func prefixHeadersAdaptersAndEncodersOfUnseenApps() {
    Self.expectExactly(
      Self.scan("Unseen"),
      [
        ("un.syntax", .string, .string("Plain Text")), ("un.tabWidth", .integer, .integer(4)),
        ("un.width", .integer, .integer(512)), ("un.tolerance", .integer, .integer(15)),
        ("un.fadeRate", .integer, .integer(10)),
        ("un.layers", .json, .array([.string("clock"), .string("date")])),
        ("un.crop.index", .integer, .integer(0)), ("un.crop.ratio", .double, nil),
        ("un.blocked", .stringArray, .array([])), ("un.hidden", .stringArray, .array([])),
        ("un.rulers", .bool, .bool(false)), ("un.guides", .bool, .bool(true)),
        ("un.grid", .bool, nil), ("un.show_map", .bool, .bool(true)),
        // Traps: a loader's `return NO`; a branch a present key also takes; a presence test.
        ("un.theme", .string, nil), ("un.accent", .string, nil), ("un.fade", .any, nil),
        // A presence test the tree defines on UserDefaults, in an `if`, a `guard` and negated.
        ("un.showIcons", .bool, .bool(true)), ("un.inset", .integer, .integer(5)),
        ("un.zoom", .double, .real(2)),
        // Traps: a method true when the key is absent; one reading a flag.
        ("un.level", .integer, nil), ("un.locked", .bool, nil),
        // Constant objects holding a key and its default, through an extension of AppStorage
        // and through overloads chosen by the type the object holds.
        ("un.ko.showBadges", .bool, .bool(true)),
        ("un.ko.downloads", .string, .string("/Downloads")),
        ("un.ko.palette", .enum, .string("cool")), ("un.ko.lastRefresh", .double, .real(0)),
        ("un.ko.retries", .integer, .integer(3)),
      ])
    let group = Self.scan("Unseen", suite: "group.example.unseen")
    Self.expectExactly(
      group,
      [
        ("un.gitURL", .url, .string("https://")), ("un.showFolders", .bool, .bool(true)),
        ("un.generator", .json, nil), ("un.signature", .string, nil),
        ("un.launches", .integer, nil), ("un.muteSound", .bool, .bool(true)),
      ])
    // Named only in a comment, and as another type's function: declared, never used.
    #expect(group.unused.map(\.entry.from) == ["un.legacyPath"])
    // A CFPreferences wrapper answering `id`, typed by the class each accessor returns (an
    // accessor answering `id`: no type).
    Self.expectExactly(
      Self.scan("Unseen", suite: "org.example.tool"),
      [
        ("un.tool.cacheDir", .string, nil), ("un.tool.searchDirs", .array, nil),
        ("un.tool.repos", .any, nil),
        // (A suite named at run time, `Paths.preferences() + …`, may be any suite scanned.)
        ("un.muteSound", .bool, .bool(true)),
      ])
  }
}
