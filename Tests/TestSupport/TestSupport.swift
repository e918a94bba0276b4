import Foundation
import PropertyList
import Testing

extension Tag {
  /// Tests that take seconds (the 10,000-file batch, SIGKILL rounds, races, a package built
  /// of its own). The tag is given only to suites named `Slow` (`SlowSuiteTests` holds every
  /// file to it), so the quick line `swift test --skip /Slow/` names no test.
  @Tag public static var slow: Self
}

public struct TypedJSONError: Error, CustomStringConvertible {
  public var description: String

  public init(description: String) { self.description = description }
}

/// The fixtures' independent description of a value: every value a one-key object
/// (`{"integer": "-9223372036854775808"}`, `{"real": "0.1"}`, `{"date": "<seconds since 2001>"}`).
/// Written by python's plistlib or GNUstep, never by the code under test.
public enum TypedJSON {
  public static func decode(_ data: Data) throws -> PlistValue {
    try value(JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
  }

  public static func value(_ object: Any) throws -> PlistValue {
    guard let wrapper = object as? [String: Any], wrapper.count == 1,
      let (type, payload) = wrapper.first
    else { throw TypedJSONError(description: "not a typed value: \(object)") }
    switch type {
    case "string":
      guard let s = payload as? String else { break }
      return .string(s)
    case "integer":
      guard let s = payload as? String else { break }
      if let i = Int64(s) { return .integer(i) }
      if let u = UInt64(s) { return .unsignedInteger(u) }
    case "real":
      guard let s = payload as? String else { break }
      switch s {
      case "nan": return .real(.nan)
      case "inf": return .real(.infinity)
      case "-inf": return .real(-.infinity)
      default: if let d = Double(s) { return .real(d) }
      }
    case "bool":
      guard let b = payload as? Bool else { break }
      return .bool(b)
    case "date":
      guard let s = payload as? String, let d = Double(s) else { break }
      return .date(Date(timeIntervalSinceReferenceDate: d))
    case "data":
      guard let s = payload as? String, let d = Data(base64Encoded: s) else { break }
      return .data(d)
    case "hexdata":
      // gnustep_dump prints data in hex (GNUstep has no base64 encoder in 1.28's C API).
      guard let s = payload as? String, s.count % 2 == 0 else { break }
      var bytes: [UInt8] = []
      var index = s.startIndex
      while index < s.endIndex {
        let next = s.index(index, offsetBy: 2)
        guard let byte = UInt8(s[index..<next], radix: 16) else { break }
        bytes.append(byte)
        index = next
      }
      guard bytes.count * 2 == s.count else { break }
      return .data(Data(bytes))
    case "uid":
      guard let s = payload as? String, let u = UInt64(s) else { break }
      return .uid(u)
    case "array":
      guard let a = payload as? [Any] else { break }
      return .array(try a.map(value))
    case "dict":
      guard let d = payload as? [String: Any] else { break }
      return .dictionary(PlistDictionary(try d.mapValues(value)))
    default: break
    }
    throw TypedJSONError(description: "bad \(type) payload: \(payload)")
  }
}

/// Runs a program and returns its exit status, standard output and standard error.
public struct ProcessResult: Sendable {
  public var status: Int32
  public var stdout: Data
  public var stderr: String
  /// The signal that ended the process, or nil when it exited.
  public var signal: Int32? = nil

  public var output: String { String(decoding: stdout, as: UTF8.self) }
}

public enum External {
  /// Whether the tests run on an Apple platform (where Foundation is the system's).
  public static var isApplePlatform: Bool {
    #if canImport(Darwin)
      true
    #else
      false
    #endif
  }

  public static func which(_ tool: String) -> String? {
    let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(
      separator: ":")
    for dir in paths {
      let candidate = "\(dir)/\(tool)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  public static func run(
    _ executable: String, _ arguments: [String], input: Data? = nil,
    environment: [String: String] = [:], in folder: URL? = nil
  ) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = folder }
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let inPipe = Pipe()
    process.standardInput = inPipe
    _ = ignoringBrokenPipes
    try process.run()
    // A command may exit before reading all its input (a refusal, a usage error): the write
    // then fails with EPIPE, which is that command's answer, not the test's failure. (With
    // SIGPIPE at its default, it killed the whole test process: a fast static binary exited
    // before the input was written.)
    if let input { try? inPipe.fileHandleForWriting.write(contentsOf: input) }
    try inPipe.fileHandleForWriting.close()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProcessResult(
      status: process.terminationStatus, stdout: outData,
      stderr: String(decoding: errData, as: UTF8.self),
      signal: process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil)
  }

  /// SIGPIPE ignored in the test process, once: a write to a command that has exited fails
  /// with EPIPE instead of ending every test.
  private static let ignoringBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

  /// Whether a reference tool must be present: under CI a missing one fails the run.
  public static var required: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }
}

/// A fresh temporary folder, removed when the value is released.
public final class TemporaryFolder: Sendable {
  public let url: URL

  public init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "prefs-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

  deinit { try? FileManager.default.removeItem(at: url) }
}

extension External {
  /// The package root (this file is Tests/TestSupport/TestSupport.swift).
  public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// An executable product of this package, built next to the test bundle by `swift test`;
  /// `PREFS_TEST_BINARY` names another `prefs` to test (CI: the static release build).
  public static func product(_ name: String) -> String {
    if name == "prefs", let binary = ProcessInfo.processInfo.environment["PREFS_TEST_BINARY"] {
      return binary
    }
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for folder in [beside, beside.deletingLastPathComponent()] {
      let candidate = folder.appendingPathComponent(name).path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return packageRoot.appendingPathComponent(".build/debug/\(name)").path
  }
}

/// Whether a reference tool is installed. A test that needs one is enabled with
/// `.enabled(if: Tools.gnustep || External.required, …)`: without the tool it is reported as
/// skipped (never as passed), and under CI, where `.ci/run` installs every tool, it runs and
/// fails if the tool is missing.
public enum Tools {
  public static let gnustep =
    External.which("gnustep-config") != nil && External.which("gcc") != nil
  public static let plistutil = External.which("plistutil") != nil
  public static let python = External.which("python3") != nil

  /// The toolchain's `plutil` (Apple's port of Darwin's plutil in swift-corelibs-foundation,
  /// over corelibs' CoreFoundation): the one beside the `swift` on `PATH` (links resolved),
  /// else /opt/swift/usr/bin/plutil; nil when neither is there.
  public static let toolchainPlutil: String? = {
    var candidates: [String] = []
    if let swift = External.which("swift") {
      let real = URL(fileURLWithPath: swift).resolvingSymlinksInPath()
      candidates.append(real.deletingLastPathComponent().appendingPathComponent("plutil").path)
    }
    candidates.append("/opt/swift/usr/bin/plutil")
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
  }()
}

/// The Objective-C driver of `Legacy/` under GNUstep, built once per test run into a
/// temporary folder, with GNUstep's defaults folder confined to a temporary folder per run.
public final class LegacyDriver: Sendable {
  public let executable: String

  /// The built driver, or why it could not be built (a failed build is a failure, never a
  /// skip); nil only when GNUstep is not installed.
  public static let built: Result<LegacyDriver, TypedJSONError>? = {
    guard Tools.gnustep else { return nil }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "prefs-legacy-driver-\(UUID().uuidString)")
    let build = External.packageRoot.appendingPathComponent("Legacy/build.sh").path
    do {
      let result = try External.run("/bin/bash", [build, folder.path])
      guard result.status == 0 else {
        return .failure(TypedJSONError(description: "Legacy/build.sh failed: \(result.stderr)"))
      }
    } catch {
      return .failure(TypedJSONError(description: "Legacy/build.sh did not run: \(error)"))
    }
    return .success(LegacyDriver(executable: folder.appendingPathComponent("prefs-driver").path))
  }()

  /// The driver, for a test enabled by `Tools.gnustep || External.required`: throws when
  /// GNUstep is missing (under CI) or the build failed.
  public static func require() throws -> LegacyDriver {
    guard let built else {
      throw TypedJSONError(description: "GNUstep is not installed (.ci/run installs it)")
    }
    return try built.get()
  }

  init(executable: String) { self.executable = executable }

  /// Runs the driver with `arguments` on a defaults folder holding `file` (if given) as the
  /// driver's domain; returns its output and the domain file afterwards.
  public func run(_ arguments: [String], file: URL?, input: Data? = nil) throws -> (
    ProcessResult, Data?
  ) {
    let folder = try TemporaryFolder()
    let defaults = folder.url.appendingPathComponent("Defaults")
    try FileManager.default.createDirectory(at: defaults, withIntermediateDirectories: true)
    let domain = defaults.appendingPathComponent("prefs-driver.plist")
    if let file { try FileManager.default.copyItem(at: file, to: domain) }
    let conf = folder.file("GNUstep.conf")
    try "GNUSTEP_USER_DEFAULTS_DIR=\(defaults.path)\nGNUSTEP_USER_DIR=\(folder.url.path)/GNUstep\n"
      .write(to: conf, atomically: true, encoding: .utf8)
    let result = try External.run(
      executable, arguments, input: input,
      environment: [
        "GNUSTEP_CONFIG_FILE": conf.path, "HOME": folder.url.path, "TZ": "UTC", "LC_ALL": "C",
      ])
    return (result, try? Data(contentsOf: domain))
  }

  public func dump(_ file: URL) throws -> Data {
    let (result, _) = try run(["dump"], file: file)
    guard result.status == 0 else {
      throw TypedJSONError(description: "prefs-driver dump failed: \(result.stderr)")
    }
    return result.stdout
  }
}

/// A writer process killed with SIGKILL at a random moment: the durability and torture tests'
/// one loop.
public enum KilledWriter {
  /// Runs `executable arguments`, kills it after a random pause within `window` microseconds,
  /// and returns the numbers it acknowledged on standard output (lines `ack N`).
  public static func run(
    _ executable: String, _ arguments: [String], killAfter window: ClosedRange<UInt32>
  ) throws -> [Int] {
    var generator = SystemRandomNumberGenerator()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    usleep(UInt32.random(in: window, using: &generator))
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    return String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      .split(separator: "\n").compactMap { Int($0.dropFirst(4)) }
  }
}

/// Whether `condition` holds within `seconds` (polled every millisecond): for what another
/// thread or process makes true a moment later (a watcher's announcement), never a sleep that
/// hopes it is long enough.
public func eventually(within seconds: Double = 10, _ condition: () throws -> Bool) rethrows
  -> Bool
{
  let deadline = Date().addingTimeInterval(seconds)
  while true {
    if try condition() { return true }
    if Date() >= deadline { return false }
    usleep(1000)
  }
}

/// A tiny binary plist builder for structures no writer would make (1-byte references unless
/// `refSize` says otherwise, 2-byte offsets).
public enum BinaryList {
  public static func bplist(objects: [[UInt8]], top: Int = 0, refSize: UInt8 = 1) -> Data {
    laidOut(objects, top: top, refSize: refSize)
  }

  /// A file laid out by hand: the objects, the offset table (`offsets`, else where each
  /// object starts, each in `offsetSize` bytes), `gap` bytes, the trailer.
  public static func laidOut(
    _ objects: [[UInt8]], offsets: [Int]? = nil, offsetSize: Int = 2, gap: Int = 0, top: Int = 0,
    refSize: UInt8 = 1
  ) -> Data {
    var out = Array("bplist00".utf8)
    var starts: [Int] = []
    for object in objects {
      starts.append(out.count)
      out += object
    }
    let table = out.count
    for offset in offsets ?? starts {
      out += (0..<offsetSize).reversed().map { UInt8(truncatingIfNeeded: offset >> ($0 * 8)) }
    }
    out += [UInt8](repeating: 0, count: gap)
    out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), refSize]
    func be64(_ v: Int) -> [UInt8] { (0..<8).reversed().map { UInt8((v >> ($0 * 8)) & 0xFF) } }
    out += be64(objects.count) + be64(top) + be64(table)
    return Data(out)
  }

  /// An ASCII string object.
  public static func ascii(_ text: String) -> [UInt8] {
    [0x50 | UInt8(text.utf8.count)] + Array(text.utf8)
  }
}

extension External {
  /// ``run(_:_:input:environment:in:)`` on a thread of its own, awaited: a test that waits
  /// minutes for a process (an outside package's build) then holds none of the cooperative
  /// pool's threads, which are as many as the cores. Two such tests blocking both threads of a
  /// 2-core machine starved every other test until its time limit passed.
  public static func runOffPool(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:]
  ) async throws -> ProcessResult {
    try await withCheckedThrowingContinuation { continuation in
      let thread = Thread {
        continuation.resume(
          with: Result { try run(executable, arguments, environment: environment) })
      }
      thread.start()
    }
  }
}

/// `migrate --in-place --backup DIR`'s copies, as the documents lay them out: the backup of
/// `/a/b/name.plist` is `DIR/a/b/name.plist.backup`.
public enum Backups {
  /// Where the backup of `legacy` (an absolute path with no link in it) goes in `folder`.
  public static func place(of legacy: String, in folder: URL) -> URL {
    URL(fileURLWithPath: folder.path + legacy + ".backup")
  }

  /// The regular files anywhere under `folder`, by path.
  public static func files(in folder: URL) -> [URL] {
    var found: [URL] = []
    guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
    while let name = walker.nextObject() as? String {
      let path = folder.path + "/" + name
      var info = stat()
      if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
        found.append(URL(fileURLWithPath: path))
      }
    }
    return found.sorted { $0.path < $1.path }
  }
}
