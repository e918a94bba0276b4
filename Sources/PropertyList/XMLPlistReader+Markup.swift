#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The markup of XML: white space, comments and declarations skipped, tags and the text
/// between them, entities expanded (the five predefined and character references only).
extension XMLPlistReader {
  // MARK: - Scanning

  @inline(__always)
  static func isSpace(_ c: UInt8) -> Bool {
    c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D
  }

  @inline(__always)
  func starts(with literal: StaticString, at offset: Int) -> Bool {
    b.starts(with: literal, at: offset)
  }

  /// Moves past `terminator`, or fails with `what` (and its row) when the input ends first.
  mutating func skip(
    past terminator: StaticString, what: String, row: CompatibilityRow
  ) throws(PlistError) {
    let first = ByteView(terminator)[0]
    while true {
      i = TextScan.first(first, b, from: i)
      guard i < n else { break }
      if starts(with: terminator, at: i) {
        i += terminator.utf8CodeUnitCount
        return
      }
      i += 1
    }
    throw eof("the end of \(what)", row)
  }

  /// Skips white space, comments and processing instructions.
  mutating func skipMisc() throws(PlistError) {
    while i < n {
      let c = b[unchecked: i]  // (i < n: the loop's check)
      if Self.isSpace(c) {
        i += 1
      } else if c != UInt8(ascii: "<") || i + 1 >= n {
        return
      } else if b[i + 1] == UInt8(ascii: "!"), starts(with: "<!--", at: i) {
        i += 4
        try skip(past: "-->", what: "a comment", row: .xmlUnterminatedComment)
      } else if b[i + 1] == UInt8(ascii: "?") {
        i += 2
        try skip(
          past: "?>", what: "a processing instruction", row: .xmlUnterminatedProcessingInstruction)
      } else {
        return
      }
    }
  }

  /// Skips `<!DOCTYPE …>`, including an internal subset in brackets, without interpreting it.
  mutating func skipDoctype() throws(PlistError) {
    let start = i
    if rules.doctypeInternalSubset != .read {
      // CoreFoundation's `skipDTD`: to the first `>` (quotes or not), and no internal subset
      // (refused, or skipped as GNUstep skips it, the one reader of it, with a warning).
      while i < n, b[i] != UInt8(ascii: ">") {
        if b[i] == UInt8(ascii: "[") {
          guard rules.doctypeInternalSubset == .warned else {
            throw fail(
              .xmlDoctypeInternalSubset,
              "a <!DOCTYPE> with an internal subset ('['), which CoreFoundation refuses", at: i)
          }
          warnings.append(
            .readAs(
              .gnustep,
              "a <!DOCTYPE> with an internal subset ('['), skipped; CoreFoundation refuses it"
                .naming(.toolsReadMore), at: location(i)))
          i = start
          return try skipBracketedDoctype()
        }
        i += 1
      }
      guard i < n else {
        throw .truncated(
          format: .xml, at: location(start),
          expected: "the end of the <!DOCTYPE> declaration".naming(.xmlUnterminatedDoctype))
      }
      i += 1
      return
    }
    try skipBracketedDoctype()
  }

  /// Skips `<!DOCTYPE …>` as GNUstep does: quotes and an internal subset in brackets.
  private mutating func skipBracketedDoctype() throws(PlistError) {
    var bracket = 0
    while i < n {
      switch b[i] {
      case UInt8(ascii: "["): bracket += 1
      case UInt8(ascii: "]"): bracket -= 1
      case UInt8(ascii: "\""), UInt8(ascii: "'"):
        let quote = b[i]
        i += 1
        while i < n, b[i] != quote { i += 1 }
      case UInt8(ascii: ">") where bracket <= 0:
        i += 1
        return
      default: break
      }
      i += 1
    }
    throw eof("the end of the <!DOCTYPE> declaration", .xmlUnterminatedDoctype)
  }

  enum TagKind { case open, close, empty }

  /// The element names of the plist vocabulary; `other` for any other name.
  enum Name: UInt8 {
    case other, plist, dict, array, key, string, integer, real, `true`, `false`, date, data
  }

  struct Tag {
    var nameStart: Int
    var nameEnd: Int
    var name: Name
    var kind: TagKind
    var start: Int
  }

  func text(of tag: Tag) -> String { b.string(tag.nameStart..<tag.nameEnd) }

  /// Whether the name at `offset` is `literal` (the caller has checked its length).
  @inline(__always)
  private func equals(_ offset: Int, _ literal: StaticString) -> Bool {
    b.uncheckedEqual(at: offset, ByteView(literal), at: 0, length: literal.utf8CodeUnitCount)
  }

  /// Which name of the vocabulary `b[start..<end]` is, by its exact bytes.
  @inline(__always)
  private func name(_ start: Int, _ end: Int) -> Name {
    switch end - start {
    case 3:
      if equals(start, "key") { return .key }
    case 4:
      if equals(start, "dict") { return .dict }
      if equals(start, "real") { return .real }
      if equals(start, "true") { return .true }
      if equals(start, "date") { return .date }
      if equals(start, "data") { return .data }
    case 5:
      if equals(start, "array") { return .array }
      if equals(start, "plist") { return .plist }
      if equals(start, "false") { return .false }
    case 6:
      if equals(start, "string") { return .string }
    case 7:
      if equals(start, "integer") { return .integer }
    default: break
    }
    return .other
  }

  /// Reads a tag at `<`, skipping its attributes.
  mutating func readTag() throws(PlistError) -> Tag {
    let start = i
    i += 1
    var kind = TagKind.open
    if i < n, b[i] == UInt8(ascii: "/") {
      kind = .close
      i += 1
    }
    let nameStart = i
    // (i < n: each step's check.)
    while i < n {
      let c = b[unchecked: i]
      guard !Self.isSpace(c), c != UInt8(ascii: ">"), c != UInt8(ascii: "/") else { break }
      i += 1
    }
    let nameEnd = i
    guard nameEnd > nameStart else {
      throw fail(.xmlMalformedTag, "a tag without a name", at: start)
    }
    var tag = Tag(
      nameStart: nameStart, nameEnd: nameEnd, name: name(nameStart, nameEnd), kind: kind,
      start: start)
    if kind == .close {
      // A closing tag holds its name and white space only (`</plist/plist>` is no tag).
      while i < n, Self.isSpace(b[i]) { i += 1 }
      guard i < n else { throw eof("'>' to end the tag </\(text(of: tag))>") }
      guard b[i] == UInt8(ascii: ">") else {
        throw fail(
          .xmlMalformedTag,
          "'\(Character(Unicode.Scalar(b[i])))' inside the tag </\(text(of: tag))>")
      }
      i += 1
      return tag
    }
    while i < n {
      switch b[unchecked: i] {  // (i < n: the loop's check)
      case UInt8(ascii: ">"):
        i += 1
        return tag
      case UInt8(ascii: "/") where i + 1 < n && b[i + 1] == UInt8(ascii: ">"):
        guard kind == .open else {
          throw fail(.xmlMalformedTag, "a closing tag cannot also be empty", at: start)
        }
        i += 2
        tag.kind = .empty
        return tag
      case UInt8(ascii: "\""), UInt8(ascii: "'"):
        let quote = b[i]
        i += 1
        while i < n, b[i] != quote {
          if b[i] == UInt8(ascii: "<") {
            throw fail(.xmlLessThanInAttribute, "'<' inside an attribute value")
          }
          i += 1
        }
        guard i < n else { throw eof("the end of an attribute value") }
        i += 1
      case UInt8(ascii: "<"):
        throw fail(.xmlMalformedTag, "'<' inside the tag <\(text(of: tag))>")
      default:
        i += 1
      }
    }
    throw eof("'>' to end the tag <\(text(of: tag))>")
  }

  // MARK: - Text content

  /// An element's text: a run of the input as it is, or (after entities, CDATA sections or
  /// comments) bytes of its own.
  enum Text {
    case run(Int, Int)
    case bytes([UInt8])

    var isRun: Bool {
      if case .run = self { return true }
      return false
    }
  }

  /// The text of an element up to its closing tag, with entities, CDATA and comments handled.
  mutating func readText(closing tag: Tag) throws(PlistError) -> Text {
    if tag.kind == .empty { return .run(i, i) }
    var start = i
    // The common case: plain text, then the closing tag itself.
    i = TextScan.markup(b, from: i)
    let length = tag.nameEnd - tag.nameStart
    // (The three bytes and the name checked to lie in the input by the first condition.)
    if i + length + 3 <= n, b[unchecked: i] == UInt8(ascii: "<"),
      b[unchecked: i + 1] == UInt8(ascii: "/"), b[unchecked: i + 2 + length] == UInt8(ascii: ">"),
      sameBytes(i + 2, tag.nameStart, length)
    {
      let end = i
      i += length + 3
      return .run(start, end)
    }
    // The text so far, once it is no longer one run of the input.
    var buffer: [UInt8] = []
    var buffered = false
    while true {
      guard i < n else { throw eof("</\(text(of: tag))>") }
      let c = b[i]
      if c == UInt8(ascii: "<") {
        if starts(with: "<![CDATA[", at: i) {
          if rules.cdata == .refused {
            throw fail(.xmlCDATA, "a CDATA section, whose text GNUstep's XML reader drops", at: i)
          }
          buffered = true
          b.slice(start..<i).append(to: &buffer)
          i += 9
          let contentStart = i
          try skip(past: "]]>", what: "a CDATA section", row: .xmlUnterminatedCDATA)
          b.slice(contentStart..<(i - 3)).append(to: &buffer)
          start = i
          i = TextScan.markup(b, from: i)
          continue
        }
        if starts(with: "<!--", at: i) {
          if rules.commentInText != .read {
            guard rules.commentInText == .warned else {
              throw fail(
                .xmlCommentInText,
                "a comment inside <\(text(of: tag))>, which CoreFoundation refuses",
                at: i)
            }
            warnings.append(
              .readAs(
                .gnustep,
                "a comment inside <\(text(of: tag))>, skipped; CoreFoundation refuses it"
                  .naming(.toolsReadMore), at: location(i)))
          }
          buffered = true
          b.slice(start..<i).append(to: &buffer)
          i += 4
          try skip(past: "-->", what: "a comment", row: .xmlUnterminatedComment)
          start = i
          i = TextScan.markup(b, from: i)
          continue
        }
        let textEnd = i
        let close = try readTag()
        guard close.kind == .close, close.nameEnd - close.nameStart == length,
          sameBytes(close.nameStart, tag.nameStart, length)
        else {
          throw fail(
            .xmlMarkupInText,
            "<\(text(of: close))> inside <\(text(of: tag))>, which holds only text",
            at: close.start)
        }
        if buffered {
          b.slice(start..<textEnd).append(to: &buffer)
          return .bytes(buffer)
        }
        return .run(start, textEnd)
      }
      // c is '&'
      buffered = true
      b.slice(start..<i).append(to: &buffer)
      let scalar = try readEntity()
      // GNUstep's parser hands the text to its strings in pieces, an entity ending one, and
      // each piece loses a U+FEFF it starts with (one from a character reference too).
      let dropsMark = rules.stringMarks == .gnustep
      if !(dropsMark && scalar == "\u{FEFF}") {
        buffer.append(contentsOf: String(Character(scalar)).utf8)
      }
      if dropsMark, i + 2 < n, b[i] == 0xEF, b[i + 1] == 0xBB, b[i + 2] == 0xBF { i += 3 }
      start = i
      i = TextScan.markup(b, from: i)
    }
  }

  @inline(__always)
  private func sameBytes(_ first: Int, _ second: Int, _ count: Int) -> Bool {
    guard b.contains(first, length: count), b.contains(second, length: count) else {
      return false
    }
    for k in 0..<count where b[unchecked: first + k] != b[unchecked: second + k] { return false }
    return true
  }

  /// Calls `body` with the bytes of `text`.
  @inline(__always)
  func withBytes<R>(_ text: Text, _ body: (ByteView) -> R) -> R {
    switch text {
    case .run(let start, let end): body(b.slice(start..<end))
    case .bytes(let bytes): ByteView.with(bytes, body)
    }
  }

  /// A string or key: the text without one leading U+FEFF (GNUstep: two, its parser's and
  /// its string's, and also after the white space a string starts with, which its parser
  /// hands on as a piece of its own: `\n` U+FEFF `b` is `\nb`; GNUstep Base 1.28).
  func string(_ text: Text) -> String {
    withBytes(text) { bytes in
      var start = 0
      let gnustep = rules.stringMarks == .gnustep
      if gnustep {
        while start < bytes.count, Self.isSpace(bytes[start]) { start += 1 }
      }
      let space = start
      for _ in 0..<(gnustep ? 2 : 1) {
        guard bytes.count >= start + 3, bytes[start] == 0xEF, bytes[start + 1] == 0xBB,
          bytes[start + 2] == 0xBF
        else { break }
        start += 3
      }
      // No mark: the text as it is (its white space too).
      guard start > space else { return bytes.string }
      guard space > 0 else { return bytes.string(start..<bytes.count) }
      // The white space kept, the marks after it dropped.
      return bytes.string(0..<space) + bytes.string(start..<bytes.count)
    }
  }

  private mutating func readEntity() throws(PlistError) -> Unicode.Scalar {
    let start = i
    i += 1
    let nameStart = i
    while i < n, b[i] != UInt8(ascii: ";"), i - nameStart < 12 { i += 1 }
    guard i < n, b[i] == UInt8(ascii: ";") else {
      throw fail(.xmlBareAmpersand, "an '&' that does not start an entity (write &amp;)", at: start)
    }
    let name = b.string(nameStart..<i)
    i += 1
    switch name {
    case "lt": return "<"
    case "gt": return ">"
    case "amp": return "&"
    case "quot": return "\""
    case "apos": return "'"
    case let text where text.hasPrefix("#"):
      let digits = text.dropFirst()
      let value: UInt32?
      if digits.hasPrefix("x") || digits.hasPrefix("X") {
        value = UInt32(digits.dropFirst(), radix: 16)
      } else {
        value = UInt32(digits, radix: 10)
      }
      guard let v = value, let scalar = Unicode.Scalar(v) else {
        throw fail(
          .xmlBadCharacterReference, "the character reference &\(text); names no Unicode character",
          at: start)
      }
      return scalar
    case let text:
      throw fail(
        .xmlUndefinedEntity,
        "the entity &\(text); is not one of the five XML predefines (other entities are never "
          + "expanded)", at: start)
    }
  }

}
