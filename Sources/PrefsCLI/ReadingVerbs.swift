import PrefsTools
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `prefs read FILE [KEY] [--as TYPE] [--dialect D] [--json]`
enum Read {
  static let spec = CommandSpec(
    name: "read", summary: "print a property list, one key, or what a getter read",
    synopsis: [
      "FILE|DOMAIN [KEY] [--as TYPE] [--dialect DIALECT] [--json | --typed]",
      "FILE|DOMAIN --key-path KEYPATH [--json | --typed]",
    ],
    discussion: """
      Prints the whole property list, or the value of KEY, in the style of `defaults read`
      (strings bare; `prefs defaults read` prints exactly as macOS does); with --json as one JSON value (data as base64, dates as ISO 8601, nil as null).
      --typed prints typed JSON, which loses nothing and reads back with write -json: a real
      always with a fraction or exponent (3.0), {"$date": "2011-03-14T15:09:26Z"},
      {"$data": "BASE64"}, {"$real": "nan"}, {"$uid": 7}, and {"$dict": {…}} around a
      dictionary whose only key is one of those tags.
      --key-path reads the value at a key path into nested values: keys and array indices
      separated by dots, \\. a dot inside a key (as plutil's: window.frame.0).
      --as TYPE prints what the dialect's getter returned for each value (a string that would
      read as another bare is quoted). Reading never changes the file. Exit 1 when the domain
      or KEY does not exist.
      """,
    options: [
      Options.getter.spec, Options.dialect.spec, Options.json.spec, Options.typed.spec,
      Options.keyPath.spec,
    ],
    operands: [.domain, .key],
    run: { (i, c) throws(CommandFailure) in try Read.run(i.arguments, console: c) })

  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    guard (1...2).contains(args.positional.count) else {
      throw CommandFailure(.usage, "read takes a file and at most one key")
    }
    let getter = try args[Options.getter]
    let dialect = try args[Options.dialect] ?? .apple
    let typed = args.has(Options.typed)
    let json = args.has(Options.json) || typed
    let editor = try Run.editor(args.positional[0])
    let path = editor.domain.name

    if args.positional.count == 2 {
      guard let getter else {
        let keyPath = ChangeFlags(args).path(args.positional[1])
        let (found, warnings) = try attempt { () throws(ToolError) in
          try editor.value(at: keyPath)
        }
        console.warn(warnings, path: path)
        try print(found, json: json, typed: typed, path: path, console: console)
        return .ok
      }
      // Through the getter, on the value as the dialect's store reads it from this file.
      let (found, warnings) = try attempt { () throws(ToolError) in
        try editor.value(forKey: args.positional[1], as: dialect)
      }
      console.warn(warnings, path: path)
      let value = dialect.read(found, as: getter).value
      if json {
        try print(value, json: true, typed: typed, path: path, console: console)
      } else {
        console.line(getterResult(value))
      }
      return .ok
    }
    let document = try attempt { () throws(ToolError) in try editor.document() }
    console.warn(document.warnings, path: path)
    guard let getter else {
      try print(document.value, json: json, typed: typed, path: path, console: console)
      return .ok
    }
    let dictionary = DomainEditor.adopted(
      try domain(document, path: path), readFrom: document.format, by: dialect)
    // Every key through the getter: one JSON object (null where the getter returned nil), or
    // `key = value` lines.
    if json {
      // Members by their keys' bytes: keys that differ only in normalization are two.
      var members: [(String, JSONValue)] = []
      for (key, value) in dictionary {
        guard let result = dialect.read(value, as: getter).value else {
          members.append((key, .null))
          continue
        }
        if typed {
          members.append((key, TypedJSON.json(result)))
          continue
        }
        do {
          members.append((key, try JSONValue(displaying: result)))
        } catch {
          throw CommandFailure(.dataError, "\(path): \(key): \(error)")
        }
      }
      console.line(JSONValue.objectText(members))
    } else {
      for (key, value) in dictionary.sortedByKey {
        console.line("\(key) = \(getterResult(dialect.read(value, as: getter).value))")
      }
    }
    return .ok
  }

  /// A document's dictionary, or the domain error (65) for anything else.
  static func domain(_ document: PlistDocument, path: String) throws(CommandFailure)
    -> PlistDictionary
  {
    do {
      return try InputFile.domainValues(of: document, path: path)
    } catch {
      throw CommandFailure(error)
    }
  }

  static func human(_ value: PlistValue) -> String {
    switch value {
    case .string(let s): s
    case .bool(let b): b ? "true" : "false"
    default: PropertyList.describe(value)
    }
  }

  /// What a getter returned, for a person: as ``human(_:)``, but a string that would read as
  /// something else bare (empty, white space at either end, the word nil, a line break) is
  /// quoted, so `" 12"` and `12` never print alike.
  static func getterResult(_ value: PlistValue?) -> String {
    guard let value else { return "nil" }
    if case .string(let s) = value,
      s.isEmpty || s == "nil" || s.first?.isWhitespace == true || s.last?.isWhitespace == true
        || s.contains(where: \.isNewline)
    {
      return PropertyList.jsonString(s)
    }
    return human(value)
  }

  /// JSON for display (data as base64, dates as ISO 8601), or 65 for what JSON cannot hold.
  static func encode(_ value: PlistValue, path: String) throws(CommandFailure) -> String {
    do {
      return try PropertyList.json(value, lossless: false)
    } catch {
      throw CommandFailure(error, path: path)
    }
  }

  /// `value` for a person, as JSON, or as typed JSON (``TypedJSON``: lossless).
  static func print(
    _ value: PlistValue?, json: Bool, typed: Bool = false, path: String, console: Console
  ) throws(CommandFailure) {
    guard let value else {
      console.line(json ? "null" : "nil")
      return
    }
    if typed {
      console.line(TypedJSON.text(value))
      return
    }
    console.line(json ? try encode(value, path: path) : human(value))
  }
}

/// `prefs read-type FILE KEY`
enum ReadType {
  static let spec = CommandSpec(
    name: "read-type", summary: "print the type of a key's value",
    synopsis: ["FILE|DOMAIN KEY"],
    discussion: """
      Prints the type of KEY's value, as `defaults read-type` does ("Type is boolean").
      """,
    operands: [.domain, .key],
    run: { (i, c) throws(CommandFailure) in try ReadType.run(i.arguments, console: c) })

  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    guard args.positional.count == 2 else {
      throw CommandFailure(.usage, "read-type takes a file and a key")
    }
    let editor = try Run.editor(args.positional[0])
    let (value, warnings) = try attempt { () throws(ToolError) in
      try editor.value(forKey: args.positional[1])
    }
    console.warn(warnings, path: editor.domain.name)
    console.line("Type is \(typeName(value))")
    return .ok
  }

  /// The type as `defaults read-type` names it: the value's type name, but `boolean` and
  /// `float`.
  static func typeName(_ value: PlistValue) -> String {
    switch value {
    case .bool: "boolean"
    case .real: "float"
    default: value.typeName
    }
  }
}

/// `prefs domains [--json]`
enum Domains {
  static let spec = CommandSpec(
    name: "domains", summary: "list the domains of the preferences folder",
    synopsis: ["[--json]"],
    discussion: """
      Lists the domains in the platform's preferences folder ($XDG_CONFIG_HOME, else ~/.config,
      on Linux; ~/Library/Preferences on macOS): the names of its .plist files.
      """,
    options: [Options.json.spec],
    run: { (i, c) throws(CommandFailure) in try Domains.run(i.arguments, console: c) })

  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    guard args.positional.isEmpty else { throw CommandFailure(.usage, "domains takes no files") }
    let resolver = Run.resolver()
    let (folder, names) = try attempt { () throws(ToolError) in try resolver.domainNames() }
    if args.has(Options.json) {
      console.line(
        JSONValue.object([
          "folder": .string(folder.path), "domains": .array(names.map(JSONValue.string)),
        ]).text())
    } else {
      // The folder goes to standard error: standard output stays the list `defaults` prints.
      console.message("domains in \(folder.path)")
      for name in names { console.line(name.shownSafely) }
    }
    return .ok
  }
}

/// `prefs find WORD [--json]`
enum Find {
  static let spec = CommandSpec(
    name: "find", summary: "search every domain for a word",
    synopsis: ["WORD [--json]"],
    discussion: """
      Searches every domain of the preferences folder for keys and values containing WORD
      (ignoring case), and prints the matches per domain. A file that does not parse is named
      on standard error and skipped. Exit 1 when nothing matches.
      """,
    options: [Options.json.spec], operands: [.word],
    run: { (i, c) throws(CommandFailure) in try Find.run(i.arguments, console: c) })

  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    guard args.positional.count == 1, let word = args.positional.first, !word.isEmpty else {
      throw CommandFailure(.usage, "find takes one word")
    }
    let resolver = Run.resolver()
    let found = try attempt { () throws(ToolError) in
      try DomainSearch(word: word).run(resolver: resolver)
    }
    var results = PlistDictionary()
    for (domain, result) in found {
      switch result {
      case .matches(let matches): results[domain] = .dictionary(matches)
      // A file that does not read, or is not a domain, is named on standard error.
      case .skipped(let error): console.message(CommandFailure(error).message)
      }
    }
    if args.has(Options.json) {
      let folder = try attempt { () throws(ToolError) in try resolver.domainNames().folder }
      console.line(try Read.encode(.dictionary(results), path: folder.path))
    } else {
      for (name, matches) in results.sortedByKey {
        let count = matches.dictionaryValue?.count ?? 0
        console.line(
          "Found \(count) key\(count == 1 ? "" : "s") in domain '\(name)': \(PropertyList.describe(matches))"
        )
      }
    }
    guard !results.isEmpty else {
      // As `defaults find` says it.
      console.message("No domain, key, nor value containing '\(word)'")
      return .notFound
    }
    return .ok
  }
}

/// `prefs lint FILE… [--json]`
enum Lint {
  static let spec = CommandSpec(
    name: "lint", summary: "check that files parse (exit 65 if any does not)",
    synopsis: ["FILE|DOMAIN... [--json]"],
    discussion: """
      Parses each file (- is standard input). Exit 0 when all are well-formed, 65 when any is
      malformed (the reason is printed per file), 66 when any is missing or is not a regular
      file and none is malformed. A refusal or a reading that differs from CoreFoundation's
      names its row of the compatibility table, [differential: ID]; --json gives it as "row"
      (the error's) and "rows" (the warnings').
      """,
    options: [Options.json.spec], operands: [.domain],
    run: { (i, c) throws(CommandFailure) in try Lint.run(i.arguments, console: c) })

  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    guard !args.positional.isEmpty else { throw CommandFailure(.usage, "lint needs a file") }
    var worst = ExitCode.ok
    var reports: [JSONValue] = []
    for argument in args.positional {
      var fields: [String: JSONValue] = ["path": .string(argument)]
      do throws(CommandFailure) {
        let (path, input) = try Run.input(argument)
        // A binary file is checked by the streaming walk, no value built; anything it would
        // report (an error, a warning) is the full read's.
        var format = PlistFormat.binary
        var warnings: [PlistWarning] = []
        if !PropertyList.isCleanBinary(input.data) {
          let document = try attempt { () throws(ToolError) in
            try InputFile.document(input, path: path)
          }
          format = document.format
          warnings = document.warnings
        }
        try attempt { () throws(ToolError) in try input.verified() }
        fields["status"] = .string("ok")
        fields["format"] = .string(format.rawValue)
        fields["warnings"] = .array(warnings.map { .string($0.description) })
        // The compatibility rows the warnings name (Docs/compatibility.md), each once.
        var rows: [String] = []
        for row in warnings.compactMap(\.compatibilityRow) where !rows.contains(row) {
          rows.append(row)
        }
        if !rows.isEmpty { fields["rows"] = .array(rows.map { .string($0) }) }
        if !args.has(Options.json) {
          console.line("\(argument): OK (\(format))")
          console.warn(warnings, path: argument)
        }
      } catch {
        let status =
          error.code == .dataError ? "malformed" : error.code == .noInput ? "missing" : "error"
        fields["status"] = .string(status)
        fields["error"] = .string(error.message)
        if let row = CompatibilityRow.id(in: error.message) { fields["row"] = .string(row) }
        console.message(error.message)
        if worst == .ok || error.code == .dataError { worst = error.code }
      }
      reports.append(.object(fields))
    }
    if args.has(Options.json) {
      console.line(JSONValue.object(["files": .array(reports)]).text(compact: true))
    }
    return worst
  }
}

/// The options of `read`.
extension Options {
  static let getter = Option<LegacyType>.choice(
    "--as", value: "TYPE", among: { LegacyType.allCases }, help: "read through this getter")
}
