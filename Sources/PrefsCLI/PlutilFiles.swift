import PrefsTools
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How the `plutil` personality reads its files (the one input path, ``InputFile``) and writes
/// its results (the one writer of outputs, ``OutputFile``, and a domain's one locked update,
/// ``DomainEditor``), with Foundation's words for what fails.
extension PlutilPersonality {
  // MARK: - Reading

  /// A document as plutil reads one: a property list, else JSON.
  struct Document {
    var value: PlistValue
    var format: Format
  }

  /// The bytes of a file (`-`: standard input), or the failure in Foundation's words.
  static func read(_ path: String) throws(Failure) -> Data {
    guard !path.isEmpty else { throw Failure(plutil: "Empty path specified") }
    do throws(ToolError) {
      // The one input path: a file is read in its held folder (as its owner, for root).
      return try InputFile.bytes(path)
    } catch {
      if case .read(.file(let failure)) = error {
        throw Failure(plutil: "(\(foundationWords(failure)))")
      }
      throw Failure(plutil: "(\(CommandFailure(error).message))")
    }
  }

  /// A failure to read or write a file as Foundation describes it.
  static func foundationWords(_ failure: FileFailure) -> String {
    let start = "The operation could not be completed. "
    switch failure {
    case .missing: return start + "The file doesn’t exist."
    case .denied: return start + "You don’t have permission."
    case .isFolder: return start + "(NSCocoaErrorDomain error 256.)"
    default: return start + failure.reason
    }
  }

  /// A property list as CoreFoundation reads one (its OpenStep grammar; a file it would
  /// abandon, such as a dictionary entry without its `;`, refused), or why not (CoreFoundation's
  /// words for no bytes at all).
  static func parse(_ data: Data) -> Result<PlistDocument, Failure> {
    guard !data.isEmpty else {
      return .failure(Failure(plutil: "Cannot parse a NULL or zero-length data"))
    }
    do {
      let document = try PropertyList.read(data, options: .coreFoundation)
      for warning in document.warnings {
        switch warning {
        case .missingSemicolon, .unquotedBeyondCoreFoundation:
          return .failure(Failure(plutil: "\(warning)"))
        default: continue
        }
      }
      return .success(document)
    } catch {
      return .failure(Failure(plutil: "\(error)"))
    }
  }

  static func load(_ path: String) throws(Failure) -> Document {
    try document(try read(path))
  }

  /// The bytes of a file as plutil reads them: a property list, else JSON.
  static func document(_ data: Data) throws(Failure) -> Document {
    let plistError: String
    switch parse(data) {
    case .success(let document):
      return Document(value: document.value, format: Format(document.format))
    case .failure(let reason):
      plistError = reason.message
    }
    do {
      return Document(value: try FoundationJSON.read(data), format: .json)
    } catch {
      let json = data.isEmpty ? "The given data was not valid JSON." : error.description
      throw Failure(plutil: "Property List error: \(plistError) / JSON error: \(json)")
    }
  }

  // MARK: - Writing

  /// Writes `value` as `format` where plutil writes it: standard output for `-o -` (and for
  /// `raw` and `type` without `-o`), else the file (`FILE` itself unless `-o`, `-e`, or a
  /// source format names another). `keyPath`: the path extracted, for messages.
  static func write(
    _ value: PlistValue, as format: Format, from path: String, options: Options,
    keyPath: String? = nil, header: Bool = false, console: Console
  ) throws(Failure) {
    guard !holdsUID(value) else {
      throw Failure(plutil: "Dictionaries are required to have string keys in property lists")
    }
    let target = targetPath(path, format: format, options: options)
    let data: Data
    switch format {
    case .plist(let plist) where plist == .xml || plist == .binary:
      data = try encode(value, as: plist)
    case .plist:
      throw Failure(plutil: "Conversion to OpenStep format is not supported")
    case .swift:
      data = Data(LiteralSource.swift(value, source: path).utf8)
    case .objc:
      guard LiteralSource.objcCanHold(value) else {
        throw Failure(
          plutil:
            "Input contains an object that cannot be represented in Obj-C literal syntax")
      }
      data = Data(LiteralSource.objc(value, source: path, output: target).utf8)
    case .json:
      guard FoundationJSON.canHold(value) else {
        throw Failure(plutil: "Invalid object in plist for JSON format")
      }
      data = Data(FoundationJSON.write(value, pretty: options.readable).utf8)
    case .raw:
      data = Data(raw(value).utf8)
    case .type:
      data = Data(LiteralSource.typeName(value).utf8)
    }
    if options.output == "-" || (options.output == nil && (format == .raw || format == .type)) {
      console.out(data)
      if options.newline, format == .raw || format == .type { console.out("\n") }
      return
    }
    try put(data, to: target, value: value, format: format.plistFormat, console: console)
    if format == .objc, header {
      let headerPath = LiteralSource.replacingExtension(of: target, with: "h")
      let text = LiteralSource.objcHeader(value, source: path, output: target)
      try put(Data(text.utf8), to: headerPath, value: value, format: nil, console: console)
    }
  }

  /// `-convert xml1` of a binary file straight from its object table, no value built, when
  /// the stream can write exactly what ``write(_:as:from:options:keyPath:header:console:)``
  /// writes (not a UID, not into a domain, which its store writes): whether it did. Anything
  /// else, an error or a warning included, is the full path's.
  static func streamed(_ data: Data, from path: String, options: Options, console: Console)
    throws(Failure) -> Bool
  {
    guard
      let output = PropertyList.streamed(
        data, as: .xml, xml: .coreFoundation, undecidedUIDs: true, options: .coreFoundation)
    else { return false }
    if options.output == "-" {
      console.out(output)
      return true
    }
    let target = targetPath(path, format: .plist(.xml), options: options)
    let resolver = Run.resolver()
    guard !resolver.isInPreferencesFolder(target) else { return false }
    do {
      try OutputFile.write(output, to: target, resolver: resolver)
    } catch {
      throw Failure(plutil: writeFailure(error, path: target))
    }
    return true
  }

  /// Where a result for `path` is written: `-o`, else `path` with `-e`'s extension, then a
  /// source format's (`.m`, `.swift`).
  static func targetPath(_ path: String, format: Format, options: Options) -> String {
    if let output = options.output { return output }
    var result = path
    if let ext = options.ext { result = LiteralSource.replacingExtension(of: result, with: ext) }
    switch format {
    case .objc: result = LiteralSource.replacingExtension(of: result, with: "m")
    case .swift: result = LiteralSource.replacingExtension(of: result, with: "swift")
    default: break
    }
    return result
  }

  /// A property list in XML or binary, as plutil writes it: XML as CoreFoundation writes it
  /// (dates to the whole second, control characters and a `CF$UID` dictionary as they are).
  static func encode(_ value: PlistValue, as format: PlistFormat) throws(Failure) -> Data {
    do {
      return try PropertyList.write(value, as: format, xml: .coreFoundation)
    } catch {
      throw Failure(plutil: "Invalid object in plist for property list format (\(error))")
    }
  }

  /// Whether a value holds a UID (or JSON's null): plutil writes neither.
  static func holdsUID(_ value: PlistValue) -> Bool {
    switch value {
    case .uid: true
    case .array(let a): a.contains(where: holdsUID)
    case .dictionary(let d): d.values.contains(where: holdsUID)
    default: false
    }
  }

  /// Writes `data` to `path`: a dictionary in a property-list format, where a store keeps a
  /// domain, through the domain's one way in; anything else atomically, leaving no lock file.
  static func put(
    _ data: Data, to path: String, value: PlistValue, format: PlistFormat?, console: Console
  ) throws(Failure) {
    let resolver = Run.resolver()
    do {
      let recoveries = try OutputFile.write(
        data, to: path, value: value, format: format, resolver: resolver)
      BareConsole(console).report(recoveries)
    } catch {
      throw Failure(plutil: writeFailure(error, path: path))
    }
  }

  /// A failure to write as Foundation words it: the folder missing, a folder in the way.
  static func writeFailure(_ error: ToolError, path: String) -> String {
    let start = "(The operation could not be completed. "
    switch OutputFile.obstacle(to: path) {
    case .missingFolder: return start + "The file doesn’t exist.)"
    case .folder: return start + "(NSCocoaErrorDomain error 512.))"
    case nil: break
    }
    if case .output(.denied) = error { return start + "You don’t have permission.)" }
    return "(\(CommandFailure(error).message))"
  }

  // MARK: - Editing

  /// An edit (`-insert`, `-replace`, `-remove`) of each file, written in the file's format: in
  /// place, a dictionary in XML or binary goes through the domain's one way in (the change
  /// applied to the file as it is under the lock); anything else is read, changed and written.
  static func edit(
    _ options: Options, console: Console,
    _ change: (inout PlistValue) throws(KeyPathError) -> Void
  ) -> Bool {
    each(options.paths, console: console) { (path) throws(Failure) in
      let document = try load(path)
      let inPlace = options.output == nil && options.ext == nil && path != "-"
      if inPlace, document.format == .plist(.xml) || document.format == .plist(.binary),
        case .dictionary = document.value, !holdsUID(document.value)
      {
        try update(path, console: console, change)
        return
      }
      var value = document.value
      do throws(KeyPathError) {
        try change(&value)
      } catch {
        throw Failure(plutil: error.description)
      }
      try write(value, as: document.format, from: path, options: options, console: console)
    }
  }

  /// One locked update of the domain file at `path`.
  static func update(
    _ path: String, console: Console,
    _ change: (inout PlistValue) throws(KeyPathError) -> Void
  ) throws(Failure) {
    let resolver = Run.resolver()
    let editor = DomainEditor(resolver.file(path), resolver: resolver)
    do throws(ToolError) {
      let recoveries = try editor.update(truncatingDates: true) {
        (current) throws(ToolError) -> DomainChanges in
        var value = PlistValue.dictionary(current.values)
        do throws(KeyPathError) {
          try change(&value)
        } catch {
          throw .keyPath(error)
        }
        guard case .dictionary(let values) = value else { return [:] }
        return DomainChanges(replacing: current.values, with: values)
      }
      BareConsole(console).report(recoveries)
    } catch {
      if case .keyPath(let keyPathError) = error { throw Failure(plutil: keyPathError.description) }
      throw Failure(plutil: CommandFailure(error).message)
    }
  }
}

extension PlutilPersonality.Format {
  /// The property-list format written (nil: a source, JSON or text).
  var plistFormat: PlistFormat? {
    if case .plist(let format) = self { return format }
    return nil
  }
}
