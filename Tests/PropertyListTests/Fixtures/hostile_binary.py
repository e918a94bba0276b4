"""The binary (bplist00) cases of make_hostile.py, built by hand so that their layout is exact
and does not depend on the Python version."""

import struct

from hostile_corpus import bad, good


# =================================================================== binary
#
# Layout: "bplist00", the objects, the offset table, a 32-byte trailer
# (6 unused bytes of which the last is the sort version, offset int size,
# object ref size, object count, top object, offset table offset; big endian).


class Arr:
    def __init__(self, refs, marker=0xA):
        self.refs, self.marker = list(refs), marker


class Dct:
    def __init__(self, keys, values):
        self.keys, self.values = list(keys), list(values)


def head(high, n):
    """Marker with a length nibble, or nibble 0xF followed by an integer object."""
    if n < 15:
        return bytes([high << 4 | n])
    return bytes([high << 4 | 0xF]) + b_int(n)


def b_int(n):
    if 0 <= n < 1 << 8:
        return b"\x10" + n.to_bytes(1, "big")
    if 0 <= n < 1 << 16:
        return b"\x11" + n.to_bytes(2, "big")
    if 0 <= n < 1 << 32:
        return b"\x12" + n.to_bytes(4, "big")
    return b"\x13" + (n & (1 << 64) - 1).to_bytes(8, "big")


def b_ascii(s):
    raw = s.encode("ascii") if isinstance(s, str) else bytes(s)
    return head(0x5, len(raw)) + raw


def b_utf16(units):
    """A UTF-16 string from a list of code units (so lone surrogates are possible)."""
    return head(0x6, len(units)) + b"".join(u.to_bytes(2, "big") for u in units)


def b_data(raw):
    return head(0x4, len(raw)) + raw


def b_real(x):
    return b"\x23" + struct.pack(">d", x)


def b_date(x):
    return b"\x33" + struct.pack(">d", x)


def b_date_bits(bits):
    return b"\x33" + bits.to_bytes(8, "big")


def min_size(n):
    size = 1
    while n >= 1 << (8 * size):
        size += 1
    return size


def encode(obj, ref_size):
    def refs(rs):
        return b"".join(r.to_bytes(ref_size, "big") for r in rs)

    if isinstance(obj, Arr):
        return head(obj.marker, len(obj.refs)) + refs(obj.refs)
    if isinstance(obj, Dct):
        assert len(obj.keys) == len(obj.values)
        return head(0xD, len(obj.keys)) + refs(obj.keys) + refs(obj.values)
    return bytes(obj)


def bplist(objs, top=0, *, magic=b"bplist00", ref_size=None, offset_size=None,
           t_offset_size=None, t_ref_size=None, t_count=None, t_top=None, t_table=None,
           patch_offsets=None, tail=b""):
    """A binary plist of `objs` (bytes, Arr or Dct); the t_* arguments overwrite trailer
    fields, patch_offsets overwrites offset-table entries ({index: offset})."""
    ref_size = ref_size or min_size(max(len(objs) - 1, 0))
    body = bytearray(magic)
    offsets = []
    for obj in objs:
        offsets.append(len(body))
        body += encode(obj, ref_size)
    body += tail
    table = len(body)
    for index, value in (patch_offsets or {}).items():
        offsets[index] = value
    offset_size = offset_size or min_size(max(offsets + [0]))
    for off in offsets:
        body += off.to_bytes(offset_size, "big")
    body += bytes(6)
    body.append(offset_size if t_offset_size is None else t_offset_size)
    body.append(ref_size if t_ref_size is None else t_ref_size)
    body += (len(objs) if t_count is None else t_count).to_bytes(8, "big")
    body += (top if t_top is None else t_top).to_bytes(8, "big")
    body += (table if t_table is None else t_table).to_bytes(8, "big")
    return bytes(body)


def layout(data):
    """(object table end = offset table offset, trailer start) of a well-formed file."""
    return int.from_bytes(data[-8:], "big"), len(data) - 32


def sample_objects():
    """A small well-formed document used as the base of the truncation cases."""
    return [
        Dct([1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]),
        b_ascii("name"), b_ascii("items"), b_ascii("blob"), b_ascii("when"),
        b_ascii("count"), b_ascii("ratio"),
        b_ascii("A moderately long ASCII string value"),
        Arr([13, 14, 15]),
        b_data(bytes(range(40))),
        b_date(700000000.5),
        b_int(123456789),
        b_real(0.25),
        b_ascii("one"), b_ascii("two"), b_utf16([0x74, 0x68, 0x72, 0xE9, 0x65]),
    ]


def binary_cases():
    sample = bplist(sample_objects())
    table, trailer = layout(sample)
    s = "s"  # a one-object filler: the string "s"

    # ---- header and size
    bad("empty.bplist", b"", ["empty"], "0 bytes")
    bad("magic-prefix-bpli.bplist", b"bpli", ["truncated"],
        "a proper prefix of bplist00: binary, cut inside the magic")
    bad("magic-bplist-only.bplist", b"bplist", ["truncated"],
        "the 6 magic letters and nothing else")
    bad("header-only.bplist", b"bplist00", ["truncated"], "the 8-byte header and nothing else")
    bad("header-plus-few-bytes.bplist", b"bplist00\x09\x08\x00\x01", ["truncated"],
        "header plus 4 bytes: too short to hold a trailer")
    bad("no-room-for-offset-table.bplist", b"bplist00\x09" + bytes(32), ["truncated"],
        "41 bytes: header, one object byte and 32 zero bytes; one byte short of the minimum")
    bad("version-bplist15.bplist", b"bplist15" + bplist([b_ascii(s)])[8:], ["unsupported", "malformed"],
        "header bplist15 (a later Apple format) followed by a bplist00 body")
    bad("version-bplist01.bplist", b"bplist01" + bplist([b_ascii(s)])[8:], ["unsupported", "malformed"],
        "header bplist01, an unknown version")

    # ---- truncation of a real document
    bad("truncated-in-object-table.bplist", sample[: (8 + table) // 2], ["truncated", "malformed"],
        "a %d-byte document cut at byte %d, inside the object table; the 'trailer' is string bytes"
        % (len(sample), (8 + table) // 2))
    bad("truncated-in-offset-table.bplist", sample[: table + (trailer - table) // 2],
        ["truncated", "malformed"], "cut in the middle of the offset table")
    bad("truncated-in-trailer.bplist", sample[: trailer + 16], ["truncated", "malformed"],
        "cut after the first 16 bytes of the trailer")
    bad("truncated-last-byte.bplist", sample[:-1], ["truncated", "malformed"],
        "the last byte of the trailer is missing, so every trailer field is shifted")

    # ---- trailer fields
    one = [b_ascii(s)]
    bad("trailer-offset-size-0.bplist", bplist(one, t_offset_size=0), ["malformed"],
        "trailer offset int size 0")
    bad("trailer-offset-size-9.bplist", bplist(one, t_offset_size=9), ["malformed"],
        "trailer offset int size 9")
    bad("trailer-ref-size-0.bplist", bplist(one, t_ref_size=0), ["malformed"],
        "trailer object ref size 0")
    bad("trailer-ref-size-9.bplist", bplist(one, t_ref_size=9), ["malformed"],
        "trailer object ref size 9")
    bad("trailer-sizes-255.bplist", bplist(one, t_offset_size=255, t_ref_size=255), ["malformed"],
        "trailer offset and ref sizes 255")
    bad("object-count-0.bplist", bplist(one, t_count=0), ["malformed"],
        "trailer object count 0")
    bad("object-count-2p63.bplist", bplist(one, t_count=1 << 63), ["malformed", "limitExceeded"],
        "trailer object count 2**63 in a 51-byte file")
    bad("object-count-max.bplist", bplist(one, t_count=(1 << 64) - 1), ["malformed", "limitExceeded"],
        "trailer object count 2**64-1 (-1 if read as signed)")
    bad("object-count-exceeds-table.bplist", bplist([b_ascii(s), b_ascii(s)], t_count=5),
        ["malformed"], "object count 5 but the offset table (which ends at the trailer) holds 2 entries")
    bad("top-object-equals-count.bplist", bplist(one, t_top=1), ["malformed"],
        "top object 1 with 1 object")
    bad("top-object-huge.bplist", bplist(one, t_top=(1 << 64) - 1), ["malformed"],
        "top object 2**64-1 (-1 if read as signed)")
    bad("offset-table-beyond-file.bplist", bplist(one, t_table=100000), ["malformed", "truncated"],
        "offset table offset 100000 in a 51-byte file")
    bad("offset-table-offset-huge.bplist", bplist(one, t_table=(1 << 64) - 1), ["malformed", "truncated"],
        "offset table offset 2**64-1 (-1 if read as signed)")
    bad("offset-table-in-header.bplist", bplist(one, t_table=2), ["malformed"],
        "offset table offset 2, inside the bplist00 header")
    bad("offset-table-in-trailer.bplist", bplist(one, t_table=len(bplist(one)) - 20), ["malformed"],
        "offset table offset points into the trailer itself")
    bad("offset-table-overflow.bplist",
        bplist(one, offset_size=8, t_count=(1 << 61) + 1), ["malformed", "limitExceeded"],
        "object count 2**61+1 with 8-byte offsets: count * size overflows 64 bits")
    bad("ref-size-too-small.bplist",
        bplist([Arr([1, 2])] + [b_ascii(s)] * 299, ref_size=1, t_ref_size=1), ["malformed"],
        "300 objects but 1-byte references, which can name only 256")

    # ---- offsets and references
    two = [Arr([1]), b_ascii(s)]
    n_two = len(bplist(two))
    t_two = layout(bplist(two))[0]
    bad("object-offset-past-offset-table.bplist", bplist(two, patch_offsets={1: t_two + 1}),
        ["malformed"], "object 1 starts inside the offset table")
    bad("object-offset-beyond-file.bplist", bplist(two, patch_offsets={1: n_two + 1000}),
        ["malformed"], "object 1 starts 1000 bytes after the end of the file")
    bad("object-offset-in-header.bplist", bplist(two, patch_offsets={1: 3}), ["malformed"],
        "object 1 starts at byte 3, inside the header")
    bad("top-offset-huge.bplist", bplist(one, offset_size=8, patch_offsets={0: (1 << 64) - 8}),
        ["malformed"], "the top object's 8-byte offset is 2**64-8 (negative if read as signed)")
    bad("reference-beyond-count.bplist", bplist([Arr([1, 7]), b_ascii(s)]), ["malformed"],
        "an array refers to object 7 of 2")
    bad("dict-key-reference-beyond-count.bplist",
        bplist([Dct([200], [1]), b_ascii(s)]), ["malformed"],
        "a dictionary key refers to object 200 of 2")
    bad("array-refs-run-past-table.bplist", bplist([b"\xA5\x01"]), ["truncated", "malformed"],
        "an array of 5 references whose bytes run into the offset table")

    # ---- cycles
    bad("cycle-self-array.bplist", bplist([Arr([0])]), ["cycle"], "an array that contains itself")
    bad("cycle-two-arrays.bplist", bplist([Arr([1]), Arr([0])]), ["cycle"],
        "array A holds array B which holds A")
    bad("cycle-dict-value-self.bplist", bplist([Dct([1], [0]), b_ascii("k")]), ["cycle"],
        "a dictionary whose value for key k is the dictionary itself")
    bad("cycle-deep.bplist",
        bplist([Arr([i + 1]) for i in range(99)] + [Arr([50])]),
        ["cycle"], "a chain of 100 arrays whose last element points back to array 50")
    bad("cycle-set-self.bplist", bplist([Arr([0], marker=0xC)]), ["cycle"],
        "a set (0xC1) that contains itself")

    # ---- expansion ("billion laughs") and depth
    laughs = [Arr([i + 1, i + 1]) for i in range(40)] + [b_ascii("lol")]
    bad("billion-laughs-arrays.bplist", bplist(laughs), ["limitExceeded"],
        "40 levels of arrays each holding the previous level twice: 2**40 values from %d bytes"
        % len(bplist(laughs)))
    dlaughs = [Dct([41, 42], [i + 1, i + 1]) for i in range(40)] + [b_ascii("lol"),
                                                                  b_ascii("a"), b_ascii("b")]
    bad("billion-laughs-dicts.bplist", bplist(dlaughs), ["limitExceeded"],
        "40 levels of dicts {a: prev, b: prev}: 2**40 values")
    wide = [Arr([1] * 16000), Arr([2] * 16000), b_ascii("lol")]
    bad("wide-laughs-arrays.bplist", bplist(wide, ref_size=1), ["limitExceeded"],
        "an array of 16000 refs to one array of 16000 refs: 256,000,000 values in 32 KB")
    deep = [Arr([i + 1]) for i in range(512)] + [Arr([])]
    bad("nested-513-arrays.bplist", bplist(deep), ["limitExceeded"],
        "513 nested arrays (the innermost empty): one past the depth limit of 512")
    deepd = [Dct([514], [i + 1]) for i in range(512)] + [Dct([], []), b_ascii("unused"), b_ascii("k")]
    bad("nested-513-dicts.bplist", bplist(deepd), ["limitExceeded"],
        "513 nested dictionaries {k: {k: ...}}: one past the depth limit")
    good("nested-512-arrays.bplist", bplist([Arr([i + 1]) for i in range(511)] + [Arr([])]),
         "512 nested arrays, the innermost empty: exactly the depth limit")
    good("nested-512-dicts.bplist",
         bplist([Dct([513], [i + 1]) for i in range(511)] + [Dct([], []), b_ascii("unused"),
                                                            b_ascii("k")]),
         "512 nested dictionaries {k: {k: ... {}}}: exactly the depth limit")
    good("shared-object-not-a-cycle.bplist",
         bplist([Arr([1, 2, 1]), Arr([3, 3]), Arr([3]), b_ascii("x")]),
         "a DAG: [[x, x], [x], [x, x]] with the inner array and x shared; not a cycle")
    bad("laughs-20-levels.bplist", bplist([Arr([i + 1, i + 1]) for i in range(20)] + [b_ascii("lol")]),
        ["limitExceeded"],
        "20 levels of arrays holding the previous level twice: 2,097,151 values, under the value "
        "limit, but 16 MiB expanded from 125 bytes: past the amplification bound (100x past 8 MiB)")
    good("laughs-16-levels.bplist", bplist([Arr([i + 1, i + 1]) for i in range(16)] + [b_ascii("lol")]),
         "16 levels of arrays holding the previous level twice: 131,071 values (about 1 MiB "
         "expanded): under the amplification bound's 8 MiB activation threshold")
    # 200 references to one array of 200 strings: 40,000 values, which CoreFoundation and
    # plistlib read; far below the activation threshold.
    good("shared-200x200.bplist",
         bplist([Arr([1] * 200), Arr(list(range(2, 202)))] + [b_ascii("s%d" % i) for i in range(200)],
                ref_size=1 if 202 < 256 else 2),
         "an array of 200 references to one array of 200 strings: 40,000 values shared")

    # ---- counts and lengths
    bad("array-count-2p62.bplist",
        bplist([b"\xAF\x13" + (1 << 62).to_bytes(8, "big") + b"\x01\x01", b_ascii(s)]),
        ["malformed", "truncated"], "array with extended count 2**62 (0xAF 0x13 + 8 bytes)")
    bad("array-count-max.bplist",
        bplist([b"\xAF\x13" + b"\xff" * 8 + b"\x01", b_ascii(s)]),
        ["malformed", "truncated"], "array with extended count 2**64-1 (-1 if read as signed)")
    bad("dict-count-2p62.bplist",
        bplist([b"\xDF\x13" + (1 << 62).to_bytes(8, "big") + b"\x01\x01", b_ascii(s)]),
        ["malformed", "truncated"], "dict with count 2**62: key+value refs overflow 64 bits")
    bad("utf16-count-2p63.bplist", bplist([b"\x6F\x13" + (1 << 63).to_bytes(8, "big") + b"\x00a"]),
        ["malformed", "truncated"], "UTF-16 string of 2**63 units (2 * count overflows 64 bits)")
    bad("string-length-beyond-file.bplist", bplist([b"\x5E" + b"abc"]), ["truncated", "malformed"],
        "ASCII string of length 14 with only 3 bytes before the offset table")
    bad("string-extended-length-beyond-file.bplist", bplist([b"\x5F\x11\x27\x10" + b"abc"]),
        ["truncated", "malformed"], "ASCII string of length 10000 in a tiny file")
    bad("data-length-beyond-file.bplist", bplist([b"\x4F\x11\x03\xE8" + b"\x01\x02"]),
        ["truncated", "malformed"], "data of length 1000 with 2 bytes present")
    bad("utf16-length-beyond-file.bplist", bplist([b"\x6A\x00a\x00b"]), ["truncated", "malformed"],
        "UTF-16 string of 10 units with 2 present")
    bad("count-marker-not-integer.bplist", bplist([b"\x5F\x23" + b"\x00" * 8 + b"abc"]),
        ["malformed"], "extended string length given as a real (0x23), not an integer")
    bad("count-marker-16-byte-int.bplist",
        bplist([b"\x5F\x14" + bytes(15) + b"\x03" + b"abc"]), ["malformed", "unsupported"],
        "extended string length given as a 16-byte integer marker 0x14 (counts are 1-8 byte integers)")
    bad("count-marker-missing.bplist", bplist([b_ascii(s), b"\x5F"], top=1),
        ["truncated", "malformed"], "top object 0x5F announces an extended length, then the offset table")
    bad("integer-cut-short.bplist", bplist([b"\x13\x00\x00\x01"]), ["truncated", "malformed"],
        "an 8-byte integer with 3 bytes before the offset table")
    bad("real-cut-short.bplist", bplist([b"\x23\x40\x09"]), ["truncated", "malformed"],
        "an 8-byte real with 2 bytes before the offset table")
    bad("date-cut-short.bplist", bplist([b"\x33\x41"]), ["truncated", "malformed"],
        "a date with 1 of its 8 bytes")

    # ---- scalars
    # Read as CoreFoundation reads them (its low 64 bits, unsigned: issue 46), with a warning.
    good("int128-beyond-64-bits.bplist", bplist([b"\x14" + (1).to_bytes(8, "big") + bytes(8)]),
         "16-byte integer 2**64: CoreFoundation reads 0, its low 64 bits")
    good("int128-bad-sign-extension.bplist",
         bplist([b"\x14" + b"\xff" * 8 + (5).to_bytes(8, "big")]),
         "16-byte integer -2**64 + 5: CoreFoundation reads 5, its low 64 bits")
    good("int128-high-half-0x80.bplist", bplist([b"\x14" + b"\x80" + bytes(15)]),
         "16-byte integer -2**127: CoreFoundation reads 0, its low 64 bits")
    bad("integer-marker-0x15.bplist", bplist([b"\x15" + bytes(31) + b"\x01"]), ["malformed"],
        "integer marker 0x15 (2**5 = 32 bytes)")
    bad("integer-marker-0x1F.bplist", bplist([b"\x1F" + bytes(8)]), ["malformed"],
        "integer marker 0x1F (2**15 bytes)")
    bad("real-marker-0x21.bplist", bplist([b"\x21\x3C\x00"]), ["malformed"],
        "real marker 0x21 (2-byte float)")
    bad("real-marker-0x24.bplist", bplist([b"\x24" + bytes(16)]), ["malformed"],
        "real marker 0x24 (16-byte float)")
    for marker in (0x70, 0x90, 0xB0, 0xE0, 0xF0):
        bad("unknown-marker-0x%02X.bplist" % marker, bplist([bytes([marker]) + bytes(8)]),
            ["malformed"], "top object has the unused marker 0x%02X" % marker)
    bad("unknown-marker-0x0C.bplist", bplist([b"\x0C" + bytes(8)]), ["malformed"],
        "marker 0x0C (URL with base in newer CF formats; not bplist00)")
    bad("unknown-marker-0x34.bplist", bplist([b"\x34" + bytes(8)]), ["malformed"],
        "marker 0x34: date markers other than 0x33 do not exist")
    bad("unknown-marker-in-array.bplist", bplist([Arr([1, 2]), b_ascii(s), b"\x70"]), ["malformed"],
        "the second element of an array has marker 0x70")
    bad("null-top-object.bplist", bplist([b"\x00"]), ["unsupported"], "top object is null (0x00)")
    bad("null-in-array.bplist", bplist([Arr([1, 2]), b_ascii(s), b"\x00"]), ["unsupported"],
        "an array element is null (0x00)")
    bad("fill-byte-object.bplist", bplist([b"\x0F"]), ["malformed"],
        "top object is the fill byte 0x0F")
    bad("ascii-string-high-byte.bplist", bplist([b_ascii(b"caf\xC3\xA9")]), ["invalidText"],
        "ASCII string (0x5n) containing the bytes C3 A9 (UTF-8 for e-acute)")
    bad("ascii-string-0x80.bplist", bplist([Arr([1]), b_ascii(b"\x80")]), ["invalidText"],
        "an array holding an ASCII string whose only byte is 0x80")
    bad("utf16-lone-high-surrogate.bplist", bplist([b_utf16([0x61, 0xD800, 0x62])]), ["invalidText"],
        "UTF-16 string a, U+D800, b")
    bad("utf16-lone-low-surrogate.bplist", bplist([b_utf16([0x61, 0xDC00, 0x62])]), ["invalidText"],
        "UTF-16 string a, U+DC00, b")
    bad("utf16-high-surrogate-at-end.bplist", bplist([b_utf16([0x61, 0xDBFF])]), ["invalidText"],
        "UTF-16 string ending in the high surrogate U+DBFF")
    bad("utf16-swapped-surrogates.bplist", bplist([b_utf16([0xDE00, 0xD83D])]), ["invalidText"],
        "UTF-16 string with a surrogate pair in the wrong order (DE00 D83D)")
    bad("dict-key-lone-surrogate.bplist", bplist([Dct([1], [2]), b_utf16([0xD800]), b_ascii("v")]),
        ["invalidText"], "a dictionary key that is a UTF-16 lone surrogate")
    bad("date-nan.bplist", bplist([b_date_bits(0x7FF8000000000000)]), ["malformed"],
        "a date of NaN seconds")
    bad("date-plus-inf.bplist", bplist([b_date_bits(0x7FF0000000000000)]), ["malformed"],
        "a date of +inf seconds")
    bad("date-minus-inf.bplist", bplist([b_date_bits(0xFFF0000000000000)]), ["malformed"],
        "a date of -inf seconds")
    bad("date-nan-in-dict.bplist", bplist([Dct([1], [2]), b_ascii("when"), b_date_bits(0x7FF8000000000001)]),
        ["malformed"], "a dictionary value that is a date of NaN (signalling bits)")
    # CoreFoundation reads a UID of any width to 16 bytes (refused above 32 bits): every verb.
    good("uid-9-bytes.bplist", bplist([b"\x88" + bytes(8) + b"\x01"]),
         "UID marker 0x88: 9 bytes of UID, the UID 1 as CoreFoundation reads it")
    good("uid-16-bytes.bplist", bplist([b"\x8F" + bytes(15) + b"\x01"]),
         "UID marker 0x8F: 16 bytes of UID, the UID 1 as CoreFoundation reads it")
    bad("dict-key-is-array.bplist", bplist([Dct([1], [2]), Arr([]), b_ascii("v")]), ["malformed"],
        "a dictionary whose key is an (empty) array")
    bad("dict-key-is-dict.bplist", bplist([Dct([0], [1]), b_ascii("v")]), ["malformed", "cycle"],
        "a dictionary whose key is the dictionary itself")
