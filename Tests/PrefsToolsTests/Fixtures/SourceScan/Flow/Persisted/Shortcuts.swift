import Carbon
import KeyboardShortcuts

// A KeyboardShortcuts name whose initial shortcut is written in Carbon's codes: kVK_ANSI_N is
// 0x2D; optionKey 0x800, cmdKey 0x100 (Events.h). KeyboardShortcuts_persistedBrighter (json,
// {"carbonKeyCode": 45, "carbonModifiers": 2304}).
extension KeyboardShortcuts.Name {
  @MainActor static let persistedBrighter = Self(
    "persistedBrighter",
    default: .init(carbonKeyCode: kVK_ANSI_N, carbonModifiers: (0 | optionKey | cmdKey)))
}

@MainActor func persistedShortcuts() {
  KeyboardShortcuts.onKeyUp(for: .persistedBrighter) {}
}
