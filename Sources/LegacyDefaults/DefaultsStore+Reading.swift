import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension DefaultsStore {
  // MARK: - Reading

  /// The value the search list finds for `key`, as it is stored.
  public func object(forKey key: String) -> PlistValue? { state.withLock { $0.value(key) } }

  public func bool(forKey key: String) -> Bool { dialect.bool(object(forKey: key)) }
  public func integer(forKey key: String) -> Int { dialect.integer(object(forKey: key)) }
  public func double(forKey key: String) -> Double { dialect.double(object(forKey: key)) }
  public func float(forKey key: String) -> Float { dialect.float(object(forKey: key)) }
  public func string(forKey key: String) -> String? { dialect.string(object(forKey: key)) }
  public func array(forKey key: String) -> [PlistValue]? { dialect.array(object(forKey: key)) }
  public func dictionary(forKey key: String) -> [String: PlistValue]? {
    dialect.dictionary(object(forKey: key))
  }
  public func data(forKey key: String) -> Data? { dialect.data(object(forKey: key)) }
  public func date(forKey key: String) -> Date? { dialect.date(object(forKey: key)) }
  public func stringArray(forKey key: String) -> [String]? {
    dialect.stringArray(object(forKey: key))
  }
  public func url(forKey key: String) -> URL? { dialect.url(object(forKey: key), home: home) }

  /// Every key the search list can see, with the value it finds.
  public func dictionaryRepresentation() -> [String: PlistValue] {
    searchListValues().swiftDictionary
  }

  /// ``dictionaryRepresentation()`` with every key as the domains hold it (by its bytes).
  public func searchListValues() -> PlistDictionary {
    state.withLock { s in
      // A pending removal takes the key out of the application domain only: a lower domain's
      // value shows through, as `object(forKey:)` finds it (and as GNUstep answers).
      var all = s.registration
      all.merge(s.global) { $1 }
      all.merge(s.application) { $1 }
      all.merge(s.arguments) { $1 }
      return all
    }
  }

  /// The application domain alone (what its file holds, with pending changes applied).
  public func persistentDomain() -> [String: PlistValue] { persistentValues().swiftDictionary }

  /// ``persistentDomain()`` with every key as the file holds it (by its bytes): two keys that
  /// differ only in Unicode normalization are two keys here, one in a Swift dictionary.
  public func persistentValues() -> PlistDictionary { state.withLock { $0.application } }
}
