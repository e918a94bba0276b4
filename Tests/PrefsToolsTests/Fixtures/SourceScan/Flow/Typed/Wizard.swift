import Foundation

extension UserDefaults {
  // Read by no code the tree shows.
  @objc dynamic var typedWizardShown: Bool {
    get { bool(forKey: #function) }
    set { set(newValue, forKey: #function) }
  }
}
