import LegacyDefaults
import PreferencesMigration
import PrefsTools
import PropertyList
import Testing

/// How ``PlanInference`` weighs a stored string, in every dialect: a number is read through the
/// dialect's getters only when the getter read all the digits the string holds. Every getter
/// stops early on these (the spec's apple table: `intValue("12 34")` is 12; GNUstep's and
/// corelibs' parsers stop at the same characters, DIALECTS.md), so reading them as a number
/// would lose the rest: they are text, whatever the dialect.
@Suite struct PlanInferenceTests {
  /// A key holding `values`, one file each.
  static func inference(_ values: [String], _ dialect: Dialect) -> PlanInference {
    var inference = PlanInference(dialect: dialect)
    for (n, value) in values.enumerated() { inference.add(["k": .string(value)], file: "f\(n)") }
    return inference
  }

  static func kinds(_ values: [String], _ dialect: Dialect) -> [KeyEvidence.Kind: Int] {
    inference(values, dialect).evidence["k"]?.kinds ?? [:]
  }

  // (`LegacyDefaults.Dialect`: PrefsTools names the type too, for the command, and a type
  // named by two imported modules is ambiguous where an expression names it, as @Test does.)
  @Test(arguments: Dialect.allCases)
  func structuredTextStaysText(dialect: LegacyDefaults.Dialect) {
    // Dates, versions, numbers side by side, phone numbers, hex.
    let values = ["2024-01-05", "1.2.3", "12 34", "555-1234", "0x10"]
    #expect(Self.kinds(values, dialect) == [.text: values.count])
    #expect(Self.inference(values, dialect).proposals().first?.entry.type == .string)
  }

  /// A number followed by other characters is the number the getter reads (`"7x"`), and a
  /// real with its fraction is a real (`"1.0"`, `"0.75"`), in every dialect.
  @Test(arguments: Dialect.allCases)
  func numbersWithoutMoreDigitsAreNumbers(dialect: LegacyDefaults.Dialect) {
    #expect(Self.kinds(["7x", " 12", "12abc"], dialect) == [.integerText: 3])
    #expect(Self.kinds(["1.0", "0.75", "1e3"], dialect) == [.realText: 3])
  }
}
