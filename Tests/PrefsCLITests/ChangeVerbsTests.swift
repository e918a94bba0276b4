import Foundation
import PropertyList
import TestSupport
import Testing

/// `diff`, `watch` and `edit`: a domain's changes as values, printed as the `defaults`
/// commands that make them, and applied key by key under the domain's lock.
@Suite struct ChangeVerbsTests {
  static let binary = External.product("prefs")

  struct Scene {
    let folder: TemporaryFolder
    var config: URL { folder.file("config") }
    var environment: [String: String] { ["XDG_CONFIG_HOME": config.path, "TZ": "UTC"] }

    init() throws {
      folder = try TemporaryFolder()
      try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
    }

    func domain(_ name: String) -> URL { config.appendingPathComponent(name + ".plist") }

    func run(_ arguments: [String], extra: [String: String] = [:]) throws -> ProcessResult {
      try External.run(
        ChangeVerbsTests.binary, arguments, environment: environment.merging(extra) { $1 })
    }

    /// What python's plistlib reads from a domain file, as canonical JSON (an independent
    /// reader: dates and data as text, reals as Python prints them).
    func plistlib(_ name: String) throws -> String {
      let script = """
        import json, plistlib, sys, datetime, base64
        def plain(v):
            if isinstance(v, dict): return {k: plain(x) for k, x in v.items()}
            if isinstance(v, list): return [plain(x) for x in v]
            if isinstance(v, bytes): return "data:" + base64.b64encode(v).decode()
            if isinstance(v, datetime.datetime): return "date:" + v.isoformat()
            if isinstance(v, float): return "real:" + repr(v)
            if isinstance(v, bool): return "bool:" + str(v)
            if isinstance(v, int): return "int:" + str(v)
            return v
        with open(sys.argv[1], "rb") as f: print(json.dumps(plain(plistlib.load(f)), sort_keys=True))
        """
      let result = try External.run("/usr/bin/env", ["python3", "-c", script, domain(name).path])
      guard result.status == 0 else { throw TypedJSONError(description: result.stderr) }
      return result.output
    }
  }

  /// What real domains hold, from one state to another: every kind, nested containers,
  /// integers beyond 64 bits, non-finite and negative-zero reals, quotes and new lines. (Not
  /// the empty key: `defaults write` refuses it, as NSUserDefaults does.)
  static let before: PlistValue = [
    "same": "kept", "flag": true, "count": 1, "ratio": .real(0.1), "name": "Lucas",
    "list": [1, "a", ["nested": true]], "gone": "away", "blob": .data(Data([0, 1, 2])),
    "when": .date(Date(timeIntervalSinceReferenceDate: 420_000_000)),
  ]
  static let after: PlistValue = [
    "same": "kept", "flag": false, "count": -9_223_372_036_854_775_808,
    "big": .unsignedInteger(18_446_744_073_709_551_615), "ratio": .real(0.30000000000000004),
    "zero": .real(-0.0), "inf": .real(.infinity), "nan": .real(.nan),
    "name": "it's \"quoted\"\nand ünïcode ✓", "list": [1, "a", ["nested": false], []],
    "dict": [:], "blob": .data(Data((0..<40).map { UInt8($0) })),
    "when": .date(Date(timeIntervalSinceReferenceDate: 420_000_001)),
    "empty key": "",
  ]

  /// The printed commands, run by a shell through the `defaults` personality, turn A into B
  /// exactly (as python's plistlib reads both); the diff of the two is then empty. (A value
  /// with a line break is written in `$'…'` quoting, so that it prints no line of its own: bash,
  /// zsh and ksh read it; dash, Debian's /bin/sh, does not.)
  @Test(
    .enabled(if: Tools.python || External.required, "needs python3"),
    .enabled(if: External.which("bash") != nil, "needs bash"))
  func theCommandsADiffPrintsTurnOneDomainIntoTheOther() throws {
    let scene = try Scene()
    try PropertyList.write(Self.before, as: .binary).write(to: scene.domain("com.example.a"))
    try PropertyList.write(Self.after, as: .binary).write(to: scene.domain("com.example.b"))
    let diff = try scene.run(["diff", "com.example.a", "com.example.b"])
    #expect(diff.status == 1, "\(diff.stderr)")
    #expect(!diff.output.contains("same"), "an unchanged key is printed")
    let shell = "defaults() { \"$PREFS\" defaults \"$@\"; }\nset -e\n" + diff.output
    let applied = try External.run(
      try #require(External.which("bash")), ["-c", shell],
      environment: scene.environment.merging(["PREFS": Self.binary]) { $1 })
    #expect(applied.status == 0, "\(applied.stderr)")
    #expect(try scene.plistlib("com.example.a") == scene.plistlib("com.example.b"))
    let again = try scene.run(["diff", "com.example.a", "com.example.b"])
    #expect(again.status == 0 && again.output.isEmpty, "\(again.output)")
  }

  @Test func diffSaysWhatIsWrongWithItsInputs() throws {
    let scene = try Scene()
    try PropertyList.write(["k": 1], as: .xml).write(to: scene.domain("com.example.a"))
    try PropertyList.write([1, 2], as: .xml).write(to: scene.domain("com.example.list"))
    try Data("{ broken".utf8).write(to: scene.domain("com.example.bad"))
    let cases: [([String], Int32)] = [
      (["diff", "com.example.a", "com.example.a"], 0),
      (["diff", "com.example.a", "com.example.missing"], 66),
      (["diff", "com.example.a", "com.example.list"], 65),
      (["diff", "com.example.a", "com.example.bad"], 65),
      (["diff", "com.example.a"], 64),
    ]
    for (arguments, status) in cases {
      let result = try scene.run(arguments)
      #expect(result.status == status, "\(arguments): \(result.stderr)")
    }
  }

  /// Another process's changes, as they happen, as JSON lines (the domain file replaced
  /// atomically by prefs, and rewritten in place by python, as a legacy writer might).
  @Test(.enabled(if: Tools.python || External.required, "needs python3"))
  func watchPrintsAnotherProcesssChangesAsTheyHappen() throws {
    let scene = try Scene()
    let file = scene.domain("com.example.w")
    try PropertyList.write(["a": 1], as: .binary).write(to: file)
    let watch = Process()
    watch.executableURL = URL(fileURLWithPath: Self.binary)
    watch.arguments = ["watch", "com.example.w", "--json", "--count", "3"]
    watch.environment = ProcessInfo.processInfo.environment.merging(scene.environment) { $1 }
    let out = Pipe()
    watch.standardOutput = out
    try watch.run()
    usleep(700_000)
    #expect(try scene.run(["write", "com.example.w", "b", "-float", "2.5"]).status == 0)
    usleep(500_000)
    let rewrite = """
      import plistlib, sys
      d = plistlib.load(open(sys.argv[1], "rb")); del d["a"]; d["c"] = [True]
      open(sys.argv[1], "wb").write(plistlib.dumps(d))
      """
    #expect(try External.run("/usr/bin/env", ["python3", "-c", rewrite, file.path]).status == 0)
    let deadline = Date().addingTimeInterval(15)
    while watch.isRunning, Date() < deadline { usleep(50_000) }
    if watch.isRunning { watch.terminate() }
    watch.waitUntilExit()
    let lines = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      .split(separator: "\n").map(String.init)
    #expect(
      lines == [
        #"{"domain": "com.example.w", "key": "b", "change": "set", "old": null, "new": 2.5, "command": "defaults write com.example.w b -float 2.5", "revert": "defaults delete com.example.w b"}"#,
        #"{"domain": "com.example.w", "key": "a", "change": "removed", "old": 1, "new": null, "command": "defaults delete com.example.w a", "revert": "defaults write com.example.w a -int 1"}"#,
        #"{"domain": "com.example.w", "key": "c", "change": "set", "old": null, "new": [true], "command": "defaults write com.example.w c '<array><true/></array>'", "revert": "defaults delete com.example.w c"}"#,
      ], "\(lines)")
    #expect(watch.terminationStatus == 0)
  }

  @Test func watchingADomainThatDoesNotExistIsAnError() throws {
    let scene = try Scene()
    let result = try scene.run(["watch", "com.example.missing"])
    #expect(result.status == 1, "\(result.stderr)")
  }

  // MARK: - edit

  /// An editor: a shell script run as `$EDITOR FILE`.
  static func editor(_ scene: Scene, _ script: String) throws -> String {
    let path = scene.folder.file("editor.sh").path
    try Data(("#!/bin/sh\nset -e\n" + script).utf8).write(to: URL(fileURLWithPath: path))
    chmod(path, 0o755)
    return path
  }

  static let domain: PlistValue = ["keep": "me", "size": 5, "old": true, "other": "x"]

  @Test func anEditIsAppliedKeyByKey() throws {
    let scene = try Scene()
    try PropertyList.write(Self.domain, as: .binary).write(to: scene.domain("com.example.e"))
    // The editor changes size, removes old, adds new: as python's plistlib would.
    let editor = try Self.editor(
      scene,
      """
      python3 - "$1" <<'EOF'
      import plistlib, sys
      d = plistlib.load(open(sys.argv[1], "rb")); d["size"] = 6; del d["old"]; d["new"] = [1]
      open(sys.argv[1], "wb").write(plistlib.dumps(d))
      EOF
      """)
    let result = try scene.run(["edit", "com.example.e"], extra: ["EDITOR": editor, "VISUAL": ""])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      try PropertyList.read(Data(contentsOf: scene.domain("com.example.e"))).value
        == ["keep": "me", "size": 6, "other": "x", "new": [1]])
  }

  /// An editor that fails, or an edit that breaks the syntax (no terminal to ask on):
  /// nothing is written, and the error says where it broke.
  @Test(arguments: [
    ("exit 3", Int32(1), "status 3"),
    ("printf '<plist><dict><key>k</key>' > \"$1\"", 65, "line"),
    ("printf '(1, 2)' > \"$1\"", 65, "not a dictionary"),
  ])
  func aFailedEditChangesNothing(_ script: String, _ status: Int32, _ said: String) throws {
    let scene = try Scene()
    let file = scene.domain("com.example.e")
    try PropertyList.write(Self.domain, as: .binary).write(to: file)
    let before = try Data(contentsOf: file)
    let editor = try Self.editor(scene, script)
    let result = try scene.run(["edit", "com.example.e"], extra: ["EDITOR": editor])
    #expect(result.status == status, "\(result.stderr)")
    #expect(result.stderr.contains(said), "\(result.stderr)")
    #expect(try Data(contentsOf: file) == before)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: scene.config.path).sorted()
        == ["com.example.e.plist"])
  }

  /// Another writer changes the domain while the editor is open: a key it changed that the
  /// edit did not touch is kept; a key both changed keeps the other writer's value and is
  /// reported (exit 75); the edit's other keys are applied.
  @Test func aKeyAnotherWriterChangedMeanwhileIsKeptAndReported() throws {
    let scene = try Scene()
    try PropertyList.write(Self.domain, as: .binary).write(to: scene.domain("com.example.e"))
    let editor = try Self.editor(
      scene,
      """
      "$PREFS" write com.example.e other y
      "$PREFS" write com.example.e size -int 7
      sed -e 's|<integer>5</integer>|<integer>6</integer>|' -e 's|<string>me</string>|<string>you</string>|' "$1" > "$1.new"
      mv "$1.new" "$1"
      """)
    let result = try scene.run(
      ["edit", "com.example.e"], extra: ["EDITOR": editor, "PREFS": Self.binary])
    #expect(result.status == 75, "\(result.stderr)")
    #expect(result.stderr.contains("size: another writer changed it"), "\(result.stderr)")
    #expect(
      try PropertyList.read(Data(contentsOf: scene.domain("com.example.e"))).value
        == ["keep": "you", "size": 7, "old": true, "other": "y"])
  }

  @Test func editingADomainThatDoesNotExistIsAnError() throws {
    let scene = try Scene()
    let result = try scene.run(["edit", "com.example.missing"], extra: ["EDITOR": "true"])
    #expect(result.status == 1, "\(result.stderr)")
  }
}
