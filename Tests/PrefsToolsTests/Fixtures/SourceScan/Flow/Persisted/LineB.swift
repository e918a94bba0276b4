import Foundation

// The same line as LineA.swift's call (line 9), another key, another fallback.
enum PersistedLineOther {
  static let unused = 0
}

// (Line 9 below.)
let persistedLineB = PersistedLineStore.get("persistedLineB") ?? 4
