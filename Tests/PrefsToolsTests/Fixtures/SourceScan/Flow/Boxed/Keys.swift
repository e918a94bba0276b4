// swift-format-ignore-file
import Defaults
import Foundation

// sindresorhus/Defaults: a set of UUIDs is an array of their strings, empty by default; so is
// a set made by Set().
extension Defaults.Keys {
    static let hotspots = Key<Set<UUID>>("bx.hotspots", default: Set<UUID>())
    static let languages = Key<Set<String>>("bx.languages", default: Set())
}

func hotspotCount() -> Int { Defaults[.hotspots].count + Defaults[.languages].count }
