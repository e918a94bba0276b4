/// The rules one reader reads bytes by: every place where the legacy apps' readers disagree
/// (a `<key>` where a value stands, a 16-byte integer, a lowercase `\u` escape, a set), each a
/// named property with no default value. The readers (XML, binary, OpenStep and GNUstep text,
/// the text decoding before them) look at these and at nothing else of whose reader they are:
/// a new reader is one more value below, which the compiler makes complete.
///
/// ``PlistReadOptions`` names the rules (``PlistReadOptions/rules``): a migration reads a
/// legacy file exactly as the app's own reader read it (``coreFoundation``, ``gnustep``); the
/// tools that name no dialect, and a store reading its own file, read more (``tools``,
/// ``gnustepStore``), never another value.
struct ReaderRules: Sendable {
  /// Whose reader these rules are, as a warning names it ("read as CoreFoundation reads it").
  let reader: PlistReader

  // MARK: Text, before any format

  /// A byte-order mark, and text in UTF-16 or UTF-32 (GNUstep takes UTF-8 only, without one).
  let byteOrderMarks: Reading
  /// UTF-16 or UTF-32 text without a byte-order mark: CoreFoundation refuses it in XML and
  /// reads OpenStep text with a character of its own guess dropped (refused: another value).
  let unmarkedUTF16: UnmarkedUTF16
  /// How an XML declaration's `encoding` is read (`US-ASCII`, `cp1252`, `UTF-16` over 8 bits).
  let declaredEncodings: DeclaredEncodings

  // MARK: XML

  /// Whether text is XML only from its declaration on (GNUstep: `<plist>…` alone is OpenStep
  /// text to it).
  let xmlNeedsDeclaration: Bool
  /// A `<!DOCTYPE>` with an internal subset (`[`): CoreFoundation refuses it, GNUstep skips it.
  let doctypeInternalSubset: Reading
  /// What follows the top value (and its `</plist>`): CoreFoundation stops reading there.
  let afterTopValue: AfterTopValue
  /// Whether a `<key>` where a value stands is a string (CoreFoundation's scanner).
  let keyWhereValueStands: Bool
  /// Whether a dictionary of one `CF$UID` number is a UID (CoreFoundation's).
  let uidDictionaries: Bool
  /// White space around the text of an `<integer>`, a `<real>`, a boolean (CoreFoundation
  /// allows it only before a number).
  let scalarSpaces: Reading
  /// How an `<integer>`'s text is read.
  let integers: XMLIntegers
  /// How a `<date>`'s text is read.
  let dates: XMLDates
  /// How `<data>`'s base64 is decoded.
  let data: XMLData
  /// A CDATA section inside an element (GNUstep's XML reader drops its text).
  let cdata: Reading
  /// A comment inside an element's text (CoreFoundation refuses it).
  let commentInText: Reading
  /// Which U+FEFF marks a string loses.
  let stringMarks: StringMarks

  // MARK: Binary

  /// Whether `bplist0` and any eighth byte is `bplist00` (CoreFoundation's check).
  let anyEighthVersionByte: Bool
  /// Offsets or references wider than 4 bytes (GNUstep refuses them).
  let wideFields: Reading
  /// What CoreFoundation's checks of the offset table refuse (bytes between it and the trailer,
  /// offsets too narrow to reach it, an entry at or past it): GNUstep reads such a file.
  let offsetTableFlaws: Reading
  /// A 16-byte integer.
  let sixteenByteIntegers: SixteenByteIntegers
  /// A UTF-16 string of no characters (CoreFoundation refuses it; GNUstep reads `""`).
  let emptyUTF16Strings: Reading
  /// A set (`0xC`): read as an array of its members, with a warning, or refused (GNUstep).
  let sets: Reading
  /// A UID object.
  let uids: BinaryUIDs
  /// Which value of a binary dictionary's key named twice is kept.
  let binaryDuplicateKey: DuplicateKey
  /// A dictionary key that is not a string (a number, a date, data): both readers keep it as
  /// it is, which a domain cannot; read under its text form with a warning, or refused.
  let nonStringKeys: Reading

  // MARK: OpenStep and GNUstep text

  /// Single-quoted strings (`'x'`: CoreFoundation's).
  let singleQuotes: Bool
  /// `{ key; }` as `key = key` (CoreFoundation's strings-file shortcut, in any dictionary).
  let keyAlone: Bool
  /// `key = value;` pairs at the top level (a strings file; CoreFoundation's).
  let stringsFiles: Bool
  /// A document of nothing but white space and comments: an empty dictionary (CoreFoundation's
  /// strings file), or no property list (GNUstep).
  let emptyDocument: Reading
  /// No `;` after a dictionary's last entry (GNUstep reads it; CoreFoundation refuses it).
  let missingSemicolon: Reading
  /// GNUstep's typed values (`<*I5>`) and base64 data (`<[…]>`).
  let typedValues: Bool
  /// The characters an unquoted string may hold.
  let unquoted: UnquotedCharacters
  /// How escapes in a quoted string are read (`\351`, `\u00e9`), and a string's first U+FEFF.
  let escapes: OpenStepEscapes
}

extension ReaderRules {
  /// What a reader does with what only the other reader reads.
  enum Reading: Sendable {
    /// Refused with a message naming its row.
    case refused
    /// Read as the reader that reads it reads it, with a warning that the other refuses it
    /// (the tools, a store's own file).
    case warned
    /// Read, as this reader reads it.
    case read
  }

  enum UnmarkedUTF16: Sendable {
    /// Refused in every format.
    case refused
    /// Read in XML (XML 1.0's appendix F detects it from the declaration), refused in OpenStep
    /// text (CoreFoundation reads it with a character dropped: another value).
    case readInXML
    /// Read in every format.
    case read
  }

  enum DeclaredEncodings: Sendable {
    /// `US-ASCII` is Latin-1 (each byte its code point, with a warning where one is above
    /// 0x7F), `cp1252` is `windows-1252`, `UTF-16` declared over 8-bit text is refused.
    case coreFoundation
    /// `US-ASCII` is UTF-8, `cp1252` is unknown, `UTF-16` over 8-bit text is UTF-8.
    case gnustep
  }

  enum AfterTopValue: Sendable {
    /// Not read, with a warning (CoreFoundation stops after the top value).
    case ignored
    /// Refused.
    case refused
  }

  enum XMLIntegers: Sendable {
    /// CoreFoundation's `parseIntegerTag`: white space before the sign and between it and the
    /// digits (`- 5` is -5).
    case coreFoundation
    /// GNUstep's: above Int64.max clamped to it, with a warning; hexadecimal (which it reads
    /// as 0) refused or read.
    case gnustep(hexadecimal: Reading)
  }

  enum XMLDates: Sendable {
    /// Exactly as CoreFoundation reads them: the text as it is, no fraction of a second.
    case coreFoundation
    /// Exactly as GNUstep reads them: 20 characters of ISO 8601, or its own description.
    case gnustep
    /// Any date of the ISO 8601 form; a fraction read with a warning.
    case anyISO8601
  }

  enum XMLData: Sendable {
    /// CoreFoundation's base64 of the raw bytes up to the first `<`; markup inside `<data>`
    /// (a comment, CDATA) refused or read without it, with a warning.
    case coreFoundation(markupInside: Reading)
    /// GNUstep's base64 of the element's text.
    case gnustep
  }

  enum StringMarks: Sendable {
    /// One U+FEFF at the start of a string or key.
    case coreFoundation
    /// GNUstep's parser: two at the start, also after the white space a string starts with,
    /// and one after each entity.
    case gnustep
  }

  enum SixteenByteIntegers: Sendable {
    /// The low 64 bits, unsigned, with a warning when the rest is not zero (CoreFoundation).
    case lowBitsUnsigned
    /// Refused (GNUstep).
    case refused
    /// Read when the value fits in 64 bits, refused otherwise.
    case whenTheyFit
  }

  enum BinaryUIDs: Sendable {
    /// Any width to 16 bytes, refused above 32 bits (CoreFoundation).
    case coreFoundation
    /// One or two bytes as the dictionary `{CF$UID = n}`; wider ones refused, or read as a
    /// UID of up to 8 bytes.
    case gnustepDictionaries(wider: Reading)
  }

  enum DuplicateKey: Sendable {
    case firstKept
    case lastKept
  }

  enum UnquotedCharacters: Sendable {
    /// CoreFoundation's: letters, digits and `_ $ / : . -`.
    case coreFoundation
    /// GNUstep's (printable ASCII but the delimiters), silently or with a warning where a
    /// string uses more than CoreFoundation's.
    case gnustep(beyondCoreFoundation: Reading)
  }

  enum OpenStepEscapes: Sendable {
    /// `\u` is the letter u (with a warning before hex digits); an octal escape above `\177`
    /// (a NeXTSTEP-encoded byte) refused.
    case coreFoundation
    /// `\u` is `\U`; an octal escape is its code point; an escape that ends the string short
    /// of its digits is dropped; a leading U+FEFF dropped and a leading U+FFFE swaps the
    /// bytes of the rest (GNUstep Base 1.28).
    case gnustep
  }
}

extension ReaderRules {
  /// CoreFoundation's `CFPropertyListCreateWithData`, exactly: the `apple` and `corelibs`
  /// dialects reading a legacy file.
  static let coreFoundation = ReaderRules(
    reader: .coreFoundation,
    byteOrderMarks: .read, unmarkedUTF16: .refused, declaredEncodings: .coreFoundation,
    xmlNeedsDeclaration: false, doctypeInternalSubset: .refused, afterTopValue: .ignored,
    keyWhereValueStands: true, uidDictionaries: true, scalarSpaces: .refused,
    integers: .coreFoundation, dates: .coreFoundation,
    data: .coreFoundation(markupInside: .refused),
    cdata: .read, commentInText: .refused, stringMarks: .coreFoundation,
    anyEighthVersionByte: true, wideFields: .read, offsetTableFlaws: .refused,
    sixteenByteIntegers: .lowBitsUnsigned, emptyUTF16Strings: .refused, sets: .warned,
    uids: .coreFoundation, binaryDuplicateKey: .firstKept, nonStringKeys: .refused,
    singleQuotes: true, keyAlone: true, stringsFiles: true, emptyDocument: .read,
    missingSemicolon: .refused, typedValues: false, unquoted: .coreFoundation,
    escapes: .coreFoundation)

  /// GNUstep Base's `NSPropertyListSerialization`, exactly: the `gnustep` dialect reading a
  /// legacy file.
  static let gnustep = ReaderRules(
    reader: .gnustep,
    byteOrderMarks: .refused, unmarkedUTF16: .refused, declaredEncodings: .gnustep,
    xmlNeedsDeclaration: true, doctypeInternalSubset: .read, afterTopValue: .refused,
    keyWhereValueStands: false, uidDictionaries: false, scalarSpaces: .read,
    integers: .gnustep(hexadecimal: .refused), dates: .gnustep, data: .gnustep,
    cdata: .refused, commentInText: .read, stringMarks: .gnustep,
    anyEighthVersionByte: false, wideFields: .refused, offsetTableFlaws: .read,
    sixteenByteIntegers: .refused, emptyUTF16Strings: .read, sets: .refused,
    uids: .gnustepDictionaries(wider: .refused), binaryDuplicateKey: .lastKept,
    nonStringKeys: .refused,
    singleQuotes: false, keyAlone: false, stringsFiles: false, emptyDocument: .refused,
    missingSemicolon: .warned, typedValues: true, unquoted: .gnustep(beyondCoreFoundation: .read),
    escapes: .gnustep)

  /// The tools that name no dialect (`lint`, `convert`, `read`) and an `apple` or `corelibs`
  /// store's own file: CoreFoundation's values, and what only GNUstep reads too, with a
  /// warning (``PlistReadOptions/lenient``).
  static let tools = ReaderRules(
    reader: .coreFoundation,
    byteOrderMarks: .read, unmarkedUTF16: .readInXML, declaredEncodings: .coreFoundation,
    xmlNeedsDeclaration: false, doctypeInternalSubset: .warned, afterTopValue: .ignored,
    keyWhereValueStands: true, uidDictionaries: true, scalarSpaces: .warned,
    integers: .coreFoundation, dates: .anyISO8601, data: .coreFoundation(markupInside: .warned),
    cdata: .read, commentInText: .warned, stringMarks: .coreFoundation,
    anyEighthVersionByte: false, wideFields: .read, offsetTableFlaws: .warned,
    sixteenByteIntegers: .lowBitsUnsigned, emptyUTF16Strings: .warned, sets: .warned,
    uids: .coreFoundation, binaryDuplicateKey: .firstKept, nonStringKeys: .warned,
    singleQuotes: true, keyAlone: true, stringsFiles: true, emptyDocument: .read,
    missingSemicolon: .warned, typedValues: true, unquoted: .gnustep(beyondCoreFoundation: .warned),
    escapes: .coreFoundation)

  /// A `gnustep` store's own file: GNUstep's values, and what only CoreFoundation reads too.
  static let gnustepStore = ReaderRules(
    reader: .gnustep,
    byteOrderMarks: .read, unmarkedUTF16: .read, declaredEncodings: .gnustep,
    xmlNeedsDeclaration: false, doctypeInternalSubset: .read, afterTopValue: .refused,
    keyWhereValueStands: false, uidDictionaries: false, scalarSpaces: .read,
    integers: .gnustep(hexadecimal: .read), dates: .anyISO8601, data: .gnustep,
    cdata: .read, commentInText: .read, stringMarks: .gnustep,
    anyEighthVersionByte: false, wideFields: .read, offsetTableFlaws: .read,
    sixteenByteIntegers: .whenTheyFit, emptyUTF16Strings: .read, sets: .warned,
    uids: .gnustepDictionaries(wider: .read), binaryDuplicateKey: .lastKept,
    nonStringKeys: .warned,
    singleQuotes: true, keyAlone: true, stringsFiles: true, emptyDocument: .read,
    missingSemicolon: .warned, typedValues: true, unquoted: .gnustep(beyondCoreFoundation: .warned),
    escapes: .gnustep)
}

extension PlistReadOptions {
  /// The rules these options read by: the one place that asks whose reader and how exactly.
  var rules: ReaderRules {
    switch (reader, exact) {
    case (.coreFoundation, true): .coreFoundation
    case (.coreFoundation, false): .tools
    case (.gnustep, true): .gnustep
    case (.gnustep, false): .gnustepStore
    }
  }
}
