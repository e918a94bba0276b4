import Foundation
import PrefsCLI
import PropertyList
import TestSupport
import Testing

/// Issue 46's examples through the verbs themselves (real processes): `lint`, `convert` and
/// `read` give CoreFoundation's value (printed by Scripts/Differential's `cf_driver.swift`
/// over the toolchain's CoreFoundation, and for the 16-byte integers by the toolchain's
/// `plutil -p` too), as the migration reads them for `apple`.
@Suite struct ToolsReadAsCoreFoundationCommandTests {
  static let binary = External.product("prefs")

  /// (file bytes, CoreFoundation's value as `prefs convert --to json` prints it).
  static let cases: [(Data, String)] = [
    (Data("<plist><dict><key>k</key><key>v</key></dict></plist>".utf8), "{\n  \"k\": \"v\"\n}\n"),
    (Data("<plist><array><key>k</key></array></plist>".utf8), "[\n  \"k\"\n]\n"),
    (Data("<!DOCTYPE plist \"x><plist><true/></plist>".utf8), "true\n"),
    (Data("<plist><true/></plist>junk".utf8), "true\n"),
    (Data("<!DOCTYPE plist><!DOCTYPE plist><plist><true/></plist>".utf8), "true\n"),
    (Data("<plist><integer>- 5</integer></plist>".utf8), "-5\n"),
    (
      Data("<?xml version=\"1.0\" encoding=\"windows-1252\"?><plist><string>".utf8)
        + Data([0xE9, 0x80]) + Data("</string></plist>".utf8), "\"é€\"\n"
    ),
    (
      Data("<?xml version=\"1.0\" encoding=\"US-ASCII\"?><plist><string>".utf8)
        + Data([0xC3, 0xA9]) + Data("</string></plist>".utf8), "\"Ã©\"\n"
    ),
    // -2 and 2^64 + 5 in 16 bytes.
    (
      BinaryList.bplist(objects: [
        [0xA1, 1], [0x14] + [UInt8](repeating: 0xFF, count: 15) + [0xFE],
      ]),
      "[\n  18446744073709551614\n]\n"
    ),
    (
      BinaryList.bplist(objects: [
        [0xA1, 1],
        [0x14] + [UInt8](repeating: 0, count: 7) + [1]
          + [UInt8](repeating: 0, count: 7) + [5],
      ]), "[\n  5\n]\n"
    ),
  ]

  @Test(arguments: cases.indices)
  func lintConvertAndReadGiveCoreFoundationsValue(_ index: Int) throws {
    let (data, json) = Self.cases[index]
    let folder = try TemporaryFolder()
    let file = folder.file("case.plist")
    try data.write(to: file)
    let environment = ["XDG_CONFIG_HOME": folder.url.path]
    let lint = try External.run(Self.binary, ["lint", file.path], environment: environment)
    #expect(lint.status == 0, "\(lint.stderr)")
    let converted = try External.run(
      Self.binary, ["convert", file.path, "--to", "json"], environment: environment)
    #expect(converted.status == 0, "\(converted.stderr)")
    #expect(converted.output == json)
    let read = try External.run(Self.binary, ["read", file.path], environment: environment)
    #expect(read.status == 0, "\(read.stderr)")
  }

  /// A refusal names its row in `lint --json` (a binary null object: `binary-null`).
  @Test func lintJSONNamesTheRowOfARefusal() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("null.plist")
    try BinaryList.bplist(objects: [[0x00]]).write(to: file)
    let lint = try External.run(
      Self.binary, ["lint", "--json", file.path], environment: ["XDG_CONFIG_HOME": folder.url.path])
    #expect(lint.status == 65)
    #expect(lint.output.contains("\"row\":\"binary-null\""), "\(lint.output)")
  }
}
