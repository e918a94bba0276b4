import Foundation
import PropertyList
import TestSupport
import Testing

/// The command lines run on one file: every verb and option over the value's key paths.
extension PlutilOracleCases {
  // MARK: - Command lines for one file

  /// A key path of the value, and the type `plutil -type` names.
  struct Path {
    var path: String
    var type: String
    /// The value is an element of an array (its last component an index).
    var inArray = false
    /// An array's count.
    var count = 0
    var isContainer: Bool { type == "array" || type == "dictionary" }
    /// Every component names something (plutil follows no empty key, the top level's `""`).
    var reachable: Bool { !KeyPathText.components(path).contains("") }
    /// JSON holds it alone as a fragment (plutil refuses to write one).
    var isJSONScalar: Bool { ["string", "integer", "float", "bool"].contains(type) }
  }

  static func typeName(_ value: PlistValue) -> String {
    switch value {
    case .string: "string"
    case .integer, .unsignedInteger: "integer"
    case .real: "float"
    case .bool: "bool"
    case .date: "date"
    case .data: "data"
    case .array: "array"
    case .dictionary: "dictionary"
    case .uid: "(any)"
    }
  }

  /// Key paths of `value`: every key and index to depth 3, at most `limit`.
  static func paths(_ value: PlistValue, limit: Int = 40) -> [Path] {
    var found: [Path] = []
    func walk(_ value: PlistValue, _ prefix: String, _ depth: Int) {
      guard depth < 3, found.count < limit else { return }
      var inArray = false
      if case .array = value { inArray = true }
      let children: [(String, PlistValue)] =
        switch value {
        case .dictionary(let d):
          d.map { ($0.key.replacingOccurrences(of: ".", with: "\\."), $0.value) }
        case .array(let a): a.enumerated().map { (String($0.offset), $0.element) }
        default: []
        }
      for (component, child) in children where found.count < limit {
        let path = prefix.isEmpty && depth == 0 ? component : prefix + "." + component
        found.append(
          Path(
            path: path, type: typeName(child), inArray: inArray,
            count: child.arrayValue?.count ?? 0))
        walk(child, path, depth + 1)
      }
    }
    walk(value, "", 0)
    return found
  }

  /// The command lines for `file` holding `value` (nil: a JSON or OpenStep file, read by the
  /// port only). `full`: every verb and option; else reading, converting and a few edits (the
  /// XML copy of a document whose binary copy has them all).
  static func lines(for file: String, value: PlistValue?, full: Bool = true) -> [OracleLine] {
    var lines: [[String]] = [
      ["-lint", file], [file], ["-s", file], ["-p", file],
      ["-convert", "xml1", "-o", "out.plist", file], ["-convert", "xml1", file],
      ["-convert", "binary1", file], ["-convert", "json", "-o", "out.json", file],
      ["-convert", "json", "-r", "-o", "-", file], ["-convert", "json", "-r", file],
      ["-convert", "json", "-o", "-", file], ["-convert", "xml1", "-o", "-", file],
      ["-convert", "swift", file], ["-convert", "swift", "-o", "-", file],
      ["-convert", "objc", file], ["-convert", "objc", "-header", file],
      ["-convert", "objc", "-header", "-o", "lit.m", file], ["-convert", "objc", "-o", "-", file],
    ]
    if full {
      lines += [
        ["-lint", "-s", file], ["-convert", "binary1", "-o", "out.plist", file],
        ["-convert", "xml1", "-e", "xml", file], ["-convert", "openStep", "-o", "-", file],
        ["-convert", "raw", file], ["-convert", "type", file],
      ]
    }
    var differing: [OracleLine] = []
    if let value, !value.isContainer {
      // JSON of a file holding a scalar: a fragment (plutil refuses to write one).
      let json: Set<[String]> = [
        ["-convert", "json", "-o", "out.json", file], ["-convert", "json", "-r", "-o", "-", file],
        ["-convert", "json", "-r", file], ["-convert", "json", "-o", "-", file],
      ]
      lines.removeAll { json.contains($0) }
      differing += json.sorted { $0.joined() < $1.joined() }.map {
        OracleLine(words: $0, difference: value.isJSONScalar ? scalarJSON : nil)
      }
    }
    let paths = value.map { Self.paths($0) } ?? []
    // Each key path gets a few of the extract/type/edit lines, in turn, so that every line
    // meets every kind of value.
    for (n, p) in paths.enumerated() {
      let wrong = p.type == "string" ? "integer" : "string"
      var variants: [[String]] = [
        ["-extract", p.path, "raw", file], ["-extract", p.path, "xml1", "-o", "-", file],
        ["-type", p.path, file], ["-extract", p.path, "raw", "-n", file],
        ["-extract", p.path, "raw", "-o", "raw.txt", file],
        ["-extract", p.path, "binary1", "-o", "k.plist", file],
        ["-extract", p.path, "raw", "-expect", p.type, file],
        ["-extract", p.path, "raw", "-expect", wrong, file],
        ["-type", p.path, "-expect", p.type, file], ["-type", p.path, "-expect", wrong, file],
        ["-remove", p.path, file], ["-extract", p.path, "xml1", file],
      ]
      if p.isContainer {
        variants.append(["-extract", p.path, "json", "-o", "-", file])
      } else {
        variants += [
          ["-insert", p.path, "-integer", "1", file],
          ["-insert", p.path + ".deeper", "-integer", "1", file],
        ]
        let replace = ["-replace", p.path, "-string", "replaced", file]
        if !p.inArray || !p.reachable {
          variants.append(replace)
        } else if n % 3 == 0 {
          differing.append(OracleLine(words: replace, difference: replaceAtIndex))
        }
        if p.isJSONScalar, p.reachable, n % 4 == 0 {
          differing.append(
            OracleLine(
              words: ["-extract", p.path, "json", "-o", "-", file], difference: scalarJSON))
        } else if !p.isJSONScalar || !p.reachable {
          variants.append(["-extract", p.path, "json", "-o", "-", file])
        }
      }
      let every = full ? 3 : 12
      lines += variants.indices.filter { ($0 + n) % every == 0 }.map { variants[$0] }
    }
    // Edits with every type, at a new key (or index) and, for arrays, at indices.
    let newKey = value.map { if case .array = $0 { return "0" } else { return "new" } } ?? "new"
    var edits: [(String, String)] = [
      ("-bool", "YES"), ("-integer", "-42"), ("-float", "0.1"), ("-string", "hello world"),
      ("-date", "2011-03-14T15:09:26Z"), ("-data", "y/7w"), ("-json", #"{"a":[1,2.5,true,"x"]}"#),
    ]
    if full {
      edits += [
        ("-bool", "true"), ("-bool", "no"), ("-bool", "FALSE"),
        ("-integer", "9223372036854775807"), ("-float", "2.5"), ("-float", "1e3"),
        ("-data", "AQID"), ("-xml", "<dict><key>a</key><integer>1</integer></dict>"),
        ("-xml", "<string>x</string>"), ("-json", "5"), ("-json", #""text""#),
      ]
    }
    lines += edits.map { ["-insert", newKey, $0.0, $0.1, file] }
    lines += [["-insert", newKey, "-array", file], ["-remove", "nope", file]]
    if full {
      let replaceNew = ["-replace", newKey, "-string", "x", file]
      if newKey == "0", value?.arrayValue?.isEmpty == false {
        differing.append(OracleLine(words: replaceNew, difference: replaceAtIndex))
      } else {
        lines.append(replaceNew)
      }
      lines += [
        ["-insert", newKey, "-dictionary", file],
        ["-insert", "no.such.parent", "-string", "x", file], ["-remove", "", file],
        ["-extract", "nope", "raw", file], ["-extract", "", "raw", file], ["-type", "nope", file],
        ["-insert", newKey, "-string", "x", "-o", "-", file],
        ["-insert", newKey, "-string", "x", "-o", "edited.plist", file],
        ["-remove", paths.first?.path ?? "nope", "-o", "edited.plist", file],
        ["-insert", newKey, "-string", "x", "-r", file],
        ["-insert", newKey, "-string", "x", "-s", file],
      ]
      differing += [
        OracleLine(words: ["-insert", newKey, "-integer", "x", file], difference: integerText),
        OracleLine(words: ["-insert", newKey, "-integer", "12abc", file], difference: integerText),
        OracleLine(words: ["-insert", newKey, "-bool", "maybe", file], difference: boolText),
        OracleLine(words: ["-insert", newKey, "-bool", "1", file], difference: boolText),
        OracleLine(words: ["-insert", newKey, "-float", "pi", file], difference: floatText),
        OracleLine(words: ["-insert", newKey, "-float", "1e400", file], difference: floatText),
        OracleLine(words: ["-replace", newKey, "-date", "garbage", file], difference: dateText),
        OracleLine(
          words: ["-insert", newKey, "-date", "2011-03-14T15:09:26.5Z", file],
          difference: dateFraction),
      ]
      for p in paths where p.type == "array" && p.reachable {
        lines += [
          ["-insert", p.path, "-string", "appended", "-append", file],
          ["-insert", p.path + ".0", "-integer", "5", file],
          ["-insert", p.path + ".99", "-integer", "5", file],
          ["-insert", p.path + ".x", "-integer", "5", file],
        ]
        // At an index: -replace replaces (the port inserts); -append past the end is
        // refused (the port crashes).
        let append = ["-insert", p.path + ".0", "-integer", "5", "-append", file]
        let replace = ["-replace", p.path + ".0", "-string", "x", file]
        let replaceAppending = ["-replace", p.path, "-string", "x", "-append", file]
        if p.count > 0 {
          lines.append(append)
          differing.append(OracleLine(words: replace, difference: replaceAtIndex))
        } else {
          lines.append(replace)
          differing.append(OracleLine(words: append, difference: appendPastEnd))
        }
        if p.inArray {
          differing.append(OracleLine(words: replaceAppending, difference: replaceAtIndex))
        } else {
          lines.append(replaceAppending)
        }
      }
      for p in paths where p.type == "dictionary" && p.reachable {
        lines.append(["-insert", p.path + ".added", "-string", "x", file])
        lines.append(["-insert", p.path, "-string", "x", "-append", file])
      }
    }
    return lines.map { OracleLine(words: $0) } + differing
  }
}
