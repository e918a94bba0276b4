import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// MARK: - The domains themselves

extension DefaultsStore {
  /// The argument domain's name (`-key value` arguments).
  public static let argumentDomain = "NSArgumentDomain"
  /// The registration domain's name (``register(defaults:)``).
  public static let registrationDomain = "NSRegistrationDomain"
  /// The global domain's name (the `globalDomain:` file, or `.GlobalPreferences`).
  public static let globalDomain = "NSGlobalDomain"

  /// The application domain's name.
  public var domainName: String { identity.domainName }

  /// The domains reads look through, in order (GNUstep's own domains and language domains
  /// are not reproduced: MIGRATION.md).
  public var searchList: [String] {
    [Self.argumentDomain, domainName] + (globalFile == nil ? [] : [Self.globalDomain])
      + [Self.registrationDomain]
  }

  /// The names of the volatile domains: the argument and registration domains and those set
  /// with ``setVolatileDomain(_:forName:)``.
  public var volatileDomainNames: [String] {
    [Self.argumentDomain, Self.registrationDomain]
      + state.withLock { $0.volatile.keys.sorted() }
  }

  /// A volatile domain's values (the argument and registration domains included); empty when
  /// there is none of that name.
  public func volatileDomain(forName name: String) -> [String: PlistValue] {
    state.withLock { s in
      switch name {
      case Self.argumentDomain: s.arguments.swiftDictionary
      case Self.registrationDomain: s.registration.swiftDictionary
      default: s.volatile[name]?.swiftDictionary ?? [:]
      }
    }
  }

  /// Sets a volatile domain (memory only, not in the search list). As NSUserDefaults, a
  /// name that is already a volatile domain is refused; remove it first.
  public func setVolatileDomain(_ values: [String: PlistValue], forName name: String)
    throws(DefaultsError)
  {
    for (key, value) in values { try Self.validate(value, forKey: key) }
    try state.withLock { (s) throws(DefaultsError) in
      guard name != Self.argumentDomain, name != Self.registrationDomain, s.volatile[name] == nil
      else { throw .domainExists(name) }
      s.volatile[name] = PlistDictionary(values)
    }
  }

  /// Removes a volatile domain set with ``setVolatileDomain(_:forName:)``.
  public func removeVolatileDomain(forName name: String) {
    state.withLock { s in s.volatile[name] = nil }
  }

  /// A persistent domain by name: this store's own (with its pending changes), the global
  /// domain, or another domain beside this one (the file of that name in the same folder, the
  /// `UserDefaults` suite of that name); nil when it does not exist.
  public func persistentDomain(forName name: String) throws(DefaultsError) -> [String: PlistValue]?
  {
    if name == domainName { return persistentDomain() }
    guard let storage = storage(forDomain: name) else { return nil }
    let snapshot = try storage.load()
    // No file, and nothing stored: the domain does not exist.
    if snapshot.values.isEmpty, snapshot.format == nil, snapshot.unreadable == nil { return nil }
    return snapshot.values.swiftDictionary
  }

  /// Replaces a persistent domain by name with `values` (one locked, atomic update; this
  /// store's own domain through `updateDomain(_:)`).
  public func setPersistentDomain(_ values: [String: PlistValue], forName name: String)
    throws(DefaultsError)
  {
    for (key, value) in values { try Self.validate(value, forKey: key) }
    if name == domainName {
      try updateDomain { current in DomainChanges(replacing: current, with: PlistDictionary(values))
      }
      return
    }
    guard let storage = storage(forDomain: name) else {
      throw .invalidDomainName(name, reason: "names no domain this store can reach")
    }
    _ = try storage.update { current in
      DomainChanges(replacing: current.values, with: PlistDictionary(values))
    }
    if name == Self.globalDomain { try synchronizeOrThrow() }
  }

  /// Removes a persistent domain by name (this store's own: ``removePersistentDomain()``).
  public func removePersistentDomain(forName name: String) throws(DefaultsError) {
    if name == domainName {
      try removePersistentDomain()
      return
    }
    guard let storage = storage(forDomain: name) else { return }
    try storage.removeDomain()
    if name == Self.globalDomain { try synchronizeOrThrow() }
  }

  /// The storage of another domain: the global file for the global domain, else the
  /// storage's own neighbour of that name.
  func storage(forDomain name: String) -> (any DefaultsStorage)? {
    if name == Self.globalDomain, let globalFile { return globalFile }
    return storage.storage(forDomain: name)
  }
}

extension PathText {
  /// `/home/me/x` → `~/x` (as `stringByAbbreviatingWithTildeInPath`).
  static func abbreviatingHome(_ path: String, home: String?) -> String {
    guard let home, !home.isEmpty, home != "/" else { return path }
    if path == home { return "~" }
    if path.hasPrefix(home + "/") { return "~" + path.dropFirst(home.count) }
    return path
  }
}

extension DefaultsStore {
  /// Removes the whole application domain (for a file: deleted under the lock), and drops the
  /// pending changes.
  public func removePersistentDomain() throws(DefaultsError) {
    try writing { () throws(DefaultsError) in
      try storage.removeDomain()
      let fires = state.withLock { s -> [@Sendable () -> Void] in
        let observed = Array(s.observers.keys)
        let before = observed.map { s.value($0.text) }
        s.base = PlistDictionary()
        s.pending = [:]
        s.format = nil
        s.known = nil
        s.publishedTicket = s.takeTicket()
        return zip(observed, before).compactMap {
          Self.notification(for: $0.0.text, before: $0.1, in: s)
        }
      }
      for fire in fires { fire() }
    }
  }
}
