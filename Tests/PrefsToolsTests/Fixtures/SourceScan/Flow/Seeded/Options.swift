// swift-format-ignore-file
import Foundation

// Registered numbers boxed with an explicit literal type.
func registerDefaults(_ defaults: UserDefaults) {
  defaults.register(defaults: [
    "Socks.Port": NSNumber(value: 1086 as UInt16),
    "Socks.Timeout": NSNumber(value: 60 as UInt),
    "Pac.Local": NSNumber(value: true as Bool),
    "Http.Port": 1087 as Int,
    // Trap: a conditional cast is not a value.
    "Http.Address": someAddress() as? String as Any,
  ])
}

func someAddress() -> Any { "127.0.0.1" }

// A fresh instance's property as the fallback: that property's initial value.
final class ScrollDefaults: Codable {
  var step = 33.6 {
    didSet { print(step) }
  }
  var speed = 2.70
  var label: String = "wheel"
  var computedLimit: Double { step * 2 }
  static var step2 = 9.0
}

final class Options {
  var scroll = ScrollDefaults()

  func read() {
    if let stored = UserDefaults.standard.object(forKey: "step") as? Double {
      scroll.step = stored
    } else {
      scroll.step = ScrollDefaults().step
    }
    scroll.speed = UserDefaults.standard.object(forKey: "speed") as? Double ?? ScrollDefaults().speed
    scroll.label = UserDefaults.standard.string(forKey: "label") ?? ScrollDefaults().label
    // Traps: a computed property and a type that is not declared have no initial value.
    let limit = UserDefaults.standard.object(forKey: "limit") as? Double ?? ScrollDefaults().computedLimit
    let other = UserDefaults.standard.object(forKey: "other") as? Double ?? Undeclared().step
    print(limit, other)
  }
}

// A key constant made by a closure run once: each key it may give.
enum Keys {
  static let libraryPath: String = {
    #if DEBUG
      return ProcessInfo.processInfo.environment["PREVIEW"] != nil ? "libraryPath-preview" : "libraryPath"
    #else
      return "libraryPath"
    #endif
  }()
}

func libraryPath() -> String? { UserDefaults.standard.string(forKey: Keys.libraryPath) }

// Traps: a closure whose return is only known at run time, or that returns from a closure of
// its own, makes no key.
enum RuntimeKeys {
  static let perUser: String = {
    return "cache-\(ProcessInfo.processInfo.processIdentifier)"
  }()
  static let nested: String = {
    let pick = { () -> String in return "inner" }
    return pick()
  }()
}

func cached() -> Bool { UserDefaults.standard.bool(forKey: RuntimeKeys.perUser) }
func nestedValue() -> Bool { UserDefaults.standard.bool(forKey: RuntimeKeys.nested) }
