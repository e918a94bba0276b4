import LegacyDefaults
import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A plan as Swift source the app compiles (`prefs plan swift PLAN [LEGACY...]`): its typed
/// keys, an enum per `enum` entry, a `Codable` struct per `json` entry (its fields from the
/// JSON the legacy domains given to ``addSamples(from:)`` hold), and the same plan as a Swift
/// `MigrationPlan`.
package struct SwiftPlanSource: Sendable {
  package let plan: MigrationPlan
  /// The plan's name in Swift (`MigrationPlan.<name>`).
  package let name: String
  /// JSON values seen for each `json` entry's legacy key.
  private var samples: [String: [JSONValue]] = [:]
  /// The most JSON values kept per key: enough to see every field a struct needs.
  static let sampleLimit = 200

  private var typeNames: [String: String] = [:]
  private var keyNames: [String: String] = [:]

  /// The source of `plan`, named `name` (a Swift identifier: see ``isIdentifier(_:)``).
  package init(plan: MigrationPlan, name: String) {
    self.plan = plan
    self.name = name
    var usedTypes: Set<String> = ["Keys", "Key", "MigrationPlan", "Data", "Date", "URL"]
    var usedKeys: Set<String> = []
    for entry in plan.entries {
      keyNames[entry.to] = Self.unique(Self.identifier(entry.to, upper: false), &usedKeys)
      if entry.type == .enum || entry.type == .json {
        typeNames[entry.to] = Self.unique(Self.identifier(entry.to, upper: true), &usedTypes)
      }
    }
  }

  /// The name a plan file's name gives the plan in Swift (`equizmo-plan.json` →
  /// `equizmoPlan`).
  package static func name(forPlanFile path: String) -> String {
    identifier(
      URL(fileURLWithPath: FilePathParts(path).path).deletingPathExtension().lastPathComponent,
      upper: false)
  }

  /// Whether `name` can name the plan in Swift: an identifier (a letter or `_`, then letters,
  /// digits or `_`; ASCII, as the rest of the source), not a keyword.
  package static func isIdentifier(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, !reserved.contains(name) else { return false }
    func isLetter(_ c: Unicode.Scalar) -> Bool {
      ("a"..."z").contains(c) || ("A"..."Z").contains(c) || c == "_"
    }
    return isLetter(first)
      && name.unicodeScalars.allSatisfy { isLetter($0) || ("0"..."9").contains($0) }
  }

  /// Adds the JSON that one legacy domain holds under the plan's `json` entries: the fields
  /// of the structs the source declares.
  package mutating func addSamples(from legacy: [String: PlistValue]) {
    for entry in plan.entries where entry.type == .json {
      let key = entry.from
      guard samples[key, default: []].count < Self.sampleLimit else { continue }
      let bytes: Data
      switch legacy[key] {
      case .string(let s)?: bytes = Data(s.utf8)
      case .data(let d)?: bytes = d
      default: continue
      }
      if case .success(let value) = Result(catching: { () throws(JSONValue.ParseError) in
        try JSONValue.parse(bytes)
      }) {
        samples[key, default: []].append(value)
      }
    }
  }

  static func unique(_ base: String, _ used: inout Set<String>) -> String {
    var candidate = base
    var n = 2
    while used.contains(candidate) {
      candidate = base + "\(n)"
      n += 1
    }
    used.insert(candidate)
    return candidate
  }

  static let reserved: Set<String> = [
    "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import",
    "init", "inout", "internal", "let", "open", "operator", "private", "protocol", "public",
    "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "continue",
    "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat",
    "return", "switch", "where", "while", "as", "Any", "catch", "false", "is", "nil", "super",
    "self", "Self", "throw", "throws", "true", "try", "some", "any", "Type",
  ]

  /// `sound.enabled` → `soundEnabled`; `PREFS_RANKING_SIZE` → `prefsRankingSize`.
  static func identifier(_ text: String, upper: Bool) -> String {
    var words: [String] = []
    var current = ""
    for scalar in text.unicodeScalars {
      let ascii =
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
        || ("0"..."9").contains(scalar)
      if ascii {
        current.unicodeScalars.append(scalar)
      } else if !current.isEmpty {
        words.append(current)
        current = ""
      }
    }
    if !current.isEmpty { words.append(current) }
    var out = ""
    for (n, word) in words.enumerated() {
      // An all-capitals word is a shout, not an acronym to keep: PREFS → prefs.
      let lowered = word == word.uppercased() ? word.lowercased() : word
      let head = lowered.prefix(1)
      let tail = lowered.dropFirst()
      if n == 0 && !upper {
        out += head.lowercased() + tail
      } else {
        out += head.uppercased() + tail
      }
    }
    if out.isEmpty { out = upper ? "Value" : "value" }
    if let first = out.unicodeScalars.first, ("0"..."9").contains(first) {
      out = (upper ? "V" : "v") + out
    }
    return reserved.contains(out) ? "`\(out)`" : out
  }

  static func string(_ s: String) -> String {
    let escapes: [Unicode.Scalar: String] = [
      "\\": "\\\\", "\"": "\\\"", "\n": "\\n", "\r": "\\r", "\t": "\\t",
    ]
    return s.quoted(open: "\"", close: "\"", escapes: escapes) { scalar in
      scalar.value < 0x20 || scalar.value == 0x7F ? "\\u{\(String(scalar.value, radix: 16))}" : nil
    }
  }

  static func double(_ d: Double) -> String {
    if d.isNaN { return ".nan" }
    if d.isInfinite { return d < 0 ? "-.infinity" : ".infinity" }
    let text = "\(d)"
    return text.contains(".") || text.contains("e") ? text : text + ".0"
  }

  /// A `PlistValue` as a Swift expression.
  static func plist(_ value: PlistValue) -> String {
    switch value {
    case .bool(let b): return ".bool(\(b))"
    case .integer(let i): return ".integer(\(i))"
    case .unsignedInteger(let u): return ".unsignedInteger(\(u))"
    case .real(let d): return ".real(\(double(d)))"
    case .string(let s): return ".string(\(string(s)))"
    case .date(let d):
      return
        ".date(Date(timeIntervalSinceReferenceDate: \(double(d.timeIntervalSinceReferenceDate))))"
    case .data(let d): return ".data(Data([\(d.map { "\($0)" }.joined(separator: ", "))]))"
    case .uid(let u): return ".uid(\(u))"
    case .array(let a): return ".array([\(a.map(plist).joined(separator: ", "))])"
    case .dictionary(let d):
      if d.isEmpty { return ".dictionary([:])" }
      let items = d.keys.sorted().compactMap { k in d[k].map { "\(string(k)): \(plist($0))" } }
      return ".dictionary([\(items.joined(separator: ", "))])"
    }
  }

  /// The Swift type of an entry's key, and the default expression (nil: the key is optional).
  func swiftType(_ entry: MigrationPlan.Entry) -> (type: String, value: String?) {
    let d = entry.defaultValue
    switch entry.type {
    case .bool:
      if case .bool(let b)? = d { return ("Bool", "\(b)") }
      return ("Bool", d == nil ? "false" : nil)
    case .integer:
      if case .integer(let i)? = d, let n = Int(exactly: i) { return ("Int", "\(n)") }
      return ("Int", d == nil ? "0" : nil)
    case .double:
      switch d {
      case .real(let x)?: return ("Double", Self.double(x))
      case .integer(let i)?: return ("Double", Self.double(Double(i)))
      case nil: return ("Double", "0")
      default: return ("Double", nil)
      }
    case .string:
      if case .string(let s)? = d { return ("String", Self.string(s)) }
      return ("String", nil)
    case .date:
      if case .date(let x)? = d {
        return (
          "Date",
          "Date(timeIntervalSinceReferenceDate: \(Self.double(x.timeIntervalSinceReferenceDate)))"
        )
      }
      return ("Date", nil)
    case .data:
      if case .data(let x)? = d {
        return ("Data", "Data([\(x.map { "\($0)" }.joined(separator: ", "))])")
      }
      return ("Data", nil)
    case .url: return ("URL", nil)
    case .stringArray:
      if case .array(let a)? = d {
        let strings = a.compactMap(\.stringValue)
        if strings.count == a.count {
          return ("[String]", "[" + strings.map(Self.string).joined(separator: ", ") + "]")
        }
      }
      return ("[String]", nil)
    case .array:
      if case .array(let a)? = d {
        return ("[PlistValue]", "[" + a.map(Self.plist).joined(separator: ", ") + "]")
      }
      return ("[PlistValue]", nil)
    case .dictionary:
      if case .dictionary(let x)? = d {
        let items = x.keys.sorted().compactMap { k in
          x[k].map { "\(Self.string(k)): \(Self.plist($0))" }
        }
        return (
          "[String: PlistValue]", items.isEmpty ? "[:]" : "[" + items.joined(separator: ", ") + "]"
        )
      }
      return ("[String: PlistValue]", nil)
    case .enum:
      let type = typeNames[entry.to] ?? "Value"
      if case .string(let s)? = d, entry.values.contains(s) {
        return (type, "." + caseNames(entry)[s, default: "value"])
      }
      return (type, nil)
    case .json: return (typeNames[entry.to] ?? "Value", nil)
    case .any:
      if let d { return ("PlistValue", Self.plist(d)) }
      return ("PlistValue", nil)
    }
  }

  func caseNames(_ entry: MigrationPlan.Entry) -> [String: String] {
    var used: Set<String> = []
    var names: [String: String] = [:]
    for raw in entry.values where names[raw] == nil {
      names[raw] = Self.unique(Self.identifier(raw, upper: false), &used)
    }
    return names
  }

  /// A `Codable` struct's fields from the JSON objects seen: a field in every object is
  /// required, any other optional; a field whose values disagree is left out, with a comment.
  func structSource(_ typeName: String, _ objects: [[String: JSONValue]], indent: String)
    -> String
  {
    var out = ""
    var nested: [String] = []
    let fields = Set(objects.flatMap(\.keys)).sorted()
    var usedNested: Set<String> = [typeName]
    var usedFields: Set<String> = []
    var renamed: [(name: String, field: String)] = []
    for field in fields {
      let values = objects.compactMap { $0[field] }.filter { $0 != .null }
      let required = values.count == objects.count
      guard let type = fieldType(field, values, &nested, &usedNested, indent: indent + "  ") else {
        out += "\(indent)  // \(field): its values disagree in type; add it by hand.\n"
        continue
      }
      let name = Self.unique(Self.identifier(field, upper: false), &usedFields)
      out += "\(indent)  var \(name): \(type)\(required ? "" : "?")\n"
      renamed.append((name, field))
    }
    var coding = ""
    if renamed.contains(where: { $0.name != $0.field }) {
      coding += "\n\(indent)  enum CodingKeys: String, CodingKey {\n"
      for (name, field) in renamed {
        coding += "\(indent)    case \(name)" + (name == field ? "" : " = \(Self.string(field))")
        coding += "\n"
      }
      coding += "\(indent)  }\n"
    }
    return "\(indent)struct \(typeName): CodablePreference, Hashable {\n" + out
      + nested.map { "\n" + $0 }.joined() + coding + "\(indent)}\n"
  }

  private func fieldType(
    _ field: String, _ values: [JSONValue], _ nested: inout [String], _ used: inout Set<String>,
    indent: String
  ) -> String? {
    guard let first = values.first else { return "String" }
    switch first {
    case .bool:
      return values.allSatisfy { if case .bool = $0 { true } else { false } } ? "Bool" : nil
    case .integer, .unsigned, .number:
      let integral = values.allSatisfy {
        switch $0 {
        case .integer, .unsigned: true
        default: false
        }
      }
      if integral { return "Int" }
      let numbers = values.allSatisfy {
        switch $0 {
        case .integer, .unsigned, .number: true
        default: false
        }
      }
      return numbers ? "Double" : nil
    case .string:
      return values.allSatisfy { if case .string = $0 { true } else { false } } ? "String" : nil
    case .null: return nil
    case .array:
      var elements: [JSONValue] = []
      for value in values {
        guard case .array(let a) = value else { return nil }
        elements += a
      }
      if elements.isEmpty { return "[String]" }
      return fieldType(field, elements, &nested, &used, indent: indent).map { "[\($0)]" }
    case .object:
      var objects: [[String: JSONValue]] = []
      for value in values {
        guard case .object(let o) = value else { return nil }
        objects.append(o)
      }
      let name = Self.unique(Self.identifier(field, upper: true), &used)
      nested.append(structSource(name, objects, indent: indent))
      return name
    }
  }

  /// The Swift source.
  package func source() -> String {
    var out = """
      // Generated by `prefs plan swift`: the typed keys of the plan, and the plan itself.
      // Rename freely; the names in quotes are the stored keys and must stay as the plan has them.
      // The app target depends on this package's products Preferences, PreferencesMigration,
      // LegacyDefaults and PropertyList (the imports below).

      import Foundation
      import LegacyDefaults
      import Preferences
      import PreferencesMigration
      import PropertyList

      """
    for entry in plan.entries where entry.type == .enum {
      guard let type = typeNames[entry.to] else { continue }
      let cases = caseNames(entry)
      out += "\nenum \(type): String, PreferenceValue, CaseIterable {\n"
      for raw in entry.values {
        let name = cases[raw, default: "value"]
        out += "  case \(name)" + (name == raw ? "" : " = \(Self.string(raw))") + "\n"
      }
      out += "}\n"
    }
    for entry in plan.entries where entry.type == .json {
      guard let type = typeNames[entry.to] else { continue }
      var objects: [[String: JSONValue]] = []
      var other = false
      for value in samples[entry.from] ?? [] {
        if case .object(let o) = value { objects.append(o) } else { other = true }
      }
      out += "\n"
      if objects.isEmpty || other {
        out += """
          // \(entry.from): no JSON object was seen in the legacy files given; declare the
          // fields the app stored (or run `prefs plan swift PLAN LEGACY...`).

          """
      }
      out += structSource(type, objects, indent: "")
    }
    out += "\nextension Keys {\n"
    for entry in plan.entries {
      let name = keyNames[entry.to] ?? "value"
      let (type, value) = swiftType(entry)
      if let value {
        out += Self.call(
          "  static let \(name) = Key<\(type)>(", [Self.string(entry.to), "default: \(value)"], ")")
      } else {
        out += Self.call("  static let \(name) = Key<\(type)?>(", [Self.string(entry.to)], ")")
      }
    }
    out += "}\n"
    out += "\nextension MigrationPlan {\n"
    out += "  /// The plan, as its JSON file has it.\n"
    out += "  static let \(name) = MigrationPlan(\n"
    out += "    dialect: .\(plan.dialect.rawValue), schemaVersion: \(plan.schemaVersion), "
    out += "unmapped: .\(plan.unmapped.rawValue),\n"
    if !plan.drop.isEmpty {
      let keys = plan.drop.sorted().map(Self.string)
      let one = "    drop: [" + keys.joined(separator: ", ") + "],"
      if one.count <= 100 {
        out += one + "\n"
      } else {
        // As `swift format` lays out a long array: one element a line, a trailing comma.
        out += "    drop: [\n" + keys.map { "      \($0),\n" }.joined() + "    ],\n"
      }
    }
    out += "    materializeDefaults: \(plan.materializeDefaults),\n"
    out += "    entries: [\n"
    for entry in plan.entries {
      var args = [
        "from: \(Self.string(entry.from))", "to: \(Self.string(entry.to))",
        "type: .\(Self.caseName(entry.type))",
      ]
      if let d = entry.defaultValue { args.append("defaultValue: \(Self.plist(d))") }
      if !entry.values.isEmpty {
        args.append("values: [" + entry.values.map(Self.string).joined(separator: ", ") + "]")
      }
      if entry.invalid != .refuse { args.append("invalid: .\(entry.invalid.rawValue)") }
      out += Self.call("      .init(", args, "),")
    }
    out += "    ])\n}\n"
    return out
  }

  /// A call as `swift format` lays it out: on one line when it fits in 100 columns, else the
  /// arguments filled onto the following lines, indented one level.
  static func call(_ head: String, _ args: [String], _ tail: String) -> String {
    let one = head + args.joined(separator: ", ") + tail
    if one.count <= 100 { return one + "\n" }
    let indent = String(repeating: " ", count: head.prefix { $0 == " " }.count + 2)
    var out = head + "\n"
    var line = indent
    for (n, arg) in args.enumerated() {
      let piece = arg + (n == args.count - 1 ? tail : ",")
      if line != indent, line.count + 1 + piece.count > 100 {
        out += line + "\n"
        line = indent
      }
      line += (line == indent ? "" : " ") + piece
    }
    return out + line + "\n"
  }

  static func caseName(_ type: MigrationPlan.ValueType) -> String {
    switch type {
    case .stringArray: "stringArray"
    case .enum: "`enum`"
    default: type.rawValue
    }
  }
}
