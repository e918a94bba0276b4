import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The report of a run: every file, every legacy key of every file, and the totals. Its JSON
/// form (``json()``) is `{"files": [{"path", "output", "status", "message", "backup",
/// "keys": [{"from", "to", "action", "legacy", "value", "note"}]}], "summary": {"files",
/// "dryRun", one count per ``FileStatus``, "keys": {one count per ``KeyAction``}}}`, specified
/// member by member in `Docs/plan-format.md` in the repository.
public struct MigrationReport: Sendable, Hashable {
  public var files: [FileOutcome]
  public var dryRun: Bool
  /// Files of the batch never started (an interrupted run: SIGINT, SIGTERM); rerunning the
  /// same command migrates them.
  public var notStarted: Int

  public init(files: [FileOutcome], dryRun: Bool, notStarted: Int = 0) {
    self.files = files
    self.dryRun = dryRun
    self.notStarted = notStarted
  }

  public func count(_ status: FileStatus) -> Int { files.lazy.filter { $0.status == status }.count }

  /// How many keys, over every file that was not already migrated, ended in each action: the
  /// keys of an `unchanged` file (listed, in the JSON report) are not counted, since nothing
  /// happened to them (a run that finds every file migrated counts no key).
  public var actions: [KeyAction: Int] {
    var counts: [KeyAction: Int] = [:]
    for file in files where file.status != .unchanged {
      for key in file.keys { counts[key.action, default: 0] += 1 }
    }
    return counts
  }

  /// The JSON report (`prefs migrate --json`): data as base64, dates as ISO 8601, absent
  /// values (and reals JSON cannot hold) as null; members sorted by their UTF-8 bytes, two-space
  /// indentation, as all JSON of prefs' own verbs. Unlike ``text(listingKeys:)``, it lists the
  /// keys of an `unchanged` file too.
  public func json() -> String {
    func value(_ v: PlistValue?) -> JSONValue {
      guard let v else { return .null }
      // A value JSON cannot show (NaN, infinity) is null in the report.
      switch Result(catching: { () throws(PlistError) in try JSONValue(displaying: v) }) {
      case .success(let json): return json
      case .failure: return .null
      }
    }
    func text(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
    let files = self.files.map { file -> JSONValue in
      var object: [String: JSONValue] = [
        "path": .string(file.path), "output": text(file.output),
        "status": .string(file.status.rawValue), "message": text(file.message),
        "keys": .array(
          file.keys.map { key in
            .object([
              "from": text(key.from), "to": text(key.to), "action": .string(key.action.rawValue),
              "legacy": value(key.legacy), "value": value(key.value), "note": text(key.note),
            ])
          }),
      ]
      if let backup = file.backup { object["backup"] = .string(backup) }
      return .object(object)
    }
    var summary: [String: JSONValue] = [
      "files": .integer(Int64(self.files.count)), "dryRun": .bool(dryRun),
    ]
    for status in FileStatus.allCases { summary[status.rawValue] = .integer(Int64(count(status))) }
    if notStarted > 0 { summary["notStarted"] = .integer(Int64(notStarted)) }
    let actions = self.actions
    summary["keys"] = .object(
      Dictionary(
        uniqueKeysWithValues: KeyAction.allCases.map {
          ($0.rawValue, JSONValue.integer(Int64(actions[$0] ?? 0)))
        }))
    return JSONValue.object(["files": .array(files), "summary": .object(summary)]).text()
  }
}

extension MigrationReport {
  /// The report as a person reads it (what `prefs migrate` prints): each file (or domain),
  /// each legacy key's fate (unless `listingKeys` is off: `--summary`), and the totals.
  ///
  /// A file or domain that is `unchanged` (already migrated, as at every launch after the
  /// first) is one line, `<domain>: unchanged (already migrated with schema version 2)`, with no
  /// key table, and its keys are not in the totals' key counts: nothing happened to them.
  /// ``json()`` still lists them.
  public func text(listingKeys: Bool = true) -> String {
    let report = self
    var out = ""
    for file in report.files {
      // In place and at launch the output is the domain itself: named once.
      // What a user wrote (a file name, a key, a value) is shown so that it cannot print a
      // line of its own or drive the terminal (String.shownSafely).
      let path = file.path.shownSafely
      let target = file.output.flatMap { $0 == file.path ? nil : " → \($0.shownSafely)" } ?? ""
      if file.status == .unchanged {
        out +=
          "\(path)\(target): unchanged"
          + (file.message.map { " (\($0.withControlsEscaped))" } ?? "") + "\n"
        continue
      }
      let status = report.said(file.status)
      out += "\(path)\(target): \(status)\n"
      if let message = file.message { out += "  \(message.withControlsEscaped)\n" }
      // A backup made before the write failed stays: said, so no one looks for it.
      if let backup = file.backup, file.status != .migrated {
        out += "  the original is copied to \(backup.shownSafely)\n"
      }
      let froms = file.keys.map { ($0.from ?? "").shownSafely }
      let tos = file.keys.map { ($0.to ?? "–").shownSafely }
      let fromWidth = min(32, froms.map(\.count).max() ?? 0)
      let toWidth = min(32, tos.map(\.count).max() ?? 0)
      // Two spaces at least between the action and what follows (`unconvertible` is 13).
      let actionWidth = max(13, (file.keys.map(\.action.rawValue.count).max() ?? 0) + 2)
      for (index, key) in file.keys.enumerated() where listingKeys {
        let from = froms[index].padded(to: fromWidth)
        let to = tos[index].padded(to: toWidth)
        let action = key.action.rawValue.padded(to: actionWidth)
        var detail = ""
        switch (key.legacy, key.value) {
        case (nil, nil): detail = ""
        case (let legacy?, let value?) where legacy == value: detail = Self.short(value)
        case (let legacy?, let value?): detail = "\(Self.short(legacy)) → \(Self.short(value))"
        case (let legacy?, nil): detail = Self.short(legacy)
        case (nil, let value?): detail = "→ \(Self.short(value))"
        }
        if let note = key.note,
          key.nearMiss != nil || (key.action != .migrated && key.action != .kept)
        {
          let note = note.withControlsEscaped
          detail += detail.isEmpty ? note : "  (\(note))"
        }
        out += "  \(from)  →  \(to)  \(action)\(detail)\n"
      }
    }
    // A migration at launch from a suite or memory is of a domain, not a file.
    let nouns = Set(report.files.map(\.noun))
    let noun = nouns.count == 1 ? nouns.first ?? "file" : "domain"
    var summary = "\(report.files.count) \(noun)\(report.files.count == 1 ? "" : "s"): "
    summary += FileStatus.allCases.compactMap { status in
      let n = report.count(status)
      return n > 0 ? "\(n) \(status.rawValue)" : nil
    }.joined(separator: ", ")
    let actions = report.actions
    let keyCounts = KeyAction.allCases.compactMap { action in
      actions[action].map { "\($0) \(action.rawValue)" }
    }
    if !keyCounts.isEmpty { summary += ". Keys: " + keyCounts.joined(separator: ", ") }
    if report.dryRun { summary += ". Dry run: nothing was written" }
    if report.notStarted > 0 {
      summary += ". Interrupted: \(report.notStarted) not started (run it again to migrate them)"
    }
    return out + summary + ".\n"
  }

  /// A file's status as the report says it to a person: a dry run's `migrated` is "would
  /// migrate (dry run)" (the JSON report keeps `migrated`, with `dryRun`).
  public func said(_ status: FileStatus) -> String {
    dryRun && status == .migrated ? "would migrate (dry run)" : status.rawValue
  }

  package static func short(_ value: PlistValue) -> String {
    var text: String
    switch value {
    case .string(let s): text = s.drivesTerminal ? s.ansiCQuoted : "\"\(s)\""
    case .bool(let b): text = b ? "true" : "false"
    case .data(let d): text = "<\(d.count) bytes>"
    case .integer(let i): text = String(i)
    case .unsignedInteger(let u): text = String(u)
    default:
      text = PropertyList.describe(value).split(separator: "\n").map {
        $0.trimmingWhitespace()
      }.joined(separator: " ")
    }
    text = text.withControlsEscaped
    if text.count > 48 { text = String(text.prefix(45)) + "…" }
    return text
  }
}

extension String {
  /// This text with spaces after it up to `width` characters (never cut). Foundation's
  /// `padding(toLength:)` counts UTF-16 units (it would cut an emoji in two) and took a
  /// quarter of a 3,000-file migration's time.
  package func padded(to width: Int) -> String {
    let count = self.count
    return count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
