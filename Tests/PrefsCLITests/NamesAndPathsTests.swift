import Foundation
import PropertyList
import TestSupport
import Testing

/// One rule for a FILE|DOMAIN word, for every verb and both personalities: a word with a `/`
/// (or ending in `.plist`) is a path; any other word is a domain in the preferences folder,
/// never a file of the current folder; a write creates no folder but the preferences folder.
@Suite struct NamesAndPathsTests {
  static let binary = External.product("prefs")

  /// A working folder holding `com.example.notes`, an unrelated file, and a preferences
  /// folder elsewhere.
  struct Scene {
    let folder: TemporaryFolder
    var work: URL { folder.file("work") }
    var config: URL { folder.file("config") }
    let unrelated = Data("my notes, not a property list\n".utf8)

    init() throws {
      folder = try TemporaryFolder()
      try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
      try unrelated.write(to: work.appendingPathComponent("com.example.notes"))
    }

    func run(_ arguments: [String]) throws -> ProcessResult {
      try External.run(
        NamesAndPathsTests.binary, arguments, environment: ["XDG_CONFIG_HOME": config.path],
        in: work)
    }
  }

  static func scene() throws -> Scene { try Scene() }

  @Test(arguments: [
    ["defaults", "write", "com.example.notes", "k", "v"], ["write", "com.example.notes", "k", "v"],
    ["defaults", "import", "com.example.notes", "-"], ["import", "com.example.notes", "-"],
  ])
  func aDomainNameNeverNamesAFileOfTheCurrentFolder(_ arguments: [String]) throws {
    let scene = try Self.scene()
    let input = try PropertyList.write(["k": "v"], as: .xml)
    let result = try External.run(
      Self.binary, arguments, input: input, environment: ["XDG_CONFIG_HOME": scene.config.path],
      in: scene.work)
    #expect(result.status == 0, "\(result.stderr)")
    // The unrelated file is exactly as it was, and nothing was moved aside beside it.
    let file = scene.work.appendingPathComponent("com.example.notes")
    #expect(try Data(contentsOf: file) == scene.unrelated)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: scene.work.path) == ["com.example.notes"])
    // The domain is in the preferences folder.
    let domain = scene.config.appendingPathComponent("com.example.notes.plist")
    #expect(try PropertyList.read(Data(contentsOf: domain)).value == ["k": "v"])
  }

  @Test func readingADomainNamedLikeAFileHereSaysHowToNameTheFile() throws {
    let scene = try Self.scene()
    let result = try scene.run(["read", "com.example.notes"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("name it ./com.example.notes"), "\(result.stderr)")
    // The verbs that read a file say it too (exit 66: no such domain), and read nothing.
    for verb in [["lint", "com.example.notes"], ["convert", "com.example.notes", "--to", "xml"]] {
      let other = try scene.run(verb)
      #expect(other.status == 66, "\(verb)")
      #expect(other.stderr.contains("name it ./com.example.notes"), "\(verb): \(other.stderr)")
      #expect(other.output.isEmpty)
    }
  }

  /// `migrate` and `plan infer` of a domain name that names nothing, beside a file or a folder
  /// of that name in the current folder, say how to name it, as `read` does (they said only
  /// "no such file").
  @Test(arguments: [false, true])
  func migrateAndPlanInferSayHowToNameAFileOrFolderHere(folder: Bool) throws {
    let scene = try Self.scene()
    let sample = External.packageRoot.appendingPathComponent("Legacy/Samples")
    let legacy = scene.work.appendingPathComponent("legacy")
    if folder {
      try FileManager.default.createDirectory(at: legacy, withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        at: sample.appendingPathComponent("com.exmo.equizmo.plist"),
        to: legacy.appendingPathComponent("com.exmo.equizmo.plist"))
    } else {
      try FileManager.default.copyItem(
        at: sample.appendingPathComponent("com.exmo.equizmo.plist"), to: legacy)
    }
    let plan = sample.appendingPathComponent("equizmo-plan.json").path
    let kind = folder ? "a folder" : "a file"
    for verb in [
      ["migrate", "--plan", plan, "--to", "out", "legacy"], ["plan", "infer", "legacy"],
    ] {
      let result = try scene.run(verb)
      #expect(result.status == 66, "\(verb): \(result.stderr)")
      #expect(
        result.stderr.contains(
          "legacy in the current folder is \(kind), not a domain: name it "
            + "./legacy"), "\(verb): \(result.stderr)")
    }
    let named = try scene.run(["plan", "infer", "./legacy"])
    #expect(named.status == 0, "\(named.stderr)")
  }

  /// `defaults` takes a path without `.plist`, however it is spelt.
  @Test(arguments: ["a/b", "./a/b", "ABS/a/b", "a/b.plist", "./a/b.plist"])
  func defaultsAddsPlistToAPathHoweverItIsSpelt(_ spelling: String) throws {
    let scene = try Self.scene()
    try FileManager.default.createDirectory(
      at: scene.work.appendingPathComponent("a"), withIntermediateDirectories: true)
    let word = spelling.replacingOccurrences(of: "ABS", with: scene.work.path)
    let result = try scene.run(["defaults", "write", word, "k", "-int", "7"])
    #expect(result.status == 0, "\(result.stderr)")
    let names = try FileManager.default.contentsOfDirectory(
      atPath: scene.work.appendingPathComponent("a").path)
    #expect(names.filter { !$0.hasSuffix(".lock") } == ["b.plist"])
    let read = try scene.run(["defaults", "read", word, "k"])
    #expect(read.output == "7\n")
  }

  /// The native verbs take a path as written, however it is spelt.
  @Test(arguments: ["a/b.plist", "./a/b.plist", "ABS/a/b.plist", "../work/a/b.plist"])
  func nativeVerbsTakeAPathAsWritten(_ spelling: String) throws {
    let scene = try Self.scene()
    try FileManager.default.createDirectory(
      at: scene.work.appendingPathComponent("a"), withIntermediateDirectories: true)
    let word = spelling.replacingOccurrences(of: "ABS", with: scene.work.path)
    let result = try scene.run(["write", word, "k", "-int", "7"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      try FileManager.default.contentsOfDirectory(
        atPath: scene.work.appendingPathComponent("a").path) == ["b.plist"])
  }

  /// A write never creates missing folders, but the preferences folder itself.
  @Test(arguments: [
    ["write", "../../x/y", "k", "v"], ["write", "./missing/d.plist", "k", "v"],
    ["defaults", "write", "./missing/d", "k", "v"],
    ["plutil", "-create", "xml1", "./missing/d.plist"],
    ["convert", "IN", "--to", "xml", "-o", "./missing/d.plist"],
  ])
  func aWriteNeverCreatesMissingFolders(_ arguments: [String]) throws {
    let scene = try Self.scene()
    let deep = scene.work.appendingPathComponent("one/two")
    try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
    let input = scene.folder.file("in.plist")
    try PropertyList.write(["k": "v"], as: .xml).write(to: input)
    let before = try Self.tree(scene.folder.url)
    let result = try External.run(
      Self.binary, arguments.map { $0 == "IN" ? input.path : $0 },
      environment: ["XDG_CONFIG_HOME": scene.config.path], in: deep)
    #expect(result.status != 0, "\(arguments) succeeded")
    #expect(try Self.tree(scene.folder.url) == before, "\(arguments) created something")
  }

  /// The preferences folder is created when missing (it is the platform's).
  @Test func theFirstWriteOfADomainCreatesThePreferencesFolder() throws {
    let scene = try Self.scene()
    let result = try scene.run(["write", "com.example.first", "k", "v"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      FileManager.default.fileExists(
        atPath: scene.config.appendingPathComponent("com.example.first.plist").path))
  }

  /// Every path below `root`, sorted (what a command created or removed shows as a change).
  static func tree(_ root: URL) throws -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
    return walker.compactMap { $0 as? String }.sorted()
  }
}
