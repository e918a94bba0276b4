import LegacyDefaults
import PrefsTools
import PropertyList

/// `prefs write [OPTIONS] FILE KEY [-bool|-int|-float|-string|-date|-data|-json] VALUE`,
/// `-array V…`, `-dict K V…`, `-array-add V…`, `-array-union V…`, `-dict-add K V…`
enum Write {
  /// The options `write` takes before FILE (`--truncate-dates` also last, as it always has).
  static let leading = [
    DatePolicy.flag, Options.keyPath.spec.name, Options.dryRunChange.spec.name,
    Options.json.spec.name, Options.typed.spec.name,
  ]

  static func run(_ arguments: [String], console: Console) throws(CommandFailure) -> ExitCode {
    var arguments = arguments
    var flags: [String] = []
    while let first = arguments.first, leading.contains(first) {
      flags.append(arguments.removeFirst())
    }
    if arguments.last == DatePolicy.flag, arguments.count > 3 {
      arguments.removeLast()
      flags.append(DatePolicy.flag)
    }
    guard arguments.count >= 3 else {
      throw CommandFailure(.usage, "write takes a file, a key and a value (see prefs write --help)")
    }
    let change = ChangeFlags(flags)
    let editor = try Run.editor(arguments[0])
    let path = change.path(arguments[1])
    let words = Array(arguments.dropFirst(2))
    let outcome = try attempt { () throws(ToolError) in
      let truncating = flags.contains(DatePolicy.flag)
      if let addition = additions[words[0]] {
        let rest = Array(words.dropFirst())
        let value: PlistValue =
          addition == .merge
          ? .dictionary(try TypedValue.entries(rest, spelling: .prefs))
          : .array(try TypedValue.elements(rest, spelling: .prefs))
        return try editor.add(
          value, at: path, as: addition, dryRun: change.dryRun, truncatingDates: truncating)
      }
      let value = try TypedValue.parse(words, spelling: .prefs)
      return try editor.set(value, at: path, dryRun: change.dryRun, truncatingDates: truncating)
    }
    try change.report(outcome, word: arguments[0], editor: editor, console: console)
    return .ok
  }

  /// The flags that add to the container at KEY rather than replace it.
  static let additions: [String: Addition] = [
    "-array-add": .append, "-array-union": .union, "-dict-add": .merge,
  ]
}

/// What `write` and `delete` were asked besides the change: KEY as a key path, a dry run,
/// the changes printed as JSON (typed or not).
struct ChangeFlags {
  var keyPath: Bool
  var dryRun: Bool
  var json: Bool
  var typed: Bool

  init(_ flags: [String]) {
    keyPath = flags.contains(Options.keyPath.spec.name)
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
}

/// `prefs rename FILE OLD NEW`
enum Rename {
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
