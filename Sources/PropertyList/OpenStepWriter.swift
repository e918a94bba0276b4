#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Writes the NeXT/OpenStep text format, in three flavours:
/// - ``Style/openStep``: strings, data, arrays and dictionaries only; anything else is refused.
/// - ``Style/gnustep``: adds GNUstep's typed values (`<*I42>`, `<*R1.5>`, `<*BY>`, `<*D…>`).
/// - ``Style/description``: what `defaults read` shows a person; never refused, never parsed.
///
/// Non-ASCII characters are written as `\UXXXX` escapes so that every reader, whatever text
/// encoding it assumes, reads the same string.
struct OpenStepWriter {
  enum Style {
    case openStep
    case gnustep
    case description
  }

  var out = ""
  private var path: [ValuePath.Component] = []
  private let style: Style
  private let maxDepth: Int

  init(style: Style, maxDepth: Int) {
    self.style = style
    self.maxDepth = maxDepth
  }

  static func write(_ value: PlistValue, style: Style, maxDepth: Int) throws(PlistError) -> String {
    var writer = OpenStepWriter(style: style, maxDepth: maxDepth)
    try writer.append(value, indent: 0)
    if style != .description { writer.out += "\n" }
    return writer.out
  }

  private var format: PlistFormat { style == .gnustep ? .gnustep : .openStep }

  private func refuse(_ value: PlistValue) -> PlistError {
    let hint =
      style == .openStep
      ? " (OpenStep text holds only strings, data, arrays and dictionaries; "
        + "the GNUstep flavour, XML or binary can hold it)"
      : ""
    return .unrepresentable(
      format: format, keyPath: ValuePath(path).description,
      reason: "\(value.typeName.withArticle) value\(hint)")
  }

  /// A string or key, quoted when it needs it. One starting with U+FEFF is refused (not in a
  /// description): GNUstep's reader drops it, escaped or not, so the text would not read back.
  mutating func appendString(_ s: String) throws(PlistError) {
    if style != .description, s.unicodeScalars.first == "\u{FEFF}" {
      throw .unrepresentable(
        format: format, keyPath: ValuePath(path).description,
        reason: "a string starting with U+FEFF, which GNUstep's reader drops")
    }
    out += Self.quoted(s, always: false)
  }

  mutating func newline(_ indent: Int) {
    out += "\n"
    out += String(repeating: "    ", count: indent)
  }

  mutating func append(_ value: PlistValue, indent: Int) throws(PlistError) {
    switch value {
    case .string(let s):
      try appendString(s)
    case .data(let d):
      if style == .description {
        out += "{length = \(d.count), bytes = 0x\(Self.hex(d))}"
      } else {
        out += "<\(Self.hex(d, groups: true))>"
      }
    case .integer, .unsignedInteger, .real, .bool:
      switch style {
      case .openStep: throw refuse(value)
      case .description: out += Self.describeScalar(value)
      case .gnustep:
        switch value {
        case .integer(let i): out += "<*I\(i)>"
        case .unsignedInteger(let u): out += "<*I\(u)>"
        case .real(let d): out += "<*R\(d.description)>"
        case .bool(let b): out += b ? "<*BY>" : "<*BN>"
        default: break
        }
      }
    case .date(let date):
      switch style {
      case .openStep: throw refuse(value)
      case .description: out += Self.quoted(Self.describeScalar(value), always: true)
      case .gnustep:
        guard let text = CivilTime.gnustepString(date) else {
          throw .unrepresentable(
            format: .gnustep, keyPath: ValuePath(path).description,
            reason: "the date \(CivilTime.iso8601(date)) has a fraction of a second or a year "
              + "outside 0...9999, which GNUstep's <*D…> form cannot hold")
        }
        out += "<*D\(text)>"
      }
    case .uid(let u):
      guard style == .description else { throw refuse(value) }
      out += "<CFKeyedArchiverUID>{value = \(u)}"
    case .array(let elements):
      guard indent < maxDepth else { throw tooDeep() }
      if elements.isEmpty {
        out += "()"
        return
      }
      out += "("
      for (i, element) in elements.enumerated() {
        newline(indent + 1)
        path.append(.index(i))
        try append(element, indent: indent + 1)
        path.removeLast()
        if i < elements.count - 1 { out += "," }
      }
      newline(indent)
      out += ")"
    case .dictionary(let dictionary):
      guard indent < maxDepth else { throw tooDeep() }
      if dictionary.isEmpty {
        out += "{}"
        return
      }
      out += "{"
      for (key, element) in dictionary.sortedByKey {
        newline(indent + 1)
        path.append(.key(key))
        try appendString(key)
        out += " = "
        try append(element, indent: indent + 1)
        path.removeLast()
        out += ";"
      }
      newline(indent)
      out += "}"
    }
  }

  private func tooDeep() -> PlistError {
    .unrepresentable(
      format: format, keyPath: ValuePath(path).description,
      reason: "nesting deeper than \(maxDepth) levels")
  }

  /// A scalar as `-[NSObject description]` shows it: used for `defaults read` output and for
  /// non-string dictionary keys.
  static func describeScalar(_ value: PlistValue) -> String {
    switch value {
    case .string(let s): s
    case .integer(let i): String(i)
    case .unsignedInteger(let u): String(u)
    case .real(let d): d.description
    case .bool(let b): b ? "1" : "0"
    case .date(let date): CivilTime.gnustepString(date) ?? CivilTime.iso8601(date)
    case .data(let d): "{length = \(d.count), bytes = 0x\(hex(d))}"
    case .uid(let u): "<CFKeyedArchiverUID>{value = \(u)}"
    case .array, .dictionary: ""
    }
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  static func hex(_ data: Data, groups: Bool = false) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(data.count * 2 + data.count / 4)
    for (i, byte) in data.enumerated() {
      if groups, i > 0, i % 4 == 0 { bytes.append(0x20) }
      bytes.append(hexDigits[Int(byte >> 4)])
      bytes.append(hexDigits[Int(byte & 0x0F)])
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Characters that may stand in an unquoted OpenStep string (CoreFoundation's set).
  static func isUnquotedCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"),
      UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"):
      true
    default: false
    }
  }

  /// The string as an OpenStep token: bare when every character may stand unquoted and it
  /// does not start with `//` (which a reader takes for a comment: CoreFoundation's and
  /// GNUstep's alike), else in double quotes with C escapes and `\UXXXX` for everything
  /// outside printable ASCII.
  static func quoted(_ s: String, always: Bool) -> String {
    if !always, !s.isEmpty, s.utf8.allSatisfy(isUnquotedCharacter),
      !s.utf8.starts(with: "//".utf8)
    {
      return s
    }
    var text = "\""
    for unit in s.utf16 {
      switch unit {
      case 0x22: text += "\\\""
      case 0x5C: text += "\\\\"
      case 0x0A: text += "\\n"
      case 0x09: text += "\\t"
      case 0x0D: text += "\\r"
      case 0x20..<0x7F: text.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
      default: text += "\\U" + unit.hex(width: 4)
      }
    }
    return text + "\""
  }
}
