import Foundation

// MASShortcut's binder with its action as a trailing closure: the key holds the shortcut.
func hdBindShortcuts() {
  MASShortcutBinder.shared().bindShortcut(withDefaultsKey: "hd.nextShortcut") {
    print("next")
  }
}
