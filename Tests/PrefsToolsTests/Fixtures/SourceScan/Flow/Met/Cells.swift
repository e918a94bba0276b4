import Foundation
import UIKit

// A settings cell keeps the key it is given in a member; each assignment elsewhere
// (`cell.defaultKey = "K"`) is a key. The fallback another member holds is whatever the cell
// was given before: no default from it.
class SwitchCell: UITableViewCell {
  var fallback = false
  var defaultKey: String? {
    didSet {
      if let key = defaultKey {
        control.isOn = UserDefaults.standard.bool(forKey: key, fallback: fallback)
      }
    }
  }
  let control = UISwitch()

  @objc func changed() {
    if let key = defaultKey { UserDefaults.standard.set(control.isOn, forKey: key) }
  }
}

// Trap: a member set by the type's own initializer from a parameter (`self.storageKey = …`).
final class Store {
  let defaults = UserDefaults.standard
  private let storageKey: String
  init(namespace: String) {
    self.storageKey = "\(namespace)-store"
  }
  func read() -> Data? { defaults.data(forKey: storageKey) }
}

// Trap: a member of that name two types declare says nothing of which object is given a key.
class FirstRow {
  var title: String?
  func show() { _ = UserDefaults.standard.string(forKey: title ?? "") }
}
class SecondRow { var title: String? }

final class SettingsController {
  func cells() -> [UITableViewCell] {
    let a = SwitchCell()
    a.fallback = true
    a.defaultKey = "metSwipe"
    let b = SwitchCell()
    b.defaultKey = "metLog"
    let row = SecondRow()
    row.title = "Not a key"
    return [a, b]
  }
}
