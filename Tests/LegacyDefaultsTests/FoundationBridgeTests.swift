import Foundation
import LegacyDefaults
import LegacyDefaultsFoundation
import PropertyList
import TestSupport
import Testing

/// Values through real `UserDefaults` (swift-corelibs-foundation here): what goes in comes
/// back, in this process and in the file another process reads, and what cannot go in is
/// refused with the key named.
@Suite struct FoundationBridgeTests {
  static let values: [(String, PlistValue)] = [
    ("int64.max", .integer(.max)),
    ("int64.min", .integer(.min)),
    ("uint64.max", .unsignedInteger(.max)),
    ("above.int64", .unsignedInteger(UInt64(Int64.max) + 1)),
    ("zero", .integer(0)),
    ("one", .integer(1)),
    ("true", .bool(true)),
    ("false", .bool(false)),
    ("real", .real(0.1)),
    ("whole.real", .real(2)),
    ("string", .string("héllo 🌏")),
    ("empty.string", .string("")),
    ("date", .date(Date(timeIntervalSinceReferenceDate: 420_000_000))),
    ("data", .data(Data([0, 1, 254, 255]))),
    ("empty.data", .data(Data())),
    ("array", .array([.integer(1), .bool(true), .string("x"), .real(2.5)])),
    ("empty.array", .array([])),
    ("dictionary", .dictionary(["a": .array([.dictionary(["b": .bool(false)])]), "n": 5])),
    ("empty.dictionary", .dictionary([:])),
  ]

  @Test func everyPropertyListTypeComesBackAsItWent() throws {
    let folder = try TemporaryFolder()
    let suite = folder.file("bridge").path
    let storage = try UserDefaultsStorage(suiteName: suite)
    let store = try DefaultsStore(storage: storage, flushAtExit: false)
    for (key, value) in Self.values { try store.set(value, forKey: key) }
    try store.synchronizeOrThrow()
    let expected = Dictionary(uniqueKeysWithValues: Self.values)
    // In this process, through a second UserDefaults instance of the suite.
    #expect(try UserDefaultsStorage(suiteName: suite).load().values.swiftDictionary == expected)
    // In the file corelibs wrote, as python's plistlib reads it (python3 comes with the
    // machine and is installed by .ci/run's image; a missing one fails here).
    let file = folder.file("bridge.plist")
    do {
      let python = try #require(External.which("python3"), "python3 is not installed")
      let script = """
        import plistlib, sys
        d = plistlib.load(open(sys.argv[1], 'rb'))
        t = {k: type(v).__name__ for k, v in d.items()}
        print(t['true'], t['one'], t['int64.max'], d['uint64.max'], d['int64.min'], t['real'])
        """
      let run = try External.run(python, ["-c", script, file.path])
      #expect(
        run.output == "bool int int 18446744073709551615 -9223372036854775808 float\n",
        "\(run.stderr)")
    }
  }

  /// swift-corelibs-foundation's XML file holds whole seconds: the storage drops the fraction
  /// before setting, so what this process sees is what the next process reads.
  @Test func fractionalSecondsAreWhatTheFileHolds() throws {
    let folder = try TemporaryFolder()
    let suite = folder.file("dates").path
    let store = try DefaultsStore(
      storage: try UserDefaultsStorage(suiteName: suite), flushAtExit: false)
    try store.set(Date(timeIntervalSinceReferenceDate: 1.75), forKey: "d")
    try store.synchronizeOrThrow()
    #if canImport(Darwin)
      let expected = Date(timeIntervalSinceReferenceDate: 1.75)
    #else
      let expected = Date(timeIntervalSinceReferenceDate: 1)
    #endif
    #expect(store.object(forKey: "d") == .date(expected))
    #expect(try UserDefaultsStorage(suiteName: suite).load().values["d"] == .date(expected))
  }

  /// corelibs `UserDefaults` loops forever on `set(nil, forKey:)`: a removal through the storage
  /// is `removeObject(forKey:)`, so it returns.
  @Test(.timeLimit(.minutes(1)))
  func aRemovalDoesNotLoop() throws {
    let folder = try TemporaryFolder()
    let store = try DefaultsStore(
      storage: try UserDefaultsStorage(suiteName: folder.file("nil").path), flushAtExit: false)
    try store.set(1, forKey: "k")
    try store.set(nil, forKey: "k")
    try store.synchronizeOrThrow()
    #expect(store.object(forKey: "k") == nil)
  }

  @Test func aUIDIsRefusedWithItsKey() throws {
    let folder = try TemporaryFolder()
    let storage = try UserDefaultsStorage(suiteName: folder.file("uid").path)
    #expect(throws: DefaultsError.unsupportedValue(key: "k", type: "UID")) {
      _ = try storage.update { _ in ["k": .array([.uid(1)])] }
    }
    #expect(try storage.load().values == [:])
  }

  /// What the bridge refuses, each with the key named: a dictionary keyed by numbers, a nil
  /// inside a container (corelibs hands containers of `Optional<Any>` back), an object that is
  /// not a property-list value.
  @Test func whatTheBridgeRefuses() {
    let numberKeyed: [AnyHashable: Any] = [1: "x"]
    #expect(throws: DefaultsError.self) { try FoundationBridge.value(numberKeyed, key: "k") }
    let withNil: [Any?] = [1, nil]
    #expect(throws: DefaultsError.unsupportedValue(key: "k", type: "nil inside a container")) {
      try FoundationBridge.value(withNil as Any, key: "k")
    }
    #expect(throws: DefaultsError.self) { try FoundationBridge.value(NSNull(), key: "k") }
    #expect(throws: DefaultsError.self) {
      try FoundationBridge.value(URL(fileURLWithPath: "/"), key: "k")
    }
  }

  /// Booleans and the integers 0 and 1 stay apart however they arrive: Swift values
  /// (corelibs) or NSNumbers (Apple's `UserDefaults`).
  @Test func booleansAndZeroOrOneStayApart() throws {
    #expect(try FoundationBridge.value(true, key: "k") == .bool(true))
    #expect(try FoundationBridge.value(1, key: "k") == .integer(1))
    #expect(try FoundationBridge.value(NSNumber(value: true), key: "k") == .bool(true))
    #expect(try FoundationBridge.value(NSNumber(value: 0), key: "k") == .integer(0))
    #expect(
      try FoundationBridge.value(NSNumber(value: UInt64.max), key: "k") == .unsignedInteger(.max))
    #expect(try FoundationBridge.value(NSNumber(value: Int64.min), key: "k") == .integer(.min))
    #expect(try FoundationBridge.value(NSNumber(value: 2.5), key: "k") == .real(2.5))
    let optionals: [String: Any?] = ["a": 1, "b": "x"]
    #expect(try FoundationBridge.value(optionals as Any, key: "k") == ["a": 1, "b": "x"])
  }
}
