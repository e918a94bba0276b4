import Foundation
import PropertyList
import TestSupport
import Testing

/// Two keys that differ only in Unicode normalization: CoreFoundation and python's plistlib
/// keep both; a Swift dictionary cannot. Reading warns; every command that would write the
/// domain (convert, migrate, write) refuses with 65 naming both keys, and changes nothing.
@Suite struct IndistinctKeysTests {
  static let binary = External.product("prefs")

  @Test(.enabled(if: Tools.python || External.required, "needs python3 (plistlib writes the file)"))
  func twinKeysAreRefusedByEveryWriterAndKeptByNone() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("twins.plist")
    // plistlib, the reference, writes and reads back both keys.
    let script = """
      import plistlib, sys
      d = {"\\u00e9": 1, "e\\u0301": 2}
      plistlib.dump(d, open(sys.argv[1], "wb"))
      print(len(plistlib.load(open(sys.argv[1], "rb"))))
      """
    let python = try #require(External.which("python3"))
    let made = try External.run(python, ["-c", script, file.path])
    #expect(made.output == "2\n", "\(made.stderr)")
    let bytes = try Data(contentsOf: file)

    let document = try PropertyList.read(bytes)
    #expect(document.warnings.contains { if case .indistinctKeys = $0 { true } else { false } })

    let plan = folder.file("plan.json")
    try Data(#"{"plan": 1, "schemaVersion": 1, "keys": []}"#.utf8).write(to: plan)
    for arguments in [
      ["convert", file.path, "--to", "binary", "-o", folder.file("out.plist").path],
      ["migrate", "--plan", plan.path, "--to", folder.file("m.plist").path, file.path],
      ["write", file.path, "k", "v"],
    ] {
      let result = try External.run(Self.binary, arguments)
      #expect(result.status == 65, "\(arguments[0]): \(result.stderr)")
      #expect(
        result.stderr.contains("U+00E9") && result.stderr.contains("U+0301"), "\(result.stderr)")
    }
    #expect(try Data(contentsOf: file) == bytes)
    #expect(!FileManager.default.fileExists(atPath: folder.file("out.plist").path))
    #expect(!FileManager.default.fileExists(atPath: folder.file("m.plist").path))
  }
}
