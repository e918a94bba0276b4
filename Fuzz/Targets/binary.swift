// Fuzz target `binary`: the binary property-list reader and its single-key lookup, then the
// binary and XML writers on whatever it accepts. Inputs that do not start with `bplist00` get that magic prepended, so
// every execution reaches the binary reader.
import Foundation
import PropertyList

private let magic = Data("bplist00".utf8)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  var data = fuzzData(start, count)
  if !data.starts(with: magic) { data = magic + data }
  // The single-key read (`prefs read FILE KEY`) must survive anything the full read does.
  let probe = PropertyList.binaryValue(forKey: "a", in: data)
  guard let document = try? PropertyList.read(data) else { return 0 }
  guard document.format == .binary else {
    finding("bplist00 input read as \(document.format)", data)
  }
  // Where the full read gives a dictionary without warnings, the lookup answers the same.
  if case .dictionary(let d) = document.value, document.warnings.isEmpty {
    let expected: BinaryLookup = d["a"].map { .found($0) } ?? .absent
    if probe != expected { finding("lookup of \"a\" disagrees with the full read", data) }
    for key in d.keys.prefix(4)
    where PropertyList.binaryValue(forKey: key, in: data) != d[key].map({ .found($0) }) {
      finding("lookup of a present key disagrees with the full read", data)
    }
  }
  guard withinBudget(document.value) else { return 0 }
  checkRoundTrip(document.value, as: .binary, "binary")
  checkRoundTrip(document.value, as: .xml, "binary")
  return 0
}
