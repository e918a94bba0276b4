import Foundation
import PropertyList
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The XML reader's text scanning (runs of plain text taken eight bytes at a time) and its
/// number parsing from bytes, against the C library's `strtod`, python3 `plistlib` and the
/// UTF-8 definition.
@Suite struct XMLScanningTests {
  /// What the C library reads from all of `text`: nil when `strtod` stops before the end.
  static func strtodValue(_ text: String) -> Double? {
    text.withCString { start -> Double? in
      var end: UnsafeMutablePointer<CChar>? = nil
      let value = strtod(start, &end)
      guard let end, UnsafePointer(end) - start == strlen(start), UnsafePointer(end) != start else {
        return nil
      }
      return value
    }
  }

  /// The syntax the reader has always allowed for a `<real>`: only digits, signs, points and
  /// `e`, at least one digit, and all of it a C number.
  static func referenceReal(_ text: String) -> Double? {
    let allowed = text.utf8.allSatisfy { "0123456789+-.eE".utf8.contains($0) }
    guard allowed, text.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
    return strtodValue(text)
  }

  static func real(_ text: String) -> Double? { TextNumber.real(text) }

  static func same(_ a: Double?, _ b: Double?) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case (let x?, let y?): x.isNaN ? y.isNaN : x.bitPattern == y.bitPattern
    default: false
    }
  }

  /// Decimal texts of every shape the fast path and the general one take: 1 to 25 digits,
  /// a point anywhere or none, leading and trailing zeros, exponents near the fast path's
  /// edges (±19, ±22) and far out, signs, and syntax that must be refused.
  static func generatedReals(count: Int, seed: UInt64) -> [String] {
    var generator = SeededGenerator(seed: seed)
    func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }
    var texts: [String] = []
    for _ in 0..<count {
      var digits = String((0..<int(1...25)).map { _ in Character(String(int(0...9))) })
      if int(0...4) == 0 { digits = String(repeating: "0", count: int(1...5)) + digits }
      if int(0...4) == 0 { digits += String(repeating: "0", count: int(1...8)) }
      var text = digits
      switch int(0...3) {
      case 0: break
      case 1: text.insert(".", at: text.index(text.startIndex, offsetBy: int(0...digits.count)))
      case 2: text = "." + text
      default: text += "."
      }
      switch int(0...5) {
      case 0, 1: break
      case 2: text += "e\(int(-25...25))"
      case 3: text += "E+\(int(0...25))"
      case 4: text += "e\(int(-340...310))"
      default: text += ["e", "e+", "e-", "ee1", "e1.5", "e--1"][int(0...5)]
      }
      switch int(0...5) {
      case 0: text = "-" + text
      case 1: text = "+" + text
      case 2: if int(0...3) == 0 { text = ["--", "+-", "-.", "1-", ".."][int(0...4)] + text }
      default: break
      }
      texts.append(text)
    }
    return texts
  }

  @Test func realsAgreeWithStrtod() {
    var mismatches: [String] = []
    var fast = 0
    for text in Self.generatedReals(count: 200_000, seed: 26) {
      let ours = Self.real(text)
      let theirs = Self.referenceReal(text)
      if !Self.same(ours, theirs) {
        mismatches.append("\(text): \(String(describing: ours)) vs \(String(describing: theirs))")
      }
      if theirs != nil { fast += 1 }
      // And what the reader did before: the standard library's parser on the same text.
      if !Self.same(ours, Self.referenceReal(text) == nil ? nil : Double(text)) {
        mismatches.append("\(text): Double(String) differs")
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(20))")
    #expect(fast > 125_000)
  }

  /// Random doubles written with 15 to 19 significant digits (`%.Ng`), as writers write
  /// them: the texts the fast path is for.
  @Test func printedDoublesAgreeWithStrtod() {
    var generator = SeededGenerator(seed: 27)
    var mismatches: [String] = []
    for round in 0..<200_000 {
      let x: Double
      if round % 2 == 0 {
        x = Double(bitPattern: generator.next())
      } else {
        let unit = Double(generator.next() >> 11) / Double(UInt64(1) << 53)
        x = pow(10, -8 + 24 * unit)
      }
      guard x.isFinite else { continue }
      let precision = 15 + Int(generator.next() % 5)
      var buffer = [CChar](repeating: 0, count: 64)
      let count = withVaList([x]) { arguments in
        buffer.withUnsafeMutableBufferPointer {
          vsnprintf($0.baseAddress, $0.count, "%.\(precision)g", arguments)
        }
      }
      let text = String(
        decoding: buffer.prefix(Int(count)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if text.contains("n") { continue }
      let ours = Self.real(text)
      let theirs = Self.strtodValue(text)
      if !Self.same(ours, theirs) {
        mismatches.append("\(text): \(String(describing: ours)) vs \(String(describing: theirs))")
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(20))")
  }

  /// The words for the non-finite values, in any letter case, and what is not one.
  @Test(arguments: [
    ("nan", "nan"), ("NaN", "nan"), ("+NAN", "nan"), ("-nan", "nan"), ("inf", "inf"),
    ("INF", "inf"), ("+Inf", "inf"), ("Infinity", "inf"), ("+INFINITY", "inf"),
    ("-inf", "-inf"), ("-Infinity", "-inf"), ("infinit", "nil"), ("nann", "nil"),
    ("+-inf", "nil"), ("0x1p3", "nil"), ("1e5", "100000.0"), ("-0", "-0.0"), (".5", "0.5"),
    ("5.", "5.0"), (".", "nil"), ("e5", "nil"), ("1e", "nil"), ("1e+", "nil"), ("1.2.3", "nil"),
    ("1e400", "inf"), ("-1e400", "-inf"), ("1e-400", "0.0"), ("4.9e-324", "5e-324"),
  ])
  func words(_ text: String, _ expected: String) {
    let value = Self.real(text)
    #expect((value.map { "\($0)" } ?? "nil") == expected, "\(text)")
    // The words as C reads them (strtod takes them in any case, too).
    if expected != "nil", text.lowercased().contains("n") {
      #expect(Self.same(value.map { $0.isNaN ? Double.nan : $0 }, Self.strtodValue(text)))
    }
  }

  static func integer(_ text: String) -> PlistValue? { TextNumber.integer(text) }

  /// Integers against the C library's `strtoll`/`strtoull` (base 10, or 16 after `0x`).
  @Test func integersAgreeWithTheCLibrary() {
    var generator = SeededGenerator(seed: 28)
    var mismatches: [String] = []
    for round in 0..<200_000 {
      let hex = round % 4 == 0
      let length = 1 + Int(generator.next() % (hex ? 18 : 22))
      let alphabet = Array(hex ? "0123456789abcdefABCDEF" : "0123456789")
      var digits = String(
        (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
      if generator.next() % 50 == 0 { digits.insert(" ", at: digits.startIndex) }
      let sign = ["", "-", "+"][Int(generator.next() % 3)]
      let text = sign + (hex ? "0x" : "") + digits
      let expected: PlistValue?
      let negative = sign == "-"
      let body = hex ? String(text.dropFirst(sign.count + 2)) : String(text.dropFirst(sign.count))
      let valid = !body.isEmpty && body.utf8.allSatisfy { (hex ? 16 : 10) > hexValue($0) }
      errno = 0
      let magnitude = body.withCString { strtoull($0, nil, hex ? 16 : 10) }
      let overflow = errno == ERANGE
      if !valid || overflow {
        expected = nil
      } else if negative {
        expected =
          magnitude == 0
          ? .integer(0)
          : magnitude > UInt64(Int64.max) + 1
            ? nil : .integer(magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude))
      } else {
        expected =
          magnitude > UInt64(Int64.max) ? .unsignedInteger(magnitude) : .integer(Int64(magnitude))
      }
      let ours = Self.integer(text)
      if ours != expected {
        mismatches.append("\(text): \(String(describing: ours)) vs \(String(describing: expected))")
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(20))")
  }

  func hexValue(_ c: UInt8) -> Int {
    switch c {
    case 0x30...0x39: Int(c - 0x30)
    case 0x61...0x66: Int(c - 0x61 + 10)
    case 0x41...0x46: Int(c - 0x41 + 10)
    default: 99
    }
  }

  /// Strings whose plain runs start at every offset of a word and end across 8- and 16-byte
  /// boundaries, with entities, character references, CDATA sections, comments and
  /// non-ASCII text among them: each read as python3 plistlib reads the same document.
  @Test(.enabled(if: Tools.python || External.required, "needs python3"))
  func textRunsAgreeWithPlistlib() throws {
    let pieces: [(xml: String, text: String)] = [
      ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"),
      ("&#233;", "é"), ("&#x1F600;", "😀"), ("<![CDATA[a<b&c]]>", "a<b&c"),
      ("<!-- a comment -->", ""), ("é", "é"), ("漢字", "漢字"), ("😀", "😀"), ("\t", "\t"),
      (" ", " "),
    ]
    var generator = SeededGenerator(seed: 30)
    var documents: [String] = []
    var expected: [String] = []
    for length in 0..<40 {
      for _ in 0..<6 {
        var xml = ""
        var text = ""
        for k in 0..<length {
          if generator.next() % 5 == 0 {
            let piece = pieces[Int(generator.next() % UInt64(pieces.count))]
            xml += piece.xml
            text += piece.text
          } else {
            let c = String(UnicodeScalar(UInt8(0x61 + k % 26)))
            xml += c
            text += c
          }
        }
        documents.append(
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array>"
            + String(repeating: " ", count: length % 17) + "<string>\(xml)</string>"
            + "</array>\n</plist>\n")
        expected.append(text)
      }
    }
    // Ours.
    var ours: [String] = []
    for document in documents {
      let value = try PropertyList.read(Data(document.utf8)).value
      ours.append(value.arrayValue?.first?.stringValue ?? "<none>")
    }
    #expect(ours == expected)
    // plistlib's.
    let script = """
      import json, plistlib, sys
      docs = json.load(sys.stdin)
      print(json.dumps([plistlib.loads(d.encode())[0] for d in docs]))
      """
    let input = try JSONSerialization.data(withJSONObject: documents)
    let result = try External.run(
      External.which("python3") ?? "/usr/bin/python3", ["-c", script], input: input)
    #expect(result.status == 0, "\(result.stderr)")
    let theirs = try JSONSerialization.jsonObject(with: result.stdout) as? [String]
    #expect(theirs == ours)
  }

  /// A byte that cannot be UTF-8 (or a sequence cut short, overlong, or a surrogate) at every
  /// offset of a run of plain text: refused, at that byte's line and column, as before.
  @Test func invalidUTF8AtEveryOffsetIsRefused() throws {
    let bad: [[UInt8]] = [
      [0xFF], [0x80], [0xC0, 0x80], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xF8],
    ]
    let head = Array("<plist><string>".utf8)
    for sequence in bad {
      for offset in 0..<40 {
        var run = Array("abcdefghijklmnopqrstuvwxyzé0123456789ABCDEFGHIJ".utf8.prefix(42))
        // Never inside the two bytes of `é` (at 26 and 27).
        let at = offset >= 26 && offset <= 27 ? 28 : offset
        run.insert(contentsOf: sequence, at: at)
        let document = head + run + Array("</string></plist>\n".utf8)
        #expect {
          _ = try PropertyList.read(Data(document))
        } throws: { error in
          guard case .invalidText(let format, let location, _) = error as? PlistError else {
            return false
          }
          return format == .xml && location == .line(1, column: head.count + at + 1)
        }
      }
    }
  }

  /// A text whose closing tag is not its own, or that never ends, is refused with the same
  /// message wherever the run stops.
  @Test func unterminatedRunsAreRefused() {
    for length in 0..<20 {
      let text = String(repeating: "x", count: length)
      #expect(throws: PlistError.self) {
        try PropertyList.read(Data("<plist><string>\(text)".utf8))
      }
      #expect(throws: PlistError.self) {
        try PropertyList.read(Data("<plist><string>\(text)</strin></plist>".utf8))
      }
      #expect(throws: PlistError.self) {
        try PropertyList.read(Data("<plist><string>\(text)&bogus;</string></plist>".utf8))
      }
    }
  }
}
