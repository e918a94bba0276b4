import Foundation
import LegacyDefaults
import PropertyList
import TestSupport
import Testing

/// Fuzzer findings of the `dialects` target (Fixtures/fuzz-regressions/dialects-*): every getter
/// of every dialect on the input as a string. The first was a 200,000-character string that
/// took `Dialect.apple.double` 0.4 s (it copied the string one scalar at a time, twice);
/// each input must now take well under a second, as the hostile inputs must.
@Suite struct DialectRegressionTests {
  static let folder = External.packageRoot.appendingPathComponent(
    "Tests/PropertyListTests/Fixtures/fuzz-regressions")
  static let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
    .filter { $0.hasPrefix("dialects-") }.sorted()

  @Test func thereAreFindingsToReplay() { #expect(!Self.files.isEmpty) }

  @Test(arguments: files)
  func everyGetterOnTheInput(name: String) throws {
    let data = try Data(contentsOf: Self.folder.appendingPathComponent(name))
    let value = PlistValue.string(String(decoding: data, as: UTF8.self))
    let clock = ContinuousClock()
    let start = clock.now
    for dialect in Dialect.allCases {
      _ = dialect.bool(value)
      _ = dialect.integer(value)
      _ = dialect.double(value)
      _ = dialect.float(value)
      _ = dialect.string(value)
      _ = dialect.url(value, home: "/home/test")
    }
    // Catches a hang, not slowness (speed targets live in prefs-bench).
    #expect(clock.now - start < .seconds(30), "\(name)")
  }
}
