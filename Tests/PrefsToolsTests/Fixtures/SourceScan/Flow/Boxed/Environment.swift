// swift-format-ignore-file
import Foundation

// The user defaults an environment object holds, reached through a chain of members.
struct AppEnvironment {
    static var current = AppEnvironment()
    let defaults: UserDefaults = .standard
}

enum Utilities {
    // A dictionary made empty by its type's initializer, filled by updateValue(_:forKey:) with
    // boxed numbers: bx.maxHistory 30 (an integer), bx.showIcon true.
    static func registerDefaults() {
        var defaultValues = [String: Any]()
        defaultValues.updateValue(NSNumber(value: 30), forKey: "bx.maxHistory")
        defaultValues.updateValue(NSNumber(value: true), forKey: "bx.showIcon")
        AppEnvironment.current.defaults.register(defaults: defaultValues)
    }

    static func maxHistory() -> Int { AppEnvironment.current.defaults.integer(forKey: "bx.maxHistory") }
    static func showIcon() -> Bool { AppEnvironment.current.defaults.bool(forKey: "bx.showIcon") }
}

// A protocol UserDefaults is made to conform to: a parameter of it is user defaults.
protocol UserDefaulting {
    func bool(forKey defaultName: String) -> Bool
    func setValue(_ value: Any?, forKey key: String)
}
extension UserDefaults: UserDefaulting {}

struct Migration {
    let userDefaultsKey: String
    func migrate(_ userDefaults: UserDefaulting) {
        guard !userDefaults.bool(forKey: userDefaultsKey) else { return }
        userDefaults.setValue(true, forKey: userDefaultsKey)
    }
}

enum Migrations {
    static func all() -> [Migration] { [Migration(userDefaultsKey: "bx.migrated.v2")] }
}
