import Foundation
import LegacyDefaults
import Preferences
import PropertyList
import TestSupport
import Testing

/// Abuse with real processes: many writers mixing operations, a full disk, SIGKILL over many
/// cycles (longer with PREFS_TORTURE_ROUNDS), and files that try to point elsewhere.
/// (Slow: skipped by the quick test line, `swift test --skip /Slow/`.)
enum TortureTests {
  @Suite(.tags(.slow)) struct Slow {
    static let stress = External.product("prefs-stress")

    /// 8 processes mixing set, modify and removeObject on one domain: no lost update.
    @Test func eightProcessesMixingOperationsLoseNothing() throws {
      let folder = try TemporaryFolder()
      let file = folder.file("mixed.plist")
      let count = 40
      let processes = try (0..<8).map { n -> Process in
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.stress)
        process.arguments = ["mix", file.path, "p\(n)", String(count)]
        try process.run()
        return process
      }
      for process in processes {
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
      }
      let values =
        try PropertyList.read(Data(contentsOf: file)).value.dictionaryValue?.swiftDictionary ?? [:]
      #expect(values["counter"] == .int(8 * count))
      for n in 0..<8 {
        for i in 0..<count {
          let removed = i + 2 < count && (i + 2) % 4 == 3
          #expect(values["p\(n)-\(i)"] == (removed ? nil : .int(i)), "p\(n)-\(i)")
        }
      }
    }

    /// A full disk during synchronize: a clear error, the previous file intact, no temporary
    /// file left behind (nor the lock file the failed write created).
    @Test func aFullDiskLeavesThePreviousFileIntact() throws {
      let folder = try TemporaryFolder()
      let file = folder.file("full.plist")
      let before = try PropertyList.write(["name": "Lucas"], as: .xml)
      try before.write(to: file)
      let result = try External.run(Self.stress, ["full-disk", file.path])
      #expect(result.status == 0, "synchronize did not fail: \(result.output) \(result.stderr)")
      #expect(result.output.contains("cannot write"), "\(result.output)")
      #expect(try Data(contentsOf: file) == before)
      let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
      #expect(names == ["full.plist"])
    }

    /// A full disk during migrate: exit 73 or 74, no partial output.
    @Test func aFullDiskDuringMigrate() throws {
      let folder = try TemporaryFolder()
      let plan = External.packageRoot.appendingPathComponent("Legacy/Samples/equizmo-plan.json")
      let legacy = folder.file("legacy.plist")
      // The legacy file is read whole; the new store (with the kept 5,000-byte value) is larger
      // than the 1 KiB the process may write.
      try PropertyList.write(
        ["PREFS_RANKING_SIZE": 7, "notes": .string(String(repeating: "n", count: 5000))],
        as: .binary
      ).write(to: legacy)
      let out = folder.file("out.plist")
      let prefs = External.product("prefs")
      let result = try External.run(
        "/bin/bash",
        [
          "-c", "trap '' XFSZ; ulimit -f 1; exec \"$0\" migrate --plan \"$1\" --to \"$2\" \"$3\"",
          prefs, plan.path, out.path, legacy.path,
        ])
      #expect(result.status == 73 || result.status == 74, "\(result.status): \(result.stderr)")
      #expect(!FileManager.default.fileExists(atPath: out.path))
      // Nothing half-written: the legacy file only (an output in a folder of the user's is
      // written without a lock file unless a prefs writer made one).
      let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
      #expect(names.sorted() == ["legacy.plist"])
    }

    /// SIGKILL a writer at random moments, across PREFS_TORTURE_ROUNDS rounds (default 10; the
    /// torture script runs enough for well over 1,000 synchronize cycles).
    @Test func killedWritersAcrossManyCycles() throws {
      let rounds = Int(ProcessInfo.processInfo.environment["PREFS_TORTURE_ROUNDS"] ?? "") ?? 10
      let folder = try TemporaryFolder()
      let file = folder.file("killed.plist")
      var cycles = 0
      for round in 0..<rounds {
        // A fresh domain each round: a round whose writes were all lost cannot pass on what an
        // earlier round left (leftover temporary files stay, for the check below).
        try? FileManager.default.removeItem(at: file)
        let acks = try KilledWriter.run(
          Self.stress, ["cycle", file.path, "1000000"], killAfter: 10_000...150_000)
        cycles += acks.count
        guard let lastAcked = acks.last else { continue }
        // Acknowledged: the file exists, parses, and holds that value or a later one.
        let document = try PropertyList.read(Data(contentsOf: file))
        let counter = Dialect.apple.integer(document.value["counter"])
        #expect(counter >= lastAcked, "round \(round): file has \(counter), acked \(lastAcked)")
      }
      // A kill between creating and renaming the temporary file can leave it behind; the next
      // synchronize removes such leftovers under the lock.
      let store = try DefaultsStore(url: file, flushAtExit: false)
      try store.set(0, forKey: "after")
      try store.synchronizeOrThrow()
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        .filter { $0.contains(".tmp-") }
      #expect(leftovers.isEmpty, "\(leftovers)")
      print("torture: \(cycles) acknowledged synchronize cycles across \(rounds) SIGKILLed writers")
    }

    @Test func aSymbolicLinkedDomainFileIsRefused() throws {
      let folder = try TemporaryFolder()
      let elsewhere = folder.file("elsewhere.plist")
      try PropertyList.write(["secret": "x"], as: .xml).write(to: elsewhere)
      let link = folder.file("linked.plist")
      try FileManager.default.createSymbolicLink(at: link, withDestinationURL: elsewhere)
      #expect(throws: DefaultsError.self) { try DefaultsStore(url: link, flushAtExit: false) }
      // A lock file planted as a link is not followed either.
      let target = folder.file("victim")
      try Data("keep".utf8).write(to: target)
      let file = folder.file("d.plist")
      try FileManager.default.createSymbolicLink(
        at: folder.file("d.plist.lock"), withDestinationURL: target)
      let store = try DefaultsStore(url: file, flushAtExit: false)
      try store.set(1, forKey: "k")
      #expect(throws: DefaultsError.self) { try store.synchronizeOrThrow() }
      #expect(try Data(contentsOf: target) == Data("keep".utf8))
    }

    @Test func temporaryFilesAreUnpredictableAndPrivate() throws {
      let folder = try TemporaryFolder()
      let file = folder.file("t.plist")
      // Plant the name a predictable writer would use: it must be left alone.
      let planted = folder.file(".t.plist.tmp")
      try Data("planted".utf8).write(to: planted)
      let store = try DefaultsStore(url: file, flushAtExit: false)
      try store.set(1, forKey: "k")
      try store.synchronizeOrThrow()
      #expect(try Data(contentsOf: planted) == Data("planted".utf8))
      let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions]
      #expect(mode as? Int == 0o600)
    }
  }
}
