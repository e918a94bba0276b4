// Fuzz target `plan`: the plan-file JSON parser and validator, then the migrator (and the
// exporter) driven by whatever plan loads: on an empty domain, on a small fixed legacy domain,
// and on domains that give every entry's `from` key values taken from a pool (fixed values
// plus the plan's own defaults and enum values, so the fuzzer steers them too).
import Foundation
import LegacyDefaults
import PreferencesMigration
import PropertyList

private let fixedLegacy: [String: PlistValue] = [
  "PREFS_SOUND_ENABLED": "YES",
  "PREFS_RANKING_SIZE": " 12abc",
  "colorMode": "Dark",
  "nombreUsuario": .integer(7),
  "currentLocation": #"{"name":"Oslo","lat":59.9,"lon":10.7,"tags":["a",null,true]}"#,
  "locationHistory": .data(Data(#"[{"name":"Bergen"},[1,2.5e3,-0]]"#.utf8)),
  "when": .date(Date(timeIntervalSinceReferenceDate: 1234.5)),
  "list": ["a", "b", .integer(3)],
  "dict": ["k": .real(.nan)],
  "big": .unsignedInteger(.max),
  "real": .real(-1e300),
  "flag": .bool(true),
  "url": "~/Library/x",
  "uid": .uid(3),
  "prefs.schemaVersion": .integer(1),
]

private let fixedPool: [PlistValue] = [
  "YES", "no", " 0x10", "1e400", "-", "", "~root/x", "https://example.com/a b",
  #"{"a":[1,{"b":null}]}"#, "[1,2", .integer(.min), .integer(-1), .unsignedInteger(1 << 63),
  .real(.infinity), .real(-0.0), .real(.nan), .bool(false), .data(Data([0, 1, 2])),
  .data(Data("bplist00".utf8)), .date(Date(timeIntervalSinceReferenceDate: -1e12)),
  ["x", "y"], [.integer(1), "z"], ["k": "v"], [:], [], .uid(0),
]

private func exercise(_ plan: MigrationPlan, _ legacy: [String: PlistValue], _ data: Data) {
  let result = Migrator(plan: plan).migrate(legacy)
  guard let output = result.output else { return }
  // The runner writes the output as a property list: it must hold it losslessly.
  checkRoundTrip(.dictionary(output), as: .binary, "plan")
  _ = Exporter(plan: plan).export(output)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let data = fuzzData(start, count)
  let plan: MigrationPlan
  do {
    plan = try MigrationPlan.load(json: data)
  } catch {
    _ = error.description
    return 0
  }
  exercise(plan, [:], data)
  exercise(plan, fixedLegacy, data)
  var pool = fixedPool
  for entry in plan.entries {
    if let value = entry.defaultValue { pool.append(value) }
    pool.append(contentsOf: entry.values.map(PlistValue.string))
  }
  for rotation in 0..<3 {
    var legacy: [String: PlistValue] = [:]
    for (index, entry) in plan.entries.enumerated() {
      legacy[entry.from] = pool[(index * 7 + rotation * 5 + pool.count - 1 - index) % pool.count]
    }
    legacy["unmapped.key"] = pool[rotation % pool.count]
    exercise(plan, legacy, data)
  }
  return 0
}
