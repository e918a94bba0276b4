import Foundation
import LegacyDefaults
import PropertyList

/// Turns a FILE argument into a path: an existing file, anything with a `/` or a `.plist`
/// ending is a path; any other word is a domain name, resolved to the platform's folder.
enum Target {
  static func path(_ argument: String, locator: DomainLocator = DomainLocator())
    throws(CommandFailure) -> String
  {
    if argument.contains("/") || argument.hasSuffix(".plist")
      || FileManager.default.fileExists(atPath: argument)
    {
      return argument
    }
    do {
      return try locator.url(forDomain: argument).path
    } catch {
      throw CommandFailure(.usage, error.description)
    }
  }

  static let dialects: [String: Dialect] = Dictionary(
    uniqueKeysWithValues: Dialect.allCases.map { ($0.rawValue, $0) })

  /// Opens the store for a write, telling the user about a file that was moved aside.
  static func openStore(_ path: String, console: Console) throws(CommandFailure) -> DefaultsStore {
    let store: DefaultsStore
    do {
      store = try DefaultsStore(url: URL(fileURLWithPath: path), flushAtExit: false)
    } catch {
      throw CommandFailure(error)
    }
    for recovery in store.recoveries { console.message("warning: \(recovery)") }
    return store
  }

  static func synchronize(_ store: DefaultsStore, console: Console) throws(CommandFailure) {
    do {
      try store.synchronizeOrThrow()
    } catch {
      throw CommandFailure(error)
    }
    for recovery in store.recoveries { console.message("warning: \(recovery)") }
  }
}

extension CommandFailure {
  /// A store failure with its documented exit code.
  init(_ error: DefaultsError) {
    switch error {
    case .emptyKey, .unsupportedValue, .invalidDomainName: self.init(.usage, error.description)
    case .cannotRead: self.init(.ioError, error.description)
    case .cannotWrite, .cannotLock: self.init(.cannotCreate, error.description)
    case .cannotEncode: self.init(.dataError, error.description)
    }
  }
}
