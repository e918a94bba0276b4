// Writes each string of the dialect corpus (Tests/LegacyDefaultsTests/Fixtures/
// dialect-corpus.keys.json: {"k000": {"string": "YES"}, ...}) to its own file, raw UTF-8, as
// seeds of the `dialects` fuzz target. Other value kinds (integer, real, ...) are written as
// their text too, data as its decoded bytes: the getters' string rules are what that target fuzzes.
// Usage: seed-strings KEYS.json OUTPUT-DIR
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
  FileHandle.standardError.write(Data("usage: seed-strings KEYS.json OUTPUT-DIR\n".utf8))
  exit(2)
}
let input = try Data(contentsOf: URL(fileURLWithPath: arguments[1]))
guard let keys = try JSONSerialization.jsonObject(with: input) as? [String: Any] else {
  FileHandle.standardError.write(Data("seed-strings: not a JSON object\n".utf8))
  exit(1)
}
let output = URL(fileURLWithPath: arguments[2], isDirectory: true)
try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
var written = 0
for (key, entry) in keys {
  guard let entry = entry as? [String: Any] else { continue }
  for (kind, value) in entry {
    guard let text = value as? String else { continue }
    // Data is base64 in the corpus: the raw bytes (a keyed-archive URL among them) are the seed.
    let bytes = kind == "data" ? Data(base64Encoded: text) ?? Data(text.utf8) : Data(text.utf8)
    let file = output.appendingPathComponent("dialect-\(key)-\(kind)")
    try bytes.write(to: file)
    written += 1
  }
}
print("seed-strings: \(written) files")
