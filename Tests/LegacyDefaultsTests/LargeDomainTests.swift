import Foundation
import LegacyDefaults
import PropertyList
import TestSupport
import Testing

/// A binary domain of `DomainFile.windowedFrom` bytes and more, as a store loads it: parsed in
/// windows and digested, never kept whole. The values are what the whole read gives, the
/// store's own writes are still recognised, another writer's are still seen.
@Suite struct LargeDomainTests {
  /// A binary domain file just over the windowed size: (its values, its bytes).
  static func largeDomain(at url: URL, tag: String = "") throws -> (PlistDictionary, Data) {
    var values = PlistDictionary()
    var i = 0
    var data = Data()
    while data.count < DomainFile.windowedFrom + 4096 {
      for _ in 0..<2000 {
        values["setting.\(i)"] =
          switch i % 4 {
          case 0: .int(i * 7919)
          case 1: .string("value \(i)\(tag)")
          case 2: .array([.real(Double(i) / 3), .bool(i % 3 == 0)])
          default:
            .dictionary([
              "n": .int(i), "date": .date(Date(timeIntervalSinceReferenceDate: Double(i))),
            ])
          }
        i += 1
      }
      data = try PropertyList.write(.dictionary(values), as: .binary)
    }
    try data.write(to: url)
    return (values, data)
  }

  @Test func aStoreLoadsALargeBinaryDomainWithoutKeepingItsBytes() throws {
    let folder = try TemporaryFolder()
    let url = folder.file("com.example.large.plist")
    let (values, data) = try Self.largeDomain(at: url)
    let file = DomainFile(url: url)
    let loaded = try file.load()
    let read = try file.read()
    // The values plistlib-checked whole reads give, and the format.
    #expect(loaded.values == values)
    #expect(loaded.values == read.values)
    #expect(loaded.format == .binary)
    #expect(loaded.unreadable == nil)
    // Not kept: the bytes (a migration's read keeps them, for its backup).
    #expect(loaded.bytes == nil)
    #expect(read.bytes == data)
    // One version for one content, however it was read.
    #expect(loaded.version == read.version)
    #expect(loaded.version == .contents(ContentDigest(data)))
  }

  @Test func aReloadSkipsTheSameBytesAndReadsNewOnes() throws {
    let folder = try TemporaryFolder()
    let url = folder.file("com.example.large.plist")
    _ = try Self.largeDomain(at: url)
    let file = DomainFile(url: url)
    let loaded = try file.load()
    #expect(try file.reload { .read(unlessAt: loaded.version) } == nil)
    // Rewritten with the same bytes (a new file, by rename): still the same version.
    let same = try Data(contentsOf: url)
    try same.write(to: url, options: .atomic)
    #expect(try file.reload { .read(unlessAt: loaded.version) } == nil)
    // Other values, the same size: read.
    let (changed, _) = try Self.largeDomain(at: url, tag: "!")
    let reloaded = try file.reload { .read(unlessAt: loaded.version) }
    #expect(reloaded?.values == changed)
  }

  @Test func aStoreOverALargeDomainReadsAndWritesIt() throws {
    let folder = try TemporaryFolder()
    let url = folder.file("com.example.large.plist")
    let (values, _) = try Self.largeDomain(at: url)
    let store = try DefaultsStore(url: url, flushAtExit: false)
    #expect(store.object(forKey: "setting.1") == values["setting.1"])
    try store.set(.string("new"), forKey: "setting.1")
    #expect(store.synchronize())
    let again = try DomainFile(url: url).read()
    #expect(again.values["setting.1"] == "new")
    #expect(again.values.count == values.count)
  }

  /// A large binary file cut short or broken is unreadable as the whole read says, not lost.
  @Test func aBrokenLargeDomainIsUnreadableAndLeftAlone() throws {
    let folder = try TemporaryFolder()
    let url = folder.file("com.example.large.plist")
    let (_, data) = try Self.largeDomain(at: url)
    var broken = data
    broken[broken.count - 20] = 0xFF  // the object count's high byte: larger than the file
    try broken.write(to: url)
    let loaded = try DomainFile(url: url).load()
    let read = try DomainFile(url: url).read()
    #expect(loaded.values.isEmpty)
    #expect(loaded.unreadable != nil)
    #expect(loaded.unreadable == read.unreadable)
    #expect(try Data(contentsOf: url) == broken)
  }

  /// A file cut in place after it was opened (a writer that writes in place): neither the
  /// digest nor the windowed parse claims it; the store's read falls back to reading it whole,
  /// and a cut file is unreadable, as a whole read finds it.
  @Test func aFileCutAfterItWasOpenedIsReadWhole() throws {
    let folder = try TemporaryFolder()
    let url = folder.file("com.example.large.plist")
    let (_, data) = try Self.largeDomain(at: url)
    let file = try FileAccess.openForReading(url.path, limit: 1 << 30)
    let handle = try FileHandle(forWritingTo: url)
    try handle.truncate(atOffset: UInt64(data.count / 2))
    try handle.close()
    #expect(try file.digest() == nil)
    #expect(try file.binaryDocument(limits: .default) == nil)
    #expect(try file.readAll() == data.prefix(data.count / 2))
    // And the same for a store now: the half file is unreadable, not an error, not lost.
    let loaded = try DomainFile(url: url).load()
    #expect(loaded.unreadable != nil)
    #expect(try Data(contentsOf: url) == data.prefix(data.count / 2))
  }
}
