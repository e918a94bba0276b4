import Foundation
import LegacyDefaults
import PropertyList
import TestSupport
import Testing

/// Durability with real processes (`prefs-stress`): concurrent writers, SIGKILL at random
/// moments, normal exit without `synchronize()`.
/// (Slow: skipped by the quick test line, `swift test --skip /Slow/`.)
enum DurabilityTests {
  @Suite(.tags(.slow)) struct Slow {
    static let stress = External.product("prefs-stress")

    @Test func fourProcessesWritingDistinctKeysLoseNone() async throws {
      let folder = try TemporaryFolder()
      let file = folder.file("shared.plist")
      let processes = try (0..<4).map { n -> Process in
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.stress)
        process.arguments = ["write-keys", file.path, "p\(n)", "100"]
        try process.run()
        return process
      }
      for process in processes {
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
      }
      guard case .dictionary(let values) = try PropertyList.read(Data(contentsOf: file)).value
      else {
        Issue.record("not a dictionary")
        return
      }
      #expect(values.count == 400)
      for n in 0..<4 {
        for i in 0..<100 { #expect(values["p\(n)-\(i)"] == .integer(Int64(i))) }
      }
    }

    /// SIGKILL a writer at random moments over hundreds of synchronize cycles: the file always
    /// parses and holds the last acknowledged value or a later one.
    @Test func killedWritersNeverLoseAnAcknowledgedValue() throws {
      let folder = try TemporaryFolder()
      let file = folder.file("killed.plist")
      var cycles = 0
      for round in 0..<20 {
        // Each round counts from 1 on a domain that holds nothing yet, so a round whose writes
        // were all lost cannot pass on what an earlier round left.
        try? FileManager.default.removeItem(at: file)
        let acks = try KilledWriter.run(
          Self.stress, ["cycle", file.path, "1000000"], killAfter: 20_000...80_000)
        cycles += acks.count
        guard let lastAcked = acks.last else { continue }
        // Acknowledged: the file exists, parses, and holds that value or a later one.
        let document = try PropertyList.read(Data(contentsOf: file))
        let counter = document.value["counter"].map { Dialect.apple.integer($0) } ?? 0
        #expect(counter >= lastAcked, "round \(round): file has \(counter), acked \(lastAcked)")
      }
      print("durability: \(cycles) acknowledged synchronize cycles across 20 SIGKILLed writers")
      // The kill windows are random: what matters is no lost value, not how many cycles ran.
      #expect(cycles > 0)
    }

    @Test func pendingWritesSurviveNormalExit() throws {
      let folder = try TemporaryFolder()
      let file = folder.file("exit.plist")
      let result = try External.run(Self.stress, ["exit-pending", file.path, "name", "Lucas"])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(try PropertyList.read(Data(contentsOf: file)).value == ["name": "Lucas"])
    }
  }
}
