import Foundation
import PropertyList
import TestSupport
import Testing

/// What prefs writes, the reference implementations read back to the same values: python
/// plistlib, plistutil (libplist) and GNUstep. Their answers come from their own parsers.
@Suite struct ReferenceReadBackTests {
  /// Every value the fixtures hold, as plistlib wrote them in binary.
  static let values: [String] = Fixtures.files(in: Fixtures.valid).filter {
    $0.hasSuffix(".plistlib.bplist")
  }

  static func value(_ name: String) throws -> PlistValue {
    try PropertyList.read(Data(contentsOf: Fixtures.valid.appendingPathComponent(name))).value
  }

  /// XML has no UID: CoreFoundation writes `{CF$UID = n}`, which plistlib and libplist read as
  /// that dictionary.
  static func uidsAsDictionaries(_ value: PlistValue) -> PlistValue {
    switch value {
    case .uid(let u): .dictionary(["CF$UID": .int(u)])
    case .array(let a): .array(a.map(uidsAsDictionaries))
    case .dictionary(let d): .dictionary(d.mapValues(uidsAsDictionaries))
    default: value
    }
  }

  static func plistlib(_ file: URL) throws -> PlistValue? {
    guard let python = External.which("python3") else {
      throw TypedJSONError(description: "python3 is not installed")
    }
    let script = Fixtures.root.appendingPathComponent("typed_json.py").path
    let result = try External.run(python, [script, file.path])
    guard result.status == 0 else {
      Issue.record("plistlib could not read \(file.lastPathComponent): \(result.stderr)")
      return nil
    }
    return try TypedJSON.decode(result.stdout)
  }

  @Test(
    .enabled(if: Tools.python || External.required, "needs python3 (plistlib)"),
    arguments: values, [PlistFormat.binary, .xml])
  func plistlibReadsWhatPrefsWrites(name: String, format: PlistFormat) throws {
    let value = try Self.value(name)
    guard let data = try? PropertyList.write(value, as: format) else { return }
    let folder = try TemporaryFolder()
    let file = folder.file("out.plist")
    try data.write(to: file)
    guard let read = try Self.plistlib(file) else { return }
    let expected = format == .xml ? Self.lineEndsNormalized(Self.uidsAsDictionaries(value)) : value
    #expect(read == expected, "\(name)")
  }

  /// A carriage return is written in XML as it is, as CoreFoundation writes it (and reads
  /// it back); expat, plistlib's parser, normalizes XML line ends as the XML specification
  /// says: CR LF and CR read as LF.
  static func lineEndsNormalized(_ value: PlistValue) -> PlistValue {
    func normalized(_ s: String) -> String {
      s.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }
    switch value {
    case .string(let s): return .string(normalized(s))
    case .array(let a): return .array(a.map(lineEndsNormalized))
    case .dictionary(let d):
      return .dictionary(
        PlistDictionary(d.map { (normalized($0.key), lineEndsNormalized($0.value)) }))
    default: return value
    }
  }

  @Test(
    .enabled(if: Tools.plistutil || External.required, "needs plistutil (libplist-utils)"),
    arguments: values, [PlistFormat.binary, .xml])
  func plistutilReadsWhatPrefsWrites(name: String, format: PlistFormat) throws {
    let plistutil = try #require(External.which("plistutil"), "plistutil is not installed")
    if format == .binary, let reason = Self.plistutilXMLLoses[name] {
      print("\(name): binary → plistutil → XML not compared: \(reason)")
      return
    }
    let value = try Self.value(name)
    guard let data = try? PropertyList.write(value, as: format) else { return }
    let folder = try TemporaryFolder()
    let ours = folder.file("ours.plist")
    let theirs = folder.file("theirs.plist")
    try data.write(to: ours)
    // plistutil parses ours and writes the other format; plistlib reads that.
    let result = try External.run(
      plistutil, ["-i", ours.path, "-o", theirs.path, "-f", format == .xml ? "bin" : "xml"])
    #expect(result.status == 0, "\(name): \(result.stderr)")
    guard result.status == 0, let read = try Self.plistlib(theirs) else { return }
    #expect(read == Self.uidsAsDictionaries(value), "\(name) via plistutil")
  }

  /// What plistutil's own XML writer (the second hop of the binary check) cannot carry.
  static let plistutilXMLLoses = [
    "dates.plistlib.bplist": "plistutil's XML drops fractions of a second",
    "special-strings.plistlib.bplist":
      "plistutil writes a raw carriage return, which python's expat reads as a newline",
  ]

  @Test(
    .enabled(if: Tools.gnustep || External.required, "needs GNUstep (gnustep-config, gcc)"),
    arguments: values, [PlistFormat.binary, .xml, .gnustep])
  func gnustepReadsWhatPrefsWrites(name: String, format: PlistFormat) throws {
    let gnustep = try #require(
      GNUstepDump.shared, "GNUstep is missing or gnustep_dump did not build")
    var value = try Self.value(name)
    if let known = GNUstepDump.knownReadBugs[name] {
      // A value GNUstep itself cannot read back; listed with the reason.
      guard !known.formats.contains(format) else { return }
    }
    guard let data = try? PropertyList.write(value, as: format) else { return }
    let folder = try TemporaryFolder()
    let ours = folder.file("ours.plist")
    try data.write(to: ours)
    let result = try gnustep.run(ours)
    #expect(result.status == 0, "\(name): \(result.stderr)")
    guard result.status == 0 else { return }
    if format == .xml { value = Self.uidsAsDictionaries(value) }
    #expect(try TypedJSON.decode(result.stdout) == value, "\(name) as \(format)")
  }
}

/// GNUstep's `NSPropertyListSerialization`, through the fixtures' `gnustep_dump.m`, compiled
/// once per test run into a temporary folder, with GNUstep's defaults kept there too.
final class GNUstepDump: Sendable {
  let executable: String
  let environment: [String: String]

  /// Values GNUstep Base 1.28 cannot read back in some format, whatever wrote them (seen with
  /// files written by plistlib and plistutil too; see Fixtures/README.md).
  static let knownReadBugs: [String: (formats: [PlistFormat], reason: String)] = [
    "integers.plistlib.bplist": (
      [.binary, .xml],
      "UInt64.max: a 16-byte binary integer is an error (\"Stored number too long\"), XML "
        + "clamps it to Int64.max"
    ),
    "uid.plistlib.bplist": ([.binary], "a binary UID reads as the dictionary {CF$UID = n}"),
  ]

  static let shared: GNUstepDump? = {
    guard let gcc = External.which("gcc"), let config = External.which("gnustep-config"),
      let flags = try? External.run(config, ["--objc-flags"]),
      let libs = try? External.run(config, ["--base-libs"]),
      let folder = try? FileManager.default.url(
        for: .itemReplacementDirectory, in: .userDomainMask,
        appropriateFor: FileManager.default.temporaryDirectory, create: true)
    else { return nil }
    let split = { (r: ProcessResult) in
      String(decoding: r.stdout, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(
        String.init)
    }
    let executable = folder.appendingPathComponent("gnustep_dump").path
    let source = Fixtures.root.appendingPathComponent("gnustep_dump.m").path
    guard
      let built = try? External.run(
        gcc, split(flags) + [source, "-o", executable] + split(libs)),
      built.status == 0
    else { return nil }
    let conf = folder.appendingPathComponent("GNUstep.conf")
    let defaults = folder.appendingPathComponent("defaults").path
    try? "GNUSTEP_USER_DEFAULTS_DIR=\(defaults)\nGNUSTEP_USER_DIR=\(folder.path)/GNUstep\n"
      .write(to: conf, atomically: true, encoding: .utf8)
    return GNUstepDump(
      executable: executable,
      environment: [
        "GNUSTEP_CONFIG_FILE": conf.path, "HOME": folder.path, "TZ": "UTC", "LC_ALL": "C",
      ])
  }()

  init(executable: String, environment: [String: String]) {
    self.executable = executable
    self.environment = environment
  }

  func run(_ file: URL) throws -> ProcessResult {
    try External.run(executable, [file.path], environment: environment)
  }
}
