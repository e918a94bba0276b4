import Foundation
import TestSupport
import Testing

/// One JSON writer, one key order: `read --json` (the property list as it is) and
/// `read --as object --json` (every key through the `object` getter) print a domain whose keys
/// sort differently by their UTF-8 bytes and as Swift compares strings (canonically: "e" +
/// U+0301 as "é", U+212B ANGSTROM SIGN as "Å") in the same order: by bytes, as CoreFoundation,
/// `plutil` and python's `json.dumps(sort_keys=True)` (code points, the order of UTF-8 bytes).
@Suite struct JSONKeyOrderTests {
  static let binary = External.product("prefs")

  @Test(.enabled(if: Tools.python || External.required, "needs python3 (the reference JSON)"))
  func readJSONAndReadAsObjectJSONPrintTheSameOrder() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("order.plist")
    // plistlib writes the domain in this (unsorted) order; json.dumps prints the expected text.
    let script = """
      import json, plistlib, sys
      keys = ["\\u00e9", "e\\u0301t", "f", "Z", "a", "\\u00df", "\\u212b", "\\U0001F600", "\\uff21"]
      d = {k: i for i, k in enumerate(keys)}
      plistlib.dump(d, open(sys.argv[1], "wb"), sort_keys=False)
      print(json.dumps(d, indent=2, ensure_ascii=False, sort_keys=True))
      """
    let python = try #require(External.which("python3"))
    let reference = try External.run(python, ["-c", script, file.path])
    try #require(reference.status == 0, "\(reference.stderr)")
    // What python printed, spelt out: "ét" (e + U+0301) before "f", "ß" before "Å" (U+212B),
    // each key with its place in the file.
    let expected: [(key: String, value: Int)] = [
      ("Z", 3), ("a", 4), ("e\u{301}t", 1), ("f", 2), ("\u{DF}", 5), ("\u{E9}", 0),
      ("\u{212B}", 6), ("\u{FF21}", 8), ("\u{1F600}", 7),
    ]
    let lines = expected.map { "  \"\($0.key)\": \($0.value)" }.joined(separator: ",\n")
    #expect(Array(reference.output.utf8) == Array("{\n\(lines)\n}\n".utf8))

    for arguments in [
      ["read", file.path, "--json"], ["read", file.path, "--as", "object", "--json"],
    ] {
      let result = try External.run(Self.binary, arguments)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      // Compared as bytes: String's == would take "e\u{301}t" for "ét".
      #expect(Array(result.output.utf8) == Array(reference.output.utf8), "\(arguments)")
    }
  }

  /// Two keys that differ only in Unicode normalization: `read --json` prints the file as it
  /// is, both keys in byte order (as plistlib reads the file: two keys); `read --as object`
  /// goes through the domain, whose dictionaries compare keys byte for byte as CoreFoundation
  /// does, and prints both too (compared as bytes: Swift's `String` would call them equal).
  @Test(.enabled(if: Tools.python || External.required, "needs python3 (plistlib writes the file)"))
  func twinKeysArePrintedByReadJSONAndByAGetter() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("twins.plist")
    let script = """
      import plistlib, sys
      plistlib.dump({"\\u00e9": 1, "e\\u0301": 2, "f": 3}, open(sys.argv[1], "wb"), sort_keys=False)
      """
    let python = try #require(External.which("python3"))
    let made = try External.run(python, ["-c", script, file.path])
    try #require(made.status == 0, "\(made.stderr)")
    let read = try External.run(Self.binary, ["read", file.path, "--json"])
    #expect(read.status == 0, "\(read.stderr)")
    let expected = "{\n  \"e\u{301}\": 2,\n  \"f\": 3,\n  \"\u{E9}\": 1\n}\n"
    #expect(Array(read.output.utf8) == Array(expected.utf8))
    let object = try External.run(Self.binary, ["read", file.path, "--as", "object", "--json"])
    #expect(object.status == 0, "\(object.stderr)")
    let bytes = Array(object.output.utf8)
    for member in ["\"e\u{301}\": 2", "\"\u{E9}\": 1"] {
      let wanted = Array(member.utf8)
      let found = bytes.indices.contains { bytes[$0...].starts(with: wanted) }
      #expect(found, "\(member) in \(object.output)")
    }
  }
}
