import PrefsTools
import PropertyList

/// `prefs write [OPTIONS] FILE KEY [-bool|-int|-float|-string|-date|-data|-json] VALUE`,
/// `-array V…`, `-dict K V…`, `-array-add V…`, `-array-union V…`, `-dict-add K V…`; and
/// `prefs write [OPTIONS] --values FILE|- DOMAIN`: several keys in one locked write.
enum Write {
  static let spec = CommandSpec(
    name: "write", summary: "set one key, or several, and synchronize",
    synopsis: [
      "FILE|DOMAIN KEY [-bool|-int|-float|-string|-date|-data|-json] VALUE [--truncate-dates]",
      "FILE|DOMAIN KEY -array VALUE...",
      "FILE|DOMAIN KEY -dict KEY VALUE...",
      "FILE|DOMAIN KEY -array-add|-array-union VALUE... · -dict-add KEY VALUE...",
      "--values VALUES|- FILE|DOMAIN",
      "[--key-path] [--dry-run] [--json | --typed] [--same-type] [--] FILE|DOMAIN KEY ...",
    ],
    discussion: """
      Sets one key and synchronizes (locked, merged, atomic), as `defaults write` does.
      Without a type, a VALUE starting with { ( < " is read as a property list, else a string.
      Each VALUE of -array and -dict is read the same way, or given as a type and its word
      (-dict General -bool true; a -dict key may follow -string). -bool takes YES/NO/true/false/1/0; -date takes 2011-03-14T15:09:26Z,
      "2011-03-14 15:09:26 +0000" or 2011-03-14T16:09:26+01:00 (no offset: UTC; a day alone:
      its midnight); -data takes hex digits; -float a number a double holds (inf and nan as
      words); -json takes any value as typed JSON
      (read --typed prints it: '{"a": [1, 2.5], "when": {"$date": "2011-03-14T15:09:26Z"}}'),
      also as one element of -array or -dict. A date with a fraction of a second
      is refused by an XML or GNUstep text file unless --truncate-dates (first or last).
      -array-add appends the values to the array at KEY and -dict-add merges the entries into
      the dictionary there, as `defaults write` does; -array-union appends each value the
      array does not hold yet (compared exactly), so that adding again changes nothing. A KEY
      that holds nothing takes the value; one that holds another type is refused.
      --values VALUES sets several keys in one locked write (- reads standard input): a JSON
      array of assignments, [{"key": "quota", "type": "int", "value": "8589934592"},
      {"key": ["window", "frame", 2], "value": 1440}, {"key": "langs", "add": "array-union",
      "value": ["pt-BR"]}]. "key" is one key or a key path (keys and array indices); without
      "type" the value is typed JSON; with a type (the flags' names without the dash: bool,
      int, float, string, date, data, array, dict) a string value is read as that flag reads
      its word (data as base64), another value must be of the type (a real takes an integer,
      a bool 0 or 1, a string an integer's digits); "add" is array-add, array-union or
      dict-add. Every assignment is typed before the lock is taken (65 for one that is not,
      naming it); they are made in order, and the domain written once, when any key changed.
      Before FILE: --key-path takes KEY as a key path into nested values (as read
      --key-path; each dictionary missing on the way is made, an array index is replaced or,
      at the array's count, appended); --dry-run changes nothing; --json prints the changes
      made (or, with --dry-run, that would be) as diff --json does, nothing when none (an
      equal value is not written); --typed prints them with typed JSON values; --same-type
      refuses (64, nothing written) to replace a value of another type. `--` before
      FILE ends the options: FILE, KEY and VALUE are then taken as they are (`--help` too).
      """,
    options: [
      Options.truncateDates.spec, Options.keyPath.spec, Options.dryRunChange.spec,
      Options.json.spec, Options.typed.spec, Options.sameType.spec, Options.values.spec,
    ], operands: [.domain, .key, .value], syntax: .words,
    run: { (i, c) throws(CommandFailure) in try Write.run(i.raw, console: c) })

  /// The options `write` takes before FILE (`--truncate-dates` also last, as it always has).
  static let leading = [
    DatePolicy.flag, Options.keyPath.spec.name, Options.dryRunChange.spec.name,
    Options.json.spec.name, Options.typed.spec.name, Options.sameType.spec.name,
  ]

  static func run(_ arguments: [String], console: Console) throws(CommandFailure) -> ExitCode {
    var arguments = arguments
    var flags: [String] = []
    var values: String?
    while let first = arguments.first {
      if leading.contains(first) {
        flags.append(arguments.removeFirst())
      } else if first == Options.values.spec.name {
        arguments.removeFirst()
        guard values == nil, let file = arguments.first else {
          throw CommandFailure(
            .usage, "--values takes one file of assignments (- for standard input)")
        }
        values = file
        arguments.removeFirst()
      } else {
        break
      }
    }
    // `--` ends the options: what follows is FILE, KEY and the value, whatever they spell.
    let ended = arguments.first == "--"
    if ended { arguments.removeFirst() }
    if !ended, arguments.last == DatePolicy.flag, arguments.count > 3 || values != nil {
      arguments.removeLast()
      flags.append(DatePolicy.flag)
    }
    let change = ChangeFlags(flags)
    let truncating = flags.contains(DatePolicy.flag)
    if let values {
      guard arguments.count == 1 else {
        throw CommandFailure(
          .usage,
          "write --values takes the assignments' file and one domain (see prefs write --help)")
      }
      if change.keyPath {
        throw CommandFailure(
          .usage, "--key-path goes with one KEY: in --values a key path is an array of keys")
      }
      let assignments = try attempt { () throws(ToolError) in
        let input = values == "-" ? "standard input" : values
        return try Assignment.list(parsing: try InputFile.bytes(values), path: input)
      }
      let editor = try Run.editor(arguments[0])
      let outcome = try attempt { () throws(ToolError) in
        try editor.apply(
          assignments, dryRun: change.dryRun, truncatingDates: truncating,
          sameType: change.sameType)
      }
      try change.report(outcome, word: arguments[0], editor: editor, console: console)
      return .ok
    }
    guard arguments.count >= 3 else {
      throw CommandFailure(.usage, "write takes a file, a key and a value (see prefs write --help)")
    }
    let editor = try Run.editor(arguments[0])
    let path = change.path(arguments[1])
    let words = Array(arguments.dropFirst(2))
    let outcome = try attempt { () throws(ToolError) in
      switch try TypedValue.parse(words, spelling: .prefs) {
      case .set(let value):
        return try editor.apply(
          [Assignment(path: path, value: value)], dryRun: change.dryRun,
          truncatingDates: truncating, sameType: change.sameType)
      case .add(let value, let addition):
        return try editor.add(
          value, at: path, as: addition, dryRun: change.dryRun, truncatingDates: truncating)
      }
    }
    try change.report(outcome, word: arguments[0], editor: editor, console: console)
    return .ok
  }
}

/// What `write` and `delete` were asked besides the change: KEY as a key path, a dry run,
/// the changes printed as JSON (typed or not).
struct ChangeFlags {
  var keyPath: Bool
  var dryRun: Bool
  var json: Bool
  var typed: Bool
  var sameType = false

  init(_ flags: [String]) {
    keyPath = flags.contains(Options.keyPath.spec.name)
    sameType = flags.contains(Options.sameType.spec.name)
    dryRun = flags.contains(Options.dryRunChange.spec.name)
    typed = flags.contains(Options.typed.spec.name)
    json = typed || flags.contains(Options.json.spec.name)
  }

  init(_ args: Arguments) {
    keyPath = args.has(Options.keyPath)
    dryRun = args.has(Options.dryRunChange)
    typed = args.has(Options.typed)
    json = typed || args.has(Options.json)
  }

  /// KEY as the verb takes it: a key, or with `--key-path` a key path.
  func path(_ key: String) -> KeyPath { keyPath ? KeyPath(key) : KeyPath(components: [key]) }

  /// Says the files moved aside, and prints the changes with `--json`: as `diff --json` prints
  /// them, one object a line, nothing when nothing changed (or would, in a dry run).
  func report(_ outcome: ChangeOutcome, word: String, editor: DomainEditor, console: Console)
    throws(CommandFailure)
  {
    console.report(outcome.recoveries)
    guard json else { return }
    try ChangePrinter.print(
      outcome.diff, domain: ChangePrinter.defaultsName(word, editor: editor), json: true,
      typed: typed, console: console)
  }
}

/// `prefs delete [OPTIONS] FILE [KEY]`
enum Delete {
  static let spec = CommandSpec(
    name: "delete", summary: "remove a key (or the whole domain) and synchronize",
    synopsis: ["FILE|DOMAIN [KEY] [--key-path] [--dry-run] [--json | --typed]"],
    discussion: """
      Removes KEY and synchronizes; without KEY removes the whole domain (its file).
      --key-path removes the value at a key path (as read --key-path); --dry-run removes
      nothing; --json prints the changes (or, with --dry-run, those it would make) as diff
      --json does, --typed with typed JSON values.
      Exit 1 when the key or the domain does not exist.
      """,
    options: [
      Options.keyPath.spec, Options.dryRunChange.spec, Options.json.spec, Options.typed.spec,
    ],
    operands: [.domain, .key],
    run: { (i, c) throws(CommandFailure) in try Delete.run(i.arguments, console: c) })

  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    guard (1...2).contains(args.positional.count) else {
      throw CommandFailure(.usage, "delete takes a file and at most one key")
    }
    let editor = try Run.editor(args.positional[0])
    let change = ChangeFlags(args)
    guard args.positional.count == 2 else {
      // The whole domain goes, whatever it holds (a corrupt file too): every key it held is
      // a removal.
      let outcome = try attempt { () throws(ToolError) in
        try editor.removeDomain(dryRun: change.dryRun)
      }
      try change.report(outcome, word: args.positional[0], editor: editor, console: console)
      return .ok
    }
    let outcome = try attempt { () throws(ToolError) in
      try editor.remove(at: change.path(args.positional[1]), dryRun: change.dryRun)
    }
    try change.report(outcome, word: args.positional[0], editor: editor, console: console)
    return .ok
  }
}

/// The options of `write` and `delete`.
extension Options {
  static let keyPath = Option<Bool>.flag(
    "--key-path",
    help: "KEY is a key path: keys and array indices by dots, \\. a dot in a key (as plutil)")
  static let dryRunChange = Option<Bool>.flag(
    "--dry-run", help: "change nothing; with --json, print what would change")
  static let sameType = Option<Bool>.flag(
    "--same-type", help: "refuse to replace a value of another type (nothing written)")
  static let values = Option<String>.text(
    "--values", value: "VALUES", files: true,
    help: "set the keys of a JSON array of assignments in one write (- for standard input)")
}

/// `prefs rename FILE OLD NEW`
enum Rename {
  static let spec = CommandSpec(
    name: "rename", summary: "rename a key and synchronize",
    synopsis: ["FILE|DOMAIN OLD_KEY NEW_KEY"],
    discussion: """
      Renames a key (its value unchanged) and synchronizes, under the domain's lock. Exit 1 when
      OLD_KEY does not exist, 73 when NEW_KEY exists already.
      """,
    operands: [.domain, .key, .word],
    run: { (i, c) throws(CommandFailure) in try Rename.run(i.arguments, console: c) })

  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    guard args.positional.count == 3 else {
      throw CommandFailure(.usage, "rename takes a file, the old key and the new key")
    }
    let editor = try Run.editor(args.positional[0])
    console.report(
      try attempt { () throws(ToolError) in
        try editor.rename(args.positional[1], to: args.positional[2])
      })
    return .ok
  }
}

/// `prefs import FILE PLIST`
enum Import {
  static let spec = CommandSpec(
    name: "import", summary: "merge a property list into a domain",
    synopsis: ["FILE|DOMAIN PLIST"],
    discussion: """
      Merges the dictionary in PLIST (any format; - for standard input) into the domain, key by
      key, with the same lock and atomic write as every other change.
      """,
    operands: [.domain, .file],
    run: { (i, c) throws(CommandFailure) in try Import.run(i.arguments, console: c) })

  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    guard args.positional.count == 2 else {
      throw CommandFailure(.usage, "import takes a domain and a property list")
    }
    let editor = try Run.editor(args.positional[0])
    let source = args.positional[1]
    let document = try Convert.load(source == "-" ? source : try Run.path(source))
    let values = try Read.domain(document, path: source == "-" ? "standard input" : source)
    console.report(try attempt { () throws(ToolError) in try editor.merge(values) })
    return .ok
  }
}
