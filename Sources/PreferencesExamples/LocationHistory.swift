import Foundation
import Preferences

// Seed 001: the weather app's location history, without its flaws: no singleton (the store
// is injected), no `try?` that silently drops data on a decode failure, no crash on a bad
// index, and the read-modify-write of the list under the cross-process lock.

/// One searched place, as the seed stored it.
public struct UserLocationData: Codable, Hashable, Sendable, CodablePreference {
  public var address: String
  public var lat: String
  public var lon: String

  public init(address: String, lat: String, lon: String) {
    self.address = address
    self.lat = lat
    self.lon = lon
  }
}

/// The seed's `LocationHistory(history:)` wrapper, kept so that its stored shape (and the
/// seed's JSON bytes) read back.
public struct LocationHistoryRecord: Codable, Hashable, Sendable, CodablePreference {
  public var history: [UserLocationData]

  public init(history: [UserLocationData] = []) { self.history = history }
}

extension Keys {
  /// The seed's `currentLocation`.
  public static let currentLocation = Key<UserLocationData?>("weather.currentLocation")
  /// The seed's `locationHistory`, newest first.
  public static let locationHistory = Key<LocationHistoryRecord>(
    "weather.locationHistory", default: LocationHistoryRecord())
}

public enum LocationHistoryError: Error, Sendable, Hashable, CustomStringConvertible {
  /// `remove(at:)` with an index outside the history.
  case indexOutOfRange(index: Int, count: Int)

  public var description: String {
    switch self {
    case .indexOutOfRange(let index, let count):
      "index \(index) is outside the history of \(count) entries"
    }
  }
}

/// A location history on the typed store: current location, a history with the newest
/// first, removal at an index, removal of all. Optionally capped in length and de-duplicated by
/// address (inserting an address already present moves it to the front).
public struct LocationHistory: Sendable {
  public let store: PreferencesStore
  /// The most entries kept (oldest dropped first); nil keeps all.
  public var limit: Int?
  /// Whether inserting an address already in the history replaces the old entry.
  public var deduplicatesAddresses: Bool

  public init(store: PreferencesStore, limit: Int? = nil, deduplicatesAddresses: Bool = false) {
    self.store = store
    self.limit = limit
    self.deduplicatesAddresses = deduplicatesAddresses
  }

  public var currentLocation: UserLocationData? {
    get { store[Keys.currentLocation] }
    nonmutating set { store[Keys.currentLocation] = newValue }
  }

  /// The history, newest first. A stored history that does not decode is an error, not an
  /// empty list (the seed's `try?` lost it).
  public func entries() throws(PreferenceError) -> [UserLocationData] {
    try store.value(for: Keys.locationHistory).history
  }

  /// Inserts `location` first (the seed's `insert(_, at: 0)`).
  public func insert(_ location: UserLocationData) throws(PreferenceError) {
    let limit = self.limit
    let deduplicate = deduplicatesAddresses
    try store.modify(Keys.locationHistory) { record in
      if deduplicate { record.history.removeAll { $0.address == location.address } }
      record.history.insert(location, at: 0)
      if let limit, record.history.count > limit {
        record.history.removeLast(record.history.count - max(limit, 0))
      }
    }
  }

  /// Removes the entry at `index`; an index outside the history throws, never crashes.
  public func remove(at index: Int) throws {
    try store.modify(Keys.locationHistory) { record in
      guard record.history.indices.contains(index) else {
        throw LocationHistoryError.indexOutOfRange(index: index, count: record.history.count)
      }
      record.history.remove(at: index)
    }
  }

  /// Removes the whole history (the seed's `removeData(with: .locationHistory)`).
  public func removeAll() throws(PreferenceError) {
    try store.reset(Keys.locationHistory)
  }
}
