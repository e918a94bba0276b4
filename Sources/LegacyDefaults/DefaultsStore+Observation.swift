import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension DefaultsStore {
  // MARK: - Observation

  /// A handle that keeps an observation alive; ``cancel()`` (or releasing it) ends it.
  public final class Observation: Sendable {
    private let end: @Sendable () -> Void
    private let ended = Locked(false)

    init(end: @escaping @Sendable () -> Void) { self.end = end }

    public func cancel() {
      let first = ended.withLock { done -> Bool in
        defer { done = true }
        return !done
      }
      if first { end() }
    }

    deinit { cancel() }
  }

  /// Calls `handler` with the new value (nil: gone) each time the value the search list finds
  /// for `key` changes: by a local write, a registration, or a write made elsewhere (another
  /// process, another store over the same file or memory) as soon as the storage announces it,
  /// without a ``synchronize()`` (a `UserDefaults` storage announces what Foundation delivers;
  /// see its documentation). `handler` runs on the thread that made or reported the change,
  /// without any lock of the store: it may read and write the store.
  ///
  /// A storage that announces nothing (a storage of yours whose `observeChanges` returns nil)
  /// has other writers' changes seen at ``synchronize()``.
  public func observe(
    _ key: String, handler: @escaping @Sendable (PlistValue?) -> Void
  ) -> Observation {
    let (id, keys) = state.withLock { s -> (UInt64, (Set<String>, UInt64)?) in
      s.nextObserver += 1
      let first = s.observers[DomainKey(key)] == nil
      s.observers[DomainKey(key), default: [:]][s.nextObserver] = handler
      return (s.nextObserver, first ? Self.observedKeys(&s) : nil)
    }
    if let keys { announceKeys(keys) }
    return Observation { [weak self] in
      guard let self else { return }
      let keys = self.state.withLock { s -> (Set<String>, UInt64)? in
        s.observers[DomainKey(key)]?[id] = nil
        guard s.observers[DomainKey(key)]?.isEmpty == true else { return nil }
        s.observers[DomainKey(key)] = nil
        return Self.observedKeys(&s)
      }
      if let keys { self.announceKeys(keys) }
    }
  }

  private static func observedKeys(_ s: inout State) -> (Set<String>, UInt64) {
    s.observedKeysVersion += 1
    return (Set(s.observers.keys.map(\.text)), s.observedKeysVersion)
  }

  /// Tells a storage that announces by key (`UserDefaults`' key-value observing) which keys
  /// this store's observers follow (never under the state lock: it calls into Foundation).
  func announceKeys(_ keys: (Set<String>, UInt64)) {
    let token = announcements.withLock { $0 }
    (token as? any KeyedAnnouncements)?.announce(keys: keys.0, version: keys.1)
  }

  /// The values of `key`: the current one, then each change (see ``observe(_:handler:)``).
  /// The stream ends when the consuming task is cancelled.
  ///
  /// - Parameters:
  ///   - key: the key whose values to follow.
  ///   - initial: yield the current value first (the default), so a subscriber does
  ///   not have to read once and then subscribe. A change racing the subscription may repeat
  ///   the current value; none is lost or reordered.
  public func changes(_ key: String, initial: Bool = true) -> AsyncStream<PlistValue?> {
    AsyncStream { continuation in
      // One lock orders the first value and the observer's values.
      let order = Locked(())
      let observation = observe(key) { value in
        order.withLock { _ in _ = continuation.yield(value) }
      }
      if initial { order.withLock { _ in _ = continuation.yield(object(forKey: key)) } }
      continuation.onTermination = { _ in observation.cancel() }
    }
  }

  static func notification(for key: String, before: PlistValue?, in s: State)
    -> (@Sendable () -> Void)?
  {
    guard let handlers = s.observers[DomainKey(key)], !handlers.isEmpty else { return nil }
    let after = s.value(key)
    guard after != before else { return nil }
    let list = Array(handlers.values)
    return { for handler in list { handler(after) } }
  }
}
