import LegacyDefaults
import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `prefs lint FILE… [--json]`
enum Lint {
  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    guard !args.positional.isEmpty else { throw CommandFailure(.usage, "lint needs a file") }
    var worst = ExitCode.ok
    var reports: [JSONValue] = []
    for argument in args.positional {
      var fields: [String: JSONValue] = ["path": .string(argument)]
      do {
        let path = argument == "-" ? argument : try Target.path(argument)
        let document = try Prefs.load(path)
        fields["status"] = .string("ok")
        fields["format"] = .string(document.format.rawValue)
        fields["warnings"] = .array(document.warnings.map { .string($0.description) })
        if !args.has("--json") {
          console.line("\(argument): OK (\(document.format))")
          Prefs.warn(document, path: argument, console: console)
        }
      } catch {
        let status =
          error.code == .dataError ? "malformed" : error.code == .noInput ? "missing" : "error"
        fields["status"] = .string(status)
        fields["error"] = .string(error.message)
        console.message(error.message)
        if worst == .ok || error.code == .dataError { worst = error.code }
      }
      reports.append(.object(fields))
    }
    if args.has("--json") {
      console.line(JSONValue.object(["files": .array(reports)]).text(compact: true))
    }
    return worst
  }
}

/// `prefs convert FILE --to FORMAT [-o OUT]`
enum Convert {
  enum Output { case plist(PlistFormat), json }

  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    guard args.positional.count == 1, let argument = args.positional.first else {
      throw CommandFailure(.usage, "convert takes exactly one file")
    }
    let path = argument == "-" ? argument : try Target.path(argument)
    let outputs: [String: Output] = [
      "xml": .plist(.xml), "xml1": .plist(.xml), "binary": .plist(.binary),
      "binary1": .plist(.binary), "openstep": .plist(.openStep), "gnustep": .plist(.gnustep),
      "json": .json,
    ]
    guard let target = try args.choice("--to", outputs) else {
      throw CommandFailure(.usage, "convert needs --to xml|binary|openstep|gnustep|json")
    }
    let document = try Prefs.load(path)
    Prefs.warn(document, path: path, console: console)
    // Keys that differ only in Unicode normalization stay two keys (compared by their bytes,
    // as CoreFoundation compares them); the warning above names them.
    let format: PlistFormat? = if case .plist(let f) = target { f } else { nil }
    let value =
      format.map {
        DatePolicy.apply(document.value, truncating: args.has(DatePolicy.flag), format: $0)
      } ?? document.value
    let output: Data
    do {
      if let format {
        output = try PropertyList.write(value, as: format)
      } else {
        output = Data((try PropertyList.json(value, lossless: true) + "\n").utf8)
      }
    } catch {
      throw CommandFailure(.dataError, "\(path): \(error)")
    }
    guard let out = args.value("--output"), out != "-" else {
      if format == .binary, console.outputIsTerminal {
        throw CommandFailure(
          .usage, "binary output is not written to a terminal: use -o OUT or redirect it")
      }
      console.out(output)
      return .ok
    }
    try Target.write(output, to: out, value: value, console: console) { format }
    return .ok
  }
}

/// A JSON string literal.
func json(_ text: String) -> String {
  PropertyList.jsonString(text)
}
