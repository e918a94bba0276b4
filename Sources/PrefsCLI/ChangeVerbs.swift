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
    let file = DomainResolver.fileName(path)
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
  static let spec = CommandSpec(
    name: "diff", summary: "the defaults commands that turn one domain into another",
    synopsis: ["A B [--json | --typed]"],
    discussion: """
      Compares two domains or files (a domain and an export of it, two users' files, a file
      before and after) key by key, values exactly, and prints the `defaults` commands that
      turn A into B: `defaults write A key -float 2.5`, `defaults delete A key`; a container
      or data as a literal `defaults` reads back exactly, a date as -date; text holding a line
      break or another control character in $'…' quoting (bash, zsh, ksh). --json prints one
      object a line ({"domain", "key", "change": "set" or "removed", "old", "new", "command":
      the line that makes the change, "revert": the line that undoes it}); --typed with old
      and new in typed JSON (see read --typed).
      Exit 0 when they are the same, 1 when they differ, 66 when one does not exist.
      """,
    options: [Options.json.spec, Options.typed.spec], operands: [.domain, .domain],
    run: { (i, c) throws(CommandFailure) in try Diff.run(i.arguments, console: c) })

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
  static let spec = CommandSpec(
    name: "watch", summary: "print each change of domains as it happens",
    synopsis: ["DOMAIN|FILE... [--json] [--count N]", "--all [--json] [--count N]"],
    discussion: """
      Prints each change of the domains (or, with --all, of every domain of the preferences
      folder, new ones too) as it happens (woken by the file watcher), as the `defaults` command that makes it (as diff
      prints them), until interrupted, or until --count N changes were printed. --json
      prints one object a line. A domain named that does not exist is exit 1.
      """,
    options: [Options.all.spec, Options.json.spec, Options.count.spec], operands: [.domain],
    run: { (i, c) throws(CommandFailure) in try Watch.run(i.arguments, console: c) })

  /// One watched domain and what it held when last looked at.
  struct Watched {
    var name: String
    var editor: DomainEditor
    /// A file's bytes (nil: no file), kept rather than its values: a few hundred bytes a
    /// domain where the values would take several kilobytes (`--all` over 100,000 domains).
    var bytes: Data?
    /// Another storage's values.
    var values: PlistDictionary?
    var stamp: FileStamp?
    /// Told of its changes by the file watcher (else looked at once a second).
    var watched = false

    /// The domain's values now, from `bytes` or `values`; nil when the bytes do not parse.
    func parsed(_ path: String) -> PlistDictionary? {
      if let values { return values }
      guard let bytes else { return PlistDictionary() }
      guard
        case .success(let document) = Result(catching: { () throws(DomainReadError) in
          try InputFile.parse(bytes, path: path)
        }), case .dictionary(let values) = document.value
      else { return nil }
      return values
    }
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
    /// The domain now: a file's bytes, another storage's values (`new`: a domain that appeared
    /// after the start, whose first contents are its first changes).
    func state(_ editor: DomainEditor, new: Bool) throws(CommandFailure) -> (
      Data?, PlistDictionary?
    ) {
      guard case .file(let path) = editor.domain.place else {
        return (nil, new ? PlistDictionary() : try ChangePrinter.values(editor))
      }
      if new { return (nil, nil) }
      let data = try read(path)
      if let data {
        // Checked as every domain is: a file that is not a domain is the documented error.
        let document = try attempt { () throws(ToolError) in
          try InputFile.document(data, path: path)
        }
        _ = try Read.domain(document, path: path)
      }
      return (data, nil)
    }
    // Woken by the process's file watcher when a watched file may have changed (a pipe the
    // watcher's thread writes a byte to, and the file's index in `dirty`), and once a second in
    // any case: a storage that announces nothing, a new domain under --all. Only the files the
    // watcher names are read again.
    let wake = WakePipe()
    let dirty = Locked(Set<Int>())
    var watches: [FileWatch] = []
    defer { for watch in watches { watch.cancel() } }
    func add(_ word: String, new: Bool = false) throws(CommandFailure) {
      // One resolver for every domain (a resolver per domain would copy the environment
      // 100,000 times under --all).
      let editor = DomainEditor(
        try attempt { () throws(ToolError) in try resolver.domain(word) }, resolver: resolver)
      let index = watched.count
      // Watched before it is read: a write between the two is announced, never lost.
      let watch = editor.watchFile {
        dirty.withLock { _ = $0.insert(index) }
        wake.signal()
      }
      let (bytes, values) = try state(editor, new: new)
      if case .file = editor.domain.place, bytes == nil, !new {
        throw CommandFailure(resolver.missing(editor.domain))
      }
      if let watch { watches.append(watch) }
      watched.append(
        Watched(
          name: ChangePrinter.defaultsName(word, editor: editor), editor: editor, bytes: bytes,
          values: values, stamp: new ? nil : editor.stamp, watched: watch != nil))
    }
    for word in args.positional { try add(word) }
    var known: Set<String> = []
    func addNewDomains(initial: Bool) throws(CommandFailure) {
      let names = try attempt { () throws(ToolError) in try resolver.domainNames().names }
      for name in names where known.insert(name).inserted {
        do {
          try add(name, new: !initial)
        } catch {
          console.message(error.message)
        }
      }
    }
    if all {
      try addNewDomains(initial: true)
      console.message("watching \(watched.count) domains of the preferences folder")
    }
    // What the watcher names is read at once; once a second, the folder is listed for new
    // domains (--all) and what no watcher follows is looked at.
    var lastLook = ContinuousClock.now
    /// Prints what changed in the domains at `indices`; whether --count is reached.
    func report(_ indices: [Int]) throws(CommandFailure) -> Bool {
      for index in indices {
        guard let diff = try changes(&watched[index]) else { continue }
        do throws(CommandFailure) {
          try ChangePrinter.print(diff, domain: watched[index].name, json: json, console: console)
        } catch {
          console.message(error.message)
        }
        printed += diff.changes.count
        if let limit, printed >= limit { return true }
      }
      return false
    }
    while true {
      wake.wait(milliseconds: 1000)
      let named = dirty.withLock { set -> Set<Int> in
        defer { set.removeAll() }
        return set
      }
      if try report(named.sorted()) { return .ok }
      guard lastLook.duration(to: .now) >= .seconds(1) else { continue }
      lastLook = .now
      let before = watched.count
      if all { try addNewDomains(initial: false) }
      if try report(watched.indices.filter { $0 >= before || !watched[$0].watched }) {
        return .ok
      }
    }
  }

  /// What changed in `item` since it was last looked at (nil: nothing, or nothing readable yet:
  /// a file being written in place is read again when its writer closes it).
  static func changes(_ item: inout Watched) throws(CommandFailure) -> DomainDiff? {
    guard case .file(let path) = item.editor.domain.place else {
      let now: PlistDictionary
      do {
        now = try ChangePrinter.values(item.editor)
      } catch {
        if error.code == .notFound { now = PlistDictionary() } else { return nil }
      }
      defer { item.values = now }
      let diff = DomainDiff(from: item.values ?? PlistDictionary(), to: now)
      return diff.isEmpty ? nil : diff
    }
    if !item.watched {
      let stamp = item.editor.stamp
      if let stamp, stamp == item.stamp { return nil }
      item.stamp = stamp
    }
    let data: Data?
    do {
      data = try read(path)
    } catch {
      // Unreadable for now (its folder being replaced, a file mid-write): nothing to report
      // until it reads again, as the watcher will say.
      return nil
    }
    if data == item.bytes { return nil }
    let previous = item.parsed(path) ?? PlistDictionary()
    var next = item
    next.bytes = data
    // Not a domain now (written in place, caught in the middle): looked at again later.
    guard let now = next.parsed(path) else { return nil }
    item.bytes = data
    let diff = DomainDiff(from: previous, to: now)
    return diff.isEmpty ? nil : diff
  }

  /// A file's bytes, nil when there is no file.
  static func read(_ path: String) throws(CommandFailure) -> Data? {
    do {
      return try InputFile.domainBytes(atPath: path)
    } catch {
      if case .file(.missing) = error { return nil }
      throw CommandFailure(error)
    }
  }
}

/// The options of `watch`.
extension Options {
  static let all = Option<Bool>.flag(
    "--all", help: "every domain of the preferences folder, and each new one")
  static let count = Option<Int>.positive(
    "--count", value: "N", help: "stop after N changes (a script waiting for a setting)")
}
