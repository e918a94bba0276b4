import LegacyDefaults

/// The properties of an extension of UserDefaults (`@objc dynamic var isLogging: Bool {
/// bool(forKey: K) }`) hold no user defaults of their own: `self` is whatever the code reads
/// them on (`UserDefaults.shared.isLogging`, a suite's). A third read of the Swift files that
/// name such a property notes its accesses; the property's keys then go to the domains their
/// receivers resolve to.
extension SourceScan {
  static func readPropertyAccesses(_ model: inout ScanModel, list: [SourceFile], options: Options) {
    let names = Set(model.uses.compactMap(\.use.extensionProperty))
    guard !names.isEmpty else { return }
    let members = Set(names.map { Array($0.utf8) })
    let found = readEach(
      list, options: options, reading: .propertyAccesses(names, members: members),
      \.propertyAccesses)
    model.addPropertyAccesses(found)
  }

  /// What `body` makes of each of `indices` (nil: nothing), with its index, worked out by up
  /// to `jobs` threads, each taking the next index in turn; in no set order.
  static func eachIndex<T: Sendable>(
    _ indices: [Int], jobs: Int, _ body: @Sendable (Int) -> T?
  ) -> [(Int, T)] {
    let found = Locked([(Int, T)]())
    let next = Locked(0)
    Threads.concurrentPerform(iterations: max(1, min(jobs, indices.count))) { _ in
      var local: [(Int, T)] = []
      while true {
        let n = next.withLock { n -> Int in
          defer { n += 1 }
          return n
        }
        guard n < indices.count else { break }
        if let made = body(indices[n]) { local.append((indices[n], made)) }
      }
      if !local.isEmpty { found.withLock { $0 += local } }
    }
    return found.withLock { $0 }
  }

  /// The `items` each source file of `list` gives (Objective-C and Swift: a reading skips
  /// those it does not ask for), read with `reading` by `jobs` threads, each marked with its
  /// file's index, in no set order.
  static func readEach<T: FileMarked>(
    _ list: [SourceFile], options: Options, reading: Reading,
    _ items: Swift.KeyPath<FileFacts, [T]> & Sendable
  ) -> [T] {
    eachIndex(Array(list.indices), jobs: options.jobs) { index -> [T]? in
      guard list[index].kind == .objc || list[index].kind == .swift,
        let (read, _) = readFacts(list[index], limit: options.fileLimit, reading: reading)
      else { return nil }
      return read[keyPath: items].map { item -> T in
        var item = item
        item.file = index
        return item
      }
    }.flatMap(\.1)
  }

  /// Whether `data` names one of `members` after a `.` (`x.isLogging`, `x?.isLogging`): one
  /// pass over the bytes, however many names are asked for.
  static func namesMember(_ data: [UInt8], _ members: Set<[UInt8]>) -> Bool {
    guard let longest = members.map(\.count).max() else { return false }
    func isNamePart(_ b: UInt8) -> Bool {
      b == 0x5F || (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || b >= 0x80
    }
    var i = 0
    while i < data.count {
      guard data[i] == 0x2E else {
        i += 1
        continue
      }
      var j = i + 1
      while j < data.count, isNamePart(data[j]) { j += 1 }
      if j - i - 1 <= longest, j > i + 1, members.contains(Array(data[(i + 1)..<j])) { return true }
      i = j
    }
    return false
  }
}

extension ScanModel {
  /// The uses of each accessed property in the domains its accesses resolve to: the standard
  /// domain's where every access is (or none is seen), each suite's another names; a receiver
  /// that is user defaults of no known domain (a library's object's `userDefaults`) makes
  /// the property's uses the evidence's "receiver unknown", never the standard domain's.
  mutating func addPropertyAccesses(_ accesses: [PropertyAccess]) {
    var byName: [String: [PropertyAccess]] = [:]
    for access in accesses { byName[access.name, default: []].append(access) }
    var domains: [String: [ScanDomain]] = [:]
    var unknownNames: Set<String> = []
    for (name, list) in byName {
      var found: [ScanDomain] = []
      for access in list {
        // (`Key.isLogging`, `UserDefaults.Key.isLogging`: a type's member of that name.)
        var last = ""
        switch access.receiver {
        case .type: continue
        case .name(let n): last = String(n.split(separator: ".").last ?? "")
        default: break
        }
        if last.first?.isUppercase == true { continue }
        let receiver = ownReceiver(access.receiver, owner: access.owner, file: access.file)
        switch resolve(receiver, file: access.file) {
        case .domain(let d): if !found.contains(d) { found.append(d) }
        case .unknown: unknownNames.insert(name)
        // (Another object's property of that name; `OCIdentity.shared.userDefaults`, user
        // defaults of a library's object.)
        case .none where DefaultsAPI.namesDefaults(last): unknownNames.insert(name)
        default: break
        }
      }
      domains[name] = found
    }
    // A property no access shows (read by no code, or only by code the scan does not see):
    // the one domain the accessed properties of its file's extensions are read on, else those
    // of the whole tree, if they agree on one (`UserDefaults.shared.x` for all the others).
    var fileDomains: [Int: Set<ScanDomain>] = [:]
    var treeDomains: Set<ScanDomain> = []
    for entry in uses {
      guard let name = entry.use.extensionProperty, let found = domains[name], !found.isEmpty
      else { continue }
      fileDomains[entry.use.file, default: []].formUnion(found)
      treeDomains.formUnion(found)
    }
    for entry in uses {
      guard let name = entry.use.extensionProperty, domains[name] == nil,
        !unknownNames.contains(name)
      else { continue }
      let shared = fileDomains[entry.use.file] ?? treeDomains
      guard shared.count == 1, let only = shared.first, only != .standard else { continue }
      domains[name] = [only]
    }
    var kept: [(use: SourceUse, domain: ScanDomain)] = []
    for entry in uses {
      guard let name = entry.use.extensionProperty, entry.domain == .standard,
        let found = domains[name],
        found.isEmpty ? unknownNames.contains(name) : found != [.standard]
      else {
        kept.append(entry)
        continue
      }
      for d in found { kept.append((entry.use, d)) }
      if found.isEmpty { unknown.append(entry.use) }
    }
    uses = kept
  }
}

/// What a read gathers from a file, marked with the file's index.
protocol FileMarked: Sendable {
  var file: Int { get set }
}

extension WrapperCall: FileMarked {}
extension PropertyAccess: FileMarked {}
