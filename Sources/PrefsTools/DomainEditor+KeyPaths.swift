import LegacyDefaults
import PropertyList

/// What a change of a domain did, or in a dry run would do: the domain's changes key by key
/// (what it held under the lock against what it holds after), and the files moved aside.
package struct ChangeOutcome: Sendable {
  package var diff: DomainDiff
  package var recoveries: [CorruptFileRecovery]
}

/// How ``DomainEditor/add(_:at:as:dryRun:)`` adds to the container at a key path.
package enum Addition: Sendable, Hashable {
  /// Appends every element (`defaults write -array-add`).
  case append
  /// Appends each element the array does not hold yet, compared exactly (as ``DomainDiff``
  /// compares values): adding the same elements again changes nothing.
  case union
  /// Merges the entries, the new ones winning (`defaults write -dict-add`).
  case merge
}

extension DomainEditor {
  /// Changes the domain as ``update(truncatingDates:_:)`` does and says what changed; in a
  /// `dryRun` the domain is read as it is now (no lock taken, nothing written, moved or
  /// created) and the changes are those the update would make.
  package func change(
    dryRun: Bool, truncatingDates: Bool = false, existing: Bool = false,
    _ change: (DomainSnapshot) throws(ToolError) -> DomainChanges
  ) throws(ToolError) -> ChangeOutcome {
    if dryRun {
      let snapshot = try inspect()
      if existing {
        if let unreadable = snapshot.unreadable {
          throw .read(.malformed(path: domain.name, reason: unreadable.reason))
        }
        guard exists(snapshot) else { throw resolver.missing(domain) }
      }
      let changes = try change(snapshot)
      return ChangeOutcome(
        diff: DomainDiff(from: snapshot.values, to: changes.applied(to: snapshot.values)),
        recoveries: [])
    }
    var before = PlistDictionary()
    let after = try updated(truncatingDates: truncatingDates, existing: existing) {
      (current) throws(ToolError) in
      before = current.values
      return try change(current)
    }
    return ChangeOutcome(
      diff: DomainDiff(from: before, to: after.values), recoveries: after.recoveries)
  }

  /// The value at `path` (its first component a key of the domain; a binary file decodes
  /// only that key's value), with the warnings of a full read. A missing domain, key, or
  /// value on the way is ``ToolError/noSuchKey(_:domain:)``.
  package func value(at path: KeyPath) throws(ToolError) -> (
    value: PlistValue, warnings: [PlistWarning]
  ) {
    guard let first = path.components.first, !first.isEmpty else {
      throw .noSuchKey(path.text, domain: domain.name)
    }
    let (top, warnings) = try value(forKey: first)
    let rest = KeyPath(components: Array(path.components.dropFirst()))
    guard rest.components.isEmpty else {
      guard let value = rest.value(in: top) else {
        throw .noSuchKey(path.text, domain: domain.name)
      }
      return (value, warnings)
    }
    return (top, warnings)
  }

  /// Sets `value` at `path` (`write --key-path`): each dictionary missing on the way is made.
  package func set(
    _ value: PlistValue, at path: KeyPath, dryRun: Bool = false, truncatingDates: Bool = false
  ) throws(ToolError) -> ChangeOutcome {
    try Self.validate(value, at: path)
    return try change(dryRun: dryRun, truncatingDates: truncatingDates) {
      current throws(ToolError) in
      try keyPathChanges(path, in: current.values) { (root) throws(KeyPathError) in
        try path.set(value, in: &root)
      }
    }
  }

  /// Removes the value at `path`, which must be there (checked under the lock: a delete of
  /// nothing writes nothing).
  package func remove(at path: KeyPath, dryRun: Bool = false) throws(ToolError) -> ChangeOutcome {
    let missing = ToolError.noSuchKey(path.text, domain: domain.name)
    func removal(_ values: PlistDictionary) throws(ToolError) -> DomainChanges {
      guard path.value(in: .dictionary(values)) != nil else { throw missing }
      return try keyPathChanges(path, in: values) { (root) throws(KeyPathError) in
        try path.remove(from: &root)
      }
    }
    return try change(dryRun: dryRun, existing: true) { current throws(ToolError) in
      try removal(current.values)
    }
  }

  /// Removes the whole domain (``removeDomain()``), every key it held a removal.
  package func removeDomain(dryRun: Bool) throws(ToolError) -> ChangeOutcome {
    let snapshot = try inspect()
    guard exists(snapshot) else { throw resolver.missing(domain) }
    if !dryRun { try removeDomain() }
    return ChangeOutcome(
      diff: DomainDiff(from: snapshot.values, to: PlistDictionary()), recoveries: [])
  }

  /// Adds `value`'s elements or entries to the array or dictionary at `path`; a path that
  /// holds nothing takes `value` itself. Anything else there is refused, with macOS
  /// `defaults`' words.
  package func add(
    _ value: PlistValue, at path: KeyPath, as addition: Addition, dryRun: Bool = false,
    truncatingDates: Bool = false
  ) throws(ToolError) -> ChangeOutcome {
    try Self.validate(value, at: path)
    return try change(dryRun: dryRun, truncatingDates: truncatingDates) {
      current throws(ToolError) in
      let new = try added(
        value, to: path.value(in: .dictionary(current.values)), at: path, as: addition)
      return try keyPathChanges(path, in: current.values) { (root) throws(KeyPathError) in
        try path.set(new, in: &root)
      }
    }
  }

  /// What the container `old` at `path` holds once `value`'s elements or entries are added
  /// (`value` itself where `old` is nil); anything else there is refused, with macOS
  /// `defaults`' words.
  func added(_ value: PlistValue, to old: PlistValue?, at path: KeyPath, as addition: Addition)
    throws(ToolError) -> PlistValue
  {
    switch (old, value, addition) {
    case (.array(let old)?, .array(let added), .append): return .array(old + added)
    case (.array(let old)?, .array(let added), .union):
      var result = old
      for element in added where !result.contains(where: { DomainDiff.same($0, element) }) {
        result.append(element)
      }
      return .array(result)
    case (.dictionary(let old)?, .dictionary(let added), .merge):
      return .dictionary(old.merging(added) { $1 })
    case (nil, _, _): return value
    case (let old?, _, _):
      let wanted = addition == .merge ? "a dictionary" : "an array"
      // A key as it was given (`defaults write D a.b -array-add x` names `a.b`).
      let key = path.components.count == 1 ? path.components[0] : path.text
      throw .usage(
        "Value for key \(key) is not \(wanted); cannot append.  Leaving defaults "
          + "unchanged. (\(domain.name): it holds a value of type \(old.typeName))")
    }
  }

  /// A value a domain can hold (no UID, no key of it a store refuses), named by its path.
  private static func validate(_ value: PlistValue, at path: KeyPath) throws(ToolError) {
    do {
      try DefaultsStore.validate(value, forKey: path.text)
    } catch {
      throw .store(error)
    }
  }

  private func keyPathChanges(
    _ path: KeyPath, in values: PlistDictionary,
    _ edit: (inout PlistValue) throws(KeyPathError) -> Void
  ) throws(ToolError) -> DomainChanges {
    guard let first = path.components.first, !first.isEmpty else {
      throw .keyPath(.noValue(text: path.text))
    }
    do {
      return try path.changes(in: values, edit)
    } catch {
      throw .keyPath(error)
    }
  }
}
