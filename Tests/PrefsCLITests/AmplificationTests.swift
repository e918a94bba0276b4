import Foundation
import PropertyList
import TestSupport
import Testing

/// "Billion laughs" through every command that expands: a small binary file whose shared
/// objects expand past 100 times its size (once past 8 MiB) is refused with 65 by the reader,
/// so no command can turn it into gigabytes; DAGs below the bound go through every command.
@Suite struct AmplificationTests {
  static let binary = External.product("prefs")
  /// The 137-byte file of `Fuzz/README.md`: 23 levels of arrays holding the level below twice.
  static let laughs = Data(
    base64Encoded:
      "YnBsaXN0MDCiAQGiAgKiAwOiBASiBQWiBgaiBweiCAiiCQmiCgqiCwuiDAyiDQ2iDg6iDw+iEBCiERGiEhKiExOiFBSiFRWiFhaiFxdTbG9sCAsOERQXGh0gIyYpLC8yNTg7PkFER0pNAAAAAAAAAQEAAAAAAAAAGAAAAAAAAAAAAAAAAAAAAFE="
  )

  /// `{"k": level 0}`, level i an array of `fanout` references to level i+1, the last level
  /// the string "lol": fanout^depth values in a few hundred bytes.
  static func dag(depth: Int, fanout: Int) -> Data {
    var objects: [[UInt8]] = []
    // 0: the root dictionary {k: 2}; 1: the key "k".
    objects.append([0xD1, 1, 2])
    objects.append([0x51, UInt8(ascii: "k")])
    for level in 0..<depth {
      let next = UInt8(2 + level + 1)
      objects.append([0xA0 | UInt8(fanout)] + Array(repeating: next, count: fanout))
    }
    objects.append([0x53] + Array("lol".utf8))
    var data = Data("bplist00".utf8)
    var offsets: [Int] = []
    for object in objects {
      offsets.append(data.count)
      data.append(contentsOf: object)
    }
    let table = data.count
    for offset in offsets { data.append(contentsOf: [UInt8(offset >> 8), UInt8(offset & 0xFF)]) }
    var trailer = [UInt8](repeating: 0, count: 6)
    trailer += [2, 1]  // offset size 2, reference size 1
    for n in [objects.count, 0, table] {
      // Big-endian, most significant byte first.
      trailer += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(n) >> (56 - 8 * UInt64($0))) }
    }
    data.append(contentsOf: trailer)
    return data
  }

  static let plan =
    #"{"plan": 1, "schemaVersion": 1, "keys": [{"from": "k", "to": "t.k", "type": "array"}]}"#

  static let commands: [[String]] = [
    ["read", "FILE", "--json"], ["read", "FILE"], ["read", "FILE", "k"],
    ["convert", "FILE", "--to", "xml"], ["convert", "FILE", "--to", "binary", "-o", "OUT"],
    ["convert", "FILE", "--to", "openstep"], ["convert", "FILE", "--to", "gnustep"],
    ["convert", "FILE", "--to", "json"], ["migrate", "--plan", "PLAN", "--to", "OUT", "FILE"],
  ]

  /// Runs every command on `data`: each is refused with 65 or succeeds, and what it writes
  /// stays within a small multiple of the bound (100 times the input past 8 MiB).
  static func check(_ data: Data, _ label: String) throws -> (refused: Int, passed: Int) {
    let folder = try TemporaryFolder()
    let file = folder.file("dag.plist")
    try data.write(to: file)
    try Data(plan.utf8).write(to: folder.file("plan.json"))
    var counts = (refused: 0, passed: 0)
    let bound = 4 * ((8 << 20) + 100 * data.count)
    for command in commands {
      let out = folder.file("out.plist")
      try? FileManager.default.removeItem(at: out)
      let arguments = command.map {
        switch $0 {
        case "FILE": file.path
        case "OUT": out.path
        case "PLAN": folder.file("plan.json").path
        default: $0
        }
      }
      let result = try External.run(binary, arguments)
      #expect([0, 65].contains(result.status), "\(label) \(command): \(result.stderr)")
      let written =
        result.stdout.count
        + ((try? FileManager.default.attributesOfItem(atPath: out.path)[.size] as? Int) ?? 0)
      #expect(written <= bound, "\(label) \(command) wrote \(written) bytes from \(data.count)")
      if result.status == 65 { counts.refused += 1 } else { counts.passed += 1 }
    }
    return counts
  }

  @Test func theFuzzersFileIsRefusedByEveryCommand() throws {
    let data = try #require(Self.laughs)
    #expect(data.count == 137)
    let counts = try Self.check(data, "137-byte file")
    #expect(counts.passed == 0)
    let result = try External.run(Self.binary, ["lint", "-"], input: data)
    #expect(result.status == 65)
  }

  /// Depth × fan-out around the bound: small DAGs pass every command, large ones are refused
  /// by every command; none writes more than the bound allows.
  @Test(arguments: [(8, 2), (16, 2), (20, 2), (24, 2), (6, 8), (8, 8), (9, 8), (4, 30), (5, 30)])
  func generatedDAGs(depth: Int, fanout: Int) throws {
    let data = Self.dag(depth: depth, fanout: fanout)
    let values = (0...depth).reduce(0) { $0 + Int(pow(Double(fanout), Double($1))) }
    let counts = try Self.check(data, "\(depth)x\(fanout)")
    // About 11 bytes per value expanded: past 8 MiB and 100x the input, refused.
    if values * 11 > (8 << 20) {
      #expect(counts.passed == 0, "\(depth)x\(fanout): \(values) values")
    } else if values * 11 < (4 << 20) {
      #expect(counts.refused == 0, "\(depth)x\(fanout): \(values) values")
    }
  }
}
