import Foundation
import LegacyDefaults
import PropertyList
import TestSupport
import Testing

/// Integers above Int64.max in the gnustep dialect, per format, as GNUstep Base 1.28 answered
/// on one-key files (issue 13): its XML reader clamps to Int64.max, so every getter and
/// `objectForKey:` see 9223372036854775807; its typed text keeps the unsigned value, so
/// `doubleForKey:` is 1.8446744073709552e19 (and `integerForKey:` wraps to -1, where prefs
/// clamps: Docs/compatibility.md).
@Suite struct GNUstepAboveInt64Tests {
  static func store(_ text: String, _ name: String) throws -> (DefaultsStore, TemporaryFolder) {
    let folder = try TemporaryFolder()
    let file = folder.file(name)
    try Data(text.utf8).write(to: file)
    return (try DefaultsStore(url: file, dialect: .gnustep, flushAtExit: false), folder)
  }
  // Each test keeps its folder until it is done: the store follows its file, and a folder
  // removed under it is a domain removed (it read as empty before the store followed it).

  @Test func xmlIsClampedBeforeAnyGetter() throws {
    let (store, folder) = try Self.store(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>k</key><integer>18446744073709551615</integer></dict></plist>
      """, "x.plist")
    defer { withExtendedLifetime(folder) {} }
    #expect(store.object(forKey: "k") == .integer(.max))
    #expect(store.integer(forKey: "k") == Int.max)
    #expect(store.double(forKey: "k") == 9.223372036854776e18)
    #expect(store.float(forKey: "k") == Float(9.223372e18))
  }

  @Test func typedTextKeepsTheUnsignedValue() throws {
    let (store, folder) = try Self.store("{ k = <*I18446744073709551615>; }", "t.plist")
    defer { withExtendedLifetime(folder) {} }
    #expect(store.object(forKey: "k") == .unsignedInteger(.max))
    #expect(store.double(forKey: "k") == 1.8446744073709552e19)
    #expect(store.integer(forKey: "k") == Int.max)  // GNUstep wraps to -1: a documented deviation
  }

  /// Other dialects read what the file holds.
  @Test func appleKeepsTheXMLValue() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("x.plist")
    try PropertyList.write(["k": .unsignedInteger(.max)], as: .xml).write(to: file)
    let store = try DefaultsStore(url: file, dialect: .apple, flushAtExit: false)
    #expect(store.object(forKey: "k") == .unsignedInteger(.max))
    #expect(store.double(forKey: "k") == 1.8446744073709552e19)
  }
}
