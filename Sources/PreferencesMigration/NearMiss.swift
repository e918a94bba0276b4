/// The one rule that decides when two keys are so close that one is almost certainly a typo of
/// the other (`PREFS_SOUND_ENABLE` beside `PREFS_SOUND_ENABLED`, `colormode` beside
/// `colorMode`).
extension MigrationPlan {
  /// Whether `a` and `b` are different keys within a typo of each other: after case folding,
  /// a Damerau–Levenshtein distance (insertions, deletions, substitutions and swaps of two
  /// neighbouring characters, each one edit) of at most 2 when the shorter key has 6
  /// characters or more, at most 1 when it has 3 to 5, and 0 (a difference of case only) when
  /// it has 1 or 2. Identical keys are not near misses.
  ///
  /// A migration applies it per legacy domain: an entry whose `from` the domain does not have
  /// beside a legacy key no entry names (nor the plan's `drop`) is reported as "did you mean",
  /// and a domain that would drop such a key is refused.
  public static func isNearMiss(_ a: String, _ b: String) -> Bool {
    nearMissDistance(a, b) != nil
  }

  /// The edits between two near misses after case folding (0: they differ in case only), or
  /// nil when they are identical or farther apart than ``isNearMiss(_:_:)`` allows.
  package static func nearMissDistance(_ a: String, _ b: String) -> Int? {
    guard a != b else { return nil }
    return FoldedKey(a).nearMissDistance(to: FoldedKey(b))
  }
}

/// A key folded for the typo rule once, to be compared with many others.
struct FoldedKey {
  let key: String
  let characters: [Character]

  init(_ key: String) {
    self.key = key
    characters = Array(key.lowercased())
  }

  /// ``MigrationPlan/isNearMiss(_:_:)``'s distance to `other`, or nil when they are not near
  /// misses (identical keys included).
  func nearMissDistance(to other: FoldedKey) -> Int? {
    guard key != other.key else { return nil }
    let (x, y) = (characters, other.characters)
    let shorter = min(x.count, y.count)
    let limit = shorter >= 6 ? 2 : shorter >= 3 ? 1 : 0
    guard abs(x.count - y.count) <= limit else { return nil }
    guard let distance = Self.editDistance(x, y, limit: limit) else { return nil }
    return distance
  }

  /// The optimal-string-alignment form of the Damerau–Levenshtein distance when it is at most
  /// `limit`, else nil (stopping as soon as no alignment can come back under it: a row only
  /// grows from the two rows before it, by at least one edit from the older).
  static func editDistance(_ x: [Character], _ y: [Character], limit: Int) -> Int? {
    guard !x.isEmpty, !y.isEmpty else {
      let distance = max(x.count, y.count)
      return distance <= limit ? distance : nil
    }
    var before = [Int](repeating: limit + 1, count: y.count + 1)
    var previous = Array(0...y.count)
    var current = [Int](repeating: 0, count: y.count + 1)
    var previousLow = 0
    for i in 1...x.count {
      current[0] = i
      var low = i
      for j in 1...y.count {
        let cost = x[i - 1] == y[j - 1] ? 0 : 1
        var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
          best = min(best, before[j - 2] + 1)
        }
        current[j] = best
        low = min(low, best)
      }
      if low > limit, previousLow >= limit { return nil }
      previousLow = low
      (before, previous, current) = (previous, current, before)
    }
    let distance = previous[y.count]
    return distance <= limit ? distance : nil
  }
}
