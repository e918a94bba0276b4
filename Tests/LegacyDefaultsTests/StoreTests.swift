import Foundation
import LegacyDefaults
import PropertyList
import Synchronization
import TestSupport
import Testing

/// The store's API and persistence, on temporary files and in memory.
@Suite struct StoreTests {
  /// A file holding two keys that differ only in Unicode normalization (which CoreFoundation
  /// and python's plistlib keep apart): the store keeps both, each read by its own bytes, and
  /// a write of a third key writes both back untouched (on 5b46563 the store refused the file).
  @Test func keysThatDifferOnlyInNormalizationAreTwoKeys() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("twins.plist")
    let xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>\u{E9}</key><integer>1</integer>\
      <key>e\u{301}</key><integer>2</integer></dict></plist>
      """
    try Data(xml.utf8).write(to: file)
    let store = try DefaultsStore(url: file, flushAtExit: false)
    #expect(store.object(forKey: "\u{E9}") == 1)
    #expect(store.object(forKey: "e\u{301}") == 2)
    #expect(store.persistentValues().count == 2)
    try store.set(3, forKey: "other")
    try store.synchronizeOrThrow()
    let values = try #require(PropertyList.read(Data(contentsOf: file)).value.dictionaryValue)
    #expect(values.count == 3)
    #expect(values["\u{E9}"] == 1 && values["e\u{301}"] == 2 && values["other"] == 3)
    // A change of one of them changes that one only.
    try store.set(9, forKey: "e\u{301}")
    try store.synchronizeOrThrow()
    let again = try #require(PropertyList.read(Data(contentsOf: file)).value.dictionaryValue)
    #expect(again["\u{E9}"] == 1 && again["e\u{301}"] == 9)
  }

  @Test func searchListOrder() throws {
    let folder = try TemporaryFolder()
    let global = folder.file("NSGlobalDomain.plist")
    try PropertyList.write(["shared": "global", "g": "only global"], as: .xml).write(to: global)
    let app = folder.file("app.plist")
    try PropertyList.write(["shared": "app", "a": "app"], as: .binary).write(to: app)
    let store = try DefaultsStore(
      url: app, arguments: ["prog", "-shared", "argument", "-flag", "-n", "(1, 2)"],
      globalDomain: global, flushAtExit: false)
    store.register(defaults: ["shared": "registered", "r": "registered", "a": "registered"])
    #expect(store.object(forKey: "shared") == "argument")
    #expect(store.object(forKey: "a") == "app")
    #expect(store.object(forKey: "g") == "only global")
    #expect(store.object(forKey: "r") == "registered")
    // `-flag` is followed by another flag, so it has no value; `(1, 2)` is a property list.
    #expect(store.object(forKey: "flag") == nil)
    #expect(store.object(forKey: "n") == ["1", "2"])
    #expect(store.dictionaryRepresentation()["shared"] == "argument")
  }

  @Test func removeObjectLetsTheRegisteredDefaultShowThrough() throws {
    let store = DefaultsStore(inMemory: ["size": 12])
    store.register(defaults: ["size": 5])
    #expect(store.integer(forKey: "size") == 12)
    store.removeObject(forKey: "size")
    #expect(store.integer(forKey: "size") == 5)
    #expect(store.persistentDomain()["size"] == nil)
  }

  @Test func argumentValuesThatAreNotPropertyListsStayStrings() {
    let store = DefaultsStore(inMemory: [:], arguments: ["-a", "{not a plist", "-b", "\"quoted\""])
    #expect(store.object(forKey: "a") == "{not a plist")
    #expect(store.object(forKey: "b") == "quoted")
  }

  @Test func setRefusesTheEmptyKeyAndNonPlistValues() {
    let store = DefaultsStore(inMemory: [:])
    #expect(throws: DefaultsError.emptyKey) { try store.set(1, forKey: "") }
    #expect(throws: DefaultsError.unsupportedValue(key: "k", type: "UID")) {
      try store.set(.array([.uid(3)]), forKey: "k")
    }
    #expect(store.object(forKey: "k") == nil)
  }

  @Test func nilRemoves() throws {
    let store = DefaultsStore(inMemory: ["k": 1])
    try store.set(nil, forKey: "k")
    #expect(store.object(forKey: "k") == nil)
  }

  @Test func urlsAreStoredWithoutLoss() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("urls.plist")
    let store = try DefaultsStore(url: file, flushAtExit: false)
    let web = try #require(URL(string: "https://example.com/a?b=c#d"))
    try store.set(web, forKey: "web")
    try store.set(URL(fileURLWithPath: "/var/tmp/file.txt"), forKey: "file")
    try store.synchronizeOrThrow()
    let reopened = try DefaultsStore(url: file, flushAtExit: false)
    #expect(reopened.url(forKey: "web") == web)
    #expect(reopened.url(forKey: "file") == URL(fileURLWithPath: "/var/tmp/file.txt"))
    #expect(reopened.object(forKey: "file") == "/var/tmp/file.txt")
  }

  @Test func synchronizeWritesAnXMLFileWithPrivateModes() throws {
    let folder = try TemporaryFolder()
    let file = folder.url.appendingPathComponent("sub/new.plist")
    let store = try DefaultsStore(url: file, flushAtExit: false)
    try store.set(true, forKey: "PREFS_SOUND_ENABLED")
    try store.set(12, forKey: "PREFS_RANKING_SIZE")
    #expect(store.synchronize())
    let document = try PropertyList.read(Data(contentsOf: file))
    #expect(document.format == .xml)
    #expect(document.value == ["PREFS_SOUND_ENABLED": true, "PREFS_RANKING_SIZE": 12])
    let fileMode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions]
    let folderMode = try FileManager.default.attributesOfItem(
      atPath: file.deletingLastPathComponent().path)[.posixPermissions]
    #expect(fileMode as? Int == 0o600)
    #expect(folderMode as? Int == 0o700)
    // No temporary files are left behind.
    let names = try FileManager.default.contentsOfDirectory(
      atPath: file.deletingLastPathComponent().path)
    #expect(names.sorted() == ["new.plist", "new.plist.lock"])
  }

  @Test(arguments: [PlistFormat.binary, .xml, .openStep])
  func aFileKeepsItsFormat(format: PlistFormat) throws {
    let folder = try TemporaryFolder()
    let file = folder.file("kept.plist")
    try PropertyList.write(["name": "Lucas"], as: format).write(to: file)
    let store = try DefaultsStore(url: file, flushAtExit: false)
    try store.set("Grijander", forKey: "name")
    try store.synchronizeOrThrow()
    #expect(try PropertyList.read(Data(contentsOf: file)).format == format)
    // A number in an OpenStep file: the file grows into GNUstep's typed text.
    try store.set(5, forKey: "n")
    try store.synchronizeOrThrow()
    let after = try PropertyList.read(Data(contentsOf: file))
    #expect(after.format == (format == .openStep ? .gnustep : format))
    #expect(after.value == ["name": "Grijander", "n": 5])
  }

  /// A control character in an XML domain's string (CoreFoundation writes it as it is and
  /// reads it back) is no reason to refuse a synchronize: the file is rewritten as
  /// CoreFoundation writes it, and the store sets one as CoreFoundation's would.
  @Test func controlCharactersInAnXMLDomainAreWrittenAsCoreFoundationWritesThem() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("controls.plist")
    let raw =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
      + "\t<key>bell</key>\n\t<string>ring\u{7}ring</string>\n</dict>\n</plist>\n"
    try Data(raw.utf8).write(to: file)
    let store = try DefaultsStore(url: file, flushAtExit: false)
    #expect(store.string(forKey: "bell") == "ring\u{7}ring")
    try store.set("a\u{1}b", forKey: "escape")
    try store.synchronizeOrThrow()
    let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
    #expect(text.contains("<string>ring\u{7}ring</string>"))
    #expect(text.contains("<string>a\u{1}b</string>"))
    #expect(
      try PropertyList.read(Data(contentsOf: file)).value
        == ["bell": "ring\u{7}ring", "escape": "a\u{1}b"])
  }

  @Test func anotherProcesssKeysSurviveASynchronize() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("shared.plist")
    let first = try DefaultsStore(url: file, flushAtExit: false)
    let second = try DefaultsStore(url: file, flushAtExit: false)
    try first.set("one", forKey: "a")
    try second.set("two", forKey: "b")
    try first.synchronizeOrThrow()
    try second.synchronizeOrThrow()
    #expect(try PropertyList.read(Data(contentsOf: file)).value == ["a": "one", "b": "two"])
    // The first store sees the second's key without a synchronize (its file announced it),
    // and at its next synchronize in any case.
    #expect(eventually { first.object(forKey: "b") == "two" })
    try first.synchronizeOrThrow()
    #expect(first.object(forKey: "b") == "two")
  }

  @Test func aRemovalIsMergedToo() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("removal.plist")
    try PropertyList.write(["a": 1, "b": 2], as: .xml).write(to: file)
    let store = try DefaultsStore(url: file, flushAtExit: false)
    store.removeObject(forKey: "a")
    try store.synchronizeOrThrow()
    #expect(try PropertyList.read(Data(contentsOf: file)).value == ["b": 2])
  }

  @Test func aCorruptFileIsMovedAsideAtTheFirstWriteNeverOverwritten() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("corrupt.plist")
    let garbage = Data("<?xml version=\"1.0\"?><plist><dict><key>a</key>".utf8)
    try garbage.write(to: file)
    let store = try DefaultsStore(url: file, flushAtExit: false)
    // Opening and reading change nothing: the file stays, reported, the domain reads empty.
    let found = try #require(store.recoveries.first)
    #expect(found.path == file.path)
    #expect(found.movedTo == nil)
    #expect(store.object(forKey: "a") == nil)
    try store.synchronizeOrThrow()
    #expect(try Data(contentsOf: file) == garbage)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["corrupt.plist"])
    // The first write moves it aside, then writes a fresh file.
    try store.set(1, forKey: "fresh")
    try store.synchronizeOrThrow()
    let moved = try #require(store.recoveries.last?.movedTo)
    #expect(moved.hasPrefix(file.path + ".corrupt-"))
    #expect(try PropertyList.read(Data(contentsOf: file)).value == ["fresh": 1])
    #expect(try Data(contentsOf: URL(fileURLWithPath: moved)) == garbage)
  }

  @Test(arguments: [PlistFormat.xml, .binary, .openStep])
  func aValidFileThatIsNotADictionaryIsRefusedAndLeftAlone(format: PlistFormat) throws {
    let folder = try TemporaryFolder()
    let file = folder.file("array.plist")
    let bytes = try PropertyList.write(["a", "b"], as: format)
    try bytes.write(to: file)
    #expect(throws: DefaultsError.notADictionary(path: file.path, type: "array")) {
      try DefaultsStore(url: file, flushAtExit: false)
    }
    #expect(try Data(contentsOf: file) == bytes)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["array.plist"])
  }

  @Test func aFileCorruptedByAnotherProcessIsMovedAsideAtSynchronize() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("later.plist")
    let store = try DefaultsStore(url: file, flushAtExit: false)
    try store.set(1, forKey: "a")
    try store.synchronizeOrThrow()
    try Data("bplist00 broken".utf8).write(to: file)
    try store.set(2, forKey: "b")
    try store.synchronizeOrThrow()
    #expect(store.recoveries.count == 1)
    #expect(try PropertyList.read(Data(contentsOf: file)).value == ["b": 2])
  }

  @Test func aFailedSynchronizeKeepsThePendingChanges() throws {
    let folder = try TemporaryFolder()
    let locked = folder.url.appendingPathComponent("locked")
    try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
    let file = locked.appendingPathComponent("d.plist")
    let store = try DefaultsStore(url: file, flushAtExit: false)
    try store.set(1, forKey: "a")
    // A folder nobody may write: root ignores modes, so make the path a file instead.
    try FileManager.default.removeItem(at: locked)
    try Data().write(to: locked)
    #expect(store.synchronize() == false)
    #expect(throws: DefaultsError.self) { try store.synchronizeOrThrow() }
    #expect(store.hasPendingChanges)
    #expect(store.object(forKey: "a") == 1)
  }

  @Test func domainNamesCannotEscapeTheirFolder() throws {
    let locator = DomainLocator(
      platform: .linux, environment: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/h"])
    #expect(try locator.url(forDomain: "com.example.app").path == "/cfg/com.example.app.plist")
    for bad in ["", "../x", "a/b", "..", ".", "a..b", "x\0y"] {
      #expect(throws: DefaultsError.self) { try locator.url(forDomain: bad) }
    }
    let fallback = DomainLocator(platform: .linux, environment: ["HOME": "/h"])
    #expect(try fallback.url(forDomain: "d").path == "/h/.config/d.plist")
    #expect(
      try DomainLocator(platform: .macOS, environment: ["HOME": "/h"]).url(forDomain: "d").path
        == "/h/Library/Preferences/d.plist")
    // GNUstep ignores HOME: its home is the password database's.
    let userHome = String(cString: getpwuid(getuid()).pointee.pw_dir)
    #expect(
      try DomainLocator(
        platform: .gnustep, environment: ["HOME": "/h", "GNUSTEP_CONFIG_FILE": "/nonexistent"]
      ).url(forDomain: "d").path == userHome + "/GNUstep/Defaults/d.plist")
  }

  @Test func observationFiresForLocalAndExternalChanges() async throws {
    let folder = try TemporaryFolder()
    let file = folder.file("observed.plist")
    let store = try DefaultsStore(url: file, flushAtExit: false)
    let seen = Mutex<[PlistValue?]>([])
    let observation = store.observe("name") { value in seen.withLock { $0.append(value) } }
    try store.set("Lucas", forKey: "name")
    try store.set("Lucas", forKey: "name")  // unchanged: no second call
    try store.synchronizeOrThrow()
    let other = try DefaultsStore(url: file, flushAtExit: false)
    try other.set("Grijander", forKey: "name")
    try other.synchronizeOrThrow()
    try store.synchronizeOrThrow()  // picks up the other process's write
    store.removeObject(forKey: "name")
    #expect(seen.withLock { $0 } == ["Lucas", "Grijander", nil])
    observation.cancel()
    try store.set("after", forKey: "name")
    #expect(seen.withLock { $0.count } == 3)
  }

  @Test(arguments: [true, false])
  func changesStream(initial: Bool) async throws {
    let store = DefaultsStore(inMemory: [:])
    let stream = store.changes("size", initial: initial)
    let expected: [PlistValue?] = initial ? [nil, 3, 5] : [3, 5]
    let reader = Task {
      var values: [PlistValue?] = []
      for await value in stream {
        values.append(value)
        if values.count == expected.count { break }
      }
      return values
    }
    try store.set(3, forKey: "size")
    store.register(defaults: ["size": 5])  // hidden behind 3: no change
    store.removeObject(forKey: "size")  // now the registered 5 shows through
    #expect(await reader.value == expected)
  }

  @Test func concurrentWritersInOneProcess() async throws {
    let store = DefaultsStore(inMemory: [:])
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for i in 0..<200 { try? store.set(i, forKey: "t\(task)-\(i % 10)") }
        }
      }
    }
    #expect(store.persistentDomain().count == 80)
    #expect(store.integer(forKey: "t3-9") == 199)
  }
}

/// The home folder of `~` comes from the environment the store was given, not the process's.
@Suite struct StoreEnvironmentTests {
  @Test func tildeUsesTheInjectedHome() throws {
    let folder = try TemporaryFolder()
    let store = try DefaultsStore(
      url: folder.file("env.plist"), flushAtExit: false, environment: ["HOME": "/home/ana"])
    try store.set(URL(fileURLWithPath: "/home/ana/notes.txt"), forKey: "file")
    #expect(store.object(forKey: "file") == "~/notes.txt")
    #expect(store.url(forKey: "file") == URL(fileURLWithPath: "/home/ana/notes.txt"))
    let locator = DomainLocator(
      platform: .linux, environment: ["XDG_CONFIG_HOME": folder.url.path, "HOME": "/home/bo"])
    let named = try DefaultsStore(domain: "d", locator: locator, flushAtExit: false)
    try named.set(.string("~/x"), forKey: "f")
    #expect(named.url(forKey: "f") == URL(fileURLWithPath: "/home/bo/x"))
  }
}
