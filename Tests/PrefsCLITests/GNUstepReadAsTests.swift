import Foundation
import TestSupport
import Testing

/// `prefs read FILE [KEY] --as GETTER --dialect gnustep` answers what GNUstep Base answers in
/// an app: the same getters, on the values as GNUstep's reader left them. An XML integer above
/// Int64.max is clamped to Int64.max by that reader (issue 13; the store applies it since), so
/// every getter, `objectForKey:` included, sees 9223372036854775807; GNUstep's typed text keeps
/// the unsigned value. The answers come from the Objective-C driver under GNUstep.
@Suite(.enabled(if: Tools.gnustep || External.required, "needs GNUstep (.ci/run installs it)"))
struct GNUstepReadAsTests {
  static let binary = External.product("prefs")

  static let xml = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0"><dict><key>k</key><integer>18446744073709551615</integer>\
    <key>list</key><array><integer>18446744073709551615</integer></array></dict></plist>
    """
  static let typedText = "{ k = <*I18446744073709551615>; }"

  /// GNUstep's answers for key `k` of `file`: the getters of the driver's dump.
  static func getters(_ file: URL) throws -> [String: Any] {
    let dump =
      try JSONSerialization.jsonObject(with: try LegacyDriver.require().dump(file))
      as? [String: Any]
    return try #require(dump?["k"] as? [String: Any])
  }

  /// The integer GNUstep's `objectForKey:` gave for `key` of `file` (alone or in an array), as
  /// the driver prints it.
  static func object(_ key: String, _ file: URL) throws -> String {
    let (read, _) = try LegacyDriver.require().run(
      ["scenario"], file: file, input: Data("read \(key)\n".utf8))
    #expect(read.status == 0, "\(read.stderr)")
    let output = read.output
    let start = try #require(output.range(of: "<integer>"))
    let end = try #require(output.range(of: "</integer>"))
    return String(output[start.upperBound..<end.lowerBound])
  }

  static func prefs(_ arguments: [String], file: URL) throws -> String {
    let result = try External.run(binary, ["read", file.path] + arguments)
    #expect(result.status == 0, "\(result.stderr)")
    return result.output.trimmingCharacters(in: .newlines)
  }

  @Test(arguments: [("x.plist", xml), ("t.plist", typedText)])
  func gettersAnswerWhatGNUstepAnswers(name: String, text: String) throws {
    let folder = try TemporaryFolder()
    let file = folder.file(name)
    try Data(text.utf8).write(to: file)
    let answers = try Self.getters(file)
    func getter(_ type: String) throws -> String {
      try Self.prefs(["k", "--as", type, "--dialect", "gnustep"], file: file)
    }
    #expect(try getter("object") == Self.object("k", file))
    let double = try #require(Double(try getter("double")))
    #expect(double == Double(try #require(answers["double"] as? String)))
    let float = try #require(Float(try getter("float")))
    #expect(float == Float(try #require(answers["float"] as? String)))
    // GNUstep's typed text wraps such an integer in integerForKey: (-1) where prefs clamps:
    // a deviation Docs/compatibility.md lists. From XML both clamp.
    if name == "x.plist" { #expect(try getter("integer") == answers["integer"] as? String) }
    // The whole domain through one getter: the same value for `k`.
    let lines = try Self.prefs(["--as", "double", "--dialect", "gnustep"], file: file)
    let line = try #require(lines.split(separator: "\n").first { $0.hasPrefix("k = ") })
    #expect(Double(line.dropFirst(4)) == double)
  }

  /// Clamped inside containers too, as `objectForKey:` returns them.
  @Test func clampedInsideAnArray() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("x.plist")
    try Data(Self.xml.utf8).write(to: file)
    let printed = try Self.prefs(["list", "--as", "object", "--dialect", "gnustep"], file: file)
    #expect(printed == "(\n    \(try Self.object("list", file))\n)")
  }
}
