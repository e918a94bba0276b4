import LegacyDefaults
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The changes between two states of a domain, key by key: what `prefs diff` prints, what
/// `prefs watch` prints as they happen, and what `prefs edit` applies.
///
/// Keys are compared by their bytes, values exactly (nested containers element by element, a
/// real by its bits: `0.1` and `0.1000000000000000055` differ only if their doubles do).
package struct DomainDiff: Sendable, Hashable {
  /// One key's change.
  package enum Change: Sendable, Hashable {
    /// Set to `new` (`old`: what it held, nil when it was absent).
    case set(key: String, old: PlistValue?, new: PlistValue)
    /// Removed (`old`: what it held).
    case removed(key: String, old: PlistValue)

    package var key: String {
      switch self {
      case .set(let key, _, _), .removed(let key, _): key
      }
    }

    /// The change that undoes this one.
    package var reverted: Change {
      switch self {
      case .set(let key, let old?, let new): .set(key: key, old: new, new: old)
      case .set(let key, nil, let new): .removed(key: key, old: new)
      case .removed(let key, let old): .set(key: key, old: nil, new: old)
      }
    }
  }

  /// The changes, by their keys' bytes.
  package let changes: [Change]

  package var isEmpty: Bool { changes.isEmpty }

  /// The changes that turn `old` into `new`.
  package init(from old: PlistDictionary, to new: PlistDictionary) {
    var changes: [Change] = []
    for (key, value) in new.sortedByKey {
      let before = old[key]
      if before.map({ !Self.same($0, value) }) ?? true {
        changes.append(.set(key: key, old: before, new: value))
      }
    }
    // The sets come in the keys' byte order already; removals, when any, are merged in.
    var removed = false
    for (key, value) in old where !new.contains(key: key) {
      changes.append(.removed(key: key, old: value))
      removed = true
    }
    self.changes = removed ? changes.sorted { PlistValue.utf8Precedes($0.key, $1.key) } : changes
  }

  /// The changes as one update of a domain.
  package var domainChanges: DomainChanges {
    var result = DomainChanges()
    for change in changes {
      switch change {
      case .set(let key, _, let new): result[key] = .some(new)
      case .removed(let key, _): result[key] = .some(nil)
      }
    }
    return result
  }

  /// Exactly the same value: reals by their bits (so `nan` is itself, and `-0.0` is not
  /// `0.0`), containers element by element, dictionaries by their keys' bytes.
  package static func same(_ a: PlistValue, _ b: PlistValue) -> Bool {
    switch (a, b) {
    case (.real(let x), .real(let y)): return x.bitPattern == y.bitPattern
    case (.array(let x), .array(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
    case (.dictionary(let x), .dictionary(let y)):
      return x.count == y.count
        && x.allSatisfy { entry in y[entry.key].map { same(entry.value, $0) } ?? false }
    case (.date(let x), .date(let y)):
      return x.timeIntervalSinceReferenceDate.bitPattern
        == y.timeIntervalSinceReferenceDate.bitPattern
    default: return a == b
    }
  }
}

/// A change as the `defaults` command that makes it: what `diff` and `watch` print.
///
/// Every value is written so that `defaults` reads it back exactly: `-bool`, `-int`, `-float`
/// (the shortest text that reads back as the same double), `-string`, `-date` (ISO 8601, with
/// the fraction of a second when there is one), `-data` (hex); containers, integers beyond
/// 64 bits, non-finite reals and UIDs as an XML property-list literal, which `defaults write`
/// reads as the value.
package enum DefaultsCommand {
  /// The line for `change` of the domain `domain` (its name, or a path as `defaults` takes
  /// it: without `.plist`), of `host`'s domains (`defaults -currentHost`, `-host NAME`).
  package static func line(
    _ change: DomainDiff.Change, domain: String, host: HostScope = .any
  ) -> String {
    let command: String
    switch host {
    case .any: command = "defaults"
    case .current: command = "defaults -currentHost"
    case .named(let name): command = "defaults -host \(quoted(name))"
    }
    switch change {
    case .removed(let key, _):
      return "\(command) delete \(quoted(domain)) \(quoted(key))"
    case .set(let key, _, let value):
      return "\(command) write \(quoted(domain)) \(quoted(key)) \(argument(value))"
    }
  }

  /// The words `defaults write` takes for a value.
  package static func argument(_ value: PlistValue) -> String {
    switch value {
    case .bool(let b): return "-bool " + (b ? "true" : "false")
    case .integer(let i): return "-int \(i)"
    case .real(let d) where d.isFinite: return "-float \(d)"
    case .string(let s): return "-string " + quoted(s)
    case .date(let d): return "-date " + quoted(PropertyList.iso8601(d))
    case .data(let d): return "-data " + d.map { $0.hex(width: 2) }.joined()
    default: return quoted(xml(value))
    }
  }

  /// `value` as a one-line XML property-list fragment (`<array><integer>1</integer></array>`).
  package static func xml(_ value: PlistValue) -> String {
    switch value {
    case .bool(let b): return b ? "<true/>" : "<false/>"
    case .integer(let i): return "<integer>\(i)</integer>"
    case .unsignedInteger(let u): return "<integer>\(u)</integer>"
    case .real(let d):
      let text =
        d.isNaN ? "nan" : d == .infinity ? "+infinity" : d == -.infinity ? "-infinity" : "\(d)"
      return "<real>\(text)</real>"
    case .string(let s): return "<string>\(escaped(s))</string>"
    case .date(let d): return "<date>\(PropertyList.iso8601(d))</date>"
    case .data(let d): return "<data>\(d.base64EncodedString())</data>"
    case .uid(let u): return "<dict><key>CF$UID</key><integer>\(u)</integer></dict>"
    case .array(let a):
      return a.isEmpty ? "<array/>" : "<array>" + a.map(xml).joined() + "</array>"
    case .dictionary(let d):
      guard !d.isEmpty else { return "<dict/>" }
      return "<dict>"
        + d.sortedByKey.map { "<key>\(escaped($0.key))</key>" + xml($0.value) }.joined()
        + "</dict>"
    }
  }

  private static func escaped(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for c in text.unicodeScalars {
      switch c {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      default: out.unicodeScalars.append(c)
      }
    }
    return out
  }

  /// A word for a POSIX shell: as it is when it holds only characters no shell treats
  /// specially, else in single quotes (a quote inside as `'\''`); a word holding a character a
  /// terminal could act on (a line break, an escape) in ANSI-C quoting, `$'…'`, which bash, zsh
  /// and ksh read back exactly, so that no word prints a line of its own.
  package static func quoted(_ word: String) -> String {
    if word.drivesTerminal { return word.ansiCQuoted }
    let plain =
      !word.isEmpty
      && word.unicodeScalars.allSatisfy { c in
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c)
          || "._/-+:,@%=".unicodeScalars.contains(c)
      }
    if plain { return word }
    return "'" + word.replacing("'", with: "'\\''") + "'"
  }
}
