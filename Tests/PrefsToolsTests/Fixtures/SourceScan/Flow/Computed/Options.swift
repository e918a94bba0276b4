// swift-format-ignore-file
import Foundation

enum Toggle: String {
    case sounds = "cp.sounds"
    case badges = "cp.badges"
    case tips = "cp.tips"
}

// A fallback a function computes by a switch on the key: each key's own default.
struct Options {
    private static let store = UserDefaults.standard

    private static func fallback(_ toggle: Toggle) -> Bool {
        switch toggle {
        case .sounds: return true      // cp.sounds: true when absent
        case .badges: return false     // cp.badges: false when absent
        default: return true           // cp.tips: true when absent
        }
    }

    static func isOn(_ toggle: Toggle) -> Bool {
        store.object(forKey: toggle.rawValue) as? Bool ?? fallback(toggle)
    }

    static func set(_ value: Bool, for toggle: Toggle) {
        store.set(value, forKey: toggle.rawValue)
    }
}

func configure() -> Bool {
    Options.set(false, for: .badges)
    return Options.isOn(.sounds) && Options.isOn(.badges) && Options.isOn(.tips)
}
