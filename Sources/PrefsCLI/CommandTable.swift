/// One verb, declared once. `prefs help`, `prefs VERB --help`, the manual page, the shell
/// completions and the argument scanner all read this declaration, so no option is listed
/// twice and a verb cannot accept an option its help does not show.
struct CommandSpec: Sendable {
  /// What a positional argument is, for completion.
  enum Operand: Sendable { case file, domain, key, value, plan, word, shell, command }

  var name: String
  var summary: String
  /// The synopsis lines, after `prefs NAME`.
  var synopsis: [String]
  var discussion: String
  var options: [OptionSpec] = []
  /// The completion of each positional argument (the last one repeats).
  var operands: [Operand] = []
  var syntax = Syntax.options
  var run: @Sendable (Invocation, Console) throws(CommandFailure) -> ExitCode

  /// Whose syntax the verb's words follow.
  enum Syntax: Sendable {
    /// `prefs`': scanned against ``options`` by the table (`--help` among them).
    case options
    /// The verb scans its own words (`write KEY -int 5`): the table prints its help for a
    /// `--help` anywhere and gives its options to completion; the verb reads `raw`.
    case words
    /// Another command's (`prefs defaults …`, `prefs plutil …`): the verb reads `raw`, its
    /// help, usage errors and exit statuses its own.
    case personality(Personality)
  }

  /// What the table knows of a personality, from its declaration, made only when asked for
  /// (help, completion): its help text, the words that may come first (its verbs, and its
  /// options before a verb), its options after a verb, and the verbs whose next word
  /// completes from a set (plutil's `-convert FMT`), as options with values.
  struct Personality: Sendable {
    var help: @Sendable () -> String
    var verbs: @Sendable () -> [String]
    var options: @Sendable () -> [OptionSpec] = { [] }
    var valuedVerbs: @Sendable () -> [OptionSpec] = { [] }
  }

  /// Whether the verb speaks another command's syntax (``Syntax/personality(_:)``).
  var isPersonality: Bool {
    if case .personality = syntax { return true }
    return false
  }

  /// The words that may come first after the verb's name (a personality's verbs).
  var verbs: [String] {
    if case .personality(let personality) = syntax { return personality.verbs() }
    return []
  }

  /// Every option, for completion: the declared ones, or a personality's (its verbs that take
  /// a value too).
  var allOptions: [OptionSpec] {
    if case .personality(let personality) = syntax {
      return options + personality.options() + personality.valuedVerbs()
    }
    return options
  }

  /// `prefs VERB --help` (a personality's own help text).
  var help: String {
    if case .personality(let personality) = syntax { return personality.help() }
    var text = ""
    for (n, line) in synopsis.enumerated() {
      text += (n == 0 ? "usage: " : "       ") + "prefs \(name)" + (line.isEmpty ? "" : " " + line)
      text += "\n"
    }
    text += discussion
    if !text.hasSuffix("\n") { text += "\n" }
    if !options.isEmpty {
      let labels = options.map { option -> String in
        var label = option.spellings.joined(separator: ", ")
        if let value = option.value { label += " " + value }
        return label
      }
      let width = min(28, (labels.map(\.count).max() ?? 0) + 2)
      text += "Options:\n"
      for (label, option) in zip(labels, options) {
        let padded =
          label.count < width
          ? label.padded(to: width) : label + "  "
        var line = "  " + padded + option.help
        if !option.choices.isEmpty, !option.help.contains(option.choices.joined(separator: "|")) {
          line += " (" + option.choices.joined(separator: ", ") + ")"
        }
        text += line + "\n"
      }
    }
    return text + "\n"
  }

  /// The scanner for this verb's options (and `--help`).
  func scan(_ arguments: [String]) throws(CommandFailure) -> Arguments {
    var valued: [String] = []
    var flags = ["--help"]
    for option in options {
      if option.value == nil {
        flags += option.spellings
      } else {
        valued += option.spellings
      }
    }
    return try Arguments(arguments, valued: valued, flags: flags, aliases: aliases)
  }

  private var aliases: [String: String] {
    var map: [String: String] = [:]
    for option in options { if let alias = option.alias { map[alias] = option.name } }
    return map
  }
}

/// What a verb is given: its arguments scanned against its declaration, and as typed.
struct Invocation {
  var arguments: Arguments
  var raw: [String]
}

extension Prefs {
  /// Every verb of `prefs`, in the order help lists them: each declared in its own file
  /// (`static let spec`), the personalities too.
  static let commands: [CommandSpec] = [
    Migrate.spec,
    PlanCommand.spec,
    Export.spec,
    Read.spec,
    Write.spec,
    Delete.spec,
    Rename.spec,
    ReadType.spec,
    Import.spec,
    Domains.spec,
    Find.spec,
    Diff.spec,
    Watch.spec,
    Edit.spec,
    Lint.spec,
    Convert.spec,
    DefaultsPersonality.spec,
    PlutilPersonality.spec,
    Completion.spec,
    Manual.spec,
  ]

  /// The verb named `name` in ``commands``, its declaration alone made: a `switch` rather than
  /// a search of the table, because making all twenty declarations at every start was a sixth
  /// of a small `read`'s instructions. A test checks it against the table.
  static func command(named name: String) -> CommandSpec? {
    switch name {
    case "migrate": Migrate.spec
    case "plan": PlanCommand.spec
    case "export": Export.spec
    case "read": Read.spec
    case "write": Write.spec
    case "delete": Delete.spec
    case "rename": Rename.spec
    case "read-type": ReadType.spec
    case "import": Import.spec
    case "domains": Domains.spec
    case "find": Find.spec
    case "diff": Diff.spec
    case "watch": Watch.spec
    case "edit": Edit.spec
    case "lint": Lint.spec
    case "convert": Convert.spec
    case "defaults": DefaultsPersonality.spec
    case "plutil": PlutilPersonality.spec
    case "completion": Completion.spec
    case "man": Manual.spec
    default: nil
    }
  }
}
