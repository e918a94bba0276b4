import Foundation
import TestSupport
import Testing

/// Two rules of `Docs/architecture.md` that the compiler does not hold: the command reaches the
/// lower layers through `PrefsTools` alone ("The command's one dependency": SwiftPM lets a
/// target import any module built before it), and raw memory stays in the few files that
/// check it ("Raw memory"). Each reads the source tree, as a reviewer would grep it.
@Suite struct LayeringRulesTests {
  static let root = External.packageRoot

  /// The Swift files under `folder` (relative to the package), with their text.
  static func swiftFiles(_ folder: String) throws -> [(path: String, text: String)] {
    let base = root.appendingPathComponent(folder)
    let names = try #require(FileManager.default.enumerator(atPath: base.path))
      .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") && !$0.contains("Fixtures/") }
    return try names.sorted().map { name in
      (
        folder + "/" + name,
        try String(contentsOf: base.appendingPathComponent(name), encoding: .utf8)
      )
    }
  }

  @Test func theCommandImportsItsToolsAndTheValuesOnly() throws {
    let files = try Self.swiftFiles("Sources/PrefsCLI")
    #expect(files.count > 20, "\(files.count) files read")
    var past: [String] = []
    for (path, text) in files {
      for line in text.split(separator: "\n") {
        let words = line.split(separator: " ")
        guard let at = words.firstIndex(of: "import"), at + 1 < words.count else { continue }
        // `import X`, `internal import X`, `@testable import X`; not a word in a comment.
        guard !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") else { continue }
        let module = String(words[at + 1])
        let lower = [
          "LegacyDefaults", "LegacyDefaultsFoundation", "Preferences", "PreferencesMigration",
        ]
        if lower.contains(module) { past.append("\(path): \(line)") }
      }
    }
    #expect(
      past.isEmpty, "the command imports a layer below its tools:\n\(past.joined(separator: "\n"))")
  }

  @Test func rawPointersStayInTheFilesThatCheckThem() throws {
    // The words are split so that this file does not name them.
    let words = [
      "Unsafe" + "Pointer", "Unsafe" + "MutablePointer", "Unsafe" + "RawPointer",
      "Unsafe" + "MutableRawPointer", "Unsafe" + "BufferPointer", "Unsafe" + "MutableBufferPointer",
      "Unsafe" + "RawBufferPointer", "Unsafe" + "MutableRawBufferPointer", "with" + "Unsafe",
      "base" + "Address", "assuming" + "MemoryBound", "bind" + "Memory", "with" + "MemoryRebound",
      "load" + "Unaligned", "store" + "Bytes", "bytes" + "NoCopy", "Opaque" + "Pointer",
    ]
    let files = try Self.swiftFiles("Sources") + Self.swiftFiles("Tests")
    #expect(files.count > 100, "\(files.count) files read")
    let touching = files.filter { file in words.contains { file.text.contains($0) } }.map(\.path)
    #expect(
      touching.count <= 10,
      "\(touching.count) files touch raw pointers:\n\(touching.joined(separator: "\n"))")
    // The readers, the system calls and the scanner's searches among them (the rule is about
    // where raw memory is, not only how much).
    for expected in [
      "Sources/PropertyList/ByteView.swift", "Sources/LegacyDefaults/SystemCalls.swift",
      "Sources/PrefsTools/SourceScan/ByteSearch.swift",
    ] {
      #expect(touching.contains(expected), "\(expected) is where raw memory is checked")
    }
  }
}
