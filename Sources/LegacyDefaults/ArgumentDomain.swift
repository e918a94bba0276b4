import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The argument domain: `-key value` pairs of the process's arguments, read as each dialect's
/// `NSUserDefaults` reads them.
///
/// - `apple`: a value that starts (after white space) with `{`, `(`, `<` or `"` is parsed as
///   a property list, and stays the text as given when it does not parse; any other value is
///   a string. A value that starts with `-` is not a value: the argument before it is a flag.
/// - `corelibs` (its `UserDefaults._parseArguments`): the same pairs from the first argument
///   on, but the value is trimmed of white space first, `[` also starts a property list, and
///   a value that does not parse is the trimmed text; `-` alone as a key is skipped with its
///   value.
/// - `gnustep` (`+[NSUserDefaults _createArgumentDictionary:]`): the program name is skipped;
///   `-` alone is not a key but may be a value; a value that starts with `-` becomes the next
///   key; *every* value is parsed as a property list with GNUstep's own text grammar (so
///   `  plain  ` is `plain`, `/*c*/ (x)` is `["x"]`, single quotes are not strings), and stays
///   the text as given when it does not parse.
enum ArgumentDomain {
  static func parse(_ arguments: [String], dialect: Dialect = .apple) -> [String: PlistValue] {
    switch dialect {
    case .apple: apple(arguments)
    case .corelibs: corelibs(arguments)
    case .gnustep: gnustep(arguments)
    }
  }

  private static func apple(_ arguments: [String]) -> [String: PlistValue] {
    var result: [String: PlistValue] = [:]
    var index = 0
    while index + 1 < arguments.count {
      let current = arguments[index]
      let next = arguments[index + 1]
      guard current.count > 1, current.hasPrefix("-"), !next.hasPrefix("-") else {
        index += 1
        continue
      }
      let trimmed = next.trimmingWhitespaceAndNewlines()
      let parsed = trimmed.first.map { "{(<\"".contains($0) } == true ? plist(trimmed) : nil
      result[String(current.dropFirst())] = parsed ?? .string(next)
      index += 2
    }
    return result
  }

  private static func corelibs(_ arguments: [String]) -> [String: PlistValue] {
    var result: [String: PlistValue] = [:]
    var index = 0
    while index + 1 < arguments.count {
      let current = arguments[index]
      let next = arguments[index + 1]
      guard current.hasPrefix("-"), !next.hasPrefix("-") else {
        index += 1
        continue
      }
      let key = String(current.dropFirst())
      if !key.isEmpty {
        let value = next.trimmingWhitespaceAndNewlines()
        let parsed = value.first.map { "{[(<\"".contains($0) } == true ? plist(value) : nil
        result[key] = parsed ?? .string(value)
      }
      index += 2
    }
    return result
  }

  private static func gnustep(_ arguments: [String]) -> [String: PlistValue] {
    var result: [String: PlistValue] = [:]
    var words = arguments.dropFirst().makeIterator()
    var pending = words.next()
    while let word = pending {
      guard word.hasPrefix("-"), word != "-" else {
        pending = words.next()
        continue
      }
      guard let value = words.next() else { break }
      if value.hasPrefix("-"), value != "-" {
        pending = value  // a flag: the next argument is a key
        continue
      }
      result[String(word.dropFirst())] = plist(value, grammar: .gnustep) ?? .string(value)
      pending = words.next()
    }
    return result
  }

  /// The property list `text` holds, or nil when it does not parse.
  private static func plist(_ text: String, grammar: OpenStepGrammar = .coreFoundation)
    -> PlistValue?
  {
    let read = Result { () throws(PlistError) in
      try PropertyList.read(Data(text.utf8), limits: .default, grammar: grammar)
    }
    guard case .success(let document) = read else { return nil }
    return document.value
  }
}
