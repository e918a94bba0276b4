/// What a value of a binary file expands to: how many values, and about how many bytes
/// (strings and data by their length, every other value as 8), each use of a shared object
/// counted as often as it is used.
struct Expansion {
  var values: Int
  var bytes: Int

  /// A container, or a scalar that is not a string or data.
  static let one = Expansion(values: 1, bytes: 8)

  /// A string, data or dictionary key of `length` bytes.
  @inline(__always)
  static func sized(_ length: Int) -> Expansion { Expansion(values: 1, bytes: 8 + length) }

  static func of(_ value: PlistValue) -> Expansion {
    switch value {
    case .string(let s): sized(s.utf8.count)
    case .data(let d): sized(d.count)
    default: one
    }
  }

  @inline(__always)
  static func += (lhs: inout Expansion, rhs: Expansion) {
    lhs.values += rhs.values
    lhs.bytes += rhs.bytes
  }

  /// The sum, neither part above `cap` (a count ahead of a file that shares one object at
  /// every level would overflow).
  @inline(__always)
  func adding(_ other: Expansion, cappedAt cap: Int) -> Expansion {
    Expansion(values: min(values + other.values, cap), bytes: min(bytes + other.bytes, cap))
  }
}

/// The one rule of how far a binary file may expand through its shared objects, held by every
/// walk of it (the full read's frames, `lint`'s quick check, the streaming conversion and its
/// count ahead): at most ``PlistLimits/maxObjects`` values, and once past
/// ``PlistLimits/amplificationThreshold`` bytes, less than ``PlistLimits/maxAmplification``
/// times the input's size. A subtree's expansion is at most the document's, so a walk may hold
/// any part of the document to it.
struct ExpansionBudget {
  let maxValues: Int
  let threshold: Int
  let maxAmplification: Int
  let inputBytes: Int

  init(_ limits: PlistLimits, inputBytes: Int) {
    maxValues = limits.maxObjects
    threshold = limits.amplificationThreshold
    maxAmplification = limits.maxAmplification
    self.inputBytes = inputBytes
  }

  /// Whether `expansion` has more values than the limit.
  @inline(__always)
  func tooManyValues(_ expansion: Expansion) -> Bool { expansion.values > maxValues }

  /// Whether `expansion` is past the threshold and the ratio to the input.
  @inline(__always)
  func amplified(_ expansion: Expansion) -> Bool {
    expansion.bytes > threshold && expansion.bytes / max(inputBytes, 1) >= maxAmplification
  }

  /// Whether `expansion` is within both limits.
  @inline(__always)
  func allows(_ expansion: Expansion) -> Bool {
    !tooManyValues(expansion) && !amplified(expansion)
  }

  /// Refuses `expansion` when it is past either limit (the values' first), the error at
  /// `offset`.
  @inline(__always)
  func check(_ expansion: Expansion, at offset: Int) throws(PlistError) {
    guard allows(expansion) else { throw error(expansion, at: offset) }
  }

  /// The error of an expansion past a limit: the values' when there are too many, else the
  /// amplification's.
  @inline(never)
  func error(_ expansion: Expansion, at offset: Int) -> PlistError {
    tooManyValues(expansion) ? tooManyValuesError(at: offset) : amplifiedError(at: offset)
  }

  @inline(never)
  func tooManyValuesError(at offset: Int) -> PlistError {
    .limitExceeded(format: .binary, at: .byteOffset(offset), limit: .objects(maxValues))
  }

  @inline(never)
  func amplifiedError(at offset: Int) -> PlistError {
    .limitExceeded(
      format: .binary, at: .byteOffset(offset),
      limit: .amplification(
        factor: maxAmplification, inputBytes: inputBytes, threshold: threshold))
  }
}
