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
