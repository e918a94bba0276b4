import LegacyDefaults
import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The `prefs` command: parses the arguments, runs one subcommand, and returns its exit code.
/// Results go to standard output, messages to standard error (see ``Console``).
public enum Prefs {
  public static let version = "0.1.0"

  /// The verbs, in the order help lists them.
  public static var commandNames: [String] { commands.map(\.name) }

  /// Runs the binary as it was invoked: as `defaults` or `plutil` (a link of that name) it
  /// speaks that command's syntax; as anything else, `prefs`.
  public static func main(_ commandLine: [String], console: Console) -> ExitCode {
    // The last path component, as the shell's link named it (no URL: this runs at every start).
    let name =
      commandLine.first.map { path in
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
      } ?? "prefs"
    let rest = Array(commandLine.dropFirst())
    switch name {
    case "defaults": return DefaultsPersonality.run(rest, console: console)
    case "plutil": return PlutilPersonality.run(rest, console: console)
    default: return run(rest, console: console)
    }
  }

  /// Runs `prefs` with `arguments` (without the program name); domain names reach
  /// `UserDefaults` through `userDefaults` (see ``UserDefaultsAccess``).
  public static func run(
    _ arguments: [String], console: Console, userDefaults: UserDefaultsAccess?
  ) -> ExitCode {
    Target.$userDefaults.withValue(userDefaults) { run(arguments, console: console) }
  }

  /// Runs `prefs` with `arguments` (without the program name).
  public static func run(_ arguments: [String], console: Console) -> ExitCode {
    // `--layout L` before the verb: where domain names resolve for this run.
    if arguments.first == "--layout" {
      guard arguments.count >= 2, let platform = Target.layouts[arguments[1]] else {
        console.message("--layout takes xdg, macos or gnustep")
        return .usage
      }
      let locator = DomainLocator(platform: platform)
      GNUstepLock.register(locator)
      return Target.$locator.withValue(locator) {
        run(Array(arguments.dropFirst(2)), console: console)
      }
    }
    guard let verb = arguments.first else {
      console.err(usage)
      return .usage
    }
    let rest = Array(arguments.dropFirst())
    do throws(CommandFailure) {
      switch verb {
      case "--help", "-h":
        console.out(usage)
        return .ok
      case "help":
        guard let name = rest.first, name != "help" else {
          console.out(usage)
          return .ok
        }
        guard let command = commands.first(where: { $0.name == name }) else {
          throw CommandFailure(.usage, "unknown command \"\(name)\" (see prefs help)")
        }
        console.out(command.help)
        return .ok
      case "defaults":
        return DefaultsPersonality.run(rest, console: console)
      case "plutil":
        return PlutilPersonality.run(rest, console: console)
      case "--version", "version":
        console.line("prefs \(version)")
        return .ok
      default:
        guard let command = commands.first(where: { $0.name == verb }) else {
          throw CommandFailure(.usage, "unknown command \"\(verb)\" (see prefs help)")
        }
        if command.scansItself {
          if rest.contains("--help") {
            console.out(command.help)
            return .ok
          }
          return try command.run(Invocation(arguments: .none, raw: rest), console)
        }
        let arguments = try command.scan(rest)
        if arguments.has("--help") {
          console.out(command.help)
          return .ok
        }
        return try command.run(Invocation(arguments: arguments, raw: rest), console)
      }
    } catch {
      console.message(DatePolicy.hint(error.message))
      return error.code
    }
  }

  static var usage: String {
    let width = (commands.map(\.name.count).max() ?? 0) + 2
    let lines = commands.map {
      "  " + $0.name.padded(to: width) + $0.summary
    }
    return """
      usage: prefs <command> [options]

      commands:
      \(lines.joined(separator: "\n"))

      FILE may be a path (a word with a /, or ending in .plist: ./x, /abs/x.plist, x.plist) or
      a domain name (any other word: in the platform's preferences folder, never a file of the
      current folder; `prefs --layout xdg|macos|gnustep VERB …` chooses another layout,
      gnustep as GNUstep's configuration files say).
      Run `prefs help <command>` (or `prefs <command> --help`) for the options of one command,
      `prefs --version` for the version. `prefs defaults …` and `prefs plutil …` (or the binary
      linked as `defaults` or `plutil`) take macOS defaults' and plutil's syntax.
      \(ExitCode.rules)

      """
  }

  /// The largest input file read.
  static let inputLimit = PlistLimits.default.maxInputBytes

  /// Reads and parses a file, turning every failure into the documented exit code with the
  /// file name and the place it broke.
  /// `-` is standard input (for the verbs that read a file and write nothing back to it).
  static func load(_ path: String) throws(CommandFailure) -> PlistDocument {
    let data: Data
    do {
      data =
        path == "-"
        ? try FileAccess.readStandardInput(limit: inputLimit)
        : try FileAccess.readFile(path, limit: inputLimit)
    } catch {
      throw CommandFailure(error)
    }
    return try parse(data, path: path == "-" ? "standard input" : path)
  }

  /// The document in `data` (read from `path`), or a data error that explains it.
  static func parse(_ data: Data, path: String) throws(CommandFailure) -> PlistDocument {
    do {
      return try PropertyList.read(data)
    } catch {
      throw CommandFailure(.dataError, "\(path): " + explain(error, data: data))
    }
  }

  /// Why `data` did not read, said from what it is: text that starts like no property list
  /// is "not a property list" before the OpenStep reader's place; JSON is named as JSON
  /// (prefs writes JSON but reads only property lists).
  static func explain(_ error: PlistError, data: Data) -> String {
    guard error.format == .openStep || error.format == .gnustep else { return "\(error)" }
    let first = data.first { !Set(" \t\r\n".utf8).contains($0) }
    if let first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
      if case .success = Result(catching: { () throws(JSONValue.ParseError) in
        try JSONValue.parse(data)
      }) {
        return "this is JSON, which prefs writes (convert --to json, read --json) but does "
          + "not read: give it a property list (XML, binary, OpenStep or GNUstep text)"
      }
    }
    if let first, "{(<\"/".utf8.contains(first) { return "\(error)" }
    return "not a property list (no XML or binary header, and not OpenStep text: \(error))"
  }

  /// A document's dictionary, or the domain error (65) for anything else.
  static func domain(_ document: PlistDocument, path: String) throws(CommandFailure)
    -> PlistDictionary
  {
    do {
      return try DomainFile.domain(of: document, path: path)
    } catch {
      throw CommandFailure(error)
    }
  }

  static func warn(_ document: PlistDocument, path: String, console: Console) {
    for warning in document.warnings { console.message("\(path): warning: \(warning)") }
  }
}
