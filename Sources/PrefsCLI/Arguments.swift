/// A small argument scanner: options with values, flags, and positional arguments, each
/// checked against what the subcommand accepts, so a typo is a usage error (exit 64), never
/// silently ignored.
struct Arguments {
  private(set) var positional: [String] = []
  private var options: [String: String] = [:]
  /// Every value of each option given, in order (an option given twice keeps both here; the
  /// other readers see the last).
  private var repeated: [String: [String]] = [:]
  // Arrays, not sets: a verb has a handful of options, and a first `Set<String>` costs more
  // at start-up (its metadata built at run time) than every lookup of a run.
  private var flags: [String] = []

  /// - Parameters:
  ///   - valued: options that take a value (`--to xml`, `-o out`).
  ///   - flags: options that take none (`--json`).
  ///   - aliases: second spellings, stored under their option's name (`-o` → `--output`).
  init(
    _ arguments: [String], valued: [String], flags allowedFlags: [String],
    aliases: [String: String] = [:]
  ) throws(CommandFailure) {
    var index = 0
    var onlyPositional = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if onlyPositional || !argument.hasPrefix("-") || argument == "-" {
        positional.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositional = true
        continue
      }
      var name = argument
      var inlineValue: String?
      if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      let canonical = aliases[name] ?? name
      if valued.contains(name) {
        if let inlineValue {
          options[canonical] = inlineValue
          repeated[canonical, default: []].append(inlineValue)
        } else {
          guard index < arguments.count else {
            throw CommandFailure(.usage, "\(name) needs a value")
          }
          options[canonical] = arguments[index]
          repeated[canonical, default: []].append(arguments[index])
          index += 1
        }
      } else if allowedFlags.contains(name), inlineValue == nil {
        if !flags.contains(canonical) { flags.append(canonical) }
      } else {
        throw CommandFailure(.usage, "unknown option \(argument)")
      }
    }
  }

  /// No arguments (for the verbs that scan their own words).
  static let none = Arguments()

  private init() {}

  func value(_ name: String) -> String? { options[name] }
  /// Every value given to `name` (`--source A --source B`).
  func values(_ name: String) -> [String] { repeated[name] ?? [] }
  func has(_ flag: String) -> Bool { flags.contains(flag) }

  /// The value of an option that must be one of `choices`.
  /// (`choices` is built only when the option is given.)
  func choice<T>(_ name: String, _ choices: @autoclosure () -> [String: T])
    throws(CommandFailure) -> T?
  {
    guard let text = options[name] else { return nil }
    let choices = choices()
    guard let choice = choices[text] else {
      throw CommandFailure(
        .usage, "\(name) takes one of \(choices.keys.sorted().joined(separator: ", ")), not \(text)"
      )
    }
    return choice
  }
}
