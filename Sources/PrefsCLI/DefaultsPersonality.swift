import PrefsTools
import PropertyList

/// `defaults` as macOS spells it, over the same library calls and the same locked, atomic
/// writes as the native verbs: `prefs defaults …`, or the binary invoked as `defaults`.
///
/// Declared as every verb is: each of its verbs (``verbs``, each declared in
/// `DefaultsVerbs.swift`) is its forms, each form its operands, the line the usage text shows
/// and what it runs; the usage text, `prefs help defaults`, the completions and the dispatch
/// all read that declaration, and a test runs every form the usage shows. `<domain>` is spelt as ``DomainWord``
/// says, `<value>` as ``values`` lists (the flags of ``TypedValue``'s `defaults` spelling).
/// `-currentHost` or `-host NAME` before the verb: the host's ByHost domains (``HostScope``).
/// Values print as macOS prints them (``DefaultsDescription``). Exit 0, or 1 with `defaults`'
/// message (64 for a usage error).
enum DefaultsPersonality {
  static let spec = CommandSpec(
    name: "defaults", summary: "the syntax of macOS defaults: read, write, delete, find …",
    synopsis: [], discussion: "", operands: [.domain, .key],
    syntax: .personality(
      CommandSpec.Personality(help: { usage }, verbs: { hostOptions.map(\.word) + verbNames })),
    run: { (i, c) throws(CommandFailure) in run(i.raw, console: c) })

  // MARK: - The declaration

  /// Every verb (each declared in `DefaultsVerbs.swift`), in the order the usage lists them.
  static let verbs: [Verb] = [
    read, readType, write, rename, delete, importing, exporting, domains, find, help,
  ]

  /// A verb: its forms, in the order the usage lists them.
  struct Verb: Sendable {
    var name: String
    /// Other words for it that the usage does not show (`-h` for `help`).
    var aliases: [String] = []
    var forms: [Form]
    /// Whether the usage leaves a blank line after it.
    var spaced = false
    /// Whether words after its forms' are let be (`help`'s, as macOS lets them be).
    var ignoresRest = false
  }

  /// One form of a verb: its operands, the usage's line for it, and what it does.
  struct Form: Sendable {
    var operands: [Operand]
    var summary: String
    var run: @Sendable (Words, Console) throws(CommandFailure) -> ExitCode

    init(
      _ operands: [Operand], _ summary: String,
      run: @escaping @Sendable (Words, Console) throws(CommandFailure) -> ExitCode
    ) {
      self.operands = operands
      self.summary = summary
      self.run = run
    }

    /// The words bound to the operands, when they fit this form exactly.
    func bind(_ words: [String]) -> Words? {
      var bound = Words()
      var rest = words[...]
      for operand in operands {
        switch operand {
        case .domain:
          guard let word = rest.popFirst() else { return nil }
          if word == DomainWord.appFlag {
            guard let name = rest.popFirst() else { return nil }
            bound.domain = .app(name)
          } else {
            bound.domain = DomainWord(word)
          }
        case .word:
          guard let word = rest.popFirst() else { return nil }
          bound.words.append(word)
        case .path:
          guard let word = rest.popFirst(), word != "-" else { return nil }
          bound.words.append(word)
        case .standardStream:
          guard rest.popFirst() == "-" else { return nil }
          bound.words.append("-")
        case .value:
          guard !rest.isEmpty else { return nil }
          bound.words += rest
          rest = []
        }
      }
      return rest.isEmpty ? bound : nil
    }
  }

  /// What a form takes after its verb, as the usage names it.
  enum Operand: Sendable, Equatable {
    /// `<domain>`, spelt as ``DomainWord`` says (`-app NAME` is two words).
    case domain
    /// One word (`<key>`, `<old_key>`, `<domain_rep>`, `<word>`).
    case word(String)
    /// One word that is not `-` (`<path to plist>`).
    case path(String)
    /// `-`: standard input or output.
    case standardStream
    /// `<value>`: the rest of the words, as ``values`` lists them.
    case value

    var usage: String {
      switch self {
      case .domain: "<domain>"
      case .word(let name), .path(let name): name
      case .standardStream: "-"
      case .value: "<value>"
      }
    }
  }

  /// The words a form was given: its domain, and its other operands in order (a value's
  /// words last).
  struct Words: Sendable {
    var domain: DomainWord?
    var words: [String] = []

    /// The domain the form names (every form that runs this has a domain operand).
    func named() throws(CommandFailure) -> Domain {
      guard let domain else { throw usageError() }
      return try DefaultsPersonality.domain(domain)
    }
  }

  /// How `<domain>` is spelt: the usage's alternatives, in its order, and the path rule.
  enum DomainWord: Sendable, Equatable {
    /// `<domain_name>`.
    case name(String)
    /// `-app <application_name>`: the application's bundle identifier (``ApplicationBundle``).
    case app(String)
    /// `-globalDomain` (also `-g`, `NSGlobalDomain` and `kCFPreferencesAnyApplication`, which
    /// the usage does not show).
    case global(String)
    /// A path to a file, its `.plist` extension left out or not.
    case path(String)

    static let appFlag = "-app"
    /// CoreFoundation's `kCFPreferencesAnyApplication` names the global domain too.
    static let globalNames = [
      "-globalDomain", "-g", "NSGlobalDomain", "kCFPreferencesAnyApplication",
    ]
    /// The usage's alternatives.
    static let usage = ["<domain_name>", appFlag + " <application_name>", globalNames[0]]
    static let pathUsage = "a path to a file omitting the '.plist' extension"

    init(_ word: String) {
      if Self.globalNames.contains(word) {
        self = .global(word)
      } else if DomainResolver.isPath(word) {
        self = .path(word)
      } else {
        self = .name(word)
      }
    }
  }

  /// `<value> is one of:`, in its order: each a type flag of ``TypedValue``'s `defaults`
  /// spelling (its words joined, `-int[eger]`) and the words after it; nil, a value word
  /// without a flag.
  static let values: [(kind: TypedValue.Kind?, operand: String)] = [
    (nil, "<value_rep>"), (.string, "<string_value>"), (.data, "<hex_digits>"),
    (.integer, "<integer_value>"),
    // Two spaces, as macOS prints it.
    (.real, " <floating-point_value>"), (.bool, "(true | false | yes | no)"),
    (.date, "<date_rep>"), (.array, "<value1> <value2> ..."),
    (.addition(.append), "<value1> <value2> ..."),
    (.dictionary, "<key1> <value1> <key2> <value2> ..."),
    (.addition(.merge), "<key1> <value1> ..."),
  ]

  /// An option before the verb: whose domains the rest names.
  struct HostOption: Sendable {
    var word: String
    /// Its value's name (nil: a flag).
    var operand: String?
    var scope: @Sendable (String) -> HostScope
  }

  static let hostOptions = [
    HostOption(word: "-currentHost", operand: nil) { _ in .current },
    HostOption(word: "-host", operand: "<hostname>") { .named($0) },
  ]

  static var verbNames: [String] { verbs.map(\.name) }

  /// The global domain's name: the file CoreFoundation keeps it in.
  static let globalDomain = ".GlobalPreferences"

  // MARK: - The usage text, from the declaration

  /// `defaults help`: macOS's text, made from the declaration.
  static var usage: String {
    let hosts = hostOptions.map { $0.word + ($0.operand.map { " " + $0 } ?? "") }
    var text = """
      Command line interface to a user's defaults.
      Syntax:

      'defaults' [\(hosts.joined(separator: " | "))] followed by one of the following:


      """
    for verb in verbs {
      for form in verb.forms {
        let synopsis = ([verb.name] + form.operands.map(\.usage)).joined(separator: " ")
        text += "  " + synopsis.padded(to: 37) + form.summary + "\n"
      }
      if verb.spaced { text += "\n" }
    }
    text += "\n<domain> is ( \(DomainWord.usage.joined(separator: " | ")) )\n"
    text += "         or \(DomainWord.pathUsage)\n\n<value> is one of:\n"
    for (kind, operand) in values {
      text += "  " + (kind.map { flagUsage($0) + " " } ?? "") + operand + "\n"
    }
    return text
  }

  /// The flags of `kind` as the usage shows them: `-int[eger]` for `-int` and `-integer`.
  static func flagUsage(_ kind: TypedValue.Kind) -> String {
    let words = TypedValue.flags(for: kind, in: .defaults).sorted { $0.count < $1.count }
    guard let short = words.first else { return "" }
    if words.count == 2, words[1].hasPrefix(short) {
      return short + "[" + words[1].dropFirst(short.count) + "]"
    }
    return words.joined(separator: " | ")
  }

  // MARK: - The dispatch, from the declaration

  static func run(_ arguments: [String], console: Console) -> ExitCode {
    // `-currentHost` or `-host NAME` first: the rest runs on that host's domains.
    var words = arguments[...]
    var host = HostScope.any
    if let first = words.first, let option = hostOptions.first(where: { $0.word == first }) {
      words.removeFirst()
      var value = ""
      if option.operand != nil {
        guard let next = words.popFirst() else { return fail(usageError(), console) }
        value = next
      }
      host = option.scope(value)
    }
    return Run.with({ $0.host = host }) {
      do throws(CommandFailure) {
        return try dispatch(Array(words), console: BareConsole(console))
      } catch {
        return fail(error, console)
      }
    }
  }

  /// The verb's first form that the words fit exactly; a usage error when none does.
  static func dispatch(_ arguments: [String], console: Console) throws(CommandFailure) -> ExitCode {
    guard let name = arguments.first else {
      console.err(usage)
      return .usage
    }
    guard let verb = verbs.first(where: { $0.name == name || $0.aliases.contains(name) }) else {
      throw usageError()
    }
    let words = Array(arguments.dropFirst())
    for form in verb.forms {
      if let bound = form.bind(words) { return try form.run(bound, console) }
    }
    if verb.ignoresRest, let form = verb.forms.first, form.operands.isEmpty {
      return try form.run(Words(), console)
    }
    throw usageError()
  }

  /// `defaults` prints its messages bare, without a program prefix.
  private static func fail(_ error: CommandFailure, _ console: Console) -> ExitCode {
    console.err(DatePolicy.hint(error.message).escapingControls(keepingLineBreaks: true) + "\n")
    return error.code
  }

  static func usageError() -> CommandFailure {
    CommandFailure(.usage, usage)
  }

  // MARK: - Domains

  /// A DOMAIN word: as `defaults`' messages name it, and the domain it names.
  struct Domain {
    var word: String
    var editor: DomainEditor
  }

  /// The one rule (`DomainResolver.isPath`), with `defaults`' additions: the global domain's
  /// names, an application's bundle identifier, and a path without its `.plist` extension,
  /// however the path is spelt.
  static func domain(_ word: DomainWord) throws(CommandFailure) -> Domain {
    switch word {
    case .global(let word):
      return Domain(word: word, editor: try Run.editor(globalDomain))
    case .app(let name):
      let resolver = Run.resolver()
      let identifier: String
      do {
        identifier = try ApplicationBundle.identifier(
          ofApplication: name, in: resolver.locator.applicationFolders())
      } catch {
        var failure = CommandFailure(error)
        if case .noSuchApplication = error { failure.message += "; defaults unchanged" }
        throw failure
      }
      return Domain(word: identifier, editor: try Run.editor(identifier))
    case .name(let word):
      return Domain(word: word, editor: try Run.editor(word))
    case .path(let word):
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
    // An empty domain is no domain, however it became empty (CoreFoundation keeps no empty
    // domain; a delete of the last key removes the file).
    if key == nil, document.value.dictionaryValue?.isEmpty == true {
      throw CommandFailure(.notFound, "\nDomain \(domain.word) does not exist")
    }
    if let key, document.value.dictionaryValue?[key] == nil {
      throw CommandFailure(
        .notFound, "\nThe domain/default pair of (\(domain.word), \(key)) does not exist")
    }
    return document
  }
}
