#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The package's JSON writer: one layout and one key order for every JSON text written with it,
/// a property-list value or any other tree.
///
/// - Key order: by the keys' UTF-8 bytes, the order of every property-list writer here,
///   CoreFoundation's and `plutil`'s (not Swift's `String` order, which compares canonically
///   equivalent text as equal and would put `"e\u{301}"` after `"f"`).
/// - Layout: two-space indentation, `"key": value`, one member or element a line, `[]` and
///   `{}` when empty; or, `compact`, no white space at all.
/// - Numbers: integers in decimal, reals as Swift prints a `Double` (the shortest text that
///   reads back as the same number: `0.5`, `1e+16`); never NaN or infinity.
/// - Strings: `"`, `\`, and control characters escaped (`\n`, `\u001f`), everything else as
///   UTF-8 (``appendQuoted(_:to:escapingSlashes:)``).
///
/// A property-list value is written by `write(_:mode:maxDepth:compact:)`; any other tree with
/// the building blocks `null()`, `bool(_:)`, `integer(_:)`, `unsigned(_:)`, `number(_:)`,
/// `string(_:)`, `array(count:_:)` and `object(keys:_:)`.
package struct JSONWriter {
  package enum Mode {
    /// Only what JSON holds without loss: strings, numbers, booleans, arrays, dictionaries.
    /// Dates, data, UIDs and non-finite reals are refused.
    case lossless
    /// A readable rendering for output: data as base64, dates as ISO 8601 strings, UIDs as
    /// `{"CF$UID": n}`. Non-finite reals are refused here too (one policy for every JSON
    /// output: JSON has no such number, and a string "nan" would read back as a string).
    case display
  }

  /// The JSON text written so far.
  package private(set) var text = ""
  private let compact: Bool
  /// How deep the next line is indented.
  private(set) var level = 0

  package init(compact: Bool = false) {
    self.compact = compact
  }

  // MARK: - Building blocks

  package mutating func null() { text += "null" }

  package mutating func bool(_ value: Bool) { text += value ? "true" : "false" }

  package mutating func integer(_ value: Int64) { text += String(value) }

  package mutating func unsigned(_ value: UInt64) { text += String(value) }

  /// A finite number (the caller refuses NaN and infinity: JSON has no such number).
  package mutating func number(_ value: Double) { text += value.description }

  package mutating func string(_ value: String) { Self.appendQuoted(value, to: &text) }

  /// An array of `count` elements: `element` writes the element at each index (with this
  /// writer's building blocks).
  package mutating func array(count: Int, _ element: (inout JSONWriter, Int) -> Void) {
    open(dictionary: false)
    for n in 0..<count {
      item(n)
      element(&self, n)
    }
    close(dictionary: false, count: count)
  }

  /// An object with `keys`, written in the one key order (by the keys' UTF-8 bytes): `value`
  /// writes the value of each key. (Not generic, and so not slowed by generic code across
  /// modules: the reports' JSON model writes a 100,000-key domain as fast as it did.)
  package mutating func object(keys: [String], _ value: (inout JSONWriter, String) -> Void) {
    // A few keys (a report's object) sort fastest in place; many, by their prefixes.
    let sorted =
      keys.count <= 32
      ? keys.sorted(by: PlistValue.utf8Precedes) : PlistValue.sortedOrder(keys).map { keys[$0] }
    open(dictionary: true)
    for (n, name) in sorted.enumerated() {
      item(n)
      key(name)
      value(&self, name)
    }
    close(dictionary: true, count: keys.count)
  }

  // MARK: - Layout

  private mutating func newline() {
    guard !compact else { return }
    text += "\n"
    text += String(repeating: "  ", count: level)
  }

  /// A container's opening bracket.
  mutating func open(dictionary: Bool) {
    text += dictionary ? "{" : "["
    level += 1
  }

  /// Before the `n`th element or member of the open container.
  mutating func item(_ n: Int) {
    if n > 0 { text += "," }
    newline()
  }

  mutating func key(_ name: String) {
    Self.appendQuoted(name, to: &text)
    text += compact ? ":" : ": "
  }

  /// Closes the container that holds `count` elements or members (`[]`, `{}` when none).
  mutating func close(dictionary: Bool, count: Int) {
    level -= 1
    if count > 0 { newline() }
    text += dictionary ? "}" : "]"
  }

  /// A JSON string literal of `s`: quotes, escapes.
  static func quoted(_ s: String, escapingSlashes: Bool = false) -> String {
    var text = ""
    appendQuoted(s, to: &text, escapingSlashes: escapingSlashes)
    return text
  }

  /// `s` as a JSON string literal, appended to `text`: `"` and `\` escaped with `\`, the
  /// control characters as `\n`, `\r`, `\t`, `\b`, `\f` or `\u001f`, everything else as it
  /// is; `escapingSlashes`, `/` as `\/` too, as Foundation's `JSONSerialization` writes it.
  package static func appendQuoted(
    _ s: String, to text: inout String, escapingSlashes: Bool = false
  ) {
    // Most strings need no escape: appended whole.
    guard
      s.utf8.contains(where: {
        $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || ($0 == 0x2F && escapingSlashes)
      })
    else {
      text += "\""
      text += s
      text += "\""
      return
    }
    // Escaped into a string of its own, then appended once (cheaper than growing a long text
    // scalar by scalar).
    var literal = "\""
    for scalar in s.unicodeScalars {
      switch scalar.value {
      case 0x22: literal += "\\\""
      case 0x5C: literal += "\\\\"
      case 0x2F where escapingSlashes: literal += "\\/"
      case 0x0A: literal += "\\n"
      case 0x0D: literal += "\\r"
      case 0x09: literal += "\\t"
      case 0x08: literal += "\\b"
      case 0x0C: literal += "\\f"
      case 0x00..<0x20: literal += "\\u" + scalar.value.hex(width: 4)
      default: literal.unicodeScalars.append(scalar)
      }
    }
    literal += "\""
    text += literal
  }

  // MARK: - Property lists

  /// `value` as JSON, in `mode`; a value the mode cannot show, or nested deeper than
  /// `maxDepth`, is refused naming its key path.
  static func write(_ value: PlistValue, mode: Mode, maxDepth: Int, compact: Bool = false)
    throws(PlistError) -> String
  {
    var writer = JSONWriter(compact: compact)
    var walk = PlistWalk(mode: mode, maxDepth: maxDepth)
    try walk.append(value, to: &writer)
    return writer.text
  }

  /// The walk of a property list through the writer, with the key path for errors.
  struct PlistWalk {
    let mode: Mode
    let maxDepth: Int
    var path: [ValuePath.Component] = []

    func refuse(_ reason: String) -> PlistError {
      .unrepresentableInJSON(keyPath: ValuePath(path).description, reason: reason)
    }

    mutating func append(_ value: PlistValue, to out: inout JSONWriter) throws(PlistError) {
      switch value {
      case .string(let s): out.string(s)
      case .integer(let i): out.integer(i)
      case .unsignedInteger(let u): out.unsigned(u)
      case .bool(let b): out.bool(b)
      case .real(let d):
        guard d.isFinite else { throw refuse("JSON has no number \(d)") }
        out.number(d)
      case .date(let date):
        guard mode == .display else { throw refuse("JSON has no date type") }
        out.string(CivilTime.iso8601(date))
      case .data(let data):
        guard mode == .display else { throw refuse("JSON has no data type") }
        out.string(data.base64EncodedString())
      case .uid(let u):
        guard mode == .display else { throw refuse("JSON has no UID type") }
        out.open(dictionary: true)
        out.item(0)
        out.key("CF$UID")
        out.unsigned(u)
        out.close(dictionary: true, count: 1)
      case .array(let elements):
        guard out.level < maxDepth else { throw refuse("nesting deeper than \(maxDepth) levels") }
        out.open(dictionary: false)
        for (i, element) in elements.enumerated() {
          out.item(i)
          path.append(.index(i))
          try append(element, to: &out)
          path.removeLast()
        }
        out.close(dictionary: false, count: elements.count)
      case .dictionary(let dictionary):
        guard out.level < maxDepth else { throw refuse("nesting deeper than \(maxDepth) levels") }
        out.open(dictionary: true)
        var n = 0
        try dictionary.forEachSortedByKey { (key, element) throws(PlistError) in
          out.item(n)
          out.key(key)
          path.append(.key(key))
          try append(element, to: &out)
          path.removeLast()
          n += 1
        }
        out.close(dictionary: true, count: n)
      }
    }
  }
}

/// JSON straight from a binary file's objects, through the writer's own containers and its
/// walk's scalars (the streaming converter's sink).
struct JSONStreamSink: StreamSink {
  private var writer = JSONWriter(compact: false)
  private var walk: JSONWriter.PlistWalk
  var keysInUTF16Order: Bool { false }
  var refusesLoneUIDKey: Bool { false }

  init(lossless: Bool, maxDepth: Int) {
    walk = JSONWriter.PlistWalk(mode: lossless ? .lossless : .display, maxDepth: maxDepth)
  }

  mutating func scalar(_ scalar: StreamScalar, indent: Int) throws(PlistError) {
    try walk.append(scalar.plistValue, to: &writer)
  }

  mutating func open(dictionary: Bool, count: Int, indent: Int) {
    writer.open(dictionary: dictionary)
  }

  mutating func entry(_ n: Int, of count: Int, dictionary: Bool, indent: Int) { writer.item(n) }

  mutating func key(_ key: StreamKey, indent: Int) { writer.key(key.string) }

  mutating func endEntry(_ n: Int, of count: Int, dictionary: Bool) {}

  mutating func close(dictionary: Bool, count: Int, indent: Int) {
    writer.close(dictionary: dictionary, count: count)
  }

  mutating func finish() -> Data { Data(writer.text.utf8) }

  mutating func discard() {}
}
