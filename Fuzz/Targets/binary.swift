// Fuzz target `binary`: the binary property-list reader, then the binary and XML writers on
// whatever it accepts. Inputs that do not start with `bplist00` get that magic prepended, so
// every execution reaches the binary reader.
import Foundation
import PropertyList

private let magic = Data("bplist00".utf8)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  var data = fuzzData(start, count)
  if !data.starts(with: magic) { data = magic + data }
  guard let document = try? PropertyList.read(data) else { return 0 }
  guard document.format == .binary else {
    finding("bplist00 input read as \(document.format)", data)
  }
  guard withinBudget(document.value) else { return 0 }
  checkRoundTrip(document.value, as: .binary, "binary")
  checkRoundTrip(document.value, as: .xml, "binary")
  return 0
}
