import Foundation
import LegacyDefaults
import LegacyDefaultsFoundation
import PropertyList
import TestSupport
import Testing

/// The Swift `Preference` port against the Objective-C class of `Legacy/` under GNUstep: the
/// same files load to the same values in both, and what either saves the other loads.
@Suite struct PreferencePortTests {
  struct Loaded: Decodable, Equatable {
    var isSoundEnabled: Bool
    var rankingSize: Int
  }

  /// Legacy files as users and old versions left them: absent keys, strings where a bool or an
  /// integer was meant, reals, in every format the app may have written.
  static let handEdited: [(String, [String: PlistValue])] = [
    ("empty", [:]),
    ("as saved", ["PREFS_SOUND_ENABLED": false, "PREFS_RANKING_SIZE": 12]),
    ("only sound", ["PREFS_SOUND_ENABLED": false]),
    ("only size", ["PREFS_RANKING_SIZE": 3]),
    ("strings NO and 12", ["PREFS_SOUND_ENABLED": "NO", "PREFS_RANKING_SIZE": " 12"]),
    ("strings YES and 7x", ["PREFS_SOUND_ENABLED": "YES", "PREFS_RANKING_SIZE": "7x"]),
    ("strings yes and -3", ["PREFS_SOUND_ENABLED": "yes", "PREFS_RANKING_SIZE": "-3"]),
    ("strings 0 and empty", ["PREFS_SOUND_ENABLED": "0", "PREFS_RANKING_SIZE": ""]),
    ("words", ["PREFS_SOUND_ENABLED": "true", "PREFS_RANKING_SIZE": "ten"]),
    ("numbers", ["PREFS_SOUND_ENABLED": 2, "PREFS_RANKING_SIZE": 12.7]),
    ("negative real", ["PREFS_SOUND_ENABLED": 0.0, "PREFS_RANKING_SIZE": -2.5]),
    ("wrong types", ["PREFS_SOUND_ENABLED": ["YES"], "PREFS_RANKING_SIZE": .data(Data([5]))]),
  ]

  static var cases: [(String, PlistFormat)] {
    handEdited.flatMap { name, _ in
      [PlistFormat.xml, .binary, .gnustep].map { (name, $0) }
    }
  }

  static func objectiveCLoad(_ file: URL?, driver: LegacyDriver) throws -> Loaded {
    let (result, _) = try driver.run(["load"], file: file)
    guard result.status == 0 else {
      throw TypedJSONError(description: "prefs-driver load failed: \(result.stderr)")
    }
    return try JSONDecoder().decode(Loaded.self, from: result.stdout)
  }

  @Test(
    .enabled(if: Tools.gnustep || External.required, "needs GNUstep (the Objective-C class)"),
    arguments: cases)
  func handEditedFilesLoadAlike(name: String, format: PlistFormat) throws {
    let driver = try LegacyDriver.require()
    let values = try #require(Self.handEdited.first { $0.0 == name }?.1)
    let folder = try TemporaryFolder()
    let file = folder.file("legacy.plist")
    try PropertyList.write(.dictionary(values), as: format).write(to: file)
    let objc = try Self.objectiveCLoad(file, driver: driver)
    let store = try DefaultsStore(url: file, dialect: .gnustep, flushAtExit: false)
    let swift = Preference.load(from: store)
    #expect(
      Loaded(isSoundEnabled: swift.isSoundEnabled, rankingSize: swift.rankingSize) == objc,
      "\(name) as \(format)")
  }

  @Test(.enabled(if: Tools.gnustep || External.required, "needs GNUstep (the Objective-C class)"))
  func absentFileLoadsTheDefaults() throws {
    let driver = try LegacyDriver.require()
    #expect(
      try Self.objectiveCLoad(nil, driver: driver) == Loaded(isSoundEnabled: true, rankingSize: 5))
    #expect(Preference.load(from: DefaultsStore(inMemory: [:])) == Preference())
  }

  @Test(
    .enabled(if: Tools.gnustep || External.required, "needs GNUstep (the Objective-C class)"),
    arguments: [(false, 12), (true, 5), (false, -1), (true, 0)])
  func whatObjectiveCSavesSwiftLoads(sound: Bool, size: Int) throws {
    let driver = try LegacyDriver.require()
    let (result, saved) = try driver.run(["save", sound ? "YES" : "NO", String(size)], file: nil)
    #expect(result.status == 0, "\(result.stderr)")
    let data = try #require(saved, "prefs-driver save wrote no file")
    let folder = try TemporaryFolder()
    let file = folder.file("saved.plist")
    try data.write(to: file)
    for dialect in Dialect.allCases {
      let store = try DefaultsStore(url: file, dialect: dialect, flushAtExit: false)
      #expect(Preference.load(from: store) == Preference(isSoundEnabled: sound, rankingSize: size))
    }
  }

  @Test(
    .enabled(if: Tools.gnustep || External.required, "needs GNUstep (the Objective-C class)"),
    arguments: [(false, 12), (true, 5), (false, -1)], [PlistFormat.xml, .binary])
  func whatSwiftSavesObjectiveCLoads(values: (Bool, Int), format: PlistFormat) throws {
    let driver = try LegacyDriver.require()
    let folder = try TemporaryFolder()
    let file = folder.file("swift.plist")
    let store = try DefaultsStore(url: file, newFileFormat: format, flushAtExit: false)
    #expect(Preference(isSoundEnabled: values.0, rankingSize: values.1).save(to: store))
    #expect(try PropertyList.read(Data(contentsOf: file)).format == format)
    #expect(
      try Self.objectiveCLoad(file, driver: driver)
        == Loaded(isSoundEnabled: values.0, rankingSize: values.1))
  }

  @Test func saveReportsAFailure() throws {
    let folder = try TemporaryFolder()
    try Data().write(to: folder.file("not-a-folder"))
    let store = try DefaultsStore(
      url: folder.file("not-a-folder").appendingPathComponent("d.plist"), flushAtExit: false)
    #expect(Preference(isSoundEnabled: false).save(to: store) == false)
    #expect(throws: DefaultsError.self) { try Preference().saveOrThrow(to: store) }
  }
}
