import PrefsTools
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `prefs edit DOMAIN|FILE [--format xml|openstep]`: the domain as text in `$VISUAL` or
/// `$EDITOR`, checked when the editor exits, then applied as its changes under the domain's
/// lock, so that keys another process changed meanwhile are kept.
enum Edit {
  static let spec = CommandSpec(
    name: "edit", summary: "edit a domain as text, applied key by key under its lock",
    synopsis: ["DOMAIN|FILE [--format xml|openstep]"],
    discussion: """
      Opens the domain as text (XML, or OpenStep text, GNUstep's typed text where a value
      needs it) in $VISUAL, else $EDITOR, else vi. When the editor exits the text is checked:
      an error says where it broke, and on a terminal you may edit again or abort; nothing is
      written until it parses. Then only the keys you changed are applied, as one locked
      update, so keys another process changed meanwhile are kept; a key you changed that
      another writer changed too keeps the other writer's value and is reported (exit 75).
      An editor that fails changes nothing (exit 1).
      """,
    options: [Options.editFormat.spec], operands: [.domain],
    run: { (i, c) throws(CommandFailure) in try Edit.run(i.arguments, console: c) })

  /// Exit status when another writer changed a key the edit changed too (that key is kept as
  /// the other writer left it, and reported): EX_TEMPFAIL, edit again.
  static let conflict = ExitCode.temporaryFailure

  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    guard args.positional.count == 1, let word = args.positional.first else {
      throw CommandFailure(.usage, "edit takes one domain or file")
    }
    let format = try args[Options.editFormat] ?? .xml
    let editor = try Run.editor(word)
    let base = try ChangePrinter.values(editor)
    let (textFormat, text) = try render(base, format, path: editor.domain.name)
    let folder = Run.environment()["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    let file = try attempt { () throws(ToolError) in
      try TemporaryText(text, suffix: textFormat == .xml ? ".plist" : ".txt", in: folder)
    }
    defer { file.remove() }
    let program = editorCommand(Run.environment())

    var edited: PlistDictionary
    while true {
      let status = run(program, file.path)
      guard status == 0 else {
        throw CommandFailure(
          .notFound, "the editor (\(program)) exited with status \(status): nothing was changed")
      }
      do throws(CommandFailure) {
        edited = try parse(try attempt { () throws(ToolError) in try file.read() }, path: file.path)
        break
      } catch {
        console.message(error.message)
        guard console.inputIsTerminal, ask("edit again (e) or abort (a)? ", console) == "e" else {
          throw CommandFailure(error.code, "nothing was changed: " + error.message)
        }
      }
    }
    let diff = DomainDiff(from: base, to: edited)
    guard !diff.isEmpty else {
      console.message("no change")
      return .ok
    }
    let (recoveries, conflicts) = try attempt { () throws(ToolError) in
      try editor.apply(diff, over: base)
    }
    console.report(recoveries)
    for conflict in conflicts {
      console.message(
        "\(conflict.key): another writer changed it while you edited (now "
          + describe(conflict.now) + "); your edit (" + describe(conflict.yours)
          + ") was not applied")
    }
    return conflicts.isEmpty ? .ok : conflict
  }

  static func describe(_ value: PlistValue?) -> String {
    value.map { DefaultsCommand.argument($0) } ?? "removed"
  }

  /// The domain as text: XML, or OpenStep text (GNUstep's typed text when a value needs it).
  static func render(_ values: PlistDictionary, _ format: PlistFormat, path: String)
    throws(CommandFailure) -> (PlistFormat, String)
  {
    let target = format == .xml ? .xml : DomainEditor.format(for: values, current: .openStep)
    do {
      let data = try PropertyList.write(.dictionary(values), as: target)
      return (target, String(decoding: data, as: UTF8.self))
    } catch {
      throw CommandFailure(error, path: path)
    }
  }

  /// The edited text as a domain: a property list whose top level is a dictionary with keys
  /// a domain keeps apart; an error says where it broke.
  static func parse(_ data: Data, path: String) throws(CommandFailure) -> PlistDictionary {
    let document: PlistDocument
    do {
      document = try PropertyList.read(data)
    } catch {
      throw CommandFailure(.dataError, "the edited text does not parse: \(error)")
    }
    return try Read.domain(document, path: "the edited text")
  }

  /// `$VISUAL`, else `$EDITOR`, else `vi` (a command line: it may hold options).
  static func editorCommand(_ environment: [String: String]) -> String {
    for name in ["VISUAL", "EDITOR"] {
      if let value = environment[name], !value.trimmingWhitespace().isEmpty { return value }
    }
    return "vi"
  }

  /// Runs `command FILE` through `/bin/sh` on this terminal; its exit status (128 + the signal
  /// that ended it).
  static func run(_ command: String, _ file: String) -> Int32 {
    ToolProcess.runEditor(command, file: file, environment: Run.environment())
  }

  /// A line answered on standard input after `question` on standard error (nil at its end).
  static func ask(_ question: String, _ console: Console) -> String? {
    console.err(question)
    let answer = StandardInput.line().trimmingWhitespace().lowercased()
    return answer.first.map(String.init)
  }
}

/// The options of `edit`.
extension Options {
  static let editFormat = Option<PlistFormat>.choice(
    "--format", value: "FORMAT", among: { [.xml, .openStep] },
    help: "the text to edit: xml (default) or openstep (GNUstep's typed text when needed)")
}
