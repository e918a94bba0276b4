// swift-format-ignore-file
import Foundation

// An app's own `Defaults` in the style of SwiftyUserDefaults, made by a closure that gives
// the app group's suite (the standard domain only in a "lite" build).
let GroupDefaults = UserDefaults(suiteName: "group.example.app")

public var Defaults: UserDefaults = {
  if Bundle.main.bundleIdentifier == "com.example.lite" {
    return UserDefaults.standard
  } else {
    return GroupDefaults ?? UserDefaults.standard
  }
}()

public class DefaultsKeys {
  fileprivate init() {}
}

public class DefaultsKey<ValueType>: DefaultsKeys {
  let _key: String
  init(_ key: String) { self._key = key }
}

extension DefaultsKeys {
  static let quickToggle = DefaultsKey<Bool>("QuickToggle")
}

public extension UserDefaults {
  subscript(key: DefaultsKey<Bool>) -> Bool {
    get { return bool(forKey: key._key) }
    set { set(newValue, forKey: key._key) }
  }
}

func toggled() -> Bool { Defaults[.quickToggle] }
