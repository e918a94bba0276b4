import Foundation
import PropertyList
import TestSupport
import Testing

/// The `plutil` personality against the toolchain's own `plutil` (Apple's port of Darwin's
/// plutil in swift-corelibs-foundation, over corelibs' CoreFoundation): every command line of
/// `PlutilOracleCases` runs through both, each in a working folder of its own holding
/// identical copies of the inputs, and the two must agree on the exit status, standard
/// output, standard error and every file left in the folder, byte for byte, except:
///
/// - a deliberate difference (`OracleLine.difference`, or data and UIDs in `-p`), each a row
///   of Docs/compatibility.md's "deliberately differs" table, where prefs must do what the row says;
/// - the port's nondeterminism, compared through a canonical form: binary property lists
///   (the port writes a dictionary's objects in hash order, different at every run) as the
///   values they hold (both read and written as XML by Foundation's PropertyListSerialization,
///   the port's own code), and compact JSON (members in hash order) with each object's
///   members in one order, every other byte kept;
/// - the text of a parser's or the file system's own message (`FILE: (…)`,
///   `Property List error: … / JSON error: …`), compared up to where the wording starts, and
///   CoreFoundation's time-stamped log lines, which are not plutil's output.
///
/// XML is compared byte for byte: prefs' XML writer writes what CoreFoundation writes.
///
/// `PLUTIL_ORACLE_REPORT=DIR` writes each line's verdict to `DIR/<input>.tsv` (and the input
/// files to `DIR/<input>.inputs/`).
@Suite struct PlutilOracleTests {
  static let prefs = External.product("prefs")

  @Test(
    .enabled(if: Tools.toolchainPlutil != nil || External.required, "needs the toolchain's plutil"),
    arguments: PlutilOracleCases.generated)
  func generatedInputs(_ input: OracleInput) throws {
    try Self.check(input)
  }

  @Test(
    .enabled(if: Tools.toolchainPlutil != nil || External.required, "needs the toolchain's plutil"),
    arguments: PlutilOracleCases.fixtures)
  func repositoryFixtures(_ input: OracleInput) throws {
    try Self.check(input)
  }

  static func check(_ input: OracleInput) throws {
    let oracle = try #require(Tools.toolchainPlutil, "the toolchain's plutil is missing")
    var report: [String] = []
    for line in input.lines {
      let expected = try run([oracle], line, input)
      let actual = try run([prefs, "plutil"], line, input)
      let verdict = compare(expected, actual)
      let shown = "plutil " + line.words.map(shellQuoted).joined(separator: " ")
      let label: String
      switch (line.difference, verdict) {
      case (let difference?, _):
        #expect(
          difference.prefsDoes(actual),
          "\(input.name): \(shown): prefs does not do what Docs/compatibility.md says (\(difference.row)): status \(actual.status), stdout \(actual.text), stderr \(actual.stderr)"
        )
        if case .agree = verdict {
          Issue.record(
            Comment(
              rawValue: "\(input.name): \(shown) now agrees with plutil: drop '\(difference.row)'"
            ))
        }
        label = "deliberate\t\(difference.row)"
      case (nil, .agree(let how)): label = "agree\t\(how)"
      case (nil, .deliberate(let row)): label = "deliberate\t\(row)"
      case (nil, .differ(let reasons)):
        Issue.record(
          Comment(rawValue: "\(input.name): \(shown)\n\(reasons.joined(separator: "\n"))"))
        label =
          "differ\t"
          + (reasons.first ?? "").prefix(60).replacingOccurrences(of: "\n", with: "⏎")
          .replacingOccurrences(of: "\t", with: " ")
      }
      report.append("\(label)\t\(shown.replacingOccurrences(of: "\n", with: "⏎"))")
    }
    if let folder = ProcessInfo.processInfo.environment["PLUTIL_ORACLE_REPORT"] {
      let name = input.name.replacingOccurrences(of: "/", with: "_")
      let inputs = URL(fileURLWithPath: folder).appendingPathComponent(name + ".inputs")
      try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
      for case let (file, contents?) in input.files {
        try contents.write(to: inputs.appendingPathComponent(file))
      }
      try (report.joined(separator: "\n") + "\n").write(
        toFile: "\(folder)/\(name).tsv", atomically: true, encoding: .utf8)
    }
  }
  // MARK: - Running

  /// What a command line did: its status, output, and the files in its working folder.
  struct Outcome {
    var status: Int32
    var crashed: Bool
    var stdout: Data
    var stderr: String
    /// Every file left in the working folder (relative path → bytes; a folder → nil).
    var files: [String: Data?]

    var text: String { String(decoding: stdout, as: UTF8.self) }
  }

  static func run(_ tool: [String], _ line: OracleLine, _ input: OracleInput) throws -> Outcome {
    let folder = try TemporaryFolder()
    let work = folder.file("work")
    let config = folder.file("config")
    for url in [work, config] {
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    for (name, contents) in input.files {
      let url = work.appendingPathComponent(name)
      if let contents {
        try contents.write(to: url)
      } else {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
      }
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool[0])
    process.arguments = Array(tool.dropFirst()) + line.words
    process.currentDirectoryURL = work
    process.environment = [
      "PATH": "/usr/bin:/bin", "HOME": folder.url.path, "XDG_CONFIG_HOME": config.path,
      "TZ": "UTC", "LANG": "C.UTF-8",
    ]
    let out = Pipe()
    let err = Pipe()
    let inPipe = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = inPipe
    try process.run()
    // Written on a thread of its own: a command that does not read its input must not stall.
    let stdin = line.stdin ?? Data()
    let writer = Thread {
      inPipe.fileHandleForWriting.write(stdin)
      try? inPipe.fileHandleForWriting.close()
    }
    writer.start()
    let errorReader = ErrorReader(err.fileHandleForReading)
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = errorReader.finish()
    process.waitUntilExit()
    var files: [String: Data?] = [:]
    if let walker = FileManager.default.enumerator(atPath: work.path) {
      for case let name as String in walker {
        let url = work.appendingPathComponent(name)
        var isFolder: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
        files[name] = isFolder.boolValue ? Data?.none : try Data(contentsOf: url)
      }
    }
    return Outcome(
      status: process.terminationStatus,
      crashed: process.terminationReason == .uncaughtSignal, stdout: stdout,
      stderr: String(decoding: stderr, as: UTF8.self), files: files)
  }

  /// Standard error read beside standard output (either may fill its pipe first).
  final class ErrorReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
      Thread {
        self.data = handle.readDataToEndOfFile()
        self.done.signal()
      }.start()
    }

    func finish() -> Data {
      done.wait()
      return data
    }
  }

  // MARK: - Comparing

  enum Verdict {
    /// The same status, output and files: byte for byte (`how` empty), or where the port's
    /// bytes change from run to run, as values (binary property lists) or with each JSON
    /// object's members in one order (`how` says which).
    case agree(String)
    /// A row of Docs/compatibility.md, found in the output (data and UIDs in `-p`).
    case deliberate(String)
    case differ([String])
  }

  static func compare(_ expected: Outcome, _ actual: Outcome) -> Verdict {
    var reasons: [String] = []
    var how: [String] = []
    if expected.crashed {
      reasons.append("plutil crashed (signal \(expected.status))")
    }
    if expected.status != actual.status {
      reasons.append("status \(actual.status), plutil \(expected.status)")
    }
    var deliberate: String?
    switch sameBytes(expected.stdout, actual.stdout) {
    case .same: break
    case .sameModuloPort(let why): how.append("stdout: \(why)")
    case .different:
      if let row = pDifference(expected.text, actual.text) {
        deliberate = row
      } else {
        reasons.append("stdout:\n\(actual.text)\nplutil:\n\(expected.text)")
      }
    }
    if !sameErrors(expected.stderr, actual.stderr) {
      reasons.append("stderr:\n\(actual.stderr)plutil:\n\(expected.stderr)")
    }
    let names = Set(expected.files.keys).union(actual.files.keys).sorted()
    for name in names {
      switch (expected.files[name], actual.files[name]) {
      case (let e??, let a??):
        switch sameBytes(e, a) {
        case .same: break
        case .sameModuloPort(let why): how.append("\(name): \(why)")
        case .different:
          reasons.append("\(name):\n\(shownBytes(a))\nplutil:\n\(shownBytes(e))")
        }
      case (.some(.none), .some(.none)): break
      case (nil, _): reasons.append("\(name) written, plutil did not write it")
      case (_, nil): reasons.append("\(name) not written, plutil wrote it")
      default: reasons.append("\(name): a file on one side, a folder on the other")
      }
    }
    if !reasons.isEmpty { return .differ(reasons) }
    if let deliberate { return .deliberate(deliberate) }
    return .agree(how.joined(separator: "; "))
  }

  /// Bytes to show in a message: text as it is, anything else in hexadecimal.
  static func shownBytes(_ data: Data) -> String {
    if let text = String(data: data, encoding: .utf8), !text.contains("\u{0}") { return text }
    return data.map { String(format: "%02x", $0) }.joined()
  }

  /// `-p` output that differs only where the port prints wrongly or differently at each run:
  /// data (a byte below 0x10 as one digit, `<0102>` as `0x12`; more than 24 bytes as every
  /// other one of the first 16) and UIDs (an object's address).
  static func pDifference(_ expected: String, _ actual: String) -> String? {
    let (e, eData) = withoutData(expected)
    let (a, _) = withoutData(actual)
    let wrongData = eData.contains { length, bytes in length > 24 || bytes.count != length * 2 }
    if e == a, wrongData { return "-p of data" }
    let uids = withoutUIDs(e)
    guard uids != e, uids == withoutUIDs(a) else { return nil }
    return wrongData ? "-p of data and UIDs" : "-p of a UID"
  }

  /// The text with each UID as the port prints it (`<_NSKeyedArchiverUID: 0x…>`) and as prefs
  /// does (`<CFKeyedArchiverUID>{value = N}`) as `<UID>`.
  static func withoutUIDs(_ text: String) -> String {
    var out = ""
    var rest = Substring(text)
    while let start = rest.range(of: "<_NSKeyedArchiverUID: 0x")
      ?? rest.range(of: "<CFKeyedArchiverUID>{value = ")
    {
      out += rest[..<start.lowerBound] + "<UID>"
      rest = rest[start.upperBound...]
      guard let end = rest.firstIndex(where: { $0 == ">" || $0 == "}" }) else { break }
      rest = rest[rest.index(after: end)...]
    }
    return out + rest
  }

  /// The text with each `{length = N, bytes = 0x…}` as `{length = N}`, and each rendering's
  /// length and hex digits.
  static func withoutData(_ text: String) -> (String, [(Int, String)]) {
    var out = ""
    var renderings: [(Int, String)] = []
    var rest = Substring(text)
    while let start = rest.range(of: "{length = ") {
      out += rest[..<start.upperBound]
      rest = rest[start.upperBound...]
      guard let comma = rest.range(of: ", bytes = 0x"), let end = rest.range(of: "}") else {
        break
      }
      let length = Int(rest[..<comma.lowerBound]) ?? -1
      renderings.append((length, String(rest[comma.upperBound..<end.lowerBound])))
      out += rest[..<comma.lowerBound] + "}"
      rest = rest[end.upperBound...]
    }
    return (out + rest, renderings)
  }

  enum Sameness {
    case same
    /// The same values where the port's bytes change from run to run.
    case sameModuloPort(String)
    case different
  }

  /// Two outputs: the same bytes, or the same values where the port's bytes cannot be
  /// compared (binary property lists, compact JSON).
  static func sameBytes(_ expected: Data, _ actual: Data) -> Sameness {
    if expected == actual { return .same }
    // -0.0: CoreFoundation writes `0.0` (the sign lost), prefs `-0.0`, which it reads back.
    let text = String(decoding: actual, as: UTF8.self)
    if text.contains("<real>-0.0</real>"),
      Data(text.replacingOccurrences(of: "<real>-0.0</real>", with: "<real>0.0</real>").utf8)
        == expected
    {
      return .sameModuloPort("-0.0 written with its sign")
    }
    let binary = Data("bplist00".utf8)
    if expected.starts(with: binary) || actual.starts(with: binary) {
      // The port writes a dictionary's objects in hash order: compared as values.
      guard let e = canonicalXML(expected) else { return .different }
      guard let a = canonicalXML(actual) else { return .different }
      return e == a ? .sameModuloPort("binary compared as values") : .different
    }
    if !expected.contains(UInt8(ascii: "\n")), let e = CompactJSON(expected),
      let a = CompactJSON(actual)
    {
      // Compact JSON: the port writes an object's members in hash order.
      return e.canonical == a.canonical ? .sameModuloPort("JSON members in one order") : .different
    }
    return .different
  }
  /// Standard error, line by line: equal, or for a parser's or the file system's message
  /// (`FILE: (…)`, `FILE: Property List error: …`), equal up to where its own wording starts.
  static func sameErrors(_ expected: String, _ actual: String) -> Bool {
    if expected == actual { return true }
    // CoreFoundation's own log lines (`2026-12-01 12:50:46.328 plutil[…] CFPropertyList…`),
    // stamped with the time and the process, are not plutil's messages.
    let e = expected.split(separator: "\n", omittingEmptySubsequences: false).filter {
      !($0.first?.isNumber == true && $0.contains(" plutil[") && $0.contains("] CF"))
    }
    let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
    guard e.count == a.count else { return false }
    return zip(e, a).allSatisfy { e, a in
      if e == a { return true }
      for marker in [": (", ": Property List error: "] {
        if let range = e.range(of: marker), !exactMessages.contains(where: e.hasSuffix) {
          return a.hasPrefix(e[..<range.upperBound])
        }
      }
      return false
    }
  }

  /// File-system messages prefs must spell as the port does.
  static let exactMessages = [
    "(The operation could not be completed. The file doesn’t exist.)",
    "(Cannot parse a NULL or zero-length data)",
  ]

  /// A property list as the port writes it in XML (nil: the port cannot read it): read and
  /// written by Foundation's PropertyListSerialization in this process, the code the port
  /// reads and writes with.
  static func canonicalXML(_ data: Data) -> Data? {
    guard let value = try? PropertyListSerialization.propertyList(from: data, format: nil) else {
      return nil
    }
    return try? PropertyListSerialization.data(fromPropertyList: value, format: .xml, options: 0)
  }

  static func shellQuoted(_ word: String) -> String {
    let plain = word.unicodeScalars.allSatisfy {
      CharacterSet.alphanumerics.contains($0) || "-_./=:,+@".unicodeScalars.contains($0)
    }
    guard !plain || word.isEmpty else { return word }
    return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}

/// Compact JSON as a tree of its lexemes: each object's members put in one order (by the key's
/// bytes as written), every other byte kept.
struct CompactJSON: Equatable {
  indirect enum Node: Equatable {
    case scalar([UInt8])
    case array([Node])
    case object([([UInt8], Node)])

    static func == (lhs: Node, rhs: Node) -> Bool {
      switch (lhs, rhs) {
      case (.scalar(let a), .scalar(let b)): a == b
      case (.array(let a), .array(let b)): a == b
      case (.object(let a), .object(let b)):
        a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
      default: false
      }
    }
  }

  let canonical: [UInt8]

  init?(_ data: Data) {
    let bytes = [UInt8](data)
    var index = 0
    guard let node = Self.parse(bytes, &index), index == bytes.count else { return nil }
    var out: [UInt8] = []
    Self.emit(node, &out)
    canonical = out
  }

  static func parse(_ b: [UInt8], _ i: inout Int) -> Node? {
    guard i < b.count else { return nil }
    switch b[i] {
    case UInt8(ascii: "["):
      i += 1
      var elements: [Node] = []
      if i < b.count, b[i] == UInt8(ascii: "]") {
        i += 1
        return .array([])
      }
      while true {
        guard let element = parse(b, &i) else { return nil }
        elements.append(element)
        guard i < b.count else { return nil }
        if b[i] == UInt8(ascii: ",") {
          i += 1
        } else if b[i] == UInt8(ascii: "]") {
          i += 1
          return .array(elements)
        } else {
          return nil
        }
      }
    case UInt8(ascii: "{"):
      i += 1
      var members: [([UInt8], Node)] = []
      if i < b.count, b[i] == UInt8(ascii: "}") {
        i += 1
        return .object([])
      }
      while true {
        guard case .scalar(let key)? = parse(b, &i), key.first == UInt8(ascii: "\""),
          i < b.count, b[i] == UInt8(ascii: ":")
        else { return nil }
        i += 1
        guard let value = parse(b, &i) else { return nil }
        members.append((key, value))
        guard i < b.count else { return nil }
        if b[i] == UInt8(ascii: ",") {
          i += 1
        } else if b[i] == UInt8(ascii: "}") {
          i += 1
          return .object(members.sorted { $0.0.lexicographicallyPrecedes($1.0) })
        } else {
          return nil
        }
      }
    case UInt8(ascii: "\""):
      let start = i
      i += 1
      while i < b.count, b[i] != UInt8(ascii: "\"") { i += b[i] == UInt8(ascii: "\\") ? 2 : 1 }
      guard i < b.count else { return nil }
      i += 1
      return .scalar(Array(b[start..<i]))
    default:
      let start = i
      while i < b.count, !",]}:".utf8.contains(b[i]) { i += 1 }
      return i > start ? .scalar(Array(b[start..<i])) : nil
    }
  }

  static func emit(_ node: Node, _ out: inout [UInt8]) {
    switch node {
    case .scalar(let bytes): out += bytes
    case .array(let elements):
      out += Array("[".utf8)
      for (n, element) in elements.enumerated() {
        if n > 0 { out += Array(",".utf8) }
        emit(element, &out)
      }
      out += Array("]".utf8)
    case .object(let members):
      out += Array("{".utf8)
      for (n, (key, value)) in members.enumerated() {
        if n > 0 { out += Array(",".utf8) }
        out += key + Array(":".utf8)
        emit(value, &out)
      }
      out += Array("}".utf8)
    }
  }
}
