import Foundation
import PropertyList
import TestSupport
import Testing

/// The committed hostile corpus (`Fixtures/make_hostile.py`): every file ends in the error kind
/// its manifest names, within a second; every file of `hostile-ok/` (limits exactly met) parses.
@Suite struct HostileCorpusTests {
  struct Entry: Decodable {
    var kinds: [String]?
    var why: String
  }

  struct Manifest: Decodable {
    var files: [String: Entry]
  }

  static func manifest(_ folder: URL) -> [String: Entry] {
    let url = folder.appendingPathComponent("MANIFEST.json")
    guard let data = try? Data(contentsOf: url),
      let manifest = try? JSONDecoder().decode(Manifest.self, from: data)
    else { return [:] }
    return manifest.files
  }

  static let hostile = manifest(Fixtures.hostile).keys.sorted()
  static let accepted = manifest(Fixtures.hostileOK).keys.sorted()

  static func kind(_ error: PlistError) -> String {
    switch error {
    case .empty: "empty"
    case .truncated: "truncated"
    case .malformed: "malformed"
    case .invalidText: "invalidText"
    case .limitExceeded: "limitExceeded"
    case .cycle: "cycle"
    case .unsupported: "unsupported"
    case .unrepresentable, .unrepresentableInJSON: "unrepresentable"
    }
  }

  @Test func corpusIsPresent() {
    #expect(Self.hostile.count >= 100)
    #expect(Self.accepted.count >= 3)
    // Every file in the folders is in its manifest, so none goes untested.
    #expect(Set(Fixtures.files(in: Fixtures.hostile)) == Set(Self.hostile))
  }

  @Test(arguments: hostile)
  func endsInTheRightTypedError(name: String) throws {
    let entry = try #require(Self.manifest(Fixtures.hostile)[name])
    let data = try Data(contentsOf: Fixtures.hostile.appendingPathComponent(name))
    let clock = ContinuousClock()
    let start = clock.now
    do {
      let document = try PropertyList.read(data)
      Issue.record("\(name) (\(entry.why)) parsed as \(document.value.typeName)")
    } catch {
      #expect(
        entry.kinds?.contains(Self.kind(error)) == true,
        "\(name) (\(entry.why)): \(error)")
      // The message says where: a byte offset or a line (the empty file has no place).
      let text = error.description
      #expect(
        error == .empty || text.contains("byte offset") || text.contains("line"),
        "\(name): \(text)")
    }
    // Catches a hang, not slowness (speed targets live in prefs-bench).
    #expect(clock.now - start < .seconds(30), "\(name) took too long")
  }

  /// Each accepted file is read to the value CoreFoundation reads (the toolchain's plutil,
  /// converting it to XML, which prefs reads strictly); the four CoreFoundation refuses
  /// (GNUstep's leniencies, UIDs of 9 and 16 bytes) at least to a value that is not empty.
  @Test(
    .enabled(if: Tools.toolchainPlutil != nil || External.required, "needs the toolchain's plutil"),
    arguments: accepted)
  func limitsExactlyMetAreAccepted(name: String) throws {
    let url = Fixtures.hostileOK.appendingPathComponent(name)
    let ours = try PropertyList.read(try Data(contentsOf: url)).value
    let folder = try TemporaryFolder()
    let converted = folder.file("cf.xml")
    let plutil = try #require(Tools.toolchainPlutil)
    let oracle = try External.run(plutil, ["-convert", "xml1", "-o", converted.path, url.path])
    guard oracle.status == 0 else {
      #expect(
        ours != .dictionary([:]) && ours != .array([]) && ours != .string(""), "\(name): \(ours)")
      return
    }
    let theirs = try PropertyList.read(try Data(contentsOf: converted)).value
    #expect(ours == theirs, "\(name): prefs read \(ours), CoreFoundation \(theirs)")
  }
}
