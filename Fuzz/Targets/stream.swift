// Fuzz target `stream`: the streaming conversion of a binary property list (no values built)
// against the full path, `PropertyList.read` then the writer, for every format (XML also as
// CoreFoundation writes it, dates truncated or not where a format holds whole seconds) and
// JSON (lossless and not): where the stream writes, the full path reads without a warning and writes the same
// bytes; and lint's walk passes only what the full read reads without a warning. Inputs that
// do not start with `bplist00` get that magic prepended.
import Foundation
import PropertyList

private let magic = Data("bplist00".utf8)

/// What the stream writes: a property-list format (XML with its write options), or JSON.
private enum Target: CustomStringConvertible {
  case plist(PlistFormat, xml: XMLWriteOptions)
  case json(lossless: Bool)

  var description: String {
    switch self {
    case .plist(let format, let options): options == .strict ? "\(format)" : "\(format) \(options)"
    case .json(let lossless): lossless ? "JSON" : "display JSON"
    }
  }
}

/// Every format, with `--truncate-dates` too where its dates hold whole seconds (binary,
/// which no file streams into, must stream nothing), XML as CoreFoundation writes it, JSON
/// either way.
private let targets: [(Target, truncating: Bool)] =
  PlistFormat.allCases.flatMap { format -> [(Target, truncating: Bool)] in
    [(.plist(format, xml: .strict), false)]
      + (format.holdsDatesToTheSecond ? [(.plist(format, xml: .strict), true)] : [])
  } + [
    (.plist(.xml, xml: .coreFoundation), false), (.json(lossless: true), false),
    (.json(lossless: false), false),
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

private func fullPath(_ value: PlistValue, _ target: Target, truncating: Bool) -> Data? {
  switch target {
  case .plist(let format, let options):
    let value = truncating && format.holdsDatesToTheSecond ? floored(value) : value
    return try? PropertyList.write(value, as: format, xml: options)
  case .json(let lossless):
    return (try? PropertyList.json(value, lossless: lossless)).map { Data($0.utf8) }
  }
}

private func streamed(_ data: Data, _ target: Target, truncating: Bool) -> Data? {
  switch target {
  case .plist(let format, let options):
    PropertyList.streamed(data, as: format, xml: options, truncatingDates: truncating)
  case .json(let lossless): PropertyList.streamedJSON(data, lossless: lossless)
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
    guard let streamed = streamed(data, format, truncating: truncating) else { continue }
    if case .plist(.binary, _) = format {
      finding("stream wrote binary, which it never writes", data)
    }
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
