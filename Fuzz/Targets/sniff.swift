// Fuzz target `sniff`: format detection and `read` on raw bytes, then the JSON writer (display
// mode, which must accept every value; lossless mode may refuse) and `describe`.
import Foundation
import PropertyList

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let data = fuzzData(start, count)
  let detected = try? PropertyList.detectFormat(data)
  guard let document = try? PropertyList.read(data) else { return 0 }
  guard let detected else { finding("read succeeded where detectFormat threw", data) }
  guard detected.family.contains(document.format) else {
    finding("detectFormat said \(detected), read returned \(document.format)", data)
  }
  guard withinBudget(document.value) else { return 0 }
  do {
    let json = try PropertyList.json(document.value, lossless: false)
    // What the writer prints must be JSON.
    if (try? JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed))
      == nil
    {
      finding(
        "json(lossless: false) printed text JSONSerialization refuses: \(json.prefix(300))", data)
    }
  } catch {
    // Display mode renders dates, data and UIDs; only depth and non-finite reals (which JSON
    // has no number for, refused by every JSON output) may refuse.
    if case .unrepresentableInJSON = error {
    } else {
      finding("json(lossless: false) threw \(error)", data)
    }
  }
  _ = try? PropertyList.json(document.value, lossless: true, compact: true)
  _ = PropertyList.describe(document.value)
  return 0
}
