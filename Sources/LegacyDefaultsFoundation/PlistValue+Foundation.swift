import Foundation
import LegacyDefaults
import PropertyList

#if canImport(Darwin)
  import CoreFoundation
#endif

/// The one bridge between `PlistValue` and the property-list objects Foundation's
/// `UserDefaults` takes and returns. `Any` lives only here, never in public API.
///
/// Edge cases, each tested:
/// - integers: `Int64` stays signed; above `Int64.max` it is a `UInt64` (`.unsignedInteger`).
/// - booleans: a boolean comes back as `.bool`, an integer 0 or 1 as `.integer`. On Apple
///   platforms both are `NSNumber`s and `CFBoolean` tells them apart; swift-corelibs-foundation
///   returns Swift `Bool` and `Int` values, and an `NSNumber` of type `c` is its boolean.
/// - optionals: corelibs hands back containers of `Optional<Any>`; they are unwrapped, and a
///   nil inside a container is refused.
/// - dictionaries with a key that is not a string, UIDs, and any other object are refused.
package enum FoundationBridge {
  /// The Foundation object `UserDefaults.set(_:forKey:)` stores for `value`.
  package static func object(_ value: PlistValue, key: String) throws(DefaultsError) -> Any {
    switch value {
    case .string(let s): return s
    case .integer(let i): return NSNumber(value: i)
    case .unsignedInteger(let u): return NSNumber(value: u)
    case .real(let d): return NSNumber(value: d)
    case .bool(let b): return NSNumber(value: b)
    case .date(let d): return d
    case .data(let d): return d
    case .array(let a):
      var list: [Any] = []
      list.reserveCapacity(a.count)
      for element in a { list.append(try object(element, key: key)) }
      return list
    case .dictionary(let d):
      var result: [String: Any] = [:]
      result.reserveCapacity(d.count)
      for (k, element) in d { result[k] = try object(element, key: key) }
      return result
    case .uid: throw .unsupportedValue(key: key, type: "UID")
    }
  }

  /// The `PlistValue` of an object `UserDefaults` returned.
  package static func value(_ object: Any, key: String) throws(DefaultsError) -> PlistValue {
    guard let object = unwrapped(object) else {
      throw .unsupportedValue(key: key, type: "nil inside a container")
    }
    // Exact Swift types first (corelibs): `as?` would bridge an Int 1 to Bool on Apple systems.
    switch ObjectIdentifier(type(of: object)) {
    case ObjectIdentifier(Bool.self): return .bool(object as? Bool ?? false)
    case ObjectIdentifier(String.self): return .string(object as? String ?? "")
    case ObjectIdentifier(Int.self): return .integer(Int64(object as? Int ?? 0))
    case ObjectIdentifier(Int64.self): return .integer(object as? Int64 ?? 0)
    case ObjectIdentifier(Int32.self): return .integer(Int64(object as? Int32 ?? 0))
    case ObjectIdentifier(UInt64.self): return .int(object as? UInt64 ?? 0)
    case ObjectIdentifier(UInt.self): return .int(object as? UInt ?? 0)
    case ObjectIdentifier(Double.self): return .real(object as? Double ?? 0)
    case ObjectIdentifier(Float.self): return .real(Double(object as? Float ?? 0))
    default: break
    }
    if let number = object as? NSNumber { return self.number(number) }
    if let string = object as? String { return .string(string) }
    if let date = object as? Date { return .date(date) }
    if let data = object as? Data { return .data(data) }
    if let list = object as? [Any] {
      var result: [PlistValue] = []
      result.reserveCapacity(list.count)
      for element in list { result.append(try value(element, key: key)) }
      return .array(result)
    }
    if let dictionary = object as? [AnyHashable: Any] {
      var result = PlistDictionary(minimumCapacity: dictionary.count)
      for (k, element) in dictionary {
        guard let name = k.base as? String else {
          throw .unsupportedValue(key: key, type: "dictionary with a \(type(of: k.base)) key")
        }
        result[name] = try value(element, key: key)
      }
      return .dictionary(result)
    }
    throw .unsupportedValue(key: key, type: "\(type(of: object))")
  }

  private static func number(_ number: NSNumber) -> PlistValue {
    #if canImport(Darwin)
      if CFGetTypeID(number) == CFBooleanGetTypeID() { return .bool(number.boolValue) }
    #endif
    switch String(cString: number.objCType) {
    #if !canImport(Darwin)
      case "c", "B": return .bool(number.boolValue)
    #endif
    case "f", "d": return .real(number.doubleValue)
    case "Q", "L", "I", "S", "C":
      return .int(number.uint64Value)
    default: return .integer(number.int64Value)
    }
  }

  /// `Optional<Any>` values unwrapped (nil for a nil); anything else as it is.
  static func unwrapped(_ object: Any) -> Any? {
    guard let optional = object as? any OptionalBox else { return object }
    return optional.boxed.flatMap(unwrapped)
  }
}

/// Lets `unwrapped` see through `Optional<Wrapped>` inside `Any`.
protocol OptionalBox {
  var boxed: Any? { get }
}

extension Optional: OptionalBox {
  var boxed: Any? { self.map { $0 as Any } }
}
