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

/// A value as macOS `defaults read` prints it: Foundation's `-description` of the property
/// list, which scripts parse and compare.
///
/// - A container at depth `n` starts with `n` indents of four spaces, so a container that is a
///   value starts after `key = ` with its own indent (`"persistent-apps" =     (`), and an
///   element of an array with two (`        {` under `(`). Each element or entry is on its
///   own line one level deeper; array elements end with `,` (not the last), entries with `;`;
///   the closing bracket is on its own line at the container's indent, empty containers too
///   (`(` newline `)`). Keys are sorted by their bytes.
/// - Strings, and the text of every other value inside a container, stand bare when they are
///   ASCII letters and digits only, else in double quotes: `"tile-type"`, `"en_US"`, `"-1"`,
///   `"0.5"`, `""`. In quotes `"` and `\` are escaped with `\`, a newline is `\n`, a tab `\t`,
///   a carriage return `\r`, and every other UTF-16 unit outside printable ASCII is `\\Uxxxx`
///   (a doubled backslash, four lowercase hex digits: `"Safari\\U6d4f"`).
/// - Integers in decimal; reals as `NSNumber` prints a double (`%.16g`: `0`, `0.5`, `1e+20`);
///   booleans `1` and `0`; dates `2014-04-24 02:40:00 +0000` (UTC, whole seconds); data
///   `{length = 2, bytes = 0xcafe}`, all of it up to 24 bytes, else its first 16 and last 8
///   bytes (`{length = 25, bytes = 0x00010203 04050607 08090a0b 0c0d0e0f ... 11121314
///   15161718 }`).
/// - At the top level (`defaults read DOMAIN KEY`) a scalar prints bare: a string as it is.
enum DefaultsDescription {
  /// `value` as `defaults read` prints it (no final newline).
  static func text(_ value: PlistValue) -> String {
    switch value {
    case .array, .dictionary:
      var out = ""
      append(value, level: 0, to: &out)
      return out
    default:
      return scalar(value)
    }
  }

  private static func indent(_ level: Int) -> String { String(repeating: "    ", count: level) }

  private static func append(_ value: PlistValue, level: Int, to out: inout String) {
    switch value {
    case .array(let elements):
      out += indent(level) + "(\n"
      for (index, element) in elements.enumerated() {
        out += indent(level + 1)
        append(element, level: level + 1, to: &out)
        out += index == elements.count - 1 ? "\n" : ",\n"
      }
      out += indent(level) + ")"
    case .dictionary(let dictionary):
      out += indent(level) + "{\n"
      for (key, element) in dictionary.sortedByKey {
        out += indent(level + 1) + PropertyList.openStepString(key, quoting: .defaultsRead) + " = "
        append(element, level: level + 1, to: &out)
        out += ";\n"
      }
      out += indent(level) + "}"
    case .data:
      // Data's description is never quoted.
      out += scalar(value)
    default:
      out += PropertyList.openStepString(scalar(value), quoting: .defaultsRead)
    }
  }

  /// A scalar's text, unquoted.
  static func scalar(_ value: PlistValue) -> String {
    switch value {
    case .string(let s): s
    case .integer(let i): String(i)
    case .unsignedInteger(let u): String(u)
    case .real(let d): real(d)
    case .bool(let b): b ? "1" : "0"
    case .date(let date):
      PropertyList.describe(
        Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.rounded(.down)))
    case .data(let data): self.data(data)
    case .uid(let u): "<CFKeyedArchiverUID>{value = \(u)}"
    case .array, .dictionary: text(value)
    }
  }

  /// A double as `-[NSNumber description]` prints it: `%0.16g`.
  static func real(_ d: Double) -> String { ToolProcess.format(d, "%0.16g") }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// `{length = N, bytes = 0x…}`: every byte up to 24, else the first 16 and the last 8 in
  /// groups of four.
  static func data(_ data: Data) -> String {
    let bytes = [UInt8](data)
    func hex(_ slice: ArraySlice<UInt8>) -> String {
      var text: [UInt8] = []
      for byte in slice {
        text.append(hexDigits[Int(byte >> 4)])
        text.append(hexDigits[Int(byte & 0x0F)])
      }
      return String(decoding: text, as: UTF8.self)
    }
    guard bytes.count > 24 else { return "{length = \(bytes.count), bytes = 0x\(hex(bytes[...]))}" }
    let head = stride(from: 0, to: 16, by: 4).map { hex(bytes[$0..<$0 + 4]) }.joined(separator: " ")
    let tail = stride(from: bytes.count - 8, to: bytes.count, by: 4).map {
      hex(bytes[$0..<$0 + 4]) + " "
    }.joined()
    return "{length = \(bytes.count), bytes = 0x\(head) ... \(tail)}"
  }
}
