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
    let count = literal.utf8CodeUnitCount
    guard offset + count <= n else { return false }
    let l = literal.utf8Start
    for k in 0..<count where p[offset + k] != l[k] { return false }
    return true
  }

  /// Moves past `terminator`, or fails with `what` (and its row) when the input ends first.
  mutating func skip(
    past terminator: StaticString, what: String, row: CompatibilityRow
  ) throws(PlistError) {
    let first = terminator.utf8Start[0]
    while true {
      i = TextScan.first(first, p, from: i, count: n)
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
      let c = p[i]
      if Self.isSpace(c) {
        i += 1
      } else if c != UInt8(ascii: "<") || i + 1 >= n {
        return
      } else if p[i + 1] == UInt8(ascii: "!"), starts(with: "<!--", at: i) {
        i += 4
        try skip(past: "-->", what: "a comment", row: .xmlUnterminatedComment)
      } else if p[i + 1] == UInt8(ascii: "?") {
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
      while i < n, p[i] != UInt8(ascii: ">") {
        if p[i] == UInt8(ascii: "[") {
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
      switch p[i] {
      case UInt8(ascii: "["): bracket += 1
      case UInt8(ascii: "]"): bracket -= 1
      case UInt8(ascii: "\""), UInt8(ascii: "'"):
        let quote = p[i]
        i += 1
        while i < n, p[i] != quote { i += 1 }
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

  func text(of tag: Tag) -> String {
    String(
      decoding: UnsafeBufferPointer(start: p + tag.nameStart, count: tag.nameEnd - tag.nameStart),
      as: UTF8.self)
  }

  @inline(__always)
  private func equals(_ offset: Int, _ literal: StaticString) -> Bool {
    let l = literal.utf8Start
    for k in 0..<literal.utf8CodeUnitCount where p[offset + k] != l[k] { return false }
    return true
  }

  /// Which name of the vocabulary `p[start..<end]` is, by its exact bytes.
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
    if i < n, p[i] == UInt8(ascii: "/") {
      kind = .close
      i += 1
    }
    let nameStart = i
    while i < n, !Self.isSpace(p[i]), p[i] != UInt8(ascii: ">"), p[i] != UInt8(ascii: "/") {
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
      while i < n, Self.isSpace(p[i]) { i += 1 }
      guard i < n else { throw eof("'>' to end the tag </\(text(of: tag))>") }
      guard p[i] == UInt8(ascii: ">") else {
        throw fail(
          .xmlMalformedTag,
          "'\(Character(Unicode.Scalar(p[i])))' inside the tag </\(text(of: tag))>")
      }
      i += 1
      return tag
    }
    while i < n {
      switch p[i] {
      case UInt8(ascii: ">"):
        i += 1
        return tag
      case UInt8(ascii: "/") where i + 1 < n && p[i + 1] == UInt8(ascii: ">"):
        guard kind == .open else {
          throw fail(.xmlMalformedTag, "a closing tag cannot also be empty", at: start)
        }
        i += 2
        tag.kind = .empty
        return tag
      case UInt8(ascii: "\""), UInt8(ascii: "'"):
        let quote = p[i]
        i += 1
        while i < n, p[i] != quote {
          if p[i] == UInt8(ascii: "<") {
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
    i = TextScan.markup(p, from: i, count: n)
    let length = tag.nameEnd - tag.nameStart
    if i + length + 3 <= n, p[i] == UInt8(ascii: "<"), p[i + 1] == UInt8(ascii: "/"),
      p[i + 2 + length] == UInt8(ascii: ">"),
      sameBytes(i + 2, tag.nameStart, length)
    {
      let end = i
      i += length + 3
      return .run(start, end)
    }
    var buffer: [UInt8]? = nil
    while true {
      guard i < n else { throw eof("</\(text(of: tag))>") }
      let c = p[i]
      if c == UInt8(ascii: "<") {
        if starts(with: "<![CDATA[", at: i) {
          if rules.cdata == .refused {
            throw fail(.xmlCDATA, "a CDATA section, whose text GNUstep's XML reader drops", at: i)
          }
          if buffer == nil { buffer = [] }
          buffer?.append(contentsOf: UnsafeBufferPointer(start: p + start, count: i - start))
          i += 9
          let contentStart = i
          try skip(past: "]]>", what: "a CDATA section", row: .xmlUnterminatedCDATA)
          buffer?.append(
            contentsOf: UnsafeBufferPointer(start: p + contentStart, count: i - 3 - contentStart))
          start = i
          i = TextScan.markup(p, from: i, count: n)
          continue
        }
        if starts(with: "<!--", at: i) {
          if rules.commentInText == .refused {
            throw fail(
              .xmlCommentInText,
              "a comment inside <\(text(of: tag))>, which CoreFoundation refuses",
              at: i)
          }
          if buffer == nil { buffer = [] }
          buffer?.append(contentsOf: UnsafeBufferPointer(start: p + start, count: i - start))
          i += 4
          try skip(past: "-->", what: "a comment", row: .xmlUnterminatedComment)
          start = i
          i = TextScan.markup(p, from: i, count: n)
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
        if var text = buffer {
          text.append(contentsOf: UnsafeBufferPointer(start: p + start, count: textEnd - start))
          return .bytes(text)
        }
        return .run(start, textEnd)
      }
      // c is '&'
      if buffer == nil { buffer = [] }
      buffer?.append(contentsOf: UnsafeBufferPointer(start: p + start, count: i - start))
      let scalar = try readEntity()
      // GNUstep's parser hands the text to its strings in pieces, an entity ending one, and
      // each piece loses a U+FEFF it starts with (one from a character reference too).
      let dropsMark = rules.stringMarks == .gnustep
      if !(dropsMark && scalar == "\u{FEFF}") {
        buffer?.append(contentsOf: String(Character(scalar)).utf8)
      }
      if dropsMark, i + 2 < n, p[i] == 0xEF, p[i + 1] == 0xBB, p[i + 2] == 0xBF { i += 3 }
      start = i
      i = TextScan.markup(p, from: i, count: n)
    }
  }

  @inline(__always)
  private func sameBytes(_ a: Int, _ b: Int, _ count: Int) -> Bool {
    for k in 0..<count where p[a + k] != p[b + k] { return false }
    return true
  }

  /// Calls `body` with the bytes of `text`.
  @inline(__always)
  func withBytes<R>(_ text: Text, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    switch text {
    case .run(let start, let end): body(UnsafeBufferPointer(start: p + start, count: end - start))
    case .bytes(let bytes): bytes.withUnsafeBufferPointer(body)
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
      guard start > space else { return String(decoding: bytes, as: UTF8.self) }
      guard space > 0 else {
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self)
      }
      // The white space kept, the marks after it dropped.
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<space]), as: UTF8.self)
        + String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self)
    }
  }

  private mutating func readEntity() throws(PlistError) -> Unicode.Scalar {
    let start = i
    i += 1
    let nameStart = i
    while i < n, p[i] != UInt8(ascii: ";"), i - nameStart < 12 { i += 1 }
    guard i < n, p[i] == UInt8(ascii: ";") else {
      throw fail(.xmlBareAmpersand, "an '&' that does not start an entity (write &amp;)", at: start)
    }
    let name = UnsafeBufferPointer(start: p + nameStart, count: i - nameStart)
    i += 1
    switch String(decoding: name, as: UTF8.self) {
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
