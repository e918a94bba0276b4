import Foundation
import PreferencesMigration
import Testing

/// Issue #22, finding 3: a typo in a plan never drops a setting silently.
@Suite struct TypoTests {
  /// The rule (MIGRATION.md, "Typos"): case folded first; then at most 2 edits (insert,
  /// delete, substitute, swap two neighbours) when the shorter key has 6 characters or more,
  /// 1 for 3 to 5, none (a case-only difference) for 1 or 2; identical keys are no typo.
  @Test(arguments: [
    ("PREFS_SOUND_ENABLE", "PREFS_SOUND_ENABLED", true),  // one deletion
    ("colorMode", "colormode", true),  // case only
    ("ENABLED", "enabled", true),  // case only
    ("colorMode", "colourMode", true),  // one insertion
    ("rankingSize", "rankignSize", true),  // one swap of neighbours
    ("rankingSize", "rnakignSize", true),  // two swaps
    ("rankingSize", "rankingSizes", true),
    ("abcdef", "bacdfe", true),  // two swaps, 6 characters
    ("abcdef", "badcfe", false),  // three swaps
    ("volume", "column", true),  // two substitutions at 6 characters: the rule's price
    ("fontSize", "fontSizeXYZ", false),  // three insertions
    ("ranking", "rankingSizeMax", false),
    ("theme", "Theme", true),
    ("theme", "there", true),  // one substitution, 5 characters
    ("theme", "thyne", false),  // two substitutions, 5 characters
    ("size", "sizes", true),
    ("size", "fizz", false),
    ("abc", "acb", true),  // one swap, 3 characters
    ("abc", "xyz", false),
    ("id", "ID", true),  // case only, 2 characters
    ("id", "ip", false),  // 2 characters: case only
    ("x", "X", true),
    ("x", "y", false),
    ("same", "same", false),  // identical: not a typo
    ("nickname", "nickName", true),
  ])
  func theNearMissRule(a: String, b: String, expected: Bool) {
    #expect(MigrationPlan.isNearMiss(a, b) == expected, "\(a) / \(b)")
    #expect(MigrationPlan.isNearMiss(b, a) == expected, "\(b) / \(a)")
  }
}
