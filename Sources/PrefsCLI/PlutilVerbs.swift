import PrefsTools
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The verbs of the `plutil` personality, each declared beside what it does.
extension PlutilPersonality {
  static let helpVerb = Verb(
    name: "-help", help: ["show this message and exit"], takesOptions: false
  ) { (_, console) throws(Failure) in
    console.out(help)
    return true
  }

  // MARK: - Checking and printing

  static let lint = Verb(
    name: "-lint", help: ["check the property list files for syntax errors"],
    refuses: ["-o", "-e"]
  ) { (invocation, console) throws(Failure) in
    var success = true
    let options = invocation.options
    for path in options.paths {
      do throws(Failure) {
        let data = try read(path)
        switch parse(data) {
        case .success: if !options.silent { console.out("\(shown(path)): OK\n") }
        case .failure(let reason): throw Failure(plutil: "(\(reason.message))")
        }
      } catch {
        success = false
        console.err("\(shown(path)): \(error.message)\n")
      }
    }
    return success
  }

  static let print = Verb(
    name: "-p",
    help: [
      "print property list in a human-readable fashion",
      "(not for machine parsing! this 'format' is not stable)",
    ], refuses: ["-o", "-e"]
  ) { (invocation, console) throws(Failure) in
    let options = invocation.options
    if options.silent { console.err("-s doesn't make a lot of sense with -p.\n") }
    return each(options.paths, console: console) { (path) throws(Failure) in
      let document = try load(path)
      console.out(pretty(document.value, json: document.format == .json, indent: 2))
    }
  }

  // MARK: - Converting

  static let convert = Verb(
    name: "-convert", arguments: "fmt",
    help: [
      "rewrite property list files in format",
      formatsLine([.plist(.xml), .plist(.binary), .json, .swift, .objc]),
      "note: objc can additionally create a header by adding -header",
    ], operands: [.format(missing: "Missing format specifier for command."), .header]
  ) { (invocation, console) throws(Failure) in
    each(invocation.options.paths, console: console) { (path) throws(Failure) in
      let data = try read(path)
      if invocation.format == .plist(.xml),
        try streamed(data, from: path, options: invocation.options, console: console)
      {
        return
      }
      let document = try document(data)
      try write(
        document.value, as: invocation.format ?? document.format, from: path,
        options: invocation.options, header: invocation.header, console: console)
    }
  }

  static let create = Verb(
    name: "-create", arguments: "fmt",
    help: ["creates an empty plist of the specified format", "file may be '-' for stdout"],
    operands: [.format(missing: "'Create' requires a plist format.")]
  ) { (invocation, console) throws(Failure) in
    // Historically, no conversion means XML here.
    let format = invocation.format ?? .plist(.xml)
    let options = invocation.options
    return each(options.paths, console: console) { (path) throws(Failure) in
      let empty = PlistValue.dictionary(PlistDictionary())
      let data: Data
      switch format {
      case .json: data = Data((options.readable ? "{\n\n}" : "{}").utf8)
      case .plist(let plist) where plist == .xml || plist == .binary:
        data = try encode(empty, as: plist)
      case .swift: data = Data("/// Generated from -\nlet - = [\n    ]".utf8)
      case .objc:
        data = Data(
          "/// Generated from -\n__attribute__((visibility(\"hidden\")))\nNSDictionary * const _ = @{\n};"
            .utf8)
      case .raw: data = Data("\n".utf8)
      case .type: data = Data("dictionary".utf8)
      case .plist: throw Failure(plutil: "Cannot create open step property lists")
      }
      if path == "-" {
        console.out(data)
        if options.newline, format == .raw || format == .type { console.out("\n") }
      } else {
        try put(data, to: path, value: empty, format: format.plistFormat, console: console)
      }
    }
  }

  // MARK: - Editing

  /// What `-insert` and `-replace` take and say when it is missing.
  static let insertion: [Operand] = [
    .keyPath(missing: insertionMissing), .typedValue(missing: insertionMissing), .append,
  ]
  static let insertionMissing = "'Insert' and 'Replace' require a key path, a type, and a value."

  static let insert = Verb(
    name: "-insert", arguments: "keypath -type value",
    help: [
      "insert a value into the property list before writing it out",
      "keypath is a key-value coding key path, with one extension:",
      "a numerical path component applied to an array will act on the object at that index in the array",
      "or insert it into the array if the numerical path component is the last one in the key path",
      insertTypesLine,
    ] + insertTypes.map { "\($0.flag): \($0.help)" } + [
      "a value that is not of its type is refused", "",
      "optionally, -append may be specified if the keypath references an array to append to the",
      "end of the array", "value YES, NO, a number, a date, or a base-64 encoded blob of data",
    ], operands: insertion
  ) { (invocation, console) throws(Failure) in
    try insert(invocation, replacing: false, console: console)
  }

  static let replace = Verb(
    name: "-replace", arguments: "keypath -type value",
    help: [
      "same as -insert, but it will overwrite an existing value (at an array index: the element)"
    ], operands: insertion
  ) { (invocation, console) throws(Failure) in
    try insert(invocation, replacing: true, console: console)
  }

  /// "type is one of: …": the types that take a value, by name; the port's line names `date`
  /// before `string`, unlike its list below it.
  static var insertTypesLine: String {
    var names = insertTypes.filter { $0.empty == nil }.map { String($0.flag.dropFirst()) }
    if let date = names.firstIndex(of: "date"), let string = names.firstIndex(of: "string") {
      names.swapAt(date, string)
    }
    return "type is one of: " + names.joined(separator: ", ")
  }

  static func insert(_ invocation: Invocation, replacing: Bool, console: Console)
    throws(Failure) -> Bool
  {
    let keyPath = KeyPath(invocation.keyPath)
    let appending = invocation.appending && !replacing
    return edit(invocation.options, console: console) { (root) throws(KeyPathError) in
      try keyPath.insert(invocation.value, in: &root, replacing: replacing, appending: appending)
    }
  }

  static let remove = Verb(
    name: "-remove", arguments: "keypath",
    help: ["removes the value at 'keypath' from the property list before writing it out"],
    operands: [.keyPath(missing: "'Remove' requires a key path.")]
  ) { (invocation, console) throws(Failure) in
    let keyPath = KeyPath(invocation.keyPath)
    return edit(invocation.options, console: console) { (root) throws(KeyPathError) in
      try keyPath.remove(from: &root)
    }
  }

  // MARK: - Extracting

  static let extractMissing = "'Extract' requires a key path and a plist format."
  static let expectLine = "can be one of: " + expectTypes.joined(separator: ", ")

  static let extract = Verb(
    name: "-extract", arguments: "keypath fmt",
    help: [
      "outputs the value at 'keypath' in the property list as a new plist of type 'fmt'",
      formatsLine([.plist(.xml), .plist(.binary), .json, .raw]),
      "an additional \"-expect type\" option can be provided to test that",
      "the value at the specified keypath is of the specified \"type\", which", expectLine, "",
      "when fmt is raw: ", "    the following is printed to stdout for each value type:",
      "        bool: the string \"true\" or \"false\"", "        integer: the numeric value",
      "        float: the numeric value", "        string: as UTF8-encoded string",
      "        date: as RFC3339-encoded string in UTC timezone",
      "        data: as base64-encoded string", "        dictionary: each key on a new line",
      "        array: the count of items in the array",
      "    by default, the output is to stdout unless -o is specified",
    ],
    operands: [.keyPath(missing: extractMissing), .format(missing: extractMissing), .expect],
    run: extracting)

  static let type = Verb(
    name: "-type", arguments: "keypath",
    help: ["outputs the type of the value at 'keypath' in the property list", expectLine],
    operands: [.keyPath(missing: extractMissing), .expect], format: .type, run: extracting)

  /// `-extract KEYPATH FMT [-expect TYPE]` and `-type KEYPATH [-expect TYPE]` (format nil:
  /// the input's, `NoConversion`).
  static func extracting(_ invocation: Invocation, console: Console) throws(Failure)
    -> Bool
  {
    let path = invocation.keyPath
    let keyPath = KeyPath(path)
    return each(invocation.options.paths, console: console) { (file) throws(Failure) in
      let document = try load(file)
      guard let value = keyPath.value(in: document.value) else {
        throw Failure(plutil: KeyPathError.noValue(text: path).description)
      }
      if let expect = invocation.expect {
        let actual = LiteralSource.typeName(value)
        if actual != expect {
          // Named as the port's Swift enumeration's cases are.
          func named(_ type: String) -> String {
            type == "bool" ? "boolean" : type == "(any)" ? "any" : type
          }
          throw Failure(
            plutil:
              "Value at [\(path)] expected to be \(named(expect)) but is \(named(actual))")
        }
      }
      try write(
        value, as: invocation.format ?? document.format, from: file, options: invocation.options,
        keyPath: path, console: console)
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
}
