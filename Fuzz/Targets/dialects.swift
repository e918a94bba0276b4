// Fuzz target `dialects`: every typed getter of every `Dialect` on (1) the bytes as one
// string value (the hand-written number and boolean parsers get the raw fuzzer text) and
// (2) every value (and dictionary key) of the bytes read as a property list.
import Foundation
import LegacyDefaults
import PropertyList

@inline(never)
private func getters(_ value: PlistValue?) {
  for dialect in Dialect.allCases {
    _ = dialect.bool(value)
    _ = dialect.integer(value)
    _ = dialect.double(value)
    _ = dialect.float(value)
    _ = dialect.string(value)
    _ = dialect.stringArray(value)
    _ = dialect.url(value, home: "/home/fuzz")
    _ = dialect.url(value)
    _ = dialect.array(value)
    _ = dialect.dictionary(value)
    _ = dialect.data(value)
    _ = dialect.date(value)
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let data = fuzzData(start, count)
  getters(.string(String(decoding: data, as: UTF8.self)))
  if count == 0 { getters(nil) }
  if let document = try? PropertyList.read(data), withinBudget(document.value, 1_000) {
    forEachValue(document.value) { getters($0) }
  }
  return 0
}
