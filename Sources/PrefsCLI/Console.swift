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

/// Where a command writes: results to standard output, messages to standard error.
package protocol Console: AnyObject {
  func out(_ data: Data)
  /// Text on standard output (by default its UTF-8 through ``out(_:)-(Data)``).
  func out(_ text: String)
  func err(_ text: String)
  /// Whether standard error is a terminal (progress is shown only then).
  var errorIsTerminal: Bool { get }
  /// Whether standard output is a terminal (binary output is refused there, as `plutil`
  /// refuses it).
  var outputIsTerminal: Bool { get }
  /// Whether standard input is a terminal (a question may be asked there: `edit`).
  var inputIsTerminal: Bool { get }
}

extension Console {
  package func out(_ text: String) {
    // From the contiguous bytes (`Data(text.utf8)` asks the runtime whether the view is
    // `ContiguousBytes`: a scan of every conformance in the program, in a one-key read).
    var text = text
    out(text.withUTF8 { Data(buffer: $0) })
  }
  package var inputIsTerminal: Bool { false }
  func line(_ text: String) { out(text + "\n") }
  /// One line on standard error: whatever the text names (a key, a file a user wrote), it
  /// stays one line and cannot drive the terminal (``Swift/String/withControlsEscaped``).
  func message(_ text: String) { err("prefs: " + text.withControlsEscaped + "\n") }
}

/// The process's own standard output and error.
package final class StandardConsole: Console {
  package init() {}

  package func out(_ data: Data) { ToolProcess.write(data, to: STDOUT_FILENO) }
  package func out(_ text: String) { Self.write(text, to: STDOUT_FILENO) }
  package func err(_ text: String) { Self.write(text, to: STDERR_FILENO) }

  /// The text's UTF-8 in place (no `Data` made on the way: this runs in every command).
  private static func write(_ text: String, to fd: Int32) { ToolProcess.write(text, to: fd) }
  package var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
  package var outputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
  package var inputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }
}

/// Collects what a command writes (for tests and for embedding).
package final class CapturingConsole: Console {
  package private(set) var stdout = Data()
  package private(set) var stderr = ""

  /// Whether to behave as if standard output were a terminal.
  package var outputIsTerminal: Bool

  package init(outputIsTerminal: Bool = false) { self.outputIsTerminal = outputIsTerminal }

  package var output: String { String(decoding: stdout, as: UTF8.self) }
  package func out(_ data: Data) { stdout.append(data) }
  package func err(_ text: String) { stderr += text }
  package var errorIsTerminal: Bool { false }
}

/// A console whose messages carry no `prefs: ` prefix, as `defaults` and `plutil` print them.
final class BareConsole: Console {
  let base: Console

  init(_ base: Console) { self.base = base }

  func out(_ data: Data) { base.out(data) }
  func err(_ text: String) {
    base.err(text.hasPrefix("prefs: ") ? String(text.dropFirst("prefs: ".count)) : text)
  }
  var errorIsTerminal: Bool { base.errorIsTerminal }
  var outputIsTerminal: Bool { base.outputIsTerminal }
}
