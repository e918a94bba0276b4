import Foundation
import LegacyDefaults
import PropertyList

/// `prefs lint FILE… [--json]`
enum Lint {
  static let help = """
    usage: prefs lint FILE... [--json]
    Parses each file. Exit 0 when all are well-formed, 65 when any is malformed (the reason is
    printed per file), 66 when any is missing and none is malformed.

    """

  static func run(_ arguments: [String], console: Console) throws(CommandFailure) -> ExitCode {
    let args = try Arguments(arguments, valued: [], flags: ["--json", "--help"])
    if args.has("--help") {
      console.out(help)
      return .ok
    }
    guard !args.positional.isEmpty else { throw CommandFailure(.usage, "lint needs a file") }
    var worst = ExitCode.ok
    var reports: [String] = []
    for path in args.positional {
      var fields = ["\"path\": \(json(path))"]
      do {
        let document = try Prefs.load(path)
        fields.append("\"status\": \"ok\"")
        fields.append("\"format\": \(json(document.format.rawValue))")
        fields.append(
          "\"warnings\": [\(document.warnings.map { json($0.description) }.joined(separator: ", "))]"
        )
        if !args.has("--json") {
          console.line("\(path): OK (\(document.format))")
          Prefs.warn(document, path: path, console: console)
        }
      } catch {
        let status =
          error.code == .dataError ? "malformed" : error.code == .noInput ? "missing" : "error"
        fields.append("\"status\": \(json(status))")
        fields.append("\"error\": \(json(error.message))")
        console.message(error.message)
        if worst == .ok || error.code == .dataError { worst = error.code }
      }
      reports.append("{" + fields.joined(separator: ", ") + "}")
    }
    if args.has("--json") {
      console.line("{\"files\": [" + reports.joined(separator: ", ") + "]}")
    }
    return worst
  }
}

/// `prefs convert FILE --to FORMAT [-o OUT]`
enum Convert {
  static let help = """
    usage: prefs convert FILE --to xml|binary|openstep|gnustep|json [-o OUT]
    Rewrites FILE in another format, without loss: a value the format cannot hold (a date in
    OpenStep text, data in JSON, …) is refused with exit 65 naming the value. Writes to OUT
    atomically (a temporary file renamed over it), or to standard output without -o.

    """

  enum Output { case plist(PlistFormat), json }

  static func run(_ arguments: [String], console: Console) throws(CommandFailure) -> ExitCode {
    let args = try Arguments(arguments, valued: ["--to", "-o", "--output"], flags: ["--help"])
    if args.has("--help") {
      console.out(help)
      return .ok
    }
    guard args.positional.count == 1, let path = args.positional.first else {
      throw CommandFailure(.usage, "convert takes exactly one file")
    }
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
    let output: Data
    do {
      switch target {
      case .plist(let format): output = try PropertyList.write(document.value, as: format)
      case .json: output = Data((try PropertyList.json(document.value, lossless: true) + "\n").utf8)
      }
    } catch {
      throw CommandFailure(.dataError, "\(path): \(error)")
    }
    guard let out = args.value("-o") ?? args.value("--output"), out != "-" else {
      console.out(output)
      return .ok
    }
    try Target.write(output, to: out, value: document.value, console: console) {
      () -> PlistFormat? in
      if case .plist(let format) = target { return format }
      return nil
    }
    return .ok
  }
}

/// A JSON string literal.
func json(_ text: String) -> String {
  PropertyList.jsonString(text)
}
