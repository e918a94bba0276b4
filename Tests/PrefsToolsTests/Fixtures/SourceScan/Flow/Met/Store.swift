import Foundation
import SwiftUI

// The store is chosen per build: the `#else` branch's (the standard domain) is the default
// build's; neither a test run's suite nor a debug build's is.
enum MetEnvironment { static let isRunningTests = false }

final class MetStorage {
  static let store: UserDefaults = {
    if MetEnvironment.isRunningTests {
      return UserDefaults(suiteName: "org.example.met.tests") ?? .standard
    }
    #if DEBUG
      return UserDefaults(suiteName: "org.example.met.debug") ?? .standard
    #else
      return .standard
    #endif
  }()

  // Sets and arrays the app makes RawRepresentable (their JSON text), made by `T()`.
  @AppStorage("metGroupIds", store: store) var groupIds = Set<String>()
  @AppStorage("metPaths", store: store) var paths = [String]()
}

extension Set: @retroactive RawRepresentable where Element: Codable {
  public init?(rawValue: String) {
    guard let data = rawValue.data(using: .utf8),
      let decoded = try? JSONDecoder().decode(Set<Element>.self, from: data)
    else { return nil }
    self = decoded
  }
  public var rawValue: String {
    (try? JSONEncoder().encode(self)).flatMap { String(data: $0, encoding: .utf8) } ?? "[]"
  }
}

extension Array: @retroactive RawRepresentable where Element: Codable {
  public init?(rawValue: String) {
    guard let data = rawValue.data(using: .utf8),
      let decoded = try? JSONDecoder().decode([Element].self, from: data)
    else { return nil }
    self = decoded
  }
  public var rawValue: String {
    (try? JSONEncoder().encode(self)).flatMap { String(data: $0, encoding: .utf8) } ?? "[]"
  }
}

// Another app's domain made with `.init(suiteName:)` where a UserDefaults is declared.
enum MetWindowManager {
  private static let defaults: UserDefaults =
    .init(suiteName: "com.apple.WindowManager") ?? .standard
  static var tiled: Bool { defaults.bool(forKey: "EnableTiledWindowMargins") }
}
