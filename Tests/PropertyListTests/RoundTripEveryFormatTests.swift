import Foundation
import PropertyList
import TestSupport
import Testing

/// Nothing lost on the way back (issue 46): every value of the families that lost one is
/// written by `PropertyList.write` (what `prefs convert` writes) in every output format and
/// read back by that format's readers themselves: CoreFoundation (the toolchain Foundation's
/// `PropertyListSerialization`, in this process) for XML, binary and OpenStep text, GNUstep
/// Base (`gnustep_dump`) for XML, binary and GNUstep text. Each comes back the same, or the
/// writer refuses it naming its key. (A reader refusing a file is allowed, not a loss:
/// GNUstep cannot hold a UID in binary, for one.)
@Suite struct RoundTripEveryFormatTests {
  static let day: Double = 86_400
  /// 0000-01-01T00:00:00Z and 0001-01-01T00:00:00Z, proleptic Gregorian, seconds from 2001.
  static let year0: Double = -63_145_526_400
  static let year1: Double = -63_113_904_000

  /// (label, value): each stored under the key `k`, and the strings also as a key.
  static let values: [(String, PlistValue)] = [
    ("U+FEFF first", "\u{FEFF}a"), ("U+FFFE first", "\u{FFFE}ab"),
    ("U+FEFF inside", "a\u{FEFF}b"), ("U+FFFE inside", "a\u{FFFE}b"),
    ("U+FEFF last", "ab\u{FEFF}"), ("U+FEFF after &", "a&\u{FEFF}b"),
    ("U+FEFF alone", "\u{FEFF}"), ("two U+FFFE", "\u{FFFE}\u{FFFE}x"),
    ("U+FEFF after a newline", "\n\u{FEFF}a"), ("U+FEFF after a space", " \u{FEFF}"),
    ("year 0", .date(Date(timeIntervalSinceReferenceDate: year0))),
    ("29 February of year 0", .date(Date(timeIntervalSinceReferenceDate: year0 + 59 * day))),
    ("year 1", .date(Date(timeIntervalSinceReferenceDate: year1))),
    ("year -1", .date(Date(timeIntervalSinceReferenceDate: year0 - 366 * day))),
    ("9999-12-31", .date(Date(timeIntervalSinceReferenceDate: 252_423_907_200))),
    ("year 10000", .date(Date(timeIntervalSinceReferenceDate: 252_423_993_600))),
    ("10^15 s", .date(Date(timeIntervalSinceReferenceDate: 1e15))),
    ("-0.0 date", .date(Date(timeIntervalSinceReferenceDate: -0.0))),
    ("0.0 date", .date(Date(timeIntervalSinceReferenceDate: 0))),
    ("half a second", .date(Date(timeIntervalSinceReferenceDate: 0.5))),
    ("-0.0", .real(-0.0)), ("Int64.min", .integer(.min)), ("UInt64.max", .unsignedInteger(.max)),
  ]

  static let formats: [PlistFormat] = [.xml, .binary, .openStep, .gnustep]

  /// Foundation's value as a `PlistValue`; nil for a type no property list value is.
  static func plistValue(_ v: Any) -> PlistValue? {
    if type(of: v) == Bool.self, let b = v as? Bool { return .bool(b) }
    if let s = v as? String { return .string(s) }
    if let n = v as? NSNumber {
      switch String(cString: n.objCType) {
      case "c" where type(of: v) != NSNumber.self: return .bool(n.boolValue)
      case "f", "d": return .real(n.doubleValue)
      case "Q", "L", "I", "S", "C": return .int(n.uint64Value)
      default: return .integer(n.int64Value)
      }
    }
    if let d = v as? Data { return .data(d) }
    if let d = v as? Date { return .date(d) }
    if let a = v as? [Any] {
      let values = a.compactMap(plistValue)
      return values.count == a.count ? .array(values) : nil
    }
    if let d = v as? [String: Any] {
      var out: [String: PlistValue] = [:]
      for (k, x) in d {
        guard let value = plistValue(x) else { return nil }
        out[k] = value
      }
      return .dictionary(PlistDictionary(out))
    }
    return nil
  }

  /// The same value, a real's and a date's sign and NaN compared by their bits.
  static func same(_ a: PlistValue, _ b: PlistValue) -> Bool {
    switch (a, b) {
    case (.real(let x), .real(let y)): x.bitPattern == y.bitPattern
    case (.date(let x), .date(let y)):
      x.timeIntervalSinceReferenceDate.bitPattern == y.timeIntervalSinceReferenceDate.bitPattern
    case (.dictionary(let x), .dictionary(let y)):
      x.count == y.count && x.allSatisfy { k, v in y[k].map { same(v, $0) } ?? false }
    case (.array(let x), .array(let y)): x.count == y.count && zip(x, y).allSatisfy(same)
    default: a == b
    }
  }

  static func documents(_ value: PlistValue) -> [(key: String, PlistValue)] {
    var out: [(key: String, PlistValue)] = [("k", ["k": value])]
    if case .string(let s) = value { out.append((s, .dictionary([s: "v"]))) }
    return out
  }

  @Test(arguments: values.indices, formats)
  func eachValueComesBackOrIsRefusedByKey(_ index: Int, _ format: PlistFormat) throws {
    let (label, value) = Self.values[index]
    for (key, document) in Self.documents(value) {
      let data: Data
      do {
        data = try PropertyList.write(document, as: format)
      } catch {
        // Refused: the message names the key.
        guard case .unrepresentable(_, let keyPath, _) = error else {
          Issue.record("\(label) as \(format): \(error)")
          continue
        }
        // Refused, naming where: the value's key (never the top-level dictionary).
        #expect(!keyPath.isEmpty, "\(label) as \(format) (key \(key)): \(error)")
        continue
      }
      if format != .gnustep {
        // CoreFoundation reads XML, binary and OpenStep text.
        if let object = try? PropertyListSerialization.propertyList(
          from: data, options: [], format: nil),
          let back = Self.plistValue(object)
        {
          #expect(Self.same(back, document), "\(label) as \(format), CoreFoundation: \(back)")
        } else {
          Issue.record("\(label) as \(format): CoreFoundation cannot read back what prefs wrote")
        }
      }
      guard format != .openStep || Tools.gnustep, let gnustep = GNUstepDump.shared else { continue }
      let folder = try TemporaryFolder()
      let file = folder.file("out.plist")
      try data.write(to: file)
      let result = try gnustep.run(file)
      guard result.status == 0 else { continue }  // GNUstep cannot hold it: not a loss
      // GNUstep's readers hold no integer above Int64.max (XML clamps it: a row of
      // Docs/compatibility.md; binary refuses it).
      if case .unsignedInteger = value { continue }
      let back = try TypedJSON.decode(result.stdout)
      #expect(Self.same(back, document), "\(label) as \(format), GNUstep: \(back)")
    }
  }
}
