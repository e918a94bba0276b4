import Foundation
import TestSupport
import Testing

@testable import PropertyList

/// Bytes in memory as the windowed read's source: the first `available` of them (fewer than
/// the size the read is given: a file cut while it is read), each read counted.
final class MemoryBytes: ByteSource {
  let data: Data
  let available: Int
  private(set) var bytesRead = 0

  init(_ data: Data, available: Int? = nil) {
    self.data = data
    self.available = min(available ?? data.count, data.count)
  }

  func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
    let end = min(offset + buffer.count, available)
    guard offset < end else { return 0 }
    let range = (data.startIndex + offset)..<(data.startIndex + end)
    data.copyBytes(to: buffer, from: range)
    bytesRead += end - offset
    return end - offset
  }
}

/// A binary property list parsed in windows (how a store loads a large domain; the file's
/// own reads are LegacyDefaults') against the same bytes read whole (`PropertyList.read`,
/// itself checked against plutil, plistlib and GNUstep by the other suites): the same
/// document, or the same error, for every fixture, generated documents and corrupted copies
/// of both, with windows small enough that objects span pages and the walk goes back and
/// forth.
@Suite struct WindowedReadTests {
  /// Window shapes: (page size as a shift, pages kept). 16-byte pages and two of them make
  /// almost every object cross a page and every stream evict another.
  static let shapes: [(Int, Int)] = [(4, 2), (5, 3), (7, 4), (14, 16)]

  /// `data` parsed in windows of each shape, compared with the whole read; the number of
  /// shapes that agreed.
  static func agree(
    _ data: Data, label: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) -> Int {
    let whole = Result { () throws(PlistError) in try PropertyList.read(data) }
    var agreed = 0
    for (shift, slots) in shapes {
      let source = MemoryBytes(data)
      let windowed = PropertyList.readBinary(
        from: source, size: data.count, pageShift: shift, slots: slots)
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
      // No walk reads its input more than about five times: its budget (four times its size
      // and 1 MiB) in pages, the read that went past it (a page, or a range across pages),
      // then the whole input once.
      if source.bytesRead > 6 * data.count + (1 << 20) + (1 << shift) {
        Issue.record(
          "\(label), pages 2^\(shift) x \(slots): \(source.bytesRead) bytes read of \(data.count)",
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
    let inputs = Self.binaryInputs()
    #expect(inputs.count > 150, "\(inputs.count) binary inputs")
    var rng = SeededGenerator(seed: 22)
    var compared = 0
    var expected = 0
    var failures = 0
    for (data, label) in inputs {
      compared += Self.agree(data, label: label)
      expected += Self.shapes.count
      // Four single-byte corruptions of each: the same error (or document) either way.
      for _ in 0..<4 where data.count > 8 {
        expected += Self.shapes.count
        var bad = data
        let at = Int.random(in: 8..<data.count, using: &rng)
        bad[at] = UInt8.random(in: 0...255, using: &rng)
        if (try? PropertyList.read(bad)) == nil { failures += 1 }
        compared += Self.agree(bad, label: "\(label) with byte \(at) changed")
      }
    }
    // The corruptions reach the errors, not only the documents.
    #expect(failures > inputs.count)
    #expect(compared == expected)
  }

  @Test func generatedDocuments() throws {
    var rng = SeededGenerator(seed: 2222)
    for n in 0..<150 {
      let value = StreamConversionTests.randomValue(&rng, depth: 0)
      let data = try PropertyList.write(value, as: .binary)
      #expect(Self.agree(data, label: "generated \(n)") == Self.shapes.count)
    }
  }

  /// A source whose walk reads more than its budget in pages is read whole, once, and parses
  /// to the same document.
  @Test func aWalkOverBudgetReadsTheSourceWhole() throws {
    var domain = PlistDictionary()
    for i in 0..<2000 { domain["key \(i)"] = i % 2 == 0 ? .int(i) : .string("value \(i)") }
    let data = try PropertyList.write(.dictionary(domain), as: .binary)
    for (budget, whole) in [(data.count, true), (Int.max, false)] {
      let source = MemoryBytes(data)
      let windows = BinaryWindows(
        source: source, count: data.count, pageShift: 4, slots: 2, budget: budget)
      let (value, _) = try withExtendedLifetime(windows) {
        try BinaryPlistReader.read(WindowBytes(windows), limits: .default)
      }
      #expect(value == .dictionary(domain))
      #expect(windows.readWhole == whole)
      #expect(windows.shortAt == nil)
      // Over budget: the pages read, then the whole source once.
      if whole { #expect(source.bytesRead <= budget + (1 << 4) + data.count) }
    }
  }

  /// A source shorter than the size the read was given (a file cut while read): a short read,
  /// at the byte it ended, never a document or a parse error.
  @Test func aSourceCutWhileReadIsAShortRead() throws {
    let data = try PropertyList.write(["a": "b", "list": [1, 2, 3]], as: .binary)
    let cut = MemoryBytes(data, available: data.count - 10)
    #expect(
      PropertyList.readBinary(from: cut, size: data.count)
        == .failure(.short(offset: data.count - 10)))
    // Nothing there at all: short at the first byte.
    let none = MemoryBytes(data, available: 0)
    #expect(PropertyList.readBinary(from: none, size: data.count) == .failure(.short(offset: 0)))
  }
}
