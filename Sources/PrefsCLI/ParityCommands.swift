import LegacyDefaults
import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The rest of the verbs people know from macOS `defaults`.
enum Domains {
  static func names(locator: DomainLocator = Target.locator) throws(CommandFailure) -> (
    folder: URL, names: [String]
  ) {
    let folder: URL
    do {
      folder = try locator.folder()
    } catch {
      throw CommandFailure(error)
    }
    let entries: [String]
    do {
      entries = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    } catch {
      // No preferences folder yet: no domains.
      if !FileManager.default.fileExists(atPath: folder.path) { return (folder, []) }
      throw CommandFailure(
        .ioError, "\(folder.path): cannot list the folder: \(FileAccess.reason(of: error))")
    }
    let names = entries.filter { $0.hasSuffix(".plist") && !$0.hasPrefix(".") }
      .map { String($0.dropLast(".plist".count)) }.sorted()
    return (folder, names)
  }

  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    guard args.positional.isEmpty else { throw CommandFailure(.usage, "domains takes no files") }
    let (folder, names) = try names()
    if args.has("--json") {
      console.line(
        JSONValue.object([
          "folder": .string(folder.path), "domains": .array(names.map(JSONValue.string)),
        ]).text())
    } else {
      // The folder goes to standard error: standard output stays the list `defaults` prints.
      console.message("domains in \(folder.path)")
      for name in names { console.line(name) }
    }
    return .ok
  }
}

/// `prefs find WORD`
enum Find {
  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    guard args.positional.count == 1, let word = args.positional.first, !word.isEmpty else {
      throw CommandFailure(.usage, "find takes one word")
    }
    let (folder, names) = try Domains.names()
    var results: [String: PlistValue] = [:]
    for name in names {
      let path = folder.appendingPathComponent(name + ".plist").path
      let document: PlistDocument
      do {
        document = try Prefs.load(path)
      } catch {
        console.message(error.message)
        continue
      }
      // A file that is not a domain is not searched (its name is said on standard error).
      let values: PlistDictionary
      do {
        values = try Prefs.domain(document, path: path)
      } catch {
        console.message(error.message)
        continue
      }
      var matches = PlistDictionary()
      for (key, value) in values where contains(key, word) || contains(value, word) {
        matches[key] = value
      }
      if !matches.isEmpty { results[name] = .dictionary(matches) }
    }
    if args.has("--json") {
      console.line(try Read.encode(.dictionary(PlistDictionary(results)), path: folder.path))
    } else {
      for (name, matches) in PlistValue.sortedEntries(results) {
        let count = matches.dictionaryValue?.count ?? 0
        console.line(
          "Found \(count) key\(count == 1 ? "" : "s") in domain '\(name)': \(PropertyList.describe(matches))"
        )
      }
    }
    guard !results.isEmpty else {
      // As `defaults find` says it.
      console.message("No domain, key, nor value containing '\(word)'")
      return .notFound
    }
    return .ok
  }

  static func contains(_ text: String, _ word: String) -> Bool {
    text.lowercased().contains(word.lowercased())
  }

  static func contains(_ value: PlistValue, _ word: String) -> Bool {
    switch value {
    case .string(let s): contains(s, word)
    case .array(let a): a.contains { contains($0, word) }
    case .dictionary(let d): d.contains { contains($0.key, word) || contains($0.value, word) }
    case .data, .uid: false
    default: contains(PropertyList.describe(value), word)
    }
  }
}

/// `prefs rename FILE OLD NEW`
enum Rename {
  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    guard args.positional.count == 3 else {
      throw CommandFailure(.usage, "rename takes a file, the old key and the new key")
    }
    let domain = try Target.domain(args.positional[0])
    let path = domain.name
    let (old, new) = (args.positional[1], args.positional[2])
    // Checked first without the lock, so that a rename that fails touches nothing, then
    // again under the lock, where the rename happens.
    func check(_ domain: [String: PlistValue]) -> Result<PlistValue, CommandFailure> {
      guard let value = domain[old] else {
        return .failure(
          CommandFailure(.notFound, "the key \"\(old)\" does not exist in \(path)"))
      }
      guard domain[new] == nil else {
        return .failure(
          CommandFailure(.cannotCreate, "the key \"\(new)\" already exists in \(path)"))
      }
      return .success(value)
    }
    if case .failure(let failure) = check(try Target.existingDomain(domain)) { throw failure }
    var failure: CommandFailure?
    try Target.update(domain, console: console) { current in
      switch check(current.values.swiftDictionary) {
      case .success(let value): return [new: value, old: nil]
      case .failure(let reason):
        failure = reason
        return [:]
      }
    }
    if let failure { throw failure }
    return .ok
  }
}

/// `prefs read-type FILE KEY`
enum ReadType {
  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    guard args.positional.count == 2 else {
      throw CommandFailure(.usage, "read-type takes a file and a key")
    }
    let domain = try Target.domain(args.positional[0])
    let value = try Read.value(forKey: args.positional[1], in: domain, console: console)
    console.line("Type is \(typeName(value))")
    return .ok
  }

  /// The type as `defaults read-type` names it: the value's type name, but `boolean` and
  /// `float`.
  static func typeName(_ value: PlistValue) -> String {
    switch value {
    case .bool: "boolean"
    case .real: "float"
    default: value.typeName
    }
  }
}

/// `prefs import FILE PLIST`
enum Import {
  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    guard args.positional.count == 2 else {
      throw CommandFailure(.usage, "import takes a domain and a property list")
    }
    let domain = try Target.domain(args.positional[0])
    let source = args.positional[1]
    let document: PlistDocument
    if source == "-" {
      do {
        document = try PropertyList.read(
          FileAccess.readStandardInput(limit: Prefs.inputLimit))
      } catch {
        throw CommandFailure(.dataError, "standard input: \(error)")
      }
    } else {
      document = try Prefs.load(source)
    }
    let values = try Prefs.domain(document, path: source)
    do {
      for (key, value) in values { try DefaultsStore.validate(value, forKey: key) }
    } catch {
      throw CommandFailure(error)
    }
    try Target.update(domain, console: console) { _ in
      DomainChanges(replacing: PlistDictionary(), with: values)
    }
    return .ok
  }
}
