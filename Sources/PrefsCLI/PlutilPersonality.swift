import LegacyDefaults
import PreferencesMigration
import PrefsTools
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `plutil` as Apple's own code spells it (the port of Darwin's plutil in
/// swift-corelibs-foundation, which the Swift toolchain installs): `prefs plutil …`, or the
/// binary invoked as `plutil`. The same command lines, the same standard output, standard
/// error, exit status (0, or 1) and files written, byte for byte (the differential test runs
/// every verb and option through both), except the deliberate differences Docs/compatibility.md lists.
/// Edits of a dictionary file are one locked update of the domain, as every native write is.
enum PlutilPersonality {
  /// `plutil -help`: the port's text, with what prefs does where it differs.
  static let help = """
    plutil: [command_option] [other_options] file...
    The file '-' means stdin
    Command options are (-lint is the default):
     -help                         show this message and exit
     -lint                         check the property list files for syntax errors
     -convert fmt                  rewrite property list files in format
                                   fmt is one of: xml1 binary1 json swift objc
                                   note: objc can additionally create a header by adding -header
     -insert keypath -type value   insert a value into the property list before writing it out
                                   keypath is a key-value coding key path, with one extension:
                                   a numerical path component applied to an array will act on the object at that index in the array
                                   or insert it into the array if the numerical path component is the last one in the key path
                                   type is one of: bool, integer, float, date, string, data, xml, json
                                   -bool: YES if passed "YES" or "true", NO if passed "NO", "false" or "0" (any case)
                                   -integer: any valid 64 bit integer
                                   -float: any valid 64 bit float
                                   -string: UTF8 encoded string
                                   -date: a date in XML property list format, not supported if outputting JSON
                                   -data: a base-64 encoded string
                                   -xml: an XML property list, useful for inserting compound values
                                   -json: a JSON fragment, useful for inserting compound values
                                   -dictionary: inserts an empty dictionary, does not use value
                                   -array: inserts an empty array, does not use value
                                   a value that is not of its type is refused
    \(blank)
                                   optionally, -append may be specified if the keypath references an array to append to the
                                   end of the array
                                   value YES, NO, a number, a date, or a base-64 encoded blob of data
     -replace keypath -type value  same as -insert, but it will overwrite an existing value (at an array index: the element)
     -remove keypath               removes the value at 'keypath' from the property list before writing it out
     -extract keypath fmt          outputs the value at 'keypath' in the property list as a new plist of type 'fmt'
                                   fmt is one of: xml1 binary1 json raw
                                   an additional "-expect type" option can be provided to test that
                                   the value at the specified keypath is of the specified "type", which
                                   can be one of: bool, integer, float, string, date, data, dictionary, array
    \(blank)
                                   when fmt is raw: 
                                       the following is printed to stdout for each value type:
                                           bool: the string "true" or "false"
                                           integer: the numeric value
                                           float: the numeric value
                                           string: as UTF8-encoded string
                                           date: as RFC3339-encoded string in UTC timezone
                                           data: as base64-encoded string
                                           dictionary: each key on a new line
                                           array: the count of items in the array
                                       by default, the output is to stdout unless -o is specified
     -type keypath                 outputs the type of the value at 'keypath' in the property list
                                   can be one of: bool, integer, float, string, date, data, dictionary, array
     -create fmt                   creates an empty plist of the specified format
                                   file may be '-' for stdout
     -p                            print property list in a human-readable fashion
                                   (not for machine parsing! this 'format' is not stable)
    There are some additional optional arguments that apply to the -convert, -insert, -remove, -replace, and -extract verbs:
     -s                            be silent on success
     -o path                       specify alternate file path name for result;
                                   the -o option is used with -convert, and is only
                                   useful with one file argument (last file overwrites);
                                   the path '-' means stdout
     -e extension                  specify alternate extension for converted files
     -r                            if writing JSON, output in human-readable form
     -n                            prevent printing a terminating newline if it is not part of the format, such as with raw
     --                            specifies that all further arguments are file names

    """

  /// The help's lines that hold only white space, as the port's do.
  static let blank = String(repeating: " ", count: 31)

  /// A failure: its message, printed on standard error (plutil's exit status 1).
  struct Failure: Error {
    var message: String

    init(_ message: String) { self.message = message }
  }

  static func run(_ arguments: [String], console: Console) -> ExitCode {
    do throws(Failure) {
      return try execute(arguments, console: console) ? .ok : .notFound
    } catch {
      console.err(error.message + "\n")
      return .notFound  // plutil's failure status is 1
    }
  }

  // MARK: - Command lines

  /// The formats `-convert`, `-extract` and `-create` name (`NoConversion`: nil, the input's).
  enum Format: Equatable {
    case openStep, xml, binary, json, swift, objc, raw, type

    init?(word: String) throws(Failure) {
      switch word {
      case "NoConversion": return nil
      case "openStep": self = .openStep
      case "xml1": self = .xml
      case "binary1": self = .binary
      case "json": self = .json
      case "swift": self = .swift
      case "objc": self = .objc
      case "raw": self = .raw
      case "type": self = .type
      default: throw Failure("Unknown format specifier: \(word)")
      }
    }

    init(_ format: PlistFormat) {
      switch format {
      case .xml: self = .xml
      case .binary: self = .binary
      case .openStep, .gnustep: self = .openStep
      }
    }
  }

  /// The options after a verb's own words, and the files (plutil's `PLUContextArguments`).
  struct Options {
    var paths: [String] = []
    var readable = false
    var newline = true
    var output: String?
    var ext: String?
    var silent = false

    init(_ words: some Sequence<String>) throws(Failure) {
      var words = words.makeIterator()
      while let word = words.next() {
        switch word {
        case "--":
          // As the help says (the port reads on as before): every later word is a file.
          while let file = words.next() { paths.append(file) }
        case "-n": newline = false
        case "-s": silent = true
        case "-r": readable = true
        case "-o":
          guard let next = words.next() else { throw Failure("Missing argument for -o.") }
          output = next
        case "-e":
          guard let next = words.next() else { throw Failure("Missing argument for -e.") }
          ext = next
        default:
          if word.hasPrefix("-"), word.count > 1 { throw Failure("unrecognized option: \(word)") }
          paths.append(word)
        }
      }
      guard !paths.isEmpty else { throw Failure("No files specified.") }
    }
  }

  static func execute(_ arguments: [String], console: Console) throws(Failure) -> Bool {
    var words = arguments[...]
    guard let command = words.popFirst() else { throw Failure("No files specified.") }
    switch command {
    case "-help":
      console.out(help)
      return true
    case "-lint":
      return try lint(Options(words), console: console)
    case "-convert":
      guard let word = words.popFirst() else {
        throw Failure("Missing format specifier for command.")
      }
      let format = try Format(word: word)
      var header = false
      if words.first == "-header" {
        guard format == .objc else {
          throw Failure("-header is only valid for objc literal conversions.")
        }
        words.removeFirst()
        header = true
      }
      return try convert(Options(words), to: format, header: header, console: console)
    case "-p":
      return try print(Options(words), console: console)
    case "-insert", "-replace":
      return try insert(words, replacing: command == "-replace", console: console)
    case "-remove":
      guard let path = words.popFirst() else { throw Failure("'Remove' requires a key path.") }
      return try remove(KeyPath(path), Options(words), console: console)
    case "-extract", "-type":
      guard let path = words.popFirst() else {
        throw Failure("'Extract' requires a key path and a plist format.")
      }
      var format: Format? = .type
      if command == "-extract" {
        guard let word = words.popFirst() else {
          throw Failure("'Extract' requires a key path and a plist format.")
        }
        format = try Format(word: word)
      }
      var expect: String?
      if words.first == "-expect" {
        words.removeFirst()
        guard let type = words.popFirst() else {
          throw Failure("-expect requires a type argument.")
        }
        guard expectTypes.contains(type) else { throw Failure("-expect type [\(type)] not valid.") }
        expect = type
      }
      return try extract(path, as: format, expect: expect, Options(words), console: console)
    case "-create":
      guard let word = words.popFirst() else { throw Failure("'Create' requires a plist format.") }
      // Historically, no conversion means XML here.
      return try create(Format(word: word) ?? .xml, Options(words), console: console)
    default:
      // -lint is the default command.
      return try lint(Options(arguments), console: console)
    }
  }

  static let expectTypes: Set<String> = [
    "(any)", "bool", "integer", "float", "string", "array", "dictionary", "date", "data",
  ]

  // MARK: - Verbs

  static func lint(_ options: Options, console: Console) throws(Failure) -> Bool {
    if options.output != nil { throw Failure("-o is not used with -lint.") }
    if options.ext != nil { throw Failure("-e is not used with -lint.") }
    var success = true
    for path in options.paths {
      do throws(Failure) {
        let data = try read(path)
        switch parse(data) {
        case .success: if !options.silent { console.out("\(shown(path)): OK\n") }
        case .failure(let reason): throw Failure("(\(reason.message))")
        }
      } catch {
        success = false
        console.err("\(shown(path)): \(error.message)\n")
      }
    }
    return success
  }

  static func print(_ options: Options, console: Console) throws(Failure) -> Bool {
    if options.output != nil { throw Failure("-o is not used with -p.") }
    if options.ext != nil { throw Failure("-e is not used with -p.") }
    if options.silent { console.err("-s doesn't make a lot of sense with -p.\n") }
    return each(options.paths, console: console) { (path) throws(Failure) in
      let document = try load(path)
      console.out(pretty(document.value, json: document.format == .json, indent: 2))
    }
  }

  static func convert(
    _ options: Options, to format: Format?, header: Bool, console: Console
  ) throws(Failure) -> Bool {
    each(options.paths, console: console) { (path) throws(Failure) in
      let data = try read(path)
      if format == .xml, try streamed(data, from: path, options: options, console: console) {
        return
      }
      let document = try document(data)
      try write(
        document.value, as: format ?? document.format, from: path, options: options,
        header: header, console: console)
    }
  }

  /// `-convert xml1` of a binary file straight from its object table, no value built, when
  /// the stream can write exactly what ``write(_:as:from:options:keyPath:header:console:)``
  /// writes (not a UID, not into a domain, which its store writes): whether it did. Anything
  /// else, an error or a warning included, is the full path's.
  static func streamed(_ data: Data, from path: String, options: Options, console: Console)
    throws(Failure) -> Bool
  {
    guard
      let output = PropertyList.streamed(data, as: .xml(.coreFoundation), undecidedUIDs: true)
    else { return false }
    if options.output == "-" {
      console.out(output)
      return true
    }
    let target = targetPath(path, format: .xml, options: options)
    let resolver = Run.resolver()
    guard !resolver.isInPreferencesFolder(target) else { return false }
    do {
      try OutputFile.write(output, to: target, resolver: resolver)
    } catch {
      throw Failure(writeFailure(error, path: target))
    }
    return true
  }

  static func insert(_ arguments: ArraySlice<String>, replacing: Bool, console: Console)
    throws(Failure) -> Bool
  {
    var words = arguments
    let missing = "'Insert' and 'Replace' require a key path, a type, and a value."
    guard let path = words.popFirst(), let type = words.popFirst() else { throw Failure(missing) }
    let value: PlistValue
    switch type {
    case "-dictionary": value = .dictionary(PlistDictionary())
    case "-array": value = .array([])
    default:
      guard TypedValue.kind(ofFlag: type, in: .plutil) != nil else {
        throw Failure("Unknown insert or replace type \(type)")
      }
      guard let text = words.popFirst() else { throw Failure(missing.dropLast() + "2.") }
      value = try typedValue(type, text)
    }
    var appending = false
    if words.first == "-append" {
      words.removeFirst()
      appending = !replacing
    }
    let keyPath = KeyPath(path)
    return edit(try Options(words), console: console) { (root) throws(KeyPathError) in
      try keyPath.insert(value, in: &root, replacing: replacing, appending: appending)
    }
  }

  static func remove(_ keyPath: KeyPath, _ options: Options, console: Console) throws(Failure)
    -> Bool
  {
    edit(options, console: console) { (root) throws(KeyPathError) in
      try keyPath.remove(from: &root)
    }
  }

  /// `-extract KEYPATH FMT [-expect TYPE]` and `-type KEYPATH [-expect TYPE]` (`format` nil:
  /// the input's, `NoConversion`).
  static func extract(
    _ path: String, as format: Format?, expect: String?, _ options: Options, console: Console
  ) throws(Failure) -> Bool {
    let keyPath = KeyPath(path)
    return each(options.paths, console: console) { (file) throws(Failure) in
      let document = try load(file)
      guard let value = keyPath.value(in: document.value) else {
        throw Failure(KeyPathError.noValue(text: path).description)
      }
      if let expect {
        let actual = LiteralSource.typeName(value)
        if actual != expect {
          // Named as the port's Swift enumeration's cases are.
          func named(_ type: String) -> String {
            type == "bool" ? "boolean" : type == "(any)" ? "any" : type
          }
          throw Failure(
            "Value at [\(path)] expected to be \(named(expect)) but is \(named(actual))")
        }
      }
      try write(
        value, as: format ?? document.format, from: file, options: options, keyPath: path,
        console: console)
    }
  }

  static func create(_ format: Format, _ options: Options, console: Console) throws(Failure)
    -> Bool
  {
    each(options.paths, console: console) { (path) throws(Failure) in
      let empty = PlistValue.dictionary(PlistDictionary())
      let data: Data
      switch format {
      case .json: data = Data((options.readable ? "{\n\n}" : "{}").utf8)
      case .xml, .binary: data = try encode(empty, as: format == .xml ? .xml : .binary)
      case .swift: data = Data("/// Generated from -\nlet - = [\n    ]".utf8)
      case .objc:
        data = Data(
          "/// Generated from -\n__attribute__((visibility(\"hidden\")))\nNSDictionary * const _ = @{\n};"
            .utf8)
      case .raw: data = Data("\n".utf8)
      case .type: data = Data("dictionary".utf8)
      case .openStep: throw Failure("Cannot create open step property lists")
      }
      if path == "-" {
        console.out(data)
        if options.newline, format == .raw || format == .type { console.out("\n") }
      } else {
        let plist: PlistFormat? = format == .xml ? .xml : format == .binary ? .binary : nil
        try put(data, to: path, value: empty, format: plist, console: console)
      }
    }
  }

  // MARK: - Each file

  /// Runs `body` for each file; a failure is printed as `FILE: reason` and the next file
  /// goes on. Whether every file succeeded.
  static func each(
    _ paths: [String], console: Console, _ body: (String) throws(Failure) -> Void
  ) -> Bool {
    var success = true
    for path in paths {
      do throws(Failure) {
        try body(path)
      } catch {
        success = false
        console.err("\(shown(path)): \(error.message)\n")
      }
    }
    return success
  }

  /// How plutil names a file in a message (`<stdin>` for `-`).
  static func shown(_ path: String) -> String { path == "-" ? "<stdin>" : path }

  // MARK: - Reading

  /// A document as plutil reads one: a property list, else JSON.
  struct Document {
    var value: PlistValue
    var format: Format
  }

  /// The bytes of a file (`-`: standard input), or the failure in Foundation's words.
  static func read(_ path: String) throws(Failure) -> Data {
    guard !path.isEmpty else { throw Failure("Empty path specified") }
    do throws(ToolError) {
      // The one input path: a file is read in its held folder (as its owner, for root).
      return try InputFile.bytes(path)
    } catch {
      if case .read(.file(let failure)) = error {
        throw Failure("(\(foundationWords(failure)))")
      }
      throw Failure("(\(CommandFailure(error).message))")
    }
  }

  /// A failure to read or write a file as Foundation describes it.
  static func foundationWords(_ failure: FileAccess.Failure) -> String {
    let start = "The operation could not be completed. "
    switch failure {
    case .missing: return start + "The file doesn’t exist."
    case .denied: return start + "You don’t have permission."
    case .isFolder: return start + "(NSCocoaErrorDomain error 256.)"
    default: return start + failure.reason
    }
  }

  /// A property list as CoreFoundation reads one (its OpenStep grammar; a file it would
  /// abandon, such as a dictionary entry without its `;`, refused), or why not (CoreFoundation's
  /// words for no bytes at all).
  static func parse(_ data: Data) -> Result<PlistDocument, Failure> {
    guard !data.isEmpty else { return .failure(Failure("Cannot parse a NULL or zero-length data")) }
    do {
      let document = try PropertyList.read(data, options: .coreFoundation)
      for warning in document.warnings {
        switch warning {
        case .missingSemicolon, .unquotedBeyondCoreFoundation:
          return .failure(Failure("\(warning)"))
        default: continue
        }
      }
      return .success(document)
    } catch {
      return .failure(Failure("\(error)"))
    }
  }

  static func load(_ path: String) throws(Failure) -> Document {
    try document(try read(path))
  }

  /// The bytes of a file as plutil reads them: a property list, else JSON.
  static func document(_ data: Data) throws(Failure) -> Document {
    let plistError: String
    switch parse(data) {
    case .success(let document):
      return Document(value: document.value, format: Format(document.format))
    case .failure(let reason):
      plistError = reason.message
    }
    do {
      return Document(value: try FoundationJSON.read(data), format: .json)
    } catch {
      let json = data.isEmpty ? "The given data was not valid JSON." : error.description
      throw Failure("Property List error: \(plistError) / JSON error: \(json)")
    }
  }

  // MARK: - Writing

  /// Writes `value` as `format` where plutil writes it: standard output for `-o -` (and for
  /// `raw` and `type` without `-o`), else the file (`FILE` itself unless `-o`, `-e`, or a
  /// source format names another). `keyPath`: the path extracted, for messages.
  static func write(
    _ value: PlistValue, as format: Format, from path: String, options: Options,
    keyPath: String? = nil, header: Bool = false, console: Console
  ) throws(Failure) {
    guard !holdsUID(value) else {
      throw Failure("Dictionaries are required to have string keys in property lists")
    }
    let target = targetPath(path, format: format, options: options)
    let data: Data
    var plistFormat: PlistFormat?
    switch format {
    case .xml, .binary:
      plistFormat = format == .xml ? .xml : .binary
      data = try encode(value, as: format == .xml ? .xml : .binary)
    case .swift:
      data = Data(LiteralSource.swift(value, source: path).utf8)
    case .objc:
      guard LiteralSource.objcCanHold(value) else {
        throw Failure(
          "Input contains an object that cannot be represented in Obj-C literal syntax")
      }
      data = Data(LiteralSource.objc(value, source: path, output: target).utf8)
    case .json:
      guard FoundationJSON.canHold(value) else {
        throw Failure("Invalid object in plist for JSON format")
      }
      data = Data(FoundationJSON.write(value, pretty: options.readable).utf8)
    case .raw:
      data = Data(raw(value).utf8)
    case .type:
      data = Data(LiteralSource.typeName(value).utf8)
    case .openStep:
      throw Failure("Conversion to OpenStep format is not supported")
    }
    if options.output == "-" || (options.output == nil && (format == .raw || format == .type)) {
      console.out(data)
      if options.newline, format == .raw || format == .type { console.out("\n") }
      return
    }
    try put(data, to: target, value: value, format: plistFormat, console: console)
    if format == .objc, header {
      let headerPath = LiteralSource.replacingExtension(of: target, with: "h")
      let text = LiteralSource.objcHeader(value, source: path, output: target)
      try put(Data(text.utf8), to: headerPath, value: value, format: nil, console: console)
    }
  }

  /// Where a result for `path` is written: `-o`, else `path` with `-e`'s extension, then a
  /// source format's (`.m`, `.swift`).
  static func targetPath(_ path: String, format: Format, options: Options) -> String {
    if let output = options.output { return output }
    var result = path
    if let ext = options.ext { result = LiteralSource.replacingExtension(of: result, with: ext) }
    switch format {
    case .objc: result = LiteralSource.replacingExtension(of: result, with: "m")
    case .swift: result = LiteralSource.replacingExtension(of: result, with: "swift")
    default: break
    }
    return result
  }

  /// A property list in XML or binary, as plutil writes it: XML as CoreFoundation writes it
  /// (dates to the whole second, control characters and a `CF$UID` dictionary as they are).
  static func encode(_ value: PlistValue, as format: PlistFormat) throws(Failure) -> Data {
    do {
      return try PropertyList.write(value, as: format, xml: .coreFoundation)
    } catch {
      throw Failure("Invalid object in plist for property list format (\(error))")
    }
  }

  /// Whether a value holds a UID (or JSON's null): plutil writes neither.
  static func holdsUID(_ value: PlistValue) -> Bool {
    switch value {
    case .uid: true
    case .array(let a): a.contains(where: holdsUID)
    case .dictionary(let d): d.values.contains(where: holdsUID)
    default: false
    }
  }

  /// Writes `data` to `path`: a dictionary in a property-list format, where a store keeps a
  /// domain, through the domain's one way in; anything else atomically, leaving no lock file.
  static func put(
    _ data: Data, to path: String, value: PlistValue, format: PlistFormat?, console: Console
  ) throws(Failure) {
    let resolver = Run.resolver()
    do {
      let recoveries = try OutputFile.write(
        data, to: path, value: value, format: format, resolver: resolver)
      BareConsole(console).report(recoveries)
    } catch {
      throw Failure(writeFailure(error, path: path))
    }
  }

  /// A failure to write as Foundation words it: the folder missing, a folder in the way.
  static func writeFailure(_ error: ToolError, path: String) -> String {
    let start = "(The operation could not be completed. "
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    if !FileManager.default.fileExists(atPath: folder) { return start + "The file doesn’t exist.)" }
    if FileAccess.isFolder(path) { return start + "(NSCocoaErrorDomain error 512.))" }
    if case .output(.denied) = error { return start + "You don’t have permission.)" }
    return "(\(CommandFailure(error).message))"
  }

  /// An edit (`-insert`, `-replace`, `-remove`) of each file, written in the file's format: in
  /// place, a dictionary in XML or binary goes through the domain's one way in (the change
  /// applied to the file as it is under the lock); anything else is read, changed and written.
  static func edit(
    _ options: Options, console: Console,
    _ change: (inout PlistValue) throws(KeyPathError) -> Void
  ) -> Bool {
    each(options.paths, console: console) { (path) throws(Failure) in
      let document = try load(path)
      let inPlace = options.output == nil && options.ext == nil && path != "-"
      if inPlace, document.format == .xml || document.format == .binary,
        case .dictionary = document.value, !holdsUID(document.value)
      {
        try update(path, console: console, change)
        return
      }
      var value = document.value
      do throws(KeyPathError) {
        try change(&value)
      } catch {
        throw Failure(error.description)
      }
      try write(value, as: document.format, from: path, options: options, console: console)
    }
  }

  /// One locked update of the domain file at `path`.
  static func update(
    _ path: String, console: Console,
    _ change: (inout PlistValue) throws(KeyPathError) -> Void
  ) throws(Failure) {
    let resolver = Run.resolver()
    let editor = DomainEditor(resolver.file(path), resolver: resolver)
    do throws(ToolError) {
      let recoveries = try editor.update(truncatingDates: true) {
        (current) throws(ToolError) -> DomainChanges in
        var value = PlistValue.dictionary(current.values)
        do throws(KeyPathError) {
          try change(&value)
        } catch {
          throw .keyPath(error)
        }
        guard case .dictionary(let values) = value else { return [:] }
        return DomainChanges(replacing: current.values, with: values)
      }
      BareConsole(console).report(recoveries)
    } catch {
      if case .keyPath(let keyPathError) = error { throw Failure(keyPathError.description) }
      throw Failure(CommandFailure(error).message)
    }
  }

  /// A `-TYPE VALUE` pair, through the one parser of typed values.
  static func typedValue(_ type: String, _ text: String) throws(Failure) -> PlistValue {
    guard let kind = TypedValue.kind(ofFlag: type, in: .plutil) else {
      throw Failure("Unknown insert or replace type \(type)")
    }
    do {
      return try TypedValue.value(kind, text, flag: type, spelling: .plutil)
    } catch {
      switch (kind, error) {
      case (.data, _): throw Failure("Invalid base64 data in argument")
      case (.propertyList, .invalidValue(_, _, let expected)):
        throw Failure("Unable to parse xml property list: \(expected)")
      case (.json, .invalidValue(_, _, let expected)):
        throw Failure("Unable to parse JSON: \(expected)")
      case (_, .invalidValue(let flag, let text, let expected)):
        throw Failure("Invalid value for \(flag): \(text) (\(flag) takes \(expected))")
      default: throw Failure(CommandFailure(error).message)
      }
    }
  }

  // MARK: - Output conventions

  /// `-extract … raw`: a string as it is, a number as C prints it (`%lld`, `%f`), `true` or
  /// `false`, a date in ISO 8601 to the second, data in base64, an array's count, a
  /// dictionary's keys a line each.
  static func raw(_ value: PlistValue) -> String {
    switch value {
    case .string(let s): s
    case .bool(let b): b ? "true" : "false"
    case .integer(let i): String(i)
    case .unsignedInteger(let u): String(u)
    case .real(let d): LiteralSource.fixed(d)
    case .date(let d): PlutilDate.iso8601(d)
    case .data(let d): d.base64EncodedString()
    case .array(let a): String(a.count)
    case .dictionary(let d): KeyOrder.sorted(d.keys).joined(separator: "\n")
    case .uid(let u): String(u)
    }
  }

  /// `plutil -p`: `"key" => value` a line, keys in plutil's order (``KeyOrder``), strings
  /// quoted as they are, arrays by index, a date as Foundation describes it, data as its
  /// length and bytes (beyond 24 bytes, the first 16 and the last 8), JSON's null as
  /// `<null>`.
  static func pretty(_ value: PlistValue, json: Bool, indent: Int) -> String {
    let pad = String(repeating: " ", count: indent)
    let close = String(repeating: " ", count: indent - 2)
    switch value {
    case .dictionary(let d):
      var out = "{\n"
      for key in KeyOrder.sorted(d.keys) {
        guard let member = d[key] else { continue }
        out += pad + "\"\(key)\" => " + pretty(member, json: json, indent: indent + 2)
      }
      return out + close + "}\n"
    case .array(let a):
      var out = "[\n"
      for (n, element) in a.enumerated() {
        out += pad + "\(n) => " + pretty(element, json: json, indent: indent + 2)
      }
      return out + close + "]\n"
    case .string(let s): return "\"\(s)\"\n"
    case .data(let d):
      let bytes = [UInt8](d)
      let shown =
        bytes.count > 24
        ? bytes[..<16].map { $0.hex(width: 2) }.joined() + "... "
          + bytes[(bytes.count - 8)...].map { $0.hex(width: 2) }.joined()
        : bytes.map { $0.hex(width: 2) }.joined()
      return "{length = \(bytes.count), bytes = 0x\(shown)}\n"
    case .date(let d): return PlutilDate.description(d) + "\n"
    case .bool(let b): return b ? "true\n" : "false\n"
    case .integer(let i): return "\(i)\n"
    case .unsignedInteger(let u): return "\(u)\n"
    case .real(let r): return "\(r)\n"
    case .uid(let u):
      return json && value == FoundationJSON.null
        ? "<null>\n" : "<CFKeyedArchiverUID>{value = \(u)}\n"
    }
  }
}

/// Dates as plutil prints them.
enum PlutilDate {
  /// `Date.description`: `2014-04-24 02:40:00 +0000`, to the second (toward 1970).
  static func description(_ date: Date) -> String {
    let since1970 = date.timeIntervalSince1970
    guard since1970 >= -62_135_769_600, since1970 <= 64_092_211_200 else {
      return "<description unavailable>"
    }
    let (day, time) = civil(Int64(since1970.rounded(.towardZero)))
    return "\(day) \(time) +0000"
  }

  /// ISO 8601 in UTC, to the second: `2014-04-24T02:40:00Z`.
  static func iso8601(_ date: Date) -> String {
    let (day, time) = civil(Int64(date.timeIntervalSince1970.rounded(.down)))
    return "\(day)T\(time)Z"
  }

  /// The day (`yyyy-MM-dd`) and time (`HH:mm:ss`) of a second since 1970, in UTC.
  static func civil(_ seconds: Int64) -> (String, String) {
    var days = seconds / 86_400
    var rest = seconds % 86_400
    if rest < 0 {
      rest += 86_400
      days -= 1
    }
    let (year, month, day) = CivilTime.civilFromDays(Int(days))
    return (
      "\(year.zeroPadded(width: 4))-\(month.zeroPadded(width: 2))-\(day.zeroPadded(width: 2))",
      "\((rest / 3600).zeroPadded(width: 2)):\((rest / 60 % 60).zeroPadded(width: 2)):"
        + (rest % 60).zeroPadded(width: 2)
    )
  }
}
