import Foundation
import SwiftUI

// What the code makes of a value tells how it is stored: data decoded as JSON is JSON text's
// bytes, a string made into an enum by its raw value is that enum's raw value.

struct Occurrence: Codable { var day: Int }
enum PostType: String, CaseIterable { case news, ask, show }
enum Sorting: String { case date, name }
enum Tab: Int { case explore, schedule, videos }
struct Options: OptionSet { let rawValue: Int }

final class Manager: ObservableObject {
  // Decoded by JSONDecoder in a computed property: json, its empty data no default.
  @AppStorage("made.preserved") private var preservedData: Data = Data()
  // Given JSONEncoder's data through a local: json.
  @AppStorage("made.excluded") private var excludedData: Data = Data()
  // Trap: data nobody decodes stays data.
  @AppStorage("made.blob") private var blobData: Data = Data()
  // Trap: a local of the same name is decoded, not the property.
  @AppStorage("made.shadowed") private var shadowData: Data = Data()

  private var preserved: [Occurrence] {
    get {
      guard let decoded = try? JSONDecoder().decode([Occurrence].self, from: preservedData) else {
        return []
      }
      return decoded
    }
    set {
      preservedData = (try? JSONEncoder().encode(newValue)) ?? Data()
    }
  }

  func exclude(_ names: Set<String>) {
    if let encoded = try? JSONEncoder().encode(names) {
      excludedData = encoded
    }
  }

  func shadowed() -> [Occurrence] {
    let shadowData = Data()
    return (try? JSONDecoder().decode([Occurrence].self, from: shadowData)) ?? []
  }
}

final class Settings {
  let defaults = UserDefaults.standard

  // A string made into an enum: enum, no default (the getter answers nil).
  var lastFeed: PostType? {
    get {
      guard let raw = defaults.string(forKey: "made.lastFeed") else { return nil }
      return PostType(rawValue: raw)
    }
    set { defaults.set(newValue?.rawValue, forKey: "made.lastFeed") }
  }

  // The case after `??` where the getter's own fallback is empty: "date".
  var sorting: Sorting {
    get { Sorting(rawValue: defaults.string(forKey: "made.sorting") ?? "") ?? .date }
    set { defaults.set(newValue.rawValue, forKey: "made.sorting") }
  }

  // Trap: a number's getter answers 0, the case of raw value 0 (not the one after `??`):
  // integer, no default.
  var tab: Tab {
    get { Tab(rawValue: defaults.integer(forKey: "made.tab")) ?? .schedule }
    set { defaults.set(newValue.rawValue, forKey: "made.tab") }
  }

  // Trap: an option set made by its raw value is no enum: integer.
  var options: Options { Options(rawValue: defaults.integer(forKey: "made.options")) }

  // Only written, the enum's raw value of a property's setter and of a parameter: enum.
  var theme: PostType? {
    get { nil }
    set { defaults.set(newValue?.rawValue, forKey: "made.theme") }
  }
  func save(kind: Sorting) { defaults.set(kind.rawValue, forKey: "made.kind") }

  // Trap: a string nobody makes into an enum stays a string.
  var title: String { defaults.string(forKey: "made.title") ?? "Untitled" }
}

struct ThumbnailView: View {
  // A raw value @AppStorage holds, made into the view's enum: enum, default "google".
  @AppStorage("made.provider") private var providerRaw = "google"
  private enum Provider: String { case google, duck }
  private var provider: Provider { Provider(rawValue: providerRaw) ?? .google }
  var body: some View { Text("") }
}
