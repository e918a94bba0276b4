// Fuzz target `openstep`: the bytes as they are (the sniffer decides, mostly OpenStep and
// GNUstep text), and a round trip through the GNUstep writer when it accepts the value.
import Foundation
import PropertyList

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let data = fuzzData(start, count)
  guard let document = try? PropertyList.read(data) else { return 0 }
  guard withinBudget(document.value) else { return 0 }
  checkRoundTrip(document.value, as: .gnustep, "openstep")
  checkRoundTrip(document.value, as: .openStep, "openstep")
  return 0
}
