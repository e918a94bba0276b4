import Foundation
import TestSupport
import Testing

/// Issue 24's done-when, from a package of its own: `Scripts/outside-package.sh` builds a tiny
/// package that depends on this one by path (one build, about 30 s on two cores) and runs it:
/// a store over a domain file sees another process's `prefs write` through `changes(for:)`
/// without `synchronize()`, and a `@Setting` model triggers `withObservationTracking` for a
/// write through the model, through a second store, and by another process; and a storage the
/// package defines itself (issue 33: an open storage identity) is named as it names itself,
/// followed by a second store without a synchronize, and migrated from (absent: `missing`).
/// (Slow: skipped by the quick test line, `swift test --skip /Slow/`.)
enum OutsidePackageTests {
  @Suite(.tags(.slow)) struct Slow {
    @Test(.timeLimit(.minutes(10)))
    func anOutsidePackageSeesChangesWithoutSynchronize() async throws {
      let script = External.packageRoot.appendingPathComponent("Scripts/outside-package.sh").path
      let result = try await External.runOffPool(
        "/bin/bash", [script], environment: ["PREFS": External.product("prefs")])
      #expect(result.status == 0, "\(result.output)\n\(result.stderr)")
      let checks = result.output.split(separator: "\n").filter {
        $0.hasPrefix("ok ") || $0.hasPrefix("FAIL ")
      }
      #expect(checks.count == 15, "\(result.output)")
      #expect(checks.allSatisfy { $0.hasPrefix("ok ") }, "\(result.output)")
    }
  }
}
