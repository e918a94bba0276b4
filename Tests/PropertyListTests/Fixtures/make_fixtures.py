#!/usr/bin/env python3
"""Generate the property-list fixtures in valid/ with independent writers.

Called by make-fixtures.sh, which builds the GNUstep helpers first:

    make_fixtures.py VALID_DIR GNUSTEP_DUMP GNUSTEP_WRITE

Writers:  python plistlib (NAME.plistlib.xml / .bplist),
          plistutil from libplist (NAME.plistutil.xml made from the plistlib
            binary file, NAME.plistutil.bplist from the plistlib XML file),
          GNUstep NSPropertyListSerialization (NAME.gnustep.openstep /
          .gnustep / .xml / .bplist).

NAME.expected.json is the typed-JSON form of the python value.  A written
file X whose content reads back differently gets its own X.expected.json:
  * plistlib / plistutil files are read back with python plistlib;
  * GNUstep files are read back with GNUstep (gnustep_dump), and the XML and
    binary ones are additionally cross-checked with plistlib; a GNUstep file
    that GNUstep cannot read back, or that the two readers disagree on, is
    not kept (the reason is printed).
Hand-written GNUstep text files (HAND_WRITTEN) are never touched; their
NAME.expected.json comes from parsing them with GNUstep.
"""

import base64
import datetime
import json
import math
import os
import plistlib
import random
import subprocess
import sys

EPOCH_2001 = datetime.datetime(2001, 1, 1)

# Hand-written text fixtures: file name -> extra gnustep_dump arguments.
HAND_WRITTEN = {
    "strings-file.strings": ["--strings"],
    "openstep-syntax.openstep": [],
    "gnustep-typed.gnustep": [],
}

GNUSTEP_FORMATS = [  # (gnustep_write format, file suffix)
    ("openstep", "openstep"),
    ("gnustep", "gnustep"),
    ("xml", "xml"),
    ("binary", "bplist"),
]


# ---------------------------------------------------------------- typed JSON

def typed(v):
    """python plist value -> typed JSON object."""
    if isinstance(v, bool):
        return {"bool": v}
    if isinstance(v, int):
        return {"integer": str(v)}
    if isinstance(v, float):
        return {"real": real_repr(v)}
    if isinstance(v, str):
        return {"string": v}
    if isinstance(v, (bytes, bytearray)):
        return {"data": base64.b64encode(bytes(v)).decode("ascii")}
    if isinstance(v, datetime.datetime):
        if v.tzinfo is not None:
            v = v.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return {"date": real_repr((v - EPOCH_2001).total_seconds())}
    if isinstance(v, plistlib.UID):
        return {"uid": str(v.data)}
    if isinstance(v, (list, tuple)):
        return {"array": [typed(x) for x in v]}
    if isinstance(v, dict):
        return {"dict": {k: typed(x) for k, x in v.items()}}
    raise TypeError("unsupported value %r" % (v,))


def real_repr(f):
    if math.isnan(f):
        return "nan"
    if math.isinf(f):
        return "inf" if f > 0 else "-inf"
    return repr(f)


def normalize_gnustep(t):
    """raw gnustep_dump output -> typed JSON (python repr reals, base64)."""
    (kind, v), = t.items()
    if kind in ("real", "date"):
        return {kind: real_repr(float(v))}
    if kind == "integer":
        return {kind: str(int(v))}
    if kind == "hexdata":
        return {"data": base64.b64encode(bytes.fromhex(v)).decode("ascii")}
    if kind == "array":
        return {kind: [normalize_gnustep(x) for x in v]}
    if kind == "dict":
        return {kind: {k: normalize_gnustep(x) for k, x in v.items()}}
    return {kind: v}


def dumps_typed(t):
    return json.dumps(t, ensure_ascii=False, sort_keys=True, indent=1) + "\n"


# --------------------------------------------------------------------- cases

def d(y, mo, day, h=0, mi=0, s=0, us=0):
    return datetime.datetime(y, mo, day, h, mi, s, us)


def deep_value(levels=100):
    """100 levels, alternating arrays and dicts, with a scalar at each level."""
    v = "bottom"
    for i in range(levels - 1, -1, -1):
        if i % 2 == 0:
            v = {"level": i, "next": v}
        else:
            v = [i, v]
    return v


def cases():
    rng = random.Random(42)
    return {
        "all-types": {
            "string": "hello",
            "integer": 42,
            "negative": -17,
            "real": 3.5,
            "true": True,
            "false": False,
            "date": d(2024, 1, 15, 10, 30, 0),
            "data": b"\x00\x01\x02\xfe\xff",
            "array": ["a", 1, 2.5, True, b"\x10"],
            "dict": {"inner": "value", "number": 7, "list": [False, "x"]},
        },
        "unicode": {
            "café": "naïve résumé",
            "日本語": "漢字かなカナ",
            "서울": "한국어 텍스트",
            "emoji": "😀🎉 family: 👨\u200d👩\u200d👧 flag: 🇰🇷",
            "🔑": "astral-plane key",
            "hebrew": "שלום עולם",
            "arabic": "مرحبا بالعالم",
            "combining": "e\u0301 a\u0308 n\u0303 Z\u0335\u0322",
            "e\u0301-key": "key with a combining mark",
            "": "value of the empty key",
            "mixed": "ASCII, ü, 中, 😀 in one",
        },
        "empty-containers": {
            "emptyDict": {},
            "emptyArray": [],
            "emptyString": "",
            "emptyData": b"",
            "nested": {"a": [[], {}], "d": {"e": {}}},
            "arrayOfEmpties": [{}, [], "", b""],
        },
        "integers": {
            "zero": 0,
            "one": 1,
            "minusOne": -1,
            "i8max": 127,
            "i8maxPlus1": 128,
            "u8max": 255,
            "u8maxPlus1": 256,
            "u16max": 65535,
            "u16maxPlus1": 65536,
            "i32max": 2**31 - 1,
            "i32maxPlus1": 2**31,
            "u32maxPlus1": 2**32,
            "i64min": -2**63,
            "i64max": 2**63 - 1,
            "u64max": 2**64 - 1,
        },
        "reals": {
            "zero": 0.0,
            "negZero": -0.0,
            "tenth": 0.1,
            "small": 1e-7,
            "big": 1e20,
            "fivePointSeven": 5.7,
            "one": 1.0,
            "pi": 3.141592653589793,
            "max": 1.7976931348623157e308,
            "minSubnormal": 5e-324,
            "nan": float("nan"),
            "inf": float("inf"),
            "negInf": float("-inf"),
        },
        # reals without nan/inf/-0.0: plistlib's binary writer merges 0.0
        # and -0.0 into one object, and GNUstep's binary writer writes a
        # corrupt file when the value holds a nan.
        "reals-finite": {
            "zero": 0.0,
            "tenth": 0.1,
            "small": 1e-7,
            "big": 1e20,
            "fivePointSeven": 5.7,
            "one": 1.0,
            "minusOnePointFive": -1.5,
            "pi": 3.141592653589793,
            "thirdNeeds17Digits": 0.30000000000000004,
            "max": 1.7976931348623157e308,
            "minNormal": 2.2250738585072014e-308,
            "minSubnormal": 5e-324,
        },
        "dates": {
            "whole": d(2024, 1, 15, 10, 30, 0),
            "referenceDate": d(2001, 1, 1),
            "secondBefore2001": d(2000, 12, 31, 23, 59, 59),
            "unixEpoch": d(1970, 1, 1),
            "before1970": d(1969, 7, 20, 20, 17, 40),
            "year1900": d(1900, 1, 1),
            "halfSecond": d(2011, 3, 14, 15, 9, 26, 500000),
            "microseconds": d(2011, 3, 14, 15, 9, 26, 123456),
            "fractionBefore2001": d(1999, 12, 31, 23, 59, 59, 250000),
        },
        "large-data": {"blob": rng.randbytes(100 * 1024)},
        "deep": deep_value(100),
        "top-array": ["one", 2, 3.5, True, {"k": "v"}, [], b"\x01"],
        "top-string": "just a top-level string",
        "many-keys": {"key%04d" % i: i for i in range(2000)},
        "legacy-preference": {
            "PREFS_SOUND_ENABLED": True,
            "PREFS_RANKING_SIZE": 12,
            "colorMode": "dark",
            "locationHistory":
                b'{"history":[{"address":"Seoul","lat":"37.5","lon":"127.0"}]}',
        },
        "uid": {
            "small": plistlib.UID(5),
            "large": plistlib.UID(300),
            "inArray": [plistlib.UID(0), plistlib.UID(1)],
        },
        "special-strings": {
            "amp": "&",
            "lt": "<",
            "gt": ">",
            "quote": '"',
            "apostrophe": "'",
            "backslash": "\\",
            "tab": "a\tb",
            "newline": "a\nb",
            "cr": "a\rb",
            "crlf": "a\r\nb",
            "padded": "  leading and trailing  ",
            "yes": "YES",
            "no": "NO",
            "spaceTwelve": " 12",
            "twelve": "12",
            "xmlLike": "<key>&amp;</key>",
            "cdataEnd": "]]>",
            "openstepPunctuation": "a;b=c,(d){e}<f>",
            "commentLike": "/* not a comment */ // nor this",
            "long": ("0123456789abcdefghijklmnopqrstuvwxyz" * 28)[:1000],
        },
    }


# ------------------------------------------------------------------- helpers

def write_bytes(path, data):
    with open(path, "wb") as f:
        f.write(data)


def write_text(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def plistlib_typed(path):
    with open(path, "rb") as f:
        return typed(plistlib.load(f))


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


class Generator:
    def __init__(self, valid, dump, write):
        self.valid = valid
        self.dump = dump
        self.write = write
        self.notes = []

    def p(self, name):
        return os.path.join(self.valid, name)

    def note(self, msg):
        self.notes.append(msg)
        print("  note: " + msg)

    def gnustep_typed(self, path, extra=()):
        r = run([self.dump, *extra, path])
        if r.returncode != 0:
            return None, r.stderr.strip()
        return normalize_gnustep(json.loads(r.stdout)), r.stderr.strip()

    def keep_or_expect(self, fname, t, expected, why):
        """Write fname.expected.json if t differs from the case expectation."""
        if t != expected:
            write_text(self.p(fname + ".expected.json"), dumps_typed(t))
            self.note("%s reads back differently (%s): own expected file"
                      % (fname, why))

    def clean(self):
        for fname in sorted(os.listdir(self.valid)):
            if fname not in HAND_WRITTEN:
                os.remove(self.p(fname))

    def case(self, name, value):
        print(name)
        expected = typed(value)
        write_text(self.p(name + ".expected.json"), dumps_typed(expected))

        # python plistlib
        lossless_xml = False
        for fmt, ext in ((plistlib.FMT_XML, "xml"), (plistlib.FMT_BINARY, "bplist")):
            fname = "%s.plistlib.%s" % (name, ext)
            try:
                data = plistlib.dumps(value, fmt=fmt, sort_keys=True)
            except (TypeError, ValueError, OverflowError) as e:
                self.note("plistlib cannot write %s: %s" % (fname, e))
                continue
            write_bytes(self.p(fname), data)
            t = plistlib_typed(self.p(fname))
            self.keep_or_expect(fname, t, expected, "plistlib")
            if ext == "xml":
                lossless_xml = (t == expected)

        # plistutil 2.2 copies its input unchanged when the input and output
        # formats are the same, so it always converts across formats:
        # its XML from the plistlib binary file, its binary from the plistlib
        # XML file (or, if plistlib could not write XML, from its own XML).
        pu_xml = self.p(name + ".plistutil.xml")
        pu_bin = self.p(name + ".plistutil.bplist")
        xml_source = self.p(name + ".plistlib.xml")
        if not os.path.exists(xml_source):
            xml_source = pu_xml
        for src, out, flag in ((self.p(name + ".plistlib.bplist"), pu_xml, "xml"),
                               (xml_source, pu_bin, "bin")):
            r = run(["plistutil", "-i", src, "-o", out, "-f", flag])
            if r.returncode != 0:
                raise SystemExit("plistutil failed on %s: %s" % (out, r.stderr))
            self.keep_or_expect(os.path.basename(out), plistlib_typed(out),
                                expected, "plistlib reading plistutil output")

        # GNUstep reads the plistlib XML file, unless that lost something.
        if lossless_xml:
            source = self.p(name + ".plistlib.xml")
        else:
            source = self.p(name + ".plistlib.bplist")
            self.note("GNUstep input for %s is the plistlib binary file" % name)

        # GNUstep
        if name == "uid":
            self.note("no GNUstep files for uid: GNUstep reads a binary UID as "
                      "the dictionary {CF$UID = n}")
            return
        for fmt, ext in GNUSTEP_FORMATS:
            fname = "%s.gnustep.%s" % (name, ext)
            out = self.p(fname)
            r = run([self.write, source, out, fmt])
            if r.returncode != 0:
                self.note("GNUstep did not write %s: %s" % (fname, r.stderr.strip()))
                if os.path.exists(out):
                    os.remove(out)
                continue
            t, err = self.gnustep_typed(out)
            if t is None:
                self.note("dropped %s: GNUstep cannot read its own output: %s"
                          % (fname, err))
                os.remove(out)
                continue
            if ext in ("xml", "bplist"):
                try:
                    pt = plistlib_typed(out)
                except Exception as e:  # noqa: BLE001 - report any failure
                    pt = "plistlib error: %s" % e
                if pt != t:
                    self.note("dropped %s: plistlib and GNUstep read it "
                              "differently" % fname)
                    os.remove(out)
                    continue
            self.keep_or_expect(fname, t, expected, "GNUstep")

    def hand_written(self):
        for fname, extra in sorted(HAND_WRITTEN.items()):
            print(fname)
            path = self.p(fname)
            if not os.path.exists(path):
                raise SystemExit("missing hand-written fixture " + path)
            t, err = self.gnustep_typed(path, extra)
            if t is None:
                raise SystemExit("GNUstep cannot parse %s: %s" % (fname, err))
            name = fname.split(".", 1)[0]
            write_text(self.p(name + ".expected.json"), dumps_typed(t))


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    valid, dump, write = sys.argv[1:]
    gen = Generator(valid, dump, write)
    gen.clean()
    for name, value in cases().items():
        gen.case(name, value)
    gen.hand_written()
    print("%d files in %s" % (len(os.listdir(valid)), valid))


if __name__ == "__main__":
    main()
