import Foundation
import PreferencesMigration
import PrefsTools
import PropertyList
import TestSupport
import Testing

/// What the held-out apps of issue 49's later rounds carried their keys by, each as a fixture
/// of its own (Fixtures/SourceScan/Flow/OwnDomain, Flow/Held), with its traps.
@Suite struct SourceScanHeldOutTests {
  /// A suite named by the bundle identifier of an application the tree builds is that app's
  /// standard domain (an Xcode project whose application target's identifier is
  /// `org.example.$(PRODUCT_NAME:rfc1034identifier)`, an older app's Info.plist), as
  /// CFPreferences and a helper's `UserDefaults(suiteName:)` write it.
  @Test func theAppsOwnIdentifierIsTheStandardDomain() {
    let result = SourceScanFlowTests.scan("OwnDomain")
    SourceScanFlowTests.expectExactly(
      result,
      [
        // A CFNumber of the kind `CFNumberCreate` names, through the app's wrappers.
        ("own.level", .integer, nil), ("own.speed", .double, nil),
        ("own.legacyFlag", .bool, nil), ("own.fromHelper", .bool, nil),
      ])
    // Traps: a framework's identifier, a plug-in's (BNDL), an application's identifier left to
    // a setting the project does not hold: suites of their own.
    let others = Dictionary(
      result.otherDomains.map { ("\($0.0)", $0.1.map(\.entry.from)) },
      uniquingKeysWith: { a, _ in a })
    #expect(others["suite org.example.OwnKit"] == ["kit.cache"])
    #expect(others["suite org.example.plugin"] == ["plugin.count"])
    #expect(others["suite org.example.Helper"] == ["helper.port"])
    #expect(others.count == 3, "\(others.keys.sorted())")
    // Asked for by its name, a suite is what the scan gives, the app's own or not.
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("OwnDomain", suite: "org.example.OwnKit"),
      [("kit.cache", .bool, nil)])
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("OwnDomain", suite: "org.example.Own-App"),
      [("own.level", .integer, nil), ("own.speed", .double, nil), ("own.fromHelper", .bool, nil)])
  }

  /// Xcode's settings in an identifier, as the project would build it.
  @Test(
    arguments: [
      (
        "org.example.$(PRODUCT_NAME:rfc1034identifier)", "$(TARGET_NAME)", "My App 2",
        "org.example.My-App-2"
      ),
      ("org.example.${PRODUCT_NAME:identifier}", "Tool", "ignored", "org.example.Tool"),
      ("com.example.$(TARGET_NAME)", nil, "Reader", "com.example.Reader"),
      ("com.example.plain", nil, "X", "com.example.plain"),
    ] as [(String, String?, String, String)])
  func anIdentifierIsExpanded(_ text: String, product: String?, target: String, expected: String) {
    #expect(SourceScan.expand(text, productName: product, targetName: target) == expected)
  }

  @Test(arguments: ["$(APP_ID)", "com.example.$(PRODUCT_NAME:lower)", "com.$(", "$"])
  func anIdentifierLeftToAnotherSettingIsNone(_ text: String) {
    #expect(SourceScan.expand(text, productName: nil, targetName: "App") == nil)
  }

  /// Registered defaults built in a property of the class's own and returned as a copy, held
  /// in a local before `registerDefaults:`; numeric constants of a file that names no user
  /// defaults; a `class func` returning the registered dictionary (a member, not a class);
  /// Codable values kept by PropertyListEncoder (data, not JSON), `NSData()` registered (empty
  /// data); overloads of one name calling
  /// each other with their own parameter `key`, never a constant of that name elsewhere;
  /// MASShortcut's binder given its action as a trailing closure; an Objective-C wrapper's
  /// `id` converted by an accessor to the type it declares (`- (BOOL)x { return [[self
  /// toolObject:K] boolValue]; }`).
  @Test func registrationsThroughPropertiesCopiesAndClassMethods() {
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("Held"),
      [
        ("hd.checkFrequency", .integer, .integer(10800)),
        ("hd.readInterval", .double, .real(0.5)),
        ("hd.style", .string, .string("Default")), ("hd.showBar", .bool, .bool(true)),
        ("hd.theme", .integer, .integer(0)), ("hd.upcoming", .string, .string("YES")),
        ("hd.rules", .data, .data(Data())), ("hd.wideEditor", .bool, .bool(true)),
        ("hd.nextShortcut", .data, nil),
        // A wrapper's `id` converted at its call (`[[self toolObject:K] boolValue]`).
        ("hd.tool.verifySSL", .bool, nil), ("hd.tool.sleepSeconds", .integer, nil),
        ("hd.tool.summary", .any, nil), ("hd.tool.tabs", .any, nil),
        // Traps: a key nothing registers; JSON kept as JSON; the constant named `key`.
        ("hd.layout", .integer, nil), ("hd.recent", .json, nil), ("hd.crashCache", .data, nil),
      ])
    // A test target's folder is left out of the app's scan, and read when named itself.
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("Held/HeldTests"),
      [("AppleInterfaceStyle", .string, nil), ("hd.testOnly", .bool, nil)])
  }
}

/// The nineteenth held-out set's ways (Fixtures/SourceScan/Flow/Carried), with their traps.
@Suite struct SourceScanCarriedTests {
  /// A key object made through its generic type or `.init`; a JSON property wrapper read back
  /// through `flatMap` (its default an expression); GenericID's keys (a transformer's archive,
  /// an optional without a default) and a MASShortcutView's key given in a storyboard (over
  /// the String a key library declares); a key a method keeps in a member for the type's other
  /// methods; static wrappers whose getter is only tested for nil, and a first launch's write
  /// through them; archived data in Swift; a protocol's static key given by each conforming
  /// type (with its `typealias`); a Swift ternary on a presence test; an enum made from a
  /// getter's `?? ""` (its own fallback); a flag also read as a number, as registered; the
  /// properties of an extension of UserDefaults read on the user defaults their accesses name.
  @Test func keysCarriedThroughObjectsMembersAndProtocols() {
    let result = SourceScanFlowTests.scan("Carried")
    SourceScanFlowTests.expectExactly(
      result,
      [
        ("kept.generic", .bool, .bool(true)), ("kept.viaInit", .integer, .integer(3)),
        ("kept.both", .string, .string("abc")),
        ("kept.workSeconds", .json, .integer(1500)), ("kept.sound", .json, .string("bell")),
        ("kept.flag", .bool, nil), ("kept.name", .string, nil), ("kept.color", .data, nil),
        ("kept.windows", .stringArray, nil), ("kept.shortcut", .data, nil),
        ("kept.deleteWithoutAsking", .integer, nil),
        ("keptLaunch", .bool, .bool(true)), ("keptPort", .string, .string("8")),
        ("keptLevel", .string, .string("info")),
        ("kept.archived", .data, nil), ("kept.item", .data, nil),
        ("kept.characters", .string, nil), ("kept.reversed", .bool, nil),
        ("kept.hide", .bool, .bool(true)), ("kept.limit", .integer, .integer(5)),
        // `T(rawValue: get ?? "") ?? .off`; read as bool and integer, registered a bool.
        ("kept.soundTheme", .enum, .string("off")), ("kept.padSound", .bool, .bool(true)),
        // Traps: a key written beside the first launch's, not tested; a ternary whose other
        // side reads another key; read as bool and integer with nothing saying which.
        ("keptOther", .bool, nil), ("kept.mixed", .any, nil), ("kept.padHaptics", .any, nil),
        // A property of an extension of UserDefaults read on the standard ones.
        ("kept.localFlag", .bool, nil),
      ])
    // Read on the app group's suite (a static member of UserDefaults, `{ .group }`): that
    // suite's keys, with a property wrapper's whose initializer seeds them through its own
    // static wrappers on `Self`; read on a library's object's user defaults: unknown.
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("Carried", suite: "group.org.example.kept"),
      [
        ("kept.sharedLogging", .bool, nil), ("kept.maxActive", .json, .integer(4)),
        ("kept.cellular", .json, .bool(false)),
      ])
    #expect(result.unknownReceivers.map(\.key) == ["kept.libraryFlag"])
  }
}

@Suite struct SourceScanSharedTests {
  /// swift-sharing's keys: `@Shared(.appStorage(K)) var x: T = d` as `@AppStorage`, and keys
  /// declared in extensions of `SharedKey where Self == AppStorageKey<T>` (`appStorage(K)`,
  /// `Self[.appStorage(K, store: s), default: d]`); an enum's computed `"shared-\(rawValue)"`
  /// gives each case's key. Traps: swift-sharing's in-memory and file stores, an app's own
  /// function named `appStorage`, a key made with another property of the instance.
  @Test func swiftSharingAppStorageKeys() {
    let result = SourceScanFlowTests.scan("Shared")
    SourceScanFlowTests.expectExactly(
      result,
      [
        ("shared-tutorial-v1", .bool, .bool(false)), ("shared.soundOn", .bool, .bool(true)),
        ("shared-quality", .double, .real(0.7)), ("shared-prompt", .string, nil),
        ("shared.zoom", .double, .real(1.5)), ("shared.preExecution", .string, nil),
      ])
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("Shared", suite: "group.org.example.shared"),
      [("shared-group", .integer, .integer(3))])
  }
}

@Suite struct SourceScanMetTests {
  /// What a twenty-second set of never-seen apps showed: setters a macro writes, typed by
  /// their parameter's declared type, and a loader's `n ?: @(kDefault)` fallback; a getter
  /// with a fallback a package adds to UserDefaults; a settings cell given its key by an
  /// assignment elsewhere; a stored property's key made of a global constant; an array cast to
  /// strings, `[String]()`; an app group named per build (the `#else` branch's is the default
  /// build's); a property of an extension of UserDefaults observed by key path on a suite; a
  /// twenty-third set's store chosen per build (the `#else` branch's), sets and arrays made
  /// `T()` and stored as their JSON text, a suite made `.init(suiteName:)`, a function that
  /// registers the dictionary its caller gives.
  /// Traps: a parameter declared `id`, the same getter on another object, a member the type's
  /// own initializer sets, a member two types declare, another member's fallback.
  @Test func keysATwentySecondSetCarried() {
    let result = SourceScanFlowTests.scan("Met")
    SourceScanFlowTests.expectExactly(
      result,
      [
        ("metSound", .bool, .bool(true)), ("metVolume", .double, .real(0.25)),
        ("metAnything", .any, nil), ("metSwipe", .bool, nil), ("metLog", .bool, nil),
        ("metProvisional", .bool, .bool(true)), ("metRating024", .integer, nil),
        ("metNames", .stringArray, nil), ("metHelp", .stringArray, .array([])),
        // A twenty-third set: the default build's store; sets and arrays made `T()` that the
        // app makes RawRepresentable.
        ("metGroupIds", .json, .array([])), ("metPaths", .json, .array([])),
        // A function registering the dictionary its caller gives (its enum keys' raw values).
        ("met_auto_restart", .bool, .bool(true)), ("met_language", .string, .string("")),
      ])
    #expect(Set(result.patterns.map(\.pattern)) == ["*"])
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("Met", suite: "group.org.example.met"), [("metLogs", .array, nil)])
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("Met", suite: "com.apple.WindowManager"),
      [("EnableTiledWindowMargins", .bool, nil)])
  }
}

@Suite struct SourceScanCutSourceTests {
  /// A string left open inside an interpolation at the end of a Swift file (the smallest of a
  /// fuzz round's cut file of a real app): the token ends with the file, never past it (the
  /// lexer's end was one or two bytes beyond, which trapped when the text was read).
  @Test(arguments: [
    "var v {\n  f(\"\\(item\"", "let v = {\n  log(\"\\(a\"\\", "x(\"\\u{41",
  ])
  func aStringLeftOpenInAnInterpolationEndsWithTheFile(_ source: String) throws {
    let folder = try TemporaryFolder()
    try Data(("let d = UserDefaults.standard.bool(forKey: \"k\")\n" + source).utf8)
      .write(to: folder.file("Cut.swift"))
    let result = SourceScan.scan([folder.url.path])
    #expect(result.filesRead == 1)
    #expect(SourceScanTests.entries(result)["k"]?.type == .bool)
  }
}

@Suite struct SourceScanListedTests {
  /// What a twenty-fourth set of never-seen apps showed: keys listed as the keys of a
  /// dictionary a member holds, read in a loop through a method given the key, on standard
  /// user defaults with a suite added (their reads are the suite's); a getter function whose
  /// fallback is a parameter's default value, called inside `.init(…)` of an array's elements;
  /// a `??` fallback compared (`?? "Visible" != "Visible"`: the fallback is `"Visible"`); a
  /// wrapper's key parameter defaulting to `#function` (each calling property its own key); a
  /// type's own subscript (`self[.item] as String? ?? "system"`). Traps (also): another type's
  /// subscript, a member given another object's user defaults (not known: never the standard
  /// domain).
  /// Traps: a constant the dictionary does not list, a suite added to the standard user
  /// defaults themselves, a variable given the standard ones again, a call giving its own
  /// fallback.
  @Test func keysATwentyFourthSetCarried() {
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("Listed"),
      [
        ("ListedMigrated", .bool, nil), ("ListedPlain", .bool, nil),
        ("ListedDock", .string, .string("Visible")), ("ListedBar", .string, .string("Hidden")),
        ("ListedShown", .bool, .bool(false)), ("ListedAnimated", .bool, .bool(true)),
        ("ListedDockStyle", .string, .string("Visible")),
        ("listedOnboarding", .bool, .bool(true)),
        // A type's own subscript over an enum of keys, made a type by a cast or a fallback.
        ("listedColorScheme", .string, .string("system")),
        ("listedAnimateThings", .bool, .bool(false)),
      ])
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("Listed", suite: "org.example.listed"),
      [("ListedMode", .any, nil), ("ListedURL", .string, nil)])
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("Listed", suite: "org.example.reporter"),
      [("ListedSubmit", .bool, nil)])
  }
}

@Suite struct SourceScanGivenTests {
  /// What a twenty-sixth and twenty-seventh set of never-seen apps showed: a GNUstep app's
  /// wrappers keeping flags and numbers as text (read back converted: the conversion types
  /// them) and writing a given default back in an `else if`; a number read into a variable
  /// declared a string and converted; a key chosen by a ternary of two literals; a suite added
  /// under a name a local holds; a package's macro storing each property under its name in
  /// the store its type is given (a subclass of UserDefaults made for an app group named at
  /// run time, through a computed property); nested enums' constants of the same last name;
  /// private constants of the same name in two files; `@AppStorage` given its key by the
  /// initializer; another file's subscript of an extension of UserDefaults called as
  /// `self[#function]` in properties read on an app group's; a suite made in an initializer
  /// written before its member; keys read in an older format (a dictionary) and written in the
  /// current one (archived data); a key made from one of two classes' own methods. Traps: a
  /// typed getter's answer converted, a cast, a test of something else
  /// in an `else if`, a value read from the store given as `wrappedValue:`, a property wrapper
  /// the tree declares under a name a macro might have.
  @Test func keysTheTwentySixthAndTwentySeventhSetsCarried() {
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("Given"),
      [
        ("GivenSaveOnQuit", .bool, .bool(true)), ("GivenEditorLines", .string, .string("30")),
        ("GivenKnobWidth", .double, nil), ("GivenLabel", .string, nil),
        ("GivenRaw", .string, nil),
        ("GivenPerAppWarning", .bool, nil), ("GivenWarning", .bool, nil),
        ("GivenOld", .string, nil), ("GivenNew", .string, nil),
        ("given.session.1", .data, nil), ("given.session.2", .data, nil),
        ("given.open-links-in-browser", .bool, nil), ("given.default-reaction", .string, nil),
        ("givenCollapse", .bool, .bool(false)), ("givenWidth", .integer, nil),
        // Each class's own method (not `GivenOther`'s of the same name).
        ("Album_GivenSelection", .array, nil), ("Media_GivenSelection", .array, nil),
      ])
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("Given", suite: "org.given.shortcuts"),
      [
        ("given.shortcut.copy", .data, nil), ("given.shortcut.paste", .data, nil),
        ("givenLastVersion", .string, nil), ("givenSoundBanner", .bool, .bool(true)),
        ("givenAttempts", .integer, .integer(0)),
        ("givenLegacyTimeouts", .json, .dictionary([:])), ("givenSeen", .json, .array([])),
      ])
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("Given", suite: "group.given"),
      [
        ("givenLastVersion", .string, nil), ("givenSoundBanner", .bool, .bool(true)),
        ("givenAttempts", .integer, .integer(0)),
        ("givenLegacyTimeouts", .json, .dictionary([:])),
        ("givenSeen", .json, .array([])),
      ])
    // (A suite named at run time may be any: scanned with `--suite` it is that suite too.)
    let sound = SourceScanFlowTests.scan("Given").otherDomains.first {
      $0.domain == .suite("org.example.given.sound")
    }
    #expect(sound?.keys.map(\.entry.from) == ["GivenUISounds"])
    #expect(sound?.keys.first?.entry.type == .bool)
    // `self[#function]` of another file's subscript, in a property read on an app group's.
    let shared = SourceScanFlowTests.scan("Given").otherDomains.first {
      $0.domain == .suite("group.given.shared")
    }
    #expect(shared?.keys.map(\.entry.from) == ["givenTabStyle"])
    #expect(shared?.keys.first?.entry.type == .integer)
    // A property wrapper the tree declares, named as a macro might be: its own suite.
    let wrapped = SourceScanFlowTests.scan("Given").otherDomains.first {
      $0.domain == .suite("group.given.wrapper")
    }
    #expect(wrapped?.keys.map(\.entry.from) == ["givenWrapped"])
    #expect(wrapped?.keys.first?.entry.defaultValue == .bool(false))
  }
}

@Suite struct SourceScanTypedTests {
  /// What a twenty-eighth set of never-seen apps showed: objects keeping their key made
  /// through their generic type (`Pref<String>(key: "k")`: typed so); an app group's user
  /// defaults a computed static property makes in statements (`guard let d = …; return d`);
  /// `standard` in a static function of an extension of UserDefaults; and a twenty-ninth's:
  /// `defaults[@"k"]`, NSUserDefaults' keyed subscripting; a member given `.shared`; a
  /// property of an extension no code reads, in the one domain the others are read on.
  /// Traps: an array's subscript, a member of UserDefaults the tree does not declare (not
  /// known, never the standard domain), a
  /// collection's `contains` where a type of the tree has a wrapper of that name, a copy of
  /// Sparkle's source in the tree (the updater's own keys).
  @Test func keysTheTwentyEighthAndTwentyNinthSetsCarried() {
    let result = SourceScanFlowTests.scan("Typed")
    SourceScanFlowTests.expectExactly(
      result,
      [
        ("typedUserName", .string, nil), ("typedUploads", .integer, nil),
        ("typedHistory", .stringArray, nil),
        ("typedCheckersEnabled", .bool, nil), ("TypedSpellChecking", .bool, nil),
        ("TypedGrammarChecking", .bool, nil), ("typedOnboarded", .bool, nil),
        // NSUserDefaults' keyed subscripting (a twenty-ninth set's).
        ("typedTitle", .string, nil), ("typedRuns", .integer, nil),
      ])
    let group = result.otherDomains.first { $0.domain == .suite("group.typed") }
    #expect(group?.keys.map(\.entry.from) == ["typedToken"])
    // Properties of an extension read through a member given `.typedShared`, and one no code
    // reads, in the domain the others are read on (a twenty-ninth set's).
    let shared = result.otherDomains.first { $0.domain == .suite("group.typed.shared") }
    #expect(Set(shared?.keys.map(\.entry.from) ?? []) == ["typedBadgeCount", "typedWizardShown"])
    #expect(
      result.otherDomains.allSatisfy {
        $0.domain == .suite("group.typed") || $0.domain == .suite("group.typed.shared")
      })
  }
}

@Suite struct SourceScanDomainsTests {
  /// What a thirtieth set of never-seen apps showed: a domain kept as a dictionary (the global
  /// domain copied, changed and written back whole; another app's domain likewise); an empty
  /// text taking the fallback (`s.length == 0`). Traps: a mutable copy of a dictionary that is
  /// no domain, a longer text's test, a flag turned on the first time the code finds it off (in
  /// the branch, after a `guard`, after a branch that returns: true records the work done and is
  /// no default), a flag written off, a toggle.
  @Test func keysTheThirtiethSetCarried() {
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("Domains"),
      [
        ("domainsOnboarded", .bool, nil), ("domainsMigrated", .bool, nil),
        ("domainsWelcomed", .bool, nil), ("domainsPaused", .bool, nil),
        ("domainsMuted", .bool, nil), ("domainsShown", .bool, nil),
        ("DomainsDiskUnits", .integer, nil), ("DomainsTheme", .string, nil),
        ("DomainsTrigger", .string, .string("///")), ("DomainsPrefix", .string, nil),
        ("DomainsLaunched", .bool, nil), ("DomainsToggle", .bool, nil),
      ])
    let result = SourceScanFlowTests.scan("Domains")
    #expect(result.removed.map(\.entry.from) == ["DomainsOldUnits"])
    let dock = result.otherDomains.first { $0.domain == .suite("org.example.dock") }
    #expect(dock?.keys.map(\.entry.from) == ["DomainsOrientation"])
    #expect(dock?.keys.first?.entry.type == .string)
  }
}

@Suite struct SourceScanLookupsTests {
  /// What a thirty-first set of never-seen apps showed: a suite made with
  /// `UserDefaults.init(suiteName:)`; a wrapper's fallback an entry of a dictionary the tree
  /// declares, by the key each call gives; an app group's user defaults given to an initializer
  /// by a static property; keys chosen by a ternary, written or interpolated; numbers read
  /// through NSNumber (`?.boolValue ?? false`); an instance variable's collection of keys read by
  /// index in another method; a variable declared `id` and given the getter's answer later;
  /// the other branch's value (`if (v) n = [v intValue]; else n = 20;`); another app's domain
  /// named by a path. Traps: a branch that gives something else, a copy of a domain never
  /// written back, an instance variable given a copy of the settings in one method only.
  @Test func keysTheThirtyFirstSetCarried() {
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("Lookups"),
      [
        ("LookupsFont", .string, nil), ("LookupsLabelFont", .string, nil),
        ("LookupsFontSize", .string, nil), ("LookupsLabelFontSize", .string, nil),
        ("LookupsCache", .integer, .integer(20)), ("LookupsLabelSize", .integer, .integer(12)),
        ("LookupsMode", .any, nil),
        ("lookups.dark", .data, nil), ("lookups.light", .data, nil),
        ("lookupsTheme.dark", .integer, nil), ("lookupsTheme.light", .integer, nil),
        ("lookupsCalls", .bool, .bool(false)), ("lookupsSorting", .integer, .integer(3)),
        ("lookupsSync", .bool, nil),
      ])
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("Lookups", suite: "org.example.lookups"),
      [
        ("LookupsAccount", .string, .string("admin")), ("LookupsLength", .integer, .integer(12)),
        ("LookupsRemove", .bool, .bool(true)), ("LookupsMethod", .string, nil),
      ])
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("Lookups", suite: "group.lookups"),
      [("lookupsReload", .stringArray, nil)])
    let mail = SourceScanFlowTests.scan("Lookups").otherDomains.first {
      $0.domain == .suite("~/Library/Preferences/org.example.mail")
    }
    #expect(mail?.keys.map(\.entry.from) == ["LookupsAccounts"])
  }
}

@Suite struct SourceScanSubscriptedTests {
  /// What a thirty-second set of never-seen apps showed: typed subscripts of an extension of a
  /// protocol UserDefaults conforms to, over enums grouped by type (`enum Bool: Swift.String`),
  /// called on user defaults with a case (the overload whose enum declares it; a suite's too);
  /// a preferences class's own `registerDefaults:` merging a bundle plist; a method whose
  /// signature ends with `;` before its body, variables declared in a list (`NSString *a,
  /// *b;`). Trap: another type's subscript called with a case of its own enum.
  @Test func keysTheThirtySecondSetCarried() {
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("Subscripted"),
      [
        ("SubscriptedHistoryEnabled", .bool, .bool(true)),
        ("SubscriptedHistoryLimit", .integer, .integer(1000)),
        ("subscriptedSynced", .bool, nil), ("subscriptedLastOpen", .date, nil),
        ("SubscriptedFont", .string, nil),
      ])
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("Subscripted", suite: "group.subscripted"),
      [("subscriptedSeenTips", .bool, nil)])
  }
}

@Suite struct SourceScanPersistedTests {
  /// What a thirty-third set of never-seen apps showed: PersistedPropertyWrapper's
  /// `@Persisted` (a raw value stored as it, `encodedDataKey:` as JSON, `storage:` a suite; a
  /// long attribute; an enum's static property), defaults registered from an Info.plist
  /// entry, an initializer's parameter of user defaults whose default is a suite kept by a
  /// base class, an enum's static array of its own cases and each case's `switch self` value,
  /// `if let` fallbacks of a wrapper's answer, static `@AppStorage` properties no code names,
  /// a shortcut in Carbon's codes, arrays read by enumerating them, an attribute of a package
  /// named for settings given its key as text, one storage type made twice with other user
  /// defaults. Traps: Realm's `@Persisted`, an extension's
  /// Info.plist without the entry, another enum's case of the same name, an `else` branch that
  /// reads again, an instance's property named like a static one, two files calling a wrapper
  /// with a fallback on the same line, such an attribute given no text, or in a file that
  /// imports no such package, a language attribute.
  @Test func keysTheThirtyThirdSetCarried() {
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("Persisted"),
      [
        ("persistedShowLinks", .bool, .bool(true)),
        ("persistedProgressType", .integer, .integer(1)),
        ("persistedDarkMode", .bool, nil),
        ("persistedListOrder", .integer, .integer(0)),
        ("infoConfirmDeletion", .bool, .bool(true)),
        ("infoGradient", .double, .real(0.5)),
        ("infoPalette", .string, .string("CoffeeBeans")),
        ("infoLinks", .stringArray, nil), ("infoProfiles", .array, nil),
        ("declaredShown", .bool, .bool(true)),
        ("persistedLineA", .integer, .integer(3)), ("persistedLineB", .integer, .integer(4)),
        ("persistedPackagedFlag", .bool, .bool(true)), ("persistedPackagedName", .string, nil),
        ("persistedInstanceToken", .string, nil),
        (
          "KeyboardShortcuts_persistedBrighter", .json,
          .dictionary(["carbonKeyCode": .integer(0x2D), "carbonModifiers": .integer(0x900)])
        ),
      ])
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("Persisted", suite: "group.persisted"),
      [
        ("persistedCurrentBooks", .json, .array([])),
        ("inheritedLockTime", .string, .string("FiveMinutes")),
        ("inheritedForceLock", .bool, .bool(false)),
        ("persistedInstanceFlag", .bool, nil),
      ])
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("Persisted", suite: "group.loaded"),
      [
        ("Language", .string, .string("en-US")),
        ("Icon", .enum, .string("Option2")),
        ("Words", .any, .string("")),
      ])
  }
}

@Suite struct SourceScanObservedTests {
  /// What a thirty-fourth set of never-seen apps showed: a package's attribute given one
  /// configuration (`@ObservableUserDefault(.init(key:defaultValue:store:))`), KeyboardShortcuts
  /// names made where the library is called, a Codable value kept by `@AppStorage` through a
  /// generic struct the tree makes RawRepresentable, Objective-C variables declared in a list
  /// and an immutable array registered through a variable. Traps: a static property of the
  /// package's attribute no code names, a mutable array filled after.
  @Test func keysTheThirtyFourthSetCarried() {
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("Observed"),
      [
        ("observedTranslate", .bool, .bool(false)), ("observedDelay", .integer, .integer(400)),
        ("observedLanguage", .string, nil),
        ("KeyboardShortcuts_observedKaraoke", .json, nil),
        ("KeyboardShortcuts_observedLyrics", .json, nil),
        ("observedAction", .json, nil), ("observedKodi", .string, .string("")),
        ("observedUnused", .bool, .bool(true)),
        ("observedYes", .bool, .bool(true)), ("observedNo", .bool, .bool(false)),
        ("observedOrder", .stringArray, .array([.string("title"), .string("artist")])),
        ("observedQueue", .stringArray, nil),
      ])
  }
}

@Suite struct SourceScanSubclassedTests {
  /// What a thirty-fifth set of never-seen apps showed: a subclass of UserDefaults made for a
  /// suite by its `convenience init()`, registering on itself; an enum's static property
  /// naming a case, read for its raw value; an extension's method without parameters and its
  /// properties, called on an app group's suite (directly, and through a member an
  /// initializer is given); Objective-C key constants declared in one list, and a number read
  /// into a file's static variable, tested for zero.
  @Test func keysTheThirtyFifthSetCarried() {
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("Subclassed"),
      [
        ("SubclassedTheme", .integer, .integer(1)), ("SubclassedFont", .string, nil),
        ("SubclassedFontSize", .double, nil), ("SubclassedScrollBack", .integer, .integer(256)),
      ])
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("Subclassed", suite: "org.example.subclassed"),
      [
        ("SubclassedMode", .integer, .integer(3)),
        ("SubclassedLayout", .string, .string("qwerty")),
        // (The run's suite, which `--suite` takes as any name.)
        ("SubclassedLegacy", .dictionary, nil), ("SubclassedOnboarded", .bool, nil),
      ])
  }
}
