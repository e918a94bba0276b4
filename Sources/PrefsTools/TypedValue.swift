import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The one parser of typed values on a command line (`-bool YES`, `-int 5`, `-data 0a0b`,
/// `-array a b`, a `{…}` literal), for every verb that takes one in each spelling:
/// `prefs write`, `defaults write` and `plutil -insert`/`-replace`.
package enum TypedValue {
  /// Whose flags: the three spell types and data differently.
  package enum Spelling: Sendable {
    /// `prefs write`: `-bool -int -float -string -date -data` (hex) `-json` (typed JSON)
    /// `-array -dict`, or a value.
    case prefs
    /// macOS `defaults write`: as `prefs`, with `-array-add` and `-dict-add`.
    case defaults
    /// `plutil`: `-bool -integer -float -string -date -data` (base64) `-xml -json -array
    /// -dictionary` (the last two empty).
    case plutil
  }

  /// What a flag asks for.
  package enum Kind: Sendable, Hashable {
    case bool, integer, real, string, date, data, array, dictionary
    /// A property list in any text format (plutil's `-xml`).
    case propertyList
    /// JSON (plutil's `-json`).
    case json
    /// Typed JSON (`prefs write -json`: ``TypedJSON``).
    case typedJSON
    /// Elements or entries added to the container a key holds (`-array-add`, `-array-union`,
    /// `-dict-add`), not a value of their own.
    case addition(Addition)
  }

  /// A type flag: its word, what it asks for, and the spellings that take it.
  package struct Flag: Sendable {
    package var word: String
    package var kind: Kind
    package var spellings: [Spelling]

    init(_ word: String, _ kind: Kind, in spellings: [Spelling] = [.prefs, .defaults, .plutil]) {
      self.word = word
      self.kind = kind
      self.spellings = spellings
    }
  }

  /// Every type flag of every spelling: the one table the parser reads, and the usage texts
  /// list (`defaults`' `<value> is one of:`, `plutil`'s insert types).
  package static let flags: [Flag] = [
    Flag("-bool", .bool), Flag("-boolean", .bool, in: [.prefs, .defaults]),
    Flag("-integer", .integer), Flag("-int", .integer, in: [.prefs, .defaults]),
    Flag("-float", .real), Flag("-double", .real, in: [.prefs]), Flag("-real", .real, in: [.prefs]),
    Flag("-string", .string), Flag("-date", .date), Flag("-data", .data),
    Flag("-array", .array), Flag("-array-add", .addition(.append), in: [.prefs, .defaults]),
    Flag("-array-union", .addition(.union), in: [.prefs]),
    Flag("-dict", .dictionary, in: [.prefs, .defaults]),
    Flag("-dict-add", .addition(.merge), in: [.prefs, .defaults]),
    Flag("-dictionary", .dictionary, in: [.plutil]), Flag("-xml", .propertyList, in: [.plutil]),
    Flag("-json", .json, in: [.plutil]), Flag("-json", .typedJSON, in: [.prefs]),
  ]

  /// The kind a flag names in `spelling` (nil: not a type flag of that spelling).
  package static func kind(ofFlag flag: String, in spelling: Spelling) -> Kind? {
    for entry in flags where entry.word == flag && entry.spellings.contains(spelling) {
      return entry.kind
    }
    return nil
  }

  /// The flags that name `kind` in `spelling`, in the table's order (`-int`'s long form first:
  /// `-integer`, `-int`).
  package static func flags(for kind: Kind, in spelling: Spelling) -> [String] {
    flags.filter { $0.kind == kind && $0.spellings.contains(spelling) }.map(\.word)
  }

  /// What the value words of `write KEY …` ask for.
  package enum Assignment: Sendable, Hashable {
    /// The value KEY takes.
    case set(PlistValue)
    /// The elements or entries to add to the container at KEY, and how.
    case add(PlistValue, Addition)
  }

  /// One value of `kind` from its text. `-data` is hex digits for `prefs` and `defaults`,
  /// base64 for `plutil`.
  package static func value(_ kind: Kind, _ text: String, flag: String, spelling: Spelling)
    throws(ToolError) -> PlistValue
  {
    func invalid(_ expected: String) -> ToolError {
      .invalidValue(flag: flag, text: text, expected: expected)
    }
    switch kind {
    case .bool:
      // plutil takes YES and true as YES and anything else as NO: a word it would take for
      // NO by accident (`1`, `maybe`) is refused.
      switch (text.lowercased(), spelling) {
      case ("yes", _), ("true", _), ("1", .prefs), ("1", .defaults): return .bool(true)
      case ("no", _), ("false", _), ("0", _): return .bool(false)
      case (_, .plutil): throw invalid("YES, NO, true, false or 0")
      default: throw invalid("YES, NO, true, false, 1 or 0")
      }
    case .integer:
      if let i = Int64(text) { return .integer(i) }
      // plutil's integers are 64-bit signed (it clamps a larger one).
      if spelling != .plutil, let u = UInt64(text) { return .unsignedInteger(u) }
      throw invalid("a 64-bit integer")
    case .real:
      guard let d = Double(text), spelling != .plutil || isDecimal(text) else {
        throw invalid("a number")
      }
      // A number written out that no double holds (`1e400`) is not infinity: only the words
      // inf and nan say a value that is not finite (and plutil takes neither).
      guard d.isFinite || !isDecimal(text) else {
        throw invalid("a number within a double's range (±1.8e308)")
      }
      return .real(d)
    case .string:
      return .string(text)
    case .date:
      // plutil's port reads a property list's date only (and crashes on anything else).
      let read = spelling == .plutil ? PropertyList.date(fromText: text) : date(text)
      guard let date = read else {
        throw invalid(
          "2011-03-14T15:09:26Z, 2011-03-14T16:09:26+01:00 or \"2011-03-14 15:09:26 +0000\"")
      }
      return .date(date)
    case .data:
      if spelling == .plutil {
        // As plutil decodes it: characters that are not base64 are skipped.
        guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
          throw invalid("base64")
        }
        return .data(data)
      }
      guard let data = hex(text) else { throw invalid("an even number of hex digits") }
      return .data(data)
    case .propertyList:
      do {
        return try PropertyList.read(Data(text.utf8)).value
      } catch {
        throw invalid("a property list (\(error))")
      }
    case .json:
      // plutil's: any JSON value, null kept (it is refused when the file is written).
      do {
        return try FoundationJSON.read(Data(text.utf8), fragments: true)
      } catch {
        throw invalid("JSON (\(error))")
      }
    case .typedJSON:
      return try TypedJSON.value(parsing: text, flag: flag)
    case .array, .dictionary, .addition:
      throw invalid("no value: it takes its elements as words")
    }
  }

  /// The value words of `write KEY …` (`prefs` and `defaults`): `[-TYPE] VALUE`, `-array
  /// V…`, `-dict K V…`, or one word: a property list when it starts with `{ ( < "`, else a
  /// string; or an addition to the container at KEY (`-array-add V…`, `-dict-add K V…`, and
  /// for `prefs` `-array-union V…`). Inside `-array` and `-dict` each value is read as
  /// defaults(1) reads it: a value word by the same rule (`'{"tile-type"="spacer-tile";}'` is a
  /// dictionary) or a type flag and its word (`-dict General -bool true`); see
  /// ``elements(_:spelling:)``.
  package static func parse(_ words: [String], spelling: Spelling) throws(ToolError)
    -> Assignment
  {
    guard let first = words.first else { throw .usage("write needs a value") }
    let rest = Array(words.dropFirst())
    guard let kind = kind(ofFlag: first, in: spelling) else {
      guard words.count == 1 else {
        // `write D K hello world`: a value of two words, or a type flag misspelt.
        if first.hasPrefix("-"), first.count > 1, Double(first) == nil {
          throw .usage("unknown type \(first) (\(typeFlagList(spelling)))")
        }
        throw .usage(
          "one value after the key, and \(words[1]) is a second: quote a value with spaces "
            + "('\(first) \(words[1])'), or give a type flag first (-string, -int, -array …)")
      }
      return .set(try literal(first))
    }
    switch kind {
    case .array:
      return .set(.array(try elements(rest, spelling: spelling)))
    case .dictionary:
      return .set(.dictionary(try entries(rest, spelling: spelling)))
    case .addition(let addition):
      let added: PlistValue =
        addition == .merge
        ? .dictionary(try entries(rest, spelling: spelling))
        : .array(try elements(rest, spelling: spelling))
      return .add(added, addition)
    default:
      guard rest.count == 1, let text = rest.first else {
        throw .usage("\(first) takes exactly one value")
      }
      return .set(try value(kind, text, flag: first, spelling: spelling))
    }
  }

  /// The elements after `-array` or `-array-add`: each a value word (``literal(_:)``) or a
  /// type flag and the word after it (`-int 5`, `-string -bool`). An array or dictionary flag
  /// inside is refused: defaults(1) does not nest them (a nested value is written as a literal,
  /// `'(a, b)'` or `'{k = v;}'`).
  package static func elements(_ words: [String], spelling: Spelling) throws(ToolError)
    -> [PlistValue]
  {
    var values: [PlistValue] = []
    var index = 0
    while index < words.count {
      values.append(try element(words, at: &index, spelling: spelling))
    }
    return values
  }

  /// The entries after `-dict` or `-dict-add`: a key (a word, or `-string` and a word: keys
  /// are strings) and its value, as an element of ``elements(_:spelling:)``.
  package static func entries(_ words: [String], spelling: Spelling) throws(ToolError)
    -> PlistDictionary
  {
    var dictionary = PlistDictionary()
    var index = 0
    while index < words.count {
      var key = words[index]
      index += 1
      if let kind = kind(ofFlag: key, in: spelling) {
        guard kind == .string, index < words.count else {
          throw .usage("Dictionary keys must be strings: \(key) is not a key")
        }
        key = words[index]
        index += 1
      }
      guard index < words.count else { throw .usage("Key \(key) lacks a corresponding value") }
      dictionary[key] = try element(words, at: &index, spelling: spelling)
    }
    return dictionary
  }

  /// The value at `index` (a value word, or a type flag and its word), `index` moved past it.
  private static func element(_ words: [String], at index: inout Int, spelling: Spelling)
    throws(ToolError) -> PlistValue
  {
    let word = words[index]
    index += 1
    guard let kind = kind(ofFlag: word, in: spelling) else { return try literal(word) }
    switch kind {
    case .array, .dictionary, .propertyList, .json, .addition:
      throw .usage(
        "Cannot nest composite types (arrays and dictionaries): \(word) inside an array or "
          + "dictionary (write the nested value as a literal: '(a, b)' or '{k = v;}')")
    default:
      guard index < words.count else { throw .usage("\(word) takes a value") }
      let text = words[index]
      index += 1
      return try value(kind, text, flag: word, spelling: spelling)
    }
  }

  /// A value word without a type: a property list when it starts with `{ ( < "` (after
  /// white space), else the string itself.
  package static func literal(_ word: String) throws(ToolError) -> PlistValue {
    let trimmed = word.trimmingWhitespace()
    guard let c = trimmed.first, "{(<\"".contains(c) else { return .string(word) }
    do {
      return try PropertyList.read(Data(trimmed.utf8)).value
    } catch {
      throw .usage("the value is not a property list: \(error)")
    }
  }

  /// A date's text as the command line takes it: a property list's (`2011-03-14T15:09:26Z`,
  /// GNUstep's `2011-03-14 15:09:26 +0000`), or ISO 8601 with an offset from UTC
  /// (`2011-03-14T16:09:26+01:00`, `T` or a space before the time: Python's and YAML's
  /// timestamps; without an offset, UTC, as YAML reads one), or a day alone (`2011-03-14`,
  /// its midnight in UTC).
  package static func date(_ text: String) -> Date? {
    if let date = PropertyList.date(fromText: text) { return date }
    let utf8 = Array(text.utf8)
    if utf8.count == 10 { return PropertyList.date(fromText: text + "T00:00:00Z") }
    // A time without an offset is UTC, as YAML reads a timestamp (`2014-04-24 02:40:00`).
    if utf8.count == 19 { return date(text + "Z") }
    // The time and its offset: `…T16:09:26[.fff]+01:00` (or `+0100`, or `Z` after a space).
    guard utf8.count > 19, utf8[10] == UInt8(ascii: "T") || utf8[10] == UInt8(ascii: " ") else {
      return nil
    }
    var end = 19
    if utf8[end] == UInt8(ascii: ".") {
      end += 1
      while end < utf8.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(utf8[end]) {
        end += 1
      }
    }
    let local =
      String(decoding: utf8[0..<10], as: UTF8.self) + "T"
      + String(decoding: utf8[11..<end], as: UTF8.self) + "Z"
    let zone = Array(utf8[end...])
    var offset = 0
    switch zone.count {
    case 0: offset = 0  // no offset: UTC, as YAML reads `2014-04-24 02:40:00.5`
    case 1 where zone[0] == UInt8(ascii: "Z"): offset = 0
    case 5, 6:
      let digits = zone.dropFirst().filter { $0 != UInt8(ascii: ":") }
      guard zone[0] == UInt8(ascii: "+") || zone[0] == UInt8(ascii: "-"), digits.count == 4,
        zone.count == 5 || zone[3] == UInt8(ascii: ":"),
        let hhmm = Int(String(decoding: digits, as: UTF8.self)), hhmm / 100 < 24, hhmm % 100 < 60
      else { return nil }
      offset = (hhmm / 100 * 3600 + hhmm % 100 * 60) * (zone[0] == UInt8(ascii: "-") ? -1 : 1)
    default: return nil
    }
    guard let date = PropertyList.date(fromText: local) else { return nil }
    return Date(
      timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate - Double(offset))
  }

  /// The type flags of `spelling`, for a message: `-bool, -int, …`.
  static func typeFlagList(_ spelling: Spelling) -> String {
    var words: [String] = []
    for flag in flags where flag.spellings.contains(spelling) && !words.contains(flag.word) {
      words.append(flag.word)
    }
    return words.joined(separator: " ")
  }

  /// Whether `text` is a decimal number (`-1.5e3`, `.5`): no `inf`, `nan` or hexadecimal.
  static func isDecimal(_ text: String) -> Bool {
    var sawDigit = false
    var sawExponent = false
    for (n, c) in text.utf8.enumerated() {
      switch c {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
      case UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"): continue
      case UInt8(ascii: "e"), UInt8(ascii: "E"):
        guard sawDigit, !sawExponent, n > 0 else { return false }
        sawExponent = true
      default: return false
      }
    }
    return sawDigit
  }

  /// Hex digits (white space ignored) as bytes; nil for an odd count or another character.
  static func hex(_ text: String) -> Data? {
    let digits = Array(text.utf8.filter { ![0x20, 0x09, 0x0A, 0x0D].contains($0) })
    guard digits.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    var index = 0
    while index < digits.count {
      guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else {
        return nil
      }
      bytes.append(high << 4 | low)
      index += 2
    }
    return Data(bytes)
  }

  private static func nibble(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
