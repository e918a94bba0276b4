import Foundation
import LegacyDefaults
import PropertyList

/// The `prefs` command: parses the arguments, runs one subcommand, and returns its exit code.
/// Results go to standard output, messages to standard error (see ``Console``).
public enum Prefs {
  public static let version = "0.1.0"

  /// Runs `prefs` with `arguments` (without the program name).
  public static func run(_ arguments: [String], console: Console) -> ExitCode {
    guard let verb = arguments.first else {
      console.err(usage)
      return .usage
    }
    let rest = Array(arguments.dropFirst())
    do throws(CommandFailure) {
      switch verb {
      case "lint": return try Lint.run(rest, console: console)
      case "convert": return try Convert.run(rest, console: console)
      case "read": return try Read.run(rest, console: console)
      case "write": return try Write.run(rest, console: console)
      case "delete": return try Delete.run(rest, console: console)
      case "migrate": return try Migrate.run(rest, console: console)
      case "export": return try Export.run(rest, console: console)
      case "--help", "-h", "help":
        console.out(usage)
        return .ok
      case "--version":
        console.line("prefs \(version)")
        return .ok
      default:
        throw CommandFailure(.usage, "unknown command \"\(verb)\" (see prefs --help)")
      }
    } catch {
      console.message(error.message)
      return error.code
    }
  }

  static let usage = """
    usage: prefs <command> [options]

    commands:
      read FILE [KEY] [--as TYPE] [--dialect D] [--json]
                                        print a property list, one key, or what a getter read
      write FILE KEY [-TYPE] VALUE      set one key and synchronize
      delete FILE [KEY]                 remove a key (or the whole domain) and synchronize
      migrate --plan PLAN (--to OUT | --in-place) [--dry-run] LEGACY...
                                        move legacy files into the typed store, with a report
      export --plan PLAN STORE --to LEGACY_OUT
                                        the plan backwards, for a rollback
      lint FILE... [--json]             check that files parse (exit 65 if any does not)
      convert FILE --to FORMAT [-o OUT] rewrite in xml, binary, openstep, gnustep or json

    FILE may be a path or a domain name (resolved to the platform's preferences folder).
    Run `prefs <command> --help` for the options of one command.
    Exit codes: 0 done, 1 no such key, 64 usage, 65 malformed input, 66 input missing,
    73 output cannot be created, 74 I/O error.

    """

  /// The largest input file read.
  static let inputLimit = PlistLimits.default.maxInputBytes

  /// Reads and parses a file, turning every failure into the documented exit code with the
  /// file name and the place it broke.
  static func load(_ path: String) throws(CommandFailure) -> PlistDocument {
    let data: Data
    do {
      data = try FileAccess.readFile(path, limit: inputLimit)
    } catch {
      throw CommandFailure(error)
    }
    do {
      return try PropertyList.read(data)
    } catch {
      throw CommandFailure(.dataError, "\(path): \(error)")
    }
  }

  static func warn(_ document: PlistDocument, path: String, console: Console) {
    for warning in document.warnings { console.message("\(path): warning: \(warning)") }
  }
}
