import LegacyDefaults
import PreferencesMigration
import PropertyList

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

/// `prefs read FILE [KEY] [--as TYPE] [--dialect D] [--json]`
enum Read {
  enum Lookup {
    case found(PlistValue)
    case absent
    case undecided(PlistDocument)
  }

  /// One key of a domain file: a binary file decodes only that key's value (one key of a
  /// 100,000-key domain without building the other 99,999); anything else, or anything
  /// unusual in a binary file, is read whole and reported as before.
  static func lookup(_ key: String, in domain: Target.Domain) throws(CommandFailure) -> Lookup {
    guard case .file(let path) = domain else { return .undecided(try Target.document(domain)) }
    var info = stat()
    guard lstat(path, &info) == 0 else {
      throw Target.missingDomain(path)
    }
    let data: Data
    do {
      // Read, not mapped: a mapped file truncated by another program would end the process.
      data = try FileAccess.readFile(path, limit: Prefs.inputLimit)
    } catch {
      throw CommandFailure(error)
    }
    switch PropertyList.binaryValue(forKey: key, in: data) {
    case .found(let value): return .found(value)
    case .absent: return .absent
    case .undecided: return .undecided(try Prefs.parse(data, path: path))
    }
  }

  /// The value of one key (through ``lookup(_:in:)``, so a binary file decodes only that
  /// value), with the full read's warnings when it had to read the whole file; a key that is
  /// not there is exit 1.
  static func value(forKey key: String, in domain: Target.Domain, console: Console)
    throws(CommandFailure) -> PlistValue
  {
    let path = domain.name
    switch try lookup(key, in: domain) {
    case .found(let value):
      return value
    case .absent:
      throw CommandFailure(.notFound, "the key \"\(key)\" does not exist in \(path)")
    case .undecided(let document):
      Prefs.warn(document, path: path, console: console)
      // The key as the file has it, by its bytes (as the lookup and CoreFoundation match).
      let dictionary: PlistDictionary
      do {
        dictionary = try DomainFile.dictionary(of: document, path: path)
      } catch {
        throw CommandFailure(error)
      }
      guard let value = dictionary[key] else {
        throw CommandFailure(.notFound, "the key \"\(key)\" does not exist in \(path)")
      }
      return value
    }
  }

  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    guard (1...2).contains(args.positional.count) else {
      throw CommandFailure(.usage, "read takes a file and at most one key")
    }
    let getter = try args.choice(
      "--as", Dictionary(uniqueKeysWithValues: LegacyType.allCases.map { ($0.rawValue, $0) }))
    let dialect = try args.choice("--dialect", Target.dialects) ?? .apple
    let domain = try Target.domain(args.positional[0])
    let path = domain.name
    let json = args.has("--json")

    if args.positional.count == 2 {
      let key = args.positional[1]
      let found = try value(forKey: key, in: domain, console: console)
      guard let getter else {
        try print(found, json: json, path: path, console: console)
        return .ok
      }
      let value = apply(getter, dialect: dialect, to: found)
      if json {
        try print(value, json: true, path: path, console: console)
      } else {
        console.line(getterResult(value))
      }
      return .ok
    }
    let document = try Target.document(domain)
    Prefs.warn(document, path: path, console: console)
    guard let getter else {
      try print(document.value, json: json, path: path, console: console)
      return .ok
    }
    let dictionary = try Prefs.domain(document, path: path)
    // Every key through the getter: one JSON object (null where the getter returned nil), or
    // `key = value` lines.
    if json {
      var object: [String: JSONValue] = [:]
      for (key, value) in dictionary {
        guard let result = apply(getter, dialect: dialect, to: value) else {
          object[key] = .null
          continue
        }
        do {
          object[key] = try JSONValue(displaying: result)
        } catch {
          throw CommandFailure(.dataError, "\(path): \(key): \(error)")
        }
      }
      console.line(JSONValue.object(object).text())
    } else {
      for (key, value) in dictionary.sortedByKey {
        let result = apply(getter, dialect: dialect, to: value)
        console.line("\(key) = \(getterResult(result))")
      }
    }
    return .ok
  }

  /// What the getter returned, as a value to print (nil: the getter returned nil).
  static func apply(_ getter: LegacyType, dialect: Dialect, to value: PlistValue) -> PlistValue? {
    dialect.read(value, as: getter).value
  }

  static func human(_ value: PlistValue) -> String {
    switch value {
    case .string(let s): s
    case .bool(let b): b ? "true" : "false"
    default: PropertyList.describe(value)
    }
  }

  /// What a getter returned, for a person: as ``human(_:)``, but a string that would read as
  /// something else bare (empty, white space at either end, the word nil, a line break) is
  /// quoted, so `" 12"` and `12` never print alike.
  static func getterResult(_ value: PlistValue?) -> String {
    guard let value else { return "nil" }
    if case .string(let s) = value,
      s.isEmpty || s == "nil" || s.first?.isWhitespace == true || s.last?.isWhitespace == true
        || s.contains(where: \.isNewline)
    {
      return PropertyList.jsonString(s)
    }
    return human(value)
  }

  static func encode(_ value: PlistValue, path: String) throws(CommandFailure) -> String {
    do {
      return try PropertyList.json(value, lossless: false)
    } catch {
      throw CommandFailure(.dataError, "\(path): \(error)")
    }
  }

  static func print(_ value: PlistValue?, json: Bool, path: String, console: Console)
    throws(CommandFailure)
  {
    guard let value else {
      console.line(json ? "null" : "nil")
      return
    }
    console.line(json ? try encode(value, path: path) : human(value))
  }

}

/// `prefs write FILE KEY [-bool|-int|-float|-string|-date|-data] VALUE`, `-array V…`, `-dict K V…`
enum Write {
  static func run(_ arguments: [String], console: Console) throws(CommandFailure) -> ExitCode {
    var arguments = arguments
    var truncatingDates = false
    if arguments.first == DatePolicy.flag {
      arguments.removeFirst()
      truncatingDates = true
    } else if arguments.last == DatePolicy.flag, arguments.count > 3 {
      arguments.removeLast()
      truncatingDates = true
    }
    guard arguments.count >= 3 else {
      throw CommandFailure(.usage, "write takes a file, a key and a value (see prefs write --help)")
    }
    let domain = try Target.domain(arguments[0])
    let key = arguments[1]
    let value = try parseValue(Array(arguments.dropFirst(2)))
    do {
      try DefaultsStore.validate(value, forKey: key)
    } catch {
      throw CommandFailure(error)
    }
    try Target.update(domain, truncatingDates: truncatingDates, console: console) { _ in
      [key: value]
    }
    return .ok
  }

  static func parseValue(_ words: [String]) throws(CommandFailure) -> PlistValue {
    guard let first = words.first else { throw CommandFailure(.usage, "write needs a value") }
    let rest = Array(words.dropFirst())
    func single() throws(CommandFailure) -> String {
      guard rest.count == 1, let only = rest.first else {
        throw CommandFailure(.usage, "\(first) takes exactly one value")
      }
      return only
    }
    switch first {
    case "-bool", "-boolean":
      switch try single().lowercased() {
      case "yes", "true", "1": return .bool(true)
      case "no", "false", "0": return .bool(false)
      default: throw CommandFailure(.usage, "-bool takes YES, NO, true, false, 1 or 0")
      }
    case "-int", "-integer":
      let text = try single()
      if let i = Int64(text) { return .integer(i) }
      if let u = UInt64(text) { return .unsignedInteger(u) }
      throw CommandFailure(.usage, "-int takes a 64-bit integer, not \(text)")
    case "-float", "-double", "-real":
      let text = try single()
      guard let d = Double(text) else { throw CommandFailure(.usage, "-float takes a number") }
      return .real(d)
    case "-string":
      return .string(try single())
    case "-date":
      let text = try single()
      guard let date = parseDate(text) else {
        throw CommandFailure(
          .usage, "-date takes 2011-03-14T15:09:26Z or \"2011-03-14 15:09:26 +0000\"")
      }
      return .date(date)
    case "-data":
      let text = try single()
      guard let data = parseHex(text) else {
        throw CommandFailure(.usage, "-data takes an even number of hex digits")
      }
      return .data(data)
    case "-array":
      return .array(rest.map(PlistValue.string))
    case "-dict":
      guard rest.count % 2 == 0 else {
        throw CommandFailure(.usage, "-dict takes key value pairs")
      }
      var dictionary = PlistDictionary()
      for index in stride(from: 0, to: rest.count, by: 2) {
        dictionary[rest[index]] = .string(rest[index + 1])
      }
      return .dictionary(dictionary)
    default:
      guard words.count == 1 else {
        throw CommandFailure(.usage, "unknown type \(first) (see prefs write --help)")
      }
      let trimmed = first.trimmingWhitespace()
      guard let c = trimmed.first, "{(<\"".contains(c) else { return .string(first) }
      do {
        return try PropertyList.read(Data(trimmed.utf8)).value
      } catch {
        throw CommandFailure(.usage, "the value is not a property list: \(error)")
      }
    }
  }

  static func parseDate(_ text: String) -> Date? { PropertyList.date(fromText: text) }

  static func parseHex(_ text: String) -> Data? {
    let digits = text.filter { !$0.isWhitespace }
    guard digits.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    var index = digits.startIndex
    while index < digits.endIndex {
      let next = digits.index(index, offsetBy: 2)
      guard let byte = UInt8(digits[index..<next], radix: 16) else { return nil }
      bytes.append(byte)
      index = next
    }
    return Data(bytes)
  }
}

/// `prefs delete FILE [KEY]`
enum Delete {
  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    guard (1...2).contains(args.positional.count) else {
      throw CommandFailure(.usage, "delete takes a file and at most one key")
    }
    let domain = try Target.domain(args.positional[0])
    let path = domain.name
    if args.positional.count == 2 {
      let values = try Target.existingDomain(domain)
      let key = args.positional[1]
      let missing = CommandFailure(.notFound, "the key \"\(key)\" does not exist in \(path)")
      guard values[key] != nil else { throw missing }
      var failure: CommandFailure?
      try Target.update(domain, console: console) { current in
        guard current.values[key] != nil else {
          failure = missing
          return [:]
        }
        return [key: nil]
      }
      if let failure { throw failure }
    } else {
      // The whole domain goes, whatever it holds (a corrupt file too).
      if case .file(let file) = domain {
        var info = stat()
        guard lstat(file, &info) == 0 else {
          throw Target.missingDomain(path)
        }
      } else {
        _ = try Target.existingDomain(domain)
      }
      let storage = try domain.storage()
      do {
        try storage.removeDomain()
      } catch {
        throw CommandFailure(error)
      }
    }
    return .ok
  }
}
