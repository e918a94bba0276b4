#!/usr/bin/env bash
# The done-when check of issue 24, from a package of its own (as a user of the library builds
# it), run once by hand: it builds a tiny package that depends on this one by path, in a
# temporary folder, and runs it. The program
#   1. opens a store over a domain file in a temporary folder and waits on `changes(for:)`
#      while another process (this package's `prefs write`) writes the file: it must see the
#      new value within 5 s, without calling synchronize();
#   2. defines an `@Observable` model with an `@ObservationIgnored @Setting` property and checks
#      that `withObservationTracking` fires, and the model reads the new value, for a write
#      through the model, a write through a second store of the domain, and a write by another
#      process (`prefs write`);
#   3. defines a storage of its own (`TableStorage`: a domain in a table of this program's, not
#      a file), conforming to `DefaultsStorage` and `OrderedReloading` as the built-in storages
#      do, and checks that a store names it as it names itself, that a second store over it
#      follows a write without a synchronize, and that a migration from it reports an absent
#      table as `missing` ("no such table") and migrates one that holds the keys.
# Exit status 0 when every check passed. Usage: Scripts/outside-package.sh [KEEP_DIR]
# (PREFS=/path/to/prefs: use that prefs instead of building this package's; the suite's
# OutsidePackageTests runs it so, once, tagged .slow.)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${1:-$(mktemp -d)}"
[ -n "${1:-}" ] || trap 'rm -rf "$work"' EXIT

if [ -n "${PREFS:-}" ]; then
  prefs="$PREFS"
else
  echo "== building this package's prefs (the other process)"
  (cd "$root" && swift build --product prefs)
  prefs="$(cd "$root" && swift build --product prefs --show-bin-path)/prefs"
fi
# A dependency by path is named by its folder.
identity="$(basename "$root" | tr "[:upper:]" "[:lower:]")"

mkdir -p "$work/Outside/Sources/Outside"
cat > "$work/Outside/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Outside",
  platforms: [.macOS(.v15)],
  dependencies: [.package(path: "$root")],
  targets: [
    .executableTarget(
      name: "Outside",
      dependencies: [
        .product(name: "Preferences", package: "$identity"),
        .product(name: "PreferencesMigration", package: "$identity"),
        .product(name: "LegacyDefaults", package: "$identity"),
        .product(name: "PropertyList", package: "$identity"),
      ])
  ],
  swiftLanguageModes: [.v6]
)
SWIFT

cat > "$work/Outside/Sources/Outside/main.swift" <<'SWIFT'
import Foundation
import LegacyDefaults
import Observation
import Preferences
import PreferencesMigration
import PropertyList

extension Keys {
  static let name = Key<String>("outside.name", default: "none")
}

@Observable
final class OutsideSettings: PreferencesModel {
  @ObservationIgnored @Setting(Keys.name) var name
  let preferences: PreferencesStore
  init(store: PreferencesStore) { preferences = store }
}

let prefs = CommandLine.arguments[1]
let folder = URL(fileURLWithPath: CommandLine.arguments[2])
let file = folder.appendingPathComponent("com.example.outside.plist")
var failures = 0

@MainActor func check(_ what: String, _ passed: Bool) {
  print((passed ? "ok   " : "FAIL ") + what)
  if !passed { failures += 1 }
}

@MainActor func prefsWrite(_ value: String) throws {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: prefs)
  process.arguments = ["write", file.path, Keys.name.name, "-string", value]
  try process.run()
  process.waitUntilExit()
  guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
}

/// Waits up to 5 s for `condition`.
func within5s(_ condition: () -> Bool) -> Bool {
  let deadline = Date().addingTimeInterval(5)
  while !condition() {
    if Date() > deadline { return false }
    usleep(1000)
  }
  return true
}

final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var value: String?
  func set(_ v: String) { lock.lock(); value = v; lock.unlock() }
  func get() -> String? { lock.lock(); defer { lock.unlock() }; return value }
}

// 1. changes(for:) sees another process's write, without synchronize().
let store = try PreferencesStore(url: file)
let seen = Flag()
let started = Flag()
let consumer = Task {
  started.set("yes")
  for await value in store.changes(for: Keys.name, initial: false) { seen.set(value) }
}
_ = within5s { started.get() != nil }
let start = Date()
try prefsWrite("from another process")
let arrived = within5s { seen.get() == "from another process" }
check(
  "changes(for:) saw another process's prefs write without synchronize()"
    + (arrived ? String(format: " (%.1f ms after starting it)", -start.timeIntervalSinceNow * 1000) : ""),
  arrived)
check("a plain read has it too", store[Keys.name] == "from another process")
consumer.cancel()

// 2. A @Setting model under withObservationTracking.
let model = OutsideSettings(store: store)
let second = try PreferencesStore(url: file)
for (how, write) in [
  ("a write through the model", { (v: String) throws in model.name = v }),
  ("a write through a second store", { (v: String) throws in second[Keys.name] = v }),
  ("a write by another process", { (v: String) throws in try prefsWrite(v) }),
] {
  let fired = Flag()
  withObservationTracking { _ = model.name } onChange: { fired.set("fired") }
  let value = "value from " + how
  try write(value)
  check("withObservationTracking fired for \(how)", within5s { fired.get() != nil })
  check("the model reads the value of \(how)", within5s { model.name == value })
}

// 3. A storage of this program's own, followed and migrated from as the built-in ones are.
final class TableStorage: DefaultsStorage, OrderedReloading, @unchecked Sendable {
  let table: String
  private let lock = NSRecursiveLock()
  private var rows: PlistDictionary?  // nil: no such table
  private var writes: UInt64 = 0
  private var listeners: [@Sendable () -> Void] = []

  init(table: String, rows: PlistDictionary?) {
    self.table = table
    self.rows = rows
  }

  var identity: StorageIdentity {
    StorageIdentity(
      id: "table:\(table)", description: "table \(table)", domainName: table, noun: "table")
  }

  private func snapshot() -> DomainSnapshot {
    DomainSnapshot(values: rows ?? PlistDictionary(), version: rows == nil ? .absent : .count(writes))
  }

  func load() throws(DefaultsError) -> DomainSnapshot {
    lock.lock(); defer { lock.unlock() }
    return snapshot()
  }

  func reload(_ decide: () -> ReloadDecision) throws(DefaultsError) -> DomainSnapshot? {
    lock.lock(); defer { lock.unlock() }
    guard case .read(let known) = decide(), known != snapshot().version else { return nil }
    return snapshot()
  }

  func update(_ change: (DomainSnapshot) throws(DefaultsError) -> DomainChanges)
    throws(DefaultsError) -> DomainSnapshot
  {
    lock.lock()
    let before = rows ?? PlistDictionary()
    let after: PlistDictionary
    do {
      after = try change(snapshot()).applied(to: before)
    } catch {
      lock.unlock()
      throw error
    }
    let changed = after != before || rows == nil && !after.isEmpty
    if changed {
      rows = after
      writes += 1
    }
    let result = snapshot()
    let told = listeners
    lock.unlock()
    if changed { for listener in told { listener() } }
    return result
  }

  func removeDomain() throws(DefaultsError) {
    _ = try update { snapshot in DomainChanges(replacing: snapshot.values, with: PlistDictionary()) }
  }

  func observeChanges(_ handler: @escaping @Sendable () -> Void) -> (any Sendable)? {
    lock.lock(); defer { lock.unlock() }
    listeners.append(handler)
    return "listening"
  }
}

extension Keys {
  static let sound = Key<Bool>("sound.enabled", default: true)
}

let table = TableStorage(table: "settings", rows: ["outside.name": "from the table"])
let tableStore = try DefaultsStore(storage: table)
check("a store names the storage as it names itself", "\(tableStore.identity)" == "table settings")
check("its domain is the table's", tableStore.domainName == "settings")
let follower = try PreferencesStore(storage: table)
let reader = try PreferencesStore(storage: table)
check("a typed store reads the table", reader[Keys.name] == "from the table")
follower[Keys.name] = "written by the follower"
check(
  "a second store over the table follows a write without synchronize()",
  within5s { reader[Keys.name] == "written by the follower" })

let plan = MigrationPlan(
  dialect: .apple, schemaVersion: 1, entries: [.map("SOUND", to: Keys.sound)])
let absent = TableStorage(table: "legacy", rows: nil)
let target = try DefaultsStore(storage: TableStorage(table: "app", rows: PlistDictionary()))
let missing = try target.migrate(plan, from: absent)
check(
  "an absent table is missing, as the table says",
  missing.files.first?.status == .missing
    && missing.files.first?.message == "table legacy: no such table")
let legacy = TableStorage(table: "legacy", rows: ["SOUND": "NO"])
let migrated = try target.migrate(plan, from: legacy)
check(
  "a table that holds the keys migrates",
  migrated.files.first?.status == .migrated && target.bool(forKey: "sound.enabled") == false)
check(
  "the report counts tables",
  migrated.text().contains("1 table: 1 migrated"))
exit(failures == 0 ? 0 : 1)
SWIFT

echo "== building the outside package (it builds prefs' library targets from source)"
(cd "$work/Outside" && swift build)
echo "== running it"
data="$work/data"
mkdir -p "$data"
(cd "$work/Outside" && "$(swift build --show-bin-path)/Outside" "$prefs" "$data")
