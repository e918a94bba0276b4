import Foundation
import LegacyDefaults
import Preferences
import PreferencesExamples
import PropertyList
import Synchronization
import TestSupport
import Testing

struct Place: Codable, Hashable, Sendable, CodablePreference {
  var name: String
  var coordinates: [Double]
  var visited: Date?
  var tags: Set<String>
  var rating: Int8
}

enum Level: Int, CaseIterable, Sendable, PreferenceValue {
  case low = 1, high = 2
}

/// Every value type round-trips through a file; what lands in the file is read with the
/// property-list layer, not with the store.
@Suite struct ValueTests {
  static let date = Date(timeIntervalSinceReferenceDate: 123_456_789.25)
  static let place = Place(
    name: "Seoul", coordinates: [37.5665, 126.978], visited: date, tags: ["a", "b"], rating: -3)

  /// Writes `value` under `key`, reopens the file, reads it back; returns the stored form.
  func roundTrip<V: PreferenceValue & Equatable>(_ key: Key<V>, _ value: V) throws -> PlistValue? {
    let folder = try TemporaryFolder()
    let file = folder.file("values.plist")
    let store = try PreferencesStore(url: file)
    store[key] = value
    #expect(store.issues.isEmpty, "\(store.issues)")
    let reopened = try PreferencesStore(url: file)
    #expect(try reopened.value(for: key) == value, "\(key)")
    // Removing a key from a domain that has no file writes nothing.
    guard FileManager.default.fileExists(atPath: file.path) else { return nil }
    let document = try PropertyList.read(Data(contentsOf: file))
    #expect(document.format == .binary)
    return document.value[key.name]
  }

  @Test func scalars() throws {
    #expect(try roundTrip(Key("b", default: false), true) == .bool(true))
    #expect(try roundTrip(Key("i", default: 0), Int.min) == .integer(.min))
    #expect(try roundTrip(Key<Int8>("i8", default: 0), -128) == .integer(-128))
    #expect(try roundTrip(Key<UInt64>("u64", default: 0), .max) == .unsignedInteger(.max))
    #expect(try roundTrip(Key<UInt16>("u16", default: 0), 65535) == .integer(65535))
    #expect(try roundTrip(Key("d", default: 0.0), 0.1) == .real(0.1))
    #expect(try roundTrip(Key<Float>("f", default: 0), 1.5) == .real(1.5))
    #expect(try roundTrip(Key("s", default: ""), "héllo 🌏") == .string("héllo 🌏"))
    #expect(try roundTrip(Key("date", default: Date.distantPast), Self.date) == .date(Self.date))
    #expect(try roundTrip(Key("data", default: Data()), Data([0, 255])) == .data(Data([0, 255])))
  }

  @Test func urlsAndUUIDs() throws {
    let web = try #require(URL(string: "https://example.com/a%20b?q=1#f"))
    #expect(try roundTrip(Key<URL?>("web"), web) == .string(web.absoluteString))
    let file = URL(fileURLWithPath: "/tmp/x y.txt")
    #expect(try roundTrip(Key<URL?>("file"), file) == .string("file:///tmp/x%20y.txt"))
    let uuid = UUID()
    #expect(try roundTrip(Key<UUID?>("id"), uuid) == .string(uuid.uuidString))
  }

  @Test func optionalsArraysDictionaries() throws {
    #expect(try roundTrip(Key<String?>("o"), "x") == "x")
    #expect(try roundTrip(Key<String?>("none"), nil) == nil)
    #expect(try roundTrip(Key("a", default: [Int]()), [3, 1, 2]) == [3, 1, 2])
    #expect(try roundTrip(Key("m", default: [String: Bool]()), ["x": true]) == ["x": true])
    #expect(try roundTrip(Key("nested", default: [[String]]()), [["a"], []]) == [["a"], []])
  }

  @Test func enumsByRawValue() throws {
    #expect(try roundTrip(Keys.colorMode, .dark) == "Dark")
    #expect(try roundTrip(Key("level", default: Level.low), .high) == 2)
  }

  @Test func codableValuesAreNativePropertyLists() throws {
    let stored = try #require(try roundTrip(Key<Place?>("place"), Self.place))
    guard case .dictionary(var fields) = stored else {
      Issue.record("not a dictionary: \(stored)")
      return
    }
    // A set has no fixed order: compare its elements on their own.
    let tags = fields.removeValue(forKey: "tags")
    #expect(Set(tags?.arrayValue ?? []) == ["a", "b"])
    #expect(
      fields
        == [
          "name": "Seoul", "coordinates": [37.5665, 126.978], "visited": .date(Self.date),
          "rating": -3,
        ])
  }

  @Test func absentIsTheDefaultAndCorruptIsAnError() throws {
    let store = PreferencesStore.inMemory(["ranking.size": "twelve", "sound.enabled": 1])
    #expect(try store.value(for: Key<Int?>("missing")) == nil)
    #expect(try store.value(for: Keys.username) == "Lucas")
    #expect(
      throws: PreferenceError.typeMismatch(
        key: "ranking.size", expected: "an integer", found: "string twelve")
    ) {
      try store.value(for: Keys.rankingSize)
    }
    // The subscript reads the default and reports.
    #expect(store[Keys.rankingSize] == 5)
    #expect(store[Keys.soundEnabled] == true)
    #expect(store.issues.count == 2)
  }

  @Test func integersThatDoNotFitAreErrors() {
    let store = PreferencesStore.inMemory(["small": 300])
    #expect(throws: PreferenceError.invalidValue(key: "small", reason: "300 does not fit in Int8"))
    {
      try store.value(for: Key<Int8>("small", default: 0))
    }
  }

  @Test func unknownEnumRawValueFallsBackAndIsReported() throws {
    let store = PreferencesStore.inMemory(["appearance.colorMode": "Sepia"])
    let reported = LockedList()
    store.onIssue = { reported.append("\($0)") }
    #expect(store[Keys.colorMode] == .system)
    #expect(reported.items.count == 1)
    #expect(
      throws: PreferenceError.unknownRawValue(
        key: "appearance.colorMode", type: "ColorModeOption", raw: "Sepia")
    ) {
      try store.value(for: Keys.colorMode)
    }
  }

  @Test func seed001JSONBytesAndStringsStillRead() throws {
    let json = #"{"history":[{"address":"Seoul","lat":"37.5","lon":"127.0"}]}"#
    let expected = LocationHistoryRecord(history: [
      UserLocationData(address: "Seoul", lat: "37.5", lon: "127.0")
    ])
    let bytes = PreferencesStore.inMemory(["weather.locationHistory": .data(Data(json.utf8))])
    #expect(try bytes.value(for: Keys.locationHistory) == expected)
    let text = PreferencesStore.inMemory(["weather.locationHistory": .string(json)])
    #expect(try text.value(for: Keys.locationHistory) == expected)
    let broken = PreferencesStore.inMemory([
      "weather.locationHistory": .data(Data("{\"history\":".utf8))
    ])
    #expect(throws: PreferenceError.self) { try broken.value(for: Keys.locationHistory) }
  }

  @Test func resetAndContains() throws {
    let store = PreferencesStore.inMemory(["ranking.size": 9])
    #expect(store.contains(Keys.rankingSize))
    try store.reset(Keys.rankingSize)
    #expect(!store.contains(Keys.rankingSize))
    #expect(store[Keys.rankingSize] == 5)
  }

  @Test func codableEncoderAndDecoderAgreeWithEachOther() throws {
    struct Deep: Codable, Equatable {
      var a: [[Int]]
      var b: [String: [Double]]
      var c: Int?
      var d: Data
      var e: URL
      var f: [Place]
    }
    let value = Deep(
      a: [[1], [], [2, 3]], b: ["x": [1.5]], c: nil, d: Data([1]),
      e: try #require(URL(string: "https://a.b/c")), f: [Self.place])
    let plist = try PlistValueEncoder().encode(value)
    #expect(plist["c"] == nil)
    #expect(plist["a"] == [[1], [], [2, 3]])
    #expect(try PlistValueDecoder().decode(Deep.self, from: plist) == value)
  }
}

final class LockedList: Sendable {
  private let list = Mutex<[String]>([])
  func append(_ s: String) { list.withLock { $0.append(s) } }
  var items: [String] { list.withLock { $0 } }
}

/// A `Decimal` in a Codable preference: stored exact as its decimal text, read back equal
/// (it was written as a lossy real and never decoded back).
struct Price: Codable, Hashable, Sendable, CodablePreference {
  var amount: Decimal
  var tax: Decimal?
}

@Suite struct DecimalValueTests {
  @Test(arguments: ["0.1", "12345678901234567890.123", "-3.5", "0", "1e-20"])
  func decimalsRoundTripExactly(text: String) throws {
    let amount = try #require(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")))
    let folder = try TemporaryFolder()
    let store = try PreferencesStore(url: folder.file("price.plist"))
    let key = Key<Price?>("price")
    store[key] = Price(amount: amount, tax: Decimal(string: "0.07"))
    #expect(store.issues.isEmpty, "\(store.issues)")
    let reopened = try PreferencesStore(url: folder.file("price.plist"))
    #expect(try reopened.value(for: key) == Price(amount: amount, tax: Decimal(string: "0.07")))
    // Stored as text, so other readers (and prefs read) see the exact digits.
    let stored = try PropertyList.read(Data(contentsOf: folder.file("price.plist"))).value
    #expect(stored["price"]?["amount"] == .string(amount.description))
  }

  /// A value earlier versions wrote as a real still decodes (to that real's decimal).
  @Test func aDecimalWrittenAsARealStillReads() throws {
    let store = PreferencesStore.inMemory(["price": ["amount": .real(2.5)]])
    #expect(try store.value(for: Key<Price?>("price"))?.amount == Decimal(string: "2.5"))
  }
}
