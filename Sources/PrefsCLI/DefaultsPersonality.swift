import LegacyDefaults
import PrefsTools
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `defaults` as macOS spells it, over the same library calls and the same locked, atomic
/// writes as the native verbs: `prefs defaults …`, or the binary invoked as `defaults`.
///
/// ```
/// defaults read [DOMAIN [KEY]]        defaults read-type DOMAIN KEY
/// defaults write DOMAIN KEY VALUE     defaults write DOMAIN KEY -TYPE VALUE…
/// defaults write DOMAIN 'PLIST'       defaults rename DOMAIN OLD NEW
/// defaults delete DOMAIN [KEY]        defaults domains | find WORD | help
/// defaults export DOMAIN PATH|-       defaults import DOMAIN PATH|-
/// ```
/// TYPE: -string -int[eger] -float -bool[ean] -date -data -array -array-add -dict -dict-add;
/// inside `-array` and `-dict` a value is a word (a `{…}`, `(…)`, `<…>` or `"…"` literal is a
/// property list) or a type flag and its word. DOMAIN may be `-g`, `-globalDomain` or
/// `NSGlobalDomain` (the global domain), a domain name or a path. `-currentHost` or
/// `-host NAME` before the verb: the host's ByHost domains (``HostScope``). Values print as
/// macOS prints them (``DefaultsDescription``). Exit 0, or 1 with `defaults`' message (64
/// for a usage error).
enum DefaultsPersonality {
  static let usage = """
    Command line interface to a user's defaults.
    Syntax:

    'defaults' [-currentHost | -host <hostname>] followed by one of the following:

      read                                 shows all defaults
      read <domain>                        shows defaults for given domain
      read <domain> <key>                  shows defaults for given domain, key

      read-type <domain> <key>             shows the type for the given domain, key

      write <domain> <domain_rep>          writes domain (overwrites existing)
      write <domain> <key> <value>         writes key for domain

      rename <domain> <old_key> <new_key>  renames old_key to new_key

      delete <domain>                      deletes domain
      delete <domain> <key>                deletes key in domain

      import <domain> <path to plist>      writes the plist at path to domain
      import <domain> -                    writes a plist from stdin to domain
      export <domain> <path to plist>      saves domain as a binary plist to path
      export <domain> -                    writes domain as an xml plist to stdout
      domains                              lists all domains
      find <word>                          lists all entries containing word
      help                                 print this help

    <domain> is ( <domain_name> | -app <application_name> | -globalDomain )
             or a path to a file omitting the '.plist' extension

    <value> is one of:
      <value_rep>
      -string <string_value>
      -data <hex_digits>
      -int[eger] <integer_value>
      -float  <floating-point_value>
      -bool[ean] (true | false | yes | no)
      -date <date_rep>
      -array <value1> <value2> ...
      -array-add <value1> <value2> ...
      -dict <key1> <value1> <key2> <value2> ...
      -dict-add <key1> <value1> ...

    """

  /// The global domain's name: the file CoreFoundation keeps it in.
  static let globalDomain = ".GlobalPreferences"

  static func run(_ arguments: [String], console: Console) -> ExitCode {
    // `-currentHost` or `-host NAME` first: the rest runs on that host's domains.
    var words = arguments
    var host = HostScope.any
    if words.first == "-currentHost" {
      host = .current
      words.removeFirst()
    } else if words.first == "-host" {
      guard words.count >= 2 else { return fail(CommandFailure(.usage, usage), console) }
      host = .named(words[1])
      words.removeFirst(2)
    }
    return Run.$host.withValue(host) {
      do throws(CommandFailure) {
        return try dispatch(words, console: BareConsole(console))
      } catch {
        return fail(error, console)
      }
    }
  }

  /// `defaults` prints its messages bare, without a program prefix.
  private static func fail(_ error: CommandFailure, _ console: Console) -> ExitCode {
    console.err(DatePolicy.hint(error.message).escapingControls(keepingLineBreaks: true) + "\n")
    return error.code
  }

  static func dispatch(_ arguments: [String], console: Console) throws(CommandFailure) -> ExitCode {
    var words = arguments
    guard let verb = words.first else {
      console.err(usage)
      return .usage
    }
    words.removeFirst()
    switch verb {
    case "help", "-h", "--help":
      console.out(usage)
      return .ok
    case "read":
      guard words.count <= 2 else { throw usageError() }
      guard let domainWord = words.first else { return try readAll(console: console) }
      let domain = try self.domain(domainWord)
      let document = try exists(domain, key: words.dropFirst().first)
      guard words.count == 2 else {
        console.line(DefaultsDescription.text(document.value))
        return .ok
      }
      let value = document.value.dictionaryValue?[words[1]]
      console.line(value.map(DefaultsDescription.text) ?? "")
      return .ok
    case "read-type":
      guard words.count == 2 else { throw usageError() }
      let domain = try self.domain(words[0])
      let document = try exists(domain, key: words[1])
      guard let value = document.value.dictionaryValue?[words[1]] else { throw usageError() }
      console.line("Type is \(ReadType.typeName(value))")
      return .ok
    case "write":
      return try write(words, console: console)
    case "rename":
      guard words.count == 3 else { throw usageError() }
      let domain = try self.domain(words[0])
      _ = try exists(domain, key: words[1])
      console.report(
        try attempt { () throws(ToolError) in try domain.editor.rename(words[1], to: words[2]) })
      return .ok
    case "delete":
      guard (1...2).contains(words.count) else { throw usageError() }
      let domain = try self.domain(words[0])
      do throws(ToolError) {
        if words.count == 2 {
          console.report(try domain.editor.remove(words[1]))
        } else {
          try domain.editor.removeDomain()
        }
      } catch {
        let failure = CommandFailure(error)
        guard failure.code == .notFound else { throw failure }
        throw CommandFailure(
          .notFound, "Domain (\(words[0])) not found.\nDefaults have not been changed.")
      }
      return .ok
    case "domains":
      guard words.isEmpty else { throw usageError() }
      let resolver = Run.resolver()
      console.line(
        try attempt { () throws(ToolError) in try resolver.domainNames() }.names.joined(
          separator: ", "))
      return .ok
    case "find":
      guard words.count == 1, let word = words.first, !word.isEmpty else { throw usageError() }
      return try find(word, console: console)
    case "export":
      guard words.count == 2 else { throw usageError() }
      let domain = try self.domain(words[0])
      let document = try exists(domain, key: nil)
      // To standard output as XML; to a path as binary, as `defaults` does.
      let format: PlistFormat = words[1] == "-" ? .xml : .binary
      let data: Data
      do {
        data = try PropertyList.write(document.value, as: format)
      } catch {
        throw CommandFailure(error, path: words[0])
      }
      if words[1] == "-" {
        console.out(data)
        return .ok
      }
      // Through the one writer of outputs: a domain's lock when the path is a domain.
      let resolver = Run.resolver()
      console.report(
        try attempt { () throws(ToolError) in
          try OutputFile.write(
            data, to: words[1], value: document.value, format: format, resolver: resolver)
        })
      return .ok
    case "import":
      guard words.count == 2 else { throw usageError() }
      let domain = try self.domain(words[0])
      let source = words[1]
      let document = try Convert.load(source == "-" ? source : try Run.path(source))
      let values = try Read.domain(document, path: source == "-" ? "standard input" : source)
      console.report(try attempt { () throws(ToolError) in try domain.editor.merge(values) })
      return .ok
    default:
      throw usageError()
    }
  }

  /// A DOMAIN word: as the user typed it (for `defaults`' messages), and the domain it names.
  struct Domain {
    var word: String
    var editor: DomainEditor
  }

  /// The one rule (`DomainResolver.isPath`), with `defaults`' two additions: the global
  /// domain's names, and a path without its `.plist` extension, however the path is spelt.
  static func domain(_ word: String) throws(CommandFailure) -> Domain {
    switch word {
    case "-g", "-globalDomain", "NSGlobalDomain":
      return Domain(word: word, editor: try Run.editor(globalDomain))
    case "-app": throw CommandFailure(.usage, "-app is not supported: name the domain")
    default:
      guard DomainResolver.isPath(word) else {
        return Domain(word: word, editor: try Run.editor(word))
      }
      let path = word.hasSuffix(".plist") ? word : word + ".plist"
      return Domain(word: word, editor: try Run.editor(path))
    }
  }

  /// The domain's document, or `defaults`' messages for a missing domain or key.
  static func exists(_ domain: Domain, key: String?) throws(CommandFailure) -> PlistDocument {
    let document: PlistDocument
    do {
      document = try domain.editor.document()
    } catch {
      guard case .noSuchDomain = error else { throw CommandFailure(error) }
      throw CommandFailure(.notFound, "\nDomain \(domain.word) does not exist")
    }
    if let key, document.value.dictionaryValue?[key] == nil {
      throw CommandFailure(
        .notFound, "\nThe domain/default pair of (\(domain.word), \(key)) does not exist")
    }
    return document
  }

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

  static func write(_ words: [String], console: Console) throws(CommandFailure) -> ExitCode {
    guard words.count >= 2 else { throw usageError() }
    let domain = try self.domain(words[0])
    if words.count == 2 {
      // write DOMAIN 'PLIST': the domain becomes that dictionary.
      let value: PlistValue
      do {
        value = try PropertyList.read(Data(words[1].utf8)).value
      } catch {
        throw CommandFailure(.usage, "Could not parse: \(words[1]).  Try single-quoting it.")
      }
      guard case .dictionary(let values) = value else {
        throw CommandFailure(
          .usage, "Rep argument is not a dictionary\nDefaults have not been changed.")
      }
      console.report(
        try attempt { () throws(ToolError) in try domain.editor.replace(with: values) })
      return .ok
    }
    let key = words[1]
    let rest = Array(words.dropFirst(2))
    var truncatingDates = false
    var valueWords = rest
    if valueWords.last == DatePolicy.flag, valueWords.count > 1 {
      valueWords.removeLast()
      truncatingDates = true
    }
    let recoveries = try attempt { () throws(ToolError) in
      let value = try TypedValue.parse(valueWords, spelling: .defaults)
      if let flag = valueWords.first, flag == "-array-add" || flag == "-dict-add" {
        return try domain.editor.add(value, toKey: key)
      }
      return try domain.editor.set(value, forKey: key, truncatingDates: truncatingDates)
    }
    console.report(recoveries)
    return .ok
  }

  static func usageError() -> CommandFailure {
    CommandFailure(.usage, usage)
  }
}

/// A console whose messages carry no `prefs: ` prefix, as `defaults` and `plutil` print them.
final class BareConsole: Console {
  let base: Console

  init(_ base: Console) { self.base = base }

  func out(_ data: Data) { base.out(data) }
  func err(_ text: String) {
    base.err(text.hasPrefix("prefs: ") ? String(text.dropFirst("prefs: ".count)) : text)
  }
  var errorIsTerminal: Bool { base.errorIsTerminal }
  var outputIsTerminal: Bool { base.outputIsTerminal }
}
