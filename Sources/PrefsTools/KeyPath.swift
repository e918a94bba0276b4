import PropertyList

/// Why a key path could not be followed or edited.
package enum KeyPathError: Error, Sendable, Hashable {
  /// The path is empty.
  case empty
  /// No value there (or the path does not fit the value: an index into a dictionary).
  case noValue(KeyPath)
  /// The edit cannot be made there (`reason`: plutil's words).
  case cannotModify(KeyPath, reason: String)
}

/// A key path as `plutil` takes it: keys and array indices separated by dots, `\.` a dot
/// inside a key. Reads and edits a value in place.
package struct KeyPath: Sendable, Hashable, CustomStringConvertible {
  package var components: [String]

  package init(_ text: String) throws(KeyPathError) {
    var parts: [String] = []
    var current = ""
    var escaped = false
    for character in text {
      if escaped {
        current.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "." {
        parts.append(current)
        current = ""
      } else {
        current.append(character)
      }
    }
    parts.append(current)
    guard !text.isEmpty else { throw .empty }
    components = parts
  }

  package var description: String { components.joined(separator: ".") }

  /// The value at this path in `root`.
  package func value(in root: PlistValue) throws(KeyPathError) -> PlistValue {
    var value = root
    for component in components {
      switch value {
      case .dictionary(let d):
        guard let next = d[component] else { throw missing() }
        value = next
      case .array(let a):
        guard let index = Int(component), a.indices.contains(index) else { throw missing() }
        value = a[index]
      default:
        throw missing()
      }
    }
    return value
  }

  func missing() -> KeyPathError { .noValue(self) }

  /// Sets `new` at this path in `root`: replacing (`-replace`), inserting (`-insert`: a key
  /// that exists is refused; at an array index, before that element), or appending to the
  /// array at the path (`-insert … -append`).
  package func set(_ new: PlistValue, in root: inout PlistValue, inserting: Bool, appending: Bool)
    throws(KeyPathError)
  {
    try Self.set(
      new, in: &root, path: components[...], inserting: inserting, appending: appending, whole: self
    )
  }

  private static func set(
    _ new: PlistValue, in value: inout PlistValue, path: ArraySlice<String>, inserting: Bool,
    appending: Bool, whole: KeyPath
  ) throws(KeyPathError) {
    guard let first = path.first else { return }
    let last = path.count == 1
    switch value {
    case .dictionary(var d):
      if last {
        if appending {
          guard case .array(var list)? = d[first] else {
            throw whole.failed("no array to append to")
          }
          list.append(new)
          d[first] = .array(list)
        } else {
          if inserting, d[first] != nil { throw whole.failed("Value already exists at key path") }
          d[first] = new
        }
      } else {
        guard var child = d[first] else { throw whole.failed("No value at that key path") }
        try set(
          new, in: &child, path: path.dropFirst(), inserting: inserting, appending: appending,
          whole: whole)
        d[first] = child
      }
      value = .dictionary(d)
    case .array(var a):
      guard let index = Int(first), index >= 0, index <= a.count else {
        throw whole.failed("invalid array index")
      }
      if last {
        if appending {
          guard index < a.count, case .array(var list) = a[index] else {
            throw whole.failed("no array to append to")
          }
          list.append(new)
          a[index] = .array(list)
        } else if inserting {
          a.insert(new, at: index)
        } else {
          guard index < a.count else { throw whole.failed("invalid array index") }
          a[index] = new
        }
      } else {
        guard index < a.count else { throw whole.failed("invalid array index") }
        try set(
          new, in: &a[index], path: path.dropFirst(), inserting: inserting, appending: appending,
          whole: whole)
      }
      value = .array(a)
    default:
      throw whole.failed("the value at that key path is not a container")
    }
  }

  /// Removes the value at this path from `root`.
  package func remove(from root: inout PlistValue) throws(KeyPathError) {
    try Self.remove(from: &root, path: components[...], whole: self)
  }

  private static func remove(from value: inout PlistValue, path: ArraySlice<String>, whole: KeyPath)
    throws(KeyPathError)
  {
    guard let first = path.first else { return }
    switch value {
    case .dictionary(var d):
      guard var child = d[first] else { throw whole.failed("No value to remove at key path") }
      if path.count == 1 {
        d[first] = nil
      } else {
        try remove(from: &child, path: path.dropFirst(), whole: whole)
        d[first] = child
      }
      value = .dictionary(d)
    case .array(var a):
      guard let index = Int(first), a.indices.contains(index) else {
        throw whole.failed("No value to remove at key path")
      }
      if path.count == 1 {
        a.remove(at: index)
      } else {
        try remove(from: &a[index], path: path.dropFirst(), whole: whole)
      }
      value = .array(a)
    default:
      throw whole.failed("No value to remove at key path")
    }
  }

  func failed(_ reason: String) -> KeyPathError { .cannotModify(self, reason: reason) }
}
