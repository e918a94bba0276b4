#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where in the input something happened: a byte offset for binary data, a line and column
/// (both 1-based) for text.
public enum SourceLocation: Sendable, Hashable, CustomStringConvertible {
  case byteOffset(Int)
  case line(Int, column: Int)

  public var description: String {
    switch self {
    case .byteOffset(let offset): "byte offset \(offset)"
    case .line(let line, let column): "line \(line), column \(column)"
    }
  }
}

/// A safety limit that an input went past.
public enum PlistLimit: Sendable, Hashable, CustomStringConvertible {
  /// Containers nested deeper than this.
  case depth(Int)
  /// More values (counting every use of a shared binary object) than this.
  case objects(Int)
  /// An input larger than this many bytes.
  case inputBytes(Int)
  /// A document that expands (through shared binary objects) to more than `factor` times its
  /// `inputBytes`, past the activation threshold of `threshold` expanded bytes.
  case amplification(factor: Int, inputBytes: Int, threshold: Int)

  public var description: String {
    switch self {
    case .depth(let n): "nesting deeper than \(n) levels"
    case .objects(let n): "more than \(n) values"
    case .inputBytes(let n): "input larger than \(n) bytes"
    case .amplification(let factor, let inputBytes, let threshold):
      "its \(inputBytes) bytes expand (through shared objects) to more than \(factor) times "
        + "their size, past \(threshold) bytes: a \"billion laughs\" file"
    }
  }
}

/// Every way reading or writing a property list can fail. Each case says the format, where in
/// the input it broke, and what was wrong.
public enum PlistError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
  /// The input has no bytes at all.
  case empty
  /// The input ends before the value it started is complete.
  case truncated(format: PlistFormat, at: SourceLocation, expected: String)
  /// The input breaks the format's grammar or structure.
  case malformed(format: PlistFormat, at: SourceLocation, reason: String)
  /// Text that is not valid in its encoding (UTF-8, UTF-16, ASCII).
  case invalidText(format: PlistFormat, at: SourceLocation, encoding: String)
  /// The input goes past a safety limit.
  case limitExceeded(format: PlistFormat, at: SourceLocation, limit: PlistLimit)
  /// A binary container that contains itself.
  case cycle(at: SourceLocation, object: Int)
  /// Well-formed, but uses something this reader does not support.
  case unsupported(format: PlistFormat, at: SourceLocation, feature: String)
  /// A writer was given a value its format cannot hold without loss.
  case unrepresentable(format: PlistFormat, keyPath: String, reason: String)
  /// The JSON writer was given a value JSON cannot hold (a date or data when lossless, a
  /// non-finite real, a UID).
  case unrepresentableInJSON(keyPath: String, reason: String)

  public var description: String {
    switch self {
    case .empty:
      return "the input is empty (0 bytes)".naming(.emptyInput)
    case .truncated(let format, let at, let expected):
      return "\(format) property list is truncated at \(at): expected \(expected)"
    case .malformed(let format, let at, let reason):
      return "malformed \(format) property list at \(at): \(reason)"
    case .invalidText(let format, let at, let encoding):
      return "invalid \(encoding) text in \(format) property list at \(at)".naming(.invalidText)
    case .limitExceeded(let format, let at, let limit):
      return "\(format) property list goes past a safety limit at \(at): \(limit)"
        .naming(.safetyLimits)
    case .cycle(let at, let object):
      return "binary property list has a reference cycle through object \(object) at \(at)"
        .naming(.binaryCycle)
    case .unsupported(let format, let at, let feature):
      return "\(format) property list uses \(feature) at \(at), which is not supported"
    case .unrepresentable(let format, let keyPath, let reason):
      let place = keyPath.isEmpty ? "the top-level value" : "the value at \(keyPath)"
      return "\(format) cannot hold \(place): \(reason)"
    case .unrepresentableInJSON(let keyPath, let reason):
      let place = keyPath.isEmpty ? "the top-level value" : "the value at \(keyPath)"
      return "JSON cannot hold \(place): \(reason)"
    }
  }

  public var errorDescription: String? { description }

  /// The format the error is about, when it is known.
  public var format: PlistFormat? {
    switch self {
    case .empty, .unrepresentableInJSON: nil
    case .truncated(let f, _, _), .malformed(let f, _, _), .invalidText(let f, _, _),
      .limitExceeded(let f, _, _), .unsupported(let f, _, _), .unrepresentable(let f, _, _):
      f
    case .cycle: .binary
    }
  }
}

/// Something a reader accepted but that a user should know about.
public enum PlistWarning: Sendable, Hashable, CustomStringConvertible {
  /// A key with its scalars spelled out: `"é" (U+0065 U+0301)`.
  static func scalars(_ key: String) -> String {
    "\"\(key)\" ("
      + key.unicodeScalars.map(\.codePoint).joined(separator: " ")
      + ")"
  }

  /// A dictionary named the same key twice; the last value was kept, as CoreFoundation keeps
  /// it in text and XML (and GNUstep everywhere).
  case duplicateKey(String, at: SourceLocation)
  /// A binary dictionary named the same key twice; the first value was kept, as
  /// CoreFoundation's binary reader keeps it.
  case duplicateKeyFirstKept(String, at: SourceLocation)
  /// Bytes the reader read leniently (a date it normalised, a prefix it kept, base64 bytes it
  /// dropped, an escape it read its own way): the value is the one that reader gave the app.
  /// The text says what was read, as `reader` reads it.
  case readAs(PlistReader, String, at: SourceLocation)
  /// Two keys that differ only in Unicode normalization (`é` as one scalar and as `e` + U+0301):
  /// CoreFoundation keeps both, and so does every `PlistDictionary` (keys compared by their
  /// bytes); only a view as a Swift dictionary (`[String: …]`) would merge them.
  case indistinctKeys(String, String, at: SourceLocation)
  /// A dictionary key that was not a string (GNUstep and binary plists allow them); it was kept
  /// under its text form.
  case nonStringKey(String, at: SourceLocation)
  /// A binary `NSSet` was read as an array.
  case setReadAsArray(at: SourceLocation)
  /// A dictionary entry of OpenStep text not ended by `;` before `}`: GNUstep reads it,
  /// CoreFoundation (Apple platforms) refuses the whole file.
  case missingSemicolon(after: String, at: SourceLocation)
  /// An unquoted OpenStep string with characters GNUstep allows bare and CoreFoundation does
  /// not (`a+b`, `x@y`): read; Apple platforms would refuse the file.
  case unquotedBeyondCoreFoundation(String, at: SourceLocation)

  public var description: String {
    switch self {
    case .duplicateKey(let key, let at):
      "duplicate key \"\(key)\" at \(at): the last value was kept"
    case .duplicateKeyFirstKept(let key, let at):
      "duplicate key \"\(key)\" at \(at): the first value was kept, as CoreFoundation keeps "
        + "it in a binary file"
    case .readAs(let reader, let what, let at):
      "at \(at), read as \(reader) reads it: \(what)"
    case .indistinctKeys(let first, let second, let at):
      "the keys \(Self.scalars(first)) and \(Self.scalars(second)) at \(at) differ only in "
        + "Unicode normalization: kept as two keys, as CoreFoundation keeps them "
        + CompatibilityRow.indistinctKeys.tag
    case .nonStringKey(let key, let at):
      "non-string dictionary key at \(at) kept as the string \"\(key)\" "
        + CompatibilityRow.nonstringKey.tag
    case .setReadAsArray(let at):
      "a set at \(at) was read as an array of its members (CoreFoundation gives the app an "
        + "NSSet, which no property list type holds) \(CompatibilityRow.binarySet.tag)"
    case .unquotedBeyondCoreFoundation(let text, let at):
      "the unquoted string \"\(text)\" at \(at) uses characters GNUstep reads bare and "
        + "CoreFoundation (Apple platforms) refuses"
    case .missingSemicolon(let key, let at):
      "no ';' after the value of \"\(key)\" at \(at): GNUstep reads it, CoreFoundation "
        + "(Apple platforms) refuses the file"
    }
  }
}

extension PlistError {
  /// The id of the `Docs/compatibility.md` row the error's message names (the id in its
  /// `[differential: …]` tag), if any.
  public var compatibilityRow: String? { CompatibilityRow.id(in: description) }
}

extension PlistWarning {
  /// The id of the `Docs/compatibility.md` row the warning's message names
  /// (the id in its `[differential: …]` tag), if any.
  public var compatibilityRow: String? { CompatibilityRow.id(in: description) }
}

/// Safety limits applied while reading untrusted input.
public struct PlistLimits: Sendable, Hashable {
  /// The deepest nesting of arrays and dictionaries (CoreFoundation's limit is 512).
  public var maxDepth: Int
  /// The most values one document may expand to, counting each use of a shared binary object.
  public var maxObjects: Int
  /// The largest input accepted, in bytes.
  public var maxInputBytes: Int
  /// The most a document may expand relative to its input, as libexpat bounds entity
  /// expansion: once the expanded size (every use of a shared binary object counted, strings
  /// and data by their bytes, every other value as 8) passes
  /// ``amplificationThreshold``, it may be at most this many times the input's size.
  public var maxAmplification: Int
  /// The expanded size, in bytes, from which ``maxAmplification`` applies.
  public var amplificationThreshold: Int

  public init(
    maxDepth: Int = 512, maxObjects: Int = 20_000_000, maxInputBytes: Int = 512 << 20,
    maxAmplification: Int = 100, amplificationThreshold: Int = 8 << 20
  ) {
    self.maxDepth = maxDepth
    self.maxObjects = maxObjects
    self.maxInputBytes = maxInputBytes
    self.maxAmplification = maxAmplification
    self.amplificationThreshold = amplificationThreshold
  }

  public static let `default` = PlistLimits()
}

extension PlistError {
  /// The error as a person reads it for `data`: bytes that start like no property list are
  /// "not a property list" before the OpenStep reader's place, and JSON is named as JSON
  /// (prefs writes JSON but reads only property lists).
  package func explained(for data: Data) -> String {
    // The OpenStep reader's error: it reads any text no other format claims.
    guard let format, PlistFormat.openStep.family.contains(format) else { return description }
    let space: [UInt8] = [0x20, 0x09, 0x0A, 0x0D]
    let text = data.drop { space.contains($0) }
    if Self.looksLikeJSON(text) {
      return "this is JSON, which prefs writes (convert --to json, read --json) but does "
        + "not read: give it a property list (XML, binary, OpenStep or GNUstep text)"
    }
    if let first = text.first, Array("{(<\"/".utf8).contains(first) { return description }
    return "not a property list (no XML or binary header, and not OpenStep text: \(self))"
  }

  /// JSON, as far as its first bytes tell it from OpenStep text: an array opened with `[`
  /// (OpenStep's are `(`), or an object whose first key, a quoted string, is followed by `:`
  /// (OpenStep's by `=`).
  static func looksLikeJSON(_ text: Data.SubSequence) -> Bool {
    guard let first = text.first else { return false }
    if first == UInt8(ascii: "[") { return true }
    guard first == UInt8(ascii: "{") else { return false }
    let space: [UInt8] = [0x20, 0x09, 0x0A, 0x0D]
    var rest = text.dropFirst().drop { space.contains($0) }
    if rest.first == UInt8(ascii: "}") { return false }
    guard rest.first == UInt8(ascii: "\"") else { return false }
    rest = rest.dropFirst()
    var escaped = false
    while let byte = rest.first {
      rest = rest.dropFirst()
      if escaped {
        escaped = false
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
      } else if byte == UInt8(ascii: "\"") {
        return rest.drop { space.contains($0) }.first == UInt8(ascii: ":")
      }
    }
    return false
  }
}
