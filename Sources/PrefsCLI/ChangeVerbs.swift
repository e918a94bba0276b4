import LegacyDefaults
import PrefsTools
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A domain's changes, printed as the `defaults` commands that make them (or, with `--json`,
/// one JSON object a line).
enum ChangePrinter {
  /// The domain as `defaults` names it in a command: a domain name as given, a file of the
  /// preferences folder by its domain name, any other path without `.plist`.
  static func defaultsName(_ word: String, editor: DomainEditor) -> String {
    guard case .file(let path) = editor.domain.place, DomainResolver.isPath(word) else {
      return word
    }
    let file = URL(fileURLWithPath: path).lastPathComponent
    if Run.resolver().isInPreferencesFolder(path), file.hasSuffix(".plist") {
      return String(file.dropLast(".plist".count))
    }
    return path.hasSuffix(".plist") ? String(path.dropLast(".plist".count)) : path
  }

  /// The changes as `defaults` command lines, or with `json` one object a line: the domain,
  /// the key, `set` or `removed`, the old and new values (typed JSON when `typed`), the
  /// command line that makes the change and the one that undoes it.
  static func print(
    _ diff: DomainDiff, domain: String, json: Bool, typed: Bool = false, console: Console
  ) throws(CommandFailure) {
    func value(_ v: PlistValue?) throws(CommandFailure) -> String {
      guard let v else { return "null" }
      return typed ? TypedJSON.text(v, compact: true) : try encode(v)
    }
    for change in diff.changes {
      let command = DefaultsCommand.line(change, domain: domain, host: Run.host)
      guard json else {
        console.line(command)
        continue
      }
      var object: [(String, String)] = [
        ("domain", PropertyList.jsonString(domain)), ("key", PropertyList.jsonString(change.key)),
      ]
      switch change {
      case .set(_, let old, let new):
        object.append(("change", "\"set\""))
        object.append(("old", try value(old)))
        object.append(("new", try value(new)))
      case .removed(_, let old):
        object.append(("change", "\"removed\""))
        object.append(("old", try value(old)))
        object.append(("new", "null"))
      }
      object.append(("command", PropertyList.jsonString(command)))
      object.append(
        (
          "revert",
          PropertyList.jsonString(
            DefaultsCommand.line(change.reverted, domain: domain, host: Run.host))
        ))
      console.line("{" + object.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
    }
  }

  /// One value as compact JSON (data as base64, dates as ISO 8601); what JSON cannot hold
  /// (NaN, infinity) is refused naming the key path.
  static func encode(_ value: PlistValue) throws(CommandFailure) -> String {
    do {
      return try PropertyList.json(value, lossless: false, compact: true)
    } catch {
      throw CommandFailure(error, path: "--json")
    }
  }

  /// A domain's dictionary now (an unreadable file, or a top level that is not a dictionary,
  /// is the documented error).
  static func values(_ editor: DomainEditor) throws(CommandFailure) -> PlistDictionary {
    let document = try attempt { () throws(ToolError) in try editor.document() }
    return try Read.domain(document, path: editor.domain.name)
  }
}

/// `prefs diff A B`: the `defaults` commands that turn A into B. Exit 0 when they are the
/// same, 1 when they differ (as `diff`).
enum Diff {
  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    guard args.positional.count == 2 else {
      throw CommandFailure(.usage, "diff takes two files or domains")
    }
    let sides = try args.positional.map {
      (word) throws(CommandFailure) -> (DomainEditor, PlistDictionary) in
      let editor = try Run.editor(word)
      do throws(CommandFailure) {
        return (editor, try ChangePrinter.values(editor))
      } catch {
        // A side that does not exist is a missing input here: 1 means "they differ".
        guard error.code == .notFound else { throw error }
        throw CommandFailure(.noInput, error.message)
      }
    }
    let diff = DomainDiff(from: sides[0].1, to: sides[1].1)
    let name = ChangePrinter.defaultsName(args.positional[0], editor: sides[0].0)
    let typed = args.has(Options.typed)
    try ChangePrinter.print(
      diff, domain: name, json: typed || args.has(Options.json), typed: typed, console: console)
    return diff.isEmpty ? .ok : .notFound
  }
}

/// `prefs watch DOMAIN|FILE… [--all] [--json]`: each change as it happens, as the `defaults`
/// command that makes it, until interrupted.
enum Watch {
  struct Watched {
    var word: String
    var name: String
    var editor: DomainEditor
    var values: PlistDictionary
    var stamp: FileStamp?
  }

  static func run(_ args: Arguments, console: Console) throws(CommandFailure) -> ExitCode {
    let all = args.has(Options.all)
    guard all != !args.positional.isEmpty else {
      throw CommandFailure(.usage, "watch takes domains or files, or --all")
    }
    let json = args.has(Options.json)
    let limit = try args[Options.count]
    var printed = 0
    let resolver = Run.resolver()
    var watched: [Watched] = []
    func add(_ word: String) throws(CommandFailure) {
      let editor = try Run.editor(word)
      let values = try ChangePrinter.values(editor)
      watched.append(
        Watched(
          word: word, name: ChangePrinter.defaultsName(word, editor: editor), editor: editor,
          values: values, stamp: FileStamp(editor.domain)))
    }
    for word in args.positional { try add(word) }
    var known: Set<String> = []
    func addNewDomains() throws(CommandFailure) {
      let names = try attempt { () throws(ToolError) in try resolver.domainNames().names }
      for name in names where known.insert(name).inserted {
        do {
          try add(name)
        } catch {
          console.message(error.message)
        }
      }
    }
    if all {
      try addNewDomains()
      console.message("watching \(watched.count) domains of the preferences folder")
    }
    // Woken by the process's file watcher when a watched file may have changed (a pipe the
    // watcher's thread writes a byte to), and once a second in any case: a storage that
    // announces nothing, a new domain under --all.
    let wake = WakePipe()
    var watches: [DomainWatcher.Watch] = []
    func watchFiles() {
      for item in watched[watches.count...] {
        guard case .file(let path) = item.editor.domain.place else { continue }
        if let watch = DomainWatcher.shared.watch(path: path, { wake.signal() }) {
          watches.append(watch)
        }
      }
    }
    watchFiles()
    defer { for watch in watches { watch.cancel() } }
    while true {
      wake.wait(milliseconds: 1000)
      if all {
        try addNewDomains()
        watchFiles()
      }
      for index in watched.indices {
        let stamp = FileStamp(watched[index].editor.domain)
        if let stamp, stamp == watched[index].stamp { continue }
        watched[index].stamp = stamp
        let now: PlistDictionary
        do {
          now = try ChangePrinter.values(watched[index].editor)
        } catch {
          // Gone, or unreadable for now: nothing to report until it reads again.
          if error.code == .notFound { now = PlistDictionary() } else { continue }
        }
        let diff = DomainDiff(from: watched[index].values, to: now)
        watched[index].values = now
        do throws(CommandFailure) {
          try ChangePrinter.print(diff, domain: watched[index].name, json: json, console: console)
        } catch {
          console.message(error.message)
        }
        printed += diff.changes.count
        if let limit, printed >= limit { return .ok }
      }
    }
  }
}

/// What says a file changed without reading it: its inode, size and modification time (an
/// atomic writer renames a new file over the old one: a new inode).
struct FileStamp: Equatable {
  var device: UInt64
  var inode: UInt64
  var size: Int64
  var seconds: Int
  var nanoseconds: Int

  /// The stamp of a file domain (nil: a domain of another storage, or no file).
  init?(_ domain: Domain) {
    guard case .file(let path) = domain.place else { return nil }
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    size = Int64(info.st_size)
    #if canImport(Darwin)
      seconds = Int(info.st_mtimespec.tv_sec)
      nanoseconds = Int(info.st_mtimespec.tv_nsec)
    #else
      seconds = Int(info.st_mtim.tv_sec)
      nanoseconds = Int(info.st_mtim.tv_nsec)
    #endif
  }
}

/// The options of `watch`.
extension Options {
  static let all = Option<Bool>.flag(
    "--all", help: "every domain of the preferences folder, and each new one")
  static let count = Option<Int>.positive(
    "--count", value: "N", help: "stop after N changes (a script waiting for a setting)")
}

/// A pipe a thread writes a byte to, to wake another waiting on it (with a time limit).
final class WakePipe: Sendable {
  private let readEnd: Int32
  private let writeEnd: Int32

  init() {
    var ends: [Int32] = [-1, -1]
    if pipe(&ends) == 0 {
      _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
      _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
    }
    readEnd = ends[0]
    writeEnd = ends[1]
  }

  deinit {
    close(readEnd)
    close(writeEnd)
  }

  /// Wakes the waiter (a full pipe already will).
  func signal() {
    var byte: UInt8 = 1
    _ = write(writeEnd, &byte, 1)
  }

  /// Waits until signalled or `milliseconds` passed, then empties the pipe.
  func wait(milliseconds: Int32) {
    var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
    _ = poll(&descriptor, 1, milliseconds)
    var buffer = [UInt8](repeating: 0, count: 64)
    while read(readEnd, &buffer, buffer.count) > 0 {}
  }
}
