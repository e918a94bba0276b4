// swift-tools-version:6.0
import PackageDescription

/// Where `UserDefaults` is the platform's own preferences storage (`cfprefsd`).
let applePlatforms: [Platform] = [.macOS, .iOS, .tvOS, .watchOS, .visionOS, .macCatalyst]

// The oldest release of each Apple platform the package is declared for: the releases that
// ship the Swift 6 runtime. Nothing here compiles for them (the workflow in .github/workflows
// does), so the floor is the one the code's newest needs reach for certain, not a guess below:
// - the tests' `Synchronization.Mutex`: macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2;
// - typed-throws function types held in generic values (`Option<Value>.parse`, the
//   `outermost` closure of `ReentrantExclusion.withLock`), whose metadata only the Swift 6
//   runtime builds;
// - below those, Observation's `@Observable` (PreferencesExamples: macOS 14, iOS 17, tvOS 17,
//   watchOS 10, visionOS 1) and `ContinuousClock`/`String.replacing(_:with:)` (macOS 13,
//   iOS 16).
// A lower floor would need the second point rewritten and the first two gated with
// `@available`, then proven by that workflow. Mac Catalyst follows iOS.
let appleMinimums: [SupportedPlatform] = [
  .macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2), .macCatalyst(.v18),
]

let package = Package(
  name: "prefs",
  platforms: appleMinimums,
  products: [
    .library(name: "PropertyList", targets: ["PropertyList"]),
    .library(name: "LegacyDefaults", targets: ["LegacyDefaults"]),
    .library(name: "LegacyDefaultsFoundation", targets: ["LegacyDefaultsFoundation"]),
    .library(name: "Preferences", targets: ["Preferences"]),
    .library(name: "PreferencesMigration", targets: ["PreferencesMigration"]),
    // The seed apps' settings, ported: examples of the library, not part of its namespace.
    .library(name: "PreferencesExamples", targets: ["PreferencesExamples"]),
    .executable(name: "prefs", targets: ["prefs"]),
  ],
  targets: [
    // Layer 1: bytes <-> PlistValue. Knows nothing of defaults, keys or files.
    .target(name: "PropertyList"),
    // The system calls Swift cannot make through libc (per-thread credentials, openat2).
    .target(name: "CSystemCalls"),
    // Layer 2: the NSUserDefaults-shaped store, its dialects and persistence.
    .target(name: "LegacyDefaults", dependencies: ["PropertyList", "CSystemCalls"]),
    // Layer 2's bridge to Foundation's `UserDefaults` (the storage for an app on Apple
    // platforms). Its own module so that nothing else links libFoundation on Linux: the rest
    // of the package needs only FoundationEssentials, and the command starts twice as fast.
    .target(name: "LegacyDefaultsFoundation", dependencies: ["LegacyDefaults", "PropertyList"]),
    // Layer 3: typed keys, Codable and enum values, observation.
    .target(
      name: "Preferences",
      dependencies: [
        "LegacyDefaults", "PropertyList",
        .target(name: "LegacyDefaultsFoundation", condition: .when(platforms: applePlatforms)),
      ]),
    // Examples: the three seed apps' settings on the typed store (built and tested).
    .target(name: "PreferencesExamples", dependencies: ["Preferences", "PropertyList"]),
    // Layer 4: plans, the migrator, the report, the export back.
    .target(
      name: "PreferencesMigration", dependencies: ["Preferences", "LegacyDefaults", "PropertyList"]),
    // What the command does to domains and files, as a library: names and paths, reading and
    // changing a domain, writing outputs, typed values, key paths, search; and the fleet tools
    // (the batch runner, plan inference and coverage, the Swift generator, the source scanner),
    // which an app never needs.
    .target(
      name: "PrefsTools",
      dependencies: [
        "PropertyList", "LegacyDefaults", "PreferencesMigration",
        .target(name: "LegacyDefaultsFoundation", condition: .when(platforms: applePlatforms)),
      ]),
    // The command itself: argument parsing, printing, exit codes. Testable in-process. It
    // reaches the lower layers through PrefsTools alone (which names the types it needs of
    // them); PropertyList is the values every layer passes.
    .target(name: "PrefsCLI", dependencies: ["PrefsTools", "PropertyList"]),
    // The executable only hands its arguments to PrefsCLI.
    .executableTarget(name: "prefs", dependencies: ["PrefsCLI"]),
    // Side-by-side timings against Foundation (run with -c release).
    .executableTarget(
      name: "prefs-bench",
      dependencies: [
        "PropertyList", "LegacyDefaults", "LegacyDefaultsFoundation", "Preferences",
        "PreferencesMigration", "PrefsTools",
      ],
      exclude: ["plistlib_migrate.py"]),
    // The corelibs reference: Foundation.UserDefaults' getters on a file, as JSON.
    .executableTarget(name: "defaults-probe", path: "Tests/DefaultsProbe"),
    // prefs' side of the differential against the reference readers (Scripts/differential.sh):
    // each file read as a dialect reads a legacy file, in the references' canonical form.
    .executableTarget(
      name: "plist-probe", dependencies: ["LegacyDefaults", "PropertyList"],
      path: "Tests/PlistProbe"),
    // A writer process for the durability tests.
    .executableTarget(
      name: "prefs-stress", dependencies: ["LegacyDefaults", "Preferences"],
      path: "Tests/StressWriter"),
    // Helpers shared by the test targets (temporary folders, running reference tools).
    .target(name: "TestSupport", dependencies: ["PropertyList"], path: "Tests/TestSupport"),
    .testTarget(
      name: "PropertyListTests",
      dependencies: ["PropertyList", "TestSupport"],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "LegacyDefaultsTests",
      dependencies: ["LegacyDefaults", "LegacyDefaultsFoundation", "PropertyList", "TestSupport"],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "PreferencesTests",
      dependencies: [
        "Preferences", "PreferencesExamples", "LegacyDefaults", "LegacyDefaultsFoundation",
        "PropertyList", "TestSupport",
      ]
    ),
    .testTarget(
      name: "PreferencesMigrationTests",
      dependencies: [
        "PreferencesMigration", "Preferences", "PreferencesExamples", "LegacyDefaults",
        "LegacyDefaultsFoundation", "PropertyList", "TestSupport",
        // The command's batch runner, against which the migration at launch is compared.
        "PrefsTools",
      ]
    ),
    .testTarget(
      name: "PrefsToolsTests",
      dependencies: [
        "PrefsTools", "PreferencesMigration", "LegacyDefaults", "PropertyList", "TestSupport",
      ],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "PrefsCLITests",
      dependencies: [
        "PrefsCLI", "PrefsTools", "LegacyDefaults", "LegacyDefaultsFoundation", "PropertyList",
        "TestSupport",
      ],
      exclude: ["Golden"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
