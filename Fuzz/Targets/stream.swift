// Fuzz target `stream`: the streaming conversion of a binary property list (no values built)
// against the full path, `PropertyList.read` then the writer, for XML (strict and as
// CoreFoundation writes it), OpenStep, GNUstep (dates truncated or not) and JSON (lossless and
// not): where the stream writes, the full path reads without a warning and writes the same
// bytes; and lint's walk passes only what the full read reads without a warning. Inputs that
// do not start with `bplist00` get that magic prepended.
import Foundation
import PropertyList

private let magic = Data("bplist00".utf8)

private let targets: [(StreamFormat, truncating: Bool)] = [
  (.xml(.strict), false), (.xml(.strict), true), (.xml(.coreFoundation), false),
  (.openStep, false), (.gnustep, false), (.gnustep, true),
  (.json(lossless: true), false), (.json(lossless: false), false),
]

/// Dates floored to the second, as `prefs convert --truncate-dates` gives them to a writer.
private func floored(_ value: PlistValue) -> PlistValue {
  switch value {
  case .date(let d):
    .date(Date(timeIntervalSinceReferenceDate: d.timeIntervalSinceReferenceDate.rounded(.down)))
  case .array(let a): .array(a.map(floored))
  case .dictionary(let d): .dictionary(d.mapValues(floored))
  default: value
  }
}

private func fullPath(_ value: PlistValue, _ format: StreamFormat, truncating: Bool) -> Data? {
  let value = truncating ? floored(value) : value
  switch format {
  case .xml(let options): return try? PropertyList.write(value, as: .xml, xml: options)
  case .openStep: return try? PropertyList.write(value, as: .openStep)
  case .gnustep: return try? PropertyList.write(value, as: .gnustep)
  case .json(let lossless):
    return (try? PropertyList.json(value, lossless: lossless)).map { Data($0.utf8) }
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  var data = fuzzData(start, count)
  if !data.starts(with: magic) { data = magic + data }
  let document = try? PropertyList.read(data)
  let clean = document.map { $0.warnings.isEmpty } ?? false
  if PropertyList.isCleanBinary(data), !clean {
    finding("lint's walk passes what the full read refuses or warns about", data)
  }
  // A "billion laughs" within the limits: both sides would write it out; skipped as the
  // other targets skip their writers. The budget is a tenth of theirs: each value here is
  // written sixteen times (eight forms, stream and full path), and a document of 65,535
  // values nested 16 deep (8 MB of text) took 13 s under ASan, a timeout, not a finding.
  if let document, !withinBudget(document.value, 10_000) { return 0 }
  for (format, truncating) in targets {
    guard let streamed = PropertyList.streamed(data, as: format, truncatingDates: truncating)
    else { continue }
    guard let document, clean else {
      finding("stream wrote \(format) where the full read fails or warns", data)
    }
    guard let expected = fullPath(document.value, format, truncating: truncating) else {
      finding("stream wrote \(format) where the full path's writer refuses", data)
    }
    if streamed != expected {
      finding(
        "stream's \(format) differs from the full path's:\n"
          + String(decoding: streamed.prefix(400), as: UTF8.self) + "\n---\n"
          + String(decoding: expected.prefix(400), as: UTF8.self), data)
    }
  }
  return 0
}
