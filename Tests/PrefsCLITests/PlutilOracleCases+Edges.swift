import Foundation
import PropertyList
import TestSupport
import Testing

/// Inputs of their own: keys that differ only in Unicode normalization, a long JSON number,
/// bad files, several files, standard input, `-create`, usage.
extension PlutilOracleCases {
  // MARK: - Keys that differ only in Unicode normalization

  /// A dictionary holding `é` (U+00E9) and `e` + U+0301: two keys in the file, to
  /// CoreFoundation and to prefs; the port's Swift dictionaries merge them into one, keeping
  /// one of the values when printing. prefs prints and converts both, and edits the file with
  /// both keys kept apart, as the port's `-insert` does (its dictionaries compare keys byte for
  /// byte, as CoreFoundation does).
  static let twins: OracleInput? = {
    var d = PlistDictionary()
    d["\u{E9}"] = 1
    d["e\u{301}"] = 2
    d["f"] = 3
    guard let bytes = try? PropertyList.write(.dictionary(d), as: .binary) else { return nil }
    let both = Difference(row: "keys that differ only in Unicode normalization") {
      $0.status == 0 && $0.text.contains("\u{E9}") && $0.text.contains("e\u{301}")
    }
    return OracleInput(
      name: "normalization-twins", files: ["twins.plist": bytes],
      lines: [
        OracleLine(words: ["-p", "twins.plist"], difference: both),
        OracleLine(words: ["-convert", "xml1", "-o", "-", "twins.plist"], difference: both),
        OracleLine(words: ["-convert", "json", "-r", "-o", "-", "twins.plist"], difference: both),
        OracleLine(words: ["-insert", "g", "-integer", "4", "twins.plist"]),
        OracleLine(words: ["-lint", "twins.plist"]),
      ])
  }()

  /// A JSON number of more than 17 characters: the port reads it as a `Decimal` and stores
  /// another double (0.30000000000000004 as 0.3000000000000001); prefs reads the double the
  /// text names.
  static let longNumber: OracleInput = {
    let exact = Difference(row: "a JSON number of more than 17 characters") {
      $0.status == 0 && ($0.text.contains("0.30000000000000004") || $0.files["out.plist"] != nil)
    }
    return OracleInput(
      name: "long-number", files: ["n.json": Data(#"{"n": 0.30000000000000004, "m": 2}"#.utf8)],
      lines: [
        OracleLine(words: ["-p", "n.json"]), OracleLine(words: ["-extract", "n", "raw", "n.json"]),
        OracleLine(words: ["-convert", "xml1", "-o", "-", "n.json"], difference: exact),
        OracleLine(words: ["-convert", "binary1", "-o", "out.plist", "n.json"], difference: exact),
      ])
  }()

  // MARK: - Bad files, several files, standard input, -create, usage

  static let sample = try? PropertyList.write(["a": "b", "n": 1, "list": [1, 2]], as: .xml)

  static let badFiles = OracleInput(
    name: "bad-files",
    files: [
      "empty.plist": Data(), "broken.plist": Data("<plist><dict><key>a</key></dict></plist>".utf8),
      "truncated.plist": Data("bplist00\u{01}".utf8), "dir.plist": nil,
      "bad.json": Data(#"{"a": 1"#.utf8),
    ],
    lines: [
      "missing.plist", "empty.plist", "broken.plist", "truncated.plist", "dir.plist", "bad.json",
    ]
    .flatMap { file in
      [
        ["-lint", file], ["-p", file], ["-convert", "xml1", file],
        ["-insert", "a", "-string", "b", file], ["-remove", "a", file],
        ["-extract", "a", "raw", file], ["-type", "a", file],
      ]
    }.map { OracleLine(words: $0) })

  /// Where prefs refuses what CoreFoundation reads, on purpose (Docs/compatibility.md's rows): a file
  /// that starts as binary does but is not (`bplistl`, which CoreFoundation reads as a word),
  /// an OpenStep comment without its end (CoreFoundation keeps what came before it).
  static let stricter = OracleInput(
    name: "stricter",
    files: [
      "bplistl.plist": Data("bplistl".utf8), "comment.plist": Data("{ a = 1; } /* x".utf8),
      "only-comment.plist": Data("/* x".utf8),
    ],
    lines: [
      ("bplistl.plist", Difference.refuses("a file that starts with bplist", saying: "binary")),
      (
        "comment.plist",
        Difference.refuses("an OpenStep comment without its */", saying: "expected */")
      ),
      (
        "only-comment.plist",
        Difference.refuses("an OpenStep comment without its */", saying: "expected */")
      ),
    ].flatMap { file, difference in
      [["-lint", file], ["-p", file], ["-convert", "xml1", "-o", "-", file]].map {
        OracleLine(words: $0, difference: difference)
      }
    })

  /// Text in every encoding CoreFoundation and JSONSerialization detect: UTF-32 by its
  /// byte-order mark only (without one both refuse), UTF-16 by its mark or its zero bytes,
  /// JSON in UTF-8 with a mark, UTF-16 and UTF-32 with or without one.
  static let encodings: OracleInput = {
    let xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <dict>
      \t<key>ké😀</key>
      \t<string>v é</string>
      </dict>
      </plist>

      """
    let openStep = "{ k = \"vé\"; n = (1, 2); }"
    let json = #"{"a": [1, "é"], "b": {"c": true}}"#
    let encodings: [(String, String.Encoding, [UInt8])] = [
      ("utf32be-bom", .utf32BigEndian, [0, 0, 0xFE, 0xFF]),
      ("utf32le-bom", .utf32LittleEndian, [0xFF, 0xFE, 0, 0]),
      ("utf32le", .utf32LittleEndian, []), ("utf16be-bom", .utf16BigEndian, [0xFE, 0xFF]),
      ("utf16le", .utf16LittleEndian, []), ("utf8-bom", .utf8, [0xEF, 0xBB, 0xBF]),
    ]
    var files: [String: Data?] = [:]
    for (name, encoding, bom) in encodings {
      for (kind, text) in [("xml", xml), ("openstep", openStep), ("json", json)] {
        guard let body = text.data(using: encoding) else { continue }
        files["\(kind)-\(name).\(kind == "json" ? "json" : "plist")"] = Data(bom) + body
      }
    }
    return OracleInput(
      name: "encodings", files: files,
      lines: files.keys.sorted().flatMap { file in
        // (XML in UTF-16 without a byte-order mark: refused, as plutil refuses it.)
        [["-lint", file], ["-p", file], ["-convert", "xml1", "-o", "-", file]].map {
          OracleLine(words: $0, difference: file == "openstep-utf16le.plist" ? utf16Text : nil)
        }
      })
  }()

  static let utf16Text = Difference.refuses(
    "OpenStep text in UTF-16 or UTF-32 without a byte-order mark",
    saying: "without a byte-order mark")

  static let severalFiles = OracleInput(
    name: "several-files",
    files: [
      "one.plist": sample, "two.plist": sample, "three.json": Data(#"{"a":"c"}"#.utf8),
      "-dash.plist": sample,
    ],
    lines: [
      ["-lint", "one.plist", "two.plist", "missing.plist"], ["one.plist", "three.json"],
      ["-p", "one.plist", "three.json"], ["-convert", "xml1", "one.plist", "three.json"],
      ["-convert", "json", "-r", "-o", "-", "one.plist", "two.plist"],
      ["-convert", "binary1", "-o", "both.plist", "one.plist", "two.plist"],
      ["-extract", "a", "raw", "one.plist", "three.json"],
      ["-insert", "x", "-string", "y", "one.plist", "two.plist"],
      ["-remove", "a", "one.plist", "missing.plist", "two.plist"],
      ["-type", "n", "one.plist", "three.json"], ["-lint", "-s", "one.plist", "two.plist"],
      ["-create", "xml1", "new1.plist", "new2.plist"],
      ["-convert", "swift", "one.plist", "two.plist"],
      ["-lint", "--", "one.plist"], ["-p", "--", "one.plist"],
    ].map { OracleLine(words: $0) } + [
      OracleLine(
        words: ["-p", "--", "-dash.plist"],
        difference: Difference(row: "-- before a file whose name starts with -") {
          $0.status == 0 && $0.text.contains("\"a\" => \"b\"")
        })
    ])

  static let standardInput: OracleInput = {
    let input = sample ?? Data()
    let lines: [[String]] = [
      ["-lint", "-"], ["-"], ["-p", "-"], ["-convert", "xml1", "-o", "-", "-"],
      ["-convert", "json", "-r", "-o", "-", "-"], ["-convert", "xml1", "-"],
      ["-extract", "a", "raw", "-"], ["-type", "list", "-"],
      ["-insert", "k", "-string", "v", "-"], ["-insert", "k", "-string", "v", "-o", "-", "-"],
      ["-convert", "swift", "-o", "-", "-"], ["-convert", "objc", "-"],
    ]
    return OracleInput(
      name: "standard-input", files: [:],
      lines: lines.map { OracleLine(words: $0, stdin: input) }
        + [
          OracleLine(words: ["-p", "-"], stdin: Data(#"{"json": [1, 2]}"#.utf8)),
          OracleLine(words: ["-lint", "-"], stdin: Data()),
        ])
  }()

  static let create = OracleInput(
    name: "create", files: ["dir": nil],
    lines: [
      ["-create", "xml1", "new.plist"], ["-create", "binary1", "new.plist"],
      ["-create", "json", "new.json"], ["-create", "json", "-r", "new.json"],
      ["-create", "swift", "new.swift"], ["-create", "objc", "new.m"], ["-create", "raw", "new"],
      ["-create", "type", "new"], ["-create", "openStep", "new.plist"],
      ["-create", "NoConversion", "new.plist"], ["-create", "xml1", "-"],
      ["-create", "json", "-"], ["-create", "raw", "-"], ["-create", "type", "-"],
      ["-create", "raw", "-n", "-"], ["-create", "swift", "-"], ["-create", "objc", "-"],
      ["-create", "xml1", "dir/inside.plist"], ["-create", "xml1", "no/such/folder.plist"],
      ["-create", "xml1", "dir"], ["-create", "xml1", ""],
    ].map { OracleLine(words: $0) })

  static let usage = OracleInput(
    name: "usage", files: ["a.plist": sample],
    lines: [
      [], ["-convert"], ["-convert", "foo", "a.plist"], ["-convert", "xml1"],
      ["-convert", "json", "-header", "a.plist"], ["-convert", "xml1", "-o"],
      ["-convert", "xml1", "-e"], ["-extract"], ["-extract", "a"], ["-extract", "a", "raw"],
      ["-extract", "a", "foo", "a.plist"], ["-extract", "a", "raw", "-expect"],
      ["-extract", "a", "raw", "-expect", "zz", "a.plist"], ["-type"],
      ["-type", "a", "-expect"], ["-type", "a", "-expect", "zz", "a.plist"], ["-insert"],
      ["-insert", "a"], ["-insert", "a", "-bool"], ["-insert", "a", "-foo", "v", "a.plist"],
      ["-insert", "a", "-array", "extra", "a.plist"], ["-remove"], ["-create"],
      ["-create", "xml1"], ["-create", "foo", "x"], ["-frob", "a.plist"],
      ["-lint", "-o", "x", "a.plist"], ["-lint", "-e", "x", "a.plist"],
      ["-p", "-o", "x", "a.plist"], ["-p", "-e", "x", "a.plist"], ["-p", "-s", "a.plist"],
      ["-p"], ["-lint"], ["-n", "a.plist"], ["-r", "a.plist"], ["--", "a.plist"],
      ["-p", "a.plist", "-x"], ["-convert", "xml1", "-o", "o.plist", "-e", "xml", "a.plist"],
      ["-extract", "a", "raw", "-expect", "string", "-expect", "string", "a.plist"],
    ].map { OracleLine(words: $0) } + [OracleLine(words: ["-help"], difference: help)])
}
