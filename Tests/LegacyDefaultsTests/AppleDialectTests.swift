import Foundation
import LegacyDefaults
import PropertyList
import Testing

/// The `apple` dialect, row by row from the defaults-semantics table of Apple's documented
/// getter results that the project was specified with: the rows below are that table, each
/// expected value copied from it, not computed.
@Suite struct AppleDialectTests {
  let apple = Dialect.apple

  struct Row: Sendable, CustomTestStringConvertible {
    var stored: PlistValue?
    var bool: Bool
    var integer: Int
    var double: Double
    var string: String?
    var testDescription: String { stored.map { "\($0)" } ?? "absent" }
  }

  static let rows: [Row] = [
    Row(stored: nil, bool: false, integer: 0, double: 0, string: nil),
    Row(stored: .bool(true), bool: true, integer: 1, double: 1, string: "1"),
    Row(stored: .bool(false), bool: false, integer: 0, double: 0, string: "0"),
    Row(stored: .integer(42), bool: true, integer: 42, double: 42, string: "42"),
    Row(stored: .integer(0), bool: false, integer: 0, double: 0, string: "0"),
    Row(stored: .integer(-7), bool: true, integer: -7, double: -7, string: "-7"),
    Row(
      stored: .integer(.min), bool: true, integer: .min, double: -9_223_372_036_854_775_808,
      string: "-9223372036854775808"),
    // Unsigned values above Int.max clamp to Int.max.
    Row(
      stored: .unsignedInteger(.max), bool: true, integer: .max,
      double: 18_446_744_073_709_551_615, string: "18446744073709551615"),
    // Reals: x truncated toward zero; the string is the shortest round-trip %g form.
    Row(stored: .real(5.7), bool: true, integer: 5, double: 5.7, string: "5.7"),
    Row(stored: .real(-5.7), bool: true, integer: -5, double: -5.7, string: "-5.7"),
    Row(stored: .real(1.0), bool: true, integer: 1, double: 1, string: "1"),
    Row(stored: .real(1e20), bool: true, integer: .max, double: 1e20, string: "1e+20"),
    Row(stored: .real(-1e20), bool: true, integer: .min, double: -1e20, string: "-1e+20"),
    Row(stored: .real(1e-7), bool: true, integer: 0, double: 1e-7, string: "1e-07"),
    Row(stored: .real(0.0), bool: false, integer: 0, double: 0, string: "0"),
    Row(stored: .real(.nan), bool: true, integer: 0, double: .nan, string: "nan"),
    // Strings: intValue / doubleValue rules.
    Row(stored: "1e3", bool: true, integer: 1, double: 1000, string: "1e3"),
    Row(stored: "5abc", bool: true, integer: 5, double: 5, string: "5abc"),
    Row(stored: "0x10", bool: false, integer: 0, double: 0, string: "0x10"),
    Row(stored: "  42  ", bool: true, integer: 42, double: 42, string: "  42  "),
    Row(stored: "12 34", bool: true, integer: 12, double: 12, string: "12 34"),
    Row(stored: "+5.5e1", bool: true, integer: 5, double: 55, string: "+5.5e1"),
    Row(stored: ".5", bool: false, integer: 0, double: 0.5, string: ".5"),
    Row(stored: "inf", bool: false, integer: 0, double: 0, string: "inf"),
    Row(stored: "nan", bool: false, integer: 0, double: 0, string: "nan"),
    Row(stored: "YES", bool: true, integer: 0, double: 0, string: "YES"),
    Row(
      stored: "99999999999999999999", bool: true, integer: .max, double: 1e20,
      string: "99999999999999999999"),
    Row(
      stored: "-99999999999999999999", bool: true, integer: .min, double: -1e20,
      string: "-99999999999999999999"),
    // Dates, data, arrays, dictionaries read as nothing.
    Row(
      stored: .date(Date(timeIntervalSinceReferenceDate: 0)), bool: false, integer: 0, double: 0,
      string: nil),
    Row(stored: .data(Data([1, 2])), bool: false, integer: 0, double: 0, string: nil),
    Row(stored: .array(["1"]), bool: false, integer: 0, double: 0, string: nil),
    Row(stored: .dictionary(["a": "1"]), bool: false, integer: 0, double: 0, string: nil),
  ]

  @Test(arguments: rows)
  func tableRow(_ row: Row) {
    #expect(apple.bool(row.stored) == row.bool)
    #expect(apple.integer(row.stored) == row.integer)
    let d = apple.double(row.stored)
    #expect(d == row.double || (d.isNaN && row.double.isNaN))
    #expect(apple.string(row.stored) == row.string)
    #expect(apple.float(row.stored) == Float(row.double) || (row.double.isNaN))
  }

  static let trueStrings = [
    "YES", "yes", "Y", "y", "true", "TRUE", "1", "2", "-1", "01", "+1", " 1", "\n7", "5abc", "5.7",
    "1e3", "1.0",
  ]
  static let falseStrings = [
    "NO", "no", "false", "t", "f", "0", "00", "--1", "0-1", " YES", "\tYES", "abc", "", "0.5",
    "0x10", "-0", ".5", "yes please",
  ]

  @Test(arguments: trueStrings)
  func stringReadsTrue(_ s: String) { #expect(apple.bool(.string(s))) }

  @Test(arguments: falseStrings)
  func stringReadsFalse(_ s: String) { #expect(!apple.bool(.string(s))) }

  @Test func otherGetters() throws {
    let array: PlistValue = ["a", "b"]
    #expect(apple.array(array) == ["a", "b"])
    #expect(apple.array("a") == nil)
    #expect(apple.stringArray(array) == ["a", "b"])
    // Numbers are not converted.
    #expect(apple.stringArray(["a", 1]) == nil)
    #expect(apple.dictionary(["k": 1]) == ["k": 1])
    #expect(apple.dictionary(array) == nil)
    #expect(apple.data(.data(Data([7]))) == Data([7]))
    #expect(apple.data("7") == nil)
    let date = Date(timeIntervalSinceReferenceDate: 12)
    #expect(apple.date(.date(date)) == date)
    #expect(apple.date("2001-01-01") == nil)
  }

  @Test func urlOfStringsAndArchives() throws {
    #expect(apple.url("/tmp/x") == URL(fileURLWithPath: "/tmp/x"))
    #expect(
      apple.url("~/notes.txt", home: "/home/ana") == URL(fileURLWithPath: "/home/ana/notes.txt"))
    #expect(apple.url("~", home: "/home/ana") == URL(fileURLWithPath: "/home/ana"))
    #expect(apple.url(.integer(3)) == nil)
    // Data that is not a keyed archive: nil, never a trap.
    #expect(apple.url(.data(Data("https://example.com".utf8))) == nil)
    #expect(apple.url(.data(Data())) == nil)
  }

  /// `URLForKey:` is `[NSURL fileURLWithPath:[s stringByExpandingTildeInPath]]`: Apple's
  /// `stringByExpandingTildeInPath` leaves a `~user` that names no user as it is, and
  /// `fileURLWithPath:` makes that relative path a file of the current folder
  /// (`file://<cwd>/~nosuchuser/x`), in every dialect (GNUstep's has no `URLForKey:` and
  /// answers as Apple does). A known user's `~user/x` is that user's home, as the system's
  /// own lookup (`getpwnam`, in this dynamically linked test) gives it.
  @Test(arguments: [Dialect.apple, .gnustep, .corelibs])
  func urlOfAnUnknownUsersTilde(_ dialect: Dialect) throws {
    let cwd = FileManager.default.currentDirectoryPath
    for value in ["~nosuchuser_v2/x", "~nosuchuser_v2", "~nosuchuser_v2/a b/é"] {
      let url = try #require(dialect.url(.string(value), home: "/home/ana"))
      #expect(url.isFileURL)
      #expect(
        url.absoluteURL.path == URL(fileURLWithPath: cwd + "/" + value).path,
        "\(value): \(url.absoluteString)")
    }
    let url = try #require(dialect.url("~nosuchuser_v2/x", home: "/home/ana"))
    #expect(url.absoluteString == "file://\(cwd)/~nosuchuser_v2/x")
    if let entry = getpwnam("root"), let dir = entry.pointee.pw_dir {
      let home = String(cString: dir)
      #expect(
        dialect.url("~root/x", home: "/home/ana")?.path == PathTextExpectation.join(home, "x"))
    }
  }
}

/// A home folder and a name joined as `stringByExpandingTildeInPath` joins them (one `/`).
enum PathTextExpectation {
  static func join(_ home: String, _ name: String) -> String {
    (home.hasSuffix("/") ? home : home + "/") + name
  }
}
