// swift-format-ignore-file
import Foundation

// Two types' wrappers of the same name that call each other (a cycle the app never runs
// through): the scan follows each a few levels and ends.
enum Primary {
    static var forwards = false

    static func object(forKey key: String) -> Any? {
        if forwards {
            return Secondary.object(forKey: key)
        }
        return UserDefaults.standard.object(forKey: key)
    }
    static func flag(_ key: String) -> Bool {
        object(forKey: key) as? Bool ?? false
    }
}

enum Secondary {
    static func object(forKey key: String) -> Any? {
        Primary.object(forKey: key)
    }
}

func showsBadge() -> Bool {
    Primary.flag("cy.flag")  // cy.flag: bool, false when absent
}
