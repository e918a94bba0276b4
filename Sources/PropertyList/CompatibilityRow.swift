/// The rows of Docs/compatibility.md ("Where prefs deliberately differs from a reference", and
/// its table of refusals, one row per cause): a refusal, or a reading that differs from the
/// dialect's own reader, names its row in its message (`[differential: ID]`), so that a
/// differential tells a documented difference from an undocumented one by the id alone
/// (`prefs lint --json` gives it as `row`). Every refusal of the readers names one: their
/// helpers (`fail`, `eof`) take a row, and a test reads the table and checks that every case
/// here is one of its rows.
package enum CompatibilityRow: String, CaseIterable, Sendable {
  // Any format.
  case emptyInput = "empty-input"
  case invalidText = "invalid-text"
  case utf16WithoutBOM = "utf16-without-bom"
  case gnustepEncoding = "gnustep-encoding"
  case safetyLimits = "safety-limits"
  case indistinctKeys = "indistinct-keys"
  case nonstringKey = "nonstring-key"
  case toolsReadMore = "tools-read-more"

  // XML.
  case xmlUnknownEncoding = "xml-unknown-encoding"
  case xmlUTF16OverBytes = "xml-utf16-declared-over-8-bit"
  case xmlTruncated = "xml-truncated"
  case xmlUnterminatedDoctype = "xml-unterminated-doctype"
  case xmlUnterminatedComment = "xml-unterminated-comment"
  case xmlUnterminatedProcessingInstruction = "xml-unterminated-processing-instruction"
  case xmlUnterminatedCDATA = "xml-unterminated-cdata"
  case xmlDoctypeInternalSubset = "xml-doctype-internal-subset"
  case xmlMalformedTag = "xml-malformed-tag"
  case xmlLessThanInAttribute = "xml-lt-in-attribute"
  case xmlCDATA = "xml-cdata"
  case xmlCommentInText = "xml-comment-in-text"
  case xmlMarkupInText = "xml-markup-in-text"
  case xmlBareAmpersand = "xml-bare-ampersand"
  case xmlBadCharacterReference = "xml-bad-character-reference"
  case xmlUndefinedEntity = "xml-undefined-entity"
  case xmlControlCharacterInNumber = "xml-control-character-in-number"
  case xmlTextBeforePlist = "xml-text-before-plist"
  case xmlEmptyPlist = "xml-empty-plist"
  case xmlTextAfterValue = "xml-text-after-value"
  case xmlSecondValue = "xml-second-value"
  case xmlContentAfterEnd = "xml-content-after-end"
  case xmlTextOutsideElement = "xml-text-outside-element"
  case xmlUnexpectedClose = "xml-unexpected-close"
  case xmlMismatchedClose = "xml-mismatched-close"
  case xmlKeyWithoutValue = "xml-key-without-value"
  case xmlKeyOutsideDictionary = "xml-key-outside-dict"
  case xmlValueWithoutKey = "xml-value-without-key"
  case xmlBadInteger = "xml-bad-integer"
  case xmlHexadecimalInteger = "xml-hexadecimal-integer"
  case xmlBadReal = "xml-bad-real"
  case xmlBooleanWithText = "xml-boolean-with-text"
  case xmlBadDate = "xml-bad-date"
  case xmlMarkupInData = "xml-markup-in-data"
  case xmlDataAbove7F = "xml-data-above-7f"
  case xmlBadBase64 = "xml-bad-base64"
  case xmlUnknownElement = "xml-unknown-element"

  // Binary.
  case truncatedBinary = "truncated-binary"
  case binaryVersion = "binary-version"
  case binaryOffsetSize = "binary-offset-size"
  case binaryReferenceSize = "binary-reference-size"
  case binaryObjectCount = "binary-object-count"
  case binaryTopObject = "binary-top-object"
  case binaryTableOffset = "binary-table-offset"
  case binaryTablePastTrailer = "binary-table-past-trailer"
  case binaryWideFields = "binary-wide-fields"
  case binaryGapBeforeTrailer = "binary-gap-before-trailer"
  case binaryOffsetsTooNarrow = "binary-offsets-too-narrow"
  case binaryOffsetPastTable = "binary-offset-past-table"
  case binaryReferencesTooNarrow = "binary-references-too-narrow"
  case binaryOffsetOutsideObjects = "binary-offset-outside-objects"
  case binaryObjectPastTable = "binary-object-past-table"
  case binaryCountMarker = "binary-count-marker"
  case binaryCountTooLarge = "binary-count-too-large"
  case binaryDanglingReference = "binary-dangling-reference"
  case binaryNull = "binary-null"
  case binaryUnknownMarker = "binary-unknown-marker"
  case binaryIntegerSize = "binary-integer-size"
  case binarySixteenByteInteger = "binary-16-byte-integer"
  case binaryRealSize = "binary-real-size"
  case nonfiniteBinaryDate = "nonfinite-binary-date"
  case binaryEmptyUTF16String = "binary-empty-utf16-string"
  case binarySet = "binary-set"
  case binaryUIDAbove32Bits = "binary-uid-above-32-bits"
  case binaryWideUID = "binary-wide-uid"
  case binaryContainerKey = "binary-container-key"
  case binaryCycle = "binary-cycle"

  // OpenStep and GNUstep text.
  case unterminatedComment = "unterminated-comment"
  case openStepTruncated = "openstep-truncated"
  case openStepUnterminatedString = "openstep-unterminated-string"
  case octalEscapeAbove177 = "octal-escape-above-177"
  case openStepDataOddDigits = "openstep-data-odd-digits"
  case openStepDataBadCharacter = "openstep-data-bad-character"
  case openStepUnexpectedCharacter = "openstep-unexpected-character"
  case openStepContainerKey = "openstep-container-key"
  case openStepMissingEquals = "openstep-missing-equals"
  case openStepMissingSemicolon = "openstep-missing-semicolon"
  case openStepJunkAfterValue = "openstep-junk-after-value"
  case openStepContentAfterEnd = "openstep-content-after-end"
  case gnustepEmptyDocument = "gnustep-empty-document"
  case gnustepBase64Empty = "gnustep-base64-empty"
  case gnustepBadBase64 = "gnustep-bad-base64"
  case gnustepTypedNumber = "gnustep-typed-number"
  case gnustepTypedBool = "gnustep-typed-bool"
  case gnustepTypedDate = "gnustep-typed-date"
  case gnustepTypedUnknown = "gnustep-typed-unknown"

  /// How a message names the row: `[differential: ID]`, as the table names it.
  package var tag: String { "[differential: \(rawValue)]" }

  /// The row a message names, if any.
  package static func id(in message: String) -> String? {
    guard let start = message.firstRange(of: "[differential: ") else { return nil }
    let rest = message[start.upperBound...]
    guard let end = rest.firstIndex(of: "]") else { return nil }
    return String(rest[..<end])
  }
}

extension String {
  /// The text with row `row` named after it: `"… [differential: ID]"`.
  func naming(_ row: CompatibilityRow) -> String { self + " " + row.tag }
}
