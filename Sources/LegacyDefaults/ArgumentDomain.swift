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

  /// The property list `text` holds, or nil when it does not parse.
  static func plist(_ text: String, grammar: OpenStepGrammar = .coreFoundation) -> PlistValue? {
    let read = Result { () throws(PlistError) in
      try PropertyList.read(Data(text.utf8), limits: .default, grammar: grammar)
    }
    guard case .success(let document) = read else { return nil }
    return document.value
  }
}
