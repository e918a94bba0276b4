import Foundation
import PropertyList
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `prefs write --values FILE DOMAIN`: many keys in one process and one locked write, each
/// value typed by the command line's one set of rules (what the Ansible collection's
/// `values:` hands prefs, and its one-key tasks too). What a file holds is read by python's
/// plistlib; that a file was not written is its inode, modification time and bytes; how many
/// times it was written, strace's count of the renames that replace it.
@Suite struct WriteValuesTests {
  static let binary = External.product("prefs")

  struct Scene {
    let folder: TemporaryFolder
    var config: URL { folder.file("config") }
    var file: URL { config.appendingPathComponent("com.example.app.plist") }

    init(_ value: PlistValue? = ["size": 5, "window": ["frame": [0, 0, 640, 480]]]) throws {
      folder = try TemporaryFolder()
      try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
      if let value { try PropertyList.write(value, as: .binary).write(to: file) }
    }

    func run(_ arguments: [String], input: String? = nil) throws -> ProcessResult {
      try External.run(
        WriteValuesTests.binary, arguments, input: input.map { Data($0.utf8) },
        environment: ["XDG_CONFIG_HOME": config.path])
    }

    /// `write --values - com.example.app` with `json` on standard input, and `flags` first.
    func values(_ json: String, _ flags: [String] = []) throws -> ProcessResult {
      try run(["write"] + flags + ["--values", "-", "com.example.app"], input: json)
    }

    func stamp() throws -> String {
      var info = stat()
      guard stat(file.path, &info) == 0 else { return "missing" }
      let bytes = try Data(contentsOf: file)
      return
        "\(info.st_ino) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) \(bytes.base64EncodedString())"
    }

    /// What plistlib reads, each kind told apart (1, 1.0 and True differ; a date as UTC
    /// ISO 8601 text, data as hex).
    func plistlib() throws -> [String: String] {
      let script = """
        import json, plistlib, sys, datetime
        def exact(v):
            if isinstance(v, bool): return "bool " + str(v)
            if isinstance(v, int): return "int " + str(v)
            if isinstance(v, float): return "real " + repr(v)
            if isinstance(v, bytes): return "data " + v.hex()
            if isinstance(v, datetime.datetime): return "date " + v.isoformat()
            if isinstance(v, str): return "string " + v
            return type(v).__name__ + " " + json.dumps(v, sort_keys=True, default=str)
        d = plistlib.load(open(sys.argv[1], "rb"))
        print(json.dumps({k: exact(x) for k, x in d.items()}, sort_keys=True))
        """
      let result = try External.run("/usr/bin/env", ["python3", "-c", script, file.path])
      guard result.status == 0 else { throw TypedJSONError(description: result.stderr) }
      return try JSONDecoder().decode([String: String].self, from: Data(result.output.utf8))
    }
  }

  /// Each assignment, and what python's plistlib must read (the rules of `prefs write
  /// --help`: a string value is the type flag's word; another value must be of the type).
  static let cases: [(String, String)] = [
    (#"{"key": "flag", "value": true}"#, "bool True"),
    (#"{"key": "count", "value": 12}"#, "int 12"),
    (#"{"key": "ratio", "value": 0.1}"#, "real 0.1"),
    (#"{"key": "whole", "value": 3.0}"#, "real 3.0"),
    (#"{"key": "name", "value": "it's ✓"}"#, "string it's ✓"),
    (#"{"key": "quota", "type": "int", "value": "8589934592"}"#, "int 8589934592"),
    (
      #"{"key": "lowest", "type": "integer", "value": -9223372036854775808}"#,
      "int -9223372036854775808"
    ),
    (#"{"key": "top", "value": 18446744073709551615}"#, "int 18446744073709551615"),
    (#"{"key": "asreal", "type": "float", "value": 7}"#, "real 7.0"),
    (#"{"key": "word", "type": "real", "value": "2.5"}"#, "real 2.5"),
    (#"{"key": "yes", "type": "bool", "value": "YES"}"#, "bool True"),
    (#"{"key": "no", "type": "boolean", "value": "no"}"#, "bool False"),
    (#"{"key": "one", "type": "bool", "value": 1}"#, "bool True"),
    (#"{"key": "digits", "type": "string", "value": 1234}"#, "string 1234"),
    (#"{"key": "text", "type": "string", "value": "12"}"#, "string 12"),
    (
      #"{"key": "zulu", "type": "date", "value": "2011-03-14T15:09:26Z"}"#,
      "date 2011-03-14T15:09:26"
    ),
    (
      #"{"key": "offset", "type": "date", "value": "2011-03-14T16:09:26+01:00"}"#,
      "date 2011-03-14T15:09:26"
    ),
    (
      #"{"key": "west", "type": "date", "value": "2011-03-14 10:09:26-0500"}"#,
      "date 2011-03-14T15:09:26"
    ),
    (
      #"{"key": "gnustep", "type": "date", "value": "2011-03-14 15:09:26 +0000"}"#,
      "date 2011-03-14T15:09:26"
    ),
    (
      #"{"key": "naive", "type": "date", "value": "2014-04-24 02:40:00"}"#,
      "date 2014-04-24T02:40:00"
    ),
    (#"{"key": "day", "type": "date", "value": "2014-04-24"}"#, "date 2014-04-24T00:00:00"),
    (
      #"{"key": "tagged", "value": {"$date": "2011-03-14T16:09:26+01:00"}}"#,
      "date 2011-03-14T15:09:26"
    ),
    (#"{"key": "blob", "type": "data", "value": "AAEC\n/w=="}"#, "data 000102ff"),
    (#"{"key": "token", "value": {"$data": "yv4="}}"#, "data cafe"),
    (#"{"key": "list", "type": "array", "value": [1, "a"]}"#, #"list [1, "a"]"#),
    (#"{"key": "settings", "type": "dict", "value": {"$date": "x"}}"#, #"dict {"$date": "x"}"#),
    (#"{"key": ["window", "frame", 2], "value": 1440}"#, #"dict {"frame": [0, 0, 1440, 480]}"#),
    (#"{"key": "langs", "add": "array-union", "value": ["pt-BR"]}"#, #"list ["pt-BR"]"#),
  ]

  @Test(.enabled(if: Tools.python || External.required, "needs python3"))
  func everyAssignmentIsTypedByTheCommandLinesRules() throws {
    let scene = try Scene()
    let json = "[" + Self.cases.map(\.0).joined(separator: ",\n") + "]"
    let result = try scene.values(json, ["--typed"])
    #expect(result.status == 0, "\(result.stderr)")
    let read = try scene.plistlib()
    for (assignment, expected) in Self.cases {
      let key = try #require(
        (try JSONSerialization.jsonObject(with: Data(assignment.utf8)) as? [String: Any])?["key"])
      let name = (key as? String) ?? ((key as? [Any])?.first as? String) ?? ""
      #expect(read[name] == expected, "\(assignment): plistlib read \(read[name] ?? "nothing")")
    }
    #expect(read["size"] == "int 5")
    // One change a top-level key, in the keys' order; the key path's is the whole key.
    let changed = result.output.split(separator: "\n").compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["key"] as? String
    }
    #expect(changed.count == Self.cases.count)
    #expect(changed == changed.sorted())
  }

  /// Idempotent: the same assignments again print nothing and write nothing; a dry run prints
  /// what the write then does, and writes nothing.
  @Test func againNothingIsWrittenAndADryRunWritesNothing() throws {
    let scene = try Scene()
    let json = #"[{"key": "size", "value": 6}, {"key": "name", "type": "string", "value": 7}]"#
    let before = try scene.stamp()
    let dry = try scene.values(json, ["--dry-run", "--typed"])
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(try scene.stamp() == before)
    let wet = try scene.values(json, ["--typed"])
    #expect(wet.status == 0, "\(wet.stderr)")
    #expect(wet.output == dry.output)
    #expect(wet.output.contains(#""key": "size", "change": "set", "old": 5, "new": 6"#))
    let written = try scene.stamp()
    #expect(written != before)
    let again = try scene.values(json, ["--typed"])
    #expect(again.status == 0 && again.output.isEmpty, "\(again.output)")
    #expect(try scene.stamp() == written)
  }

  /// Forty keys are one write: strace counts one rename over the domain file (and one lock).
  @Test(.enabled(if: External.which("strace") != nil, "needs strace"))
  func fortyKeysAreOneWrite() throws {
    let scene = try Scene()
    let json =
      "["
      + (0..<40).map { #"{"key": "k\#($0)", "type": "int", "value": "\#($0)"}"# }
      .joined(separator: ",") + "]"
    let input = scene.folder.file("values.json")
    try Data(json.utf8).write(to: input)
    let trace = scene.folder.file("trace")
    let strace = try #require(External.which("strace"))
    let result = try External.run(
      strace,
      [
        "-f", "-qq", "-o", trace.path, "-e", "trace=rename,renameat,renameat2", Self.binary,
        "write", "--values", input.path, scene.file.path,
      ])
    #expect(result.status == 0, "\(result.stderr)")
    let renames = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n")
      .filter { $0.contains("\"com.example.app.plist\"") && !$0.contains("= -1") }
    #expect(renames.count == 1, "\(renames)")
    #expect(try scene.plistlib().count == 42)
  }

  /// Refused before the lock: the first assignment that is not one is named (its place and
  /// key), the exit is 65, and nothing is written (not even the good ones before it).
  static let refused: [(String, String)] = [
    (#"{"key": "a"}"#, #"[1] "a": no value"#),
    (#"{"key": "a", "vaule": 1}"#, "unknown member vaule"),
    (#"{"key": "a", "type": "int", "value": "twelve"}"#, "-int takes a 64-bit integer, not twelve"),
    (#"{"key": "a", "type": "int", "value": 1.5}"#, "type integer takes an integer"),
    (#"{"key": "a", "type": "integer", "value": true}"#, "type integer takes an integer"),
    (#"{"key": "a", "type": "string", "value": false}"#, "type string takes text (quote it)"),
    (#"{"key": "a", "type": "bool", "value": 2}"#, "type bool takes"),
    (#"{"key": "a", "type": "float", "value": "1e400"}"#, "within a double's range"),
    (#"{"key": "a", "type": "date", "value": "yesterday"}"#, "-date takes"),
    (#"{"key": "a", "type": "data", "value": "not base64!"}"#, "base64"),
    (#"{"key": "a", "type": "dict", "value": [1]}"#, "a JSON object"),
    (#"{"key": "a", "type": "money", "value": 1}"#, "unknown type money"),
    (#"{"key": "a", "value": [1, null]}"#, "null is not a property-list value"),
    (#"{"key": "a", "value": 18446744073709551616}"#, "an integer beyond 64 bits"),
    (#"{"key": false, "value": 1}"#, "quote it"),
    (
      #"{"key": "a", "add": "append", "value": [1]}"#,
      "add takes array-add, array-union or dict-add"
    ),
    (#"{"key": "a", "add": "dict-add", "value": [1]}"#, "takes a dictionary of what to add"),
  ]

  @Test(arguments: refused)
  func aValueThatIsNotOneIsRefusedAndNothingIsWritten(assignment: String, words: String) throws {
    let scene = try Scene()
    let before = try scene.stamp()
    let result = try scene.values(#"[{"key": "size", "value": 9}, "# + assignment + "]")
    #expect(result.status == 65, "\(result.stderr)")
    // Named by its place, or (JSON that does not parse) by its byte.
    #expect(
      result.stderr.contains("standard input: [1]")
        || result.stderr.contains("standard input: not JSON"), "\(result.stderr)")
    #expect(result.stderr.contains(words), "\(result.stderr)")
    #expect(try scene.stamp() == before)
  }

  /// `--same-type` refuses to replace a value of another type (64, nothing written), for
  /// `--values` and for one KEY; without it the value is replaced.
  @Test func sameTypeRefusesAnotherType() throws {
    let scene = try Scene()
    let before = try scene.stamp()
    let batch = try scene.values(
      #"[{"key": "new", "value": 1}, {"key": "size", "value": "five"}]"#, ["--same-type"])
    #expect(batch.status == 64)
    #expect(
      batch.stderr.contains("the key size holds an integer, not a string"), "\(batch.stderr)")
    let one = try scene.run(["write", "--same-type", "com.example.app", "size", "-float", "5"])
    #expect(one.status == 64)
    #expect(try scene.stamp() == before)
    let same = try scene.run(["write", "--same-type", "com.example.app", "size", "-int", "6"])
    #expect(same.status == 0, "\(same.stderr)")
    let replaced = try scene.values(#"[{"key": "size", "value": "five"}]"#)
    #expect(replaced.status == 0, "\(replaced.stderr)")
  }

  /// The words around it: `--values` with a KEY, or twice, or with `--key-path`, is a usage
  /// error; a missing file is 66; a values file that is not an array is 65.
  @Test func theWordsAroundIt() throws {
    let scene = try Scene()
    let file = scene.folder.file("v.json")
    try Data("[]".utf8).write(to: file)
    let withKey = try scene.run(["write", "--values", file.path, "com.example.app", "size"])
    #expect(withKey.status == 64, "\(withKey.stderr)")
    let twice = try scene.run([
      "write", "--values", file.path, "--values", file.path, "com.example.app",
    ])
    #expect(twice.status == 64)
    let keyPath = try scene.run(["write", "--key-path", "--values", file.path, "com.example.app"])
    #expect(keyPath.status == 64)
    let missing = try scene.run(["write", "--values", file.path + ".nope", "com.example.app"])
    #expect(missing.status == 66, "\(missing.stderr)")
    let object = try scene.values(#"{"size": 1}"#)
    #expect(object.status == 65 && object.stderr.contains("not a JSON array"), "\(object.stderr)")
    let empty = try scene.run(["write", "--values", file.path, "com.example.app"])
    #expect(empty.status == 0 && empty.output.isEmpty, "\(empty.stderr)")
    let help = try scene.run(["write", "--help"])
    #expect(help.output.contains("--values VALUES"))
  }
}
