import Foundation
import PropertyList
import TestSupport
import Testing

/// Two keys that differ only in Unicode normalization: CoreFoundation and python's plistlib
/// keep both, and so does every layer of prefs (keys compared by their bytes, from the file to
/// the store and back): reading warns; `convert` keeps both keys, `read` takes each by its
/// bytes, and every writer writes both back.
@Suite struct IndistinctKeysTests {
  static let binary = External.product("prefs")

  @Test(.enabled(if: Tools.python || External.required, "needs python3 (plistlib writes the file)"))
  func twinKeysAreKeptByEveryReaderAndWriter() throws {
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
    let out = folder.file("out.plist")
    let converted = try External.run(
      Self.binary, ["convert", file.path, "--to", "binary", "-o", out.path])
    #expect(converted.status == 0, "\(converted.stderr)")
    let check = try External.run(
      python,
      [
        "-c", "import plistlib, sys; print(sorted(plistlib.load(open(sys.argv[1], 'rb')).items()))",
        out.path,
      ])
    #expect(check.output == "[('e\u{301}', 2), ('\u{E9}', 1)]\n", "\(check.stderr)")
    // Reading one key takes it by its bytes, as CoreFoundation does: each twin its own value
    // (plistlib wrote 1 under U+00E9 and 2 under e + U+0301).
    for (key, expected) in [("\u{E9}", "1\n"), ("e\u{301}", "2\n")] {
      let read = try External.run(Self.binary, ["read", file.path, key])
      #expect(read.status == 0 && read.output == expected, "\(read.stderr)")
      let type = try External.run(Self.binary, ["read-type", file.path, key])
      #expect(type.output == "Type is integer\n", "\(type.stderr)")
    }
    // Every writer keeps both keys, each with its value, as plistlib reads the result (on
    // 5b46563 migrate and write refused the file with 65).
    // (python sorts the decomposed twin first, the precomposed one last.)
    func twins(_ middle: String) -> String { "[('e\u{301}', 2), \(middle), ('\u{E9}', 1)]" }
    let inPlace = folder.file("inplace.plist")
    try bytes.write(to: inPlace)
    let importPlist = folder.file("import.plist")
    try PropertyList.write(["k": "imported"], as: .xml).write(to: importPlist)
    let cases: [(arguments: [String], file: URL, expected: String)] = [
      (
        ["migrate", "--plan", plan.path, "--to", folder.file("m.plist").path, file.path],
        folder.file("m.plist"), twins("('prefs.schemaVersion', 1)")
      ),
      (
        ["migrate", "--plan", plan.path, "--in-place", inPlace.path], inPlace,
        twins("('prefs.schemaVersion', 1)")
      ),
      (["write", out.path, "k", "v"], out, twins("('k', 'v')")),
      (["import", out.path, importPlist.path], out, twins("('k', 'imported')")),
      (["defaults", "write", out.path, "k", "-int", "7"], out, twins("('k', 7)")),
      (["plutil", "-replace", "k", "-bool", "YES", out.path], out, twins("('k', True)")),
    ]
    for (arguments, result, expected) in cases {
      let run = try External.run(Self.binary, arguments)
      #expect(run.status == 0, "\(arguments[0]): \(run.stderr)")
      let read = try External.run(
        python,
        [
          "-c",
          "import plistlib, sys; print(sorted(plistlib.load(open(sys.argv[1], 'rb')).items()))",
          result.path,
        ])
      #expect(read.output == expected + "\n", "\(arguments): \(read.stderr)")
    }
  }
}
