import Foundation
import LegacyDefaults
import PropertyList
import Testing

/// `Dialect.read(_:as:)`: the getter's answer from the spec's apple table, and whether it was
/// exact, coerced, or a value the getter cannot read (its empty answer).
@Suite struct LegacyTypeTests {
  struct Row: Sendable, CustomTestStringConvertible {
    var stored: PlistValue
    var type: LegacyType
    var answer: PlistValue?
    var conversion: LegacyReading.Conversion
    var testDescription: String { "\(type) of \(stored)" }
  }

  static let rows: [Row] = [
    Row(stored: true, type: .bool, answer: true, conversion: .exact),
    Row(stored: "YES", type: .bool, answer: true, conversion: .coerced),
    Row(stored: " YES", type: .bool, answer: false, conversion: .coerced),
    Row(stored: ["a"], type: .bool, answer: false, conversion: .unreadable),
    Row(stored: 12, type: .integer, answer: 12, conversion: .exact),
    Row(stored: "5abc", type: .integer, answer: 5, conversion: .coerced),
    Row(stored: .real(5.7), type: .integer, answer: 5, conversion: .coerced),
    Row(stored: .data(Data([1])), type: .integer, answer: 0, conversion: .unreadable),
    Row(stored: .real(0.5), type: .double, answer: .real(0.5), conversion: .exact),
    Row(stored: "+5.5e1", type: .double, answer: .real(55), conversion: .coerced),
    Row(stored: "s", type: .string, answer: "s", conversion: .exact),
    Row(stored: .real(1), type: .string, answer: "1", conversion: .coerced),
    Row(stored: ["a"], type: .string, answer: nil, conversion: .unreadable),
    Row(stored: ["a", "b"], type: .stringArray, answer: ["a", "b"], conversion: .exact),
    Row(stored: "a", type: .array, answer: nil, conversion: .unreadable),
    Row(stored: .data(Data([1])), type: .data, answer: .data(Data([1])), conversion: .exact),
    Row(stored: "/tmp/x", type: .url, answer: "file:///tmp/x", conversion: .coerced),
    Row(stored: ["k": 1], type: .object, answer: ["k": 1], conversion: .exact),
  ]

  @Test(arguments: rows)
  func appleReadsAsTheTableSays(_ row: Row) {
    let reading = Dialect.apple.read(row.stored, as: row.type)
    #expect(reading.value == row.answer)
    #expect(reading.conversion == row.conversion)
  }
}
