import Foundation
import PropertyList
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `write` and `delete` for programs (the Ansible collection): `--key-path` into nested
/// values, `--dry-run`, the changes as JSON with the lines that make and undo them, and
/// `-array-union`, whose second run changes nothing. What a file holds is read by python's
/// plistlib; that a file was not written is its inode, modification time and bytes.
@Suite struct ChangeReportTests {
  static let binary = External.product("prefs")

  struct Scene {
    let folder: TemporaryFolder
    let file: URL

    init(_ value: PlistValue = ["size": 5, "window": ["frame": [0, 0, 640, 480]]]) throws {
      folder = try TemporaryFolder()
      file = folder.file("com.example.app.plist")
      try PropertyList.write(value, as: .binary).write(to: file)
    }

    func run(_ arguments: [String]) throws -> ProcessResult {
      try External.run(ChangeReportTests.binary, arguments)
    }

    /// The file's identity and contents: equal only if nothing replaced or changed it.
    func stamp() throws -> String {
      var info = stat()
      guard stat(file.path, &info) == 0 else { return "missing" }
      let bytes = try Data(contentsOf: file)
      return
        "\(info.st_ino) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) \(bytes.base64EncodedString())"
    }

    /// What plistlib reads, with each kind told apart (1, 1.0 and True differ).
    func plistlib() throws -> String {
      let script = """
        import json, plistlib, sys
        def exact(v):
            if isinstance(v, bool): return ["bool", v]
            if isinstance(v, int): return ["int", v]
            if isinstance(v, float): return ["real", repr(v)]
            if isinstance(v, list): return [exact(x) for x in v]
            if isinstance(v, dict): return {k: exact(x) for k, x in v.items()}
            return [type(v).__name__, str(v)]
        print(json.dumps(exact(plistlib.load(open(sys.argv[1], "rb"))), sort_keys=True))
        """
      let result = try External.run("/usr/bin/env", ["python3", "-c", script, file.path])
      guard result.status == 0 else { throw TypedJSONError(description: result.stderr) }
      return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
  }

  /// An equal value writes nothing and reports nothing; a dry run writes nothing and reports
  /// exactly what the write then does.
  @Test func anEqualValueAndADryRunWriteNothing() throws {
    let scene = try Scene()
    let before = try scene.stamp()
    let same = try scene.run(["write", "--json", scene.file.path, "size", "-int", "5"])
    #expect(same.status == 0 && same.output.isEmpty, "\(same.output) \(same.stderr)")
    #expect(try scene.stamp() == before, "an equal value rewrote the file")
    let dry = try scene.run(["write", "--dry-run", "--typed", scene.file.path, "size", "-int", "6"])
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(try scene.stamp() == before, "a dry run wrote the file")
    let real = try scene.run(["write", "--typed", scene.file.path, "size", "-int", "6"])
    #expect(real.output == dry.output && !real.output.isEmpty, "\(real.output) vs \(dry.output)")
    #expect(try scene.stamp() != before)
    let dryDelete = try scene.run(["delete", "--dry-run", "--json", scene.file.path, "size"])
    #expect(dryDelete.status == 0 && dryDelete.output.contains(#""change": "removed""#))
    let dryDomain = try scene.run(["delete", "--dry-run", scene.file.path])
    #expect(dryDomain.status == 0 && FileManager.default.fileExists(atPath: scene.file.path))
    let after = try scene.stamp()
    let missing = try scene.run(["delete", "--key-path", scene.file.path, "window.frame.9"])
    #expect(missing.status == 1, "\(missing.stderr)")
    #expect(try scene.stamp() == after, "a delete of nothing wrote the file")
  }

  /// `--key-path`: a missing dictionary on the way is made, an array's index replaced or
  /// appended at its count, a value removed; nothing else of the key changes.
  @Test(.enabled(if: Tools.python || External.required, "needs python3"))
  func keyPathsReachIntoNestedValues() throws {
    let scene = try Scene()
    let path = scene.file.path
    for words in [
      ["write", "--key-path", path, "window.frame.2", "-int", "1280"],
      ["write", "--key-path", path, "window.frame.4", "-float", "1.5"],
      ["write", "--key-path", path, "window.title\\.bar.shown", "-bool", "true"],
      ["delete", "--key-path", path, "window.frame.0"],
    ] {
      let result = try scene.run(words)
      #expect(result.status == 0, "\(words): \(result.stderr)")
    }
    #expect(
      try scene.plistlib()
        == #"{"size": ["int", 5], "window": {"frame": [["int", 0], ["int", 1280], ["int", 480], ["real", "1.5"]], "title.bar": {"shown": ["bool", true]}}}"#
    )
    let read = try scene.run(["read", path, "--key-path", "window.title\\.bar", "--typed"])
    #expect(read.output == "{\n  \"shown\": true\n}\n", "\(read.output)")
    let through = try scene.run(["write", "--key-path", path, "size.x", "-int", "1"])
    #expect(through.status != 0 && through.stderr.contains("size.x"), "\(through.stderr)")
  }

  /// `-array-union` adds what the array lacks, compared exactly (1, 1.0 and true are three
  /// elements), and adding again changes nothing; `-dict-add` merges.
  @Test(.enabled(if: Tools.python || External.required, "needs python3"))
  func arrayUnionAddsOnlyWhatIsMissing() throws {
    let scene = try Scene(["list": [1, "a"], "d": ["k": 1]])
    let path = scene.file.path
    let add = [
      "write", "--json", path, "list", "-array-union", "-int", "1", "-float", "1", "-bool", "true",
      "b",
    ]
    let first = try scene.run(add)
    #expect(first.status == 0 && !first.output.isEmpty, "\(first.stderr)")
    let stamp = try scene.stamp()
    let second = try scene.run(add)
    #expect(second.status == 0 && second.output.isEmpty, "\(second.output)")
    #expect(try scene.stamp() == stamp, "a second union wrote the file")
    #expect(
      try scene.run(["write", path, "d", "-dict-add", "k", "-int", "2", "j", "x"]).status == 0)
    #expect(
      try scene.plistlib()
        == #"{"d": {"j": ["str", "x"], "k": ["int", 2]}, "list": [["int", 1], ["str", "a"], ["real", "1.0"], ["bool", true], ["str", "b"]]}"#
    )
    let wrong = try scene.run(["write", path, "d", "-array-union", "x"])
    #expect(wrong.status == 64 && wrong.stderr.contains("is not an array"), "\(wrong.stderr)")
  }

  /// The report's lines are `defaults` commands: `command` run by the `defaults` personality
  /// makes the change, `revert` undoes it (plistlib reads the file as it was).
  @Test(.enabled(if: Tools.python || External.required, "needs python3"))
  func theReportsLinesMakeAndUndoTheChange() throws {
    let scene = try Scene()
    let original = try scene.plistlib()
    let dry = try scene.run([
      "write", "--key-path", "--dry-run", "--json", scene.file.path, "window.frame.1", "-json",
      #"{"$date": "2011-03-14T15:09:26Z"}"#,
    ])
    let change = try #require(
      try JSONSerialization.jsonObject(with: dry.stdout) as? [String: Any], "\(dry.output)")
    let command = try #require(change["command"] as? String)
    let revert = try #require(change["revert"] as? String)
    func shell(_ line: String) throws {
      let script = "defaults() { \"$PREFS\" defaults \"$@\"; }\nset -e\n" + line
      let result = try External.run(
        "/bin/sh", ["-c", script], environment: ["PREFS": ChangeReportTests.binary])
      #expect(result.status == 0, "\(line): \(result.stderr)")
    }
    try shell(command)
    #expect(try scene.plistlib().contains(#"["datetime", "2011-03-14 15:09:26"]"#))
    try shell(revert)
    #expect(try scene.plistlib() == original)
  }

  /// `--current-host` and `--host NAME` reach the ByHost domains `defaults -currentHost` and
  /// `-host NAME` do, never the domain of every host; the lines say so.
  @Test(
    .enabled(if: FileManager.default.fileExists(atPath: "/etc/machine-id"), "needs a machine ID"))
  func aHostsDomainsAreTheOnesDefaultsReaches() throws {
    let folder = try TemporaryFolder()
    let environment = ["XDG_CONFIG_HOME": folder.url.path]
    func run(_ words: [String]) throws -> ProcessResult {
      try External.run(Self.binary, words, environment: environment)
    }
    let write = try run([
      "--current-host", "write", "--json", "com.example.s", "clock", "-int", "1",
    ])
    #expect(write.status == 0, "\(write.stderr)")
    #expect(
      write.output.contains(#""command": "defaults -currentHost write com.example.s clock -int 1""#)
    )
    #expect(
      try run(["defaults", "-currentHost", "read", "com.example.s", "clock"]).output == "1\n")
    #expect(
      try run(["read", "com.example.s", "clock"]).status == 1, "the every-host domain was written")
    #expect(
      try run(["--host", "mini", "write", "com.example.s", "clock", "-int", "2"]).status == 0)
    #expect(
      try run(["defaults", "-host", "mini", "read", "com.example.s", "clock"]).output == "2\n")
    #expect(try run(["--current-host", "read", "com.example.s", "clock"]).output == "1\n")
  }
}
