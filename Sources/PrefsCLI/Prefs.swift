import PrefsTools
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The `prefs` command: parses the arguments, runs one subcommand, and returns its exit code.
/// Results go to standard output, messages to standard error (see ``Console``).
package enum Prefs {
  package static let version = "0.1.0"

  /// The verbs, in the order help lists them.
  package static var commandNames: [String] { commands.map(\.name) }

  /// Runs the binary as it was invoked: as `defaults` or `plutil` (a link of that name) it
  /// speaks that command's syntax; as anything else, `prefs`.
  package static func main(_ commandLine: [String], console: Console) -> ExitCode {
    let code = dispatch(commandLine, console: console)
    // A user or group the system could not look up (getent timed out, failed): the command
    // went on without it (no home, the folder's group only), and says so.
    for failure in ToolProcess.takeLookupFailures() { console.message("warning: \(failure)") }
    return code
  }

  private static func dispatch(_ commandLine: [String], console: Console) -> ExitCode {
    // The last path component, as the shell's link named it (no URL: this runs at every start).
    let name =
      commandLine.first.map { path in
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
      } ?? "prefs"
    let rest = Array(commandLine.dropFirst())
    // Named first, so that a run as `prefs` does not build the command table to find out.
    guard namesPersonality(name), let personality = Self.command(named: name),
      personality.isPersonality
    else { return run(rest, console: console) }
    do throws(CommandFailure) {
      return try execute(personality, rest, console: console)
    } catch {
      console.message(error.message)
      return error.code
    }
  }

  /// The verbs of ``commands`` that ``command(named:)`` or ``namesPersonality(_:)``, the
  /// switches a start dispatches with, answer otherwise than the table (a test: none).
  package static var dispatchDisagreements: [String] {
    commands.compactMap { spec in
      let found = command(named: spec.name)?.name == spec.name
      return found && namesPersonality(spec.name) == spec.isPersonality ? nil : spec.name
    }
  }

  /// Whether `name` is a personality's in ``commands`` (a switch, not a list: this runs at
  /// every start; a test checks it against the table).
  package static func namesPersonality(_ name: String) -> Bool {
    switch name {
    case "defaults", "plutil": true
    default: false
    }
  }

  /// Runs `prefs` with `arguments` (without the program name); domain names reach
  /// `UserDefaults` through `userDefaults` (see ``UserDefaultsAccess``).
  package static func run(
    _ arguments: [String], console: Console, userDefaults: UserDefaultsAccess?
  ) -> ExitCode {
    Run.with({ $0.userDefaults = userDefaults }) { run(arguments, console: console) }
  }

  /// Runs `prefs` with `arguments` (without the program name).
  package static func run(_ arguments: [String], console: Console) -> ExitCode {
    // `--layout L` before the verb: where domain names resolve for this run.
    if arguments.first == "--layout" {
      guard arguments.count >= 2,
        let platform = Run.layouts.first(where: { $0.word == arguments[1] })?.platform
      else {
        console.message("--layout takes xdg, macos or gnustep")
        return .usage
      }
      ToolProcess.useLayout(platform)
      return Run.with({ $0.layout = platform }) {
        run(Array(arguments.dropFirst(2)), console: console)
      }
    }
    // `--lock-timeout SECONDS` before the verb: how long this run's writes wait for a lock.
    if arguments.first == "--lock-timeout" {
      guard arguments.count >= 2 else {
        console.message("--lock-timeout takes a number of seconds")
        return .usage
      }
      do throws(CommandFailure) {
        let seconds = try Options.seconds(arguments[1], option: "--lock-timeout")
        return Run.with({ $0.lockTimeout = seconds }) {
          run(Array(arguments.dropFirst(2)), console: console)
        }
      } catch {
        console.message(error.message)
        return error.code
      }
    }
    // `--current-host` or `--host NAME` before the verb: that host's ByHost domains, as
    // `defaults -currentHost` and `-host NAME` reach them.
    if arguments.first == "--current-host" {
      return Run.with({ $0.host = .current }) {
        run(Array(arguments.dropFirst()), console: console)
      }
    }
    if arguments.first == "--host" {
      guard arguments.count >= 2 else {
        console.message("--host takes a host name")
        return .usage
      }
      return Run.with({ $0.host = .named(arguments[1]) }) {
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
        guard let command = Self.command(named: name) else {
          throw CommandFailure(.usage, "unknown command \"\(name)\" (see prefs help)")
        }
        console.out(command.help)
        return .ok
      case "--version", "version":
        console.line("prefs \(version)")
        return .ok
      default:
        guard let command = Self.command(named: verb) else {
          throw CommandFailure(.usage, "unknown command \"\(verb)\" (see prefs help)")
        }
        return try execute(command, rest, console: console)
      }
    } catch {
      console.message(DatePolicy.hint(error.message))
      return error.code
    }
  }

  /// Runs `command` on its words, scanned as its declaration says.
  static func execute(_ command: CommandSpec, _ words: [String], console: Console)
    throws(CommandFailure) -> ExitCode
  {
    switch command.syntax {
    case .personality:
      return try command.run(Invocation(arguments: .none, raw: words), console)
    case .words:
      // Help only where an option stands: among the options before the first operand (and
      // before `--`). A key, a domain or a value spelt `--help` is that key, domain or value.
      let options = command.options.map(\.name)
      if words.prefix(while: { $0 == "--help" || options.contains($0) }).contains("--help") {
        console.out(command.help)
        return .ok
      }
      return try command.run(Invocation(arguments: .none, raw: words), console)
    case .options:
      let arguments = try command.scan(words)
      if arguments.has("--help") {
        console.out(command.help)
        return .ok
      }
      return try command.run(Invocation(arguments: arguments, raw: words), console)
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
      gnustep as GNUstep's configuration files say; `prefs --current-host VERB …` or
      `prefs --host NAME VERB …` a host's ByHost domains, as defaults -currentHost does).
      `prefs --lock-timeout SECONDS VERB …`: how long a write waits for a domain's lock
      (default: 10 s for migrate and as root, else as long as it takes), then exit 75.
      Run `prefs help <command>` (or `prefs <command> --help`) for the options of one command,
      `prefs --version` for the version. `prefs defaults …` and `prefs plutil …` (or the binary
      linked as `defaults` or `plutil`) take macOS defaults' and plutil's syntax.
      \(ExitCode.rules)

      """
  }
}
