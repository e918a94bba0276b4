import PrefsTools
import PropertyList

/// An option as the command table declares it, whatever its value's type: what help, the
/// manual page, the completions and the scanner need.
struct OptionSpec: Sendable {
  /// How a shell completes the option's value.
  enum Completion: Sendable { case none, files, choices }

  /// `--to`; `alias` is a second spelling (`-o` for `--output`).
  var name: String
  var alias: String? = nil
  /// The value's name (`FORMAT`); nil for a flag.
  var value: String? = nil
  /// The values it takes, when they are a fixed set (shown and completed); made only when
  /// asked for (help, completions), not at every start.
  var listChoices: @Sendable () -> [String] = { [] }
  var completion = Completion.none
  var help: String

  var choices: [String] { listChoices() }

  var spellings: [String] { [name] + (alias.map { [$0] } ?? []) }
}

/// An option declared once, with the type of its value: the verbs read `arguments[option]`,
/// never the option's name. Choices come from the enums they name.
struct Option<Value: Sendable>: Sendable {
  let spec: OptionSpec
  let parse: @Sendable (String) throws(CommandFailure) -> Value
}

extension Option where Value == Bool {
  /// A flag: present or not.
  static func flag(_ name: String, help: String) -> Self {
    Self(spec: OptionSpec(name: name, help: help)) { _ in true }
  }
}

extension Option where Value == String {
  /// A value taken as written: a path (completed as files) or a word.
  static func text(
    _ name: String, alias: String? = nil, value: String, files: Bool, help: String
  ) -> Self {
    Self(
      spec: OptionSpec(
        name: name, alias: alias, value: value, completion: files ? .files : .none, help: help)
    ) { $0 }
  }
}

extension Option where Value == Int {
  /// A whole number of at least 1.
  static func positive(_ name: String, value: String, help: String) -> Self {
    Self(spec: OptionSpec(name: name, value: value, help: help)) { (text) throws(CommandFailure) in
      guard let n = Int(text), n >= 1 else {
        throw CommandFailure(.usage, "\(name) takes a whole number of at least 1, not \(text)")
      }
      return n
    }
  }
}

extension Option where Value == Double {
  /// A number of seconds, 0 or more (`0.5`, `10`).
  static func seconds(_ name: String, value: String, help: String) -> Self {
    Self(spec: OptionSpec(name: name, value: value, help: help)) { (text) throws(CommandFailure) in
      try Options.seconds(text, option: name)
    }
  }
}

extension Option {
  /// One of a fixed set of values, each with the word that names it (the set is made only
  /// when the option is given, or listed).
  static func choice(
    _ name: String, value: String,
    among choices: @escaping @Sendable () -> [(word: String, value: Value)], help: String
  ) -> Self {
    Self(
      spec: OptionSpec(
        name: name, value: value, listChoices: { choices().map(\.word) }, completion: .choices,
        help: help)
    ) { (text) throws(CommandFailure) in
      let all = choices()
      guard let match = all.first(where: { $0.word == text }) else {
        throw CommandFailure(
          .usage,
          "\(name) takes one of \(all.map(\.word).joined(separator: ", ")), not \(text)")
      }
      return match.value
    }
  }
}

extension Option where Value: RawRepresentable, Value.RawValue == String {
  /// One of `values`, named by their raw values (`--dialect apple`, `--format xml`).
  static func choice(
    _ name: String, value: String, among values: @escaping @Sendable () -> [Value], help: String
  ) -> Self {
    choice(name, value: value, among: { values().map { ($0.rawValue, $0) } }, help: help)
  }
}

extension Arguments {
  /// The value of `option` (nil when not given), parsed as the option declares.
  subscript<Value>(option: Option<Value>) -> Value? {
    get throws(CommandFailure) {
      guard let text = value(option.spec.name) else { return nil }
      return try option.parse(text)
    }
  }

  /// Whether the flag is given.
  func has(_ flag: Option<Bool>) -> Bool { has(flag.spec.name) }
}

/// What `convert --to` writes: a property-list format (`plutil`'s names too), or JSON.
enum ConvertTarget: Sendable, Hashable {
  case plist(PlistFormat)
  case json

  /// Every word `--to` takes: each format's own, and plutil's where it differs beyond case
  /// (`xml1`; plutil's `openStep` is `openstep`).
  static let words: [(word: String, value: ConvertTarget)] =
    PlistFormat.allCases.map { ($0.rawValue, .plist($0)) } + [("json", .json)]
    + PlistFormat.plutilNames.filter { $0.name.lowercased() != $0.format.rawValue }.map {
      ($0.name, .plist($0.format))
    }
}

extension PlistFormat {
  /// The formats as `plutil` names them (`-convert xml1`): the one list its personality and
  /// `convert --to` read.
  static let plutilNames: [(name: String, format: PlistFormat)] = [
    ("xml1", .xml), ("binary1", .binary), ("openStep", .openStep),
  ]
}

/// Every option, declared once with its type: here those several verbs share; a verb's own
/// beside it (`extension Options` in the verb's file), so that a new verb with options is its
/// file and its line in the command table.
enum Options {
  static let json = Option<Bool>.flag("--json", help: "print JSON instead of text")
  static let typed = Option<Bool>.flag(
    "--typed",
    help: "print typed JSON: lossless (dates, data, non-finite reals tagged: {\"$date\": …})")
  static let truncateDates = Option<Bool>.flag(
    DatePolicy.flag,
    help: "write a date's fraction of a second away (XML and GNUstep text hold whole seconds)")
  static let plan = Option<String>.text(
    "--plan", value: "PLAN", files: true, help: "the migration plan (JSON)")
  /// How long a write waits for a domain's lock (`--lock-timeout SECONDS`).
  static let lockTimeout = Option<Double>.seconds(
    "--lock-timeout", value: "SECONDS",
    help:
      "how long to wait for a domain's lock before a file is busy (default \(Int(Run.defaultLockTimeout)) s)"
  )

  /// `text` as a number of seconds for `option`.
  static func seconds(_ text: String, option: String) throws(CommandFailure) -> Double {
    guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else {
      throw CommandFailure(.usage, "\(option) takes a number of seconds (0 or more), not \(text)")
    }
    return seconds
  }

  static let jobs = Option<Int>.positive(
    "--jobs", value: "N", help: "files at a time (default: the core count)")
  static let dialect = Option<Dialect>.choice(
    "--dialect", value: "DIALECT", among: { Dialect.allCases },
    help: "whose getters (default apple)")
}
