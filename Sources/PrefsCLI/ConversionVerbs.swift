import PrefsTools
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `prefs convert FILE --to FORMAT [-o OUT]`
enum Convert {
  static let spec = CommandSpec(
    name: "convert", summary: "rewrite in xml, binary, openstep, gnustep or json",
    synopsis: ["FILE|DOMAIN --to FORMAT [-o OUT] [--truncate-dates]"],
    discussion: """
      Rewrites FILE (- is standard input) in another format, without loss: a value the format cannot hold (a date in
      OpenStep text, data in JSON, a fractional-second date in XML unless --truncate-dates) is
      refused with exit 65 naming the value. Writes to OUT atomically (a temporary file renamed
      over it), or to standard output without -o (never binary to a terminal).
      """,
    options: [Options.convertTo.spec, Options.output.spec, Options.truncateDates.spec],
    operands: [.domain],
    run: { (i, c) throws(CommandFailure) in try Convert.run(i.arguments, console: c) })

  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    guard args.positional.count == 1, let argument = args.positional.first else {
      throw CommandFailure(.usage, "convert takes exactly one file")
    }
    guard let target = try args[Options.convertTo] else {
      throw CommandFailure(
        .usage,
        "convert needs --to "
          + ConvertTarget.words.map(\.word).joined(separator: "|"))
    }
    let (path, input) = try Run.input(argument)
    let format: PlistFormat? = if case .plist(let f) = target { f } else { nil }
    if let code = try streamed(input, to: format, args, console: console) { return code }
    let document = try attempt { () throws(ToolError) in try InputFile.document(input, path: path) }
    console.warn(document.warnings, path: path)
    // Keys that differ only in Unicode normalization stay two keys (compared by their bytes,
    // as CoreFoundation compares them); the warning above names them.
    let value =
      format.map {
        DatePolicy.apply(document.value, truncating: args.has(Options.truncateDates), format: $0)
      } ?? document.value
    let output: Data
    do {
      if let format {
        output = try PropertyList.write(value, as: format)
      } else {
        output = Data((try PropertyList.json(value, lossless: true) + "\n").utf8)
      }
    } catch {
      throw CommandFailure(error, path: path)
    }
    guard let out = try args[Options.output], out != "-" else {
      if format == .binary, console.outputIsTerminal {
        throw CommandFailure(
          .usage, "binary output is not written to a terminal: use -o OUT or redirect it")
      }
      console.out(output)
      return .ok
    }
    let resolver = Run.resolver()
    console.report(
      try attempt { () throws(ToolError) in
        try OutputFile.write(output, to: out, value: value, format: format, resolver: resolver)
      })
    return .ok
  }

  /// A binary file to a text format, written straight from its object table without building
  /// its values, when the stream can (nil: the full path, which reports the errors and
  /// warnings): the same bytes as the full path, to standard output or to a file that is not
  /// a domain (a domain is written through its store, which takes the value).
  static func streamed(
    _ input: InputBytes, to format: PlistFormat?, _ args: Arguments, console: Console
  ) throws(CommandFailure) -> ExitCode? {
    let streamed =
      if let format {
        PropertyList.streamed(
          input.data, as: format, truncatingDates: args.has(Options.truncateDates))
      } else {
        PropertyList.streamedJSON(input.data, lossless: true)
      }
    guard var output = streamed else { return nil }
    try attempt { () throws(ToolError) in try input.verified() }
    if format == nil { output.append(0x0A) }
    guard let out = try args[Options.output], out != "-" else {
      console.out(output)
      return .ok
    }
    let resolver = Run.resolver()
    guard !resolver.isInPreferencesFolder(out) else { return nil }
    try attempt { () throws(ToolError) in try OutputFile.write(output, to: out, resolver: resolver)
    }
    return .ok
  }

  /// A file as a document, through the domain file's one way in (`-`: standard input), every
  /// failure its documented exit code with the file and the place it broke.
  static func load(_ path: String) throws(CommandFailure) -> PlistDocument {
    try attempt { () throws(ToolError) in try InputFile.document(path) }
  }
}

/// The options of `convert`.
extension Options {
  static let convertTo = Option<ConvertTarget>.choice(
    "--to", value: "FORMAT", among: { ConvertTarget.words }, help: "the format to write")
  static let output = Option<String>.text(
    "--output", alias: "-o", value: "OUT", files: true,
    help: "the file to write (- or none: standard output)")
}
