import LegacyDefaults

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
public protocol Console: AnyObject {
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
  public func out(_ text: String) { out(Data(text.utf8)) }
  public var inputIsTerminal: Bool { false }
  func line(_ text: String) { out(text + "\n") }
  func message(_ text: String) { err("prefs: " + text + "\n") }
}

/// The process's own standard output and error.
public final class StandardConsole: Console {
  public init() {}

  public func out(_ data: Data) {
    _ = data.withUnsafeBytes { FileAccess.writeAll($0, to: STDOUT_FILENO) }
  }
  public func out(_ text: String) { Self.write(text, to: STDOUT_FILENO) }
  public func err(_ text: String) { Self.write(text, to: STDERR_FILENO) }

  /// The text's UTF-8 in place (no `Data` made on the way: this runs in every command).
  private static func write(_ text: String, to fd: Int32) {
    var text = text
    _ = text.withUTF8 { FileAccess.writeAll(UnsafeRawBufferPointer($0), to: fd) }
  }
  public var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
  public var outputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
  public var inputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }
}

/// Collects what a command writes (for tests and for embedding).
public final class CapturingConsole: Console {
  public private(set) var stdout = Data()
  public private(set) var stderr = ""

  /// Whether to behave as if standard output were a terminal.
  public var outputIsTerminal: Bool

  public init(outputIsTerminal: Bool = false) { self.outputIsTerminal = outputIsTerminal }

  public var output: String { String(decoding: stdout, as: UTF8.self) }
  public func out(_ data: Data) { stdout.append(data) }
  public func err(_ text: String) { stderr += text }
  public var errorIsTerminal: Bool { false }
}
