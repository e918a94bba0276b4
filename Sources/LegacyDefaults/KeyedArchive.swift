import PropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The `NSKeyedArchiver` form of an `NSURL`, which Apple's `setURL:forKey:` stores for URLs
/// that are not file URLs. Read and written with the property-list layer, never with
/// `NSKeyedUnarchiver` (which traps on non-archive data in corelibs).
package enum KeyedArchive {
  /// The keyed archive of `url` that Apple's `setURL:forKey:` writes for a non-file URL.
  package static func archive(_ url: URL) throws(PlistError) -> Data {
    try KeyedArchiveURL.encode(url)
  }
}

enum KeyedArchiveURL {
  /// The URL in `data`, or nil when `data` is not a keyed archive of an `NSURL`.
  static func decode(_ data: Data) -> URL? {
    guard let document = try? PropertyList.read(data),
      case .dictionary(let archive) = document.value,
      archive["$archiver"] == "NSKeyedArchiver",
      case .array(let objects)? = archive["$objects"],
      case .dictionary(let top)? = archive["$top"],
      case .uid(let root)? = top["root"]
    else { return nil }
    return url(at: root, in: objects, depth: 0)
  }

  private static func url(at index: UInt64, in objects: [PlistValue], depth: Int) -> URL? {
    guard depth < 8, index < UInt64(objects.count),
      case .dictionary(let object) = objects[Int(index)],
      case .uid(let classIndex)? = object["$class"], classIndex < UInt64(objects.count),
      case .dictionary(let classInfo) = objects[Int(classIndex)],
      classInfo["$classname"] == "NSURL",
      case .uid(let relativeIndex)? = object["NS.relative"],
      relativeIndex < UInt64(objects.count),
      case .string(let relative) = objects[Int(relativeIndex)]
    else { return nil }
    var base: URL?
    if case .uid(let baseIndex)? = object["NS.base"], baseIndex != 0 {
      guard let resolved = url(at: baseIndex, in: objects, depth: depth + 1) else { return nil }
      base = resolved
    }
    return URL(string: relative, relativeTo: base)
  }

  /// A keyed archive of `url` as Apple's `NSKeyedArchiver` lays it out, in binary.
  static func encode(_ url: URL) throws(PlistError) -> Data {
    let archive: PlistValue = .dictionary([
      "$archiver": "NSKeyedArchiver",
      "$version": .integer(100_000),
      "$top": .dictionary(["root": .uid(1)]),
      "$objects": .array([
        "$null",
        .dictionary(["$class": .uid(3), "NS.base": .uid(0), "NS.relative": .uid(2)]),
        .string(url.absoluteString),
        .dictionary(["$classes": ["NSURL", "NSObject"], "$classname": "NSURL"]),
      ]),
    ])
    return try PropertyList.write(archive, as: .binary)
  }
}
