import LegacyDefaults
import PrefsTools
import PropertyList

/// `prefs write FILE KEY [-bool|-int|-float|-string|-date|-data] VALUE`, `-array V…`, `-dict K V…`
enum Write {
  static func run(_ arguments: [String], console: Console) throws(CommandFailure) -> ExitCode {
    var arguments = arguments
    var truncatingDates = false
    if arguments.first == DatePolicy.flag {
      arguments.removeFirst()
      truncatingDates = true
    } else if arguments.last == DatePolicy.flag, arguments.count > 3 {
      arguments.removeLast()
      truncatingDates = true
    }
    guard arguments.count >= 3 else {
      throw CommandFailure(.usage, "write takes a file, a key and a value (see prefs write --help)")
    }
    let editor = try Run.editor(arguments[0])
    let key = arguments[1]
    let recoveries = try attempt { () throws(ToolError) in
      let value = try TypedValue.parse(Array(arguments.dropFirst(2)), spelling: .prefs)
      return try editor.set(value, forKey: key, truncatingDates: truncatingDates)
    }
    console.report(recoveries)
    return .ok
  }
}

/// `prefs delete FILE [KEY]`
enum Delete {
  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    guard (1...2).contains(args.positional.count) else {
      throw CommandFailure(.usage, "delete takes a file and at most one key")
    }
    let editor = try Run.editor(args.positional[0])
    guard args.positional.count == 2 else {
      // The whole domain goes, whatever it holds (a corrupt file too).
      try attempt { () throws(ToolError) in try editor.removeDomain() }
      return .ok
    }
    console.report(try attempt { () throws(ToolError) in try editor.remove(args.positional[1]) })
    return .ok
  }
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
