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
/// What reaches a store over this storage without a synchronize (``observeChanges(_:)``):
///
/// - Changes made in this process, through this storage or any other `UserDefaults` instance:
///   `UserDefaults.didChangeNotification`, which Apple's Foundation posts for every change
///   made in the process, and swift-corelibs-foundation never posts (this storage posts it
///   there after each of its updates, so stores over one suite in one process follow each
///   other on Linux too). Apple documents that this notification is *not* posted for changes
///   made by other processes.
/// - On Apple platforms, changes made by other processes (another instance of the app, an app
///   extension or widget sharing an app-group suite, `defaults write`), through key-value
///   observing of the keys the store's observers follow: `cfprefsd` delivers those for
///   observed keys, whichever process made the change. It delivers nothing for a key no one
///   observes (a plain read of it sees another process's change at the next synchronize, or
///   once `cfprefsd` has updated this process's cache), and key-value observing cannot name a
///   key that contains a `.` (it reads the dot as a key path: `sound.enabled` would observe
///   `enabled` of the value of `sound`) or starts with `@`: such keys are not observed, and
///   another process's change of them is seen at the next synchronize.
/// - On Linux, nothing from other processes: swift-corelibs-foundation has neither
///   `cfprefsd` nor key-value observing, and caches each suite's file. A store that must follow
///   other processes there uses the domain file (`DefaultsStore(url:)`), which a watcher of
///   the file follows.
public final class UserDefaultsStorage: DefaultsStorage, OrderedReloading, @unchecked Sendable {
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

  /// `UserDefaults(<domain>)`.
  public var identity: StorageIdentity {
    StorageIdentity(
      id: "UserDefaults:" + domain, description: "UserDefaults(\(domain))", domainName: domain)
  }

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

  public func reload(_ decide: () -> ReloadDecision) throws(DefaultsError) -> DomainSnapshot? {
    let exclusion = ExclusionTable.userDefaults.acquire(domain)
    defer { ExclusionTable.userDefaults.release(domain) }
    return try exclusion.withLock { () throws(DefaultsError) -> DomainSnapshot? in
      guard case .read = decide() else { return nil }
      return try read()
    }
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

  /// Announces `didChangeNotification` (changes made in this process) and, on Apple
  /// platforms, key-value observing of the keys the store's observers follow (changes made by
  /// other processes too; see the type's documentation). The returned token is told those keys
  /// by the store (the keys its observers follow).
  ///
  /// Both arrive on the thread that made the change, which may be in the middle of an update
  /// of this domain (holding its lock, some keys set and not yet synchronized) or hold another
  /// domain's lock while this one's holder posts the other way round. So the handler runs at
  /// once only when this domain's lock is free; otherwise it runs on another thread, where the
  /// store's re-read waits for the update to end and reads what it wrote, whole.
  public func observeChanges(_ handler: @escaping @Sendable () -> Void) -> (any Sendable)? {
    let domain = self.domain
    let announce: @Sendable () -> Void = {
      let exclusion = ExclusionTable.userDefaults.acquire(domain)
      defer { ExclusionTable.userDefaults.release(domain) }
      if exclusion.isFree {
        handler()
      } else {
        DispatchQueue.global().async(execute: handler)
      }
    }
    let notification = NotificationObservation(
      name: UserDefaults.didChangeNotification, handler: announce)
    #if canImport(Darwin)
      return KeyValueAnnouncements(userDefaults, notification: notification, handler: announce)
    #else
      return notification
    #endif
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

#if canImport(Darwin)
  // Not compiled on Linux, where this package is built and tested (corelibs has no key-value
  // observing): written against NSObject's documented KVO API only.
  /// Key-value observing of the keys a store's observers follow, on one `UserDefaults`: what
  /// Apple's `UserDefaults` delivers for changes made by other processes (with the
  /// notification observation that covers this process). Keys with a `.` or a leading `@`
  /// cannot be named by a key path and are left out. Every observation is removed when the
  /// token is released.
  final class KeyValueAnnouncements: NSObject, KeyedAnnouncements, @unchecked Sendable {
    private let userDefaults: UserDefaults
    private let notification: NotificationObservation
    private let handler: @Sendable () -> Void
    private let lock = NSLock()
    private var observed: Set<String> = []  // guarded by `lock`
    private var version: UInt64 = 0  // guarded by `lock`
    /// Tells this object's observations from any other of the same `UserDefaults`.
    nonisolated(unsafe) private static let context = UnsafeMutableRawPointer.allocate(
      byteCount: 1, alignment: 1)

    init(
      _ userDefaults: UserDefaults, notification: NotificationObservation,
      handler: @escaping @Sendable () -> Void
    ) {
      self.userDefaults = userDefaults
      self.notification = notification
      self.handler = handler
    }

    static func canObserve(_ key: String) -> Bool {
      !key.isEmpty && !key.contains(".") && !key.hasPrefix("@")
    }

    func announce(keys: Set<String>, version: UInt64) {
      lock.lock()
      defer { lock.unlock() }
      guard version > self.version else { return }
      self.version = version
      let wanted = keys.filter(Self.canObserve)
      for key in observed.subtracting(wanted) {
        userDefaults.removeObserver(self, forKeyPath: key, context: Self.context)
      }
      for key in wanted.subtracting(observed) {
        userDefaults.addObserver(self, forKeyPath: key, options: [], context: Self.context)
      }
      observed = wanted
    }

    override func observeValue(
      forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?,
      context: UnsafeMutableRawPointer?
    ) {
      guard context == Self.context else {
        super.observeValue(forKeyPath: keyPath, of: object, change: change, context: context)
        return
      }
      handler()
    }

    deinit {
      lock.lock()
      defer { lock.unlock() }
      for key in observed {
        userDefaults.removeObserver(self, forKeyPath: key, context: Self.context)
      }
    }
  }
#endif
