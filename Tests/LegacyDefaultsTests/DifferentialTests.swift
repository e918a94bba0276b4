import Foundation
import LegacyDefaults
import PropertyList
import TestSupport
import Testing

/// The `gnustep` and `corelibs` dialects against the real references: GNUstep Base through
/// the Objective-C driver in `Legacy/`, and swift-corelibs-foundation's `UserDefaults` through
/// `defaults-probe`. Both read the same corpus files (`Fixtures/make_dialect_corpus.py`: the
/// spec's strings and many more, numbers at every edge, every type) in XML, binary, OpenStep
/// and GNUstep-typed text. The committed dumps are checked always; the live references are
/// run too when installed (under CI they must be).
@Suite struct DifferentialTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures")
  static let formats = ["xml", "binary", "openstep", "gstyped"]

  /// One reference's answers: key → getter → value as the dump prints it.
  typealias Dump = [String: [String: Any]]

  struct Outcome {
    var agreed = 0
    var known: [String] = []
    var disagreed: [String] = []
  }

  static func corpus(_ format: String) -> URL {
    fixtures.appendingPathComponent("dialect-corpus.\(format).plist")
  }

  static func parseDump(_ data: Data) throws -> Dump {
    guard let dump = try JSONSerialization.jsonObject(with: data) as? Dump else {
      throw TypedJSONError(description: "a dump is a JSON object of objects")
    }
    return dump
  }

  static func savedDump(_ format: String, _ reference: String) throws -> Dump {
    try parseDump(
      Data(
        contentsOf: fixtures.appendingPathComponent(
          "dialect-corpus.\(format).\(reference)-dump.json")))
  }

  /// Compares every getter of every key with the reference's answer.
  static func compare(_ dialect: Dialect, format: String, dump: Dump) throws -> Outcome {
    // Through the store, as an app reads it: the dialect's reader decides what the getters
    // see (GNUstep's XML reader clamps integers above Int64.max; its typed text does not).
    let values = try DefaultsStore(url: corpus(format), dialect: dialect, flushAtExit: false)
      .persistentDomain()
    var outcome = Outcome()
    for (key, answers) in dump.sorted(by: { $0.key < $1.key }) {
      let value = values[key]
      for (getter, answer) in answers.sorted(by: { $0.key < $1.key }) {
        // `url` of a string depends on the reference's home and working folder.
        if getter == "url", case .string? = value { continue }
        let ours = Self.ours(dialect, getter, value)
        if matches(ours, answer) {
          outcome.agreed += 1
        } else if let reason = knownDeviation(dialect, format, value, getter, answer, ours) {
          outcome.known.append("\(key) \(getter): \(reason)")
        } else {
          outcome.disagreed.append(
            "\(format) \(key) \(getter) of \(value.map { "\($0)" } ?? "nothing"): "
              + "prefs \(ours.map { "\($0)" } ?? "nil"), \(dialect) \(answer)")
        }
      }
    }
    return outcome
  }

  /// Our getter's result in the dump's notation.
  static func ours(_ dialect: Dialect, _ getter: String, _ value: PlistValue?) -> Any? {
    switch getter {
    case "bool": dialect.bool(value)
    case "integer": String(dialect.integer(value))
    case "double": dialect.double(value)
    case "float": dialect.float(value)
    case "string": dialect.string(value)
    case "url": dialect.url(value)?.absoluteString
    case "stringArray": dialect.stringArray(value)
    default: "unknown getter \(getter)"
    }
  }

  static func matches(_ ours: Any?, _ answer: Any) -> Bool {
    switch (ours, answer) {
    case (nil, is NSNull): return true
    case (let b as Bool, let a as Bool): return b == a
    case (let s as String, let a as String): return s == a
    case (let d as Double, let a as String):
      guard let theirs = Double(a) else { return false }
      return d == theirs || (d.isNaN && theirs.isNaN)
    case (let f as Float, let a as String):
      guard let theirs = Float(a) else { return false }
      return f == theirs || (f.isNaN && theirs.isNaN)
    case (let list as [String], let a as [String]): return list == a
    default: return false
    }
  }

  /// Where prefs deliberately answers differently (each listed in Docs/compatibility.md).
  static func knownDeviation(
    _ dialect: Dialect, _ format: String, _ value: PlistValue?, _ getter: String, _ answer: Any,
    _ ours: Any?
  ) -> String? {
    if answer as? String == "<trap>" {
      let safe: Bool =
        switch ours {
        case nil: true
        case let s as String: s == "0"
        case let d as Double: d == 0
        case let f as Float: f == 0
        default: false
        }
      return safe ? "the reference traps; prefs returns the getter's empty value" : nil
    }
    switch (dialect, value) {
    case (.corelibs, .integer(.max)?), (.corelibs, .unsignedInteger?):
      return "corelibs reads Int64.max and larger integers as nothing; prefs reads the number"
    case (.gnustep, .unsignedInteger?) where format == "gstyped" && getter == "integer":
      return "GNUstep's typed text wraps integers above Int64.max in integerForKey:; prefs clamps"
    case (.gnustep, .string(let s)?) where getter == "integer" && s.utf16.contains { $0 > 0xFF }:
      return "GNUstep's ctype lookup of characters above U+00FF is undefined behaviour"
    case (.gnustep, .string(let s)?)
    where s.unicodeScalars.first == "\u{FEFF}" && (format == "openstep" || format == "gstyped"):
      return "GNUstep's text parser drops a leading U+FEFF from a string; prefs keeps it"
    default:
      return nil
    }
  }

  static func report(_ outcome: Outcome, _ label: String) {
    print(
      "differential \(label): \(outcome.agreed) agree, \(outcome.disagreed.count) disagree, "
        + "\(outcome.known.count) known deviations")
    var reasons: [String: Int] = [:]
    for line in outcome.known {
      reasons[String(line.split(separator: ": ", maxSplits: 1).last ?? ""), default: 0] += 1
    }
    for (reason, count) in reasons.sorted(by: { $0.key < $1.key }) {
      print("  known (\(count)): \(reason)")
    }
    for line in outcome.disagreed.prefix(20) { Issue.record("\(label): \(line)") }
  }

  // MARK: - Against the committed dumps

  @Test(arguments: formats)
  func gnustepSavedDump(format: String) throws {
    let outcome = try Self.compare(
      .gnustep, format: format, dump: Self.savedDump(format, "gnustep"))
    Self.report(outcome, "gnustep \(format) (saved)")
    #expect(outcome.agreed > 0)
    #expect(outcome.disagreed.isEmpty)
  }

  @Test(arguments: formats.filter { $0 != "gstyped" })
  func corelibsSavedDump(format: String) throws {
    let outcome = try Self.compare(
      .corelibs, format: format, dump: Self.savedDump(format, "corelibs"))
    Self.report(outcome, "corelibs \(format) (saved)")
    #expect(outcome.agreed > 0)
    #expect(outcome.disagreed.isEmpty)
  }

  // MARK: - Against the references, run now

  @Test(
    .enabled(if: Tools.gnustep || External.required, "needs GNUstep (the Objective-C driver)"),
    arguments: formats)
  func gnustepLive(format: String) throws {
    let driver = try LegacyDriver.require()
    let dump = try Self.parseDump(try driver.dump(Self.corpus(format)))
    let outcome = try Self.compare(.gnustep, format: format, dump: dump)
    Self.report(outcome, "gnustep \(format) (live)")
    #expect(outcome.agreed > 1000)
    #expect(outcome.disagreed.isEmpty)
  }

  @Test(arguments: formats.filter { $0 != "gstyped" })
  func corelibsLive(format: String) throws {
    let folder = try TemporaryFolder()
    try FileManager.default.copyItem(
      at: Self.corpus(format), to: folder.file("defaults-probe.plist"))
    let result = try External.run(
      External.product("defaults-probe"), ["dump"],
      environment: [
        "XDG_CONFIG_HOME": folder.url.path, "CFFIXED_USER_HOME": "/nonexistent/prefs-home",
        "HOME": "/nonexistent/prefs-home",
      ])
    #expect(result.status == 0, "\(result.stderr)")
    let outcome = try Self.compare(.corelibs, format: format, dump: Self.parseDump(result.stdout))
    Self.report(outcome, "corelibs \(format) (live)")
    #expect(outcome.agreed > 1000)
    #expect(outcome.disagreed.isEmpty)
  }
}
