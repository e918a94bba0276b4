import Foundation
import LegacyDefaults
import Preferences
import PropertyList

/// Many writers of one domain: processes × threads each running `modify` (read, change,
/// write under the cross-process lock, flushed to disk) on one counter, against one thread of
/// one process doing the same. Every update must land: the counter is checked at the end.
extension Bench {
  func contendedModify() throws {
    let file = folder.appendingPathComponent("contended.plist")
    let count = quick ? 40 : 200
    let (processes, threads) = (6, 4)
    let each = max(1, count / (processes * threads)) * 4
    func run(_ children: Int, _ threads: Int, _ updates: Int) throws -> Double {
      try PropertyList.write(.dictionary(makeDomain(200)), as: .binary).write(to: file)
      let start = DispatchTime.now().uptimeNanoseconds
      let running = try (0..<children).map { _ -> Process in
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = [ModifyChild.flag, file.path, String(threads), String(updates)]
        try process.run()
        return process
      }
      for process in running {
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
          throw BenchError(description: "a modify child exited \(process.terminationStatus)")
        }
      }
      let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
      let total = children * threads * updates
      let value = try PropertyList.read(Data(contentsOf: file)).value
      guard case .dictionary(let d) = value, d[ModifyChild.key] == .integer(Int64(total)) else {
        throw BenchError(description: "updates were lost: \(total) made, the file says otherwise")
      }
      return elapsed / Double(total)
    }
    let single = try run(1, 1, count)
    let contended = try run(processes, threads, each)
    cases.append(
      Case(
        name:
          "`modify` of one key, \(processes) processes × \(threads) threads (time per update; none lost)",
        prefs: contended, baseline: "one thread of one process", baselineMs: single,
        note: "throughput \(String(format: "%.2f", single / contended))× one thread's",
        target: 2))
  }
}

/// `prefs-bench --modify-child FILE THREADS COUNT`: THREADS threads of one store each add 1
/// to a counter COUNT times with `modify`.
enum ModifyChild {
  static let flag = "--modify-child"
  static let key = "bench.counter"

  static func runIfAsked() -> Int32? {
    let args = CommandLine.arguments
    guard args.count == 5, args[1] == flag, let threads = Int(args[3]), let count = Int(args[4])
    else { return nil }
    let store: PreferencesStore
    do {
      store = try PreferencesStore(url: URL(fileURLWithPath: args[2]))
    } catch {
      FileHandle.standardError.write(Data("prefs-bench: \(error)\n".utf8))
      return 1
    }
    let counter = Key<Int>(key, default: 0)
    let failures = Locked([String]())
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      for _ in 0..<count {
        do {
          try store.modify(counter) { $0 += 1 }
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
      }
    }
    let all = failures.withLock { $0 }
    for failure in all {
      FileHandle.standardError.write(Data("prefs-bench: \(failure)\n".utf8))
    }
    return all.isEmpty ? 0 : 1
  }
}
