import LegacyDefaults
import PreferencesMigration
import PropertyList

/// One plan from the code and the users' files (`prefs plan infer --source SRC… LEGACY…`):
/// the code's keys with the code's types and defaults, checked against what the files hold;
/// the keys the code uses that no file has; the keys the files hold that no code uses any
/// more, proposed for `drop` (never dropped silently: each is named in the evidence).
package struct SourcePlanMerge: Sendable {
  package let plan: MigrationPlan
  /// What the merge decided, a line a key (for standard error, after the two evidences).
  package let notes: [String]

  /// Keys the system frameworks write into every app's domain (a window's frame, the
  /// languages, Sparkle's update settings): kept as they are when no code names them, never
  /// proposed for drop.
  static func isSystemKey(_ key: String) -> Bool {
    if key.hasPrefix("NS") || key.hasPrefix("Apple") || key.hasPrefix("WebKit")
      || key.hasPrefix("com.apple.") || key.hasPrefix("_")
    {
      return true
    }
    // Sparkle: SUEnableAutomaticChecks, SULastCheckTime, …
    if key.hasPrefix("SU"), let third = key.dropFirst(2).first, third.isUppercase { return true }
    return false
  }

  /// Whether `key` is one the pattern (`Flag*Image`) stands for.
  package static func matches(_ key: String, pattern: String) -> Bool {
    let pieces = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
    guard pieces.count > 1 else { return key == pattern }
    var rest = Substring(key)
    guard let first = pieces.first, rest.hasPrefix(first) else { return false }
    rest = rest.dropFirst(first.count)
    for piece in pieces.dropFirst().dropLast() {
      guard let range = rest.firstRange(of: piece) else { return false }
      rest = rest[range.upperBound...]
    }
    guard let last = pieces.last else { return true }
    return rest.hasSuffix(last) && rest.count >= last.count
  }

  package init(scan: SourceScanResult, files inference: PlanInference) {
    var notes: [String] = []
    let proposals = Dictionary(
      inference.proposals().map { ($0.entry.from, $0) }, uniquingKeysWith: { a, _ in a })
    var entries: [MigrationPlan.Entry] = []
    var usedTargets: Set<String> = []
    var inCode: Set<String> = []
    for key in scan.keys {
      var entry = key.entry
      inCode.insert(entry.from)
      guard let proposal = proposals[entry.from] else {
        notes.append("\(entry.from): the code uses it, no file holds it")
        entries.append(entry)
        usedTargets.insert(entry.to)
        continue
      }
      let files = proposal.entry
      switch (entry.type, files.type) {
      case (let code, let held) where code == held:
        break
      case (.any, _):
        // The code says nothing of the type (objectForKey: alone, or two getters): the
        // files' values decide, as plan infer would.
        entry.type = files.type
        entry.values = files.values
        if entry.defaultValue == nil || files.type == .enum {
          entry.defaultValue = files.defaultValue
        }
        entry.invalid = files.invalid
        notes.append(
          "\(entry.from): the code does not say its type; the files hold \(files.type.rawValue): typed \(files.type.rawValue)"
        )
      case (.string, .enum):
        // The code reads a string; the files hold a few values: an enum of them, with the
        // code's default among them.
        entry.type = .enum
        entry.values = files.values
        if case .string(let d)? = entry.defaultValue {
          if !entry.values.contains(d) { entry.values.append(d) }
        } else {
          entry.defaultValue = files.defaultValue
        }
        notes.append(
          "\(entry.from): read as a string; the files hold \(files.values.count) values: an enum of them"
        )
      case (.double, .integer), (.bool, .integer), (.integer, .bool), (.json, .string),
        (.data, .json),
        (.json, .data), (.array, .stringArray), (.stringArray, .array):
        // The getter reads what the files hold: the code's type stands.
        if entry.type == .data, files.type == .json {
          notes.append(
            "\(entry.from): the code reads data; the files hold JSON in it: kept as data (json parses it)"
          )
        }
      default:
        notes.append(
          "\(entry.from): the code reads it as \(entry.type.rawValue), the files hold \(files.type.rawValue): "
            + "kept as the code reads it; `plan check` names the files that would not migrate")
      }
      entries.append(entry)
      usedTargets.insert(entry.to)
    }
    // Keys the files hold that the code names only through a run-time key stay as the
    // files' evidence types them.
    var drop = Set(scan.removed.map(\.entry.from))
    for proposal in inference.proposals() where !inCode.contains(proposal.entry.from) {
      let key = proposal.entry.from
      if drop.contains(key) { continue }
      // (A key wholly built at run time, `*`, says nothing of which keys it is.)
      if let pattern = scan.patterns.first(where: {
        $0.pattern.contains { $0 != "*" } && Self.matches(key, pattern: $0.pattern)
      }) {
        var entry = proposal.entry
        if usedTargets.contains(entry.to) { entry.to = key }
        entries.append(entry)
        usedTargets.insert(entry.to)
        notes.append(
          "\(key): the code builds it at run time (\(pattern.pattern)): typed from the files")
        continue
      }
      if Self.isSystemKey(key) {
        notes.append("\(key): written by the system frameworks, not the app's code: kept as it is")
        continue
      }
      drop.insert(key)
      notes.append(
        "\(key): no code uses it any more: proposed for drop (take it out of \"drop\" to keep it)")
    }
    for key in scan.removed.map(\.entry.from) {
      notes.append("\(key): the code only removes it: proposed for drop")
    }
    plan = MigrationPlan(
      dialect: inference.dialect, schemaVersion: 1, unmapped: .keep, drop: drop, entries: entries)
    self.notes = notes
  }

  /// The notes as text, after the scan's evidence and the files' table.
  package func text() -> String {
    notes.isEmpty ? "" : "merged:\n" + notes.map { "  " + $0 + "\n" }.joined()
  }
}
