import Foundation
import TestSupport
import Testing

/// `prefs plan swift`: the generated source compiles against the library as it is, is laid out
/// as `swift format` leaves it, and its `MigrationPlan` migrates the sample to the very bytes
/// the JSON plan does.
@Suite(.enabled(if: External.which("swiftc") != nil, "needs the Swift toolchain"))
struct PlanSwiftTests {
  static let binary = External.product("prefs")
  static let samples = External.packageRoot.appendingPathComponent("Legacy/Samples")
  static let sample = samples.appendingPathComponent("com.exmo.equizmo.plist").path
  static let plan = samples.appendingPathComponent("equizmo-plan.json").path

  /// The folder `swift build` put the library's modules and objects in (beside the test
  /// bundle), whichever `prefs` the tests run.
  static var buildFolder: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  }

  /// Compiles `sources` with the library's modules and object files into an executable.
  static func compile(_ sources: [URL], to executable: URL) throws -> ProcessResult {
    var objects: [String] = []
    for target in ["PropertyList", "LegacyDefaults", "Preferences", "PreferencesMigration"] {
      let folder = External.packageRoot.appendingPathComponent("Sources/\(target)")
      for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
      where name.hasSuffix(".swift") {
        objects.append(buildFolder.appendingPathComponent("\(target).build/\(name).o").path)
      }
    }
    // The C module LegacyDefaults imports: its module map and its object.
    let cModule = buildFolder.appendingPathComponent("CSystemCalls.build")
    objects.append(cModule.appendingPathComponent("CSystemCalls.c.o").path)
    let swiftc = try #require(External.which("swiftc"))
    return try External.run(
      swiftc,
      [
        "-swift-version", "6", "-o", executable.path, "-I",
        buildFolder.appendingPathComponent("Modules").path, "-Xcc",
        "-fmodule-map-file=" + cModule.appendingPathComponent("module.modulemap").path,
      ]
        + sources.map(\.path) + objects)
  }

  static func generate(_ arguments: [String], into file: URL) throws {
    let run = try External.run(binary, ["plan", "swift"] + arguments)
    #expect(run.status == 0, "\(run.stderr)")
    try run.stdout.write(to: file)
  }

  @Test func theGeneratedPlanMigratesTheSampleByteForByte() throws {
    let folder = try TemporaryFolder()
    let generated = folder.file("Generated.swift")
    try Self.generate([Self.plan, Self.sample], into: generated)
    let main = folder.file("main.swift")
    try Data(
      """
      import Foundation
      import LegacyDefaults
      import Preferences
      import PreferencesMigration

      let arguments = CommandLine.arguments
      do {
        // As an app migrates at launch from a legacy file that stays where it is.
        let new = try DefaultsStore(
          url: URL(fileURLWithPath: arguments[2]), newFileFormat: .binary, flushAtExit: false)
        let legacy = try DefaultsStore(url: URL(fileURLWithPath: arguments[1]), flushAtExit: false)
        let report = try new.migrate(.equizmoPlan, from: legacy.storage)
        print(report.files[0].status.rawValue)
      } catch {
        print("error: \\(error)")
      }
      do {
        let store = PreferencesStore(
          try DefaultsStore(url: URL(fileURLWithPath: arguments[2]), flushAtExit: false))
        print(try store.value(for: Keys.weatherLocationHistory)?.history.count ?? -1)
        print(try store.value(for: Keys.weatherCurrentLocation)?.address ?? "none")
        print(try store.value(for: Keys.rankingSize))
      } catch {
        print("error: \\(error)")
      }
      """.utf8
    ).write(to: main)
    let executable = folder.file("generated-plan")
    let build = try Self.compile([generated, main], to: executable)
    #expect(build.status == 0, "\(build.stderr)")
    guard build.status == 0 else { return }

    let fromSwift = folder.file("swift.plist")
    let run = try External.run(executable.path, [Self.sample, fromSwift.path])
    #expect(run.status == 0, "\(run.stderr)")
    let fromJSON = folder.file("json.plist")
    let cli = try External.run(
      Self.binary, ["migrate", "--plan", Self.plan, "--to", fromJSON.path, Self.sample])
    #expect(cli.status == 0, "\(cli.stderr)")
    #expect(try Data(contentsOf: fromSwift) == Data(contentsOf: fromJSON))

    // The generated Codable types read the migrated JSON back; the expected values come from
    // Foundation's reading of the legacy file.
    let legacy = try #require(
      PropertyListSerialization.propertyList(
        from: Data(contentsOf: URL(fileURLWithPath: Self.sample)), format: nil) as? [String: Any])
    let historyJSON = try #require(legacy["locationHistory"] as? Data)
    let currentJSON = try #require(legacy["currentLocation"] as? Data)
    let history = try #require(
      JSONSerialization.jsonObject(with: historyJSON) as? [String: Any])
    let current = try #require(
      JSONSerialization.jsonObject(with: currentJSON) as? [String: Any])
    let lines = run.output.split(separator: "\n").map(String.init)
    #expect(lines.first == "migrated")
    #expect(lines.dropFirst().first == "\((history["history"] as? [Any])?.count ?? -2)")
    #expect(lines.dropFirst(2).first == current["address"] as? String)
    let ranking = try #require(legacy["PREFS_RANKING_SIZE"] as? String)
    #expect(lines.dropFirst(3).first == ranking.trimmingCharacters(in: .whitespaces))
  }

  @Test(.enabled(if: External.which("swift") != nil, "needs swift format"))
  func theSourceIsAsSwiftFormatLeavesIt() throws {
    let folder = try TemporaryFolder()
    let generated = folder.file("Generated.swift")
    try Self.generate([Self.plan, Self.sample], into: generated)
    let swift = try #require(External.which("swift"))
    let formatted = try External.run(swift, ["format", generated.path])
    #expect(formatted.status == 0, "\(formatted.stderr)")
    #expect(formatted.output == (try String(contentsOf: generated, encoding: .utf8)))
  }

  @Test func anInferredFleetPlanCompiles() throws {
    let folder = try TemporaryFolder()
    let fleet = try PlanCommandTests.fleet(60, in: folder)
    let infer = try External.run(Self.binary, ["plan", "infer", fleet])
    #expect(infer.status == 0, "\(infer.stderr)")
    let plan = folder.file("fleet-plan.json")
    try infer.stdout.write(to: plan)
    let generated = folder.file("Generated.swift")
    try Self.generate([plan.path, fleet], into: generated)
    let source = try String(contentsOf: generated, encoding: .utf8)
    #expect(source.contains("enum Theme: String, PreferenceValue, CaseIterable"))
    #expect(source.contains("struct Profile: CodablePreference"))
    #expect(source.contains("var age: Int"))
    #expect(source.contains("Key<PlistValue?>(\"legacyBlob\")"))
    let main = folder.file("main.swift")
    try Data(
      """
      import PreferencesMigration
      import Preferences
      print(MigrationPlan.fleetPlan.entries.count, Keys.theme.name, Keys.profile.name)
      """.utf8
    ).write(to: main)
    let executable = folder.file("fleet-keys")
    let build = try Self.compile([generated, main], to: executable)
    #expect(build.status == 0, "\(build.stderr)")
    guard build.status == 0 else { return }
    let run = try External.run(executable.path, [])
    #expect(run.output == "\(PlanCommandTests.intended.count) theme profile\n")
  }

  @Test func aMissingLegacyFileIsReported() throws {
    let folder = try TemporaryFolder()
    let run = try External.run(
      Self.binary, ["plan", "swift", Self.plan, folder.file("absent.plist").path])
    #expect(run.status == 66)
    #expect(run.stderr.contains("absent.plist"))
  }

  @Test(arguments: [
    ["plan", "swift"], ["plan", "swift", "--name", "not an identifier", "p.json"],
    ["plan", "swift", "--jobs", "2", "p.json"],
  ])
  func wrongInputIsAUsageError(_ arguments: [String]) throws {
    let run = try External.run(Self.binary, arguments)
    #expect(run.status == 64, "\(arguments): \(run.stderr)")
  }

  /// The plan's `drop` is carried into Swift (short and long lists, as `swift format` lays
  /// them out), so the Swift plan drops what the JSON plan drops.
  @Test(arguments: [2, 12])
  func theDropListIsCarriedIntoSwift(count: Int) throws {
    let folder = try TemporaryFolder()
    let keys = (0..<count).map { "old.setting.number\($0)" }
    let planFile = folder.file("drop-plan.json")
    let list = keys.map { "\"\($0)\"" }.joined(separator: ", ")
    try Data(
      """
      {"plan": 1, "schemaVersion": 1, "unmapped": "keep", "drop": [\(list)],
       "keys": [{"from": "a", "to": "b", "type": "bool"}, {"from": "c", "to": "d", "type": "bool"}]}
      """.utf8
    ).write(to: planFile)
    let generated = folder.file("Generated.swift")
    try Self.generate([planFile.path], into: generated)
    let source = try String(contentsOf: generated, encoding: .utf8)
    #expect(source.contains("drop: ["), "\(source)")
    if let swift = External.which("swift") {
      let formatted = try External.run(swift, ["format", generated.path])
      #expect(formatted.output == source, "not as swift format leaves it")
    }
    let main = folder.file("main.swift")
    try Data(
      """
      import PreferencesMigration
      print(MigrationPlan.dropPlan.drop.sorted().joined(separator: ","))
      """.utf8
    ).write(to: main)
    let executable = folder.file("drop-plan")
    let build = try Self.compile([generated, main], to: executable)
    #expect(build.status == 0, "\(build.stderr)")
    guard build.status == 0 else { return }
    let run = try External.run(executable.path, [])
    #expect(run.output == keys.sorted().joined(separator: ",") + "\n")
  }
}
