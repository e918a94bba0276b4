// Fuzz target `binary`: the binary property-list reader, its single-key lookup and its
// windowed read of a file (how a store loads a large domain: the same document or the same
// error, with pages small enough to split every object and a budget that sends some walks to
// the whole-file read midway), then the binary and XML writers on whatever it accepts. Inputs that do not start with `bplist00` get that magic prepended, so
// every execution reaches the binary reader.
import Foundation
import PropertyList

private let magic = Data("bplist00".utf8)

/// The input as the windowed read's source (a domain file's, in a store, is LegacyDefaults'
/// `pread`): a read past its end comes back short.
private final class InputBytes: ByteSource {
  let data: Data

  init(_ data: Data) { self.data = data }

  func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
    let end = min(offset + buffer.count, data.count)
    guard offset < end else { return 0 }
    data.copyBytes(to: buffer, from: (data.startIndex + offset)..<(data.startIndex + end))
    return end - offset
  }
}

/// The windowed read of `data` against the whole read, in three shapes of window.
private func checkWindowed(_ data: Data, _ whole: Result<PlistDocument, PlistError>) {
  for (shift, slots, budget) in [(4, 2, nil), (6, 3, data.count / 2), (14, 16, nil)]
    as [(Int, Int, Int?)]
  {
    let windowed = PropertyList.readBinary(
      from: InputBytes(data), size: data.count, pageShift: shift, slots: slots, budget: budget)
    switch (whole, windowed) {
    case (.success(let a), .success(let b)) where a.value == b.value && a.warnings == b.warnings:
      continue
    case (.failure(let a), .failure(.plist(let b))) where a == b:
      continue
    default:
      finding("windowed read (2^\(shift) x \(slots)) disagrees with the whole read", data)
    }
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  var data = fuzzData(start, count)
  if !data.starts(with: magic) { data = magic + data }
  // The single-key read (`prefs read FILE KEY`) must survive anything the full read does.
  let probe = PropertyList.binaryValue(forKey: "a", in: data)
  let whole = Result { () throws(PlistError) in try PropertyList.read(data) }
  checkWindowed(data, whole)
  guard case .success(let document) = whole else { return 0 }
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
