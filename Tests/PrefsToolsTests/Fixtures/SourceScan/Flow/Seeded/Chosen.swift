// swift-format-ignore-file
import Defaults
import Foundation

// User defaults chosen by a test, over lines: a test run's suite named at run time loses to
// the standard domain; a suite named in the code wins over it.
var defaultsSuite =
  ProcessInfo.processInfo.environment["XCTestConfigurationFilePath"] != nil
  ? UserDefaults(suiteName: UUID().uuidString)!
  : .standard

let widgetDefaults = Bundle.main.bundlePath.hasSuffix(".appex")
  ? UserDefaults(suiteName: "group.example.widget")!
  : .standard

extension Defaults.Keys {
  static let showMenuBarIcon = Key<Bool>("showInMenubar", default: true, suite: defaultsSuite)
}

func menuBarIcon() -> Bool { Defaults[.showMenuBarIcon] }
func widgetFlag() -> Bool { widgetDefaults.bool(forKey: "widgetFlag") }
