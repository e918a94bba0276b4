#!/usr/bin/env python3
"""Generate hostile / broken property-list files for the reader's error tests.

    python3 make_hostile.py

Deletes and rewrites, next to this script:

  hostile/      files every reader must refuse, with hostile/MANIFEST.json:
                {"files": {NAME: {"kinds": [...], "why": "..."}}}
                `kinds` lists the acceptable PlistError kinds among empty,
                truncated, malformed, invalidText, limitExceeded, cycle,
                unsupported (more than one only when each is honestly right).
  hostile-ok/   edge cases that must be read successfully (512-deep nesting,
                shared-but-acyclic binary objects, ...), with
                hostile-ok/MANIFEST.json: {"files": {NAME: {"why": "..."}}}

Standard library only, no randomness: every run writes the same bytes.
Binary files are built by hand (not with plistlib) so that their layout is
exact and does not depend on the Python version.  File extensions name the
format the reader should detect: .bplist, .xml, .openstep, .gnustep, .strings.
"""

import json
import os
import shutil
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
HOSTILE = os.path.join(HERE, "hostile")
HOSTILE_OK = os.path.join(HERE, "hostile-ok")
MAX_FILE_BYTES = 200 * 1024

KINDS = {"empty", "truncated", "malformed", "invalidText", "limitExceeded", "cycle", "unsupported"}

hostile = {}  # name -> (bytes, kinds, why)
hostile_ok = {}  # name -> (bytes, why)


def bad(name, data, kinds, why):
    assert name not in hostile, name
    assert kinds and set(kinds) <= KINDS, (name, kinds)
    assert "\n" not in why
    hostile[name] = (bytes(data), list(kinds), why)


def good(name, data, why):
    assert name not in hostile_ok, name
    hostile_ok[name] = (bytes(data), why)


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


# ====================================================================== XML

XML_HEAD = (b'<?xml version="1.0" encoding="UTF-8"?>\n'
            b'<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
            b'"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n')


def x(body):
    """A complete XML plist document around `body` (bytes or str)."""
    if isinstance(body, str):
        body = body.encode("utf-8")
    return XML_HEAD + b'<plist version="1.0">\n' + body + b"\n</plist>\n"


def xml_cases():
    bad("plist-element-empty.xml", XML_HEAD + b'<plist version="1.0"/>\n', ["malformed"],
        "<plist/> holds no value")
    bad("plist-element-empty-no-value.xml", x(""), ["malformed"],
        "<plist> ... </plist> with nothing inside")
    bad("plist-two-values.xml", x("<string>a</string>\n<string>b</string>"), ["malformed"],
        "<plist> holding two values")
    bad("dict-unclosed-at-eof.xml",
        XML_HEAD + b'<plist version="1.0">\n<dict>\n  <key>a</key>\n  <string>b</string>\n',
        ["truncated"], "a <dict> still open when the file ends")
    bad("dict-unclosed-before-plist-end.xml", x("<dict>\n  <key>a</key>\n  <string>b</string>"),
        ["malformed"], "</plist> arrives while <dict> is open")
    bad("close-tag-mismatch.xml", x("<array>\n  <string>a</string>\n</dict>"), ["malformed"],
        "<array> closed by </dict>")
    bad("close-tag-stray.xml", x("</array>"), ["malformed"], "a </array> with nothing open")
    bad("string-closed-by-wrong-tag.xml", x("<string>a</key>"), ["malformed"],
        "<string> closed by </key>")
    bad("key-without-value.xml", x("<dict>\n  <key>a</key>\n</dict>"), ["malformed"],
        "a <key> directly followed by </dict>")
    bad("key-followed-by-key.xml",
        x("<dict>\n  <key>a</key>\n  <key>b</key>\n  <string>c</string>\n</dict>"), ["malformed"],
        "two <key>s in a row")
    bad("value-without-key.xml", x("<dict>\n  <string>a</string>\n</dict>"), ["malformed"],
        "a value in a <dict> with no <key> before it")
    # CoreFoundation reads a <key> where a value stands as a string (issue 46: every verb).
    good("key-outside-dict.xml", x("<array>\n  <key>a</key>\n</array>"),
         "a <key> inside an <array>: the string, as CoreFoundation reads it")
    good("key-at-top-level.xml", x("<key>a</key>"),
         "a <key> as the plist's value: the string, as CoreFoundation reads it")
    bad("unknown-element.xml", x("<dict>\n  <key>a</key>\n  <foo/>\n</dict>"), ["malformed"],
        "unknown element <foo/> as a dictionary value")
    bad("unknown-element-top.xml", x("<set><string>a</string></set>"), ["malformed"],
        "unknown element <set>")
    bad("element-inside-string.xml", x("<string>a<b>bold</b>c</string>"), ["malformed"],
        "markup inside <string>, which holds only text")
    bad("text-between-elements.xml", x("<array>\n  hello\n  <string>a</string>\n</array>"),
        ["malformed"], "bare text between elements of an <array>")
    bad("text-instead-of-value.xml", x("just text"), ["malformed"], "bare text as the plist's value")
    bad("true-with-content.xml", x("<true>yes</true>"), ["malformed"], "<true> with text inside")
    bad("entity-undefined.xml", x("<string>&foo;</string>"), ["malformed"],
        "the undefined entity &foo;")
    bad("entity-no-semicolon.xml", x("<string>fish &amp chips &#65 and more text</string>"),
        ["malformed"], "'&amp' and '&#65' without their ';'")
    bad("ampersand-bare.xml", x("<string>fish & chips</string>"), ["malformed"],
        "a bare '&' in text")
    laughs = ['<!ENTITY lol "lol">']
    for k in range(1, 10):
        laughs.append('<!ENTITY lol%d "%s">' % (k, ("&lol%s;" % ("" if k == 1 else k - 1)) * 10))
    doc = ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist [\n  '
           + "\n  ".join(laughs) + "\n]>\n"
           + '<plist version="1.0">\n<string>&lol9;</string>\n</plist>\n').encode()
    bad("billion-laughs-doctype.xml", doc, ["malformed", "unsupported"],
        "DOCTYPE declaring 10 nested entities (10**9 'lol's) used in a <string>: must not expand")
    doc = ('<?xml version="1.0" encoding="UTF-8"?>\n'
           '<!DOCTYPE plist [\n  <!ENTITY xxe SYSTEM "file:///etc/passwd">\n]>\n'
           '<plist version="1.0">\n<string>&xxe;</string>\n</plist>\n').encode()
    bad("external-entity-doctype.xml", doc, ["malformed", "unsupported"],
        "DOCTYPE declaring an external entity (file:///etc/passwd) used in a <string>")
    doc = ('<?xml version="1.0" encoding="UTF-8"?>\n'
           '<!DOCTYPE plist [\n  <!ENTITY greeting "hello">\n]>\n'
           '<plist version="1.0">\n<dict>\n  <key>&greeting;</key>\n  <string>x</string>\n'
           '</dict>\n</plist>\n').encode()
    bad("doctype-entity-in-key.xml", doc, ["malformed", "unsupported"],
        "a harmless DOCTYPE entity used in a <key>: still never expanded")
    bad("char-ref-surrogate.xml", x("<string>&#xD800;</string>"), ["malformed", "invalidText"],
        "character reference &#xD800; (a surrogate)")
    bad("char-ref-beyond-unicode.xml", x("<string>&#x110000;</string>"),
        ["malformed", "invalidText"], "character reference &#x110000; (beyond U+10FFFF)")
    bad("char-ref-decimal-huge.xml", x("<string>&#99999999999;</string>"),
        ["malformed", "invalidText"], "decimal character reference far beyond Unicode (and 32 bits)")
    bad("char-ref-empty.xml", x("<string>&#;</string>"), ["malformed"], "character reference &#;")
    bad("char-ref-bad-hex.xml", x("<string>&#xZZ;</string>"), ["malformed"],
        "character reference &#xZZ;")
    bad("integer-too-large.xml", x("<integer>18446744073709551616</integer>"),
        ["malformed", "unsupported"], "UInt64.max + 1")
    bad("integer-too-small.xml", x("<integer>-9223372036854775809</integer>"),
        ["malformed", "unsupported"], "Int64.min - 1")
    bad("integer-hex-too-large.xml", x("<integer>0x10000000000000000</integer>"),
        ["malformed", "unsupported"], "hex integer 2**64")
    bad("integer-trailing-garbage.xml", x("<integer>12abc</integer>"), ["malformed"], "<integer>12abc")
    bad("integer-empty-element.xml", x("<integer/>"), ["malformed"], "empty <integer/>")
    bad("integer-empty-text.xml", x("<integer></integer>"), ["malformed"], "<integer></integer>")
    bad("integer-sign-only.xml", x("<integer>-</integer>"), ["malformed"], "<integer>-")
    bad("integer-real-text.xml", x("<integer>1.5</integer>"), ["malformed"], "<integer>1.5")
    bad("real-not-a-number.xml", x("<real>abc</real>"), ["malformed"], "<real>abc")
    bad("real-empty.xml", x("<real></real>"), ["malformed"], "<real></real>")
    good("date-month-13.xml", x("<date>2011-13-01T00:00:00Z</date>"),
         "month 13: CoreFoundation and GNUstep read January of the next year (with a warning)")
    good("date-feb-30.xml", x("<date>2011-02-30T00:00:00Z</date>"),
         "February 30: CoreFoundation and GNUstep read 2 March (with a warning)")
    good("date-feb-29-non-leap.xml", x("<date>2011-02-29T00:00:00Z</date>"),
         "February 29 of a common year: CoreFoundation and GNUstep read 1 March (with a warning)")
    good("date-hour-24.xml", x("<date>2011-01-01T24:00:00Z</date>"),
         "hour 24: CoreFoundation and GNUstep read midnight of the next day (with a warning)")
    good("date-second-60.xml", x("<date>2011-01-01T00:00:60Z</date>"),
         "second 60: CoreFoundation reads the next minute (with a warning)")
    bad("date-word.xml", x("<date>yesterday</date>"), ["malformed"], "<date>yesterday")
    bad("date-no-zone.xml", x("<date>2011-01-01T00:00:00</date>"), ["malformed"],
        "a date without the trailing Z")
    bad("date-empty.xml", x("<date/>"), ["malformed"], "empty <date/>")
    good("data-bad-characters.xml", x("<data>@@@@</data>"),
         "<data>@@@@: CoreFoundation skips what is not base64 and reads no bytes (with a warning); GNUstep refuses it")
    good("data-single-character.xml", x("<data>A</data>"),
         "<data>A: a last group short of four, which CoreFoundation drops (no bytes, with a warning)")
    good("data-text-after-padding.xml", x("<data>AA==AA</data>"),
         "base64 with characters after the '=' padding: CoreFoundation decodes each group of four (with a warning)")
    bad("data-element-inside.xml", x("<data>AAAA<string/>AAAA</data>"), ["malformed"],
        "an element inside <data>")

    # invalid UTF-8 inside a <string>
    bad("utf8-lone-continuation.xml", x(b"<string>a\x80b</string>"), ["invalidText"],
        "a lone continuation byte 0x80")
    bad("utf8-overlong-slash.xml", x(b"<string>a\xC0\xAFb</string>"), ["invalidText"],
        "overlong encoding C0 AF of '/'")
    bad("utf8-encoded-surrogate.xml", x(b"<string>a\xED\xA0\x80b</string>"), ["invalidText"],
        "ED A0 80: U+D800 encoded in UTF-8")
    bad("utf8-beyond-unicode.xml", x(b"<string>a\xF4\x90\x80\x80b</string>"), ["invalidText"],
        "F4 90 80 80: U+110000 encoded in UTF-8")
    bad("utf8-byte-0xFF.xml", x(b"<string>a\xFFb</string>"), ["invalidText"], "the byte 0xFF")
    bad("utf8-latin1-in-key.xml", x(b"<dict>\n  <key>caf\xE9</key>\n  <string>x</string>\n</dict>"),
        ["invalidText"], "a Latin-1 e-acute byte in a <key> of a file declared UTF-8")
    bad("utf8-truncated-at-eof.xml",
        XML_HEAD + b'<plist version="1.0">\n<string>euro \xE2\x82', ["invalidText", "truncated"],
        "the file ends inside a <string>, in the middle of the 3-byte sequence E2 82 AC")
    doc16 = ('\ufeff<?xml version="1.0" encoding="UTF-16"?>\n<plist version="1.0">\n'
             "<string>hello</string>\n</plist>\n").encode("utf-16-le")
    bad("utf16le-odd-byte-count.xml", doc16[:-1], ["invalidText", "truncated"],
        "UTF-16LE with BOM whose last code unit is cut to one byte (odd length)")
    doc16 = ('\ufeff<?xml version="1.0" encoding="UTF-16"?>\n<plist version="1.0">\n'
             "<string>hello</string>\n</plist>\n").encode("utf-16-be") + b"\x0A"
    bad("utf16be-odd-byte-count.xml", doc16, ["invalidText", "truncated"],
        "UTF-16BE with BOM plus one extra byte (odd length)")
    doc16 = ('\ufeff<?xml version="1.0" encoding="UTF-16"?>\n<plist version="1.0">\n'
             "<string>a").encode("utf-16-le") + b"\x00\xD8" + (
                 "b</string>\n</plist>\n").encode("utf-16-le")
    bad("utf16le-lone-surrogate.xml", doc16, ["invalidText"],
        "UTF-16LE with BOM holding a lone high surrogate D800 in a <string>")
    bad("encoding-unsupported.xml",
        b'<?xml version="1.0" encoding="EBCDIC-US"?>\n<plist version="1.0">\n<string>a</string>\n'
        b"</plist>\n", ["unsupported"], "an XML declaration naming the EBCDIC-US encoding")

    bad("comment-unterminated.xml", XML_HEAD + b'<plist version="1.0">\n<!-- this comment never ends\n'
        b"<string>a</string>\n</plist>\n", ["truncated"], "a <!-- comment with no -->")
    bad("comment-unterminated-in-string.xml",
        XML_HEAD + b'<plist version="1.0">\n<string>a<!-- never ends</string>\n</plist>\n',
        ["truncated"], "a <!-- comment inside <string> with no -->")
    bad("cdata-unterminated.xml", XML_HEAD + b'<plist version="1.0">\n<string><![CDATA[abc</string>\n',
        ["truncated"], "a CDATA section with no ]]>")
    # CoreFoundation leaves what follows the top value unread (issue 46: every verb, with a
    # warning).
    good("content-after-plist.xml", x("<string>a</string>") + b"<string>b</string>\n",
         "a second element after </plist>: not read, as CoreFoundation leaves it")
    good("text-after-plist.xml", x("<string>a</string>") + b"garbage\n",
         "text after </plist>: not read, as CoreFoundation leaves it")
    good("second-plist-after-plist.xml", x("<true/>") + b'<plist version="1.0"><true/></plist>\n',
         "a second <plist> element after the first: not read, as CoreFoundation leaves it")
    bad("attribute-with-lt.xml", XML_HEAD + b'<plist version="1<0">\n<true/>\n</plist>\n',
        ["malformed"], "a '<' inside an attribute value")

    bad("nested-513-arrays.xml", x("<array>" * 513 + "</array>" * 513), ["limitExceeded"],
        "513 nested <array>s inside <plist>: one past the depth limit of 512")
    bad("nested-513-dicts.xml", x("<dict><key>k</key>" * 512 + "<dict></dict>" + "</dict>" * 512),
        ["limitExceeded"], "513 nested <dict>s {k: {k: ... {}}}: one past the depth limit")
    good("nested-512-arrays.xml", x("<array>" * 512 + "</array>" * 512),
         "512 nested <array>s inside <plist>: exactly the depth limit")
    good("nested-512-arrays-empty-innermost.xml", x("<array>" * 511 + "<array/>" + "</array>" * 511),
         "511 open <array>s around an empty <array/>: 512 levels, exactly the limit")
    good("nested-512-dicts.xml", x("<dict><key>k</key>" * 511 + "<dict></dict>" + "</dict>" * 511),
         "512 nested <dict>s {k: {k: ... {}}}: exactly the depth limit")

    full = x("<dict>\n  <key>name</key>\n  <string>hello world</string>\n"
             "  <key>list</key>\n  <array>\n    <integer>1</integer>\n  </array>\n</dict>")
    cuts = [
        ("truncated-in-declaration.xml", full.index(b"encoding") + 3, "inside the <?xml ... ?> declaration"),
        ("truncated-in-doctype.xml", full.index(b"Apple//DTD") + 5, "inside a quoted string of the DOCTYPE"),
        ("truncated-in-plist-attribute.xml", full.index(b'"1.0">') + 2, 'inside version="1.0"'),
        ("truncated-in-tag-name.xml", full.index(b"<key>name") + 3, "inside the tag name <key>"),
        ("truncated-in-text.xml", full.index(b"hello world") + 5, "inside the text of a <string>"),
        ("truncated-after-key.xml", full.index(b"</key>\n  <array>") + 6, "after a <key>, before its value"),
        ("truncated-in-close-tag.xml", full.index(b"</integer>") + 5, "inside the closing tag </integer>"),
        ("truncated-in-array.xml", full.index(b"</array>"), "inside an open <array>, after an element"),
        ("truncated-before-plist-close.xml", full.index(b"</plist>"), "after the value, before </plist>"),
        ("truncated-in-plist-close.xml", full.index(b"</plist>") + 4, "inside </plist>"),
    ]
    for name, cut, where in cuts:
        bad(name, full[:cut], ["truncated"], "a valid document cut at byte %d, %s" % (cut, where))
    bad("truncated-after-xml-declaration.xml", XML_HEAD, ["truncated"],
        "the XML declaration and DOCTYPE, then nothing")


# ================================================================= OpenStep


def openstep_cases():
    o = lambda s: s.encode("utf-8") if isinstance(s, str) else s  # noqa: E731
    bad("string-unterminated.openstep", o('{ a = "never closed; }\n'), ["truncated"],
        "a quoted string with no closing quote")
    bad("string-unterminated-single-quote.openstep", o("( 'never closed )\n"), ["truncated"],
        "a single-quoted string with no closing quote")
    bad("string-escape-at-eof.openstep", o('{ a = "abc\\'), ["truncated"],
        "the file ends right after a backslash in a string")
    bad("comment-unterminated.openstep", o("{ a = b; /* this comment never ends }\n"), ["truncated"],
        "a /* comment with no */")
    bad("comment-unterminated-top.openstep", o("/* only a comment that never ends\n"), ["truncated"],
        "a file that is one unterminated /* comment")
    bad("data-unterminated.openstep", o("{ a = <0fbd"), ["truncated"], "data <0fbd with no '>'")
    bad("data-unterminated-top.openstep", o("<0fbd 7778"), ["truncated"],
        "top-level data <0fbd 7778 with no '>' (hex after '<': OpenStep, not XML)")
    bad("data-odd-hex-digits.openstep", o("{ a = <0fb>; }\n"), ["malformed"], "data <0fb>: odd hex digit count")
    bad("data-odd-hex-digits-top.openstep", o("<0fbd 7>\n"), ["malformed"],
        "top-level data <0fbd 7>: odd hex digit count")
    bad("data-non-hex.openstep", o("{ a = <0fzz>; }\n"), ["malformed"], "data <0fzz>")
    bad("dict-missing-equals.openstep", o("{ a b; }\n"), ["malformed"], "{ a b; }: no '='")
    bad("dict-key-without-value.openstep", o("{ a = b; c }\n"), ["malformed"],
        "{ a = b; c }: key c with no '=' or value")
    bad("dict-missing-value.openstep", o("{ a = ; }\n"), ["malformed"], "{ a = ; }")
    bad("dict-missing-semicolon.openstep", o("{ a = b c = d; }\n"), ["malformed"],
        "{ a = b c = d; }: no ';' between entries")
    bad("dict-key-is-array.openstep", o("{ (a) = b; }\n"), ["malformed"], "an array as a key")
    bad("dict-key-is-dict.openstep", o("{ {a = b;} = c; }\n"), ["malformed"], "a dictionary as a key")
    bad("dict-key-is-data.openstep", o("{ <00> = c; }\n"), ["malformed"], "data as a key")
    bad("dict-closed-by-paren.openstep", o("{ a = b; )\n"), ["malformed"], "{ closed by )")
    bad("array-missing-comma.openstep", o("( a b )\n"), ["malformed"], "( a b ): no comma")
    bad("array-double-comma.openstep", o("( a, , b )\n"), ["malformed"], "( a, , b )")
    bad("array-closed-by-brace.openstep", o("( a, b }\n"), ["malformed"], "( closed by }")
    bad("lone-close-paren.openstep", o(")\n"), ["malformed"], "a lone )")
    bad("lone-close-brace.openstep", o("}\n"), ["malformed"], "a lone }")
    bad("lone-open-brace.openstep", o("{\n"), ["truncated"], "a lone {")
    bad("lone-open-paren.openstep", o("(\n"), ["truncated"], "a lone (")
    bad("dict-unterminated.openstep", o("{ a = b;\n  c = d;\n"), ["truncated"], "a dictionary with no }")
    bad("array-unterminated.openstep", o("( a, b"), ["truncated"], "an array with no )")
    bad("content-after-value.openstep", o("( a ) b\n"), ["malformed"], "( a ) followed by b")
    bad("two-dicts.openstep", o("{ a = b; }\n{ c = d; }\n"), ["malformed"], "two top-level dictionaries")
    bad("unexpected-character.openstep", o("{ a = `b; }\n"),
        ["malformed"], "'`' where a value should start (GNUstep refuses it too)")
    good("unquoted-gnustep-characters.openstep", o("{ a = #b; c = a+b; d = x@y!; }\n"),
         "unquoted strings with characters GNUstep reads bare (# + @ !) and CoreFoundation does not")
    good("unicode-escape-no-digits.openstep", o('{ a = "\\Uzz"; }\n'),
         "\\U without hex digits: U+0000, as CoreFoundation and GNUstep read it")

    bad("octal-escape-377.openstep", o('"\\377"\n'), ["unsupported"],
        'the string "\\377": octal escapes above \\177 name NeXTSTEP-encoded bytes')
    bad("octal-escape-200-in-dict.openstep", o('{ a = "x\\200y"; }\n'), ["unsupported"],
        "octal escape \\200")
    bad("utf8-latin1-byte.openstep", o(b'{ a = "caf\xE9"; }\n'), ["invalidText"],
        "a Latin-1 e-acute byte in a file that is not valid UTF-8")
    bad("utf8-lone-continuation.openstep", o(b"( a\x80b )\n"), ["invalidText"],
        "a lone 0x80 in an unquoted string")
    bad("utf8-overlong.openstep", o(b'{ "a\xC0\xAF" = b; }\n'), ["invalidText"],
        "overlong C0 AF in a key")
    bad("utf8-encoded-surrogate.openstep", o(b'( "\xED\xA0\x80" )\n'), ["invalidText"],
        "ED A0 80 (U+D800 in UTF-8)")
    bad("utf8-truncated-at-eof.openstep", o(b'( "euro \xE2\x82'), ["invalidText", "truncated"],
        "the file ends inside a string, in the middle of a 3-byte UTF-8 sequence")
    bad("unicode-escape-lone-high-surrogate.openstep", o('"\\UD800"\n'), ["invalidText"],
        '"\\UD800": a lone high surrogate')
    bad("unicode-escape-lone-low-surrogate.openstep", o('{ a = "x\\UDC00y"; }\n'), ["invalidText"],
        "\\UDC00: a lone low surrogate")
    bad("unicode-escape-swapped-surrogates.openstep", o('( "\\UDE00\\UD83D" )\n'), ["invalidText"],
        "a surrogate pair in the wrong order")
    bad("utf16be-odd-byte-count.openstep", "\ufeff{ a = b; }\n".encode("utf-16-be") + b"\x0A",
        ["invalidText", "truncated"], "UTF-16BE with BOM plus one extra byte (odd length)")
    bad("utf16le-lone-surrogate.openstep",
        "\ufeff( a, ".encode("utf-16-le") + b"\x00\xDC" + " )\n".encode("utf-16-le"),
        ["invalidText"], "UTF-16LE with BOM holding a lone low surrogate DC00")

    bad("nested-513-arrays.openstep", o("(" * 513 + ")" * 513 + "\n"), ["limitExceeded"],
        "513 nested arrays: one past the depth limit of 512")
    bad("nested-513-dicts.openstep", o("{a=" * 512 + "{}" + ";}" * 512 + "\n"), ["limitExceeded"],
        "513 nested dictionaries {a={a=...{}}}: one past the depth limit")
    bad("nested-513-unterminated.openstep", o("(" * 600), ["limitExceeded", "truncated"],
        "600 '(' and nothing else: past the depth limit before the end of the file")
    good("nested-512-arrays.openstep", o("(" * 512 + ")" * 512 + "\n"),
         "512 nested arrays: exactly the depth limit")
    good("nested-512-dicts.openstep", o("{a=" * 511 + "{}" + ";}" * 511 + "\n"),
         "512 nested dictionaries {a={a=...{}}}: exactly the depth limit")
    good("dict-no-final-semicolon.openstep", o("{ a = b; c = d }\n"),
         "the ';' before '}' may be left out (GNUstep and CoreFoundation accept it)")

    # GNUstep typed values
    bad("typed-integer-too-large.gnustep", o("<*I99999999999999999999>\n"), ["malformed", "unsupported"],
        "<*I99999999999999999999>: beyond 64 bits")
    bad("typed-integer-too-small.gnustep", o("<*I-9223372036854775809>\n"), ["malformed", "unsupported"],
        "<*I-9223372036854775809>: Int64.min - 1")
    bad("typed-integer-not-a-number.gnustep", o("<*Iabc>\n"), ["malformed"], "<*Iabc>")
    bad("typed-integer-empty.gnustep", o("<*I>\n"), ["malformed"], "<*I>")
    bad("typed-real-empty.gnustep", o("<*R>\n"), ["malformed"], "<*R>")
    bad("typed-real-word.gnustep", o("{ a = <*Rabc>; }\n"), ["malformed"], "<*Rabc>")
    bad("typed-bool-bad.gnustep", o("<*Bx>\n"), ["malformed"], "<*Bx>: neither Y nor N")
    bad("typed-date-feb-30.gnustep", o("<*D2011-02-30 00:00:00 +0000>\n"), ["malformed"],
        "<*D2011-02-30 00:00:00 +0000>: February 30")
    bad("typed-date-month-13.gnustep", o("( <*D2011-13-01 00:00:00 +0000> )\n"), ["malformed"],
        "<*D2011-13-01 ...>: month 13")
    bad("typed-date-garbage.gnustep", o("<*Dyesterday>\n"), ["malformed"], "<*Dyesterday>")
    bad("typed-date-bad-zone.gnustep", o("<*D2011-01-01 00:00:00 +0099>\n"), ["malformed"],
        "<*D... +0099>: zone minutes 99")
    bad("typed-unknown-type.gnustep", o("<*Q1>\n"), ["unsupported"], "<*Q1>: unknown type letter Q")
    bad("typed-unterminated.gnustep", o("<*I42"), ["truncated"], "<*I42 with no '>'")
    bad("typed-no-type-letter.gnustep", o("<*"), ["truncated"], "<* and then end of file")
    bad("base64-data-bad.gnustep", o("<[@@@@]>\n"), ["malformed"], "<[@@@@]>: not base64")
    bad("base64-data-unterminated.gnustep", o("<[D713eA=="), ["truncated"], "<[D713eA== with no ]>")

    # .strings files
    bad("strings-missing-final-pair-value.strings", o("a = b; c"), ["truncated"],
        "a = b; c: the key c is followed by the end of the file")
    bad("strings-missing-value.strings", o("a = ;\n"), ["malformed"], "a = ;")
    bad("strings-missing-semicolon.strings", o('"a" = "b"\n"c" = "d";\n'), ["malformed"],
        'no ";" after the first pair')
    bad("strings-missing-semicolon-at-eof.strings", o('"a" = "b";\n"c" = "d"'), ["truncated"],
        'the last pair has no ";" before the end of the file')
    bad("strings-string-unterminated.strings", o('"a" = "b;\n'), ["truncated"],
        "a .strings value with no closing quote")
    good("strings-key-is-array.strings", o('"a" = "b";\n(c) = "d";\n'),
         "a strings file whose key is an array: CoreFoundation keeps the entries before it (with a warning)")


# ==================================================================== write


def write_all():
    for d in (HOSTILE, HOSTILE_OK):
        if os.path.isdir(d):
            shutil.rmtree(d)
        os.makedirs(d)
    manifest = {}
    for name in sorted(hostile):
        data, kinds, why = hostile[name]
        assert len(data) < MAX_FILE_BYTES, (name, len(data))
        with open(os.path.join(HOSTILE, name), "wb") as f:
            f.write(data)
        manifest[name] = {"kinds": kinds, "why": why}
    with open(os.path.join(HOSTILE, "MANIFEST.json"), "w", encoding="utf-8") as f:
        json.dump({"files": manifest}, f, indent=2, sort_keys=True, ensure_ascii=False)
        f.write("\n")
    manifest = {}
    for name in sorted(hostile_ok):
        data, why = hostile_ok[name]
        assert len(data) < MAX_FILE_BYTES, (name, len(data))
        with open(os.path.join(HOSTILE_OK, name), "wb") as f:
            f.write(data)
        manifest[name] = {"why": why}
    with open(os.path.join(HOSTILE_OK, "MANIFEST.json"), "w", encoding="utf-8") as f:
        json.dump({"files": manifest}, f, indent=2, sort_keys=True, ensure_ascii=False)
        f.write("\n")


def main():
    binary_cases()
    xml_cases()
    openstep_cases()
    write_all()
    print("hostile: %d files, hostile-ok: %d files" % (len(hostile), len(hostile_ok)))


if __name__ == "__main__":
    sys.exit(main())
