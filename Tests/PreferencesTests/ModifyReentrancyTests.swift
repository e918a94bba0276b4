import Foundation
import LegacyDefaults
import Preferences
import PropertyList
import TestSupport
import Testing

/// `modify` runs its body without the store's state lock: the body may read and write the same
/// store and other stores. It deadlocked when the lock was held across the body.
@Suite struct ModifyReentrancyTests {
  static let a = Key("a", default: 0)
  static let b = Key("b", default: 0)
  static let c = Key("c", default: 0)

  static func open(_ file: Bool, _ folder: TemporaryFolder, _ name: String) throws
    -> PreferencesStore
  {
    file ? try PreferencesStore(url: folder.file(name + ".plist")) : .inMemory()
  }

  @Test(arguments: [true, false])
  func theBodyReadsAndWritesTheSameStoreAndAnother(file: Bool) throws {
    let folder = try TemporaryFolder()
    let store = try Self.open(file, folder, "main")
    let other = try Self.open(file, folder, "other")
    store[Self.b] = 5
    other[Self.b] = 100
    try store.modify(Self.a) { value in
      value += store[Self.b] + other[Self.b]
      store[Self.c] = 7  // written through: a nested synchronize of the same domain
      other[Self.a] = value  // another store, written through
    }
    #expect(store.issues.isEmpty, "\(store.issues)")
    #expect(store[Self.a] == 105)
    #expect(store[Self.c] == 7)
    #expect(other[Self.a] == 105)
    if file {
      let reopened = try PreferencesStore(url: folder.file("main.plist"))
      #expect(reopened[Self.a] == 105)
      #expect(reopened[Self.c] == 7)
      #expect(reopened[Self.b] == 5)
    }
  }

  /// Eight threads: `modify` whose body reads another key, plain writes, reads and an
  /// observer that reads the store. No deadlock, no lost increment.
  @Test(arguments: [true, false])
  func eightThreadsMixingModifyReadsAndObservers(file: Bool) async throws {
    let folder = try TemporaryFolder()
    let store = try Self.open(file, folder, "threads")
    let seen = Locked(0)
    let observation = store.observe(Self.a) { _ in
      _ = store[Self.b]
      seen.withLock { $0 += 1 }
    }
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for i in 0..<40 {
            try? store.modify(Self.a) { $0 += 1 + store[Self.b] * 0 }
            store[Key("t\(task)", default: -1)] = i
            _ = store[Self.a]
          }
        }
      }
    }
    #expect(store.issues.isEmpty, "\(store.issues)")
    #expect(store[Self.a] == 320)
    for task in 0..<8 { #expect(store[Key("t\(task)", default: -1)] == 39) }
    #expect(seen.withLock { $0 } >= 1)
    observation.cancel()
  }
}
