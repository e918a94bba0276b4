#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Writes Apple's XML plist format as CoreFoundation lays it out (tab indentation, sorted keys).
///
/// What XML cannot carry is refused rather than written wrongly: control characters other
/// than tab, newline and carriage return (carriage return is written as `&#13;` so that no
/// parser turns it into a newline), a string or key starting with U+FEFF (readers drop it),
/// and dates with a fraction of a second or a year outside 0...9999, which the `<date>` form
/// cannot hold.
struct XMLPlistWriter {
  private var out: [UInt8] = []
  private var path: [ValuePath.Component] = []
  private let maxDepth: Int

  static let header = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">

    """

  static func write(_ value: PlistValue, maxDepth: Int) throws(PlistError) -> Data {
    var writer = XMLPlistWriter(maxDepth: maxDepth)
    // Room for a typical entry of each top-level container's (about 60 bytes in XML): a large
    // domain is written without the buffer growing (and being copied) a dozen times.
    let entries =
      switch value {
      case .dictionary(let d): d.count
      case .array(let a): a.count
      default: 0
      }
    writer.out.reserveCapacity(4096 + entries * 64)
    writer.out.append(contentsOf: header.utf8)
    try writer.append(value, indent: 0)
    writer.out.append(contentsOf: "</plist>\n".utf8)
    return Data(writer.out)
  }

  private init(maxDepth: Int) { self.maxDepth = maxDepth }

  private func refuse(_ reason: String) -> PlistError {
    .unrepresentable(format: .xml, keyPath: ValuePath(path).description, reason: reason)
  }

  private mutating func tabs(_ n: Int) {
    for _ in 0..<n { out.append(0x09) }
  }

  @inline(__always)
  private mutating func bytes(_ text: StaticString) {
    text.withUTF8Buffer { out.append(contentsOf: $0) }
  }

  private mutating func line(_ text: StaticString, indent: Int) {
    tabs(indent)
    bytes(text)
    out.append(0x0A)
  }

  private mutating func dataLine(_ text: Substring, indent: Int) {
    tabs(indent)
    out.append(contentsOf: text.utf8)
    out.append(0x0A)
  }

  /// `<tag>` on its own line's indentation.
  private mutating func open(_ tag: StaticString, indent: Int) {
    tabs(indent)
    out.append(0x3C)
    bytes(tag)
    out.append(0x3E)
  }

  /// `</tag>` and the end of the line.
  private mutating func close(_ tag: StaticString) {
    out.append(contentsOf: [0x3C, 0x2F])
    bytes(tag)
    out.append(contentsOf: [0x3E, 0x0A])
  }

  /// `<tag>text</tag>` for a text that needs no escaping (numbers).
  private mutating func element(_ tag: StaticString, _ text: String, indent: Int) {
    open(tag, indent: indent)
    out.append(contentsOf: text.utf8)
    close(tag)
  }

  private mutating func escapedElement(_ tag: StaticString, _ text: String, indent: Int)
    throws(PlistError)
  {
    open(tag, indent: indent)
    // Most text needs no escaping: copied as it is, after one pass over its bytes.
    let copied: Bool? = text.utf8.withContiguousStorageIfAvailable { buffer in
      for byte in buffer {
        switch byte {
        case 0x26, 0x3C, 0x3E, 0x00..<0x09, 0x0B..<0x20, 0xEF: return false
        default: continue
        }
      }
      out.append(contentsOf: buffer)
      return true
    }
    if copied != true { try escape(text, tag: tag) }
    close(tag)
  }

  /// Text with a character XML must escape or cannot hold.
  private mutating func escape(_ text: String, tag: StaticString) throws(PlistError) {
    if text.unicodeScalars.first == "\u{FEFF}" {
      throw refuse(
        "a \(tag.description == "key" ? "key" : "string") that starts with U+FEFF, which XML "
          + "readers drop (binary keeps it)")
    }
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x26: out.append(contentsOf: "&amp;".utf8)
      case 0x3C: out.append(contentsOf: "&lt;".utf8)
      case 0x3E: out.append(contentsOf: "&gt;".utf8)
      case 0x0D: out.append(contentsOf: "&#13;".utf8)
      case 0x09, 0x0A: out.append(UInt8(scalar.value))
      case 0x00..<0x20, 0xFFFE, 0xFFFF:
        throw refuse(
          "the character \(scalar.codePoint) is not allowed in XML 1.0")
      case 0x20..<0x80: out.append(UInt8(scalar.value))
      default: out.append(contentsOf: String(Character(scalar)).utf8)
      }
    }
  }

  private mutating func append(_ value: PlistValue, indent: Int) throws(PlistError) {
    switch value {
    case .string(let s): try escapedElement("string", s, indent: indent)
    case .integer(let i): element("integer", String(i), indent: indent)
    case .unsignedInteger(let u): element("integer", String(u), indent: indent)
    case .real(let d): element("real", Self.realText(d), indent: indent)
    case .bool(let b): line(b ? "<true/>" : "<false/>", indent: indent)
    case .date(let date):
      open("date", indent: indent)
      guard CivilTime.appendXML(date, to: &out) else {
        throw refuse(
          "the date \(CivilTime.iso8601(date)) has a fraction of a second or a year outside "
            + "0...9999, which an XML <date> cannot hold (binary can)")
      }
      close("date")
    case .data(let data):
      line("<data>", indent: indent)
      let encoded = data.base64EncodedString()
      let width = 68
      var start = encoded.startIndex
      while start < encoded.endIndex {
        let end =
          encoded.index(start, offsetBy: width, limitedBy: encoded.endIndex) ?? encoded.endIndex
        dataLine(encoded[start..<end], indent: indent)
        start = end
      }
      line("</data>", indent: indent)
    case .uid(let u):
      line("<dict>", indent: indent)
      element("key", "CF$UID", indent: indent + 1)
      element("integer", String(u), indent: indent + 1)
      line("</dict>", indent: indent)
    case .array(let elements):
      guard indent < maxDepth else { throw refuse("nesting deeper than \(maxDepth) levels") }
      if elements.isEmpty {
        line("<array/>", indent: indent)
        return
      }
      line("<array>", indent: indent)
      for (i, element) in elements.enumerated() {
        path.append(.index(i))
        try append(element, indent: indent + 1)
        path.removeLast()
      }
      line("</array>", indent: indent)
    case .dictionary(let dictionary):
      guard indent < maxDepth else { throw refuse("nesting deeper than \(maxDepth) levels") }
      if dictionary.count == 1, let only = dictionary["CF$UID"], only.isInteger {
        throw refuse(
          "a dictionary holding only the integer \"CF$UID\" reads back from XML as a UID "
            + "(CoreFoundation's rule); binary can hold it")
      }
      if dictionary.isEmpty {
        line("<dict/>", indent: indent)
        return
      }
      line("<dict>", indent: indent)
      try dictionary.forEachSortedByKey { (key, element) throws(PlistError) in
        path.append(.key(key))
        try escapedElement("key", key, indent: indent + 1)
        try append(element, indent: indent + 1)
        path.removeLast()
      }
      line("</dict>", indent: indent)
    }
  }

  /// The shortest text that reads back as the same double; CoreFoundation's words for the
  /// non-finite values.
  static func realText(_ d: Double) -> String {
    if d.isNaN { return "nan" }
    if d.isInfinite { return d < 0 ? "-infinity" : "+infinity" }
    return d.description
  }
}
