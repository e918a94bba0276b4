import Foundation
import PersistedPropertyWrapper
import RealmSwift

// What a thirty-third set of never-seen apps showed (Swift).

// AndrewBennet/PersistedPropertyWrapper: `@Persisted("k", defaultValue: v, storage: s)` stores a
// property-list value as it is, a RawRepresentable by its raw value; `encodedDataKey:` a
// Codable value as JSON data; an optional without a default has none.
enum PersistedProgress: Int {
  case page = 1
  case percentage = 2
}

struct PersistedBook: Codable {
  var title: String
}

extension UserDefaults {
  static var persistedShared = UserDefaults(suiteName: "group.persisted") ?? .standard
}

struct PersistedSettings {
  private init() {}

  @Persisted("persistedShowLinks", defaultValue: true)
  static var showLinks: Bool

  @Persisted("persistedProgressType", defaultValue: .page)
  static var progressType: PersistedProgress

  @Persisted("persistedDarkMode")
  static var darkMode: Bool?

  // (Arguments past a dozen tokens: the property after them is still the attribute's.)
  @Persisted(encodedDataKey: "persistedCurrentBooks", defaultValue: [], storage: .persistedShared)
  static var currentBooks: [PersistedBook]

  // Trap: a static property no code names (declared, not a key).
  @Persisted("persistedNeverNamed", defaultValue: 0)
  static var neverNamed: Int
}

// A static property of an enum.
enum PersistedListOrder: Int {
  case custom = 0
  case alphabetical = 1

  @Persisted("persistedListOrder", defaultValue: .custom)
  static var selected: PersistedListOrder
}

// (Static properties: keys where some code names them.)
func persistedUse() -> Bool {
  PersistedSettings.darkMode = nil
  PersistedSettings.currentBooks.append(PersistedBook(title: "x"))
  _ = PersistedListOrder.selected
  return PersistedSettings.showLinks && PersistedSettings.progressType == .page
}

// (An extension of the package's type does not make it the tree's.)
extension Persisted: DynamicProperty {}

// Trap: Realm's `@Persisted` is a database column: it names no key.
final class PersistedRecord: Object {
  @Persisted(primaryKey: true) var persistedIdentifier: String
  @Persisted var persistedTitle: String
  @Persisted(indexed: true) var persistedRank: Int
}

// In the standard domain: persistedShowLinks (bool, true), persistedProgressType (integer, 1),
// persistedDarkMode (bool, no default), persistedListOrder (integer, 0). In group.persisted:
// persistedCurrentBooks (json, []).
