// swift-format-ignore-file
import Combine
import Foundation

enum Mode: String {
    case light
    case dark
}

final class Prefs: ObservableObject {
    private enum Key: String {
        case mode = "gd.mode"
        case helper = "gd.helper"
        case home = "gd.home"
    }

    // A String enum property written by its raw value and read back as a string: the enum
    // (gd.mode: enum light, dark).
    @Published var mode: Mode {
        didSet { Prefs.save(value: mode.rawValue, key: .mode) }
    }

    // (The caller gives the first value: no default.)
    init(mode: Mode) {
        self.mode = mode
    }

    static func savedMode() -> Mode? {
        (Prefs.load(key: .mode) as? String).flatMap(Mode.init(rawValue:))
    }

    // What a guard's else returns when the wrapper answers nil: gd.helper true.
    var installsHelper: Bool {
        guard let on = Prefs.load(key: .helper) as? Bool else {
            Prefs.save(value: true, key: .helper)
            return true
        }
        return on
    }

    // gd.home: a string, "https://example.com/start" when absent.
    var home: URL {
        guard let text = Prefs.load(key: .home) as? String,
              let url = URL(string: text)
        else {
            return URL(string: "https://example.com/start")!
        }
        return url
    }

    // An empty string made by its initializer: gd.note "" when absent.
    var note: String {
        UserDefaults.standard.string(forKey: "gd.note") ?? String()
    }

    private static func save(value: Any?, key: Key) {
        UserDefaults.standard.set(value, forKey: key.rawValue)
    }

    private static func load(key: Key) -> Any? {
        UserDefaults.standard.object(forKey: key.rawValue)
    }
}

// A string an initializer makes (gd.notice: string).
func storeNotice(at path: String) {
    let text = try? String(contentsOfFile: path, encoding: .utf8)
    UserDefaults.standard.set(text, forKey: "gd.notice")
}
