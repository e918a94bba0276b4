import Foundation
import LegacyDefaults
import PropertyList

/// An application domain kept by Foundation's `UserDefaults`: the storage for an app on Apple
/// platforms, where `cfprefsd` owns the preferences files and a process that rewrites them
/// behind its back has its change ignored or overwritten.
///
/// Values go through `UserDefaults` as property-list objects (one bridge, `PlistValue+Foundation.swift`). An update
/// is all-or-nothing: the keys are set, then `synchronize()`; when that fails, every key it set
/// is restored and the error thrown. It never calls `set(nil, forKey:)` (corelibs loops forever
/// on it): a removal is `removeObject(forKey:)`.
///
/// Changes made through other `UserDefaults` instances in this process reach the stores over
/// this storage through `UserDefaults.didChangeNotification` (which swift-corelibs-foundation
/// does not post, so this storage posts it there after each update). Changes by other
/// processes are seen at `DefaultsStore.synchronize()`.
public final class UserDefaultsStorage: DefaultsStorage, @unchecked Sendable {
  /// The `UserDefaults` instance (thread-safe, as Foundation documents it).
  public let userDefaults: UserDefaults
  /// The persistent domain it keeps: the suite name, or the app's bundle identifier.
  public let domain: String

  /// A storage over `userDefaults`, whose persistent domain is `domain`.
  public init(_ userDefaults: UserDefaults, domain: String) {
    self.userDefaults = userDefaults
    self.domain = domain
  }

  /// A storage over `UserDefaults(suiteName:)` (on Linux its file is
  /// `$XDG_CONFIG_HOME/<suiteName>.plist`).
  public convenience init(suiteName: String) throws(DefaultsError) {
    guard !suiteName.isEmpty, let defaults = UserDefaults(suiteName: suiteName) else {
      throw .invalidDomainName(suiteName, reason: "is not a UserDefaults suite name")
    }
    self.init(defaults, domain: suiteName)
  }

  /// `UserDefaults.standard`, whose domain is the app's bundle identifier (the process name
  /// when the process has none).
  public static func standard() -> UserDefaultsStorage {
    UserDefaultsStorage(
      .standard, domain: Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName)
  }

  public var location: DefaultsStore.Location { .userDefaults(domain) }

  /// The suite of that name (beside this one when this suite is named by a path, as corelibs
  /// allows). The global domain is not reached this way.
  public func storage(forDomain name: String) -> (any DefaultsStorage)? {
    guard name != DefaultsStore.globalDomain, !name.contains("/") else { return nil }
    let suite =
      domain.hasPrefix("/")
      ? URL(fileURLWithPath: domain).deletingLastPathComponent().appendingPathComponent(name).path
      : name
    guard
      case .success(let storage) = Result(catching: { () throws(DefaultsError) in
        try UserDefaultsStorage(suiteName: suite)
      })
    else { return nil }
    return storage
  }

  public func load() throws(DefaultsError) -> DomainSnapshot {
    let exclusion = ExclusionTable.userDefaults.acquire(domain)
    defer { ExclusionTable.userDefaults.release(domain) }
    return try exclusion.withLock { () throws(DefaultsError) in try read() }
  }

  private func read() throws(DefaultsError) -> DomainSnapshot {
    var values = PlistDictionary()
    for (key, object) in userDefaults.persistentDomain(forName: domain) ?? [:] {
      values[key] = try FoundationBridge.value(object, key: key)
    }
    return DomainSnapshot(values: values)
  }

  public func update(
    _ change: (DomainSnapshot) throws(DefaultsError) -> DomainChanges
  ) throws(DefaultsError) -> DomainSnapshot {
    let exclusion = ExclusionTable.userDefaults.acquire(domain)
    defer { ExclusionTable.userDefaults.release(domain) }
    let (snapshot, wrote) = try exclusion.withLock {
      () throws(DefaultsError) -> (DomainSnapshot, Bool) in
      let changes = try change(try read())
      // Read again: a nested update from inside `change` may have written meanwhile.
      let current = try read()
      var objects: [(String, Any?)] = []
      for (key, change) in changes.all {
        let value = change.map(Self.storable)
        guard current.values[key] != value else { continue }
        objects.append(
          (
            key,
            try value.map { (v) throws(DefaultsError) in
              try FoundationBridge.object(v, key: key)
            }
          ))
      }
      guard !objects.isEmpty else { return (current, false) }
      var previous: [(String, Any?)] = []
      for (key, _) in objects {
        previous.append(
          (
            key,
            try current.values[key].map { (v) throws(DefaultsError) in
              try FoundationBridge.object(v, key: key)
            }
          ))
      }
      try apply(objects, restoring: previous)
      exclusion.bump()
      return (try read(), true)
    }
    if wrote { Self.announce(userDefaults) }
    return snapshot
  }

  /// Sets every key, then synchronizes; on failure puts `previous` back for the keys it set.
  private func apply(_ objects: [(String, Any?)], restoring previous: [(String, Any?)])
    throws(DefaultsError)
  {
    func put(_ pairs: [(String, Any?)]) {
      for (key, object) in pairs {
        if let object {
          userDefaults.set(object, forKey: key)
        } else {
          userDefaults.removeObject(forKey: key)
        }
      }
    }
    put(objects)
    guard !userDefaults.synchronize() else { return }
    put(previous)
    _ = userDefaults.synchronize()
    throw .cannotWrite(
      path: domain, reason: "UserDefaults.synchronize() failed; every key it set was restored")
  }

  public func removeDomain() throws(DefaultsError) {
    let exclusion = ExclusionTable.userDefaults.acquire(domain)
    defer { ExclusionTable.userDefaults.release(domain) }
    exclusion.withLock {
      userDefaults.removePersistentDomain(forName: domain)
      _ = userDefaults.synchronize()
      exclusion.bump()
    }
    Self.announce(userDefaults)
  }

  /// Notifications arrive on the posting thread, which may hold another domain's lock (a
  /// nested update, or corelibs posting from inside `removePersistentDomain`) while this
  /// domain's lock is held by a thread posting the other way round. So the handler runs at once
  /// only when this domain's lock is free (or held by this thread); otherwise it runs on
  /// another thread, after the writer, which announces again when it is done.
  public func observeChanges(_ handler: @escaping @Sendable () -> Void) -> (any Sendable)? {
    let domain = self.domain
    return NotificationObservation(name: UserDefaults.didChangeNotification) {
      let exclusion = ExclusionTable.userDefaults.acquire(domain)
      defer { ExclusionTable.userDefaults.release(domain) }
      if exclusion.isFreeOrHeldHere {
        handler()
      } else {
        DispatchQueue.global().async(execute: handler)
      }
    }
  }

  /// The value as the medium keeps it. swift-corelibs-foundation writes its files as XML, which
  /// holds dates to the whole second: the fraction is dropped before it is set, so the store's
  /// view is what the next process reads (Apple's `UserDefaults` keeps the fraction).
  static func storable(_ value: PlistValue) -> PlistValue {
    #if canImport(Darwin)
      return value
    #else
      return DomainFile.storable(value, in: .xml)
    #endif
  }

  /// Tells the other `UserDefaults` users of this process. Apple's `UserDefaults` posts the
  /// notification itself on every change; swift-corelibs-foundation's does not.
  private static func announce(_ defaults: UserDefaults) {
    #if !canImport(Darwin)
      NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: defaults)
    #endif
  }
}

/// A NotificationCenter observation that ends when released.
final class NotificationObservation: @unchecked Sendable {
  private let token: NSObjectProtocol

  init(name: Notification.Name, handler: @escaping @Sendable () -> Void) {
    token = NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { _ in
      handler()
    }
  }

  deinit { NotificationCenter.default.removeObserver(token) }
}
