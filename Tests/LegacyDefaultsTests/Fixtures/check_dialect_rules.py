#!/usr/bin/env python3
"""Executable form of the rules in DIALECTS.md: computes what the `gnustep` and
`corelibs` getters return for every key of the dialect corpus and compares
that with the references' saved dumps (dialect-corpus.F.R-dump.json).

    check_dialect_rules.py [FIXTURES_DIR]

Exit status 0 when every getter of every key of every dump matches, except the
cases listed in KNOWN_UNDEFINED (behaviour the references get from undefined C
behaviour; DIALECTS.md says what prefs should do instead).  `url` is checked
for non-string values only (for strings it depends on the file system).
"""
import ctypes, datetime, json, math, os, plistlib, struct, sys
from fractions import Fraction

INT64_MIN, INT64_MAX = -2**63, 2**63 - 1

# --- character sets (UTF-16 code units) ------------------------------------

C_ISSPACE = {0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20}            # glibc isspace, "C" locale
# CF / GNUstep  whitespaceCharacterSet and newlineCharacterSet
WHITESPACE = {0x09, 0x20, 0xA0, 0x1680, 0x202F, 0x205F, 0x3000} | set(range(0x2000, 0x200C))
NEWLINES = {0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029}
WHITESPACE_NEWLINES = WHITESPACE | NEWLINES
DIGITS = set(range(0x30, 0x3A))


class Trap(Exception):
    pass


def units(s):
    b = s.encode("utf-16-le", "surrogatepass")
    return list(struct.unpack("<%dH" % (len(b) // 2), b))


def f32(x):
    """C (float)x: round to nearest even, overflow to inf."""
    return ctypes.c_float(x).value


def f32_of_decimal(text):
    """Correctly rounded decimal string -> float32 (Swift's Float(String))."""
    q = Fraction(text)
    if q == 0:
        return -0.0 if text.lstrip().startswith("-") else 0.0
    if abs(q) >= 2**128:
        return math.inf if q > 0 else -math.inf
    c = f32(float(q))
    if math.isinf(c):
        biggest = Fraction(struct.unpack("<f", struct.pack("<I", 0x7F7FFFFF))[0])
        half_ulp = Fraction(2) ** 103
        return c if abs(q) >= biggest + half_ulp else math.copysign(float(biggest), c)
    bits = struct.unpack("<I", struct.pack("<f", c))[0]
    best = c
    for nb in (bits - 1, bits + 1):
        if nb < 0 or (nb & 0x7F800000) == 0x7F800000:
            continue
        cand = struct.unpack("<f", struct.pack("<I", nb))[0]
        d_best, d_cand = abs(Fraction(best) - q), abs(Fraction(cand) - q)
        if d_cand < d_best or (d_cand == d_best and nb % 2 == 0):
            best = cand
    return best


def c_double_to_int64(x):
    """x86-64 cvttsd2si: truncation; NaN and out of range give INT64_MIN."""
    if math.isnan(x) or x >= 2.0**63 or x < -(2.0**63):
        return INT64_MIN
    return int(x)


def clamp64(n):
    return max(INT64_MIN, min(INT64_MAX, n))


# --- gnustep ----------------------------------------------------------------

POWERS = [1e1, 1e2, 1e4, 1e8, 1e16, 1e32, 1e64, 1e128, 1e256]


def gs_string_bool(s):
    for c in units(s):
        if c > 0x79:                       # > 'y'
            return False
        if c == 0 or chr(c) in "123456789yYtT":   # NUL: strchr finds the terminator
            return True
        if c not in C_ISSPACE and chr(c) not in "0-+":
            return False
    return False


def gs_string_integer(s):
    u, i, buf = units(s), 0, ""
    while i < len(u) and u[i] in C_ISSPACE:
        i += 1
    if i < len(u) and u[i] in (0x2B, 0x2D):
        buf += chr(u[i])
        i += 1
    while i < len(u) and len(buf) < 20 and u[i] in DIGITS:
        buf += chr(u[i])
        i += 1
    digits = buf.lstrip("+-")
    return clamp64(int(buf)) if digits else 0


def gs_string_double(s):
    u, n, i = units(s), len(units(s)), 0
    while i < n and u[i] in WHITESPACE_NEWLINES:
        i += 1
    if i >= n:
        return 0.0
    neg = False
    if u[i] == 0x2B:
        i += 1
    elif u[i] == 0x2D:
        i += 1
        neg = True
    if i >= n:
        return 0.0
    mant, dot, shift, any_digit = [], -1, 0, False
    while i < n:
        c = u[i]
        if c not in DIGITS:
            if dot >= 0 or c != 0x2E:
                break
            dot = len(mant)
        else:
            any_digit = True
            if not mant and c == 0x30:
                if dot >= 0:
                    shift += 1
            elif len(mant) < 19:
                mant.append(c - 0x30)
        i += 1
    if not any_digit:
        return 0.0
    mant = mant[:18]
    if dot < 0:
        dot = len(mant)
    dot -= len(mant)
    hi = lo = 0
    for d in mant[:-9] if len(mant) > 9 else []:
        hi = hi * 10 + d
    for d in mant[-9:]:
        lo = lo * 10 + d
    result = 1.0e9 * hi + lo
    exponent, neg_exp = 0, False
    if i < n and u[i] in (0x45, 0x65):
        j = i + 1
        if j < n:
            if u[j] == 0x2B:
                j += 1
            elif u[j] == 0x2D:
                j += 1
                neg_exp = True
            if j < n and u[j] in DIGITS:
                while j < n and u[j] in DIGITS:
                    exponent = exponent * 10 + u[j] - 0x30
                    j += 1
    exponent = dot - exponent if neg_exp else dot + exponent
    exponent -= shift
    neg_exp = exponent < 0
    exponent = abs(exponent)
    if exponent > 511:
        return 0.0
    e, k = 1.0, 0
    while exponent:
        if exponent & 1:
            e *= POWERS[k]
        exponent >>= 1
        k += 1
    result = result / e if neg_exp else result * e
    return -result if neg else result


def gnustep(kind, v, fmt):
    """(bool, integer, double, float, string) for a value as GNUstep read it."""
    if kind == "string":
        d = gs_string_double(v)
        return gs_string_bool(v), gs_string_integer(v), d, f32(d), v
    if kind == "bool":
        return v, int(v), float(v), float(v), None
    if kind == "integer":
        if fmt == "gstyped" and v > INT64_MAX:      # NSUnsignedLongLongNumber: C cast wraps
            return True, v - 2**64, float(v), f32(float(v)), None
        n = clamp64(v)                              # XML parser clamps to Int64
        return n != 0, n, float(n), f32(float(n)), None
    if kind == "real":
        return (v != 0 or math.isnan(v)), c_double_to_int64(v), v, f32(v), None
    return False, 0, 0.0, 0.0, None


# --- corelibs ---------------------------------------------------------------

def skip(u, i, chars):
    while i < len(u):
        if 0xD800 <= u[i] <= 0xDFFF:
            raise Trap()                    # UnicodeScalar(unit)! in _NSStringBuffer.skip
        if u[i] not in chars:
            break
        i += 1
    return i


def skip_quiet(u, i, chars):
    while i < len(u) and u[i] in chars:
        i += 1
    return i


def cl_string_bool(s):
    u = units(s)
    at = lambda i, cs: i < len(u) and u[i] < 0x80 and chr(u[i]) in cs
    i = skip_quiet(u, 0, WHITESPACE_NEWLINES)
    if at(i, "tTyY"):
        return True
    if at(i, "+-"):
        i += 1
    i = skip_quiet(u, i, WHITESPACE_NEWLINES)
    while at(i, "0"):
        i += 1
    i = skip_quiet(u, i, WHITESPACE_NEWLINES)
    return at(i, "123456789")


def cl_sign(u, chars):
    i = skip(u, 0, chars)
    neg = False
    if i < len(u) and u[i] in (0x2B, 0x2D):
        neg = u[i] == 0x2D
        i = skip(u, i + 1, chars)
    return i, neg


def cl_string_integer(s):
    u = units(s)
    i, neg = cl_sign(u, WHITESPACE_NEWLINES)
    digits = ""
    while i < len(u) and u[i] in DIGITS:
        digits += chr(u[i])
        i += 1
    if not digits:
        return 0
    return clamp64(-int(digits) if neg else int(digits))


def cl_number_text(s):
    """The text corelibs hands to Double(String)/Float(String), or None."""
    u = units(s)
    i, neg = cl_sign(u, WHITESPACE)
    text, valid = "-" if neg else "", False
    while i < len(u) and u[i] in DIGITS:
        text += chr(u[i]); i += 1; valid = True
    if i < len(u) and u[i] == 0x2E:                 # Locale.current.decimalSeparator
        text += "."; i += 1
        while i < len(u) and u[i] in DIGITS:
            text += chr(u[i]); i += 1; valid = True
    if not valid:
        return None
    if i < len(u) and u[i] in (0x45, 0x65):
        text += "e"; i += 1; valid = False
        if i < len(u) and u[i] in (0x2B, 0x2D):
            if u[i] == 0x2D:
                text += "-"
            i += 1
        while i < len(u) and u[i] in DIGITS:
            text += chr(u[i]); i += 1; valid = True
        if not valid:
            return None
    return text


def cl_string_double(s):
    t = cl_number_text(s)
    return 0.0 if t is None else float(t)


def cl_string_float(s):
    t = cl_number_text(s)
    return 0.0 if t is None else f32_of_decimal(t)


def swift_description(x):
    return repr(x)          # shortest round trip, exponent below 1e-4 and from 1e16


def corelibs(kind, v, fmt):
    """(bool, integer, double, float, string, url, stringArray) as corelibs reads v."""
    T = "<trap>"
    if kind == "string":
        def guard(f):
            try:
                return f(v)
            except Trap:
                return T
        return (cl_string_bool(v), guard(cl_string_integer), guard(cl_string_double),
                guard(cl_string_float), v, "?", None)
    if kind == "bool":
        return v, int(v), float(v), float(v), "1" if v else "0", None, None
    if kind == "integer":
        if v >= INT64_MAX:       # unboxed as Int64 / UInt64, not Int: every getter misses
            return False, 0, 0.0, 0.0, None, None, None
        return v != 0, v, float(v), f32_of_decimal(str(v)), str(v), None, None
    if kind == "real":
        return ((v != 0 or math.isnan(v)), c_double_to_int64(v), v, f32(v),
                swift_description(v), None, None)
    if kind == "data":
        return False, 0, 0.0, 0.0, None, "?", None
    if kind == "array" and all(isinstance(x, str) for x in v):
        return False, 0, 0.0, 0.0, None, None, v
    return False, 0, 0.0, 0.0, None, None, None


# --- comparison -------------------------------------------------------------

def real_text(x, digits):
    if x == "<trap>":
        return x
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return "%.*g" % (digits, x)


def kind_of(v):
    if isinstance(v, bool):
        return "bool"
    for t, k in ((int, "integer"), (float, "real"), (str, "string"), (bytes, "data"),
                 (list, "array"), (dict, "dict")):
        if isinstance(v, t):
            return k
    return "date"


def read_values(fixtures, fmt, keys, ref):
    """The value of each key as reference `ref` read that file."""
    path = os.path.join(fixtures, "dialect-corpus.%s.plist" % fmt)
    if fmt in ("xml", "binary"):
        with open(path, "rb") as f:
            values = plistlib.load(f)
        if fmt == "xml":   # both XML readers drop U+FEFF from text (python keeps it)
            values = {k: v.replace("\ufeff", "") if isinstance(v, str) else v
                      for k, v in values.items()}
        return values
    with open(path, encoding="ascii") as f:
        present = {line.split("=")[0].strip() for line in f if "=" in line}
    values = {k: v for k, v in keys.items() if k in present}
    if ref == "gnustep":   # GNUstep's text parser drops a leading U+FEFF (\UFEFF) of a string
        values = {k: v[1:] if isinstance(v, str) and v.startswith("\ufeff") else v
                  for k, v in values.items()}
    return values


def plain(typed_value):
    (t, v), = typed_value.items()
    if t == "integer":
        return int(v)
    if t == "real":
        return float(v)
    if t == "array":
        return [plain(x) for x in v]
    if t == "dict":
        return {k: plain(x) for k, x in v.items()}
    if t == "data":
        return b"" if v == "" else bytes(1)   # only the type matters here
    if t == "date":
        return datetime.datetime(2001, 1, 1) + datetime.timedelta(seconds=float(v))
    return v


# (dialect, getter, stored string): why the reference differs from the rules.
KNOWN_UNDEFINED = {
    ("gnustep", "integer", "\u34345"):
        "isspace()/isdigit() called with a UTF-16 unit above 0xFF reads outside glibc's "
        "ctype table; here U+3434 counts as the digit '4' (its low byte)",
}


def main():
    fixtures = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(__file__))
    with open(os.path.join(fixtures, "dialect-corpus.keys.json"), encoding="utf-8") as f:
        keys = {k: plain(v) for k, v in json.load(f).items()}
    bad = checked = known = 0
    for fmt in ("xml", "binary", "openstep", "gstyped"):
        for ref, model in (("gnustep", gnustep), ("corelibs", corelibs)):
            path = os.path.join(fixtures, "dialect-corpus.%s.%s-dump.json" % (fmt, ref))
            if not os.path.exists(path):
                continue
            with open(path, encoding="utf-8") as f:
                dump = json.load(f)
            values = read_values(fixtures, fmt, keys, ref)
            if ref == "corelibs" and fmt == "gstyped":
                if dump:
                    print("corelibs read the GNUstep-typed file?"); bad += 1
                continue
            for k, got in sorted(dump.items()):
                v = values[k]
                exp = model(kind_of(v), v, fmt)
                want = {"bool": exp[0], "integer": exp[1] if exp[1] == "<trap>" else str(exp[1]),
                        "double": real_text(exp[2], 17), "float": real_text(exp[3], 9),
                        "string": exp[4]}
                if ref == "corelibs":
                    if exp[5] != "?":
                        want["url"] = exp[5]
                    want["stringArray"] = exp[6]
                for field, w in want.items():
                    checked += 1
                    if got.get(field) != w:
                        if (ref, field, v) in KNOWN_UNDEFINED:
                            known += 1
                            continue
                        bad += 1
                        print("%s %s %s %-11s %r: rules say %r, reference says %r"
                              % (ref, fmt, k, field, v, w, got.get(field)))
    print("%d getter results checked, %d differ from the rules (and %d known undefined)"
          % (checked, bad, known))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
