import Foundation

final class Item: NSObject {
  let name: String

  init(name: String) { self.name = name }

  func store() {
    let data = NSKeyedArchiver.archivedData(withRootObject: self)
    UserDefaults.standard.set(data, forKey: name)
  }
}

func saveItems(_ item: NSObject) {
  UserDefaults.standard.set(
    try? NSKeyedArchiver.archivedData(withRootObject: item, requiringSecureCoding: false),
    forKey: "kept.archived")
  Item(name: "kept.item").store()
}
