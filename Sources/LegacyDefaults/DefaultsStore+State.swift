import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension DefaultsStore {
  struct Pending {
    /// The value, or nil for a removal.
    var value: PlistValue?
    /// Which change this is: a synchronize drops from `pending` only what it wrote.
    var generation: UInt64
  }

  /// The store's state. Every domain is a `PlistDictionary` and every key a ``DomainKey``:
  /// keys are compared by their bytes, as the file holds them, so a domain holding two keys
  /// that differ only in Unicode normalization keeps both, from the file to the getters and
  /// back.
  struct State {
    var arguments = PlistDictionary()
    /// The application domain as last read from (or written to) the storage.
    var base = PlistDictionary()
    /// This store's changes not yet written.
    var pending: [DomainKey: Pending] = [:]
    var nextGeneration: UInt64 = 0
    /// Orders the snapshots of concurrent synchronizes: an older one is never published over a
    /// newer one.
    var nextTicket: UInt64 = 0
    var publishedTicket: UInt64 = 0
    var format: PlistFormat?
    var global = PlistDictionary()
    var registration = PlistDictionary()
    /// Volatile domains set by name (not in the search list, as in NSUserDefaults).
    var volatile: [String: PlistDictionary] = [:]
    var observers: [DomainKey: [UInt64: @Sendable (PlistValue?) -> Void]] = [:]
    var nextObserver: UInt64 = 0
    /// Orders the observed-key sets told to the storage's announcements.
    var observedKeysVersion: UInt64 = 0
    var recoveries: [CorruptFileRecovery] = []
    /// The version of the storage's state `base` holds (or will hold once the write in flight
    /// is published): an announcement of it is skipped unread.
    var known: DomainVersion?
    /// Writes of this store begun and not yet published: a re-read meanwhile could not tell
    /// its own write from another's, so it waits for them (`refreshAgain`).
    var inFlight = 0
    var refreshAgain = false
    /// Announced states read whole (parsed) and published: a store's own write is never one.
    var rereads = 0

    func applicationValue(_ key: String) -> PlistValue? {
      if let change = pending[DomainKey(key)] { return change.value }
      return base[key]
    }

    /// The application domain with the pending changes applied.
    var application: PlistDictionary {
      var all = base
      for (key, change) in pending {
        if let value = change.value {
          all[key.text] = value
        } else {
          all.removeValue(forKey: key.text)
        }
      }
      return all
    }

    func value(_ key: String) -> PlistValue? {
      arguments[key] ?? applicationValue(key) ?? global[key] ?? registration[key]
    }

    mutating func record(_ reports: [CorruptFileRecovery]) {
      for report in reports where recoveries.last != report { recoveries.append(report) }
    }

    mutating func takeTicket() -> UInt64 {
      nextTicket += 1
      return nextTicket
    }
  }
}
