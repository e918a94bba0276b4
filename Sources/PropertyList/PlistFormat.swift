#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The on-disk encodings of a property list.
public enum PlistFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Apple's XML plist (`<?xml … <plist version="1.0">`).
  case xml
  /// Apple's binary plist, `bplist00`.
  case binary
  /// The NeXT/OpenStep text format: strings, data, arrays and dictionaries only.
  case openStep = "openstep"
  /// OpenStep text with GNUstep's typed extensions (`<*I42>`, `<*R1.5>`, `<*BY>`, `<*D…>`).
  case gnustep

  /// The format's name in messages: `XML`, `binary`, `OpenStep`, `GNUstep`.
  public var description: String { witness.name }
}

extension PlistFormat {
  /// The format's witness: how its bytes are recognised, read, written and streamed into
  /// (`PlistFormatWitness`). A new format is a case above, its line here (the compiler asks
  /// for it), and its witness beside its reader and writer.
  var witness: any PlistFormatWitness.Type {
    switch self {
    case .xml: XMLPlist.self
    case .binary: BinaryPlist.self
    case .openStep: OpenStepPlist.self
    case .gnustep: GNUstepPlist.self
    }
  }

  /// The formats a document in this format reads back as (OpenStep text with a typed value
  /// in it is GNUstep's, GNUstep's without one OpenStep's).
  package var family: [PlistFormat] { witness.family }

  /// Whether the format's dates hold whole seconds (XML, GNUstep text): a fraction is dropped
  /// before writing (`--truncate-dates`, a store's domain file), or refused.
  package var holdsDatesToTheSecond: Bool { witness.holdsDatesToTheSecond }
}
