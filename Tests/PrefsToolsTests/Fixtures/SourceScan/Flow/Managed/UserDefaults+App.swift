// swift-format-ignore-file
import CoreData
import Foundation

// Accessors made at run time (a dynamic-property category of NSUserDefaults): each managed
// property of an extension of UserDefaults is the key of its Objective-C name.
extension UserDefaults {
  @NSManaged var skinOpacity: CGFloat
  @NSManaged var lastCollectionID: String?
  @NSManaged var shortcutIdentifiers: [String]
  @NSManaged var servers: [[String: Any]]?
  @NSManaged var purchaseLink: URL?
  @NSManaged @objc(sortOrder) private var _sortOrder: String
  // Declared, never used by the code: listed apart, not planned.
  @NSManaged var neverRead: Bool
}

extension UserDefaults {
  var storeRegion: String? { Locale.current.region?.identifier }
}

enum Settings {
  static func registerDefaults() {
    let defaults =
      [
        #keyPath(UserDefaults.skinOpacity): 0.7,
        #keyPath(UserDefaults.sortOrder): "name",
      ] as [String: Any]
    UserDefaults.standard.register(defaults: defaults)
  }

  static var opacity: CGFloat { UserDefaults.standard.skinOpacity }
  // A fallback where a managed property is read: its key's default.
  static var collection: String { UserDefaults.standard.lastCollectionID ?? "all" }
  // Trap: a computed property of the app's own, read with a fallback: no key.
  static var region: String { UserDefaults.standard.storeRegion ?? "us" }
  static var shortcuts: [String] { UserDefaults.standard.shortcutIdentifiers }
  static var servers: [[String: Any]]? { UserDefaults.standard.servers }
  static var link: URL? { UserDefaults.standard.purchaseLink }
  static var sortOrder: String { UserDefaults.standard._sortOrder }
}

// Trap: a Core Data object's managed properties are its entity's attributes, not keys.
final class Game: NSManagedObject {
  @NSManaged var identifier: String
  @NSManaged var playCount: Int
}
