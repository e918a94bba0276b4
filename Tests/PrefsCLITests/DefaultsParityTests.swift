import Foundation
import PropertyList
import TestSupport
import Testing

/// The `defaults` personality against macOS `defaults` (issue 23): what a `defaults write` line
/// stores (read back by python's plistlib, not by prefs), what `defaults read` prints, and
/// `-currentHost`/`-host`. No macOS runs here: the expected values are macOS's as defaults(1)
/// documents them and as its output reads in public transcripts (`"persistent-apps" =     (`).
@Suite struct DefaultsParityTests {
  static let binary = External.product("prefs")

  /// A sandbox: a preferences folder and the binary linked as `defaults`.
  struct Sandbox {
    let folder: TemporaryFolder
    var preferences: URL { folder.url.appendingPathComponent("prefs") }

    init() throws {
      folder = try TemporaryFolder()
      try FileManager.default.createSymbolicLink(
        atPath: folder.file("defaults").path, withDestinationPath: DefaultsParityTests.binary)
    }

    @discardableResult
    func defaults(_ arguments: [String]) throws -> ProcessResult {
      try External.run(
        folder.file("defaults").path, arguments,
        environment: ["XDG_CONFIG_HOME": preferences.path, "TZ": "UTC"])
    }

    /// The value of `key` in the file at `path`, as python's plistlib reads it, as JSON
    /// (bytes as `{"data": hex}`, dates as `{"date": ISO 8601}`, booleans apart from numbers).
    func stored(_ key: String, in path: String) throws -> String {
      let script = """
        import json, plistlib, sys, datetime
        def plain(v):
            if isinstance(v, bool): return {"bool": v}
            if isinstance(v, bytes): return {"data": v.hex()}
            if isinstance(v, datetime.datetime): return {"date": v.isoformat()}
            if isinstance(v, float): return {"real": v}
            if isinstance(v, list): return [plain(x) for x in v]
            if isinstance(v, dict): return {k: plain(x) for k, x in v.items()}
            return v
        with open(sys.argv[1], 'rb') as f: print(json.dumps(plain(plistlib.load(f).get(sys.argv[2])), sort_keys=True))
        """
      let result = try External.run("/usr/bin/env", ["python3", "-c", script, path, key])
      #expect(result.status == 0, "\(result.stderr)")
      return result.output.trimmingCharacters(in: .newlines)
    }

    func domainFile(_ name: String) -> String {
      preferences.appendingPathComponent(name + ".plist").path
    }
  }

  /// Lines of the kind a widely copied macOS set-up script writes (written here for the test),
  /// and what macOS stores for each: typed values inside `-dict` and `-dict-add`, property-list
  /// literals inside `-array` and `-array-add` (the Dock's spacer tile, XML and OpenStep), an
  /// empty array literal.
  @Test(
    .enabled(if: Tools.python || External.required, "needs python3"),
    arguments: [
      (
        [
          "com.apple.finder", "FXInfoPanesExpanded", "-dict", "General", "-bool", "true",
          "Privileges", "-bool", "true",
        ],
        #"{"General": {"bool": true}, "Privileges": {"bool": true}}"#
      ),
      (
        [
          "com.apple.mail", "DraftsViewerAttributes", "-dict-add", "SortOrder", "-string",
          "received-date",
        ],
        #"{"SortOrder": "received-date"}"#
      ),
      (
        ["com.apple.dock", "persistent-apps", "-array-add", #"{"tile-type"="spacer-tile";}"#],
        #"[{"tile-type": "spacer-tile"}]"#
      ),
      (
        [
          "com.apple.dock", "persistent-others", "-array",
          "<dict><key>tile-data</key><dict><key>list-type</key><integer>1</integer></dict></dict>",
        ],
        #"[{"tile-data": {"list-type": 1}}]"#
      ),
      (
        ["com.apple.spotlight", "orderedItems", "-array", #"{"enabled" = 1;"name" = "PDF";}"#],
        #"[{"enabled": "1", "name": "PDF"}]"#
      ),
      (["com.apple.Safari", "ProxiesInBookmarksBar", "()"], "[]"),
      (["com.apple.terminal", "StringEncodings", "-array", "4"], #"["4"]"#),
      (
        ["com.example.mixed", "list", "-array", "-int", "1", "-float", "0.5", "x"],
        #"[1, {"real": 0.5}, "x"]"#
      ),
    ])
  func writeStoresWhatMacOSStores(_ line: [String], _ expected: String) throws {
    let sandbox = try Sandbox()
    let result = try sandbox.defaults(["write"] + line)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try sandbox.stored(line[1], in: sandbox.domainFile(line[0])) == expected)
  }

  /// `-array-add` appends, `-dict-add` merges (the new value winning); onto a value of another
  /// type both are refused with macOS's words, and nothing changes.
  @Test(.enabled(if: Tools.python || External.required, "needs python3"))
  func addingAppendsMergesOrRefuses() throws {
    let sandbox = try Sandbox()
    let file = sandbox.domainFile("com.example.add")
    for line in [
      ["list", "-array", "a"], ["list", "-array-add", "-int", "2", "(x, y)"],
      ["map", "-dict", "k", "v", "n", "-int", "1"], ["map", "-dict-add", "k", "-bool", "no"],
      ["number", "-int", "7"],
    ] {
      let result = try sandbox.defaults(["write", "com.example.add"] + line)
      #expect(result.status == 0, "\(line): \(result.stderr)")
    }
    #expect(try sandbox.stored("list", in: file) == #"["a", 2, ["x", "y"]]"#)
    #expect(try sandbox.stored("map", in: file) == #"{"k": {"bool": false}, "n": 1}"#)
    for flag in ["-array-add", "-dict-add"] {
      let refused = try sandbox.defaults(["write", "com.example.add", "number", flag, "x", "y"])
      #expect(refused.status == 64)
      let wanted = flag == "-array-add" ? "an array" : "a dictionary"
      #expect(
        refused.stderr.hasPrefix(
          "Value for key number is not \(wanted); cannot append.  Leaving defaults unchanged."))
    }
    #expect(try sandbox.stored("number", in: file) == "7")
  }

  /// defaults(1) does not nest `-array` or `-dict` (a nested value is a literal); a `-dict`
  /// key must be a string, and every key needs its value.
  @Test func malformedCompositesAreRefused() throws {
    let sandbox = try Sandbox()
    for line in [
      ["k", "-array", "a", "-array", "b"], ["k", "-dict", "a", "-dict", "b", "c"],
      ["k", "-dict", "-int", "1", "v"], ["k", "-dict", "a", "v", "b"], ["k", "-array", "-int"],
    ] {
      let result = try sandbox.defaults(["write", "com.example.bad"] + line)
      #expect(result.status == 64, "\(line)")
    }
    #expect(!FileManager.default.fileExists(atPath: sandbox.domainFile("com.example.bad")))
  }

  /// A domain written by python's plistlib, printed as macOS prints it: containers indented
  /// by depth (a container value starts after `key = ` with its own indent), keys and strings
  /// bare only when alphanumeric, reals as `%.16g` (a real zero is `0`), booleans `1`/`0`,
  /// non-ASCII as `\\Uxxxx`, data in full up to 24 bytes.
  @Test(.enabled(if: Tools.python || External.required, "needs python3"))
  func readPrintsAsMacOSPrints() throws {
    let sandbox = try Sandbox()
    try FileManager.default.createDirectory(
      at: sandbox.preferences, withIntermediateDirectories: true)
    let script = """
      import plistlib, sys, datetime
      value = {
          "autohide": True, "autohide-delay": 0.0, "tilesize": 52, "ratio": 0.5, "x": -1,
          "orientation": "bottom", "loc": "en_US:BR", "label": "Safari\\u6d4f", "empty": "",
          "recent-apps": [], "quote": 'a"b\\\\c',
          "persistent-apps": [{"GUID": 1234, "tile-data": {"file-label": "Safari"}}],
          "token": b"\\xca\\xfe", "book": bytes(range(25)),
          "when": datetime.datetime(2014, 4, 24, 2, 40, 0, 250000),
      }
      with open(sys.argv[1], "wb") as f: plistlib.dump(value, f, fmt=plistlib.FMT_BINARY)
      """
    let made = try External.run(
      "/usr/bin/env", ["python3", "-c", script, sandbox.domainFile("com.example.dock")])
    #expect(made.status == 0, "\(made.stderr)")
    let read = try sandbox.defaults(["read", "com.example.dock"])
    #expect(read.status == 0, "\(read.stderr)")
    #expect(
      read.output == #"""
        {
            autohide = 1;
            "autohide-delay" = 0;
            book = {length = 25, bytes = 0x00010203 04050607 08090a0b 0c0d0e0f ... 11121314 15161718 };
            empty = "";
            label = "Safari\\U6d4f";
            loc = "en_US:BR";
            orientation = bottom;
            "persistent-apps" =     (
                        {
                    GUID = 1234;
                    "tile-data" =             {
                        "file-label" = Safari;
                    };
                }
            );
            quote = "a\"b\\c";
            ratio = "0.5";
            "recent-apps" =     (
            );
            tilesize = 52;
            token = {length = 2, bytes = 0xcafe};
            when = "2014-04-24 02:40:00 +0000";
            x = "-1";
        }

        """#)
    // One key: scalars bare (a boolean is 1, as scripts test `= 1`), containers as above.
    for (key, expected) in [
      ("autohide", "1"), ("label", "Safari\u{6d4f}"), ("ratio", "0.5"), ("autohide-delay", "0"),
      ("when", "2014-04-24 02:40:00 +0000"), ("recent-apps", "(\n)"),
      (
        "persistent-apps",
        "(\n        {\n        GUID = 1234;\n        \"tile-data\" =         {\n            \"file-label\" = Safari;\n        };\n    }\n)"
      ),
    ] {
      let one = try sandbox.defaults(["read", "com.example.dock", key])
      #expect(one.output == expected + "\n", "\(key)")
    }
    let found = try sandbox.defaults(["find", "bottom"])
    #expect(
      found.output == "Found 1 keys in domain 'com.example.dock': {\n    orientation = bottom;\n}\n"
    )
  }

  /// `-currentHost`: the domain of this machine, `ByHost/<domain>.<machine ID as a UUID>.plist`
  /// as macOS keeps `ByHost/<domain>.<hardware UUID>.plist`; `-host NAME`: NAME's.
  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: "/etc/machine-id") || External.required,
      "needs /etc/machine-id (systemd)"))
  func currentHostIsTheMachinesByHostDomain() throws {
    let sandbox = try Sandbox()
    // systemd's machine ID, as the UUID macOS names ByHost files with.
    let id = try String(contentsOfFile: "/etc/machine-id", encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
    let uuid = [
      id.prefix(8), id.dropFirst(8).prefix(4), id.dropFirst(12).prefix(4),
      id.dropFirst(16).prefix(4), id.dropFirst(20),
    ].joined(separator: "-")
    let byHost = sandbox.preferences.appendingPathComponent("ByHost")
    #expect(
      try sandbox.defaults([
        "-currentHost", "write", "-g", "com.apple.mouse.tapBehavior", "-int", "1",
      ]).status == 0)
    #expect(
      try sandbox.defaults([
        "-currentHost", "write", "com.apple.screensaver", "idleTime", "-int", "0",
      ]).status == 0)
    #expect(
      try sandbox.defaults([
        "-host", "other", "write", "com.apple.screensaver", "idleTime", "-int", "5",
      ]).status == 0)
    let files = try FileManager.default.contentsOfDirectory(atPath: byHost.path)
      .filter { $0.hasSuffix(".plist") }.sorted()
    #expect(
      files == [
        ".GlobalPreferences.\(uuid).plist", "com.apple.screensaver.\(uuid).plist",
        "com.apple.screensaver.other.plist",
      ])
    // Nothing in the every-host domains.
    #expect(try sandbox.defaults(["read", "com.apple.screensaver"]).status == 1)
    #expect(
      try sandbox.defaults(["-currentHost", "read", "com.apple.screensaver", "idleTime"]).output
        == "0\n")
    #expect(
      try sandbox.defaults(["-host", "other", "read", "com.apple.screensaver", "idleTime"]).output
        == "5\n")
    #expect(try sandbox.defaults(["-currentHost", "domains"]).output == "com.apple.screensaver\n")
    #expect(try sandbox.defaults(["-host"]).status == 64)
  }
}
