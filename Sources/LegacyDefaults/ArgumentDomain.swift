import Foundation
import PropertyList

/// The argument domain: `-key value` pairs of the process's arguments. A value that starts
/// with `{`, `(`, `<` or `"` is parsed as a property list (and stays a string when it does not
/// parse); any other value is a string. A value that starts with `-` is not a value: the
/// argument before it is a flag, as NSUserDefaults reads it.
enum ArgumentDomain {
  static func parse(_ arguments: [String]) -> [String: PlistValue] {
    var result: [String: PlistValue] = [:]
    var index = 0
    while index + 1 < arguments.count {
      let current = arguments[index]
      let next = arguments[index + 1]
      guard current.count > 1, current.hasPrefix("-"), !next.hasPrefix("-") else {
        index += 1
        continue
      }
      let key = String(current.dropFirst())
      result[key] = value(next)
      index += 2
    }
    return result
  }

  static func value(_ text: String) -> PlistValue {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard let first = trimmed.first, "{(<\"".contains(first) else { return .string(text) }
    switch Result(catching: { () throws(PlistError) in try PropertyList.read(Data(trimmed.utf8)) })
    {
    case .success(let document): return document.value
    case .failure: return .string(text)  // Not a property list: NSUserDefaults keeps the text.
    }
  }
}
