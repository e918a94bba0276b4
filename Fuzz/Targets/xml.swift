// Fuzz target `xml`: the XML property-list reader and the XML writer. Inputs that do not start
// with `<` get `<?xml version="1.0"?><plist>` prepended so the mutations land inside a plist.
import Foundation
import PropertyList

private let prefix = Data(#"<?xml version="1.0"?><plist>"#.utf8)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  var data = fuzzData(start, count)
  if data.first != UInt8(ascii: "<") { data = prefix + data }
  guard let document = try? PropertyList.read(data) else { return 0 }
  guard withinBudget(document.value) else { return 0 }
  checkRoundTrip(document.value, as: .xml, "xml")
  return 0
}
