#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes every store's pending changes when the process exits normally (`exit()` or a
/// return from `main`), which corelibs' `UserDefaults` does not do.
enum ExitFlush {
  private final class Box: Sendable {
    weak let store: DefaultsStore?
    init(_ store: DefaultsStore) { self.store = store }
  }

  private static let stores = Locked<[Box]>([])
  private static let installed = Locked(false)

  static func register(_ store: DefaultsStore) {
    let install = installed.withLock { done -> Bool in
      defer { done = true }
      return !done
    }
    if install { atexit { ExitFlush.flushAll() } }
    stores.withLock { list in
      list.removeAll { $0.store == nil }
      list.append(Box(store))
    }
  }

  static func flushAll() {
    let live = stores.withLock { $0.compactMap(\.store) }
    for store in live where store.hasPendingChanges { store.flushAtExit() }
  }
}
