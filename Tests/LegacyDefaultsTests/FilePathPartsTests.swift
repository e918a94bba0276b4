import Foundation
import LegacyDefaults
import Testing

/// A path split without `URL` is split as `URL(fileURLWithPath:)` splits it (Foundation is the
/// reference), and the preferences folder is worked out as `URL` worked it out.
@Suite struct FilePathPartsTests {
  /// The spellings a user types, and the ones `FilePathParts` leaves to `URL`.
  static let spellings = [
    "./small.bplist", "small.bplist", "a/b.plist", "a/./b.plist", "./a/./b", "././x",
    "/abs/x.plist",
    "/x", "/", "a/../b.plist", "../x.plist", "a//b.plist", "/x/y/", "x/", ".", "./", "/a/b/..",
    "/a/./b", "/a/../b", "...", "a/.../b", "..x/y", ".hidden", "./.x.plist", "dir/.tmp-1",
    "é/ü.plist", "with space/x y.plist", "%20/x%2F.plist", "/private/tmp/x", "/var/automount/x",
    "/privatex/y", "a:b/c;d.plist", "~", "~nosuchuser-42/x.plist", "a/~/b",
  ]

  @Test(arguments: spellings)
  func partsAreURLsParts(_ path: String) {
    let url = URL(fileURLWithPath: path)
    let parts = FilePathParts(path)
    #expect(parts.path == url.path)
    #expect(parts.folder == url.deletingLastPathComponent().path)
    #expect(parts.name == url.lastPathComponent)
    #expect(parts.standardized == url.standardizedFileURL.path)
  }

  /// `~/` is the home folder `HOME` names (what the command's paths use), never a lookup of
  /// the user database (which a static glibc binary must not make).
  @Test func aTildeIsHOME() throws {
    let home = try #require(ProcessInfo.processInfo.environment["HOME"])
    let parts = FilePathParts("~/x.plist")
    #expect(parts.path == (home.hasSuffix("/") ? home : home + "/") + "x.plist")
    #expect(parts.name == "x.plist")
  }

  /// A path the command is given that begins with `~user` is that user's home when the
  /// system knows the user (`getpwnam`, the reference in this dynamically linked test), and a
  /// name in the current folder when it does not — what the shell leaves of an unknown
  /// `~user`, and what Apple's `URL(fileURLWithPath:)` makes of it: never a lookup by `URL`.
  @Test func aTildeUserIsThatUsersHomeOrANameHere() throws {
    let cwd = FileManager.default.currentDirectoryPath
    let unknown = FilePathParts("~nosuchuser_v2/x.plist")
    #expect(unknown.path == cwd + "/~nosuchuser_v2/x.plist")
    #expect(unknown.folder == cwd + "/~nosuchuser_v2")
    #expect(FilePathParts("~nosuchuser_v2/../y.plist").standardized == cwd + "/y.plist")
    // A combining mark after `~` is still a leading `~` to `URL` (its bytes).
    #expect(FilePathParts("~\u{301}x/y").path == cwd + "/~\u{301}x/y")
    if let entry = getpwnam("root"), let dir = entry.pointee.pw_dir {
      let home = String(cString: dir)
      #expect(FilePathParts("~root/x.plist").path == PathTextExpectation.join(home, "x.plist"))
      #expect(FilePathParts("~root").path == URL(fileURLWithPath: home).path)
    }
  }

  /// The preferences folder's path is the one `URL` made (HOME with or without a trailing
  /// slash, XDG_CONFIG_HOME, the macOS layout), and a domain's path is in it.
  @Test(arguments: [
    (DefaultsPlatform.linux, ["HOME": "/home/ada"]), (.linux, ["HOME": "/home/ada/"]),
    (.linux, ["HOME": "/home/ada", "XDG_CONFIG_HOME": "/tmp/xdg/"]),
    (.linux, ["HOME": "/", "XDG_CONFIG_HOME": "relative"]), (.macOS, ["HOME": "/Users/ada"]),
  ])
  func theFolderIsURLs(_ platform: DefaultsPlatform, _ environment: [String: String]) throws {
    let locator = DomainLocator(platform: platform, environment: environment)
    #expect(try locator.folderPath() == locator.folder().path)
    let home = URL(fileURLWithPath: try #require(environment["HOME"]))
    let expected =
      if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
        URL(fileURLWithPath: xdg, isDirectory: true)
      } else {
        home.appendingPathComponent(
          platform == .macOS ? "Library/Preferences" : ".config", isDirectory: true)
      }
    #expect(try locator.folderPath() == expected.path)
    #expect(
      try locator.path(forDomain: "com.x") == expected.appendingPathComponent("com.x.plist").path)
  }
}
