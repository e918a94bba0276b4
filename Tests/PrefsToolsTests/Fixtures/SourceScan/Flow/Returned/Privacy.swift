// swift-format-ignore-file
import Foundation

// Objective-C names this enum's cases PrivacyOptionFull, PrivacyOptionNameOnly, …
@objc public enum PrivacyOption: Int {
  case full = 0
  case nameOnly
  case hidden
}

// The same suite, from Swift, and a property wrapper whose store is that method's answer.
@propertyWrapper
public struct defaultsDB<Value> {
  private let key: String
  private var container: UserDefaults = HelperTools.defaultsDB()

  public init(_ key: String) {
    self.key = key
  }

  public var wrappedValue: Value {
    get { container.object(forKey: key) as! Value }
    set { container.set(newValue, forKey: key) }
  }
}

final class AccountState {
  @defaultsDB("PhoneNumber")
  var phoneNumber: String?

  func onboarded() -> Bool {
    HelperTools.defaultsDB().bool(forKey: "HasCompletedOnboarding")
  }

  func describe() -> String { phoneNumber ?? "" }
}
