import Foundation
import PreferencesMigration
import PrefsTools
import PropertyList
import Testing

/// The plan as Swift, as a library: the name it may take, and the source it prints.
@Suite struct SwiftPlanSourceTests {
  /// Swift identifiers (The Swift Programming Language, "Identifiers"), ASCII as the rest of
  /// the generated source; keywords are not.
  @Test(arguments: [
    ("Equizmo", true), ("equizmo", true), ("_plan2", true), ("plan_v2", true), ("P", true),
    ("2plan", false), ("not an identifier", false), ("plan-v2", false), ("", false),
    ("class", false), ("self", false), ("plan.v2", false),
  ])
  func aPlanIsNamedByASwiftIdentifier(_ name: String, _ valid: Bool) {
    #expect(SwiftPlanSource.isIdentifier(name) == valid, "\(name)")
  }

  @Test func theNameGivenIsTheNameInTheSource() {
    let plan = MigrationPlan(
      schemaVersion: 2,
      entries: [.init(from: "PREFS_RANKING_SIZE", to: "ranking.size", type: .integer)])
    let source = SwiftPlanSource(plan: plan, name: "Equizmo").source()
    #expect(source.contains("  static let Equizmo = MigrationPlan("))
    #expect(source.contains("products Preferences, PreferencesMigration"))
  }

  @Test func aPlanFileNamesThePlan() {
    #expect(SwiftPlanSource.name(forPlanFile: "/x/equizmo-plan.json") == "equizmoPlan")
  }
}
