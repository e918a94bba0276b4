import Foundation
import PropertyList
import TestSupport
import Testing

/// `prefs write`, `delete` and `read --as/--dialect` end to end, on temporary files and on
/// domain names resolved under a temporary `XDG_CONFIG_HOME`.
@Suite struct DefaultsCommandTests {
  static let binary = External.product("prefs")

  static func prefs(_ arguments: [String], env: [String: String] = [:]) throws -> ProcessResult {
    try External.run(binary, arguments, environment: env)
  }

  @Test func writeEveryTypeThenReadItBack() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("d.plist").path
    let writes: [[String]] = [
      ["PREFS_SOUND_ENABLED", "-bool", "NO"], ["PREFS_RANKING_SIZE", "-int", "-12"],
      ["ratio", "-float", "0.5"], ["name", "-string", "-dash"],
      ["when", "-date", "2011-03-14 15:09:26 +0000"], ["blob", "-data", "0fbd7778"],
      ["list", "-array", "a", "b"], ["map", "-dict", "k", "v"], ["plain", "just text"],
      ["parsed", "(1, 2)"], ["big", "-int", "18446744073709551615"],
    ]
    for write in writes {
      let result = try Self.prefs(["write", file] + write)
      #expect(result.status == 0, "\(write): \(result.stderr)")
    }
    let value = try PropertyList.read(Data(contentsOf: URL(fileURLWithPath: file))).value
    #expect(
      value
        == [
          "PREFS_SOUND_ENABLED": false, "PREFS_RANKING_SIZE": -12, "ratio": 0.5, "name": "-dash",
          "when": .date(Date(timeIntervalSinceReferenceDate: 321_808_166)),
          "blob": .data(Data([0x0f, 0xbd, 0x77, 0x78])), "list": ["a", "b"], "map": ["k": "v"],
          "plain": "just text", "parsed": ["1", "2"], "big": .unsignedInteger(.max),
        ])
  }

  @Test func writeUsageErrors() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("d.plist").path
    for bad in [
      ["k", "-bool", "maybe"], ["k", "-int", "1.5"], ["k", "-data", "abc"], ["k"],
      ["k", "-date", "yesterday"], ["k", "-dict", "a"], ["", "-int", "1"],
    ] {
      let result = try Self.prefs(["write", file] + bad)
      #expect(result.status == 64, "\(bad)")
    }
    #expect(!FileManager.default.fileExists(atPath: file))
  }

  @Test func readAsEveryDialect() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("loose.plist")
    try PropertyList.write(
      ["sound": "YES", "size": " 12", "ratio": 5.7, "flag": "t"], as: .xml
    ).write(to: file)
    func read(_ args: String...) throws -> String {
      let result = try Self.prefs(["read", file.path] + args)
      #expect(result.status == 0, "\(args): \(result.stderr)")
      return result.output
    }
    #expect(try read("sound", "--as", "bool") == "true\n")
    #expect(try read("size", "--as", "integer") == "12\n")
    #expect(try read("ratio", "--as", "integer", "--json") == "5\n")
    #expect(try read("ratio", "--as", "string") == "5.7\n")
    #expect(try read("sound", "--as", "integer") == "0\n")
    #expect(try read("sound", "--as", "date", "--json") == "null\n")
    let all = try read("--as", "bool", "--json")
    let object = try JSONSerialization.jsonObject(with: Data(all.utf8)) as? [String: Bool]
    #expect(object == ["sound": true, "size": true, "ratio": true, "flag": false])
    #expect(try Self.prefs(["read", file.path, "size", "--as", "frob"]).status == 64)
    #expect(try Self.prefs(["read", file.path, "size", "--dialect", "frob"]).status == 64)
  }

  @Test func deleteAKeyAndTheWholeDomain() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("d.plist")
    try PropertyList.write(["a": 1, "b": 2], as: .binary).write(to: file)
    #expect(try Self.prefs(["delete", file.path, "a"]).status == 0)
    let after = try PropertyList.read(Data(contentsOf: file))
    #expect(after.value == ["b": 2])
    #expect(after.format == .binary)
    #expect(try Self.prefs(["delete", file.path, "a"]).status == 1)
    #expect(try Self.prefs(["delete", file.path]).status == 0)
    #expect(!FileManager.default.fileExists(atPath: file.path))
    #expect(try Self.prefs(["delete", file.path]).status == 1)
  }

  /// An empty domain is one thing however it became empty: deleting the last key removes the
  /// domain's file (as GNUstep's `defaults delete` does; CoreFoundation keeps no empty
  /// domain), and `defaults read` of a domain left
  /// empty, or of a file holding `{}`, says what it says of one that never existed (it printed
  /// `{ }` for the one and "does not exist" for the other).
  @Test(arguments: [["delete"], ["defaults", "delete"]])
  func anEmptyDomainIsNoDomainHoweverItBecameEmpty(_ delete: [String]) throws {
    let folder = try TemporaryFolder()
    let env = ["XDG_CONFIG_HOME": folder.url.path]
    let file = folder.file("com.x.plist").path
    #expect(try Self.prefs(["defaults", "write", "com.x", "a", "-int", "1"], env: env).status == 0)
    #expect(try Self.prefs(["defaults", "write", "com.x", "b", "-int", "2"], env: env).status == 0)
    #expect(try Self.prefs(delete + ["com.x", "a"], env: env).status == 0)
    #expect(FileManager.default.fileExists(atPath: file), "one key left: the file stays")
    #expect(try Self.prefs(delete + ["com.x", "b"], env: env).status == 0)
    #expect(!FileManager.default.fileExists(atPath: file), "the last key went: so did the file")
    let never = try Self.prefs(["defaults", "read", "com.never"], env: env)
    let emptied = try Self.prefs(["defaults", "read", "com.x"], env: env)
    #expect(emptied.status == 1 && never.status == 1)
    #expect(emptied.stderr == never.stderr.replacingOccurrences(of: "com.never", with: "com.x"))
    try Data("{}".utf8).write(to: URL(fileURLWithPath: file))
    let emptyFile = try Self.prefs(["defaults", "read", "com.x"], env: env)
    #expect(emptyFile.status == 1 && emptyFile.stderr == emptied.stderr, "\(emptyFile.stderr)")
  }

  /// CoreFoundation's `kCFPreferencesAnyApplication` is the global domain, not a domain of
  /// that name.
  @Test func kCFPreferencesAnyApplicationIsTheGlobalDomain() throws {
    let folder = try TemporaryFolder()
    let env = ["XDG_CONFIG_HOME": folder.url.path]
    let written = try Self.prefs(
      ["defaults", "write", "kCFPreferencesAnyApplication", "Zk", "-int", "3"], env: env)
    #expect(written.status == 0, "\(written.stderr)")
    #expect(try Self.prefs(["defaults", "read", "-g", "Zk"], env: env).output == "3\n")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
    #expect(!names.contains { $0.hasPrefix("kCFPreferencesAnyApplication") }, "\(names)")
  }

  @Test func domainNamesResolveUnderXDGConfigHome() throws {
    let folder = try TemporaryFolder()
    let env = ["XDG_CONFIG_HOME": folder.url.path]
    #expect(
      try Self.prefs(["write", "com.exmo.equizmo", "PREFS_RANKING_SIZE", "-int", "7"], env: env)
        .status == 0)
    #expect(FileManager.default.fileExists(atPath: folder.file("com.exmo.equizmo.plist").path))
    #expect(
      try Self.prefs(["read", "com.exmo.equizmo", "PREFS_RANKING_SIZE"], env: env).output == "7\n")
    #expect(try Self.prefs(["read", "no.such.domain"], env: env).status == 1)
    #expect(try Self.prefs(["delete", "com.exmo.equizmo"], env: env).status == 0)
  }

  @Test func writeMovesACorruptFileAsideAndSaysSo() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("bad.plist")
    try Data("{ unterminated".utf8).write(to: file)
    let result = try Self.prefs(["write", file.path, "k", "-int", "1"])
    #expect(result.status == 0)
    #expect(result.stderr.contains("moved to"))
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
    #expect(names.contains { $0.hasPrefix("bad.plist.corrupt-") })
    #expect(try PropertyList.read(Data(contentsOf: file)).value == ["k": 1])
  }
}
