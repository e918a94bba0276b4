// Shared by every fuzz target (compiled into each one). Not part of the package.
import Foundation
import PropertyList

/// The input as `Data` (copied: the product code may keep it).
@inline(__always)
func fuzzData(_ start: UnsafeRawPointer, _ count: Int) -> Data {
  Data(bytes: start, count: count)
}

/// A broken invariant: print what and abort, so libFuzzer saves the input as a crash.
func finding(_ message: String, _ bytes: Data? = nil) -> Never {
  var text = "FUZZ FINDING: \(message)\n"
  if let bytes {
    let shown = bytes.prefix(512)
    text += "  bytes (\(bytes.count)): \(String(decoding: shown, as: UTF8.self).debugDescription)\n"
  }
  FileHandle.standardError.write(Data(text.utf8))
  abort()
}

/// Known findings that can be masked while they are open, so that a long run finds something
/// else: `FUZZ_MASK=uid-xml,...` (run.sh passes the environment through). Default: none.
///   uid-xml  the XML round trip of a UID above Int64.max (reads back as a CF$UID dictionary)
let masks: Set<String> = Set(
  (ProcessInfo.processInfo.environment["FUZZ_MASK"] ?? "").split(separator: ",").map(String.init))

/// Whether `value` holds a UID above Int64.max (the `uid-xml` finding).
func holdsLargeUID(_ value: PlistValue) -> Bool {
  var found = false
  forEachValue(value) { if case .uid(let u) = $0, u > UInt64(Int64.max) { found = true } }
  return found
}

/// Writes `value` as `format`; when the writer accepts it, the output must read back (in that
/// format family) as a value `==` to `value`, and writing that value again must give the same
/// bytes (the writers promise determinism). A writer refusal is fine.
func checkRoundTrip(_ value: PlistValue, as format: PlistFormat, _ label: String) {
  if format == .xml, masks.contains("uid-xml"), holdsLargeUID(value) { return }
  let bytes: Data
  do {
    bytes = try PropertyList.write(value, as: format)
  } catch {
    return
  }
  let document: PlistDocument
  do {
    document = try PropertyList.read(bytes)
  } catch {
    finding("\(label): the \(format) writer's output does not read back: \(error)", bytes)
  }
  guard format.family.contains(document.format) else {
    finding("\(label): \(format) output sniffed as \(document.format)", bytes)
  }
  guard document.value == value else {
    let (path, before, after) = firstDifference(value, document.value)
    finding(
      "\(label): \(format) round trip changed the value at \(path)\n"
        + "  before: \(before.map(summary) ?? "(absent)")\n"
        + "  after:  \(after.map(summary) ?? "(absent)")", bytes)
  }
  let again: Data
  do {
    again = try PropertyList.write(document.value, as: format)
  } catch {
    finding("\(label): \(format) writer refuses the value it wrote and read back: \(error)", bytes)
  }
  guard again == bytes else {
    finding("\(label): \(format) writer is not deterministic for equal values", bytes)
  }
}

/// Whether `value` has at most `budget` values when shared subtrees are counted every time they
/// appear (as writers and walkers see them). Readers accept up to 20 million such values (a
/// "billion laughs" DAG of a few hundred bytes gets there); the targets skip the writers and
/// getters above the budget so that one such input does not turn into a multi-second timeout
/// on every mutation. The reader itself always runs with the default limits.
func withinBudget(_ value: PlistValue, _ budget: Int = 100_000) -> Bool {
  var stack: [PlistValue] = [value]
  var seen = 0
  while let next = stack.popLast() {
    seen += 1
    if seen > budget { return false }
    switch next {
    case .array(let elements): stack.append(contentsOf: elements)
    case .dictionary(let entries): stack.append(contentsOf: entries.values)
    default: break
    }
  }
  return true
}

/// Where two unequal values first differ: a key path (`$`, `$[3]`, `$.key`) and the two
/// values there (nil: absent on that side).
func firstDifference(_ a: PlistValue, _ b: PlistValue, _ path: String = "$")
  -> (String, PlistValue?, PlistValue?)
{
  switch (a, b) {
  case (.array(let x), .array(let y)) where x.count == y.count:
    for (i, (p, q)) in zip(x, y).enumerated() where p != q {
      return firstDifference(p, q, "\(path)[\(i)]")
    }
  case (.dictionary(let x), .dictionary(let y)):
    for key in Set(x.keys).union(y.keys).sorted() where x[key] != y[key] {
      guard let p = x[key], let q = y[key] else { return ("\(path).\(key)", x[key], y[key]) }
      return firstDifference(p, q, "\(path).\(key)")
    }
  default: break
  }
  return (path, a, b)
}

/// A short description for finding messages.
func summary(_ value: PlistValue) -> String {
  let text = String(describing: value)
  return text.count > 400 ? String(text.prefix(400)) + "…" : text
}

/// Every value in `value` (itself included), depth first, with the dictionary keys as strings.
func forEachValue(_ value: PlistValue, _ body: (PlistValue) -> Void) {
  var stack: [PlistValue] = [value]
  while let next = stack.popLast() {
    body(next)
    switch next {
    case .array(let elements): stack.append(contentsOf: elements)
    case .dictionary(let entries):
      for (key, element) in entries {
        body(.string(key))
        stack.append(element)
      }
    default: break
    }
  }
}
