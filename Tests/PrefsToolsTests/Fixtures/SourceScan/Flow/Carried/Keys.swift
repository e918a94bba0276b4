import AppKit
import GenericID

extension UserDefaults.DefaultsKeys {
  static let keptFlag = Key<Bool>("kept.flag")
  static let keptName = Key<String?>("kept.name")
  static let keptColor = Key<NSColor>("kept.color", transformer: .keyedArchive)
  static let keptWindows = Key<[String]>("kept.windows")
  static let keptShortcut = Key<String>("kept.shortcut")
}

/// Trap: a `Key<T>` of another library's key namespace is no GenericID key.
extension Cache.Keys {
  static let cached = Key<Int>("cache.size")
}

func readKept(_ defaults: UserDefaults) {
  if defaults[.keptFlag] { print(defaults[.keptName] ?? "") }
  print(defaults[.keptColor], defaults[.keptWindows], defaults[.keptShortcut])
}
