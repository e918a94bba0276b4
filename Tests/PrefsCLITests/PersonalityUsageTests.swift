import Foundation
import PropertyList
import TestSupport
import Testing

/// What the `defaults` and `plutil` personalities advertise is what they run: every form of
/// `defaults help`, every `<domain>` and `<value>` spelling it lists, every verb, format, type
/// and option of `plutil -help` is run through the binary and accepted; a form the usage does
/// not show is refused. The forms are read from the printed usage, not from the declaration,
/// so a line the declaration prints but the dispatch refuses fails here.
@Suite struct PersonalityUsageTests {
  static let binary = External.product("prefs")

  /// A temporary preferences folder, a GNUstep configuration that names a temporary
  /// applications folder (GNUstep ignores `HOME`), and in it `Usage.app`, whose
  /// `Contents/Info.plist` names `com.example.usage-app`.
  final class Sandbox {
    let folder: TemporaryFolder
    let environment: [String: String]
    static let appIdentifier = "com.example.usage-app"

    init() throws {
      folder = try TemporaryFolder()
      let applications = folder.file("Applications")
      let contents = applications.appendingPathComponent("Usage.app/Contents")
      try FileManager.default.createDirectory(at: contents, withIntermediateDirectories: true)
      try PropertyList.write(["CFBundleIdentifier": .string(Self.appIdentifier)], as: .xml)
        .write(to: contents.appendingPathComponent("Info.plist"))
      let configuration = folder.file("GNUstep.conf")
      // Every folder GNUstep searches is the temporary one (no user configuration file read).
      let folders = ["USER_DIR", "LOCAL", "NETWORK", "SYSTEM"].map {
        "GNUSTEP_\($0)_APPS=\(applications.path)\n"
      }
      try Data(("GNUSTEP_USER_CONFIG_FILE=\n" + folders.joined()).utf8).write(to: configuration)
      try FileManager.default.createDirectory(
        at: folder.file("config"), withIntermediateDirectories: true)
      environment = [
        "XDG_CONFIG_HOME": folder.file("config").path,
        "GNUSTEP_CONFIG_FILE": configuration.path,
      ]
    }

    func run(_ arguments: [String], input: Data? = nil) throws -> ProcessResult {
      try External.run(
        PersonalityUsageTests.binary, arguments, input: input, environment: environment,
        in: folder.url)
    }

    func defaults(_ words: [String], input: Data? = nil) throws -> ProcessResult {
      try run(["defaults"] + words, input: input)
    }

    func plutil(_ words: [String]) throws -> ProcessResult { try run(["plutil"] + words) }
  }

  /// A usage line's words: `<…>` whole (`<path to plist>` is one), else split at spaces.
  static func tokens(_ text: Substring) -> [String] {
    var result: [String] = []
    var rest = text.drop { $0 == " " }
    while !rest.isEmpty {
      if rest.first == "<", let close = rest.firstIndex(of: ">") {
        result.append(String(rest[...close]))
        rest = rest[rest.index(after: close)...]
      } else {
        let end = rest.firstIndex(of: " ") ?? rest.endIndex
        result.append(String(rest[..<end]))
        rest = rest[end...]
      }
      rest = rest.drop { $0 == " " }
    }
    return result
  }

  /// The lines of `text` after the line that contains `start`, up to the one that starts
  /// with `end`.
  static func section(_ text: String, after start: String, upTo end: String) -> [Substring] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard let first = lines.firstIndex(where: { $0.contains(start) }) else { return [] }
    let rest = lines[(first + 1)...]
    let last = rest.firstIndex { $0.hasPrefix(end) } ?? rest.endIndex
    return Array(rest[..<last])
  }

  // MARK: - defaults

  static let domain = "com.example.usage"

  /// The words a `defaults` usage operand stands for here (nil: a placeholder this test
  /// does not know, which fails it: a new operand needs a sample).
  static func sample(_ operand: String, in sandbox: Sandbox) -> [String]? {
    switch operand {
    case "<domain>": [domain]
    case "<key>", "<old_key>": ["k"]
    case "<new_key>": ["k2"]
    case "<domain_rep>": ["{k = v;}"]
    case "<value>", "<word>": ["v"]
    case "<path to plist>": [sandbox.folder.file("file.plist").path]
    case "-": ["-"]
    default: nil
    }
  }

  /// Every form `defaults help` shows runs (status 0), from a domain that holds `k = v`.
  @Test func everyDefaultsFormTheUsageShowsRuns() throws {
    let sandbox = try Sandbox()
    let usage = try sandbox.defaults(["help"])
    #expect(usage.status == 0)
    let lines = Self.section(usage.output, after: "followed by one", upTo: "<domain> is")
      .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    #expect(lines.count >= 15, "\(usage.output)")
    let plist = sandbox.folder.file("file.plist")
    for line in lines {
      // The synopsis ends where the two spaces before its summary start.
      let synopsis = line.dropFirst(2).components(separatedBy: "  ")[0]
      let words = Self.tokens(Substring(synopsis))
      var arguments: [String] = []
      for word in words.dropFirst() {
        guard let sample = Self.sample(word, in: sandbox) else {
          Issue.record("no sample for \(word) in \(line)")
          continue
        }
        arguments += sample
      }
      try PropertyList.write(["k": "v"], as: .xml).write(to: plist)
      let reset = try sandbox.defaults(["write", Self.domain, "{k = v;}"])
      #expect(reset.status == 0, "\(reset.stderr)")
      let input = Data("{k = v;}".utf8)
      let result = try sandbox.defaults([words[0]] + arguments, input: input)
      #expect(result.status == 0, "\(line): \(result.stderr)")
      #expect(!result.stderr.contains("Command line interface"), "\(line)")
    }
  }

  /// A form the usage does not show is refused with the usage (64): one word more than a
  /// form of a verb that takes no `<value>`, and a verb without its operands.
  @Test func aFormTheUsageDoesNotShowIsRefused() throws {
    let sandbox = try Sandbox()
    _ = try sandbox.defaults(["write", Self.domain, "{k = v;}"])
    for words in [
      ["read", Self.domain, "k", "extra"], ["read-type", Self.domain],
      ["rename", Self.domain, "k"],
      ["delete", Self.domain, "k", "extra"], ["import", Self.domain], ["export", Self.domain],
      ["domains", "extra"], ["find"], ["write", Self.domain], ["no-such-verb"],
    ] {
      let result = try sandbox.defaults(words)
      #expect(result.status == 64, "\(words)")
      #expect(result.stderr.contains("Command line interface"), "\(words)")
    }
  }

  /// Each spelling of `<domain>` the usage lists names a domain that a write and a read
  /// reach; `-app NAME` names the application's bundle identifier, as macOS's does.
  @Test func everyDomainSpellingTheUsageShowsNamesADomain() throws {
    let sandbox = try Sandbox()
    let usage = try sandbox.defaults(["help"]).output
    let line = try #require(usage.split(separator: "\n").first { $0.hasPrefix("<domain> is (") })
    let inner = line.drop { $0 != "(" }.dropFirst().prefix { $0 != ")" }
    let spellings = inner.split(separator: "|").map { Self.tokens($0) }
    #expect(spellings.count == 3, "\(line)")
    #expect(usage.contains("or a path to a file omitting the '.plist' extension"))
    let path = sandbox.folder.file("bypath").path
    var named: [[String]] = [[path]]
    for spelling in spellings {
      switch spelling {
      case ["<domain_name>"]: named.append([Self.domain])
      case ["-app", "<application_name>"]: named.append(["-app", "Usage"])
      case ["-globalDomain"]: named.append(["-globalDomain"])
      default: Issue.record("no sample for \(spelling)")
      }
    }
    for (n, domain) in named.enumerated() {
      let write = try sandbox.defaults(["write"] + domain + ["key\(n)", "-string", "v\(n)"])
      #expect(write.status == 0, "\(domain): \(write.stderr)")
      let read = try sandbox.defaults(["read"] + domain + ["key\(n)"])
      #expect(read.status == 0 && read.output == "v\(n)\n", "\(domain): \(read.stderr)")
    }
    // The application's domain is its bundle identifier; the path's file has `.plist` added.
    let app = try sandbox.defaults(["read", Sandbox.appIdentifier, "key2"])
    #expect(app.output == "v2\n", "\(app.stderr)")
    #expect(FileManager.default.fileExists(atPath: path + ".plist"))
    let missing = try sandbox.defaults(["read", "-app", "NoSuchApplication"])
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("Couldn't find an application named \"NoSuchApplication\""))
  }

  /// The words after each `<value>` flag, and the type `read-type` then says, as macOS's
  /// defaults(1) names its types.
  static func valueSample(_ operand: String) -> (words: [[String]], type: String?)? {
    switch operand {
    case "<value_rep>": ([["x"]], "string")
    case "<string_value>": ([["s"]], "string")
    case "<hex_digits>": ([["0a"]], "data")
    case "<integer_value>": ([["1"]], "integer")
    case "<floating-point_value>": ([["0.5"]], "float")
    case "(true | false | yes | no)": ([["true"], ["false"], ["yes"], ["no"]], "boolean")
    case "<date_rep>": ([["2011-03-14 15:09:26 +0000"]], "date")
    case "<value1> <value2> ...": ([["a", "b"]], "array")
    case "<key1> <value1> <key2> <value2> ...": ([["k1", "v1", "k2", "v2"]], "dictionary")
    case "<key1> <value1> ...": ([["k1", "v1"]], "dictionary")
    default: nil
    }
  }

  /// A usage flag's spellings: `-int[eger]` is `-int` and `-integer`.
  static func spellings(_ flag: String) -> [String] {
    guard let open = flag.firstIndex(of: "["), flag.hasSuffix("]") else { return [flag] }
    let short = String(flag[..<open])
    return [short, short + flag[flag.index(after: open)..<flag.index(before: flag.endIndex)]]
  }

  /// Every `<value>` line the usage shows writes a value of its type.
  @Test func everyValueSpellingTheUsageShowsWritesItsType() throws {
    let sandbox = try Sandbox()
    let usage = try sandbox.defaults(["help"]).output
    let lines = Self.section(usage, after: "<value> is one of:", upTo: "\u{0}")
      .filter { !$0.isEmpty }
    #expect(lines.count == 11, "\(usage)")
    var n = 0
    for line in lines {
      let text = line.trimmingCharacters(in: .whitespaces)
      let flag = text.hasPrefix("-") ? String(text.prefix { $0 != " " }) : nil
      let operand = String(text.dropFirst(flag?.count ?? 0)).trimmingCharacters(in: .whitespaces)
      guard let (samples, type) = Self.valueSample(operand) else {
        Issue.record("no sample for \(operand) in \(line)")
        continue
      }
      let spellings: [String?] = flag.map { Self.spellings($0) } ?? [nil]
      for spelling in spellings {
        for words in samples {
          n += 1
          let key = "value\(n)"
          let value = (spelling.map { [$0] } ?? []) + words
          let write = try sandbox.defaults(["write", Self.domain, key] + value)
          #expect(write.status == 0, "\(value): \(write.stderr)")
          let readType = try sandbox.defaults(["read-type", Self.domain, key])
          #expect(readType.output == "Type is \(type ?? "")\n", "\(value): \(readType.stderr)")
        }
      }
    }
  }

  // MARK: - plutil

  /// A verb of `plutil -help`: its synopsis words and its lines of help.
  struct PlutilVerb {
    var words: [String]
    var help: [String]

    /// The words after "prefix" in one of its help lines, split at commas or spaces.
    func listed(after prefix: String) -> [String] {
      guard let line = help.first(where: { $0.hasPrefix(prefix) }) else { return [] }
      return line.dropFirst(prefix.count).split(whereSeparator: { $0 == "," || $0 == " " })
        .map(String.init)
    }
  }

  /// The verbs and options of `plutil -help`, by its columns (the synopsis in the first 31).
  static func plutilHelp(_ text: String) -> (verbs: [PlutilVerb], options: [PlutilVerb]) {
    var verbs: [PlutilVerb] = []
    var options: [PlutilVerb] = []
    var inOptions = false
    for line in text.split(separator: "\n") {
      if line.hasPrefix("There are some additional") {
        inOptions = true
        continue
      }
      guard line.hasPrefix(" "), line.count > 31 else { continue }
      let synopsis = line.prefix(31).trimmingCharacters(in: .whitespaces)
      let help = line.dropFirst(31).trimmingCharacters(in: .whitespaces)
      if synopsis.isEmpty {
        if inOptions {
          options[options.count - 1].help.append(help)
        } else {
          verbs[verbs.count - 1].help.append(help)
        }
      } else {
        let entry = PlutilVerb(words: tokens(Substring(synopsis)), help: [help])
        if inOptions { options.append(entry) } else { verbs.append(entry) }
      }
    }
    return (verbs, options)
  }

  /// A value of each type `-insert` lists, as the port takes it.
  static let insertSamples: [String: String] = [
    "bool": "YES", "integer": "1", "float": "0.5", "date": "2011-03-14T15:09:26Z",
    "string": "s", "data": "AAE=", "xml": "<plist version=\"1.0\"><string>x</string></plist>",
    "json": #"{"a":1}"#,
  ]

  /// Every verb `plutil -help` shows, with every format, type and `-expect` type its help
  /// lists, and every option, runs on a dictionary file (status 0; `-expect` of another
  /// type: plutil's refusal of the value, not of the type's name).
  @Test func everyPlutilFormTheHelpShowsRuns() throws {
    let sandbox = try Sandbox()
    let help = try sandbox.plutil(["-help"])
    #expect(help.status == 0)
    let (verbs, options) = Self.plutilHelp(help.output)
    #expect(verbs.count == 10 && options.count == 6, "\(help.output)")
    let file = sandbox.folder.file("p.plist")
    func fresh() throws {
      try PropertyList.write(["k": "v", "list": ["a"]], as: .xml).write(to: file)
    }
    var runs = 0
    func run(_ words: [String], expect status: Int32 = 0, saying: String? = nil) throws {
      try fresh()
      runs += 1
      let result = try sandbox.plutil(words)
      #expect(result.status == status, "\(words): \(result.stderr)")
      if let saying { #expect(result.stderr.contains(saying), "\(words): \(result.stderr)") }
    }
    for verb in verbs {
      let name = verb.words[0]
      let formats = verb.listed(after: "fmt is one of: ")
      switch verb.words.dropFirst() {
      case []:
        try run([name, file.path])
      case ["fmt"] where name == "-create":
        for format in ["xml1", "binary1"] {
          try run([name, format, sandbox.folder.file("new-\(format)").path])
        }
      case ["fmt"]:
        #expect(!formats.isEmpty, "\(name)")
        for format in formats { try run([name, format, file.path]) }
      case ["keypath", "-type", "value"]:
        // -replace's help says it is -insert's: the types are listed there.
        let insert = try #require(verbs.first { $0.words[0] == "-insert" })
        let types = insert.listed(after: "type is one of: ")
        let empty = insert.help.filter { $0.hasSuffix("does not use value") }.map {
          String($0.prefix { $0 != ":" })
        }
        #expect(types.count == 8 && empty.count == 2, "\(verb.help)")
        for type in types {
          let value = try #require(Self.insertSamples[type], "no sample for \(type)")
          let key = name == "-replace" ? "k" : "new-\(type)"
          try run([name, key, "-" + type, value, file.path])
        }
        for flag in empty { try run([name, "new", flag, file.path]) }
      case ["keypath"]:
        try run([name, "k", file.path])
      case ["keypath", "fmt"]:
        #expect(!formats.isEmpty, "\(name)")
        for format in formats { try run([name, "k", format, "-o", "-", file.path]) }
        let types = verb.listed(after: "can be one of: ")
        #expect(types.count == 8, "\(verb.help)")
        for type in types {
          try run(
            [name, "k", "raw", "-expect", type, file.path], expect: type == "string" ? 0 : 1,
            saying: type == "string" ? nil : "expected to be")
        }
      default:
        Issue.record("no sample for \(verb.words)")
      }
    }
    for option in options {
      let value: [String]
      switch option.words.dropFirst() {
      case []: value = []
      case ["path"]: value = [sandbox.folder.file("out.json").path]
      case ["extension"]: value = ["json2"]
      default:
        Issue.record("no sample for \(option.words)")
        continue
      }
      try run(["-convert", "json"] + [option.words[0]] + value + [file.path])
    }
    #expect(runs > 30)
  }
}
