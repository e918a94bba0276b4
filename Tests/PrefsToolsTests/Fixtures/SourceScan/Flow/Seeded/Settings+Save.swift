// swift-format-ignore-file
import Foundation

// User defaults given as a parameter: the suite its caller passes.
extension Settings {
  @discardableResult
  func save() -> Bool {
    guard let defaults = UserDefaults(suiteName: Self.appGroup) else {
      return false
    }
    return self.save(toUserDefaults: defaults)
  }

  @discardableResult
  func save(toUserDefaults defaults: UserDefaults) -> Bool {
    defaults.set(renderCount, forKey: "renderCount")
    defaults.set(mode.rawValue, forKey: "mode")
    defaults.set(wraps, forKey: "wraps")
    return true
  }

  // Trap: a parameter no call gives stays the standard domain.
  func export(to target: UserDefaults) {
    target.set(wraps, forKey: "exportedWraps")
  }
}
