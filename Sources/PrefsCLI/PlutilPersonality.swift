import PrefsTools
import PropertyList

/// `plutil` as Apple's own code spells it (the port of Darwin's plutil in
/// swift-corelibs-foundation, which the Swift toolchain installs): `prefs plutil …`, or the
/// binary invoked as `plutil`. The same command lines, the same standard output, standard
/// error, exit status (0, or 1) and files written, byte for byte (the differential test runs
/// every verb and option through both), except the deliberate differences Docs/compatibility.md lists.
/// Edits of a dictionary file are one locked update of the domain, as every native write is.
///
/// Declared as every verb is: each of its verbs (``verbs``, each declared in
/// `PlutilVerbs.swift`) is its operands, its help and what it does, each option after them
/// (``options``) its help and what it sets; `plutil -help`, `prefs help plutil`, the completions and the scanner
/// (``scan(_:for:)``) all read that declaration. Formats are named by ``Format/words``.
enum PlutilPersonality {
  static let spec = CommandSpec(
    name: "plutil", summary: "the syntax of plutil: -lint, -p, -convert, -insert, -extract …",
    synopsis: [], discussion: "", operands: [.file],
    syntax: .personality(
      CommandSpec.Personality(
        help: { help }, verbs: { verbs.map(\.name) + options.map(\.word) },
        options: { completionOptions }, valuedVerbs: { formatVerbs })),
    run: { (i, c) throws(CommandFailure) in run(i.raw, console: c) })

  /// A failure: its message, printed on standard error, and plutil's status
  /// (``CommandFailure/init(plutil:)``).
  typealias Failure = CommandFailure

  // MARK: - The declaration

  /// Every verb (each declared in `PlutilVerbs.swift`), in the order the help lists them.
  static let verbs: [Verb] = [
    helpVerb, lint, convert, insert, replace, remove, extract, type, create, print,
  ]

  /// A verb (plutil's "command option"): its synopsis and help, the operands it takes before
  /// the options, the options it refuses, and what it does.
  struct Verb: Sendable {
    var name: String
    /// What follows the name in the help's synopsis (`keypath -type value`).
    var arguments: String = ""
    /// The help's lines beside the synopsis ("": a line left blank).
    var help: [String]
    var operands: [Operand] = []
    /// Whether the words after the operands are scanned for ``options`` and files (`-help`
    /// takes none).
    var takesOptions = true
    /// Options given that the verb does not use: each refused (`-o is not used with -lint.`).
    var refuses: [String] = []
    /// The format when it has no format operand (`-type`'s `type`).
    var format: Format? = nil
    var run: @Sendable (Invocation, Console) throws(Failure) -> Bool
  }

  /// What a verb takes before its options, scanned in its order.
  enum Operand: Sendable {
    /// A format (``Format/words``; `NoConversion`: the input's); `missing`: the message when
    /// there is no word.
    case format(missing: String)
    case keyPath(missing: String)
    /// `-type value` (``insertTypes``; an empty container takes no value).
    case typedValue(missing: String)
    /// `-header`, optional: only after `objc`.
    case header
    /// `-append`, optional.
    case append
    /// `-expect type`, optional (``expectTypes``).
    case expect
  }

  /// The formats the verbs name.
  enum Format: Sendable, Equatable {
    case plist(PlistFormat)
    case json, swift, objc, raw, type

    /// Every word that names a format (nil: `NoConversion`, the input's): property-list
    /// formats by plutil's names (``PlistFormat/plutilNames``).
    static let words: [(word: String, format: Format?)] =
      [("NoConversion", nil)] + PlistFormat.plutilNames.map { ($0.name, .plist($0.format)) }
      + [("json", .json), ("swift", .swift), ("objc", .objc), ("raw", .raw), ("type", .type)]

    /// The format a word names (nil: `NoConversion`), or plutil's refusal.
    static func named(_ word: String) throws(Failure) -> Format? {
      guard let match = words.first(where: { $0.word == word }) else {
        throw Failure(plutil: "Unknown format specifier: \(word)")
      }
      return match.format
    }

    var word: String { Self.words.first { $0.format == self }?.word ?? "" }

    /// A document's format as a format to write: OpenStep for GNUstep's text too.
    init(_ format: PlistFormat) {
      self = .plist(format == .gnustep ? .openStep : format)
    }
  }

  /// A type of `-insert` and `-replace`, as the help lists them: a flag of ``TypedValue``'s
  /// `plutil` spelling, or an empty container that takes no value.
  struct InsertType: Sendable {
    var flag: String
    var help: String
    var empty: PlistValue? = nil
  }

  static let insertTypes = [
    InsertType(
      flag: "-bool",
      help: #"YES if passed "YES" or "true", NO if passed "NO", "false" or "0" (any case)"#),
    InsertType(flag: "-integer", help: "any valid 64 bit integer"),
    InsertType(flag: "-float", help: "any valid 64 bit float"),
    InsertType(flag: "-string", help: "UTF8 encoded string"),
    InsertType(
      flag: "-date", help: "a date in XML property list format, not supported if outputting JSON"),
    InsertType(flag: "-data", help: "a base-64 encoded string"),
    InsertType(flag: "-xml", help: "an XML property list, useful for inserting compound values"),
    InsertType(flag: "-json", help: "a JSON fragment, useful for inserting compound values"),
    InsertType(
      flag: "-dictionary", help: "inserts an empty dictionary, does not use value",
      empty: .dictionary(PlistDictionary())),
    InsertType(
      flag: "-array", help: "inserts an empty array, does not use value", empty: .array([])),
  ]

  /// The types `-expect` takes, as the help lists them (`(any)`, a UID's, too).
  static let expectTypes = [
    "bool", "integer", "float", "string", "date", "data", "dictionary", "array",
  ]

  /// An option after a verb's operands (plutil's `PLUContextArguments`).
  struct Option: Sendable {
    var word: String
    /// Its value's name in the help (nil: a flag).
    var value: String? = nil
    var help: [String]
    /// `--`: every later word is a file.
    var endsOptions = false
    var set: @Sendable (inout Options, String) -> Void = { _, _ in }
  }

  static let options = [
    Option(word: "-s", help: ["be silent on success"]) { o, _ in o.silent = true },
    Option(
      word: "-o", value: "path",
      help: [
        "specify alternate file path name for result;",
        "the -o option is used with -convert, and is only",
        "useful with one file argument (last file overwrites);", "the path '-' means stdout",
      ]
    ) { $0.output = $1 },
    Option(
      word: "-e", value: "extension", help: ["specify alternate extension for converted files"]
    ) { $0.ext = $1 },
    Option(word: "-r", help: ["if writing JSON, output in human-readable form"]) { o, _ in
      o.readable = true
    },
    Option(
      word: "-n",
      help: [
        "prevent printing a terminating newline if it is not part of the format, such as with raw"
      ]
    ) { o, _ in o.newline = false },
    Option(
      word: "--", help: ["specifies that all further arguments are file names"], endsOptions: true),
  ]

  /// The options given after a verb's operands, and the files.
  struct Options {
    var paths: [String] = []
    var readable = false
    var newline = true
    var output: String?
    var ext: String?
    var silent = false
    /// The options given, as spelt.
    var given: [String] = []
  }

  /// What a command line asked for: the verb's operands, then its options and files.
  struct Invocation {
    var verb: String
    var keyPath = ""
    /// The format named (nil: `NoConversion`, the input's).
    var format: Format?
    /// `-insert`'s and `-replace`'s value.
    var value: PlistValue = .dictionary(PlistDictionary())
    var header = false
    var appending = false
    var expect: String?
    var options = Options()
  }

  // MARK: - The help, from the declaration

  /// `plutil -help`: the port's text, with what prefs does where it differs.
  static var help: String {
    var text = """
      plutil: [command_option] [other_options] file...
      The file '-' means stdin
      Command options are (-lint is the default):

      """
    for verb in verbs {
      text += entry(verb.name + (verb.arguments.isEmpty ? "" : " " + verb.arguments), verb.help)
    }
    text += "There are some additional optional arguments that apply to the -convert, -insert, "
    text += "-remove, -replace, and -extract verbs:\n"
    for option in options {
      text += entry(option.word + (option.value.map { " " + $0 } ?? ""), option.help)
    }
    return text
  }

  /// A synopsis and its lines of help, as the port aligns them.
  static func entry(_ synopsis: String, _ lines: [String]) -> String {
    var text = ""
    for (n, line) in lines.enumerated() {
      text += (n == 0 ? " " + synopsis.padded(to: 30) : String(repeating: " ", count: 31)) + line
      text += "\n"
    }
    return text
  }

  /// "fmt is one of: …" for the formats a verb's help names.
  static func formatsLine(_ formats: [Format]) -> String {
    "fmt is one of: " + formats.map(\.word).joined(separator: " ")
  }

  /// The options as completion knows them.
  static var completionOptions: [OptionSpec] {
    options.map {
      OptionSpec(
        name: $0.word, value: $0.value, completion: $0.value == "path" ? .files : .none,
        help: $0.help.joined(separator: " "))
    }
  }

  /// The verbs that take a format first, as options whose values are the format words.
  static var formatVerbs: [OptionSpec] {
    verbs.filter {
      if case .format = $0.operands.first { return true }
      return false
    }.map {
      OptionSpec(
        name: $0.name, value: "fmt", listChoices: { Format.words.map(\.word) },
        completion: .choices, help: $0.help.first ?? "")
    }
  }

  // MARK: - The scanner and the dispatch, from the declaration

  static func run(_ arguments: [String], console: Console) -> ExitCode {
    do throws(Failure) {
      guard let first = arguments.first else { throw Failure(plutil: "No files specified.") }
      // -lint is the default verb: a first word that names none is a file (or an option).
      guard let verb = verbs.first(where: { $0.name == first }) else {
        return .plutil(succeeded: try lint.run(try scan(arguments[...], for: lint), console))
      }
      return .plutil(succeeded: try verb.run(try scan(arguments.dropFirst(), for: verb), console))
    } catch {
      console.err(error.message + "\n")
      return error.code
    }
  }

  /// The words after a verb's name, scanned as it declares: its operands, then the options
  /// (each refused that it does not use) and files.
  static func scan(_ arguments: ArraySlice<String>, for verb: Verb) throws(Failure) -> Invocation {
    var words = arguments
    var invocation = Invocation(verb: verb.name, format: verb.format)
    for operand in verb.operands {
      switch operand {
      case .format(let missing):
        guard let word = words.popFirst() else { throw Failure(plutil: missing) }
        invocation.format = try Format.named(word)
      case .keyPath(let missing):
        guard let path = words.popFirst() else { throw Failure(plutil: missing) }
        invocation.keyPath = path
      case .typedValue(let missing):
        guard let flag = words.popFirst() else { throw Failure(plutil: missing) }
        guard let type = insertTypes.first(where: { $0.flag == flag }) else {
          throw Failure(plutil: "Unknown insert or replace type \(flag)")
        }
        if let empty = type.empty {
          invocation.value = empty
        } else {
          guard let text = words.popFirst() else {
            throw Failure(plutil: missing.dropLast() + "2.")
          }
          invocation.value = try typedValue(flag, text)
        }
      case .header:
        guard words.first == "-header" else { continue }
        guard invocation.format == .objc else {
          throw Failure(plutil: "-header is only valid for objc literal conversions.")
        }
        words.removeFirst()
        invocation.header = true
      case .append:
        guard words.first == "-append" else { continue }
        words.removeFirst()
        invocation.appending = true
      case .expect:
        guard words.first == "-expect" else { continue }
        words.removeFirst()
        guard let type = words.popFirst() else {
          throw Failure(plutil: "-expect requires a type argument.")
        }
        guard type == "(any)" || expectTypes.contains(type) else {
          throw Failure(plutil: "-expect type [\(type)] not valid.")
        }
        invocation.expect = type
      }
    }
    guard verb.takesOptions else { return invocation }
    invocation.options = try scanOptions(words)
    for option in verb.refuses where invocation.options.given.contains(option) {
      throw Failure(plutil: "\(option) is not used with \(verb.name).")
    }
    return invocation
  }

  /// The options (``options``) and the files after a verb's operands.
  static func scanOptions(_ arguments: ArraySlice<String>) throws(Failure) -> Options {
    var result = Options()
    var words = arguments
    while let word = words.popFirst() {
      guard let option = options.first(where: { $0.word == word }) else {
        if word.hasPrefix("-"), word.count > 1 {
          throw Failure(plutil: "unrecognized option: \(word)")
        }
        result.paths.append(word)
        continue
      }
      if option.endsOptions {
        // As the help says (the port reads on as before): every later word is a file.
        result.paths += words
        break
      }
      var value = ""
      if option.value != nil {
        guard let next = words.popFirst() else {
          throw Failure(plutil: "Missing argument for \(word).")
        }
        value = next
      }
      option.set(&result, value)
      result.given.append(word)
    }
    guard !result.paths.isEmpty else { throw Failure(plutil: "No files specified.") }
    return result
  }

  /// A `-TYPE VALUE` pair, through the one parser of typed values.
  static func typedValue(_ type: String, _ text: String) throws(Failure) -> PlistValue {
    guard let kind = TypedValue.kind(ofFlag: type, in: .plutil) else {
      throw Failure(plutil: "Unknown insert or replace type \(type)")
    }
    do {
      return try TypedValue.value(kind, text, flag: type, spelling: .plutil)
    } catch {
      switch (kind, error) {
      case (.data, _): throw Failure(plutil: "Invalid base64 data in argument")
      case (.propertyList, .invalidValue(_, _, let expected)):
        throw Failure(plutil: "Unable to parse xml property list: \(expected)")
      case (.json, .invalidValue(_, _, let expected)):
        throw Failure(plutil: "Unable to parse JSON: \(expected)")
      case (_, .invalidValue(let flag, let text, let expected)):
        throw Failure(plutil: "Invalid value for \(flag): \(text) (\(flag) takes \(expected))")
      default: throw Failure(plutil: CommandFailure(error).message)
      }
    }
  }
}
