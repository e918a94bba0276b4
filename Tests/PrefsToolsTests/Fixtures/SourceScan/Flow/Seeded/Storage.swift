// swift-format-ignore-file
import Foundation

// A stored property of user defaults given a suite in the initializer: its keys are that
// suite's, whether the suite's name is written or made at run time.
final class ToastStorage {
  private let defaults: UserDefaults
  private enum Keys {
    static let positionX = "positionX"
  }

  init() {
    let suiteName = "\(Bundle.main.bundleIdentifier ?? "app").toast"
    defaults = UserDefaults(suiteName: suiteName) ?? UserDefaults.standard
  }

  var x: Double { defaults.double(forKey: Keys.positionX) }
}

final class GroupStorage {
  private let store: UserDefaults

  init() {
    self.store = UserDefaults(suiteName: "group.example")!
  }

  var shared: Bool { store.bool(forKey: "sharedFlag") }
}

// Trap: a property of user defaults given the standard domain stays the standard domain.
final class PlainStorage {
  private let plain: UserDefaults

  init() {
    plain = .standard
  }

  var zoom: Int { plain.integer(forKey: "zoomLevel") }
}
