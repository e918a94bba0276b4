import Foundation
import PropertyList
import TestSupport
import Testing

/// Typed JSON (`read --typed`, `write KEY -json VALUE`): every kind of value out and back in
/// without loss, checked against python's plistlib, which writes the file read and reads the
/// file written, and whose own encoding of the format (below) is the expected text. (A UID
/// has its tag too, but a domain refuses one: it belongs in keyed archives.)
@Suite struct TypedJSONTests {
  static let binary = External.product("prefs")

  /// plistlib's values, and their typed JSON as the format's table says (python's encoder,
  /// independent of the command's), and a type-exact comparison of two typed JSON texts.
  static let python = #"""
    import base64, datetime, json, math, plistlib, sys
    TAGS = {"$date", "$data", "$real", "$uid", "$dict"}
    REF = datetime.datetime(2001, 1, 1)
    VALUE = {
        "string": "it's \"quoted\"\nand ünïcode ✓", "empty": "", "yes": True, "no": False,
        "int": 5, "negative": -9223372036854775808, "beyond32": 4294967296 * 3 + 1,
        "unsigned": 18446744073709551615, "real": 0.1, "whole": 3.0, "tiny": 5e-324,
        "huge": 1e300, "negzero": -0.0, "nan": float("nan"), "inf": float("inf"),
        "ninf": float("-inf"),
        "date": datetime.datetime(2011, 3, 14, 15, 9, 26),
        "fraction": datetime.datetime(2011, 3, 14, 15, 9, 26, 500000),
        "data": bytes(range(40)), "nodata": b"",
        "list": [1, "a", {"nested": [True, 2.5, {"deeper": b"\x00"}]}, []],
        "dict": {}, "tagged": {"$date": "not a date"}, "dollar": {"$date": 1, "other": 2},
    }
    def typed(v):
        if isinstance(v, bool) or isinstance(v, int) or isinstance(v, str): return v
        if isinstance(v, float):
            if math.isnan(v): return {"$real": "nan"}
            if math.isinf(v): return {"$real": "inf" if v > 0 else "-inf"}
            return v
        if isinstance(v, bytes): return {"$data": base64.b64encode(v).decode()}
        if isinstance(v, datetime.datetime):
            return {"$date": v.isoformat() + "Z"}
        if isinstance(v, plistlib.UID): return {"$uid": v.data}
        if isinstance(v, list): return [typed(x) for x in v]
        d = {k: typed(x) for k, x in v.items()}
        return {"$dict": d} if len(d) == 1 and next(iter(d)) in TAGS else d
    def exact(v):
        # A canonical form that tells every kind apart (1, 1.0 and True differ).
        if isinstance(v, bool): return ["bool", v]
        if isinstance(v, int): return ["int", v]
        if isinstance(v, float): return ["real", repr(v)]
        if isinstance(v, str): return ["string", v]
        if isinstance(v, list): return ["array", [exact(x) for x in v]]
        if len(v) == 1:
            (tag, inner), = v.items()
            if tag == "$date":
                when = (REF + datetime.timedelta(seconds=inner) if not isinstance(inner, str)
                        else datetime.datetime.fromisoformat(inner.replace("Z", "")))
                return ["date", when.isoformat()]
            if tag == "$data": return ["data", inner]
            if tag == "$real": return ["real", repr(float(inner))]
            if tag == "$uid": return ["uid", inner]
            if tag == "$dict": v = inner
        return ["dict", sorted((k, exact(x)) for k, x in v.items())]
    command = sys.argv[1]
    if command == "write":
        with open(sys.argv[2], "wb") as f: plistlib.dump({"v": VALUE}, f, fmt=plistlib.FMT_BINARY)
        print(json.dumps(typed(VALUE)))
    elif command == "same":
        a, b = json.loads(sys.argv[2]), json.loads(sys.argv[3])
        print("same" if exact(a) == exact(b) else json.dumps([exact(a), exact(b)]))
    elif command == "load":
        with open(sys.argv[2], "rb") as f: print(json.dumps(typed(plistlib.load(f)["v"])))
    """#

  static func python(_ arguments: [String]) throws -> String {
    let result = try External.run("/usr/bin/env", ["python3", "-c", python] + arguments)
    guard result.status == 0 else { throw TypedJSONError(description: result.stderr) }
    return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test(.enabled(if: Tools.python || External.required, "needs python3"))
  func everyKindReadsAsPythonEncodesItAndWritesBackAsItWas() throws {
    let folder = try TemporaryFolder()
    let legacy = folder.file("from-plistlib.plist").path
    let expected = try Self.python(["write", legacy])
    // Out: what prefs reads from plistlib's file is python's typed JSON, kind for kind.
    let read = try External.run(Self.binary, ["read", legacy, "v", "--typed"])
    #expect(read.status == 0, "\(read.stderr)")
    #expect(try Self.python(["same", read.output, expected]) == "same")
    // In: python's typed JSON written by prefs is what plistlib wrote.
    let written = folder.file("from-prefs.plist").path
    try PropertyList.write([:], as: .binary).write(to: URL(fileURLWithPath: written))
    let write = try External.run(Self.binary, ["write", written, "v", "-json", expected])
    #expect(write.status == 0, "\(write.stderr)")
    #expect(try Self.python(["same", try Self.python(["load", written]), expected]) == "same")
    // And the command's own output reads back as the same value (the diff is empty).
    let again = try External.run(Self.binary, ["write", written, "w", "-json", read.output])
    #expect(again.status == 0, "\(again.stderr)")
    let values = try PropertyList.read(Data(contentsOf: URL(fileURLWithPath: written))).value
    #expect(
      values.dictionaryValue?["v"].map { "\($0)" } == values.dictionaryValue?["w"].map { "\($0)" })
  }

  /// `-json` as one element of `-array` and `-dict`, and what it refuses (with 64 and the place).
  @Test func typedJSONIsAnElementToAndRefusesNull() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("d.plist").path
    try PropertyList.write([:], as: .binary).write(to: URL(fileURLWithPath: file))
    let array = try External.run(
      Self.binary, ["write", file, "a", "-array", "-json", #"{"$data": "AAE="}"#, "-int", "4"])
    #expect(array.status == 0, "\(array.stderr)")
    let read = try External.run(Self.binary, ["read", file, "a", "--typed"])
    #expect(read.output == "[\n  {\n    \"$data\": \"AAE=\"\n  },\n  4\n]\n")
    for bad in ["null", #"{"a": [1, null]}"#, #"{"$date": "soon"}"#, #"{"$data": "!!"}"#, "[1,"] {
      let refused = try External.run(Self.binary, ["write", file, "b", "-json", bad])
      #expect(refused.status == 64, "\(bad): \(refused.stderr)")
      #expect(refused.stderr.contains("-json takes typed JSON"), "\(refused.stderr)")
    }
    let nested = try External.run(Self.binary, ["write", file, "b", "-json", #"{"a": [1, null]}"#])
    #expect(nested.stderr.contains("at a.1: null"), "\(nested.stderr)")
  }
}
