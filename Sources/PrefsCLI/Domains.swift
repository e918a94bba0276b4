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

  /// The domain file at `path` as it is now, read without locking, moving or creating
  /// anything: a failing command leaves the folder exactly as it was.
  static func inspect(_ path: String) throws(CommandFailure) -> DomainSnapshot {
    do {
      return try DomainFile(url: URL(fileURLWithPath: path)).read()
    } catch {
      throw CommandFailure(error)
    }
  }

  /// The domain's values for a verb that needs them to exist (delete, rename): a missing
  /// file exits 1, an unparseable one 65, and nothing is touched.
  static func existingDomain(_ path: String) throws(CommandFailure) -> [String: PlistValue] {
    let snapshot = try inspect(path)
    if let unreadable = snapshot.unreadable {
      throw CommandFailure(.dataError, "\(path) does not parse: \(unreadable.reason)")
    }
    guard snapshot.format != nil else {
      throw CommandFailure(.notFound, "the domain \(path) does not exist")
    }
    return snapshot.values
  }

  /// Changes the domain file at `path` through its one way in (lock, re-read, change, atomic
  /// write), after a read that refuses a file that is not a domain without locking it. Files
  /// moved aside are reported once. `change` may record a failure and return no change.
  static func update(
    _ path: String, format: PlistFormat? = nil, truncatingDates: Bool = true,
    always: Bool = false, console: Console,
    _ change: (DomainSnapshot) throws(DefaultsError) -> [String: PlistValue?]
  ) throws(CommandFailure) {
    _ = try inspect(path)
    let snapshot: DomainSnapshot
    do {
      snapshot = try DomainFile(url: URL(fileURLWithPath: path)).update(
        format: format, truncatingDates: truncatingDates, always: always, change)
    } catch {
      throw CommandFailure(error)
    }
    for recovery in snapshot.recoveries { console.message("warning: \(recovery)") }
  }
}

extension Target {
  /// Writes a converted or exported file: a dictionary in a property-list format is a domain
  /// and goes through the domain's one way in (locked, atomic, exactly `data`'s bytes); any
  /// other output (JSON, a top-level array), or a target that is itself not a domain, is
  /// replaced atomically.
  static func write(
    _ data: Data, to out: String, value: PlistValue, console: Console,
    format: () -> PlistFormat?
  ) throws(CommandFailure) {
    if case .dictionary(let values) = value, let format = format() {
      do {
        let domain = DomainFile(url: URL(fileURLWithPath: out))
        _ = try domain.read()
        let snapshot = try domain.update(
          format: format, truncatingDates: false, always: true, createsFolder: false
        ) {
          .replacing($0.values, with: values)
        }
        for recovery in snapshot.recoveries { console.message("warning: \(recovery)") }
        return
      } catch {
        guard case .notADictionary = error else { throw CommandFailure(error) }
      }
    }
    do {
      try FileAccess.atomicWrite(data, to: out)
    } catch {
      throw CommandFailure(error)
    }
  }
}

extension CommandFailure {
  /// A store failure with its documented exit code.
  init(_ error: DefaultsError) {
    switch error {
    case .emptyKey, .unsupportedValue, .invalidDomainName: self.init(.usage, error.description)
    case .cannotRead: self.init(.ioError, error.description)
    case .notADictionary: self.init(.dataError, error.description)
    case .cannotWrite, .cannotLock: self.init(.cannotCreate, error.description)
    case .cannotEncode: self.init(.dataError, error.description)
    }
  }
}
