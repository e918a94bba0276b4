import Foundation
import PropertyList

/// The report of a run: every file, every legacy key of every file, and the totals. Its JSON
/// form is the contract's: `{"files":[{"path","status","keys":[{"from","to","action","legacy",
/// "value","note"}]}],"summary":{…}}`.
public struct MigrationReport: Sendable, Hashable {
  public var files: [FileOutcome]
  public var dryRun: Bool

  public init(files: [FileOutcome], dryRun: Bool) {
    self.files = files
    self.dryRun = dryRun
  }

  public func count(_ status: FileStatus) -> Int { files.lazy.filter { $0.status == status }.count }

  /// How many keys, over every file, ended in each action.
  public var actions: [KeyAction: Int] {
    var counts: [KeyAction: Int] = [:]
    for file in files {
      for key in file.keys { counts[key.action, default: 0] += 1 }
    }
    return counts
  }

  /// The JSON report: data as base64, dates as ISO 8601, absent values as null.
  public func json() -> String {
    var out = "{\"files\": ["
    for (n, file) in files.enumerated() {
      out += n == 0 ? "\n  " : ",\n  "
      out +=
        "{\"path\": \(Self.quoted(file.path)), \"output\": \(file.output.map(Self.quoted) ?? "null"), "
      out +=
        "\"status\": \"\(file.status.rawValue)\", \"message\": \(file.message.map(Self.quoted) ?? "null"), "
      if let backup = file.backup { out += "\"backup\": \(Self.quoted(backup)), " }
      out += "\"keys\": ["
      for (k, key) in file.keys.enumerated() {
        out += k == 0 ? "" : ", "
        out +=
          "{\"from\": \(key.from.map(Self.quoted) ?? "null"), \"to\": \(key.to.map(Self.quoted) ?? "null"), "
        out += "\"action\": \"\(key.action.rawValue)\", \"legacy\": \(Self.value(key.legacy)), "
        out +=
          "\"value\": \(Self.value(key.value)), \"note\": \(key.note.map(Self.quoted) ?? "null")}"
      }
      out += "]}"
    }
    out += files.isEmpty ? "],\n" : "\n],\n"
    let statuses = FileStatus.allCases.map { "\"\($0.rawValue)\": \(count($0))" }
    let actionCounts = KeyAction.allCases.map { "\"\($0.rawValue)\": \(actions[$0] ?? 0)" }
    out += "\"summary\": {\"files\": \(files.count), \"dryRun\": \(dryRun), "
    out += statuses.joined(separator: ", ")
    out += ", \"keys\": {" + actionCounts.joined(separator: ", ") + "}}}"
    return out
  }

  static func quoted(_ text: String) -> String {
    PropertyList.jsonString(text)
  }

  static func value(_ value: PlistValue?) -> String {
    guard let value else { return "null" }
    return (try? PropertyList.json(value, lossless: false, compact: true)) ?? "null"
  }
}

extension MigrationReport {
  /// The report as a person reads it (what `prefs migrate` prints): each file, each legacy
  /// key's fate, and the totals.
  public func text() -> String {
    let report = self
    var out = ""
    for file in report.files {
      let target = file.output.map { " → \($0)" } ?? ""
      let status =
        report.dryRun && file.status == .migrated ? "would migrate (dry run)" : file.status.rawValue
      out += "\(file.path)\(target): \(status)\n"
      if let message = file.message { out += "  \(message)\n" }
      let fromWidth = min(32, file.keys.map { ($0.from ?? "").count }.max() ?? 0)
      let toWidth = min(32, file.keys.map { ($0.to ?? "–").count }.max() ?? 0)
      for key in file.keys {
        let from = (key.from ?? "").padding(
          toLength: max(fromWidth, (key.from ?? "").count), withPad: " ", startingAt: 0)
        let to = (key.to ?? "–").padding(
          toLength: max(toWidth, (key.to ?? "–").count), withPad: " ", startingAt: 0)
        let action = key.action.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)
        var detail = ""
        switch (key.legacy, key.value) {
        case (nil, nil): detail = ""
        case (let legacy?, let value?) where legacy == value: detail = Self.short(value)
        case (let legacy?, let value?): detail = "\(Self.short(legacy)) → \(Self.short(value))"
        case (let legacy?, nil): detail = Self.short(legacy)
        case (nil, let value?): detail = "→ \(Self.short(value))"
        }
        if let note = key.note, key.action != .migrated, key.action != .kept {
          detail += detail.isEmpty ? note : "  (\(note))"
        }
        out += "  \(from)  →  \(to)  \(action)\(detail)\n"
      }
    }
    var summary = "\(report.files.count) file\(report.files.count == 1 ? "" : "s"): "
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
    return out + summary + ".\n"
  }

  static func short(_ value: PlistValue) -> String {
    var text: String
    switch value {
    case .string(let s): text = "\"\(s)\""
    case .bool(let b): text = b ? "true" : "false"
    case .data(let d): text = "<\(d.count) bytes>"
    default:
      text = PropertyList.describe(value).split(separator: "\n").map {
        $0.trimmingCharacters(in: .whitespaces)
      }.joined(separator: " ")
    }
    if text.count > 48 { text = String(text.prefix(45)) + "…" }
    return text
  }
}
