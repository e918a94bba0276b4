import Foundation
import PropertyList
import TestSupport
import Testing

/// Inputs the fuzzers (Fuzz/) found, kept so the fix stays fixed. A file named `<target>-…`
/// is fed the way that target feeds it: `binary-` inputs get the `bplist00` magic when they
/// lack it. Whatever parses must round-trip through binary and (when it can hold it) XML.
@Suite struct FuzzRegressionTests {
  static let folder = Fixtures.root.appendingPathComponent("fuzz-regressions")
  static let files = Fixtures.files(in: folder)

  @Test(arguments: files)
  func reproducerRoundTrips(name: String) throws {
    var data = try Data(contentsOf: Self.folder.appendingPathComponent(name))
    guard !name.hasPrefix("dialects-") else { return }  // DialectRegressionTests replays these
    let magic = Data("bplist00".utf8)
    if name.hasPrefix("binary-"), !data.starts(with: magic) { data = magic + data }
    guard let value = try? PropertyList.read(data).value else { return }
    if Self.hasWideUID(value) {
      // A UID above 32 bits is refused by every writer (CoreFoundation's UIDs are 32 bits).
      #expect(throws: PlistError.self) { try PropertyList.write(value, as: .binary) }
      #expect(throws: PlistError.self) { try PropertyList.write(value, as: .xml) }
      return
    }
    #expect(try PropertyList.read(PropertyList.write(value, as: .binary)).value == value)
    if let xml = try? PropertyList.write(value, as: .xml) {
      #expect(try PropertyList.read(xml).value == value, "\(name) through XML")
    }
    for format in [PlistFormat.openStep, .gnustep] {
      if let text = try? PropertyList.write(value, as: format) {
        #expect(try PropertyList.read(text).value == value, "\(name) through \(format)")
      }
    }
  }

  /// A string that starts with `//` was written bare, and read back as a comment (the
  /// `openstep` target's finding): CoreFoundation reads `//x` bare as a comment too, so it is
  /// quoted; a `//` further in stays bare (both readers take `a//b` as one string).
  @Test func aStringStartingWithTwoSlashesIsQuoted() throws {
    for value: PlistValue in ["//////", ["//k": "//v", "a//b": "/"], ["//"]] {
      for format in [PlistFormat.openStep, .gnustep] {
        let text = try PropertyList.write(value, as: format)
        #expect(try PropertyList.read(text).value == value, "\(format)")
      }
    }
    let text = try PropertyList.write(["a//b": "x"], as: .openStep)
    #expect(String(decoding: text, as: UTF8.self).contains("a//b = x;"))
  }

  static func hasWideUID(_ value: PlistValue) -> Bool {
    switch value {
    case .uid(let u): u > UInt64(UInt32.max)
    case .array(let elements): elements.contains(where: hasWideUID)
    case .dictionary(let d): d.contains { hasWideUID($0.value) }
    default: false
    }
  }

  /// The first finding: a UID above Int64.max written to XML as `CF$UID` came back as a
  /// dictionary, because the reader took only `Int64` UIDs. Since then a UID above 32 bits is
  /// refused on write (CoreFoundation reads such a `CF$UID` as another UID); every UID of 32
  /// bits round-trips.
  @Test func largeUIDsRoundTripThroughXML() throws {
    for uid: UInt64 in [0, 5, UInt64(Int32.max), UInt64(UInt32.max)] {
      let value: PlistValue = ["u": .uid(uid)]
      #expect(try PropertyList.read(PropertyList.write(value, as: .xml)).value == value)
    }
    for uid: UInt64 in [UInt64(UInt32.max) + 1, UInt64(Int64.max) + 1, .max] {
      #expect(throws: PlistError.self) { try PropertyList.write(["u": .uid(uid)], as: .xml) }
    }
  }
}
