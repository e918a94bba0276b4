import PropertyList

/// Every decision a dialect makes: what its `NSUserDefaults` answers where the implementations
/// disagree. Everything else (a bool stored as a bool, `arrayForKey:`, `dataForKey:`, …) is the
/// same in every dialect and lives in ``Dialect``.
///
/// One conformance per dialect, each in its own file (`DialectApple.swift`,
/// `DialectGNUstep.swift`, `DialectCorelibs.swift`) holding all that dialect answers; ``Dialect``
/// maps each case to its conformance in one exhaustive `switch` (``Dialect/rules``). Adding a
/// dialect is a case in ``Dialect``, which that `switch` then refuses to compile without, and a
/// conformance, which the compiler refuses without an answer to every requirement below. No
/// requirement has a default, so that no dialect inherits another's answer unseen; where a new
/// dialect does answer as another does, its conformance calls that rule by name.
///
/// The rules are functions of the stored value alone, so the requirements are static and the
/// conformances caseless enums: a getter calls its dialect's rule through the metatype, with no
/// instance to make (about 14 instructions more than the `switch` per getter it replaced, on the
/// reads that consult the dialect; none on those that do not, such as an integer stored as one).
protocol DialectRules {
  // MARK: Reading a domain

  /// A domain's values as this dialect's reader of a `format` file (nil: not read from a
  /// file) hands them to the getters: GNUstep's XML reader clamps integers above Int64.max.
  static func adopting(_ values: PlistDictionary, readFrom format: PlistFormat?)
    -> PlistDictionary

  /// Whose property-list reader this dialect's `NSUserDefaults` reads a domain file with: the
  /// grammar and the answers a legacy file is read by (a migration reads it exactly so).
  static var fileReader: PlistReader { get }

  /// The argument domain this dialect makes of a process's arguments (the program's name
  /// first): which words are keys, which are values, and how a value becomes a property list.
  static func argumentDomain(_ arguments: [String]) -> [String: PlistValue]

  /// The environment variable that names the home folder `~` stands for in `URLForKey:` (when
  /// it is unset, the home folder of the user in the password database).
  static var homeVariable: String { get }

  // MARK: A stored string read as a number

  /// `boolForKey:` of a stored string.
  static func bool(text: String) -> Bool

  /// `integerForKey:` of a stored string, and where its parser stopped; nil when the parser
  /// took no digit (the getter answers 0).
  static func integer(text: String) -> ParsedNumber<Int>?

  /// `doubleForKey:` of a stored string, and where its parser stopped; nil when the parser
  /// read no number (the getter answers 0).
  static func double(text: String) -> ParsedNumber<Double>?

  /// `floatForKey:` of a stored string; nil when the parser read no number (the getter
  /// answers 0).
  static func float(text: String) -> Float?

  // MARK: A stored number

  /// `integerForKey:` of a stored real (NaN, infinities and reals out of range included).
  static func integer(real: Double) -> Int

  /// `floatForKey:` of a stored integer (`Float(Double(i))` rounds twice).
  static func float(integer: Int) -> Float

  /// `stringForKey:` of a stored bool, integer or real.
  static func string(number: Dialect.Number) -> String?
}

/// A number a getter's parser read from a stored string, and how much of the string it took:
/// `end` is the UTF-16 offset just past the last unit the parser took (the white space and
/// sign before the digits included). What follows `end` is what the getter ignored.
package struct ParsedNumber<Value: Sendable>: Sendable {
  package var value: Value
  package var end: Int
}
