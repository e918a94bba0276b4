import LegacyDefaults
import PropertyList

/// Why a key path could not be followed or edited; `description` is `plutil`'s sentence.
package enum KeyPathError: Error, Sendable, Hashable, CustomStringConvertible {
  /// No value there, or the path does not fit the value (`text`: the path as given).
  case noValue(text: String)
  /// A dictionary on the way has no such key.
  case notFound(KeyPath)
  /// An array on the way is indexed by something that is not an integer.
  case notAnIndex(KeyPath)
  /// An array on the way has no such index.
  case outOfBounds(Int, KeyPath)
  /// `-insert` where a value is (replace it, or append to it with `-append`).
  case exists(KeyPath)
  /// `-append` to a dictionary's value that is not an array.
  case appendToNonArray(KeyPath)
  /// `-append` at an array's index that does not hold an array.
  case appendToNonArrayAtIndex(KeyPath)
  /// A value on the way is not a container.
  case notAContainer(KeyPath)
  /// Nothing to remove there.
  case nothingToRemove(KeyPath)

  package var description: String {
    switch self {
    case .noValue(let text):
      "Could not extract value, error: No value at that key path or invalid key path: \(text)"
    case .notFound(let path): "Key path not found \(path)"
    case .notAnIndex(let path): "Unable to index into array with key path \(path)"
    case .outOfBounds(let index, let path):
      "Index \(index) out of bounds in array at key path \(path)"
    case .exists(let path): "Value already exists at key path \(path)"
    case .appendToNonArray(let path): "Appending to a non-array at key path \(path)"
    case .appendToNonArrayAtIndex(let path):
      "Attempt to append value to non-array at key path \(path)"
    case .notAContainer(let path): "Unable to insert value at key path \(path)"
    case .nothingToRemove(let path): "No value to remove at key path \(path)"
    }
  }
}

/// A key path as `plutil` takes it: keys and array indices separated by dots, `\.` a dot
/// inside a key (any other backslash is itself). Reads and edits a value in place, as plutil
/// does, but for one deliberate difference: `replacing` at an array's index replaces the
/// element (plutil inserts before it).
package struct KeyPath: Sendable, Hashable, CustomStringConvertible {
  /// The keys and indices, unescaped (`""`: one empty component).
  package var components: [String]
  /// The path as it was given.
  package var text: String

  package init(_ text: String) {
    self.text = text
    var parts: [String] = []
    var current = ""
    var scalars = text.unicodeScalars[...]
    while let scalar = scalars.popFirst() {
      if scalar == "\\", scalars.first == "." {
        current.unicodeScalars.append(".")
        scalars.removeFirst()
      } else if scalar == "." {
        parts.append(current)
        current = ""
      } else {
        current.unicodeScalars.append(scalar)
      }
    }
    parts.append(current)
    components = parts
  }

  /// The path of `components` (keys and indices as they are).
  package init(components: [String]) {
    self.components = components
    self.text = Self.joined(components)
  }

  /// The components joined again, each dot inside a key escaped: how plutil names the path.
  package var description: String { Self.joined(components) }

  /// `components` with each dot escaped, joined by dots. A loop, not `joined(separator:)`:
  /// that one has the runtime look up `[String]`'s `Collection` conformance (a scan of every
  /// conformance in the program, about 0.2 M instructions) in a one-key `prefs read`.
  private static func joined(_ components: [String]) -> String {
    // One key without a dot (`prefs read FILE KEY`) is its own text.
    if components.count == 1, let only = components.first, !only.utf8.contains(0x2E) {
      return only
    }
    var text = ""
    for (i, component) in components.enumerated() {
      if i > 0 { text += "." }
      text += component.replacingScalars(".", with: "\\.")
    }
    return text
  }

  /// The value at this path in `root` (nil: none, an empty component, or an index that is
  /// not one of the array's).
  package func value(in root: PlistValue) -> PlistValue? {
    var value = root
    for component in components {
      guard !component.isEmpty else { return nil }
      switch value {
      case .dictionary(let d):
        guard let next = d[component] else { return nil }
        value = next
      case .array(let a):
        guard let index = Int(component), a.indices.contains(index) else { return nil }
        value = a[index]
      default:
        return nil
      }
    }
    return value
  }

  /// Puts `new` at this path in `root`: at a dictionary's key (`-insert` refuses a key that
  /// has a value unless `appending` to the array there; `replacing` sets it), or at an
  /// array's index (before the element there, or at the end when the index is the count;
  /// `replacing` replaces the element; `appending` appends to the array at that index).
  package func insert(
    _ new: PlistValue, in root: inout PlistValue, replacing: Bool, appending: Bool
  ) throws(KeyPathError) {
    try insert(
      new, in: &root, at: components[...], replacing: replacing, appending: appending,
      making: false)
  }

  /// `making`: a dictionary missing on the way is made (`set`), rather than not found.
  private func insert(
    _ new: PlistValue, in value: inout PlistValue, at path: ArraySlice<String>, replacing: Bool,
    appending: Bool, making: Bool
  ) throws(KeyPathError) {
    guard let key = path.first else { throw .notFound(self) }
    let last = path.count == 1
    switch value {
    case .dictionary(var d):
      if !last {
        guard var child = d[key] ?? (making ? .dictionary(PlistDictionary()) : nil) else {
          throw .notFound(self)
        }
        try insert(
          new, in: &child, at: path.dropFirst(), replacing: replacing, appending: appending,
          making: making)
        d[key] = child
      } else if replacing || d[key] == nil {
        d[key] = new
      } else if appending {
        guard case .array(var list)? = d[key] else { throw .appendToNonArray(self) }
        list.append(new)
        d[key] = .array(list)
      } else {
        throw .exists(self)
      }
      value = .dictionary(d)
    case .array(var a):
      guard let index = Int(key) else { throw .notAnIndex(self) }
      if !last {
        guard a.indices.contains(index) else { throw .outOfBounds(index, self) }
        try insert(
          new, in: &a[index], at: path.dropFirst(), replacing: replacing, appending: appending,
          making: making)
      } else if appending {
        guard a.indices.contains(index) else { throw .outOfBounds(index, self) }
        guard case .array(var list) = a[index] else { throw .appendToNonArrayAtIndex(self) }
        list.append(new)
        a[index] = .array(list)
      } else if a.indices.contains(index) {
        if replacing { a[index] = new } else { a.insert(new, at: index) }
      } else if index == a.count {
        a.append(new)
      } else {
        throw .outOfBounds(index, self)
      }
      value = .array(a)
    default:
      throw .notAContainer(self)
    }
  }

  /// Removes the value at this path from `root`.
  package func remove(from root: inout PlistValue) throws(KeyPathError) {
    try remove(from: &root, at: components[...])
  }

  private func remove(from value: inout PlistValue, at path: ArraySlice<String>)
    throws(KeyPathError)
  {
    guard let key = path.first else { return }
    guard !key.isEmpty else { throw .nothingToRemove(self) }
    switch value {
    case .dictionary(var d):
      guard var child = d[key] else { throw .nothingToRemove(self) }
      if path.count == 1 {
        d[key] = nil
      } else {
        try remove(from: &child, at: path.dropFirst())
        d[key] = child
      }
      value = .dictionary(d)
    case .array(var a):
      guard let index = Int(key), a.indices.contains(index) else {
        throw .nothingToRemove(self)
      }
      if path.count == 1 {
        a.remove(at: index)
      } else {
        try remove(from: &a[index], at: path.dropFirst())
      }
      value = .array(a)
    default:
      throw .nothingToRemove(self)
    }
  }
}

extension KeyPath {
  /// Sets `new` at this path in `root`, as `prefs write --key-path` does: a dictionary's key
  /// is set, each dictionary missing on the way made; an array's index is replaced, or
  /// appended to at the array's count.
  package func set(_ new: PlistValue, in root: inout PlistValue) throws(KeyPathError) {
    guard !components.isEmpty, !components.contains(where: \.isEmpty) else {
      throw .noValue(text: text)
    }
    try insert(
      new, in: &root, at: components[...], replacing: true, appending: false, making: true)
  }

  /// The change `edit` makes to a domain's `values` at this path: only the key of its first
  /// component changes (removed when `edit` removes it).
  package func changes(
    in values: PlistDictionary, _ edit: (inout PlistValue) throws(KeyPathError) -> Void
  ) throws(KeyPathError) -> DomainChanges {
    var root = PlistValue.dictionary(values)
    try edit(&root)
    let key = components[0]
    return [key: root.dictionaryValue?[key]]
  }
}
