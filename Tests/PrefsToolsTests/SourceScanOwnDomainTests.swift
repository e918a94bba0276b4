import Foundation
import PreferencesMigration
import PrefsTools
import PropertyList
import TestSupport
import Testing

/// A suite named by the bundle identifier of an application the tree builds is that app's
/// standard domain (Fixtures/SourceScan/Flow/OwnDomain: an Xcode project whose application
/// target's identifier is `org.example.$(PRODUCT_NAME:rfc1034identifier)`, an older app's
/// Info.plist), as CFPreferences and a helper's `UserDefaults(suiteName:)` write it.
@Suite struct SourceScanOwnDomainTests {
  @Test func theAppsOwnIdentifierIsTheStandardDomain() {
    let result = SourceScanFlowTests.scan("OwnDomain")
    SourceScanFlowTests.expectExactly(
      result,
      [
        // A CFNumber of the kind `CFNumberCreate` names, through the app's wrappers.
        ("own.level", .integer, nil), ("own.speed", .double, nil),
        ("own.legacyFlag", .bool, nil), ("own.fromHelper", .bool, nil),
      ])
    // Traps: a framework's identifier, a plug-in's (BNDL), an application's identifier left to
    // a setting the project does not hold: suites of their own.
    let others = Dictionary(
      result.otherDomains.map { ("\($0.0)", $0.1.map(\.entry.from)) },
      uniquingKeysWith: { a, _ in a })
    #expect(others["suite org.example.OwnKit"] == ["kit.cache"])
    #expect(others["suite org.example.plugin"] == ["plugin.count"])
    #expect(others["suite org.example.Helper"] == ["helper.port"])
    #expect(others.count == 3, "\(others.keys.sorted())")
    // Asked for by its name, a suite is what the scan gives, the app's own or not.
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("OwnDomain", suite: "org.example.OwnKit"),
      [("kit.cache", .bool, nil)])
    SourceScanFlowTests.expectExactly(
      SourceScanFlowTests.scan("OwnDomain", suite: "org.example.Own-App"),
      [("own.level", .integer, nil), ("own.speed", .double, nil), ("own.fromHelper", .bool, nil)])
  }

  /// Xcode's settings in an identifier, as the project would build it.
  @Test(
    arguments: [
      (
        "org.example.$(PRODUCT_NAME:rfc1034identifier)", "$(TARGET_NAME)", "My App 2",
        "org.example.My-App-2"
      ),
      ("org.example.${PRODUCT_NAME:identifier}", "Tool", "ignored", "org.example.Tool"),
      ("com.example.$(TARGET_NAME)", nil, "Reader", "com.example.Reader"),
      ("com.example.plain", nil, "X", "com.example.plain"),
    ] as [(String, String?, String, String)])
  func anIdentifierIsExpanded(_ text: String, product: String?, target: String, expected: String) {
    #expect(SourceScan.expand(text, productName: product, targetName: target) == expected)
  }

  @Test(arguments: ["$(APP_ID)", "com.example.$(PRODUCT_NAME:lower)", "com.$(", "$"])
  func anIdentifierLeftToAnotherSettingIsNone(_ text: String) {
    #expect(SourceScan.expand(text, productName: nil, targetName: "App") == nil)
  }
}
