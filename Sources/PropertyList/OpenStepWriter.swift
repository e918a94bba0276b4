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
    if style != .description { writer.endDocument() }
    return writer.out
  }

  /// A file's last line ends.
  mutating func endDocument() { out += "\n" }

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

  /// A string or key, quoted when it needs it. One starting with U+FEFF or U+FFFE is refused
  /// (not in a description): GNUstep's reader drops a U+FEFF, escaped or not, and takes a
  /// U+FFFE for a byte-swapped mark (the rest comes back byte-swapped), so the text would not
  /// read back.
  mutating func appendString(_ s: String) throws(PlistError) {
    if style != .description, let first = s.unicodeScalars.first,
      first == "\u{FEFF}" || first == "\u{FFFE}"
    {
      throw .unrepresentable(
        format: format, keyPath: ValuePath(path).description,
        reason: first == "\u{FEFF}"
          ? "a string starting with U+FEFF, which GNUstep's reader drops"
          : "a string starting with U+FFFE, which GNUstep's reader takes for a byte-swapped "
            + "byte-order mark (the rest comes back byte-swapped)")
    }
    out += Self.quoted(s, .plist)
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
      case .description: out += Self.quoted(Self.describeScalar(value), .always)
      case .gnustep:
        guard let text = CivilTime.gnustepString(date) else {
          throw .unrepresentable(
            format: .gnustep, keyPath: ValuePath(path).description,
            reason: "the date \(CivilTime.iso8601(date)) has a fraction of a second or a year "
              + "outside 0...9999, which GNUstep's <*D…> form cannot hold")
        }
        // What GNUstep's reader does not give back: year 0 (it reads year 1, 366 days later)
        // and -0.0 (+0.0).
        let seconds = date.timeIntervalSinceReferenceDate
        if text.hasPrefix("0000-") || (seconds == 0 && seconds.sign == .minus) {
          throw .unrepresentable(
            format: .gnustep, keyPath: ValuePath(path).description,
            reason: text.hasPrefix("0000-")
              ? "the date \(CivilTime.iso8601(date)) is in year 0, which GNUstep's reader takes "
                + "for year 1 (366 days later); binary holds it"
              : "the date -0.0 seconds from 2001, whose sign GNUstep's <*D…> form cannot hold; "
                + "binary holds it")
        }
        out += "<*D\(text)>"
      }
    case .uid(let u):
      guard style == .description else { throw refuse(value) }
      out += "<CFKeyedArchiverUID>{value = \(u)}"
    case .array(let elements):
      guard indent < maxDepth else { throw tooDeep() }
      open(dictionary: false, count: elements.count, indent: indent)
      for (i, element) in elements.enumerated() {
        entry(i, of: elements.count, dictionary: false, indent: indent)
        path.append(.index(i))
        try append(element, indent: indent + 1)
        path.removeLast()
        endEntry(i, of: elements.count, dictionary: false)
      }
      close(dictionary: false, count: elements.count, indent: indent)
    case .dictionary(let dictionary):
      guard indent < maxDepth else { throw tooDeep() }
      open(dictionary: true, count: dictionary.count, indent: indent)
      for (n, (key, element)) in dictionary.sortedByKey.enumerated() {
        entry(n, of: dictionary.count, dictionary: true, indent: indent)
        path.append(.key(key))
        try self.key(key)
        try append(element, indent: indent + 1)
        path.removeLast()
        endEntry(n, of: dictionary.count, dictionary: true)
      }
      close(dictionary: true, count: dictionary.count, indent: indent)
    }
  }

  // MARK: - Containers

  /// A container's opening: `{`, `(`, or its whole text when empty (`{}`, `()`).
  mutating func open(dictionary: Bool, count: Int, indent: Int) {
    out += dictionary ? (count == 0 ? "{}" : "{") : (count == 0 ? "()" : "(")
  }

  /// Before entry `n`: its own line, one level deeper.
  mutating func entry(_ n: Int, of count: Int, dictionary: Bool, indent: Int) {
    newline(indent + 1)
  }

  /// A dictionary's key and ` = `.
  mutating func key(_ key: String) throws(PlistError) {
    try appendString(key)
    out += " = "
  }

  /// After entry `n`'s value: `;` in a dictionary, `,` between an array's elements.
  mutating func endEntry(_ n: Int, of count: Int, dictionary: Bool) {
    if dictionary {
      out += ";"
    } else if n < count - 1 {
      out += ","
    }
  }

  /// A container's closing bracket on its own line (none when it was empty).
  mutating func close(dictionary: Bool, count: Int, indent: Int) {
    guard count > 0 else { return }
    newline(indent)
    out += dictionary ? "}" : ")"
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
    case .date(let date): CivilTime.described(date)
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

  /// The string as an OpenStep token, as `quoting` says which strings stand bare; in quotes,
  /// C escapes (`\"`, `\\`, `\n`, `\t`, `\r`) and `\UXXXX` (``OpenStepQuoting/defaultsRead``:
  /// `\\Uxxxx`) for each UTF-16 unit outside printable ASCII.
  static func quoted(_ s: String, _ quoting: OpenStepQuoting) -> String {
    let bare =
      switch quoting {
      case .plist:
        s.utf8.allSatisfy(isUnquotedCharacter) && !s.utf8.starts(with: "//".utf8)
      case .always: false
      case .defaultsRead:
        s.utf8.allSatisfy {
          (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
        }
      }
    if bare, !s.isEmpty { return s }
    let unicodeEscape = quoting == .defaultsRead ? "\\\\U" : "\\U"
    var text = "\""
    for unit in s.utf16 {
      switch unit {
      case 0x22: text += "\\\""
      case 0x5C: text += "\\\\"
      case 0x0A: text += "\\n"
      case 0x09: text += "\\t"
      case 0x0D: text += "\\r"
      case 0x20..<0x7F: text.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
      default: text += unicodeEscape + unit.hex(width: 4)
      }
    }
    return text + "\""
  }
}

/// Which OpenStep strings stand bare, and how a character outside printable ASCII is escaped
/// in quotes.
package enum OpenStepQuoting: Sendable {
  /// As CoreFoundation and GNUstep write and read OpenStep text: bare when every character may
  /// stand unquoted (ASCII letters and digits, `_ $ / : . -`) and it does not start with `//`
  /// (which either reader takes for a comment); `\UXXXX` in quotes.
  case plist
  /// Always in quotes, `\UXXXX`.
  case always
  /// As macOS `defaults read` prints a string inside a collection: bare only when ASCII
  /// letters and digits; in quotes `\\Uxxxx`, a doubled backslash (`"Safari\\U6d4f"`).
  case defaultsRead
}

/// OpenStep or GNUstep text straight from a binary file's objects, through the writer's own
/// containers (the streaming converter's sink).
extension OpenStepWriter: StreamSink {
  var keysInUTF16Order: Bool { false }
  var refusesLoneUIDKey: Bool { false }

  mutating func scalar(_ scalar: StreamScalar, indent: Int) throws(PlistError) {
    try append(scalar.plistValue, indent: indent)
  }

  mutating func key(_ key: StreamKey, indent: Int) throws(PlistError) {
    try self.key(key.string)
  }

  mutating func finish() -> Data {
    endDocument()
    return Data(out.utf8)
  }

  mutating func discard() {}
}
