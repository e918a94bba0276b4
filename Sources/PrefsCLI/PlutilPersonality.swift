import LegacyDefaults
import PreferencesMigration
import PrefsTools
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `plutil` as macOS spells it: `prefs plutil …`, or the binary invoked as `plutil`. Edits of
/// a dictionary file are one locked update of the domain, as every native write is.
///
/// ```
/// plutil -lint FILE...                 plutil -p FILE
/// plutil -convert FMT [-o OUT | -r] FILE...            (FMT: xml1 binary1 json)
/// plutil -insert KEYPATH -TYPE VALUE [-append] FILE    plutil -replace KEYPATH -TYPE VALUE FILE
/// plutil -remove KEYPATH FILE          plutil -extract KEYPATH FMT [-o OUT] FILE (FMT: raw too)
/// plutil -type KEYPATH FILE            plutil -create FMT FILE
/// ```
/// TYPE: -bool -integer -float -string -date -data (base64) -xml -json -array -dictionary.
/// A key path is keys and array indices separated by dots; `\.` is a dot inside a key.
/// Exit 0, or 1 with plutil's message shape (`FILE: reason`).
enum PlutilPersonality {
  static let usage = """
    plutil: [command_option] [other_options] file...
    The file '-' means stdin
    Command options are (-lint is the default):
     -help                         show this message and exit
     -lint                         check the property list files for syntax errors
     -convert fmt                  rewrite property list files in format
                                   fmt is one of: xml1 binary1 json
     -p                            print property list in a human-readable fashion
     -insert keypath -type value   insert a value into the property list before writing it out
     -replace keypath -type value  replace the value in the property list before writing it out
     -remove keypath               removes the value at 'keypath' from the property list
     -extract keypath fmt          outputs the value at 'keypath' in the property list as a new
                                   plist of type 'fmt'; fmt is one of: xml1 binary1 json raw
     -type keypath                 outputs the type of the value at 'keypath'
     -create fmt                   creates an empty plist of the specified format
    Other options are:
     -r                            if writing JSON, output in human-readable form
     -o path                       specify alternate file path name for result
     -append                       with -insert, append to the array at keypath
     -s                            be silent on success
    Types are: -bool -integer -float -string -date -data (base64) -xml -json -array -dictionary

    """

  struct Failure: Error {
    var message: String

    init(message: String) { self.message = message }

    /// plutil's words for a key path that cannot be followed or edited.
    init(_ error: KeyPathError) {
      switch error {
      case .empty: message = "Key path must not be empty"
      case .noValue(let path):
        message =
          "Could not extract value, error: No value at that key path or invalid key path: \(path)"
      case .cannotModify(let path, let reason):
        message = "Could not modify plist, error: \(reason) \(path)"
      }
    }
  }

  static func run(_ arguments: [String], console: Console) -> ExitCode {
    do throws(Failure) {
      return try dispatch(arguments, console: console)
    } catch {
      console.err(error.message + "\n")
      return .notFound  // plutil's failure status is 1
    }
  }

  static func dispatch(_ arguments: [String], console: Console) throws(Failure) -> ExitCode {
    var words = arguments
    var silent = false
    if let index = words.firstIndex(of: "-s") {
      silent = true
      words.remove(at: index)
    }
    guard let command = words.first else {
      console.err(usage)
      return .notFound
    }
    switch command {
    case "-help", "--help", "-h":
      console.out(usage)
      return .ok
    case "-lint":
      return try lint(Array(words.dropFirst()), silent: silent, console: console)
    case "-p":
      guard words.count == 2 else { throw Failure(message: usage) }
      console.line(pretty(try load(words[1]).value))
      return .ok
    case "-convert":
      return try convert(Array(words.dropFirst()), console: console)
    case "-insert", "-replace":
      return try edit(words, console: console)
    case "-remove":
      guard words.count == 3 else { throw Failure(message: usage) }
      let path = try keyPath(words[1])
      try modify(words[2], console: console) { (value) throws(KeyPathError) in
        try path.remove(from: &value)
      }
      return .ok
    case "-extract":
      return try extract(Array(words.dropFirst()), console: console)
    case "-type":
      guard words.count == 3 else { throw Failure(message: usage) }
      let path = try keyPath(words[1])
      let value = try follow(path, in: try load(words[2]).value)
      console.line(typeName(value))
      return .ok
    case "-create":
      guard words.count == 3, let format = formats[words[1]] else {
        throw Failure(message: usage)
      }
      try write(.dictionary([:]), as: format, to: words[2], console: console)
      return .ok
    default:
      // -lint is the default command.
      if !command.hasPrefix("-") { return try lint(words, silent: silent, console: console) }
      throw Failure(message: "unrecognized option: \(command)\n" + usage)
    }
  }

  /// `xml1`, `binary1`: the formats plutil writes, by its names.
  static let formats = Dictionary(
    uniqueKeysWithValues: PlistFormat.plutilNames.map { ($0.name, $0.format) })

  /// A file (`-`: standard input) as a document; a failure in plutil's shape, `FILE: reason`.
  static func load(_ path: String) throws(Failure) -> PlistDocument {
    do {
      return try Convert.load(path)
    } catch {
      let name = path == "-" ? "<stdin>" : path
      let message = error.message
      for prefix in [path + ": ", "standard input: "] where message.hasPrefix(prefix) {
        throw Failure(message: "\(name): " + message.dropFirst(prefix.count))
      }
      throw Failure(message: "\(name): \(message)")
    }
  }

  /// A key path, or plutil's message for an empty one.
  static func keyPath(_ text: String) throws(Failure) -> KeyPath {
    do {
      return try KeyPath(text)
    } catch {
      throw Failure(error)
    }
  }

  /// The value at `path` in `root`, or plutil's message.
  static func follow(_ path: KeyPath, in root: PlistValue) throws(Failure) -> PlistValue {
    do {
      return try path.value(in: root)
    } catch {
      throw Failure(error)
    }
  }

  static func lint(_ files: [String], silent: Bool, console: Console) throws(Failure) -> ExitCode {
    guard !files.isEmpty else { throw Failure(message: usage) }
    var status = ExitCode.ok
    for file in files {
      do throws(Failure) {
        _ = try load(file)
        if !silent { console.line("\(file): OK") }
      } catch {
        console.line(error.message)
        status = .notFound
      }
    }
    return status
  }

  /// `-convert FMT [-o OUT | -r] FILE...`: in place without -o.
  static func convert(_ words: [String], console: Console) throws(Failure) -> ExitCode {
    guard let name = words.first else { throw Failure(message: usage) }
    var rest = Array(words.dropFirst())
    var output: String?
    var readable = false
    while let first = rest.first, first == "-o" || first == "-r" || first == "-e" {
      rest.removeFirst()
      if first == "-r" {
        readable = true
      } else {
        guard !rest.isEmpty else { throw Failure(message: usage) }
        let value = rest.removeFirst()
        if first == "-o" { output = value }
      }
    }
    guard !rest.isEmpty, output == nil || rest.count == 1 else { throw Failure(message: usage) }
    for file in rest {
      let value = try load(file).value
      let data: Data
      switch name {
      case "json":
        do {
          let text = try PropertyList.json(value, lossless: true, compact: !readable)
          data = Data(text.utf8)
        } catch {
          throw Failure(message: "\(file): invalid object in plist for destination format")
        }
        try put(data, to: output ?? file, value: nil, console: console)
      default:
        guard let format = formats[name] else {
          throw Failure(message: "Unknown format specifier: \(name)\n" + usage)
        }
        try write(value, as: format, to: output ?? file, console: console)
      }
    }
    return .ok
  }

  /// Writes `value` in `format`: a dictionary through the domain's locked update when the
  /// target is a domain, else atomically.
  static func write(
    _ value: PlistValue, as format: PlistFormat, to path: String, console: Console
  ) throws(Failure) {
    let data: Data
    do {
      data = try PropertyList.write(value, as: format)
    } catch {
      throw Failure(message: "\(path): \(error)")
    }
    try put(data, to: path, value: (value, format), console: console)
  }

  static func put(
    _ data: Data, to path: String, value: (PlistValue, PlistFormat)?, console: Console
  ) throws(Failure) {
    if path == "-" {
      console.out(data)
      return
    }
    let resolver = Run.resolver()
    do throws(ToolError) {
      let recoveries = try OutputFile.write(
        data, to: path, value: value?.0 ?? .string(""), format: value?.1, resolver: resolver)
      BareConsole(console).report(recoveries)
    } catch {
      throw Failure(message: CommandFailure(error).message)
    }
  }

  /// Reads, changes and writes FILE as one step: a dictionary file under its domain lock
  /// (the change sees the file as it is under the lock), anything else atomically.
  static func modify(
    _ file: String, console: Console, _ change: (inout PlistValue) throws(KeyPathError) -> Void
  ) throws(Failure) {
    let document = try load(file)
    guard case .dictionary = document.value else {
      var value = document.value
      do throws(KeyPathError) {
        try change(&value)
      } catch {
        throw Failure(error)
      }
      try write(value, as: document.format, to: file, console: console)
      return
    }
    let resolver = Run.resolver()
    let editor = DomainEditor(resolver.file(file), resolver: resolver)
    do throws(ToolError) {
      let recoveries = try editor.update { (current) throws(ToolError) -> DomainChanges in
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
      if case .keyPath(let keyPathError) = error { throw Failure(keyPathError) }
      throw Failure(message: CommandFailure(error).message)
    }
  }

  /// `-insert/-replace KEYPATH -TYPE VALUE [-append] FILE`.
  static func edit(_ words: [String], console: Console) throws(Failure) -> ExitCode {
    var rest = Array(words.dropFirst())
    var append = false
    if let index = rest.firstIndex(of: "-append") {
      append = true
      rest.remove(at: index)
    }
    guard rest.count == 4 || (rest.count == 3 && ["-array", "-dictionary"].contains(rest[1]))
    else { throw Failure(message: usage) }
    let path = try keyPath(rest[0])
    let value = try typedValue(rest[1], rest.count == 4 ? rest[2] : nil)
    let file = rest[rest.count - 1]
    let inserting = words[0] == "-insert"
    try modify(file, console: console) { (root) throws(KeyPathError) in
      try path.set(value, in: &root, inserting: inserting, appending: append)
    }
    return .ok
  }

  /// A `-TYPE VALUE` pair as plutil takes it, through the one parser of typed values.
  static func typedValue(_ type: String, _ text: String?) throws(Failure) -> PlistValue {
    guard let kind = TypedValue.kind(ofFlag: type, in: .plutil) else {
      throw Failure(message: "Unknown type: \(type)\n" + usage)
    }
    switch (kind, text) {
    case (.array, nil): return .array([])
    case (.dictionary, nil): return .dictionary([:])
    case (.array, _?), (.dictionary, _?), (_, nil): throw Failure(message: usage)
    case (_, let text?):
      do {
        return try TypedValue.value(kind, text, flag: type, spelling: .plutil)
      } catch {
        guard case .invalidValue(let flag, let text, _) = error else {
          throw Failure(message: CommandFailure(error).message)
        }
        throw Failure(message: "Invalid value for \(flag): \(text)")
      }
    }
  }

  /// `-extract KEYPATH FMT [-o OUT] FILE`.
  static func extract(_ words: [String], console: Console) throws(Failure) -> ExitCode {
    var rest = words
    var output: String?
    if let index = rest.firstIndex(of: "-o"), index + 1 < rest.count {
      output = rest[index + 1]
      rest.removeSubrange(index...(index + 1))
    }
    guard rest.count == 3 else { throw Failure(message: usage) }
    let path = try keyPath(rest[0])
    let value = try follow(path, in: try load(rest[2]).value)
    switch rest[1] {
    case "raw":
      let text: String
      switch value {
      case .string(let s): text = s
      case .bool(let b): text = b ? "true" : "false"
      case .integer(let i): text = String(i)
      case .unsignedInteger(let u): text = String(u)
      case .real(let d): text = String(d)
      case .date(let d): text = PropertyList.iso8601(d)
      case .data(let d): text = d.base64EncodedString()
      case .array(let a): text = String(a.count)
      case .dictionary(let d): text = d.keys.sorted().joined(separator: "\n")
      case .uid(let u): text = String(u)
      }
      if let output {
        try put(Data((text + "\n").utf8), to: output, value: nil, console: console)
      } else {
        console.line(text)
      }
    case "json":
      do {
        let text = try PropertyList.json(value, lossless: true, compact: true)
        try put(Data(text.utf8), to: output ?? "-", value: nil, console: console)
      } catch {
        throw Failure(message: "\(rest[2]): invalid object in plist for destination format")
      }
    default:
      guard let format = formats[rest[1]] else {
        throw Failure(message: "Unknown format specifier: \(rest[1])\n" + usage)
      }
      try write(value, as: format, to: output ?? "-", console: console)
    }
    return .ok
  }

  /// The type as `plutil -type` names it: the value's type name, but `float` for a real.
  static func typeName(_ value: PlistValue) -> String {
    if case .real = value { return "float" }
    return value.typeName
  }

  /// `plutil -p`: `"key" => value`, arrays by index, two-space indentation.
  static func pretty(_ value: PlistValue, indent: Int = 0) -> String {
    let pad = String(repeating: "  ", count: indent + 1)
    let close = String(repeating: "  ", count: indent)
    switch value {
    case .string(let s): return PropertyList.jsonString(s)
    case .bool(let b): return b ? "true" : "false"
    case .integer(let i): return String(i)
    case .unsignedInteger(let u): return String(u)
    case .real(let d): return String(d)
    case .date(let d): return PropertyList.describe(d)
    case .data(let d):
      return "{length = \(d.count), bytes = 0x" + d.map { $0.hex(width: 2) }.joined()
        + "}"
    case .uid(let u): return "<CFKeyedArchiverUID>{value = \(u)}"
    case .array(let a):
      guard !a.isEmpty else { return "[\n\(close)]" }
      return "[\n"
        + a.enumerated().map { "\(pad)\($0.offset) => " + pretty($0.element, indent: indent + 1) }
        .joined(separator: "\n") + "\n\(close)]"
    case .dictionary(let d):
      guard !d.isEmpty else { return "{\n\(close)}" }
      return "{\n"
        + d.sortedByKey.map {
          "\(pad)\(PropertyList.jsonString($0.key)) => " + pretty($0.value, indent: indent + 1)
        }.joined(separator: "\n") + "\n\(close)}"
    }
  }
}
