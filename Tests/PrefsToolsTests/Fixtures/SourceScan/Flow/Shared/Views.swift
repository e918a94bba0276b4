import Sharing
import SwiftUI

struct SettingsView: View {
  // `@Shared(.appStorage(K)) var x: T = d`: read as `@AppStorage`.
  @Shared(.appStorage("shared.zoom")) var zoom: Double = 1.5
  @SharedReader(.appStorage("shared.preExecution")) var preExecution: String?
  @Shared(.tutorialShown) var tutorialShown
  // Traps: a value kept in memory or in a file is no key.
  @Shared(.inMemory("shared.scratch")) var scratch = 0
  @Shared(.fileStorage(.documentsDirectory.appending(component: "a.json"))) var items: [Int] = []

  var body: some View {
    Text(Names.tutorialShown.scoped)
  }
}

struct Cache {
  // Trap: an app's own function named `appStorage`, not in an extension of SharedKey.
  func appStorage(_ name: String) -> String { "cache/" + name }
  func path() -> String { appStorage("shared.notAKey") }
}
