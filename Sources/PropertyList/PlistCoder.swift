#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Encodes `Encodable` values as native property-list structures: structs and dictionaries
/// become dictionaries, arrays arrays, numbers integers or reals, `Date` and `Data` their own
/// types, `URL` its absolute string. `nil` leaves a key out (a property list has no null).
public struct PlistValueEncoder: Sendable {
  public init() {}

  public func encode<T: Encodable>(_ value: T) throws -> PlistValue {
    let box = EncodingBox(path: [])
    try box.encodeValue(value)
    guard let result = box.value else {
      throw EncodingError.invalidValue(
        value, .init(codingPath: [], debugDescription: "the value encoded nothing"))
    }
    return result
  }
}

/// Decodes `Decodable` values from property-list structures (the inverse of
/// ``PlistValueEncoder``). Integers decode into any integer type that holds them exactly;
/// reals also accept integers.
public struct PlistValueDecoder: Sendable {
  public init() {}

  public func decode<T: Decodable>(_ type: T.Type, from value: PlistValue) throws -> T {
    try DecodingBox(value: value, path: []).decodeValue(type)
  }
}

// MARK: - Encoding

/// One value being encoded; containers write back into their parent box.
private final class EncodingBox: Encoder {
  /// Where a nested box stores its value in its parent whenever it changes.
  private let sink: ((PlistValue) -> Void)?
  var value: PlistValue? {
    didSet {
      if let value, let sink { sink(value) }
    }
  }
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(path: [any CodingKey], sink: ((PlistValue) -> Void)? = nil) {
    self.codingPath = path
    self.sink = sink
  }

  /// A box that stores its value under `key` of this box's dictionary.
  func nested(key: String, path: [any CodingKey]) -> EncodingBox {
    EncodingBox(path: path) { [unowned self] in self.set(key, $0) }
  }

  /// A box that stores its value at `index` of this box's array.
  func element(index: Int, path: [any CodingKey]) -> EncodingBox {
    EncodingBox(path: path) { [unowned self] element in
      guard case .array(var a) = self.value, index < a.count else { return }
      self.value = nil
      a[index] = element
      self.value = .array(a)
    }
  }

  func encodeValue<T: Encodable>(_ v: T) throws {
    switch v {
    case let date as Date: value = .date(date)
    case let data as Data: value = .data(data)
    case let url as URL: value = .string(url.absoluteString)
    // A Decimal is kept exact as its decimal text: a real would lose digits (0.1, or more
    // than 17 significant digits), and Decimal's own Codable form is not a plist value.
    case let decimal as Decimal: value = .string(decimal.description)
    default: try v.encode(to: self)
    }
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .dictionary = value {} else { value = .dictionary([:]) }
    return KeyedEncodingContainer(KeyedEncoder<Key>(box: self))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .array = value {} else { value = .array([]) }
    return UnkeyedEncoder(box: self)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { SingleEncoder(box: self) }

  func child(_ key: any CodingKey) -> EncodingBox { EncodingBox(path: codingPath + [key]) }

  func set(_ key: String, _ element: PlistValue) {
    guard case .dictionary(var d) = value else { return }
    value = nil
    d[key] = element
    value = .dictionary(d)
  }

  func append(_ element: PlistValue) {
    guard case .array(var a) = value else { return }
    value = nil
    a.append(element)
    value = .array(a)
  }

  static func scalar<T: Encodable>(_ v: T) -> PlistValue? {
    switch v {
    case let b as Bool: .bool(b)
    case let s as String: .string(s)
    case let d as Double: .real(d)
    case let f as Float: .real(Double(f))
    case let i as Int: .int(i)
    case let i as Int8: .int(i)
    case let i as Int16: .int(i)
    case let i as Int32: .int(i)
    case let i as Int64: .int(i)
    case let u as UInt: .int(u)
    case let u as UInt8: .int(u)
    case let u as UInt16: .int(u)
    case let u as UInt32: .int(u)
    case let u as UInt64: .int(u)
    default: nil
    }
  }

  func encoded<T: Encodable>(_ v: T, at key: any CodingKey) throws -> PlistValue? {
    if let scalar = Self.scalar(v) { return scalar }
    let box = child(key)
    try box.encodeValue(v)
    return box.value
  }
}

private struct IndexKey: CodingKey {
  var stringValue: String { "Index \(intValue ?? 0)" }
  var intValue: Int?
  init(_ index: Int) { intValue = index }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { self.intValue = intValue }
}

private struct KeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let box: EncodingBox
  var codingPath: [any CodingKey] { box.codingPath }

  mutating func encodeNil(forKey key: Key) throws {}

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    if let element = try box.encoded(value, at: key) { box.set(key.stringValue, element) }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    box.nested(key: key.stringValue, path: codingPath + [key]).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    box.nested(key: key.stringValue, path: codingPath + [key]).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    box.nested(key: "super", path: codingPath)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    box.nested(key: key.stringValue, path: codingPath + [key])
  }
}

private struct UnkeyedEncoder: UnkeyedEncodingContainer {
  let box: EncodingBox
  var codingPath: [any CodingKey] { box.codingPath }
  var count: Int {
    if case .array(let a) = box.value { return a.count }
    return 0
  }

  mutating func encodeNil() throws {
    throw EncodingError.invalidValue(
      Optional<Int>.none as Any,
      .init(
        codingPath: codingPath + [IndexKey(count)],
        debugDescription: "a property-list array cannot hold nil"))
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    guard let element = try box.encoded(value, at: IndexKey(count)) else {
      throw EncodingError.invalidValue(
        value,
        .init(codingPath: codingPath + [IndexKey(count)], debugDescription: "encoded nothing"))
    }
    box.append(element)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let element = box.element(index: count, path: codingPath + [IndexKey(count)])
    box.append(.dictionary([:]))
    return element.container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let element = box.element(index: count, path: codingPath + [IndexKey(count)])
    box.append(.array([]))
    return element.unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    let element = box.element(index: count, path: codingPath + [IndexKey(count)])
    box.append(.dictionary([:]))
    return element
  }
}

private struct SingleEncoder: SingleValueEncodingContainer {
  let box: EncodingBox
  var codingPath: [any CodingKey] { box.codingPath }

  mutating func encodeNil() throws {
    throw EncodingError.invalidValue(
      Optional<Int>.none as Any,
      .init(codingPath: codingPath, debugDescription: "a property list cannot hold nil"))
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    if let scalar = EncodingBox.scalar(value) {
      box.value = scalar
    } else {
      try box.encodeValue(value)
    }
  }
}

// MARK: - Decoding

private struct DecodingBox: Decoder {
  let value: PlistValue
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(value: PlistValue, path: [any CodingKey]) {
    self.value = value
    self.codingPath = path
  }

  func mismatch(_ expected: Any.Type) -> DecodingError {
    .typeMismatch(
      expected,
      .init(
        codingPath: codingPath,
        debugDescription: "expected \(expected), found \(value.typeName.withArticle): \(value)"))
  }

  func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
    if type == Date.self {
      guard case .date(let d) = value, let result = d as? T else { throw mismatch(type) }
      return result
    }
    if type == Data.self {
      guard case .data(let d) = value, let result = d as? T else { throw mismatch(type) }
      return result
    }
    if type == URL.self {
      guard case .string(let s) = value, let url = URL(string: s), let result = url as? T else {
        throw mismatch(type)
      }
      return result
    }
    if type == Decimal.self {
      let decimal: Decimal?
      switch value {
      case .string(let s): decimal = Decimal(string: s, locale: Locale(identifier: "en_US_POSIX"))
      case .integer(let i): decimal = Decimal(i)
      case .unsignedInteger(let u): decimal = Decimal(u)
      // Written as a real by earlier versions: the nearest decimal of that real.
      case .real(let d) where d.isFinite: decimal = Decimal(d)
      default: decimal = nil
      }
      guard let decimal, let result = decimal as? T else { throw mismatch(type) }
      return result
    }
    if let scalar = try scalar(type) { return scalar }
    return try T(from: self)
  }

  func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
    let result: I?
    switch value {
    case .integer(let i): result = I(exactly: i)
    case .unsignedInteger(let u): result = I(exactly: u)
    default: throw mismatch(type)
    }
    guard let result else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: codingPath, debugDescription: "\(value) does not fit in \(type)"))
    }
    return result
  }

  func double() throws -> Double {
    switch value {
    case .real(let d): return d
    case .integer(let i): return Double(i)
    case .unsignedInteger(let u): return Double(u)
    default: throw mismatch(Double.self)
    }
  }

  /// Scalars decoded directly (also used by the single-value container).
  func scalar<T>(_ type: T.Type) throws -> T? {
    let result: Any
    switch type {
    case is Bool.Type:
      guard case .bool(let b) = value else { throw mismatch(type) }
      result = b
    case is String.Type:
      guard case .string(let s) = value else { throw mismatch(type) }
      result = s
    case is Double.Type: result = try double()
    case is Float.Type: result = Float(try double())
    case is Int.Type: result = try integer(Int.self)
    case is Int8.Type: result = try integer(Int8.self)
    case is Int16.Type: result = try integer(Int16.self)
    case is Int32.Type: result = try integer(Int32.self)
    case is Int64.Type: result = try integer(Int64.self)
    case is UInt.Type: result = try integer(UInt.self)
    case is UInt8.Type: result = try integer(UInt8.self)
    case is UInt16.Type: result = try integer(UInt16.self)
    case is UInt32.Type: result = try integer(UInt32.self)
    case is UInt64.Type: result = try integer(UInt64.self)
    default: return nil
    }
    return result as? T
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .dictionary(let d) = value else { throw mismatch(PlistDictionary.self) }
    return KeyedDecodingContainer(KeyedDecoder<Key>(dictionary: d, codingPath: codingPath))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let a) = value else { throw mismatch([PlistValue].self) }
    return UnkeyedDecoder(elements: a, codingPath: codingPath)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    SingleDecoder(box: self)
  }
}

private struct KeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let dictionary: PlistDictionary
  let codingPath: [any CodingKey]

  var allKeys: [Key] { dictionary.keys.compactMap { Key(stringValue: $0) } }

  func contains(_ key: Key) -> Bool { dictionary[key.stringValue] != nil }

  func element(_ key: Key) throws -> PlistValue {
    guard let element = dictionary[key.stringValue] else {
      throw DecodingError.keyNotFound(
        key, .init(codingPath: codingPath, debugDescription: "no value for \(key.stringValue)"))
    }
    return element
  }

  func decodeNil(forKey key: Key) throws -> Bool { dictionary[key.stringValue] == nil }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try DecodingBox(value: element(key), path: codingPath + [key]).decodeValue(type)
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
    throws -> KeyedDecodingContainer<NestedKey>
  {
    try DecodingBox(value: element(key), path: codingPath + [key]).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try DecodingBox(value: element(key), path: codingPath + [key]).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    DecodingBox(value: dictionary["super"] ?? .dictionary([:]), path: codingPath)
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    DecodingBox(value: try element(key), path: codingPath + [key])
  }
}

private struct UnkeyedDecoder: UnkeyedDecodingContainer {
  let elements: [PlistValue]
  let codingPath: [any CodingKey]
  var currentIndex = 0

  init(elements: [PlistValue], codingPath: [any CodingKey]) {
    self.elements = elements
    self.codingPath = codingPath
  }

  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }

  mutating func next() throws -> DecodingBox {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        PlistValue.self,
        .init(codingPath: codingPath, debugDescription: "the array has no more elements"))
    }
    defer { currentIndex += 1 }
    return DecodingBox(value: elements[currentIndex], path: codingPath + [IndexKey(currentIndex)])
  }

  mutating func decodeNil() throws -> Bool { false }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try next().decodeValue(type)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try next().container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try next().unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder { try next() }
}

private struct SingleDecoder: SingleValueDecodingContainer {
  let box: DecodingBox
  var codingPath: [any CodingKey] { box.codingPath }

  func decodeNil() -> Bool { false }

  func decode<T: Decodable>(_ type: T.Type) throws -> T { try box.decodeValue(type) }
}
