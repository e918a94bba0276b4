import LegacyDefaults
import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What the legacy files show of one key: in how many files it appears, the kinds of value
/// stored (loose forms told apart by what the dialect's getters read from them: `"YES"` is
/// bool text, `" 12"` integer text), and the distinct values when there are few.
package struct KeyEvidence: Sendable, Hashable {
  /// A stored value's kind, as the inference weighs it.
  package enum Kind: String, Sendable, Hashable, CaseIterable, Comparable {
    case bool, integer, integralReal = "integral-real", real
    case boolText = "bool-text", integerText = "integer-text", realText = "real-text"
    case jsonText = "json-text", text
    case jsonData = "json-data", data, date
    case stringArray = "string-array", array, dictionary

    package static func < (a: Kind, b: Kind) -> Bool {
      (allCases.firstIndex(of: a) ?? 0) < (allCases.firstIndex(of: b) ?? 0)
    }

    /// The words people store for a boolean, and what each means (compared ignoring case and
    /// surrounding white space).
    static let boolWords: [String: Bool] = [
      "yes": true, "y": true, "true": true, "t": true,
      "no": false, "n": false, "false": false, "f": false,
    ]

    /// The kind of a stored value; a string's by what `dialect`'s getters read from it, as the
    /// old app read it:
    /// - bool text: a boolean word that `boolForKey:` reads as the word says (`"t"` in gnustep
    ///   and corelibs, which read it as true, but not in apple, which reads it as false);
    /// - integer text: `integerForKey:` takes digits from it, `doubleForKey:` reads the same
    ///   number from the same characters, and no digit follows them (`" 12"`, `"7x"`;
    ///   `"- 5"` in corelibs only, the one that skips the space);
    /// - real text: `doubleForKey:` reads a number from it that the integer getter does not,
    ///   and no digit follows it (`"0.75"`, `"1e3"`, `"1.0"`);
    /// - else JSON text or text: a string whose number is followed by more digits holds more
    ///   than the number the getter reads (`"2024-01-05"`, `"1.2.3"`, `"12 34"`, `"0x10"`).
    static func of(_ value: PlistValue, in dialect: Dialect) -> Kind {
      switch value {
      case .bool: return .bool
      case .integer, .unsignedInteger: return .integer
      case .real(let d): return d.rounded() == d && abs(d) < 1e15 ? .integralReal : .real
      case .string(let s):
        let t = s.trimmingWhitespaceAndNewlines()
        let reading = dialect.reading(text: s)
        if let word = boolWords[t.lowercased()], word == reading.bool { return .boolText }
        /// Whether the getter read all the digits `s` holds (none follows where it stopped).
        func whole<Value>(_ number: ParsedNumber<Value>) -> Bool {
          !s.utf16.dropFirst(number.end).contains { $0 >= 0x30 && $0 <= 0x39 }
        }
        if let integer = reading.integer, whole(integer) {
          guard let double = reading.double else { return .integerText }
          if double.end == integer.end, double.value == Double(integer.value) {
            return .integerText
          }
        }
        if let double = reading.double, whole(double) { return .realText }
        return isJSONContainer(Data(t.utf8)) ? .jsonText : .text
      case .data(let d): return isJSONContainer(d) ? .jsonData : .data
      case .date: return .date
      case .array(let a): return a.allSatisfy { $0.stringValue != nil } ? .stringArray : .array
      case .dictionary: return .dictionary
      case .uid: return .data
      }
    }

    private static func isJSONContainer(_ data: Data) -> Bool {
      guard let first = data.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }),
        first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
      else { return false }
      if case .success = Result(catching: { () throws(JSONValue.ParseError) in
        try JSONValue.parse(data)
      }) {
        return true
      }
      return false
    }
  }

  package var key: String
  /// Files holding the key.
  package var files = 0
  /// How many files stored each kind.
  package var kinds: [Kind: Int] = [:]
  /// The distinct values and how many files hold each, while there are at most
  /// ``distinctLimit`` of them (``tooManyDistinct`` after that).
  package var distinct: [PlistValue: Int] = [:]
  package var tooManyDistinct = false
  /// Up to three files per kind, to show where a form comes from.
  package var examples: [Kind: [String]] = [:]

  package static let distinctLimit = 16

  mutating func add(_ value: PlistValue, file: String, dialect: Dialect) {
    files += 1
    let kind = Kind.of(value, in: dialect)
    kinds[kind, default: 0] += 1
    if examples[kind, default: []].count < 3 { examples[kind, default: []].append(file) }
    if !tooManyDistinct {
      distinct[value, default: 0] += 1
      if distinct.count > Self.distinctLimit {
        tooManyDistinct = true
        distinct = [:]
      }
    }
  }

  mutating func merge(_ other: KeyEvidence) {
    files += other.files
    kinds.merge(other.kinds, uniquingKeysWith: +)
    for (kind, list) in other.examples {
      examples[kind] = Array((examples[kind, default: []] + list).prefix(3))
    }
    if tooManyDistinct || other.tooManyDistinct {
      tooManyDistinct = true
      distinct = [:]
    } else {
      distinct.merge(other.distinct, uniquingKeysWith: +)
      if distinct.count > Self.distinctLimit {
        tooManyDistinct = true
        distinct = [:]
      }
    }
  }
}

/// Reads legacy domains and proposes the plan that migrates them: for every key, the type
/// the old app's getter most likely meant, from the evidence of every file.
package struct PlanInference: Sendable {
  /// Whose getters read the values: each value's kind is decided by them as it is added.
  package let dialect: Dialect
  package private(set) var evidence: [String: KeyEvidence] = [:]
  /// How many domains were read.
  package private(set) var domains = 0

  package init(dialect: Dialect = .apple) { self.dialect = dialect }

  /// Adds one legacy domain's values.
  package mutating func add(_ values: [String: PlistValue], file: String) {
    domains += 1
    for (key, value) in values where key != MigrationPlan.schemaVersionKey {
      evidence[key, default: KeyEvidence(key: key)].add(value, file: file, dialect: dialect)
    }
  }

  /// Adds what another inference (another worker, with the same dialect) read.
  package mutating func merge(_ other: PlanInference) {
    domains += other.domains
    for (key, item) in other.evidence {
      if evidence[key] == nil {
        evidence[key] = item
      } else {
        evidence[key]?.merge(item)
      }
    }
  }

  /// The proposed entry of one key, and a note when the evidence conflicts or has minorities
  /// the type cannot hold.
  package struct Proposal: Sendable, Hashable {
    package var entry: MigrationPlan.Entry
    package var note: String?
  }

  package func proposals() -> [Proposal] {
    evidence.keys.sorted().compactMap { key in evidence[key].map(propose) }
  }

  /// The plan (every key to itself: renaming is the user's edit).
  package func plan() -> MigrationPlan {
    MigrationPlan(
      dialect: dialect, schemaVersion: 1, unmapped: .keep, entries: proposals().map(\.entry))
  }

  private func propose(_ item: KeyEvidence) -> Proposal {
    let kinds = Set(item.kinds.keys)
    func entry(_ type: MigrationPlan.ValueType) -> Proposal {
      Proposal(entry: MigrationPlan.Entry(from: item.key, to: item.key, type: type), note: nil)
    }
    let zeroOne = item.distinct.keys.allSatisfy {
      switch $0 {
      case .integer(let i): i == 0 || i == 1
      case .string(let s):
        KeyEvidence.Kind.of($0, in: dialect) == .boolText
          || ["0", "1"].contains(s.trimmingWhitespace())
      default: true
      }
    }
    let boolish: Set<KeyEvidence.Kind> = [.bool, .boolText]
    if !kinds.isDisjoint(with: boolish),
      kinds.isSubset(of: boolish.union([.integer, .integerText])),
      zeroOne || kinds.isSubset(of: boolish)
    {
      return entry(.bool)
    }
    if kinds.isSubset(of: [.integer, .integerText, .integralReal]) { return entry(.integer) }
    if kinds.isSubset(of: [.integer, .integerText, .integralReal, .real, .realText]) {
      return entry(.double)
    }
    if kinds.isSubset(of: [.jsonText, .jsonData]) { return entry(.json) }
    if kinds == [.date] { return entry(.date) }
    if kinds == [.data] { return entry(.data) }
    if kinds == [.stringArray] { return entry(.stringArray) }
    if kinds == [.dictionary] { return entry(.dictionary) }
    if kinds.isSubset(of: [.stringArray, .array]) { return entry(.array) }
    if kinds.isSubset(of: [.text, .boolText, .integerText, .realText]) {
      // A handful of strings, each held by several files: an enum of those values.
      let strings = item.distinct.compactMap { $0.key.stringValue }
      if !item.tooManyDistinct, kinds.contains(.text), (2...8).contains(strings.count),
        item.files >= 2 * strings.count
      {
        let ranked = item.distinct.sorted {
          $0.value > $1.value || ($0.value == $1.value && "\($0.key)" < "\($1.key)")
        }.compactMap { $0.key.stringValue }
        var proposal = entry(.enum)
        proposal.entry.values = ranked
        proposal.entry.defaultValue = ranked.first.map(PlistValue.string)
        // `light` beside `Light`: two values, since an enum value matches exactly; probably
        // one case spelt two ways, which only the user can decide.
        let clashes = Self.differingOnlyInCase(ranked)
        if !clashes.isEmpty {
          proposal.note =
            "values that differ only in case: "
            + clashes.map { $0.map { "\"\($0)\"" }.joined(separator: ", ") }
            .joined(separator: "; ")
            + " (kept apart, as a value matches exactly: merge them in the plan if they are one case)"
        }
        return proposal
      }
      return entry(.string)
    }
    // Conflicting evidence: a dominant kind (90%) becomes the type, with its most common value
    // as the default the minority reads as; otherwise `any`, flagged, never guessed.
    let total = item.kinds.values.reduce(0, +)
    let dominantKind = item.kinds.max {
      $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key)
    }
    if let (kind, count) = dominantKind, count * 10 >= total * 9 {
      var alone = KeyEvidence(key: item.key)
      alone.files = count
      alone.kinds = [kind: count]
      var dominant = propose(alone)
      if dominant.entry.type != .any, dominant.entry.type != .enum,
        let common = mostCommon(item, of: kind) ?? Self.zero(of: kind)
      {
        dominant.entry.defaultValue = common
        dominant.entry.invalid = .default
        dominant.note =
          "\(total - count) of \(total) files hold another kind: they read as the default"
        return dominant
      }
    }
    let summary = item.kinds.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key.rawValue)" }
      .joined(separator: ", ")
    var flagged = entry(.any)
    flagged.note = "conflicting kinds (\(summary)): typed any, copied as they are"
    return flagged
  }

  /// The groups of `values` that differ only in case (each sorted by bytes, the groups by
  /// their first value), as ``MigrationPlan/isNearMiss(_:_:)`` tells a case-only difference.
  package static func differingOnlyInCase(_ values: [String]) -> [[String]] {
    var groups: [String: Set<String>] = [:]
    for a in values {
      for b in values where MigrationPlan.nearMissDistance(a, b) == 0 {
        groups[a.lowercased(), default: []].formUnion([a, b])
      }
    }
    return groups.values.map { $0.sorted { Array($0.utf8).lexicographicallyPrecedes($1.utf8) } }
      .sorted { Array($0[0].utf8).lexicographicallyPrecedes($1[0].utf8) }
  }

  /// What the legacy getter of `kind` returned for an absent key (a date has none), for when
  /// the values were too many to count.
  private static func zero(of kind: KeyEvidence.Kind) -> PlistValue? {
    switch kind {
    case .bool, .boolText: .bool(false)
    case .integer, .integerText, .integralReal: .int(0)
    case .real, .realText: .real(0)
    case .text: .string("")
    case .data: .data(Data())
    case .stringArray, .array: .array([])
    case .dictionary: .dictionary([:])
    case .date, .jsonText, .jsonData: nil
    }
  }

  /// The most common value of `kind`, in the stored form its type holds.
  private func mostCommon(_ item: KeyEvidence, of kind: KeyEvidence.Kind) -> PlistValue? {
    let candidates = item.distinct.filter { KeyEvidence.Kind.of($0.key, in: dialect) == kind }
    guard
      let (value, _) = candidates.max(by: {
        $0.value < $1.value || ($0.value == $1.value && "\($0.key)" > "\($1.key)")
      })
    else { return nil }
    switch (kind, value) {
    case (.bool, _), (.integer, _), (.date, _), (.data, _), (.dictionary, _), (.stringArray, _),
      (.array, _), (.text, .string), (.real, .real):
      return value
    case (.integralReal, .real(let d)): return .int(Int64(d))
    default: return nil
    }
  }
}

extension MigrationPlan {
  /// The plan as the JSON plan file (`MigrationPlan.load(json:)` reads it back as it was).
  package func jsonText() -> String {
    func json(_ value: PlistValue) -> JSONValue {
      switch value {
      case .date(let d): return .string(PropertyList.iso8601(d))
      case .data(let d): return .string(d.base64EncodedString())
      default:
        switch Result(catching: { () throws(PlistError) in try JSONValue(displaying: value) }) {
        case .success(let j): return j
        case .failure: return .null
        }
      }
    }
    let keys = entries.map { entry -> JSONValue in
      var object: [String: JSONValue] = [
        "from": .string(entry.from), "to": .string(entry.to), "type": .string(entry.type.rawValue),
      ]
      if let value = entry.defaultValue { object["default"] = json(value) }
      if !entry.values.isEmpty { object["values"] = .array(entry.values.map(JSONValue.string)) }
      if entry.invalid == .default { object["invalid"] = .string("default") }
      return .object(object)
    }
    var root: [String: JSONValue] = [
      "plan": .integer(1), "dialect": .string(dialect.rawValue),
      "schemaVersion": .integer(Int64(schemaVersion)), "unmapped": .string(unmapped.rawValue),
      "keys": .array(keys),
    ]
    if !drop.isEmpty { root["drop"] = .array(drop.sorted().map(JSONValue.string)) }
    if materializeDefaults { root["materializeDefaults"] = .bool(true) }
    return JSONValue.object(root).text()
  }
}
