#!/usr/bin/env python3
"""Makes the inputs of Scripts/differential.sh: seed files (the repository's fixtures, the
sample, and any folders named with --seeds), generated documents, and mutations of both.

    generate.py OUT --count N [--seed S] [--seeds DIR]...

writes OUT/inputs/<n>.plist and OUT/manifest.tsv (n, kind, origin). The same arguments give
the same files. Kinds: seed, generated-{xml,binary,openstep,gnustep,strings}, hand-built
binary files (duplicate keys, keys that are not strings, UIDs of every width, bytes between
the offset table and the trailer, wrong offset and reference widths), and mutations: byte
flips, truncations, splices, duplicate keys, deep nesting, entities, encodings; and issue 46's
families: structure-aware binary changes (a marker's kind, count or width, a set, a null, a
16-byte integer, a reference or offset moved), dates in year 0 and of -0.0, strings with
U+FEFF and U+FFFE, XML declarations of other encodings, DOCTYPEs and what follows </plist>,
white space in an <integer>, OpenStep escapes."""
import argparse, datetime, math, os, plistlib, random, struct, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from mutations import (  # noqa: E402
    TEXT_TRICKS, XML_TRICKS, binary_structure, deep, doctype, duplicate_key, encoding, entities,
    flip, openstep_escapes, splice, truncate, xml_doc, xml_encoding)
ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURE_DIRS = [
    "Tests/PropertyListTests/Fixtures/valid",
    "Tests/PropertyListTests/Fixtures/hostile",
    "Tests/PropertyListTests/Fixtures/hostile-ok",
    "Tests/PropertyListTests/Fixtures/fuzz-regressions",
    "Tests/LegacyDefaultsTests/Fixtures",
    "Legacy/Samples",
]
MAX_SEED = 256 << 10


def seed_files(extra):
    found = []
    for d in [os.path.join(ROOT, x) for x in FIXTURE_DIRS] + extra:
        for base, _, names in os.walk(d):
            for name in sorted(names):
                if name.endswith((".json", ".md", ".py", ".sh", ".m", ".swift", ".txt")):
                    continue
                path = os.path.join(base, name)
                if 0 < os.path.getsize(path) <= MAX_SEED:
                    found.append(path)
    return sorted(set(found))


# MARK: generated values

WORDS = ["a", "key", "PREFS_SOUND_ENABLED", "NSLanguages", "CF$UID", "$objects", "é", "日本",
         "😀", "a b", "x\"y", "back\\slash", "tab\there", "new\nline", "", "*", "+", "a+b",
         "YES", "12", " 12", "-0", "u00e9", "\u00e9", "e\u0301", "\ufeffbom", "\r", "&amp;",
         "\ufffeab", "a\ufeffb", "a\ufffeb", "&\ufeff", "<\ufeffx", "\ufffe\ufffe", "ab\ufeff"]


def random_string(r):
    if r.random() < 0.6:
        return r.choice(WORDS)
    n = r.randrange(0, 12)
    pools = ["abcXYZ019_$/:.-", " \t!#%&*+?@^|~,;=<>(){}[]'\"\\", "éüß€日本😀\u0301\ufeff\ufffe",
             "\x01\x07\x1f"]
    pool = "".join(r.choice(pools) for _ in range(2))
    return "".join(r.choice(pool) for _ in range(n))


def random_value(r, depth=0, gnustep=False):
    kinds = ["string", "int", "real", "bool", "date", "data"]
    if depth < 4:
        kinds += ["array", "dict", "dict"]
    k = r.choice(kinds)
    if k == "string":
        return random_string(r)
    if k == "int":
        return r.choice([0, 1, -1, 5, 255, 256, 65535, 65536, 2**31 - 1, 2**31, 2**32, 2**32 + 5,
                         2**63 - 1, -2**63, 2**64 - 1, r.randrange(-10**6, 10**6)])
    if k == "real":
        return r.choice([0.0, -0.0, 1.5, -2.25, 0.1, 1e300, 5e-324, float("inf"), float("-inf"),
                         float("nan"), 3.0, r.uniform(-1e6, 1e6)])
    if k == "bool":
        return r.random() < 0.5
    if k == "date":
        seconds = r.choice([0, -1, 1, 321808166, 978307200, -978307200, 4e9,
                            r.randrange(-10**9, 2 * 10**9)])
        micro = r.choice([0, 0, 0, 500000, 123456])
        try:
            return datetime.datetime(2001, 1, 1) + datetime.timedelta(seconds=seconds,
                                                                     microseconds=micro)
        except OverflowError:
            return datetime.datetime(2001, 1, 1)
    if k == "data":
        return bytes(r.randrange(256) for _ in range(r.choice([0, 1, 2, 3, 4, 16, 57])))
    if k == "array":
        return [random_value(r, depth + 1, gnustep) for _ in range(r.randrange(0, 5))]
    d = {}
    for _ in range(r.randrange(0, 6)):
        d[random_string(r)] = random_value(r, depth + 1, gnustep)
    return d


def openstep_string(r, s):
    bare = s and all(c.isalnum() and c.isascii() or c in "_$/:.-" for c in s)
    if bare and r.random() < 0.5:
        return s
    out = []
    for c in s:
        o = ord(c)
        if c in '"\\':
            out.append("\\" + c)
        elif c == "\n" and r.random() < 0.5:
            out.append("\\n")
        elif o > 0x7F and r.random() < 0.4:
            if o > 0xFFFF:
                hi, lo = 0xD800 + ((o - 0x10000) >> 10), 0xDC00 + ((o - 0x10000) & 0x3FF)
                out.append("\\U%04x\\U%04x" % (hi, lo))
            else:
                out.append(r.choice(["\\U%04x", "\\u%04x", "\\U%04X"]) % o)
        elif o < 0x20 and r.random() < 0.5:
            out.append("\\%03o" % o)
        else:
            out.append(c)
    q = '"'
    return q + "".join(out) + q


def openstep_text(r, v, gnustep, depth=0):
    if isinstance(v, str):
        return openstep_string(r, v)
    if isinstance(v, bool):
        return ("<*BY>" if v else "<*BN>") if gnustep else openstep_string(r, "1" if v else "0")
    if isinstance(v, int):
        return "<*I%d>" % v if gnustep else openstep_string(r, str(v))
    if isinstance(v, float):
        return "<*R%r>" % v if gnustep and math.isfinite(v) else openstep_string(r, repr(v))
    if isinstance(v, datetime.datetime):
        text = v.strftime("%Y-%m-%d %H:%M:%S +0000")
        return "<*D%s>" % text if gnustep else openstep_string(r, text)
    if isinstance(v, bytes):
        if gnustep and r.random() < 0.3:
            import base64
            return "<[%s]>" % base64.b64encode(v).decode()
        return "<" + " ".join(v[k:k + 4].hex() for k in range(0, len(v), 4)) + ">"
    if isinstance(v, list):
        sep = r.choice([", ", ",", ",\n"])
        trail = "," if v and r.random() < 0.2 else ""
        return "(" + sep.join(openstep_text(r, x, gnustep, depth + 1) for x in v) + trail + ")"
    entries = "".join("%s = %s; " % (openstep_string(r, k), openstep_text(r, x, gnustep, depth + 1))
                      for k, x in v.items())
    if entries and r.random() < 0.1:
        entries = entries.rstrip("; ")  # GNUstep reads a missing last ';'
    comment = r.choice(["", "", "/* c */ ", "// c\n"])
    return "{" + comment + entries + "}"


def strings_file(r):
    lines = []
    for _ in range(r.randrange(0, 6)):
        k = openstep_string(r, random_string(r))
        form = r.random()
        if form < 0.1:
            lines.append("%s;" % k)
        elif form < 0.15:
            lines.append("* = %s;" % openstep_string(r, random_string(r)))
        elif form < 0.2:
            lines.append("'%s' = '%s';" % (random_string(r).replace("'", "").replace("\\", ""),
                                         random_string(r).replace("'", "").replace("\\", "")))
        else:
            lines.append("%s = %s;" % (k, openstep_string(r, random_string(r))))
        if r.random() < 0.1:
            lines.append(r.choice(["/* comment */", "// comment", "junk", "}", "\"unterminated"]))
    return "\n".join(lines) + "\n"


def clean(v):
    """plistlib cannot write NaN keys etc.: make a value plistlib writes."""
    if isinstance(v, dict):
        return {k: clean(x) for k, x in v.items()}
    if isinstance(v, list):
        return [clean(x) for x in v]
    if isinstance(v, int) and not isinstance(v, bool) and not -2**63 <= v < 2**64:
        return 0
    return v


def generated(r):
    v = clean(random_value(r))
    fmt = r.choice(["xml", "xml", "binary", "binary", "openstep", "gnustep", "strings"])
    if fmt in ("xml", "binary"):
        if r.random() < 0.15:
            v = {"$archiver": "NSKeyedArchiver", "$top": {"root": plistlib.UID(r.choice(
                [0, 1, 255, 256, 65535, 2**31, 2**32 - 1]))}, "$objects": ["$null", v]}
        try:
            data = plistlib.dumps(v, fmt=plistlib.FMT_XML if fmt == "xml" else plistlib.FMT_BINARY,
                                  sort_keys=r.random() < 0.5)
        except (OverflowError, TypeError, ValueError):
            data = plistlib.dumps({"k": "v"})
        return "generated-" + fmt, data
    if fmt == "strings":
        return "generated-strings", strings_file(r).encode()
    if not isinstance(v, (dict, list)):
        v = {"k": v}
    return "generated-" + fmt, openstep_text(r, v, fmt == "gnustep").encode()


# MARK: hand-built binary files

def bplist(objects, top=0, refsize=1, offsize=None, gap=b"", version=b"00"):
    out = bytearray(b"bplist" + version)
    offs = []
    for o in objects:
        offs.append(len(out))
        out += o
    table = len(out)
    if offsize is None:
        offsize = max(1, (max(offs).bit_length() + 7) // 8)
    for o in offs:  # (a width of 0 is written in 1 byte, and named 0 in the trailer)
        out += o.to_bytes(max(offsize, 1), "big")
    out += gap
    out += bytes(6) + bytes([offsize, refsize]) + len(objects).to_bytes(8, "big")
    out += top.to_bytes(8, "big") + table.to_bytes(8, "big")
    return bytes(out)


def b_str(t):
    b = t.encode("ascii", "replace") if all(ord(c) < 128 for c in t) else None
    if b is not None:
        return (bytes([0x50 | len(b)]) if len(b) < 15 else bytes([0x5F, 0x10, len(b)])) + b
    u = t.encode("utf-16-be", "surrogatepass")
    n = len(u) // 2
    return (bytes([0x60 | n]) if n < 15 else bytes([0x6F, 0x10, n])) + u


def b_int(n, width=None):
    if width is None:
        width = 1 if 0 <= n < 256 else 2 if 0 <= n < 65536 else 4 if 0 <= n < 2**32 else 8
    code = {1: 0, 2: 1, 4: 2, 8: 3, 16: 4}[width]
    return bytes([0x10 | code]) + (n % (1 << (8 * width))).to_bytes(width, "big")


def b_uid(n, width):
    return bytes([0x80 | (width - 1)]) + (n % (1 << (8 * width))).to_bytes(width, "big")


def hand_built(r):
    kind = r.choice(["dupkey", "dupkey", "intkey", "realkey", "uid", "uid", "gap", "widths",
                     "float32", "int16", "int16", "version", "dupkey-nested", "date-edge",
                     "date-edge", "set", "null", "marks"])
    if kind == "date-edge":
        # Year 0 (0000-01-01, 0000-02-29, 0000-03-01), year 1, year -1, -0.0, 0.5 s, far dates.
        year0 = -63145526400.0
        seconds = r.choice([year0, year0 + 59 * 86400, year0 + 60 * 86400, year0 + 366 * 86400,
                            year0 - 366 * 86400, -0.0, 0.0, 0.5, -0.5, 1e15, -1e15, 5e14,
                            252423907200.0, 252423993600.0, year0 + r.randrange(0, 366) * 86400])
        date = bytes([0x33]) + struct.pack(">d", seconds)
        if r.random() < 0.5:
            return "binary-date-edge", bplist([bytes([0xA1, 1]), date])
        return "binary-date-edge", bplist([bytes([0xD1, 1, 2]), b_str("d"), date])
    if kind == "set":
        n = r.randrange(0, 3)
        objs = [bytes([0xC0 | n]) + bytes(range(1, n + 1))] + [b_str(c) for c in "ab"[:n]]
        if r.random() < 0.5:
            objs = [bytes([0xD1, 1, 2]), b_str("s")] + [bytes([0xC0 | n]) + bytes(range(3, 3 + n))] \
                + [b_str(c) for c in "ab"[:n]]
        return "binary-set", bplist(objs)
    if kind == "null":
        if r.random() < 0.5:
            return "binary-null", bplist([bytes([0x00])])
        return "binary-null", bplist([bytes([0xD1, 1, 2]), b_str("n"), bytes([0x00])])
    if kind == "marks":
        # UTF-16 strings with U+FEFF and U+FFFE at the start, inside, at the end.
        text = r.choice(["\ufeffa", "\ufffeab", "a\ufeffb", "a\ufffeb", "ab\ufeff", "\ufffe",
                         "\ufeff\ufeffx", "\ufffe\ufeffx", "&\ufeff"])
        units = text.encode("utf-16-be")
        s16 = bytes([0x60 | (len(units) // 2)]) + units
        if r.random() < 0.5:
            return "binary-marks", bplist([bytes([0xA1, 1]), s16])
        return "binary-marks", bplist([bytes([0xD1, 1, 2]), s16, b_str("v")])
    if kind == "dupkey":
        k = r.choice(["a", "CF$UID", "é", "PREFS_RANKING_SIZE"])
        vals = [b_int(r.randrange(100)), b_int(r.randrange(100)), b_str("x")]
        n = r.randrange(2, 4)
        keys = [1] * n
        objs = [bytes([0xD0 | n]) + bytes(keys) + bytes(range(2, 2 + n)), b_str(k)]
        objs += [vals[i % 3] for i in range(n)]
        return "binary-duplicate-key", bplist(objs)
    if kind == "dupkey-nested":
        objs = [bytes([0xA1, 1]), bytes([0xD3, 2, 3, 2, 4, 5, 6]), b_str("a"), b_str("b"),
                b_int(1), b_int(2), b_int(3)]
        return "binary-duplicate-key", bplist(objs)
    if kind in ("intkey", "realkey"):
        key = b_int(5) if kind == "intkey" else bytes([0x23]) + struct.pack(">d", 1.5)
        objs = [bytes([0xD2, 1, 2, 3, 4]), key, b_str("s"), b_str("v"), b_str("w")]
        return "binary-nonstring-key", bplist(objs)
    if kind == "uid":
        width = r.choice([1, 2, 3, 4, 5, 8, 9, 16])
        value = r.choice([0, 7, 255, 65535, 2**31, 2**32 - 1, 2**32, 2**32 + 5, 2**63])
        return "binary-uid", bplist([bytes([0xA1, 1]), b_uid(value, width)])
    if kind == "gap":
        gap = bytes(r.randrange(1, 40))
        objs = [bytes([0xD1, 1, 2]), b_str("k"), b_str("v")]
        return "binary-gap-before-trailer", bplist(objs, gap=gap)
    if kind == "widths":
        objs = [bytes([0xA2, 1, 2]), b_str("k"), b_int(r.randrange(1000))]
        return "binary-wrong-widths", bplist(objs, refsize=r.choice([0, 1, 2, 3, 9]),
                                             offsize=r.choice([0, 1, 2, 3, 5, 9]))
    if kind == "float32":
        f = r.choice([0.0, -0.0, 1.5, float("nan"), float("inf"), 0.1])
        return "binary-float32", bplist([bytes([0xA1, 1]), bytes([0x22]) + struct.pack(">f", f)])
    if kind == "int16":
        n = r.choice([0, 1, 2**64 - 1, 2**63, -1, -2**63, 2**70])
        return "binary-int16", bplist([bytes([0xA1, 1]), b_int(n % (1 << 128), 16)])
    return "binary-version", bplist([b_str("x")], version=r.choice([b"01", b"0\x00", b"1.0"]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=36)
    ap.add_argument("--seeds", action="append", default=[])
    args = ap.parse_args()
    r = random.Random(args.seed)
    inputs = os.path.join(args.out, "inputs")
    os.makedirs(inputs, exist_ok=True)
    seeds = seed_files(args.seeds)
    seed_bytes = []
    for path in seeds:
        with open(path, "rb") as f:
            seed_bytes.append((os.path.relpath(path, ROOT) if path.startswith(ROOT) else path,
                               f.read()))
    made = []

    def add(kind, origin, data):
        made.append((kind, origin, data))

    for origin, data in seed_bytes:
        add("seed", origin, data)
    for body in XML_TRICKS:
        add("trick-xml", "generate.py", xml_doc(body))
    for text in TEXT_TRICKS:
        add("trick-text", "generate.py", text)
    pool = [d for _, d in seed_bytes]
    # The generated families after the first two, each up to its bound of the roll (issue 46's
    # the last three).
    families = [
        (0.35, "deep-nesting", deep), (0.37, "entities", entities),
        (0.39, "xml-encoding", xml_encoding), (0.41, "doctype", doctype),
        (0.43, "openstep-escapes", openstep_escapes),
    ]
    while len(made) < args.count:
        roll = r.random()
        if roll < 0.25:
            kind, data = generated(r)
            add(kind, "generated", data)
            pool.append(data)
            if len(pool) > 4000:
                pool.pop(r.randrange(len(seed_bytes), len(pool)))
            continue
        if roll < 0.33:
            kind, data = hand_built(r)
            add(kind, "generated", data)
            continue
        family = next(((kind, make) for bound, kind, make in families if roll < bound), None)
        if family:
            add(family[0], "generated", family[1](r))
            continue
        base = r.choice(pool)
        m = r.random()
        if m < 0.35 and base.startswith(b"bplist00"):
            add("binary-structure", "mutation", binary_structure(r, base))
        elif m < 0.3:
            add("byte-flip", "mutation", flip(r, base))
        elif m < 0.5:
            add("truncation", "mutation", truncate(r, base))
        elif m < 0.65:
            add("splice", "mutation", splice(r, base, r.choice(pool)))
        elif m < 0.75:
            add("duplicate-key", "mutation", duplicate_key(r, base))
        elif m < 0.9:
            add("encoding", "mutation", encoding(r, base))
        else:
            add("trick-xml", "mutation", xml_doc(r.choice(XML_TRICKS), decl=r.random() < 0.8,
                                                 doctype=r.random() < 0.5))
    with open(os.path.join(args.out, "manifest.tsv"), "w") as manifest:
        for n, (kind, origin, data) in enumerate(made):
            name = os.path.join(inputs, "%05d.plist" % n)
            with open(name, "wb") as f:
                f.write(data)
            manifest.write("%d\t%s\t%s\t%s\n" % (n, kind, origin, name))
    print("%d inputs (%d seeds) in %s" % (len(made), len(seed_bytes), inputs), file=sys.stderr)


if __name__ == "__main__":
    main()
