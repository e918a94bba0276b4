import Foundation
import LegacyDefaults
import PreferencesMigration
import PrefsTools
import PropertyList
import TestSupport
import Testing

/// `plan infer --source`: one plan from the code and the users' files.
@Suite struct SourcePlanMergeTests {
  @Test func theCodeAndTheFilesMakeOnePlan() throws {
    let folder = try TemporaryFolder()
    let source = """
      void f(NSString *x) {
        NSUserDefaults *d = [NSUserDefaults standardUserDefaults];
        id blob = [d objectForKey:@"blob"];                       // no type: the files say
        NSString *theme = [d stringForKey:@"theme"] ?: @"system"; // a string the files hold few of
        NSInteger size = [d integerForKey:@"size"];               // files disagree with the code
        BOOL code = [d boolForKey:@"onlyInCode"];                 // no file has it
        [d setBool:YES forKey:[NSString stringWithFormat:@"Flag%@", x]];
        [d removeObjectForKey:@"oldBanner"];
      }
      """
    try FileManager.default.createDirectory(
      at: folder.file("src"), withIntermediateDirectories: true)
    try Data(source.utf8).write(to: folder.file("src/App.m"))
    var paths: [String] = []
    for n in 0..<6 {
      let domain: [String: PlistValue] = [
        "blob": .bool(n % 2 == 0), "theme": .string(["light", "dark"][n % 2]),
        "size": n == 0 ? .string("big") : .integer(12), "stale": .integer(1),
        "NSWindow Frame main": .string("0 0 100 100"), "FlagRed": .bool(true),
        "oldBanner": .string("x"),
      ]
      let path = folder.file("u\(n).plist").path
      try PropertyList.write(.dictionary(PlistDictionary(domain)), as: .binary)
        .write(to: URL(fileURLWithPath: path))
      paths.append(path)
    }
    let scan = SourceScan.scan([folder.file("src").path])
    let (inference, unread) = PlanInference.infer(paths, dialect: .apple, jobs: 2)
    #expect(unread.isEmpty)
    let merged = SourcePlanMerge(scan: scan, files: inference)
    let entries = Dictionary(
      merged.plan.entries.map { ($0.from, $0) }, uniquingKeysWith: { a, _ in a })
    #expect(entries["blob"]?.type == .bool)
    #expect(entries["theme"]?.type == .enum)
    #expect(Set(entries["theme"]?.values ?? []) == ["light", "dark", "system"])
    #expect(entries["theme"]?.defaultValue == .string("system"))
    #expect(entries["size"]?.type == .integer)
    #expect(entries["onlyInCode"]?.type == .bool)
    #expect(entries["FlagRed"]?.type == .bool)
    #expect(merged.plan.drop == ["stale", "oldBanner"])
    #expect(entries["NSWindow Frame main"] == nil)
    let text = merged.text()
    #expect(text.contains("stale: no code uses it any more: proposed for drop"))
    #expect(text.contains("NSWindow Frame main: written by the system frameworks"))
    #expect(text.contains("onlyInCode: the code uses it, no file holds it"))
    #expect(text.contains("FlagRed: the code builds it at run time (Flag*)"))
    // The merged plan is one the format takes.
    #expect(try MigrationPlan.load(json: Data(merged.plan.jsonText().utf8)) == merged.plan)
  }

  @Test(arguments: [
    ("FlagRedImage", "Flag*Image", true), ("FlagImage", "Flag*Image", true),
    ("FlagRed", "Flag*Image", false), ("a.b.c", "a.*.c", true), ("xa.b", "a.*", false),
  ])
  func aPatternMatchesTheKeysItStandsFor(_ key: String, _ pattern: String, _ matches: Bool) {
    #expect(SourcePlanMerge.matches(key, pattern: pattern) == matches)
  }
}
