import Foundation
import PropertyList
import TestSupport
import Testing

/// GNUstep text as GNUstep Base 1.28 reads it (`NSPropertyList.m`): what it accepts on
/// purpose, prefs accepts; what it decodes by accident, prefs refuses (Docs/compatibility.md lists
/// each). The expected answers were taken from GNUstep through `gnustep_dump`; under CI the
/// live GNUstep is asked again, so a change in either shows.
@Suite struct GNUstepLeniencyTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var text: String
    /// What prefs reads (nil: refused).
    var prefs: PlistValue?
    /// GNUstep's answer as `gnustep_dump` prints it (nil: GNUstep refuses the document).
    var gnustep: String?
    var testDescription: String { text }
  }

  static let hello = PlistValue.data(Data("hello".utf8))

  static let cases: [Case] = [
    // <[…]>: GNUstep skips bytes that are not base64 (NSDataBase64DecodingIgnoreUnknownCharacters).
    Case(
      text: "(<[aGVs^^bG8=]>, <[ a G V s b G 8 = ]>)", prefs: [hello, hello],
      gnustep: #"{"array": [{"hexdata": "68656c6c6f"}, {"hexdata": "68656c6c6f"}]}"#),
    Case(
      text: "(<[aGVsbG8]>)", prefs: [hello], gnustep: #"{"array": [{"hexdata": "68656c6c6f"}]}"#),
    Case(
      text: "(<[aG]>)", prefs: [.data(Data([0x68]))], gnustep: #"{"array": [{"hexdata": "68"}]}"#),
    Case(
      text: "(<[aGVsbG8==]>)", prefs: [hello], gnustep: #"{"array": [{"hexdata": "68656c6c6f"}]}"#),
    Case(
      text: "(<[aGVsbG8a]>)", prefs: [.data(Data("hello".utf8) + [0x1A])],
      gnustep: #"{"array": [{"hexdata": "68656c6c6f1a"}]}"#),
    Case(
      text: "(<[aGVs^]>)", prefs: [.data(Data("hel".utf8))],
      gnustep: #"{"array": [{"hexdata": "68656c"}]}"#),
    Case(text: "(<[a]>)", prefs: nil, gnustep: nil),
    Case(text: "(<[=aGVs]>)", prefs: nil, gnustep: nil),
    Case(text: "(<[@@@@]>)", prefs: nil, gnustep: nil),
    // An accident: four '=' decode to one zero byte in GNUstep.
    Case(text: "(<[====]>)", prefs: nil, gnustep: #"{"array": [{"hexdata": "00"}]}"#),
    // <*…>: a quoted value is allowed on purpose ("Allow for quoted values").
    Case(
      text: #"(<*I"1048576">)"#, prefs: [1_048_576],
      gnustep: #"{"array": [{"integer": "1048576"}]}"#),
    Case(text: #"(<*B"Y">)"#, prefs: [true], gnustep: #"{"array": [{"bool": true}]}"#),
    Case(text: #"(<*R"1.5">)"#, prefs: [.real(1.5)], gnustep: #"{"array": [{"real": "1.5"}]}"#),
    Case(
      text: #"(<*D"2011-03-14 15:09:26 +0000">)"#,
      prefs: [.date(Date(timeIntervalSinceReferenceDate: 321_808_166))],
      gnustep: #"{"array": [{"date": "321808166"}]}"#),
    Case(text: "(<*I 42 >)", prefs: [42], gnustep: #"{"array": [{"integer": "42"}]}"#),
    Case(text: #"(<*B"Y>)"#, prefs: nil, gnustep: nil),
    // Accidents of strtoull/strtod on what is not a number: refused.
    Case(text: #"(<*I"1234>)"#, prefs: nil, gnustep: #"{"array": [{"integer": "0"}]}"#),
    Case(text: "(<*Iabc>)", prefs: nil, gnustep: #"{"array": [{"integer": "0"}]}"#),
    Case(text: "(<*I12abc>)", prefs: nil, gnustep: #"{"array": [{"integer": "12"}]}"#),
    Case(text: "(<*R1.5x>)", prefs: nil, gnustep: #"{"array": [{"real": "1.5"}]}"#),
    Case(text: #"(<*I"">)"#, prefs: nil, gnustep: #"{"array": [{"integer": "0"}]}"#),
    // GNUstep's unquoted characters are more than CoreFoundation's: read, with a warning.
    Case(
      text: "(a+b, c, x@y!, #d)", prefs: ["a+b", "c", "x@y!", "#d"],
      gnustep:
        ##"{"array": [{"string": "a+b"}, {"string": "c"}, {"string": "x@y!"}, {"string": "#d"}]}"##),
    // No ';' before '}': GNUstep reads it with a logged warning; CoreFoundation refuses it.
    Case(text: #"{"A"=A}"#, prefs: ["A": "A"], gnustep: #"{"dict": {"A": {"string": "A"}}}"#),
  ]

  @Test(arguments: cases)
  func prefsReadsAsDocumented(_ test: Case) {
    let result = Result { () throws(PlistError) in try PropertyList.read(Data(test.text.utf8)) }
    switch (result, test.prefs) {
    case (.success(let document), let expected?): #expect(document.value == expected)
    case (.failure, nil): break
    case (.success(let document), nil):
      Issue.record("read as \(document.value), expected a refusal")
    case (.failure(let error), _?): Issue.record("refused: \(error)")
    }
  }

  @Test func aMissingSemicolonIsAWarningThatNamesCoreFoundation() throws {
    let document = try PropertyList.read(Data("{\n  a = 1;\n  b = 2\n}".utf8))
    #expect(document.value == ["a": "1", "b": "2"])
    let warning = try #require(document.warnings.first)
    #expect(warning.description.contains("CoreFoundation"))
    #expect(warning.description.contains("line 4"))
  }

  @Test func unquotedCharactersBeyondCoreFoundationAreAWarning() throws {
    let document = try PropertyList.read(Data("(plain, a+b)".utf8))
    #expect(document.warnings.count == 1)
    #expect(document.warnings.first?.description.contains("\"a+b\"") == true)
  }

  /// GNUstep itself gives the recorded answers (the live reference; required under CI).
  @Test(
    .enabled(
      if: Tools.gnustep || External.required, "needs GNUstep (gnustep-config, gcc)"),
    arguments: cases)
  func gnustepGivesTheRecordedAnswer(_ test: Case) throws {
    let dump = try #require(GNUstepDump.shared, "GNUstep is missing or gnustep_dump did not build")
    let folder = try TemporaryFolder()
    let file = folder.file("case.plist")
    try Data(test.text.utf8).write(to: file)
    let result = try dump.run(file)
    guard let expected = test.gnustep else {
      #expect(result.status != 0, "GNUstep read \(test.text): \(result.output)")
      return
    }
    #expect(result.status == 0, "\(result.stderr)")
    let json = result.output.split(separator: "\n").last.map(String.init) ?? ""
    #expect(json == expected)
  }
}
