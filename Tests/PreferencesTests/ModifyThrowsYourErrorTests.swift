import Foundation
import LegacyDefaults
import Preferences
import PreferencesExamples
import PropertyList
import TestSupport
import Testing

/// `modify`'s body may throw an error of the caller's own type (an index out of range in a
/// history): the store throws that very error and writes nothing. It was a compile error: the
/// body could throw only `PreferenceError`.
@Suite struct ModifyThrowsYourErrorTests {
  enum HistoryError: Error, Equatable { case noEntry(Int) }
  static let list = Key<[String]>("list", default: [])

  /// Compiles only if a non-throwing body keeps `modify`'s typed `PreferenceError`.
  static func append(_ item: String, to store: PreferencesStore) throws(PreferenceError) {
    try store.modify(list) { $0.append(item) }
  }

  @Test(arguments: [true, false])
  func theBodysOwnErrorIsThrownAndNothingIsWritten(file: Bool) throws {
    let folder = try TemporaryFolder()
    let url = folder.file("history.plist")
    let store = file ? try PreferencesStore(url: url) : .inMemory()
    try Self.append("a", to: store)
    try Self.append("b", to: store)
    var caught: (any Error)?
    do {
      try store.modify(Self.list) { list in
        list.append("written before the throw")
        guard list.indices.contains(7) else { throw HistoryError.noEntry(7) }
        list.remove(at: 7)
      }
    } catch {
      caught = error
    }
    #expect(caught as? HistoryError == .noEntry(7), "\(String(describing: caught))")
    #expect(store[Self.list] == ["a", "b"])
    if file { #expect(try PreferencesStore(url: url)[Self.list] == ["a", "b"]) }
  }

  @Test func theExampleHistoryThrowsItsOwnErrorForAnIndexOutOfRange() throws {
    let history = LocationHistory(store: .inMemory())
    try history.insert(UserLocationData(address: "Seoul", lat: "37.5665", lon: "126.978"))
    #expect(throws: LocationHistoryError.indexOutOfRange(index: 3, count: 1)) {
      try history.remove(at: 3)
    }
    #expect(try history.entries().count == 1)
  }
}

/// The store below, `DefaultsStore`: `update` and `updateDomain` rethrow the caller's error too,
/// and write nothing, not even this store's pending changes.
@Suite struct DefaultsUpdateThrowsYourErrorTests {
  struct Refused: Error, Equatable {}

  @Test func updateAndUpdateDomainThrowTheCallersErrorAndWriteNothing() throws {
    let folder = try TemporaryFolder()
    let url = folder.file("d.plist")
    let store = try DefaultsStore(url: url)
    try store.set(.int(1), forKey: "kept")
    try store.synchronizeOrThrow()
    try store.set(.int(2), forKey: "pending")
    #expect(throws: Refused()) {
      try store.update("kept") { (_) throws(Refused) -> PlistValue? in throw Refused() }
    }
    #expect(throws: Refused()) {
      try store.updateDomain { (_) throws(Refused) -> DomainChanges in throw Refused() }
    }
    #expect(store.hasPendingChanges)
    let onDisk = try DefaultsStore(url: url)
    #expect(onDisk.persistentValues() == ["kept": 1])
  }
}
