// swift-format-ignore-file
import Foundation

// Another type's constant with the same name as the property below: not what the key holds.
enum Pasteboard {
    static let profileID = "profileID"
}

// Each profile's settings, its keys made of the profile's identifier, known only at run time:
// patterns (*-nickname, *-visible), never keys. The prefix a `let` gives a literal is a
// constant (mb.theme).
final class ProfileSettings {
    private enum Key: String {
        case nickname
        case visible
    }

    private let profileID: String
    private let prefix = "mb."

    init(profileID: String) {
        self.profileID = profileID
    }

    var nickname: String? {
        get { UserDefaults.standard.string(forKey: defaultsKey(.nickname)) }
        set { UserDefaults.standard.set(newValue, forKey: defaultsKey(.nickname)) }
    }

    var visible: Bool {
        UserDefaults.standard.bool(forKey: defaultsKey(.visible))
    }

    var theme: String? {
        UserDefaults.standard.string(forKey: themeKey())  // mb.theme: string
    }
}

private extension ProfileSettings {
    func defaultsKey(_ key: Key) -> String {
        "\(profileID)-\(key.rawValue)"
    }

    func themeKey() -> String {
        "\(prefix)theme"
    }
}
