import LegacyDefaults
import PreferencesMigration
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
      let path = try KeyPath(words[1])
      try modify(words[2], console: console) { (value) throws(Failure) in
        try path.remove(from: &value)
      }
      return .ok
    case "-extract":
      return try extract(Array(words.dropFirst()), console: console)
    case "-type":
      guard words.count == 3 else { throw Failure(message: usage) }
      let path = try KeyPath(words[1])
      let value = try path.value(in: try load(words[2]).value)
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

  static let formats: [String: PlistFormat] = ["xml1": .xml, "binary1": .binary]

  static func load(_ path: String) throws(Failure) -> PlistDocument {
    if path == "-" {
      do {
        return try PropertyList.read(
          FileAccess.readStandardInput(limit: Prefs.inputLimit))
      } catch {
        throw Failure(message: "<stdin>: \(error)")
      }
    }
    do {
      return try Prefs.load(path)
    } catch {
      // plutil's shape: "FILE: reason".
      let message =
        error.message.hasPrefix(path + ": ") ? error.message : "\(path): \(error.message)"
      throw Failure(message: message)
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
    do throws(CommandFailure) {
      try Target.write(
        data, to: path, value: value?.0 ?? .string(""), console: BareConsole(console)
      ) {
        value?.1
      }
    } catch {
      throw Failure(message: error.message)
    }
  }

  /// Reads, changes and writes FILE as one step: a dictionary file under its domain lock
  /// (the change sees the file as it is under the lock), anything else atomically.
  static func modify(
    _ file: String, console: Console, _ change: (inout PlistValue) throws(Failure) -> Void
  ) throws(Failure) {
    let document = try load(file)
    guard case .dictionary = document.value else {
      var value = document.value
      try change(&value)
      try write(value, as: document.format, to: file, console: console)
      return
    }
    var failure: Failure?
    do throws(CommandFailure) {
      try Target.update(.file(file), console: BareConsole(console)) { current in
        var value = PlistValue.dictionary(current.values)
        do throws(Failure) {
          try change(&value)
        } catch {
          failure = error
          return [:]
        }
        guard case .dictionary(let values) = value else { return [:] }
        return DomainChanges(replacing: current.values, with: values)
      }
    } catch {
      throw Failure(message: error.message)
    }
    if let failure { throw failure }
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
    let path = try KeyPath(rest[0])
    let value = try typedValue(rest[1], rest.count == 4 ? rest[2] : nil)
    let file = rest[rest.count - 1]
    let inserting = words[0] == "-insert"
    try modify(file, console: console) { (root) throws(Failure) in
      try path.set(value, in: &root, inserting: inserting, appending: append)
    }
    return .ok
  }

  static func typedValue(_ type: String, _ text: String?) throws(Failure) -> PlistValue {
    switch (type, text) {
    case ("-array", nil): return .array([])
    case ("-dictionary", nil): return .dictionary([:])
    case ("-string", let text?): return .string(text)
    case ("-bool", let text?):
      switch text.lowercased() {
      case "yes", "true", "1": return .bool(true)
      case "no", "false", "0": return .bool(false)
      default: throw Failure(message: "Invalid value for -bool: \(text)")
      }
    case ("-integer", let text?):
      if let i = Int64(text) { return .integer(i) }
      if let u = UInt64(text) { return .unsignedInteger(u) }
      throw Failure(message: "Invalid value for -integer: \(text)")
    case ("-float", let text?):
      guard let d = Double(text) else {
        throw Failure(message: "Invalid value for -float: \(text)")
      }
      return .real(d)
    case ("-date", let text?):
      guard let date = Write.parseDate(text) else {
        throw Failure(message: "Invalid value for -date: \(text)")
      }
      return .date(date)
    case ("-data", let text?):
      guard let data = Data(base64Encoded: text) else {
        throw Failure(message: "Invalid value for -data (base64): \(text)")
      }
      return .data(data)
    case ("-xml", let text?):
      do {
        return try PropertyList.read(Data(text.utf8)).value
      } catch {
        throw Failure(message: "Invalid value for -xml: \(error)")
      }
    case ("-json", let text?):
      switch Result(catching: { () throws(JSONValue.ParseError) in
        try JSONValue.parse(Data(text.utf8))
      }) {
      case .success(let json):
        guard let value = json.plistValue else {
          throw Failure(message: "Invalid value for -json: null has no property-list form")
        }
        return value
      case .failure(let error):
        throw Failure(message: "Invalid value for -json: \(error)")
      }
    default:
      throw Failure(message: "Unknown type: \(type)\n" + usage)
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
    let path = try KeyPath(rest[0])
    let value = try path.value(in: try load(rest[2]).value)
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

/// A plutil key path: keys and array indices separated by dots, `\.` a dot inside a key.
struct KeyPath {
  var components: [String]

  init(_ text: String) throws(PlutilPersonality.Failure) {
    var parts: [String] = []
    var current = ""
    var escaped = false
    for character in text {
      if escaped {
        current.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "." {
        parts.append(current)
        current = ""
      } else {
        current.append(character)
      }
    }
    parts.append(current)
    guard !text.isEmpty else { throw .init(message: "Key path must not be empty") }
    components = parts
  }

  var description: String { components.joined(separator: ".") }

  func value(in root: PlistValue) throws(PlutilPersonality.Failure) -> PlistValue {
    var value = root
    for component in components {
      switch value {
      case .dictionary(let d):
        guard let next = d[component] else { throw missing() }
        value = next
      case .array(let a):
        guard let index = Int(component), a.indices.contains(index) else { throw missing() }
        value = a[index]
      default:
        throw missing()
      }
    }
    return value
  }

  func missing() -> PlutilPersonality.Failure {
    .init(
      message:
        "Could not extract value, error: No value at that key path or invalid key path: \(description)"
    )
  }

  func set(_ new: PlistValue, in root: inout PlistValue, inserting: Bool, appending: Bool)
    throws(PlutilPersonality.Failure)
  {
    try Self.set(
      new, in: &root, path: components[...], inserting: inserting, appending: appending, whole: self
    )
  }

  private static func set(
    _ new: PlistValue, in value: inout PlistValue, path: ArraySlice<String>, inserting: Bool,
    appending: Bool, whole: KeyPath
  ) throws(PlutilPersonality.Failure) {
    guard let first = path.first else { return }
    let last = path.count == 1
    switch value {
    case .dictionary(var d):
      if last {
        if appending {
          guard case .array(var list)? = d[first] else {
            throw whole.failed("no array to append to")
          }
          list.append(new)
          d[first] = .array(list)
        } else {
          if inserting, d[first] != nil { throw whole.failed("Value already exists at key path") }
          d[first] = new
        }
      } else {
        guard var child = d[first] else { throw whole.failed("No value at that key path") }
        try set(
          new, in: &child, path: path.dropFirst(), inserting: inserting, appending: appending,
          whole: whole)
        d[first] = child
      }
      value = .dictionary(d)
    case .array(var a):
      guard let index = Int(first), index >= 0, index <= a.count else {
        throw whole.failed("invalid array index")
      }
      if last {
        if appending {
          guard index < a.count, case .array(var list) = a[index] else {
            throw whole.failed("no array to append to")
          }
          list.append(new)
          a[index] = .array(list)
        } else if inserting {
          a.insert(new, at: index)
        } else {
          guard index < a.count else { throw whole.failed("invalid array index") }
          a[index] = new
        }
      } else {
        guard index < a.count else { throw whole.failed("invalid array index") }
        try set(
          new, in: &a[index], path: path.dropFirst(), inserting: inserting, appending: appending,
          whole: whole)
      }
      value = .array(a)
    default:
      throw whole.failed("the value at that key path is not a container")
    }
  }

  func remove(from root: inout PlistValue) throws(PlutilPersonality.Failure) {
    try Self.remove(from: &root, path: components[...], whole: self)
  }

  private static func remove(from value: inout PlistValue, path: ArraySlice<String>, whole: KeyPath)
    throws(PlutilPersonality.Failure)
  {
    guard let first = path.first else { return }
    switch value {
    case .dictionary(var d):
      guard var child = d[first] else { throw whole.failed("No value to remove at key path") }
      if path.count == 1 {
        d[first] = nil
      } else {
        try remove(from: &child, path: path.dropFirst(), whole: whole)
        d[first] = child
      }
      value = .dictionary(d)
    case .array(var a):
      guard let index = Int(first), a.indices.contains(index) else {
        throw whole.failed("No value to remove at key path")
      }
      if path.count == 1 {
        a.remove(at: index)
      } else {
        try remove(from: &a[index], path: path.dropFirst(), whole: whole)
      }
      value = .array(a)
    default:
      throw whole.failed("No value to remove at key path")
    }
  }

  func failed(_ reason: String) -> PlutilPersonality.Failure {
    .init(message: "Could not modify plist, error: \(reason) \(description)")
  }
}
