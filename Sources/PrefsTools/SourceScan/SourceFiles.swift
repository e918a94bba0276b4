import LegacyDefaults

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

/// The files of a source tree that the scan reads, by what each is.
struct SourceFile: Sendable, Hashable {
  enum Kind: Sendable, Hashable {
    /// `.h .m .mm .c` (Objective-C and C).
    case objc
    case swift
    /// `.plist`: read when the code registers it, or when it is a `Settings.bundle` pane.
    case plist
    /// `.xib`, `.storyboard`, a `.nib` folder's `designable.nib`: bindings to the shared user
    /// defaults controller.
    case interface
  }

  var path: String
  var kind: Kind

  static func kind(of name: String) -> Kind? {
    guard let dot = name.lastIndex(of: ".") else { return nil }
    switch name[name.index(after: dot)...] {
    // (`.pch`: a prefix header, whose macros every file of its target sees.)
    case "h", "m", "mm", "c", "pch": return .objc
    case "swift": return .swift
    case "plist": return .plist
    case "xib", "storyboard": return .interface
    case "nib": return name == "designable.nib" ? .interface : nil
    default: return nil
    }
  }
}

/// A file the scan named and went past, and why.
package struct ScanWarning: Error, Sendable, Hashable, CustomStringConvertible {
  package var path: String
  package var line: Int?
  package var message: String

  package var description: String {
    "\(path)\(line.map { ":\($0)" } ?? ""): \(message)"
  }
}

enum SourceFiles {
  /// Folders never read: version control, build products, and a copy of Sparkle's source
  /// or framework kept in the tree (the updater reads and writes its own `SU…` keys; the
  /// app's code naming one is read).
  static let skippedFolders: Set<String> = [
    ".git", ".svn", ".hg", ".build", "DerivedData", "build", "xcuserdata", "Sparkle",
    "Sparkle.framework",
  ]

  /// A folder the walk goes past: version control, build products, a copy of Sparkle, and a
  /// test target's folder (`Tests`, `AppTests`, `AppUITests`: test code writes keys no run of
  /// the app does). A folder named on the command line is read whatever its name.
  static func isSkipped(_ name: String) -> Bool {
    skippedFolders.contains(name) || name.hasSuffix("Tests")
  }

  /// Every file of `paths` (files and folders, recursively; a folder in sorted order) that the
  /// scan reads. A symbolic link is followed once: a folder already visited (a link back up
  /// the tree) is not entered again, and is named in a warning.
  ///
  /// `projects` are the Xcode projects' `project.pbxproj` files met on the way (read only for
  /// the bundle identifiers of the tree's applications: ``SourceScan/applicationIdentifiers``).
  static func collect(_ paths: [String]) -> (
    files: [SourceFile], warnings: [ScanWarning], projects: [String]
  ) {
    struct Identity: Hashable {
      var device: UInt64
      var inode: UInt64
    }
    var files: [SourceFile] = []
    var warnings: [ScanWarning] = []
    var projects: [String] = []
    var visited: Set<Identity> = []
    var seenFiles: Set<Identity> = []
    /// The folders being read, outermost first: a link to one of them is a loop.
    var reading: [Identity] = []

    func identity(_ info: stat) -> Identity {
      Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    func add(_ path: String, name: String, identity: Identity, named: Bool) {
      guard let kind = SourceFile.kind(of: name) else {
        if name == "project.pbxproj", seenFiles.insert(identity).inserted {
          projects.append(path)
        } else if named {
          warnings.append(
            ScanWarning(path: path, message: "not a source file the scan reads: skipped"))
        }
        return
      }
      // One file reached by two names (a link to it) is read once.
      guard seenFiles.insert(identity).inserted else { return }
      files.append(SourceFile(path: path, kind: kind))
    }

    func visit(_ path: String, named: Bool) {
      var info = stat()
      guard stat(path, &info) == 0 else {
        let code = errno
        var link = stat()
        if lstat(path, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK {
          warnings.append(
            ScanWarning(path: path, message: "a symbolic link to nothing readable: skipped"))
        } else if named {
          warnings.append(
            ScanWarning(path: path, message: "\(FileAccess.errnoText(code)): skipped"))
        }
        return
      }
      switch info.st_mode & S_IFMT {
      case S_IFDIR:
        let me = identity(info)
        if reading.contains(me) {
          warnings.append(
            ScanWarning(
              path: path, message: "a symbolic link to a folder it is in (a loop): not followed"))
          return
        }
        // A folder reached again by another name (a framework's `Headers` link) is read once.
        guard visited.insert(me).inserted else { return }
        reading.append(me)
        defer { reading.removeLast() }
        var entries: [(name: String, type: UInt8, inode: UInt64)] = []
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        let listed =
          fd >= 0
          && SystemCalls.listFolder(fd) { bytes, type, inode in
            let name = String(decoding: bytes, as: UTF8.self)
            if !isSkipped(name) { entries.append((name, type, inode)) }
          }
        guard listed else {
          warnings.append(
            ScanWarning(
              path: path, message: "cannot list the folder: \(FileAccess.errnoText(errno))"))
          return
        }
        entries.sort { Array($0.name.utf8).lexicographicallyPrecedes($1.name.utf8) }
        let base = path.hasSuffix("/") ? path : path + "/"
        for entry in entries {
          let child = base + entry.name
          if entry.type == UInt8(DT_REG) {
            // A regular file needs no stat of its own: its name says whether it is read.
            add(
              child, name: entry.name, identity: Identity(device: me.device, inode: entry.inode),
              named: false)
          } else {
            visit(child, named: false)
          }
        }
      case S_IFREG:
        add(
          path, name: String(path.split(separator: "/").last ?? ""), identity: identity(info),
          named: named)
      default:
        // A FIFO or a device: never opened (a read could wait for ever).
        if named || SourceFile.kind(of: String(path.split(separator: "/").last ?? "")) != nil {
          warnings.append(
            ScanWarning(path: path, message: "not a regular file or a folder: skipped"))
        }
      }
    }
    for path in paths { visit(path, named: true) }
    return (files, warnings, projects)
  }
}

/// Source text as the lexer reads it: UTF-8 with LF line ends, from UTF-8 (a mark dropped),
/// UTF-16 with a byte-order mark, or MacRoman (the Mac's own encoding before Unicode: any
/// text that is not valid UTF-8); CRLF and CR line ends become LF. Nil for a binary file
/// (a NUL byte in text without a UTF-16 mark).
enum SourceText {
  static func utf8(_ data: [UInt8]) -> (bytes: [UInt8], encoding: String)? {
    var bytes = data
    var encoding = "UTF-8"
    if bytes.count >= 2,
      (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF)
    {
      let big = bytes[0] == 0xFE
      var units: [UInt16] = []
      units.reserveCapacity(bytes.count / 2)
      var i = 2
      while i + 1 < bytes.count {
        units.append(
          big
            ? UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1])
            : UInt16(bytes[i + 1]) << 8 | UInt16(bytes[i]))
        i += 2
      }
      var scalars = String.UnicodeScalarView()
      var iterator = units.makeIterator()
      var decoder = UTF16()
      decoding: while true {
        switch decoder.decode(&iterator) {
        case .scalarValue(let scalar): scalars.append(scalar)
        case .emptyInput: break decoding
        case .error: scalars.append("\u{FFFD}")
        }
      }
      bytes = Array(String(scalars).utf8)
      encoding = big ? "UTF-16 (big-endian)" : "UTF-16 (little-endian)"
    } else {
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
      let (ascii, nul, cr) = survey(bytes)
      if nul { return nil }
      if !ascii, String(validating: bytes, as: UTF8.self) == nil {
        bytes = macRoman(bytes)
        encoding = "MacRoman"
      }
      if cr { bytes = lineFeeds(bytes) }
      return (bytes, encoding)
    }
    if bytes.contains(0x0D) { bytes = lineFeeds(bytes) }
    return (bytes, encoding)
  }

  /// Whether the bytes are all ASCII, hold a NUL, hold a CR: eight bytes at a time.
  static func survey(_ bytes: [UInt8]) -> (ascii: Bool, nul: Bool, cr: Bool) {
    var high: UInt64 = 0
    var nul = false
    var cr = false
    var i = 0
    let n = bytes.count
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    @inline(__always) func hasZero(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
    while i + 8 <= n {
      let word = ByteSearch.word(bytes, at: i)
      high |= word
      if hasZero(word) { nul = true }
      if hasZero(word ^ (ones &* 0x0D)) { cr = true }
      i += 8
    }
    while i < n {
      let b = bytes[i]
      high |= UInt64(b)
      if b == 0 { nul = true }
      if b == 0x0D { cr = true }
      i += 1
    }
    return (high & highs == 0, nul, cr)
  }

  /// CRLF and lone CR as LF.
  static func lineFeeds(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = 0
    while i < bytes.count {
      let b = bytes[i]
      if b == 0x0D {
        out.append(0x0A)
        if i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 1 }
      } else {
        out.append(b)
      }
      i += 1
    }
    return out
  }

  /// MacRoman's upper half (0x80–0xFF), as Unicode scalars.
  static let macRomanHigh: [UInt32] = [
    0x00C4, 0x00C5, 0x00C7, 0x00C9, 0x00D1, 0x00D6, 0x00DC, 0x00E1, 0x00E0, 0x00E2, 0x00E4,
    0x00E3, 0x00E5, 0x00E7, 0x00E9, 0x00E8, 0x00EA, 0x00EB, 0x00ED, 0x00EC, 0x00EE, 0x00EF,
    0x00F1, 0x00F3, 0x00F2, 0x00F4, 0x00F6, 0x00F5, 0x00FA, 0x00F9, 0x00FB, 0x00FC, 0x2020,
    0x00B0, 0x00A2, 0x00A3, 0x00A7, 0x2022, 0x00B6, 0x00DF, 0x00AE, 0x00A9, 0x2122, 0x00B4,
    0x00A8, 0x2260, 0x00C6, 0x00D8, 0x221E, 0x00B1, 0x2264, 0x2265, 0x00A5, 0x00B5, 0x2202,
    0x2211, 0x220F, 0x03C0, 0x222B, 0x00AA, 0x00BA, 0x03A9, 0x00E6, 0x00F8, 0x00BF, 0x00A1,
    0x00AC, 0x221A, 0x0192, 0x2248, 0x2206, 0x00AB, 0x00BB, 0x2026, 0x00A0, 0x00C0, 0x00C3,
    0x00D5, 0x0152, 0x0153, 0x2013, 0x2014, 0x201C, 0x201D, 0x2018, 0x2019, 0x00F7, 0x25CA,
    0x00FF, 0x0178, 0x2044, 0x20AC, 0x2039, 0x203A, 0xFB01, 0xFB02, 0x2021, 0x00B7, 0x201A,
    0x201E, 0x2030, 0x00C2, 0x00CA, 0x00C1, 0x00CB, 0x00C8, 0x00CD, 0x00CE, 0x00CF, 0x00CC,
    0x00D3, 0x00D4, 0xF8FF, 0x00D2, 0x00DA, 0x00DB, 0x00D9, 0x0131, 0x02C6, 0x02DC, 0x00AF,
    0x02D8, 0x02D9, 0x02DA, 0x00B8, 0x02DD, 0x02DB, 0x02C7,
  ]

  static func macRoman(_ bytes: [UInt8]) -> [UInt8] {
    var scalars = String.UnicodeScalarView()
    for b in bytes {
      if b < 0x80 {
        scalars.append(Unicode.Scalar(b))
      } else if let scalar = Unicode.Scalar(macRomanHigh[Int(b) - 0x80]) {
        scalars.append(scalar)
      }
    }
    return Array(String(scalars).utf8)
  }
}
