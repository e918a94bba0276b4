import Foundation
import PropertyList
import TestSupport
import Testing

/// Broken and hostile input ends in a typed error, quickly: never a crash, a hang, or a value.
@Suite struct HostileInputTests {
  /// Reads `data` and returns the error, recording an issue if it parsed or took a second.
  static func failure(_ data: Data, _ label: String) -> PlistError? {
    let clock = ContinuousClock()
    let start = clock.now
    defer {
      let elapsed = clock.now - start
      // Catches a hang, not slowness (speed targets live in prefs-bench).
      #expect(elapsed < .seconds(30), "\(label) took \(elapsed)")
    }
    do {
      let document = try PropertyList.read(data)
      Issue.record("\(label) parsed as \(document.format): \(document.value.typeName)")
      return nil
    } catch {
      return error
    }
  }

  static func smallFile(_ name: String) throws -> Data {
    try Data(contentsOf: Fixtures.valid.appendingPathComponent(name))
  }

  @Test(arguments: [
    "all-types.plistlib.bplist", "uid.plistlib.bplist", "top-string.plistlib.bplist",
  ])
  func binaryTruncatedAtEveryByte(name: String) throws {
    let data = try Self.smallFile(name)
    for length in 0..<data.count {
      let error = Self.failure(data.prefix(length), "\(name) cut at \(length)")
      if length == 0 { #expect(error == .empty) } else { #expect(error?.format == .binary) }
    }
  }

  @Test(arguments: ["all-types.plistlib.xml", "unicode.plistutil.xml"])
  func xmlTruncatedAtEveryByte(name: String) throws {
    let data = try Self.smallFile(name)
    // Every cut before the end of `</plist>` must fail (after it, only white space is lost).
    let text = String(decoding: data, as: UTF8.self)
    let close = try #require(text.range(of: "</plist>", options: .backwards))
    let end = text.utf8.distance(from: text.startIndex, to: close.upperBound)
    for length in 1..<end {
      let error = Self.failure(data.prefix(length), "\(name) cut at \(length)")
      #expect(error?.format == .xml || error?.format == .openStep, "\(name) cut at \(length)")
    }
  }

  @Test(arguments: [
    "gnustep-typed.gnustep", "openstep-syntax.openstep", "all-types.gnustep.openstep",
  ])
  func textTruncatedInsideTheTopDictionary(name: String) throws {
    let data = try Self.smallFile(name)
    let bytes = [UInt8](data)
    let open = try #require(bytes.firstIndex(of: UInt8(ascii: "{")))
    let close = try #require(bytes.lastIndex(of: UInt8(ascii: "}")))
    for length in (open + 1)...close {
      #expect(Self.failure(data.prefix(length), "\(name) cut at \(length)") != nil)
    }
  }

  /// ``BinaryList/bplist(objects:top:refSize:)``; the streaming tests use it too.
  static func bplist(objects: [[UInt8]], top: Int = 0, refSize: UInt8 = 1) -> Data {
    BinaryList.bplist(objects: objects, top: top, refSize: refSize)
  }

  @Test func binaryCycles() {
    // An array that holds itself; two arrays that hold each other; a dict whose value is itself.
    let selfArray = Self.bplist(objects: [[0xA1, 0]])
    let twoArrays = Self.bplist(objects: [[0xA1, 1], [0xA1, 0]])
    let selfDict = Self.bplist(objects: [[0xD1, 1, 0], [0x51, UInt8(ascii: "k")]])
    for (data, label) in [(selfArray, "self"), (twoArrays, "pair"), (selfDict, "dict")] {
      guard case .cycle? = Self.failure(data, label) else {
        Issue.record("\(label): not reported as a cycle")
        continue
      }
    }
  }

  @Test func billionLaughsIsRefusedEarly() {
    // Object i is an array holding object i+1 twice: 2^60 values from a few hundred bytes.
    let levels = 60
    var objects: [[UInt8]] = (0..<levels).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
    objects.append([0x51, UInt8(ascii: "x")])
    let error = Self.failure(Self.bplist(objects: objects), "laughs")
    // Refused by the amplification bound, long before the value limit.
    guard case .limitExceeded(_, _, .amplification)? = error else {
      Issue.record("expected the amplification bound, got \(String(describing: error))")
      return
    }
  }

  @Test func sharedObjectsWithinTheLimitAreAccepted() throws {
    // 16 levels: 2^16 leaves, well within the limit; shared, so decoded once.
    let levels = 16
    var objects: [[UInt8]] = (0..<levels).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
    objects.append([0x51, UInt8(ascii: "x")])
    var value = try PropertyList.read(Self.bplist(objects: objects)).value
    for _ in 0..<levels {
      guard case .array(let a) = value, a.count == 2, a[0] == a[1] else {
        Issue.record("unexpected shape")
        return
      }
      value = a[0]
    }
    #expect(value == "x")
  }

  @Test(arguments: [PlistFormat.binary, .xml, .openStep])
  func nestingLimitIsExact(format: PlistFormat) throws {
    func nested(_ depth: Int) -> PlistValue {
      var value: PlistValue = .array([])
      for _ in 1..<depth { value = .array([value]) }
      return value
    }
    // Written with a looser writer limit, read with the default 512.
    let ok = try PropertyList.write(nested(512), as: format, maxDepth: 1000)
    #expect(try PropertyList.read(ok).value == nested(512))
    let deep = try PropertyList.write(nested(513), as: format, maxDepth: 1000)
    guard case .limitExceeded(_, _, .depth(512))? = Self.failure(deep, "513 deep") else {
      Issue.record("513 levels were not refused by the depth limit")
      return
    }
    // And far deeper than any stack would take, refused just as fast.
    var text = String(repeating: "(", count: 200_000)
    text += String(repeating: ")", count: 200_000)
    #expect(Self.failure(Data(text.utf8), "200,000 deep") != nil)
  }

  @Test func writersRefuseNestingPastTheirLimit() {
    var value: PlistValue = .array([])
    for _ in 0..<600 { value = .array([value]) }
    for format in PlistFormat.allCases {
      #expect(throws: PlistError.self) { try PropertyList.write(value, as: format) }
    }
  }

  @Test func inputSizeLimit() {
    let limits = PlistLimits(maxInputBytes: 100)
    let data = Data(repeating: UInt8(ascii: " "), count: 101)
    #expect(
      throws: PlistError.limitExceeded(
        format: .openStep, at: .byteOffset(100), limit: .inputBytes(100))
    ) {
      try PropertyList.read(data, limits: limits)
    }
  }
}
