import LegacyDefaults
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
  /// The values it takes, when they are a fixed set (shown and completed).
  var choices: [String] = []
  var completion = Completion.none
  var help: String

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

extension Option {
  /// One of a fixed set of values, each with the word that names it.
  static func choice(
    _ name: String, value: String, among choices: [(word: String, value: Value)], help: String
  ) -> Self {
    let words = choices.map(\.word)
    return Self(
      spec: OptionSpec(
        name: name, value: value, choices: words, completion: .choices, help: help)
    ) { (text) throws(CommandFailure) in
      guard let match = choices.first(where: { $0.word == text }) else {
        throw CommandFailure(
          .usage, "\(name) takes one of \(words.joined(separator: ", ")), not \(text)")
      }
      return match.value
    }
  }
}

extension Option where Value: RawRepresentable, Value.RawValue == String {
  /// One of `values`, named by their raw values (`--dialect apple`, `--format xml`).
  static func choice(_ name: String, value: String, among values: [Value], help: String) -> Self {
    choice(name, value: value, among: values.map { ($0.rawValue, $0) }, help: help)
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

  /// Every word `--to` takes.
  static let words: [(word: String, value: ConvertTarget)] =
    PlistFormat.allCases.map { ($0.rawValue, .plist($0)) } + [("json", .json)]
    + PlistFormat.plutilNames.map { ($0.name, .plist($0.format)) }
}

extension PlistFormat {
  /// The formats `plutil` names its own way (`-convert xml1`).
  static let plutilNames: [(name: String, format: PlistFormat)] = [
    ("xml1", .xml), ("binary1", .binary),
  ]
}

/// Every option of every verb, declared once.
enum Options {
  static let json = Option<Bool>.flag("--json", help: "print JSON instead of text")
  static let truncateDates = Option<Bool>.flag(
    DatePolicy.flag,
    help: "write a date's fraction of a second away (XML and GNUstep text hold whole seconds)")
  static let plan = Option<String>.text(
    "--plan", value: "PLAN", files: true, help: "the migration plan (JSON)")
  static let jobs = Option<Int>.positive(
    "--jobs", value: "N", help: "files at a time (default: the core count)")
  static let dialect = Option<Dialect>.choice(
    "--dialect", value: "DIALECT", among: Dialect.allCases, help: "whose getters (default apple)")
  static let inferDialect = Option<Dialect>.choice(
    "--dialect", value: "DIALECT", among: Dialect.allCases,
    help: "infer: the getters the old app used (default apple)")

  // migrate
  static let migrateTo = Option<String>.text(
    "--to", value: "OUT", files: true, help: "the new store (a folder for several files)")
  static let inPlace = Option<Bool>.flag(
    "--in-place", help: "replace each legacy file, after its backup")
  static let backup = Option<String>.text(
    "--backup", value: "DIR", files: true, help: "where --in-place copies the originals")
  static let dryRun = Option<Bool>.flag("--dry-run", help: "write nothing; print the same report")
  static let storeFormat = Option<PlistFormat>.choice(
    "--format", value: "FORMAT", among: [.binary, .xml],
    help: "the new store's format (default binary)")
  static let shard = Option<Shard>(
    spec: OptionSpec(
      name: "--shard", value: "I/N", help: "the I-th of N disjoint parts of the list")
  ) { (text) throws(CommandFailure) in
    let parts = text.split(separator: "/").compactMap { Int($0) }
    guard parts.count == 2, parts[1] >= 1, (0..<parts[1]).contains(parts[0]) else {
      throw CommandFailure(.usage, "--shard takes I/N with 0 <= I < N, not \(text)")
    }
    return Shard(index: parts[0], count: parts[1])
  }
  static let summary = Option<Bool>.flag(
    "--summary", help: "print each file's line and the totals, not every key")

  // export
  static let exportTo = Option<String>.text(
    "--to", value: "LEGACY_OUT", files: true, help: "the legacy file to write")
  static let legacyFormat = Option<PlistFormat>.choice(
    "--format", value: "FORMAT", among: [.binary, .xml, .openStep, .gnustep],
    help: "the legacy file's format (openstep: strings, data, arrays, dictionaries only)")

  // plan swift
  static let name = Option<String>.text(
    "--name", value: "NAME", files: false, help: "swift: the plan's name in Swift")

  // read
  static let getter = Option<LegacyType>.choice(
    "--as", value: "TYPE", among: LegacyType.allCases, help: "read through this getter")

  // convert
  static let convertTo = Option<ConvertTarget>.choice(
    "--to", value: "FORMAT", among: ConvertTarget.words, help: "the format to write")
  static let output = Option<String>.text(
    "--output", alias: "-o", value: "OUT", files: true,
    help: "the file to write (- or none: standard output)")
}

/// The I-th of N disjoint parts of a list (`--shard I/N`).
struct Shard: Sendable, Hashable {
  var index: Int
  var count: Int
}
