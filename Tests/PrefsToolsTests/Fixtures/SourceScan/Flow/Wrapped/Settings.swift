import Foundation

enum Trigger: String, Codable { case keyboardShortcut, singlePress }
// Trap: a type that writes its own JSON (not its raw value).
enum Position: Int, Codable {
  case nearMouse, nearInput
  func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(["base": rawValue])
  }
}

struct Mode { var enabled: Bool }
enum Keys {
  static let enabled = "wrapped.enabled"
}
enum Probe {
  // Trap: a property of a value the run makes is no constant of that last name.
  static func enabledAtStart(_ mode: Mode?) -> Bool {
    if let mode { return mode.enabled }
    return false
  }
}

final class Settings {
  // The group's suite: the wrapper's default user defaults.
  @Stored(key: "wrapped.username", defaultValue: "")
  var username: String
  // The standard domain, given.
  @Stored(key: "wrapped.launches", defaultValue: 0, defaults: .standard)
  var launches: Int

  #if MAINAPP
    // Only in the app's build, its default with it.
    @Stored(key: "wrapped.lineWidth", defaultValue: 2.5)
    var lineWidth: Double
  #endif

  @Encoded("wrapped.trigger") var trigger = Trigger.keyboardShortcut
  @Encoded("wrapped.position") var position = Position.nearMouse
  @Encoded(Keys.enabled) var enabled = Probe.enabledAtStart(nil)

  func summary() -> String {
    var parts = [username, String(launches), String(describing: trigger)]
    parts.append(String(describing: position))
    parts.append(String(describing: enabled))
    #if MAINAPP
      parts.append(String(lineWidth))
    #endif
    return parts.joined(separator: " ")
  }

  private let store = UserDefaults.group
  func saveIds(_ ids: [String]) { store.set(object: ids, forKey: "wrapped.sessionIds") }
}
