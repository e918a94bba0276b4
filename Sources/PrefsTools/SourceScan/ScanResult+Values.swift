import LegacyDefaults
import PreferencesMigration
import PropertyList

/// What a key's uses say of its values: the kinds of value a getter reads, the defaults the
/// code's constants give.
extension ScanModel {
  /// Whether a value is an array literal with an element that is no string.
  static func holdsNonStrings(_ value: ValueExpr?) -> Bool {
    switch value {
    case .array(let items)?:
      return items.contains {
        if case .value(.string) = $0 { return false }
        return true
      }
    case .value(.array(let items))?:
      return items.contains {
        if case .string = $0 { return false }
        return true
      }
    default: return false
    }
  }

  /// Whether `text` is `Type.name` of a type the tree does not declare (or names only by an
  /// alias of another module's) and `constants` say the string `name`: the case's implicit
  /// raw value.
  func externalCase(_ text: String, agreesWith constants: [PlistValue]) -> Bool {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 2, let type = parts.first, type.first?.isUppercase == true,
      declarations[String(type)].map({ $0.aliasOf != nil }) ?? true,
      let name = parts.last, !name.isEmpty,
      name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), !constants.isEmpty
    else { return false }
    return constants.allSatisfy { $0 == .string(String(name)) }
  }

  /// Whether the getter of `read` reads a value written as `written` (the legacy getters
  /// convert numbers, booleans and strings among themselves).
  static func reads(_ read: MigrationPlan.ValueType, _ written: MigrationPlan.ValueType) -> Bool {
    let scalars: Set<MigrationPlan.ValueType> = [.bool, .integer, .double, .string]
    return scalars.contains(read) && scalars.contains(written) && read != .string
  }

  static let genericNames: Set<String> = [
    "value", "result", "key", "obj", "object", "defaults", "newValue", "tmp", "temp", "v", "b",
    "val", "ret", "data", "string", "str", "array", "dict", "number", "x", "y", "i", "n", "true",
    "false", "nil", "YES", "NO", "self",
  ]

  /// A default in the stored form of `type`, as the getter reads it (a registered `@1` for a
  /// `boolForKey:` key is `true`).
  func convert(_ value: PlistValue, _ type: MigrationPlan.ValueType) -> PlistValue? {
    switch type.reading {
    case .getter(let legacy):
      let reading = dialect.read(value, as: legacy)
      if legacy == .url, case .string(let s) = value, s.contains("://") { return .string(s) }
      return reading.value
    case .json:
      // Any JSON value but null (the plan format's `json` default).
      return Self.jsonSafe(value) ? value : nil
    case .asIs:
      return Self.jsonSafe(value) ? value : nil
    case .oneOf:
      return value.stringValue.map(PlistValue.string)
    }
  }

  /// Whether the plan file can hold the value as it is (no data, no date, no UID inside).
  static func jsonSafe(_ value: PlistValue) -> Bool {
    switch value {
    case .bool, .integer, .unsignedInteger, .real, .string: true
    case .array(let a): a.allSatisfy(jsonSafe)
    case .dictionary(let d): d.values.allSatisfy(jsonSafe)
    case .data, .date, .uid: false
    }
  }

  func location(_ use: SourceUse, paths: [String]) -> String {
    let path = use.file < paths.count ? paths[use.file] : "?"
    if let place = use.place { return path + " " + place }
    return "\(path):\(use.line)"
  }

  /// Whether `key` is one `pattern` (`Slot*Color`) stands for.
  static func matches(_ pattern: String, _ key: String) -> Bool {
    SourcePlanMerge.matches(key, pattern: pattern)
  }
}
