import LegacyDefaults
import PreferencesMigration
import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Runs a plan over files: reads each legacy file, migrates it, and writes the new store
/// atomically. The legacy file is never changed unless in place, and then only after a
/// complete backup copy exists and the new content is fully written.
package struct MigrationRunner: Sendable {
  package enum Destination: Sendable, Hashable {
    /// One output file.
    case file(String)
    /// `DIR/<legacy file name>` for each legacy file.
    case folder(String)
    /// Replace the legacy file, after copying it to the backup folder (nil: beside the file).
    case inPlace(backupFolder: String?)
  }

  package let plan: MigrationPlan
  package var format: PlistFormat
  package var dryRun: Bool
  package var limits: PlistLimits
  /// Write a date with a fraction of a second to the whole second in XML (which holds whole
  /// seconds); off (the default), such a file is refused naming the key.
  package var truncatingDates: Bool
  /// Whether an output is a live domain, whose writes always take the domain's lock (the
  /// command says: an output in the preferences folder). Any other output takes the lock
  /// only when its `<file>.lock` is there, that is when a writer using prefs' lock has
  /// written it; a new output in a folder of the user's is written atomically, unlocked.
  /// Where domain names resolve and how files are written: an output in the preferences
  /// folder is a live domain, written under its lock (``DomainResolver/output(for:limits:)``);
  /// the lock is waited for the resolver's `lockTimeout` at most, then the file is
  /// ``FileStatus/busy``.
  package var resolver = DomainResolver(locator: DomainLocator(), userDefaults: nil)

  package init(
    plan: MigrationPlan, format: PlistFormat = .binary, dryRun: Bool = false,
    limits: PlistLimits = .default, truncatingDates: Bool = false
  ) {
    self.plan = plan
    self.format = format
    self.dryRun = dryRun
    self.limits = limits
    self.truncatingDates = truncatingDates
  }

  package func outputPath(for legacy: String, _ destination: Destination) -> String {
    switch destination {
    case .file(let path): path
    case .folder(let folder):
      URL(fileURLWithPath: FilePathParts(folder).path).appendingPathComponent(
        FilePathParts(legacy).name
      ).path
    case .inPlace: legacy
    }
  }

  package func run(_ legacyPath: String, to destination: Destination) -> FileOutcome {
    run(legacyPath, to: destination, durable: true)
  }

  func run(_ legacyPath: String, to destination: Destination, durable: Bool) -> FileOutcome {
    let target = outputPath(for: legacyPath, destination)
    var outcome = FileOutcome(
      path: legacyPath, output: target, status: .migrated, message: nil, keys: [], backup: nil)
    var legacyFile = resolver.writer(for: legacyPath, limits: limits)
    // Read exactly as the legacy app's reader read it: a file it could not read is refused.
    legacyFile.readOptions = plan.dialect.readOptions(exact: true)
    let step = LegacyDomainMigration(plan: plan)
    do throws(DefaultsError) {
      if case .inPlace(let backupFolder) = destination, !dryRun {
        // Read, migrate, back up and replace as one step under the domain's lock, the file read
        // once, there: an app's concurrent synchronize lands before (and is migrated) or after
        // (and merges its own keys on top of the migrated file). A lock file this made is
        // removed again unless the file is a live domain (the resolver's writer).
        let backedUp = Locked<String?>(nil)
        let result = Locked(outcome)
        do throws(DefaultsError) {
          _ = try legacyFile.update(
            DomainFile.WriteOptions(
              format: format, truncatingDates: truncatingDates, createsFolder: false,
              backup: DomainFile.Backup(folder: backupFolder) { path in
                backedUp.withLock { $0 = path }
              })
          ) { (current) throws(DefaultsError) -> DomainChanges in
            var fresh = FileOutcome(
              path: legacyPath, output: target, status: .migrated, message: nil, keys: [],
              backup: nil)
            defer { result.withLock { $0 = fresh } }
            guard let values = step.run(current, from: legacyFile.identity, into: .inPlace, &fresh)
            else { return [:] }
            return DomainChanges(replacing: current.values, with: values)
          }
        } catch {
          outcome = result.withLock { $0 }
          outcome.backup = backedUp.withLock { $0 }
          throw error
        }
        outcome = result.withLock { $0 }
        outcome.backup = backedUp.withLock { $0 }
        return outcome
      }
      // Any other run reads the legacy file once, changing nothing.
      let snapshot = try legacyFile.read()
      let into: LegacyDomainMigration.Destination =
        if case .inPlace = destination { .inPlace } else { .another(recorded: nil) }
      guard let values = step.run(snapshot, from: legacyFile.identity, into: into, &outcome) else {
        return outcome
      }
      if dryRun {
        try checkEncodes(values, path: target)
        if case .inPlace = destination { return outcome }
        let existing = try DomainFile(path: target, limits: limits).read()
        if existing.values == values, existing.format == format { outcome.status = .unchanged }
        return outcome
      }
      let output = resolver.output(for: target, limits: limits)
      // The output folder is the administrator's: written with the process's own credentials.
      try Credentials.asProcess { () throws(DefaultsError) in
        _ = try output.update(
          DomainFile.WriteOptions(
            format: format, durable: durable, truncatingDates: truncatingDates,
            createsFolder: false)
        ) { (current) throws(DefaultsError) -> DomainChanges in
          if current.values == values, current.format == format {
            outcome.status = .unchanged
            return [:]
          }
          return DomainChanges(replacing: current.values, with: values)
        }
      }
    } catch {
      outcome.status =
        switch error {
        // A file that is not there reads as absent (`missing`, above); one that is there and
        // cannot be read (a FIFO, a folder, denied, an I/O error) failed, as an output that
        // cannot be written does.
        case .notADictionary: .malformed
        // A file refused for what it is (a link, another user's): refused, with its cause.
        case .cannotEncode, .unsupportedValue, .emptyKey, .refused: .refused
        case .busy, .interrupted: .busy
        default: .failed
        }
      if case .cannotRead(let path, _) = error, path == legacyFile.path {
        outcome.inputUnreadable = true
      }
      outcome.message = error.description
    }
    return outcome
  }

  /// A dry run reports a value the output format cannot hold as a real run would.
  private func checkEncodes(_ values: PlistDictionary, path: String) throws(DefaultsError) {
    let value = PlistValue.dictionary(values)
    do {
      _ = try PropertyList.write(
        truncatingDates ? DomainFile.storable(value, in: format) : value, as: format,
        xml: DomainFile.xmlOptions)
    } catch {
      throw .cannotEncode(path: path, error: error)
    }
  }

  /// The files of a shard: those whose path hashes to `index` of `count` (a stable hash, so any
  /// job runner splitting the same list gets disjoint shards, whatever the order).
  package static func shard(_ paths: [String], index: Int, count: Int) -> [String] {
    guard count > 1 else { return paths }
    return paths.filter { path in
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      for byte in path.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
      return Int(hash % UInt64(count)) == index
    }
  }

  /// Runs every file, `jobs` at a time; `progress(done, total)` after each. Each file succeeds
  /// or fails on its own; the outcomes come back in the order of `paths`. New files in an output
  /// folder are flushed to disk once, at the end (`sync()`), rather than twice each: the batch
  /// reports them migrated only after that flush succeeded.
  ///
  /// `stopping` is asked before each file is started: once it says yes, no file is started and
  /// the outcomes of the files done (those in flight end, written or not) come back.
  package func runBatch(
    _ paths: [String], to destination: Destination, jobs: Int,
    progress: (@Sendable (Int, Int) -> Void)? = nil,
    stopping: @Sendable () -> Bool = { false }
  ) -> [FileOutcome] {
    let results = Locked([FileOutcome?](repeating: nil, count: paths.count))
    let next = Locked(0)
    // Two legacy files with the same name would write the same output: the later ones fail.
    var seen: Set<String> = []
    var collides = Set<Int>()
    if case .folder = destination {
      for (index, path) in paths.enumerated()
      where !seen.insert(outputPath(for: path, destination)).inserted {
        collides.insert(index)
      }
    }
    let colliding = collides
    let deferFlush: Bool = if case .folder = destination { !dryRun } else { false }
    let finished = Locked(0)
    let workers = max(1, min(jobs, paths.count))
    // Run as root, files are worked on as their owners, which the main thread never is
    // (Credentials.acting): the workers are all threads of their own, `--jobs 1` too.
    Threads.concurrentPerform(iterations: workers, offTheCaller: Credentials.canSwitch) { _ in
      while true {
        guard !stopping() else { return }
        let index = next.withLock { n -> Int in
          defer { n += 1 }
          return n
        }
        guard index < paths.count else { return }
        let outcome: FileOutcome
        if colliding.contains(index) {
          outcome = FileOutcome(
            path: paths[index], output: outputPath(for: paths[index], destination),
            status: .failed, message: "another legacy file of the same name goes to this output",
            keys: [], backup: nil)
        } else {
          outcome = run(paths[index], to: destination, durable: !deferFlush)
        }
        results.withLock { $0[index] = outcome }
        let done = finished.withLock { n -> Int in
          n += 1
          return n
        }
        progress?(done, paths.count)
      }
    }
    var outcomes = results.withLock { $0.compactMap { $0 } }
    if deferFlush, case .folder(let folder) = destination {
      do {
        try FileAccess.flushFileSystem(containing: folder)
      } catch {
        for index in outcomes.indices where outcomes[index].status == .migrated {
          outcomes[index].status = .failed
          outcomes[index].message = "written but not flushed to disk: \(error)"
        }
      }
    }
    return outcomes
  }
}

extension MigrationRunner {
  /// A migrated store exported back to the legacy keys `plan` maps it from (`prefs export`):
  /// the legacy values, and what could not be exported.
  package static func export(_ store: PlistDictionary, plan: MigrationPlan) -> (
    legacy: PlistDictionary, problems: [String]
  ) {
    let output = Exporter(plan: plan).export(store)
    return (output.legacy, output.problems)
  }
}
