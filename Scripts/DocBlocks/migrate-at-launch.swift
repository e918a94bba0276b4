// The check of the README's block "In the app: migrate at launch" (Scripts/doc-blocks.sh
// compiles this file beside that block's text and runs it with XDG_CONFIG_HOME set to an
// empty folder of its own). It calls the block's two functions, as an app would at launch,
// and checks what the semantics' tables say the apple dialect reads: "NO" is false for
// boolForKey:, " 12" is 12 for integerForKey:.
import Foundation
import Preferences
import PropertyList

let folder = URL(fileURLWithPath: CommandLine.arguments[1])
let config = folder.appendingPathComponent("config")
var failures = 0

@MainActor func check(_ what: String, _ passed: Bool) {
  print((passed ? "ok   " : "FAIL ") + what)
  if !passed { failures += 1 }
}

/// What the Objective-C app left: a string for a bool and a padded string for an integer.
let legacyXML = """
  <?xml version="1.0" encoding="UTF-8"?>
  <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
  <plist version="1.0">
  <dict>
  \t<key>PREFS_RANKING_SIZE</key>
  \t<string> 12</string>
  \t<key>PREFS_SOUND_ENABLED</key>
  \t<string>NO</string>
  </dict>
  </plist>

  """

func stored(_ url: URL) throws -> PlistValue {
  try PropertyList.read(Data(contentsOf: url)).value
}

do {
  // 1. From a legacy file elsewhere, which stays as it was.
  let old = folder.appendingPathComponent("old-release")
  try FileManager.default.createDirectory(at: old, withIntermediateDirectories: true)
  let legacyFile = old.appendingPathComponent("com.example.old.plist")
  try Data(legacyXML.utf8).write(to: legacyFile)
  let store = try openPreferences(domain: "com.example.app", legacyFile: legacyFile)
  check("from a legacy file: \"NO\" is false", store[Keys.soundEnabled] == false)
  check("from a legacy file: \" 12\" is 12", store[Keys.ranking] == 12)
  check(
    "the legacy file is left as it was", try Data(contentsOf: legacyFile) == Data(legacyXML.utf8))
  let domain = config.appendingPathComponent("com.example.app.plist")
  let values = try stored(domain)
  check(
    "the app's domain holds the typed keys and the schema version",
    values["sound.enabled"] == false && values["ranking.size"] == 12 && values["prefs.schemaVersion"] == 2)
  let bytes = try Data(contentsOf: domain)
  _ = try openPreferences(domain: "com.example.app", legacyFile: legacyFile)
  check("the next launch writes nothing", try Data(contentsOf: domain) == bytes)

  // 2. From the app's own domain, where the legacy keys live beside the typed ones.
  try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
  let own = config.appendingPathComponent("com.example.own.plist")
  try Data(legacyXML.utf8).write(to: own)
  let ownStore = try openPreferences(domain: "com.example.own")
  check(
    "in the own domain: the typed values",
    ownStore[Keys.soundEnabled] == false && ownStore[Keys.ranking] == 12)
  let ownValues = try stored(own)
  check(
    "in the own domain: the legacy keys are gone, the schema version written",
    ownValues["PREFS_SOUND_ENABLED"] == nil && ownValues["PREFS_RANKING_SIZE"] == nil
      && ownValues["prefs.schemaVersion"] == 2)
} catch {
  check("the block runs without an error (\(error))", false)
}
exit(failures == 0 ? 0 : 1)
