// Keys that reach UserDefaults through a parameter, a member or a property wrapper: only the
// call sites hold the literal.
import Foundation

/// A property wrapper that keeps its key and default (init(key:default:store:)).
@propertyWrapper
struct Stored<Value> {
  let key: String
  let defaultValue: Value
  let store: UserDefaults

  init(key: String, default defaultValue: Value, store: UserDefaults = .standard) {
    self.key = key
    self.defaultValue = defaultValue
    self.store = store
  }

  var wrappedValue: Value {
    get { store.object(forKey: key) as? Value ?? defaultValue }
    set { store.set(newValue, forKey: key) }
  }
}

enum AppSettings {
  @Stored(key: "wrapper.volume", default: 0.5) static var volume: Double  // double, 0.5
  @Stored(key: "wrapper.showTips", default: true) static var showTips: Bool  // bool, true
}

func applyAudio() -> Double { AppSettings.showTips ? AppSettings.volume : 0 }

/// A generic setting object holding `self.key`, made with a positional key.
final class Setting<T> {
  let key: String
  let fallback: T

  init(_ key: String, fallback: T) {
    self.key = key
    self.fallback = fallback
  }

  var value: T {
    get { UserDefaults.standard.object(forKey: self.key) as? T ?? fallback }
    set { UserDefaults.standard.set(newValue, forKey: self.key) }
  }
}

let maxItems = Setting("setting.maxItems", fallback: 20)  // integer, 20

/// A setting object that reads its key in its initializer and writes it when its property
/// changes.
final class FlagDefault {
  private(set) var key: String
  var enabled: Bool {
    didSet { UserDefaults.standard.set(enabled, forKey: key) }
  }

  init(key: String) {
    self.key = key
    enabled = UserDefaults.standard.bool(forKey: key)
  }
}

let autoHide = FlagDefault(key: "flag.autoHide")  // bool

/// A helper that builds the key from its parameter: done.intro, done.tour (bool).
@discardableResult
func once(_ name: String) -> Bool {
  let key = "done.\(name)"
  if UserDefaults.standard.bool(forKey: key) { return false }
  UserDefaults.standard.set(true, forKey: key)
  return true
}

/// A call of the helper inside another function: done.firstSync (bool).
func onceForSync() -> Bool { once("firstSync") }

/// Two levels: a function passing a key built from its own parameter to the helper:
/// done.screen.settings (bool).
func markSeen(_ screen: String) { once("screen." + screen) }

/// A UserDefaults parameter is the receiver: counter.today is an integer; counter.total is
/// only removed (proposed for drop).
func resetCounters(in defaults: UserDefaults) {
  defaults.removeObject(forKey: "counter.total")
  defaults.set(0, forKey: "counter.today")
}

func start() {
  once("intro")
  once("tour")
  _ = onceForSync()
  markSeen("settings")
  resetCounters(in: .standard)
}

/// An extension of UserDefaults: `#function` names the property.
extension UserDefaults {
  @objc dynamic var showsRuler: Bool {  // showsRuler: bool
    get { bool(forKey: #function) }
    set { set(newValue, forKey: #function) }
  }
}

/// A parameter whose generic type has a `,` (Focus for iOS's initializer, which stopped the
/// scan), then a store given as a defaulted parameter after it.
final class TrackerPanel {
  init(
    publisher: AnyPublisher<URL?, Never>? = nil, limits: [String: Int] = [:],
    store: UserDefaults = .standard
  ) {
    store.set(true, forKey: "panel.shown")  // panel.shown: bool
  }
}
