#!/usr/bin/env python3
"""Writes the dialect corpus: one defaults file per format, one key per case
(k000, k001, ...), and optionally runs the two references over every file.

    make_dialect_corpus.py [--driver PATH/prefs-driver] [--probe PATH/defaults-probe] [OUTDIR]

OUTDIR defaults to this script's folder.  Files written:

  dialect-corpus.keys.json       key -> typed value (typed-JSON convention of
                                 Tests/PropertyListTests/Fixtures/README.md)
  dialect-corpus.xml.plist       python plistlib XML   (keys XML can hold)
  dialect-corpus.binary.plist    python plistlib binary (keys binary can hold, but no
                                 integers above Int64.max: GNUstep cannot read any
                                 binary file that has one)
  dialect-corpus.openstep.plist  OpenStep text, string values only
  dialect-corpus.gstyped.plist   GNUstep-typed text (<*I..> <*R..> <*B..> <*D..>),
                                 every key it can express

With --driver (the GNUstep build of Legacy/, see Legacy/build.sh) and --probe
(Tests/DefaultsProbe compiled as `defaults-probe`), each corpus file F is
installed as the references' defaults file and their `dump` output (one line
of JSON, unchanged) is saved as
  dialect-corpus.F.gnustep-dump.json   and   dialect-corpus.F.corelibs-dump.json
(F = xml, binary, openstep, gstyped).  Environment of the runs: TZ=UTC,
LC_ALL=C; GNUstep confined with GNUSTEP_CONFIG_FILE; the probe runs with
XDG_CONFIG_HOME=<temp>, HOME=CFFIXED_USER_HOME=/nonexistent/prefs-home and
cwd "/" so that its
`url` results (file URLs of relative paths and of `~`) are reproducible.
Output is deterministic: run it twice, nothing changes.
"""
import base64, datetime, json, math, os, plistlib, shutil, subprocess, sys, tempfile

EPOCH = datetime.datetime(2001, 1, 1)
PROBE_HOME = "/nonexistent/prefs-home"  # HOME and CFFIXED_USER_HOME of the probe


def typed(v):
    if isinstance(v, bool):
        return {"bool": v}
    if isinstance(v, int):
        return {"integer": str(v)}
    if isinstance(v, float):
        if math.isnan(v):
            return {"real": "nan"}
        if math.isinf(v):
            return {"real": "inf" if v > 0 else "-inf"}
        return {"real": repr(v)}
    if isinstance(v, str):
        return {"string": v}
    if isinstance(v, bytes):
        return {"data": base64.b64encode(v).decode()}
    if isinstance(v, datetime.datetime):
        return {"date": repr((v - EPOCH).total_seconds())}
    if isinstance(v, list):
        return {"array": [typed(x) for x in v]}
    if isinstance(v, dict):
        return {"dict": {k: typed(x) for k, x in v.items()}}
    raise TypeError(type(v))


def keyed_archive_url(s):
    """Bytes of an NSKeyedArchiver archive of an NSURL (what Apple's
    set(URL) writes for non-file URLs), built by hand with plistlib."""
    archive = {
        "$archiver": "NSKeyedArchiver",
        "$version": 100000,
        "$top": {"root": plistlib.UID(1)},
        "$objects": [
            "$null",
            {"$class": plistlib.UID(3), "NS.base": plistlib.UID(0), "NS.relative": plistlib.UID(2)},
            s,
            {"$classname": "NSURL", "$classes": ["NSURL", "NSObject"]},
        ],
    }
    return plistlib.dumps(archive, fmt=plistlib.FMT_BINARY, sort_keys=True)


# ---------------------------------------------------------------------------
# The cases.  Order matters: keys are numbered in this order.

SPEC_TRUE = ["YES", "yes", "Y", "y", "true", "TRUE", "1", "2", "-1", "01", "+1", " 1", "\n7",
             "5abc", "5.7", "1e3", "1.0"]
SPEC_FALSE = ["NO", "no", "false", "t", "f", "0", "00", "--1", "0-1", " YES", "\tYES", "abc", "",
              "0.5", "0x10", "-0", ".5", "yes please"]

MORE_STRINGS = [
    # white space of every kind before/after a number and before a bool word
    " 42", "42 ", "  42  ", "12 34", "\t42", "\n42", "\r42", "\r\n42", "\v42", "\f42",
    "\u00a042", "\u200942", "\u300042", "\u202842", "\u008542", "\u200b42", "\ufeff42",
    " \t\n42", "42\t", "42\n", "42\u00a0",
    " y", "\ty", "\u00a0y", "\u00a0YES", "\u00a01", "\t1", "\u30001", "\v1", "\f1",
    "   ", "\t\n", "\u00a0", "\u3000",
    # signs
    "+", "-", "+-1", "-+1", "++1", "+5", "-5", "+0", "+-5", "- 5", "+ 5", "+y", "-t", "+YES",
    # leading zeros
    "007", "-007", "0007.5", "0y", "00t", "0000",
    "00000000000000000001", "000000000000000000000000001", "+0000000000000000000001",
    "-0000000000000000000001",
    # number syntaxes
    "0X1A", "1E3", "1.5e", "1.5e+", "1.5e+2", "1e-2", "5.", "-.5", "+.5", ".", "-.", "e5",
    "1e", "1.5E-3", "2e0",
    "inf", "-inf", "+inf", "INF", "nan", "NaN", "-nan", "infinity", "Infinity",
    "1_000", "1,000", "1,5",
    "\u0661\u0662", "\u06f1\u06f2", "\uff11\uff12", "\uff11", "\u0661", "1\uff12",
    # magnitudes
    "99999999999999999999", "-99999999999999999999", "9223372036854775807",
    "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
    "18446744073709551615", "18446744073709551616", "2147483647", "2147483648",
    "-2147483649", "4294967296",
    "123456789012345678901234567890", "12345678901234567890.5",
    # bool words
    "T", "tRuE", "Yes", "n", "N", "on", "off", "x", "z", "Yellow", "tomato", "no way",
    "Nope", "9", "0.0001", "-0.1", "\u00e9", "\u00ffes", "\u20ac", "\U0001f600",
    "1\U0001f600", "yes\u0000",
    # reals as text
    "0.0", "-0.5", "1.5", "3.99", "-3.99", "1e308", "1e309", "4.9e-324", "1e-400",
    "2.2250738585072014e-308", "1.7976931348623157e308", "0.1", "3.141592653589793",
    "3.14159265358979323846264338", "0.000000000000000000001", "1e511", "1e512",
    "1e-511", "1e-512", "9007199254740993", "0.30000000000000004",
    "1.23456789012345678e5", "123456789.123456789", "16777217", "1e39",
    # url-ish
    "~", "~/Library/x", "/tmp/a b", "https://example.com/a?b=c", "file:///etc/hosts",
    "rel/path", "4\u00002",
    # added after the first runs: the exact white-space sets, NUL, the second
    # skip after a sign, GNUstep's scanner arithmetic, double rounding of float
    "\u16805", "\u20005", "\u200a5", "\u202f5", "\u205f5", "\u20295", "\u180e5",
    "\u00a0-5", "-\u00a05", "-\t5", "- 1", "0 1", "0\t1", "0\n1", "00 0 5",
    "\u0000", "0\u0000", "\u34345", " \U0001f600", "-\U0001f600",
    "0.3", "1.1e-10", "123456789012345678", "1e22", "1e23", "9.999999999999999e22",
    "2.2250738585072011e-308", "1.000000059604644775390625001",
]

INTEGERS = [0, 1, -1, 2, 42, 123456789, 2**31 - 1, -2**31, 2**31, -2**31 - 1, 2**32 - 1,
            2**24 + 1, 2**53 + 1, -2**63, 2**63 - 1, 2**63 - 2, 2**63, 2**64 - 1]

REALS = [0.0, -0.0, 0.5, -0.5, 1.0, 1.5, 2.5, -1.5, 5.7, 100.0, 123456.7, 1e15, 1e16, 1e20,
         -1e20, 1e21, 1e-4, 1e-5, 1e-7, 9.2233720368547758e18, 9.3e18, -9.3e18, 1e300, 1e-300,
         5e-324, 1.7976931348623157e308, 1e39, 16777217.0, 0.1, 0.1 + 0.2, 3.99, -3.99,
         123456789.125, float("nan"), float("inf"), float("-inf")]

OTHERS = [
    True, False,
    datetime.datetime(2014, 5, 2, 18, 30, 5),
    b"\x00\x01\x02\xff",
    json.dumps({"address": "Seoul", "lat": "37.5665"}, separators=(",", ":")).encode(),
    b"",
    keyed_archive_url("https://example.com/a?b=c"),
    ["a", "b"],
    ["a", 1, 2.5, True],
    [],
    ["1", "YES"],
    {"a": "1", "b": 2},
    {},
]


def cases():
    seen, out = set(), []
    for s in SPEC_TRUE + SPEC_FALSE + MORE_STRINGS:
        if s not in seen:
            seen.add(s)
            out.append(s)
    out += INTEGERS + REALS + OTHERS
    return {"k%03d" % i: v for i, v in enumerate(out)}


# ---------------------------------------------------------------------------
# Writers

def representable(value, fmt):
    if fmt == plistlib.FMT_BINARY and isinstance(value, int) and not isinstance(value, bool) \
            and value > 2**63 - 1:
        # plistlib stores these as 16-byte integers, and GNUstep then rejects
        # the whole file ("Stored number too long (16 bytes)"); the XML file
        # has them.
        return False
    try:
        plistlib.dumps({"k": value}, fmt=fmt)
        return True
    except (ValueError, OverflowError, TypeError):
        return False


def openstep_string(s):
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif o < 0x20 or o == 0x7F:
            out.append("\\%03o" % o)
        elif o < 0x7F:
            out.append(ch)
        elif o <= 0xFFFF:
            out.append("\\U%04X" % o)
        else:
            o -= 0x10000
            out.append("\\U%04X\\U%04X" % (0xD800 + (o >> 10), 0xDC00 + (o & 0x3FF)))
    out.append('"')
    return "".join(out)


def gstyped(v):
    """GNUstep-typed text (NSPropertyListGNUstepFormat) for one value, or None."""
    if isinstance(v, bool):
        return "<*BY>" if v else "<*BN>"
    if isinstance(v, int):
        return "<*I%d>" % v
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            return None
        return "<*R%s>" % repr(v)
    if isinstance(v, str):
        return openstep_string(v)
    if isinstance(v, bytes):
        return "<" + v.hex() + ">"
    if isinstance(v, datetime.datetime):
        return "<*D%s +0000>" % v.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(v, list):
        parts = [gstyped(x) for x in v]
        return None if None in parts else "(" + ", ".join(parts) + ")"
    if isinstance(v, dict):
        parts = []
        for k in sorted(v):
            x = gstyped(v[k])
            if x is None:
                return None
            parts.append("%s = %s;" % (openstep_string(k), x))
        return "{" + " ".join(parts) + "}"
    return None


def text_file(entries):
    lines = ["{"] + ["    %s = %s;" % (k, v) for k, v in entries] + ["}", ""]
    return "\n".join(lines).encode("ascii")


def write_corpus(outdir):
    data = cases()
    files = {}
    xml = {k: v for k, v in data.items() if representable(v, plistlib.FMT_XML)}
    binary = {k: v for k, v in data.items() if representable(v, plistlib.FMT_BINARY)}
    files["xml"] = plistlib.dumps(xml, fmt=plistlib.FMT_XML, sort_keys=True)
    files["binary"] = plistlib.dumps(binary, fmt=plistlib.FMT_BINARY, sort_keys=True)
    files["openstep"] = text_file([(k, openstep_string(v)) for k, v in data.items()
                                   if isinstance(v, str)])
    files["gstyped"] = text_file([(k, gstyped(v)) for k, v in data.items()
                                  if gstyped(v) is not None])
    for name, blob in files.items():
        with open(os.path.join(outdir, "dialect-corpus.%s.plist" % name), "wb") as f:
            f.write(blob)
    with open(os.path.join(outdir, "dialect-corpus.keys.json"), "w", encoding="utf-8") as f:
        json.dump({k: typed(v) for k, v in data.items()}, f, ensure_ascii=False, indent=1,
                  sort_keys=True)
        f.write("\n")
    missing = {name: sorted(set(data) - set(keys)) for name, keys in
               (("xml", xml), ("binary", binary))}
    return list(files), missing


# ---------------------------------------------------------------------------
# Running the references

def run(cmd, env, cwd):
    p = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.stderr:
        sys.stderr.write("%s: stderr:\n%s" % (cmd[0], p.stderr.decode("utf-8", "replace")))
    if p.returncode != 0:
        raise SystemExit("%s exited with %d" % (" ".join(cmd), p.returncode))
    json.loads(p.stdout)  # must be valid JSON
    return p.stdout


def run_gnustep(driver, corpus, tmp):
    d = tempfile.mkdtemp(dir=tmp)
    defaults, home = os.path.join(d, "defaults"), os.path.join(d, "home")
    os.makedirs(defaults)
    os.makedirs(home)
    conf = os.path.join(d, "GNUstep.conf")
    with open(conf, "w") as f:
        f.write("GNUSTEP_USER_DEFAULTS_DIR=%s\nGNUSTEP_USER_DIR=%s/GNUstep\n" % (defaults, home))
    shutil.copyfile(corpus, os.path.join(defaults, "prefs-driver.plist"))
    exe = os.path.join(d, "prefs-driver")
    shutil.copyfile(driver, exe)
    os.chmod(exe, 0o755)
    env = {"PATH": "/usr/bin:/bin", "HOME": home, "GNUSTEP_CONFIG_FILE": conf,
           "TZ": "UTC", "LC_ALL": "C", "LANG": "C"}
    return run([exe, "dump"], env, d)


def run_corelibs(probe, corpus, tmp):
    d = tempfile.mkdtemp(dir=tmp)
    xdg = os.path.join(d, "config")
    os.makedirs(xdg)
    shutil.copyfile(corpus, os.path.join(xdg, "defaults-probe.plist"))
    exe = os.path.join(d, "defaults-probe")
    shutil.copyfile(probe, exe)
    os.chmod(exe, 0o755)
    # corelibs takes the home folder from the password database unless
    # CFFIXED_USER_HOME is set; `~` in url results must not depend on the user.
    env = {"PATH": "/usr/bin:/bin", "HOME": PROBE_HOME, "CFFIXED_USER_HOME": PROBE_HOME,
           "XDG_CONFIG_HOME": xdg,
           "TZ": "UTC", "LC_ALL": "C", "LANG": "C"}
    if "LD_LIBRARY_PATH" in os.environ:
        env["LD_LIBRARY_PATH"] = os.environ["LD_LIBRARY_PATH"]
    return run([exe, "dump"], env, "/")


def main(argv):
    driver = probe = None
    rest = []
    it = iter(argv)
    for a in it:
        if a == "--driver":
            driver = os.path.abspath(next(it))
        elif a == "--probe":
            probe = os.path.abspath(next(it))
        else:
            rest.append(a)
    outdir = os.path.abspath(rest[0] if rest else os.path.dirname(os.path.abspath(__file__)))
    names, missing = write_corpus(outdir)
    for name, keys in missing.items():
        if keys:
            print("%s file leaves out (not representable): %s" % (name, " ".join(keys)))
    tmp = tempfile.mkdtemp(prefix="dialect-corpus.")
    try:
        for name in names:
            corpus = os.path.join(outdir, "dialect-corpus.%s.plist" % name)
            for ref, runner, exe in (("gnustep", run_gnustep, driver),
                                     ("corelibs", run_corelibs, probe)):
                if exe is None:
                    continue
                out = runner(exe, corpus, tmp)
                with open(os.path.join(outdir, "dialect-corpus.%s.%s-dump.json" % (name, ref)),
                          "wb") as f:
                    f.write(out)
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main(sys.argv[1:])
