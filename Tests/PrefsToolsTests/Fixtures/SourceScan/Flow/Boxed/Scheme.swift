// swift-format-ignore-file
import SwiftUI

// An Int enum with no raw values written: system is 0.
enum ColorChoice: Int {
    case system
    case light
    case dark
}

final class SchemeStore: ObservableObject {
    // The observers after the initial value are not part of it: the default is 0.
    @AppStorage("bx.colorChoice") var colorChoice: ColorChoice = .system {
        didSet { apply() }
    }
    func apply() {}
}
