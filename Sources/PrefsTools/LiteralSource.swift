import LegacyDefaults
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

/// A property list as Swift or Objective-C source, as `plutil -convert swift|objc [-header]`
/// writes it: a constant named after the input file, holding the value as a literal
/// (dictionaries in ``KeyOrder``, four spaces an indentation level, a real as `%f`).
package enum LiteralSource {
  /// Swift source: `let NAME = …` (annotated `[String : Any]` or `[Any]` when the top-level
  /// container holds values of more than one type). Data is `Data(bytes: [0x01,…])`, a date
  /// `Date(timeIntervalSinceReferenceDate: …)`. `source`: the input's path.
  package static func swift(_ value: PlistValue, source: String) -> String {
    var out = "/// Generated from \(lastComponent(source))\nlet \(variableName(source))"
    switch value {
    case .dictionary(let d) where Set(d.values.map(typeName)).count > 1:
      out += " : [String : Any]"
    case .array(let a) where Set(a.map(typeName)).count > 1:
      out += " : [Any]"
    default: break
    }
    out += " = "
    append(value, as: .swift, to: &out, depth: 0, indent: true)
    return out + "\n"
  }

  /// The two languages' literal syntax, told apart where they differ: Objective-C boxes
  /// each literal (`@1`, `@"s"`, `@[…]`, `@{…}`) and holds no dates, data or UIDs.
  private enum Language { case swift, objc }

  private static func append(
    _ value: PlistValue, as language: Language, to out: inout String, depth: Int, indent: Bool
  ) {
    if indent { out += indentation(depth) }
    let box = language == .objc ? "@" : ""
    switch value {
    case .bool(let b): out += language == .objc ? (b ? "@YES" : "@NO") : (b ? "true" : "false")
    case .integer(let i): out += box + String(i)
    case .unsignedInteger(let u): out += box + String(u)
    case .real(let d): out += box + fixed(d)
    case .string(let s):
      let text = language == .swift ? escaped(s).replacingScalars("\n", with: "\\n") : escaped(s)
      out += box + "\"" + text + "\""
    case .array(let a):
      out += box + "[\n"
      for element in a {
        append(element, as: language, to: &out, depth: depth + 1, indent: true)
        out += ",\n"
      }
      out += indentation(depth) + "]"
    case .dictionary(let d):
      out += box + (language == .swift ? "[" : "{") + "\n"
      for key in KeyOrder.sorted(d.keys) {
        out += indentation(depth + 1) + box + "\"\(key)\" : "
        if let member = d[key] {
          append(member, as: language, to: &out, depth: depth + 1, indent: false)
        }
        out += ",\n"
      }
      out += indentation(depth) + (language == .swift ? "]" : "}")
    case .data(let data) where language == .swift:
      out += "Data(bytes: ["
      for byte in data { out += "0x" + byte.hex(width: 2, uppercase: true) + "," }
      out += "])"
    case .date(let date) where language == .swift:
      out += "Date(timeIntervalSinceReferenceDate: \(date.timeIntervalSinceReferenceDate))"
    case .uid(let u) where language == .swift: out += String(u)
    case .date, .data, .uid: break
    }
  }

  /// Whether Objective-C literals hold `value`: no dates, data or UIDs anywhere.
  package static func objcCanHold(_ value: PlistValue) -> Bool {
    switch value {
    case .string, .integer, .unsignedInteger, .real, .bool: true
    case .date, .data, .uid: false
    case .array(let a): a.allSatisfy(objcCanHold)
    case .dictionary(let d): d.values.allSatisfy(objcCanHold)
    }
  }

  /// Objective-C source: `NSDictionary * const NAME = @{…};` (hidden visibility), after an
  /// `#import` of the header that `-header` writes beside `output` (none when `output` is
  /// standard output, `-`). The caller checks ``objcCanHold(_:)`` first.
  package static func objc(_ value: PlistValue, source: String, output: String) -> String {
    var out = declaration(value, source: source, output: output, header: false)
    append(value, as: .objc, to: &out, depth: 0, indent: true)
    return out + ";\n"
  }

  /// The header `-header` writes: the constant's `extern` declaration.
  package static func objcHeader(_ value: PlistValue, source: String, output: String) -> String {
    declaration(value, source: source, output: output, header: true) + ";\n"
  }

  private static func declaration(
    _ value: PlistValue, source: String, output: String, header: Bool
  ) -> String {
    let type =
      switch value {
      case .string: "NSString"
      case .array: "NSArray"
      case .dictionary: "NSDictionary"
      default: "NSNumber"
      }
    var out = ""
    if header {
      out += "#import <Foundation/Foundation.h>\n\n"
    } else if output != "-" {
      out += "#import \"\(stem(lastComponent(output))).h\"\n\n"
    }
    out += "/// Generated from \(lastComponent(source))\n"
    out += "__attribute__((visibility(\"hidden\")))\n"
    if header { out += "extern " }
    out += "\(type) * const \(variableName(source))"
    if !header { out += " = " }
    return out
  }

  /// The type `plutil -type` names (a UID: `(any)`).
  package static func typeName(_ value: PlistValue) -> String {
    switch value {
    case .bool: "bool"
    case .integer, .unsignedInteger: "integer"
    case .real: "float"
    case .string: "string"
    case .array: "array"
    case .dictionary: "dictionary"
    case .date: "date"
    case .data: "data"
    case .uid: "(any)"
    }
  }

  /// A real as C's `%f` prints it (six decimals, correctly rounded).
  package static func fixed(_ value: Double) -> String {
    ToolProcess.format(value, "%f")
  }

  /// plutil's escapes in a string literal: `"` and a backslash before `b s w . | * ) (`.
  private static func escaped(_ s: String) -> String {
    var result = s
    for escape in ["\\b", "\\s", "\"", "\\w", "\\.", "\\|", "\\*", "\\)", "\\("] {
      result = result.replacingScalars(escape, with: "\\" + escape)
    }
    return result
  }

  private static func indentation(_ depth: Int) -> String {
    String(repeating: " ", count: 4 * depth)
  }

  /// The constant's name: the input file's name without its extension, `-` and spaces as
  /// `_`, symbols and control characters left out.
  static func variableName(_ path: String) -> String {
    let name = stem(lastComponent(path)).replacingScalars("-", with: "_")
      .replacingScalars(" ", with: "_")
    var kept = String.UnicodeScalarView()
    for scalar in name.unicodeScalars {
      switch scalar.properties.generalCategory {
      case .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol, .control, .format:
        continue
      default: kept.append(scalar)
      }
    }
    return String(kept)
  }

  /// The last component of a path, as `URL(fileURLWithPath:)` names it.
  package static func lastComponent(_ path: String) -> String { FilePathParts(path).name }

  /// A name without its extension (the text after its last dot, unless the dot starts it).
  static func stem(_ name: String) -> String {
    guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else {
      return name
    }
    return String(name[..<dot])
  }

  /// `path` with its extension replaced by `ext`, as plutil does it: the text after the last
  /// dot anywhere in the path (unless the dot starts it); a path without one is unchanged.
  package static func replacingExtension(of path: String, with ext: String) -> String {
    guard path != ".", path != "..", let dot = path.utf8.lastIndex(of: UInt8(ascii: ".")),
      dot != path.startIndex
    else { return path }
    return String(path[...dot]) + ext
  }
}

extension String {
  /// Every occurrence of `target` replaced by `replacement`, matched scalar by scalar from the
  /// start (as Foundation's `replacingOccurrences(of:with:)` matches text without combining
  /// marks; FoundationEssentials has no such method).
  package func replacingScalars(_ target: String, with replacement: String) -> String {
    let pattern = Array(target.unicodeScalars)
    guard !pattern.isEmpty else { return self }
    let scalars = Array(unicodeScalars)
    var result = String.UnicodeScalarView()
    var index = 0
    while index < scalars.count {
      if scalars[index] == pattern[0], index + pattern.count <= scalars.count,
        Array(scalars[index..<(index + pattern.count)]) == pattern
      {
        result.append(contentsOf: replacement.unicodeScalars)
        index += pattern.count
      } else {
        result.append(scalars[index])
        index += 1
      }
    }
    return String(result)
  }
}
