import Foundation
import TestSupport
import Testing

@testable import PropertyList

#if canImport(Glibc)
  import Glibc
#endif

/// A binary file parsed in windows (how a store loads a large domain) against the same bytes
/// read whole (`PropertyList.read`, itself checked against plutil, plistlib and GNUstep by
/// the other suites): the same document, or the same error, for every fixture, generated
/// documents and corrupted copies of both, with windows small enough that objects span pages
/// and the walk goes back and forth.
@Suite struct WindowedReadTests {
  /// Window shapes: (page size as a shift, pages kept). 16-byte pages and two of them make
  /// almost every object cross a page and every stream evict another.
  static let shapes: [(Int, Int)] = [(4, 2), (5, 3), (7, 4), (14, 16)]

  /// `data` written to a file and parsed in windows of each shape, compared with the whole
  /// read; the number of shapes that agreed.
  static func agree(
    _ data: Data, label: String, in folder: TemporaryFolder,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws -> Int {
    let url = folder.file("input.bplist")
    try data.write(to: url)
    let fd = open(url.path, O_RDONLY)
    #expect(fd >= 0)
    defer { close(fd) }
    let whole = Result { () throws(PlistError) in try PropertyList.read(data) }
    var agreed = 0
    for (shift, slots) in shapes {
      let windowed = PropertyList.readBinary(
        fileDescriptor: fd, size: data.count, pageShift: shift, slots: slots)
      switch (whole, windowed) {
      case (.success(let a), .success(let b)) where a.value == b.value && a.warnings == b.warnings:
        agreed += 1
      case (.failure(let a), .failure(.plist(let b))) where a == b:
        agreed += 1
      default:
        Issue.record(
          "\(label), pages 2^\(shift) x \(slots): whole \(whole), windowed \(windowed)",
          sourceLocation: sourceLocation)
      }
    }
    return agreed
  }

  /// The binary inputs: every binary fixture, and every text fixture that reads, in the
  /// binary writer's form.
  static func binaryInputs() -> [(Data, String)] {
    var inputs: [(Data, String)] = []
    for url in StreamConversionTests.fixtureFiles() {
      guard let data = try? Data(contentsOf: url) else { continue }
      if data.starts(with: BinaryPlist.magic) { inputs.append((data, url.lastPathComponent)) }
      if let document = try? PropertyList.read(data),
        let binary = try? PropertyList.write(document.value, as: .binary)
      {
        inputs.append((binary, url.lastPathComponent + " as binary"))
      }
    }
    return inputs
  }

  @Test func everyFixtureAndItsCorruptions() throws {
    let folder = try TemporaryFolder()
    let inputs = Self.binaryInputs()
    #expect(inputs.count > 150, "\(inputs.count) binary inputs")
    var rng = SeededGenerator(seed: 22)
    var compared = 0
    var expected = 0
    var failures = 0
    for (data, label) in inputs {
      compared += try Self.agree(data, label: label, in: folder)
      expected += Self.shapes.count
      // Four single-byte corruptions of each: the same error (or document) either way.
      for _ in 0..<4 where data.count > 8 {
        expected += Self.shapes.count
        var bad = data
        let at = Int.random(in: 8..<data.count, using: &rng)
        bad[at] = UInt8.random(in: 0...255, using: &rng)
        if (try? PropertyList.read(bad)) == nil { failures += 1 }
        compared += try Self.agree(bad, label: "\(label) with byte \(at) changed", in: folder)
      }
    }
    // The corruptions reach the errors, not only the documents.
    #expect(failures > inputs.count)
    #expect(compared == expected)
  }

  @Test func generatedDocuments() throws {
    let folder = try TemporaryFolder()
    var rng = SeededGenerator(seed: 2222)
    for n in 0..<150 {
      let value = StreamConversionTests.randomValue(&rng, depth: 0)
      let data = try PropertyList.write(value, as: .binary)
      #expect(try Self.agree(data, label: "generated \(n)", in: folder) == Self.shapes.count)
    }
  }

  /// A file whose walk reads more than its budget in pages is read whole, once, and parses
  /// to the same document.
  @Test func aWalkOverBudgetReadsTheFileWhole() throws {
    let folder = try TemporaryFolder()
    var domain = PlistDictionary()
    for i in 0..<2000 { domain["key \(i)"] = i % 2 == 0 ? .int(i) : .string("value \(i)") }
    let data = try PropertyList.write(.dictionary(domain), as: .binary)
    let url = folder.file("walk.bplist")
    try data.write(to: url)
    let fd = open(url.path, O_RDONLY)
    defer { close(fd) }
    for (budget, whole) in [(data.count, true), (Int.max, false)] {
      let windows = FileWindows(fd: fd, count: data.count, pageShift: 4, slots: 2, budget: budget)
      let (value, _) = try withExtendedLifetime(windows) {
        try BinaryPlistReader.read(WindowBytes(windows), limits: .default)
      }
      #expect(value == .dictionary(domain))
      #expect(windows.readWhole == whole)
      #expect(windows.failure == nil)
    }
  }

  /// A file shorter than the size it was opened with (cut while read): a failure of the
  /// read, at the byte it ended, never a document or a parse error.
  @Test func aFileCutWhileReadIsAnIOFailure() throws {
    let folder = try TemporaryFolder()
    let data = try PropertyList.write(["a": "b", "list": [1, 2, 3]], as: .binary)
    let url = folder.file("cut.bplist")
    try data.prefix(data.count - 10).write(to: url)
    let fd = open(url.path, O_RDONLY)
    defer { close(fd) }
    let result = PropertyList.readBinary(fileDescriptor: fd, size: data.count)
    #expect(result == .failure(.io(errno: 0, offset: data.count - 10)))
    // A descriptor that cannot be read: the errno.
    let bad = PropertyList.readBinary(fileDescriptor: -1, size: data.count)
    #expect(bad == .failure(.io(errno: EBADF, offset: 0)))
  }
}
