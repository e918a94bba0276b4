import SwiftUI

// Trap: the same attribute in a file that imports no package named for settings names no key.
struct PersistedUnpackaged {
  @Stored("persistedUnpackaged", default: 1) var count: Int
}
