import Foundation
import LegacyDefaults
import PreferencesMigration
import PrefsTools
import PropertyList
import TestSupport
import Testing

/// A migration reads each legacy file as the plan's dialect's own reader read it (issue 36):
/// CoreFoundation's for `apple` and `corelibs`, GNUstep's for `gnustep`. The values expected
/// are the references' answers (`Scripts/Differential`'s drivers: the toolchain Foundation's
/// `PropertyListSerialization` and GNUstep Base 1.28's `NSPropertyListSerialization`).
@Suite struct LegacyReaderTests {
  static func plan(_ dialect: Dialect) -> MigrationPlan {
    MigrationPlan(dialect: dialect, schemaVersion: 1, unmapped: .keep, entries: [])
  }

  /// Migrates `bytes` as a legacy file with `dialect`'s plan: the outcome and the values written.
  static func migrate(_ bytes: Data, _ dialect: Dialect) throws -> (
    FileOutcome, [String: PlistValue]?
  ) {
    let folder = try TemporaryFolder()
    let legacy = folder.file("legacy.plist")
    try bytes.write(to: legacy)
    let out = folder.file("out.plist")
    let outcome = MigrationRunner(plan: plan(dialect)).run(legacy.path, to: .file(out.path))
    guard FileManager.default.fileExists(atPath: out.path) else { return (outcome, nil) }
    var values = try PropertyList.read(Data(contentsOf: out)).value.dictionaryValue?.swiftDictionary
    values?[MigrationPlan.schemaVersionKey] = nil
    return (outcome, values)
  }

  @Test func aBinaryDuplicateKeyIsMigratedAsTheDialectsReaderKeptIt() throws {
    // `{a = 1; a = 2}` in binary: CoreFoundation keeps 1, GNUstep 2.
    let bytes = BinaryList.bplist(objects: [
      [0xD2, 1, 1, 2, 3], BinaryList.ascii("a"), [0x10, 1], [0x10, 2],
    ])
    for (dialect, kept) in [(Dialect.apple, 1), (.corelibs, 1), (.gnustep, 2)] {
      let (outcome, values) = try Self.migrate(bytes, dialect)
      #expect(outcome.status == .migrated, "\(dialect)")
      #expect(values == ["a": .int(kept)], "\(dialect)")
    }
  }

  @Test func aLowercaseUEscapeIsMigratedAsTheDialectsReaderReadIt() throws {
    // A GNUstep `Languages`-style file.
    let bytes = Data(#"{ NSLanguages = ("Fran\u00e7ais", English); }"#.utf8)
    let (apple, appleValues) = try Self.migrate(bytes, .apple)
    #expect(appleValues == ["NSLanguages": ["Franu00e7ais", "English"]])
    #expect(apple.message?.contains("read as CoreFoundation reads it") == true)
    let (_, gnustepValues) = try Self.migrate(bytes, .gnustep)
    #expect(gnustepValues == ["NSLanguages": ["Français", "English"]])
  }

  @Test func aCFUIDDictionaryIsMigratedAsTheDialectsReaderReadIt() throws {
    let bytes = Data(
      ("<?xml version=\"1.0\"?>\n<plist><dict><key>u</key><dict><key>CF$UID</key>"
        + "<integer>4294967296</integer></dict></dict></plist>\n").utf8)
    #expect(try Self.migrate(bytes, .apple).1 == ["u": .uid(0)])
    #expect(try Self.migrate(bytes, .gnustep).1 == ["u": ["CF$UID": 4_294_967_296]])
  }

  @Test func unpaddedBase64IsMigratedAsTheDialectsReaderDecodedIt() throws {
    let bytes = Data(
      "<?xml version=\"1.0\"?>\n<plist><dict><key>d</key><data>AA</data></dict></plist>\n".utf8)
    let (apple, appleValues) = try Self.migrate(bytes, .apple)
    #expect(appleValues == ["d": .data(Data())])
    #expect(apple.message?.contains("not whole groups of four") == true)
    #expect(try Self.migrate(bytes, .gnustep).1 == ["d": .data(Data([0]))])
  }

  @Test func aStringsFileIsMigratedAsFarAsCoreFoundationReadIt() throws {
    let bytes = Data("\"a\" = \"1\";\n* = \"2\";\n\"c\" = \"3\";\n".utf8)
    let (outcome, values) = try Self.migrate(bytes, .apple)
    #expect(outcome.status == .migrated)
    #expect(values == ["a": "1"])
    #expect(outcome.message?.contains("only the entries before this place") == true)
  }

  @Test(arguments: [
    // (the file, the dialect whose app could not read it)
    (#"{ size = <*I5>; }"#, Dialect.apple),  // GNUstep's typed text
    (#"{ a = b }"#, .corelibs),  // no ';' after the last entry
    (#""a" = "1";"#, .gnustep),  // a strings file
    (#"('x', y)"#, .gnustep),  // single quotes
  ])
  // (`LegacyDefaults.Dialect`: PrefsTools names the type too, for the command, and a type
  // named by two imported modules is ambiguous where an expression names it, as @Test does.)
  func aFileTheAppCouldNotReadIsMalformedAndCarriesNothing(
    text: String, dialect: LegacyDefaults.Dialect
  ) throws {
    let (outcome, values) = try Self.migrate(Data(text.utf8), dialect)
    #expect(outcome.status == .malformed)
    #expect(values == nil)
    #expect(outcome.message?.contains("the app read no value from this file") == true)
  }

  @Test func aNonStringBinaryKeyRefusesTheFile() throws {
    // `{5 = v}`: both readers keep the integer key, which a domain cannot.
    let bytes = BinaryList.bplist(objects: [[0xD1, 1, 2], [0x10, 5], BinaryList.ascii("v")])
    for dialect in Dialect.allCases {
      #expect(try Self.migrate(bytes, dialect).0.status == .malformed, "\(dialect)")
    }
  }
}
