// swift-format-ignore-file
import Foundation

// Properties declared here, written to a suite by an extension in another file.
final class Settings {
  static let appGroup = "group.example.settings"
  enum Mode: Int { case fast, slow }

  var renderCount: Int = 0
  var mode: Mode = .fast
  var wraps = true
}
