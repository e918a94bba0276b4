// swift-format-ignore-file
import Foundation
import SwiftUI

// A wrapper answering value(forKey:): the cast at its call types the key (bx.dir: string).
enum Store {
    enum Keys: String {
        case dir = "bx.dir"
    }
    static func getValue(key: Keys) -> Any? { UserDefaults.standard.value(forKey: key.rawValue) }
}

func pluginDirectory() -> String? { Store.getValue(key: .dir) as? String }

// A property wrapper of the app's; a property it declares that no code names again (the
// first, whose key constant has its name in another type) is listed apart, not planned.
@propertyWrapper struct Stored<Value> {
    let key: String
    let fallback: Value
    init(key: String, fallback: Value) {
        self.key = key
        self.fallback = fallback
    }
    var wrappedValue: Value {
        get { UserDefaults.standard.object(forKey: key) as? Value ?? fallback }
        set { UserDefaults.standard.set(newValue, forKey: key) }
    }
}

enum TipKey {
    static let tip = "bx.tip"
    static let shown = "bx.shown"
}

final class Tips {
    @Stored(key: TipKey.tip, fallback: true)
    static var tip: Bool
    @Stored(key: TipKey.shown, fallback: false)
    static var shown: Bool

    func markShown() { Tips.shown = true }  // bx.shown: bool, false
}

// A Float enum's raw value converted to a Double (1), and Foundation's named date.
enum Speed: Float {
    case slow = 0.5
    case normal = 1
}

struct PlayerSettings {
    @AppStorage("bx.rate") var rate: Double = Double(Speed.normal.rawValue)
    static var since: Date {
        UserDefaults.standard.object(forKey: "bx.since") as? Date ?? .distantPast
    }
}

// A suite whose name the app makes at run time: listed apart; `--suite NAME` takes it.
func groupFlag() -> Bool {
    let group = UserDefaults(suiteName: "group." + (Bundle.main.bundleIdentifier ?? ""))
    return group?.bool(forKey: "bx.groupFlag") ?? false
}
