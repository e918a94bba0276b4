// Fuzz target `binary`: the binary property-list reader, its single-key lookup and its
// windowed read of a file (how a store loads a large domain: the same document or the same
// error, with pages small enough to split every object and a budget that sends some walks to
// the whole-file read midway), then the binary and XML writers on whatever it accepts. Inputs that do not start with `bplist00` get that magic prepended, so
// every execution reaches the binary reader.
import Foundation
import PropertyList

#if canImport(Glibc)
  import Glibc
#endif

private let magic = Data("bplist00".utf8)

/// One unlinked temporary file the windowed reads read, rewritten for each input.
nonisolated(unsafe) private let scratch: Int32 = {
  var template = Array("/tmp/prefs-fuzz-binary-XXXXXX".utf8CString)
  return template.withUnsafeMutableBufferPointer { name -> Int32 in
    guard let path = name.baseAddress else { return -1 }
    let fd = mkstemp(path)
    if fd >= 0 { unlink(path) }
    return fd
  }
}()

/// The windowed read of `data` against the whole read, in three shapes of window.
private func checkWindowed(_ data: Data, _ whole: Result<PlistDocument, PlistError>) {
  guard scratch >= 0, ftruncate(scratch, 0) == 0 else { return }
  let written = data.withUnsafeBytes { pwrite(scratch, $0.baseAddress, $0.count, 0) }
  guard written == data.count else { return }
  for (shift, slots, budget) in [(4, 2, nil), (6, 3, data.count / 2), (14, 16, nil)]
    as [(Int, Int, Int?)]
  {
    let windowed = PropertyList.readBinary(
      fileDescriptor: scratch, size: data.count, pageShift: shift, slots: slots, budget: budget)
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
