import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The typed setters of `NSUserDefaults` (`setBool:forKey:`, `setInteger:forKey:`, …): each
/// stores the property-list value its getter reads back.
extension DefaultsStore {
  public func set(_ value: Bool, forKey key: String) throws(DefaultsError) {
    try set(.bool(value), forKey: key)
  }
  public func set(_ value: Int, forKey key: String) throws(DefaultsError) {
    try set(.int(value), forKey: key)
  }
  public func set(_ value: Double, forKey key: String) throws(DefaultsError) {
    try set(.real(value), forKey: key)
  }
  public func set(_ value: Float, forKey key: String) throws(DefaultsError) {
    try set(.real(Double(value)), forKey: key)
  }
  public func set(_ value: String, forKey key: String) throws(DefaultsError) {
    try set(.string(value), forKey: key)
  }
  public func set(_ value: Date, forKey key: String) throws(DefaultsError) {
    try set(.date(value), forKey: key)
  }
  public func set(_ value: Data, forKey key: String) throws(DefaultsError) {
    try set(.data(value), forKey: key)
  }
  public func set(_ value: [PlistValue], forKey key: String) throws(DefaultsError) {
    try set(.array(value), forKey: key)
  }
  public func set(_ value: [String: PlistValue], forKey key: String) throws(DefaultsError) {
    try set(.dictionary(PlistDictionary(value)), forKey: key)
  }

  /// Stores a URL without loss, as Apple's `setURL:forKey:` does: a file URL as its path with
  /// the home folder abbreviated to `~`, any other URL as a keyed-archived `NSURL`.
  public func set(_ url: URL, forKey key: String) throws(DefaultsError) {
    if url.isFileURL {
      try set(.string(PathText.abbreviatingHome(url.path, home: home)), forKey: key)
    } else {
      let data: Data
      do {
        data = try KeyedArchiveURL.encode(url)
      } catch {
        throw .unsupportedValue(key: key, type: "URL (\(error))")
      }
      try set(.data(data), forKey: key)
    }
  }
}
