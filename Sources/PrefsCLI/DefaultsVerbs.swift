import PrefsTools
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The verbs of the `defaults` personality, each declared beside what it does.
extension DefaultsPersonality {
  // MARK: - Reading

  static let read = Verb(
    name: "read",
    forms: [
      Form([], "shows all defaults") { (_, console) throws(CommandFailure) in
        try readAll(console: console)
      },
      Form([.domain], "shows defaults for given domain") {
        (words, console) throws(CommandFailure) in
        let document = try exists(try words.named(), key: nil)
        console.line(DefaultsDescription.text(document.value))
        return .ok
      },
      Form([.domain, .word("<key>")], "shows defaults for given domain, key") {
        (words, console) throws(CommandFailure) in
        let key = words.words[0]
        let domain = try words.named()
        // One key: a binary domain decodes only its value, as `prefs read FILE KEY`; a missing
        // domain or key (or any failure) takes the whole read below, and its messages.
        if case .success(let found) = Result(catching: { () throws(ToolError) in
          try domain.editor.value(forKey: key)
        }) {
          console.line(DefaultsDescription.text(found.value))
          return .ok
        }
        let document = try exists(domain, key: key)
        let value = document.value.dictionaryValue?[key]
        console.line(value.map(DefaultsDescription.text) ?? "")
        return .ok
      },
    ], spaced: true)

  static let readType = Verb(
    name: "read-type",
    forms: [
      Form([.domain, .word("<key>")], "shows the type for the given domain, key") {
        (words, console) throws(CommandFailure) in
        let key = words.words[0]
        let document = try exists(try words.named(), key: key)
        guard let value = document.value.dictionaryValue?[key] else { throw usageError() }
        console.line("Type is \(ReadType.typeName(value))")
        return .ok
      }
    ], spaced: true)

  static func readAll(console: Console) throws(CommandFailure) -> ExitCode {
    let resolver = Run.resolver()
    let names = try attempt { () throws(ToolError) in try resolver.domainNames() }.names
    var all = PlistDictionary()
    for name in names {
      // A domain that does not read is named on standard error and left out, as `find` does.
      do {
        let path = try attempt { () throws(ToolError) in try resolver.path(name) }
        all[name] = try Convert.load(path).value
      } catch {
        console.message(error.message)
      }
    }
    console.line(DefaultsDescription.text(.dictionary(all)))
    return .ok
  }

  // MARK: - Changing

  static let write = Verb(
    name: "write",
    forms: [
      Form([.domain, .word("<domain_rep>")], "writes domain (overwrites existing)") {
        (words, console) throws(CommandFailure) in
        try replace(try words.named(), with: words.words[0], console: console)
      },
      Form([.domain, .word("<key>"), .value], "writes key for domain") {
        (words, console) throws(CommandFailure) in
        try write(
          try words.named(), key: words.words[0], value: Array(words.words.dropFirst()),
          console: console)
      },
    ], spaced: true)

  /// `write DOMAIN 'PLIST'`: the domain becomes that dictionary.
  static func replace(_ domain: Domain, with text: String, console: Console)
    throws(CommandFailure) -> ExitCode
  {
    let value: PlistValue
    do {
      value = try PropertyList.read(Data(text.utf8)).value
    } catch {
      throw CommandFailure(.usage, "Could not parse: \(text).  Try single-quoting it.")
    }
    guard case .dictionary(let values) = value else {
      throw CommandFailure(
        .usage, "Rep argument is not a dictionary\nDefaults have not been changed.")
    }
    console.report(try attempt { () throws(ToolError) in try domain.editor.replace(with: values) })
    return .ok
  }

  /// `write DOMAIN KEY VALUE…`: the value as ``TypedValue`` reads `defaults`' words, set, or
  /// added to the container at KEY (`-array-add`, `-dict-add`).
  static func write(_ domain: Domain, key: String, value words: [String], console: Console)
    throws(CommandFailure) -> ExitCode
  {
    var truncatingDates = false
    var valueWords = words
    if valueWords.last == DatePolicy.flag, valueWords.count > 1 {
      valueWords.removeLast()
      truncatingDates = true
    }
    let recoveries = try attempt { () throws(ToolError) in
      switch try TypedValue.parse(valueWords, spelling: .defaults) {
      case .set(let value):
        return try domain.editor.set(value, forKey: key, truncatingDates: truncatingDates)
      case .add(let value, let addition):
        return try domain.editor.add(
          value, at: KeyPath(components: [key]), as: addition, truncatingDates: truncatingDates
        ).recoveries
      }
    }
    console.report(recoveries)
    return .ok
  }

  static let rename = Verb(
    name: "rename",
    forms: [
      Form([.domain, .word("<old_key>"), .word("<new_key>")], "renames old_key to new_key") {
        (words, console) throws(CommandFailure) in
        let domain = try words.named()
        _ = try exists(domain, key: words.words[0])
        console.report(
          try attempt { () throws(ToolError) in
            try domain.editor.rename(words.words[0], to: words.words[1])
          })
        return .ok
      }
    ], spaced: true)

  static let delete = Verb(
    name: "delete",
    forms: [
      Form([.domain], "deletes domain") { (words, _) throws(CommandFailure) in
        let domain = try words.named()
        try deleting(domain) { () throws(ToolError) in try domain.editor.removeDomain() }
        return .ok
      },
      Form([.domain, .word("<key>")], "deletes key in domain") {
        (words, console) throws(CommandFailure) in
        let domain = try words.named()
        try deleting(domain) { () throws(ToolError) in
          console.report(try domain.editor.remove(words.words[0]))
        }
        return .ok
      },
    ], spaced: true)

  /// A deletion, with `defaults`' message when there is nothing to delete.
  static func deleting(_ domain: Domain, _ body: () throws(ToolError) -> Void)
    throws(CommandFailure)
  {
    do throws(ToolError) {
      try body()
    } catch {
      let failure = CommandFailure(error)
      guard failure.code == .notFound else { throw failure }
      throw CommandFailure(
        .notFound, "Domain (\(domain.word)) not found.\nDefaults have not been changed.")
    }
  }

  // MARK: - Files

  static let importing = Verb(
    name: "import",
    forms: [
      Form([.domain, .path("<path to plist>")], "writes the plist at path to domain") {
        (words, console) throws(CommandFailure) in
        try merge(try words.named(), from: words.words[0], console: console)
      },
      Form([.domain, .standardStream], "writes a plist from stdin to domain") {
        (words, console) throws(CommandFailure) in
        try merge(try words.named(), from: "-", console: console)
      },
    ])

  /// `import DOMAIN PATH|-`: the property list's entries merged into the domain.
  static func merge(_ domain: Domain, from source: String, console: Console)
    throws(CommandFailure) -> ExitCode
  {
    let document = try Convert.load(source == "-" ? source : try Run.path(source))
    let values = try Read.domain(document, path: source == "-" ? "standard input" : source)
    console.report(try attempt { () throws(ToolError) in try domain.editor.merge(values) })
    return .ok
  }

  static let exporting = Verb(
    name: "export",
    forms: [
      Form([.domain, .path("<path to plist>")], "saves domain as a binary plist to path") {
        (words, console) throws(CommandFailure) in
        try export(try words.named(), to: words.words[0], as: .binary, console: console)
      },
      Form([.domain, .standardStream], "writes domain as an xml plist to stdout") {
        (words, console) throws(CommandFailure) in
        try export(try words.named(), to: "-", as: .xml, console: console)
      },
    ])

  /// `export DOMAIN PATH|-`: the domain in `format`, to standard output (`-`) or through the
  /// one writer of outputs (a domain's lock when the path is a domain).
  static func export(
    _ domain: Domain, to target: String, as format: PlistFormat, console: Console
  ) throws(CommandFailure) -> ExitCode {
    let document = try exists(domain, key: nil)
    let data: Data
    do {
      data = try PropertyList.write(document.value, as: format)
    } catch {
      throw CommandFailure(error, path: domain.word)
    }
    if target == "-" {
      console.out(data)
      return .ok
    }
    let resolver = Run.resolver()
    console.report(
      try attempt { () throws(ToolError) in
        try OutputFile.write(
          data, to: target, value: document.value, format: format, resolver: resolver)
      })
    return .ok
  }

  // MARK: - Every domain

  static let domains = Verb(
    name: "domains",
    forms: [
      Form([], "lists all domains") { (_, console) throws(CommandFailure) in
        let resolver = Run.resolver()
        let names = try attempt { () throws(ToolError) in try resolver.domainNames() }.names
        console.line(names.joined(separator: ", "))
        return .ok
      }
    ])

  static let find = Verb(
    name: "find",
    forms: [
      Form([.word("<word>")], "lists all entries containing word") {
        (words, console) throws(CommandFailure) in
        guard let word = words.words.first, !word.isEmpty else { throw usageError() }
        return try find(word, console: console)
      }
    ])

  /// `defaults find WORD`: each domain with keys or values that contain the word (ignoring
  /// case), as `Found N keys in domain 'D': {…}` (macOS says "keys" for one too).
  static func find(_ word: String, console: Console) throws(CommandFailure) -> ExitCode {
    let resolver = Run.resolver()
    let found = try attempt { () throws(ToolError) in
      try DomainSearch(word: word).run(resolver: resolver)
    }
    var any = false
    for (name, result) in found {
      switch result {
      case .matches(let matches):
        any = true
        console.line(
          "Found \(matches.count) keys in domain '\(name)': "
            + DefaultsDescription.text(.dictionary(matches)))
      // A file that does not read, or is not a domain, is named on standard error.
      case .skipped(let error): console.message(CommandFailure(error).message)
      }
    }
    guard any else {
      console.message("No domain, key, nor value containing '\(word)'")
      return .notFound
    }
    return .ok
  }

  static let help = Verb(
    name: "help", aliases: ["-h", "--help"],
    forms: [
      Form([], "print this help") { (_, console) throws(CommandFailure) in
        console.out(usage)
        return .ok
      }
    ], ignoresRest: true)
}
