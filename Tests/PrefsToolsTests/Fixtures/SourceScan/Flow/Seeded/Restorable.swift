// swift-format-ignore-file
import Foundation

// A generic property wrapper that reads `object(forKey:) as? Value.RawValue`: its keys are
// typed by the initial values the properties give (a constant, an enum's case).
@propertyWrapper
public struct RestorableState<Value: RawRepresentable> {
  public let key: String
  private var value: Value

  public var wrappedValue: Value {
    get { value }
    set {
      value = newValue
      UserDefaults.standard.set(newValue.rawValue, forKey: key)
    }
  }

  public init(wrappedValue initialValue: Value, _ key: String) {
    self.key = key
    if let raw = UserDefaults.standard.object(forKey: key) as? Value.RawValue,
      let restored = Value(rawValue: raw)
    {
      self.value = restored
    } else {
      self.value = initialValue
    }
  }
}

let defaultSample = """
  Hello
  """

private enum Algorithm: String {
  case md5 = "MD5"
  case sha1 = "SHA1"
}

// Trap: a property of the case's name elsewhere is not its value.
final class Digests {
  static var md5 = ""
  var sha1 = ""
}

final class ToolView {
  @RestorableState("tool.sample") var sample = defaultSample
  @RestorableState("tool.alg") private var algorithm = Algorithm.md5

  func show() { print(sample, algorithm) }
}
