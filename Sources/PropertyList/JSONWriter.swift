#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Writes a property list as JSON: sorted keys, two-space indentation, byte-stable.
struct JSONWriter {
  enum Mode {
    /// Only what JSON holds without loss: strings, numbers, booleans, arrays, dictionaries.
    /// Dates, data, UIDs and non-finite reals are refused.
    case lossless
    /// A readable rendering for output: data as base64, dates as ISO 8601 strings, UIDs as
    /// `{"CF$UID": n}`. Non-finite reals are refused here too (one policy for every JSON
    /// output: JSON has no such number, and a string "nan" would read back as a string).
    case display
  }

  private var out = ""
  private var path: [ValuePath.Component] = []
  private let mode: Mode
  private let maxDepth: Int
  private let compact: Bool

  static func write(_ value: PlistValue, mode: Mode, maxDepth: Int, compact: Bool = false)
    throws(PlistError) -> String
  {
    var writer = JSONWriter(mode: mode, maxDepth: maxDepth, compact: compact)
    try writer.append(value, indent: 0)
    return writer.out
  }

  private init(mode: Mode, maxDepth: Int, compact: Bool) {
    self.mode = mode
    self.maxDepth = maxDepth
    self.compact = compact
  }

  private func refuse(_ reason: String) -> PlistError {
    .unrepresentableInJSON(keyPath: ValuePath(path).description, reason: reason)
  }

  private mutating func newline(_ indent: Int) {
    guard !compact else { return }
    out += "\n"
    out += String(repeating: "  ", count: indent)
  }

  static func quoted(_ s: String) -> String {
    var text = "\""
    for scalar in s.unicodeScalars {
      switch scalar.value {
      case 0x22: text += "\\\""
      case 0x5C: text += "\\\\"
      case 0x0A: text += "\\n"
      case 0x0D: text += "\\r"
      case 0x09: text += "\\t"
      case 0x08: text += "\\b"
      case 0x0C: text += "\\f"
      case 0x00..<0x20: text += "\\u" + scalar.value.hex(width: 4)
      default: text.unicodeScalars.append(scalar)
      }
    }
    return text + "\""
  }

  private mutating func append(_ value: PlistValue, indent: Int) throws(PlistError) {
    switch value {
    case .string(let s): out += Self.quoted(s)
    case .integer(let i): out += String(i)
    case .unsignedInteger(let u): out += String(u)
    case .bool(let b): out += b ? "true" : "false"
    case .real(let d):
      guard d.isFinite else { throw refuse("JSON has no number \(d)") }
      out += d.description
    case .date(let date):
      guard mode == .display else { throw refuse("JSON has no date type") }
      out += Self.quoted(CivilTime.iso8601(date))
    case .data(let data):
      guard mode == .display else { throw refuse("JSON has no data type") }
      out += Self.quoted(data.base64EncodedString())
    case .uid(let u):
      guard mode == .display else { throw refuse("JSON has no UID type") }
      out += "{\"CF$UID\": \(u)}"
    case .array(let elements):
      guard indent < maxDepth else { throw refuse("nesting deeper than \(maxDepth) levels") }
      if elements.isEmpty {
        out += "[]"
        return
      }
      out += "["
      for (i, element) in elements.enumerated() {
        newline(indent + 1)
        path.append(.index(i))
        try append(element, indent: indent + 1)
        path.removeLast()
        if i < elements.count - 1 { out += "," }
      }
      newline(indent)
      out += "]"
    case .dictionary(let dictionary):
      guard indent < maxDepth else { throw refuse("nesting deeper than \(maxDepth) levels") }
      if dictionary.isEmpty {
        out += "{}"
        return
      }
      out += "{"
      let sorted = dictionary.sortedByKey
      for (n, (key, element)) in sorted.enumerated() {
        newline(indent + 1)
        out += Self.quoted(key)
        out += compact ? ":" : ": "
        path.append(.key(key))
        try append(element, indent: indent + 1)
        path.removeLast()
        if n < sorted.count - 1 { out += "," }
      }
      newline(indent)
      out += "}"
    }
  }
}
