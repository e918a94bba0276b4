import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The argument domain: `-key value` pairs of the process's arguments, read as each dialect's
/// `NSUserDefaults` reads them. Which words are keys and values, and how a value becomes a
/// property list, is the dialect's (``DialectRules/argumentDomain(_:)`` in each dialect's
/// file); the property list grammar is shared.
enum ArgumentDomain {
  static func parse(_ arguments: [String], dialect: Dialect = .apple) -> [String: PlistValue] {
    dialect.rules.argumentDomain(arguments)
  }

  /// The `-key value` pairs of `arguments` as CoreFoundation's parsers (Apple's and
  /// corelibs') walk them, from the first word on: a word that starts with `-` and the word
  /// after it, unless that one starts with `-` too (then the first is a flag, and the second
  /// may be a key). `-` alone is no key (its word is skipped with it).
  static func pairs(_ arguments: [String]) -> [(key: String, value: String)] {
    var result: [(key: String, value: String)] = []
    var index = 0
    while index + 1 < arguments.count {
      let current = arguments[index]
      let next = arguments[index + 1]
      guard current.hasPrefix("-"), !next.hasPrefix("-") else {
        index += 1
        continue
      }
      if current.count > 1 { result.append((String(current.dropFirst()), next)) }
      index += 2
    }
    return result
  }

  /// The property list `text` holds, or nil when it does not parse.
  static func plist(_ text: String, options: PlistReadOptions = .coreFoundation) -> PlistValue? {
    let read = Result { () throws(PlistError) in
      try PropertyList.read(Data(text.utf8), options: options)
    }
    guard case .success(let document) = read else { return nil }
    return document.value
  }
}
