import Foundation
import TestSupport
import Testing

/// The README's install recipe, as written: the macOS-syntax names are links in a folder of
/// their own, which answer only once that folder is put first in `PATH` on purpose, and then
/// as `defaults` and `plutil` do (the binary reads its name from argv[0]). Run with bash in a
/// temporary home, with this build's `prefs` where the recipe installs it.
@Suite struct InstallRecipeTests {
  /// The shell blocks of the README's "Install" section.
  static func installBlocks() throws -> [String] {
    let readme = try String(
      contentsOf: External.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let lines = readme.components(separatedBy: "\n")
    guard let start = lines.firstIndex(of: "## Install") else { return [] }
    let section = lines[(start + 1)...].prefix { !$0.hasPrefix("## ") }
    var blocks: [String] = []
    var current: [String]?
    for line in section {
      if line == "```sh" {
        current = []
      } else if line == "```", let block = current {
        blocks.append(block.joined(separator: "\n"))
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  @Test func theMacOSNamesAnswerOnlyFromTheirOwnFolder() throws {
    let blocks = try Self.installBlocks()
    try #require(blocks.count == 2, "the README's Install section: \(blocks)")
    let links = try #require(blocks.last)
    #expect(links.contains("macos-bin"))
    let home = try TemporaryFolder()
    let bin = home.file(".local/bin")
    try FileManager.default.createDirectory(
      at: home.file(".local/lib/prefs/macos-bin"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: bin.appendingPathComponent("prefs").path,
      withDestinationPath: External.product("prefs"))
    let config = home.file("config")
    try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
    // The recipe's second block as written, then what a user types next. (Its first line,
    // `command -v defaults plutil`, fails where nothing answers yet, a fresh machine without
    // GNUstep: as at a prompt, the block goes on; the links it makes are checked below.)
    let script = """
      \(links)
      set -e
      echo "defaults=$(command -v defaults)"
      echo "plutil=$(command -v plutil)"
      defaults write com.example.recipe size -int 6
      echo "read=$(defaults read com.example.recipe size)"
      plutil -extract size raw "$XDG_CONFIG_HOME/com.example.recipe.plist"
      """
    let result = try External.run(
      "/bin/bash", ["-c", script],
      environment: [
        "HOME": home.url.path, "XDG_CONFIG_HOME": config.path,
        "PATH": "/usr/local/bin:/usr/bin:/bin",
      ])
    #expect(result.status == 0, "\(result.output)\n\(result.stderr)")
    let macos = home.file(".local/lib/prefs/macos-bin").path
    #expect(result.output.contains("defaults=\(macos)/defaults\n"), "\(result.output)")
    #expect(result.output.contains("plutil=\(macos)/plutil\n"), "\(result.output)")
    #expect(result.output.contains("read=6\n"), "\(result.output)")
    #expect(result.output.hasSuffix("6\n"), "\(result.output)")
    // Nothing named as another command lands beside prefs, where it would shadow silently.
    let installed = try FileManager.default.contentsOfDirectory(atPath: bin.path)
    #expect(installed == ["prefs"])
  }
}
