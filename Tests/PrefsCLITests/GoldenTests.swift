import Foundation
import PropertyList
import TestSupport
import Testing

/// Golden transcripts of every verb in each personality: each scenario runs its command lines
/// in order (real processes) on a temporary preferences folder seeded with a sample domain,
/// and the transcript (each command, its exit status, standard output and standard error,
/// with the folder's path as `$TMP`) must equal `Golden/<scenario>.txt`.
/// PREFS_RECORD_GOLDEN=1 swift test --filter GoldenTests  re-records them.
@Suite struct GoldenTests {
  static let binary = External.product("prefs")
  static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Golden")

  struct Scenario: Sendable, CustomTestStringConvertible {
    var name: String
    /// Each line's words; the first is the program (`prefs`, `defaults`, `plutil`).
    var lines: [[String]]
    /// A command started before the lines, running while they do (`prefs watch … --count N`),
    /// its transcript last.
    var beside: [String]? = nil
    var testDescription: String { name }
  }

  /// The seeded domain, `com.example.app`.
  static let sample: PlistValue = [
    "name": "Lucas", "size": 5, "ratio": .real(0.5), "enabled": true,
    "colors": ["red", "green"], "window": ["x": 10, "y": 20],
    "launched": .date(Date(timeIntervalSinceReferenceDate: 420_000_000)),
    "token": .data(Data([0xCA, 0xFE])),
  ]

  static let scenarios: [Scenario] = [
    // From the defaults(1) manual page: "defaults write com.companyname.appname
    // "Default Color" '(255, 0, 0)'" and "… "Default Color" -array 255 0 0" both set an array
    // of the strings 255, 0 and 0; "defaults read com.apple.TextEdit" prints the domain.
    Scenario(
      name: "defaults-read-write",
      lines: [
        ["defaults", "read", "com.example.app"],
        ["defaults", "read", "com.example.app", "name"],
        ["defaults", "read", "com.example.app", "window"],
        ["defaults", "read-type", "com.example.app", "enabled"],
        ["defaults", "read-type", "com.example.app", "ratio"],
        ["defaults", "write", "com.example.app", "Default Color", "(255, 0, 0)"],
        ["defaults", "read", "com.example.app", "Default Color"],
        ["defaults", "write", "com.example.app", "Default Color", "-array", "255", "0", "0"],
        ["defaults", "read", "com.example.app", "Default Color"],
        ["defaults", "write", "com.example.app", "colors", "-array-add", "blue"],
        ["defaults", "write", "com.example.app", "window", "-dict-add", "w", "300"],
        ["defaults", "write", "com.example.app", "count", "-int", "3"],
        ["defaults", "write", "com.example.app", "flag", "-bool", "YES"],
        ["defaults", "write", "com.example.app", "when", "-date", "2011-03-14 15:09:26 +0000"],
        ["defaults", "read", "com.example.app"],
        ["defaults", "rename", "com.example.app", "count", "total"],
        ["defaults", "delete", "com.example.app", "total"],
        ["defaults", "write", "-g", "AppleLocale", "en_US"],
        ["defaults", "read", "NSGlobalDomain", "AppleLocale"],
        ["defaults", "domains"],
        ["defaults", "find", "lucas"],
        ["defaults", "export", "com.example.app", "-"],
        // As macOS: a boolean read alone is 1; literals and typed values inside -array and
        // -dict are values (the Dock's spacer tile is a dictionary); per-host domains.
        ["defaults", "read", "com.example.app", "enabled"],
        ["defaults", "read", "com.example.app", "ratio"],
        [
          "defaults", "write", "com.example.app", "persistent-apps", "-array-add",
          "{\"tile-type\"=\"spacer-tile\";}",
        ],
        [
          "defaults", "write", "com.example.app", "persistent-apps", "-array-add",
          "<dict><key>tile-type</key><string>small-spacer-tile</string></dict>",
        ],
        [
          "defaults", "write", "com.example.app", "FXInfoPanesExpanded", "-dict", "General",
          "-bool",
          "true", "OpenWith", "-bool", "true",
        ],
        [
          "defaults", "write", "com.example.app", "orderedItems", "-array", "-int", "1", "-float",
          "0",
        ],
        ["defaults", "read", "com.example.app", "persistent-apps"],
        ["defaults", "read-type", "com.example.app", "persistent-apps"],
        ["defaults", "read", "com.example.app"],
        ["defaults", "-currentHost", "write", "-g", "com.apple.mouse.tapBehavior", "-int", "1"],
        ["defaults", "-currentHost", "write", "com.apple.screensaver", "idleTime", "-int", "0"],
        ["defaults", "-currentHost", "read", "com.apple.screensaver"],
        ["defaults", "-currentHost", "read", "-g", "com.apple.mouse.tapBehavior"],
        ["defaults", "-currentHost", "domains"],
        [
          "defaults", "-host", "office-mac", "write", "com.apple.screensaver", "idleTime", "-int",
          "300",
        ],
        ["defaults", "-host", "office-mac", "read", "com.apple.screensaver", "idleTime"],
        ["defaults", "read", "com.apple.screensaver"],
      ]),
    Scenario(
      name: "defaults-errors",
      lines: [
        ["defaults", "read", "com.example.missing"],
        ["defaults", "read", "com.example.app", "missing"],
        ["defaults", "read-type", "com.example.app", "missing"],
        ["defaults", "delete", "com.example.missing"],
        ["defaults", "rename", "com.example.app", "missing", "other"],
        ["defaults", "find", "nothing-matches-this"],
        ["defaults", "write", "com.example.app", "k", "-int", "ten"],
        ["defaults", "write", "com.example.app", "{not a plist"],
        ["defaults", "frobnicate"],
        // Adding to a value of another type changes nothing, as macOS refuses it.
        ["defaults", "write", "com.example.app", "size", "-array-add", "6"],
        ["defaults", "write", "com.example.app", "k", "-array", "a", "-array", "b"],
        ["defaults", "write", "com.example.app", "k", "-dict", "General", "-bool"],
        ["defaults", "-host"],
      ]),
    // plutil(1): "-lint … check the named property list files for syntax errors" (the
    // default command), "-p … print property list in a human-readable fashion", key paths of
    // dot-separated keys and array indices.
    Scenario(
      name: "plutil",
      lines: [
        ["plutil", "-lint", "$TMP/com.example.app.plist"],
        ["plutil", "$TMP/com.example.app.plist"],
        ["plutil", "-p", "$TMP/com.example.app.plist"],
        ["plutil", "-type", "window.x", "$TMP/com.example.app.plist"],
        ["plutil", "-type", "colors", "$TMP/com.example.app.plist"],
        ["plutil", "-extract", "colors.1", "raw", "$TMP/com.example.app.plist"],
        [
          "plutil", "-extract", "window.x", "raw", "-expect", "integer",
          "$TMP/com.example.app.plist",
        ],
        ["plutil", "-extract", "ratio", "raw", "$TMP/com.example.app.plist"],
        ["plutil", "-extract", "window", "json", "-o", "-", "$TMP/com.example.app.plist"],
        ["plutil", "-extract", "window", "xml1", "-o", "-", "$TMP/com.example.app.plist"],
        [
          "plutil", "-extract", "window", "json", "-o", "$TMP/window.json",
          "$TMP/com.example.app.plist",
        ],
        // JSON is read where plutil reads a property list.
        ["plutil", "-p", "$TMP/window.json"],
        ["plutil", "-convert", "swift", "-o", "-", "$TMP/window.json"],
        ["plutil", "-convert", "objc", "-o", "-", "$TMP/window.json"],
        ["plutil", "-insert", "window.w", "-integer", "300", "$TMP/com.example.app.plist"],
        [
          "plutil", "-insert", "colors", "-string", "blue", "-append", "$TMP/com.example.app.plist",
        ],
        ["plutil", "-insert", "colors.0", "-string", "black", "$TMP/com.example.app.plist"],
        ["plutil", "-replace", "name", "-string", "Grijander", "$TMP/com.example.app.plist"],
        ["plutil", "-insert", "dotted\\.key", "-bool", "YES", "$TMP/com.example.app.plist"],
        [
          "plutil", "-insert", "json", "-json", "{\"a\": [1, 2.5, true]}",
          "$TMP/com.example.app.plist",
        ],
        ["plutil", "-remove", "token", "$TMP/com.example.app.plist"],
        ["plutil", "-p", "$TMP/com.example.app.plist"],
        ["plutil", "-convert", "json", "-r", "-o", "-", "$TMP/com.example.app.plist"],
        ["plutil", "-replace", "colors.0", "-string", "white", "$TMP/com.example.app.plist"],
        ["plutil", "-extract", "colors", "json", "-o", "-", "$TMP/com.example.app.plist"],
        ["plutil", "-extract", "name", "json", "-o", "-", "$TMP/com.example.app.plist"],
        ["plutil", "-create", "xml1", "$TMP/new.plist"],
        ["plutil", "-convert", "binary1", "$TMP/new.plist"],
        ["plutil", "-p", "$TMP/new.plist"],
        // Errors: exit 1 with plutil's message shape.
        ["plutil", "-extract", "nope", "raw", "$TMP/com.example.app.plist"],
        ["plutil", "-insert", "name", "-string", "again", "$TMP/com.example.app.plist"],
        ["plutil", "-remove", "nope.deeper", "$TMP/com.example.app.plist"],
        ["plutil", "-convert", "json", "-o", "-", "$TMP/dated.plist"],
        ["plutil", "-lint", "$TMP/missing.plist"],
        ["plutil", "-type", "window", "-expect", "array", "$TMP/com.example.app.plist"],
        ["plutil", "-insert", "n", "-integer", "ten", "$TMP/com.example.app.plist"],
        ["plutil", "-insert", "b", "-bool", "maybe", "$TMP/com.example.app.plist"],
        ["plutil", "-convert", "yaml", "$TMP/new.plist"],
        ["plutil"],
      ]),
    Scenario(
      name: "prefs-verbs",
      lines: [
        ["prefs", "read", "com.example.app"],
        ["prefs", "read", "com.example.app", "size", "--as", "string"],
        ["prefs", "read", "com.example.app", "window", "--json"],
        ["prefs", "write", "com.example.app", "size", "-int", "6"],
        ["prefs", "read-type", "com.example.app", "size"],
        ["prefs", "rename", "com.example.app", "size", "count"],
        ["prefs", "delete", "com.example.app", "count"],
        ["prefs", "lint", "com.example.app"],
        ["prefs", "convert", "com.example.app", "--to", "openstep"],
        ["prefs", "convert", "com.example.app", "--to", "gnustep"],
        ["prefs", "domains"],
        ["prefs", "find", "green"],
        ["prefs", "read", "com.example.missing"],
        ["prefs", "delete", "com.example.app", "missing"],
        ["prefs", "convert", "com.example.app", "--to", "json"],
        ["prefs", "frob"],
      ]),
    // A domain's changes as the defaults commands that make them: between two domains, and
    // as they happen.
    Scenario(
      name: "prefs-changes",
      lines: [
        ["prefs", "write", "com.example.copy", "name", "Lucas"],
        ["prefs", "write", "com.example.copy", "size", "-int", "5"],
        ["prefs", "diff", "com.example.copy", "com.example.app"],
        ["prefs", "diff", "com.example.app", "com.example.copy", "--json"],
        ["prefs", "diff", "com.example.app", "com.example.app"],
        ["prefs", "diff", "com.example.app", "com.example.missing"],
        // Each change apart from the next (`sleep`: the watch looks every 0.1 s).
        ["prefs", "write", "com.example.app", "size", "-int", "6"], ["sleep", "0.5"],
        ["prefs", "write", "com.example.app", "note", "it's 5 o'clock"], ["sleep", "0.5"],
        ["prefs", "defaults", "write", "com.example.app", "colors", "-array-add", "blue"],
        ["sleep", "0.5"], ["prefs", "delete", "com.example.app", "ratio"],
        ["prefs", "watch"],
      ],
      beside: ["prefs", "watch", "com.example.app", "--count", "4"]),
  ]

  static func transcript(_ scenario: Scenario) throws -> String {
    let folder = try TemporaryFolder()
    try PropertyList.write(sample, as: .xml).write(to: folder.file("com.example.app.plist"))
    try PropertyList.write(["d": .date(Date(timeIntervalSinceReferenceDate: 0))], as: .xml)
      .write(to: folder.file("dated.plist"))
    let link = folder.url.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: link, withIntermediateDirectories: true)
    for name in ["defaults", "plutil"] {
      try FileManager.default.createSymbolicLink(
        atPath: link.appendingPathComponent(name).path, withDestinationPath: binary)
    }
    var text = ""
    let environment = ["XDG_CONFIG_HOME": folder.url.path, "TZ": "UTC"]
    var beside: (process: Process, out: Pipe, err: Pipe)?
    if let words = scenario.beside {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: binary)
      process.arguments = Array(words.dropFirst())
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
      let out = Pipe()
      let err = Pipe()
      process.standardOutput = out
      process.standardError = err
      try process.run()
      // Its first look at the domain comes before the first line changes it.
      usleep(1_000_000)
      beside = (process, out, err)
    }
    for words in scenario.lines {
      if words.first == "sleep", let seconds = Double(words[1]) {
        usleep(UInt32(seconds * 1_000_000))
        continue
      }
      let program =
        words[0] == "prefs" ? binary : link.appendingPathComponent(words[0]).path
      let arguments = words.dropFirst().map {
        $0.replacingOccurrences(of: "$TMP", with: folder.url.path)
      }
      let result = try External.run(program, arguments, environment: environment)
      text += "$ " + words.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ") + "\n"
      text += "status: \(result.status)\n"
      if !result.stdout.isEmpty { text += "stdout:\n" + result.output }
      if !result.stderr.isEmpty { text += "stderr:\n" + result.stderr }
      if !text.hasSuffix("\n") { text += "\n" }
      text += "\n"
    }
    if let (process, out, err) = beside, let words = scenario.beside {
      let deadline = Date().addingTimeInterval(20)
      while process.isRunning, Date() < deadline { usleep(50_000) }
      if process.isRunning { process.terminate() }
      process.waitUntilExit()
      text += "$ " + words.joined(separator: " ") + "   (beside the lines above)\n"
      text += "status: \(process.terminationStatus)\n"
      let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      if !output.isEmpty { text += "stdout:\n" + output }
      if !errors.isEmpty { text += "stderr:\n" + errors }
      if !text.hasSuffix("\n") { text += "\n" }
    }
    return text.replacingOccurrences(of: folder.url.path, with: "$TMP")
  }

  @Test(arguments: scenarios)
  func transcriptMatchesTheGoldenFile(_ scenario: Scenario) throws {
    let text = try Self.transcript(scenario)
    let file = Self.golden.appendingPathComponent(scenario.name + ".txt")
    if ProcessInfo.processInfo.environment["PREFS_RECORD_GOLDEN"] == "1" {
      try Data(text.utf8).write(to: file)
      return
    }
    let expected = try String(contentsOf: file, encoding: .utf8)
    #expect(text == expected, "re-record with PREFS_RECORD_GOLDEN=1 if the change is meant")
  }
}
