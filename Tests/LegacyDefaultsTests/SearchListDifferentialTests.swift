import Foundation
import LegacyDefaults
import PropertyList
import TestSupport
import Testing

/// Which domain answers, against GNUstep Base itself: scenarios where the argument,
/// application, global and registration domains collide on one key, with reads and
/// `dictionaryRepresentation` before and after each kind of mutation. The Objective-C driver
/// runs each scenario (`prefs-driver scenario`) and the gnustep-dialect store replays it.
@Suite struct SearchListDifferentialTests {
  struct Scenario: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    var app: [String: PlistValue]
    var global: [String: PlistValue]
    var script: [String]
    var testDescription: String {
      "args \(arguments) app \(app.keys.sorted()) global \(global.keys.sorted()): "
        + script.joined(separator: "; ")
    }
  }

  /// Every subset of {argument, application, global, registration} holding `t.k`, each with
  /// four scripts: reads, a removal, a set, a registration; and collisions on a second key.
  static let scenarios: [Scenario] = {
    var list: [Scenario] = []
    let scripts: [[String]] = [
      ["read t.k", "dict"],
      ["remove t.k", "read t.k", "dict"],
      ["set t.k (s, et)", "read t.k", "remove t.k", "read t.k", "dict"],
      ["register t.k late", "read t.k", "register t.z z", "dict"],
    ]
    for mask in 0..<16 {
      let arguments = mask & 1 != 0 ? ["-t.k", "argument"] : []
      let app: [String: PlistValue] = mask & 2 != 0 ? ["t.k": "app", "t.a": "1"] : ["t.a": "1"]
      let global: [String: PlistValue] =
        mask & 4 != 0 ? ["t.k": "global", "t.g": "G"] : ["t.g": "G"]
      let registration = mask & 8 != 0 ? ["register t.k registered"] : []
      for script in scripts {
        list.append(
          Scenario(arguments: arguments, app: app, global: global, script: registration + script))
      }
    }
    // Argument values of several shapes, through the search list.
    list.append(
      Scenario(
        arguments: ["-t.k", "  plain  ", "-t.l", "(1, 2)", "-t.m", "-"], app: ["t.k": "app"],
        global: [:], script: ["read t.k", "read t.l", "read t.m", "dict"]))
    return list
  }()

  static func value(_ text: String) -> PlistValue? {
    switch Result(catching: { () throws(PlistError) in try PropertyList.read(Data(text.utf8)) }) {
    case .success(let document): document.value
    case .failure: nil
    }
  }

  /// The gnustep-dialect store's answers to the script.
  static func ours(_ scenario: Scenario, program: String, folder: TemporaryFolder) throws
    -> [PlistValue?]
  {
    let app = folder.file("app.plist")
    let global = folder.file("NSGlobalDomain.plist")
    try PropertyList.write(.dictionary(scenario.app), as: .openStep).write(to: app)
    try PropertyList.write(.dictionary(scenario.global), as: .openStep).write(to: global)
    let store = try DefaultsStore(
      url: app, dialect: .gnustep, arguments: [program, "scenario"] + scenario.arguments,
      globalDomain: global, flushAtExit: false)
    var answers: [PlistValue?] = []
    for line in scenario.script {
      let words = line.split(separator: " ", maxSplits: 2).map(String.init)
      switch words[0] {
      case "read": answers.append(store.object(forKey: words[1]))
      case "dict":
        answers.append(
          .dictionary(store.dictionaryRepresentation().filter { $0.key.hasPrefix("t.") }))
      case "remove": store.removeObject(forKey: words[1])
      case "register":
        store.register(defaults: [words[1]: value(words[2]) ?? .string(words[2])])
      default:
        try store.set(value(words[2]), forKey: words[1])
      }
    }
    return answers
  }

  @Test(
    .enabled(if: Tools.gnustep || External.required, "needs GNUstep (the Objective-C driver)"),
    arguments: scenarios)
  func gnustepAnswersAsTheStore(_ scenario: Scenario) throws {
    let driver = try LegacyDriver.require()
    let folder = try TemporaryFolder()
    let defaults = folder.file("Defaults")
    try FileManager.default.createDirectory(at: defaults, withIntermediateDirectories: true)
    try PropertyList.write(.dictionary(scenario.app), as: .openStep)
      .write(to: defaults.appendingPathComponent("prefs-driver.plist"))
    try PropertyList.write(.dictionary(scenario.global), as: .openStep)
      .write(to: defaults.appendingPathComponent("NSGlobalDomain.plist"))
    let conf = folder.file("GNUstep.conf")
    try "GNUSTEP_USER_CONFIG_FILE=\nGNUSTEP_USER_DEFAULTS_DIR=\(defaults.path)\n"
      .write(to: conf, atomically: true, encoding: .utf8)
    let result = try External.run(
      driver.executable, ["scenario"] + scenario.arguments,
      input: Data((scenario.script.joined(separator: "\n") + "\n").utf8),
      environment: ["GNUSTEP_CONFIG_FILE": conf.path, "HOME": folder.url.path, "LC_ALL": "C"])
    #expect(result.status == 0, "\(result.stderr)")
    let theirs = result.output.components(separatedBy: "\n--\n").filter {
      !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }.map { Self.value($0)?["v"] }
    let ours = try Self.ours(scenario, program: driver.executable, folder: folder)
    #expect(theirs.count == scenario.script.filter { $0.hasPrefix("read") || $0 == "dict" }.count)
    #expect(ours == theirs)
  }
}
