#!/usr/bin/env python3
"""The plistlib reference of Scripts/differential.sh: reads each path named on standard input
(one a line) with python's plistlib and prints one line a path, `OK <value>` in the canonical
form of cf_driver.swift or `ERR <reason>`, flushed line by line. With --plistutil, each file
is first converted to XML by libplist's `plistutil` and that XML is read (libplist's reading)."""
import datetime, math, plistlib, subprocess, sys

EPOCH = datetime.datetime(2001, 1, 1)


def string(s):
    out = ['s"']
    units = s.encode("utf-16-be", "surrogatepass")
    for k in range(0, len(units), 2):
        u = units[k] << 8 | units[k + 1]
        if 0x20 <= u < 0x7F and u not in (0x22, 0x5C):
            out.append(chr(u))
        else:
            out.append("\\u%04x" % u)
    out.append('"')
    return "".join(out)


def g17(x):
    text = "%.17g" % x
    return text


def canonical(v):
    if isinstance(v, bool):
        return "T" if v else "F"
    if isinstance(v, int):
        return "i%d" % v
    if isinstance(v, float):
        if math.isnan(v):
            return "rnan"
        if math.isinf(v):
            return "rinf" if v > 0 else "r-inf"
        return "r" + g17(v)
    if isinstance(v, str):
        return string(v)
    if isinstance(v, (bytes, bytearray)):
        return "x" + bytes(v).hex()
    if isinstance(v, datetime.datetime):
        if v.tzinfo is not None:
            v = v.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return "d" + g17((v - EPOCH).total_seconds())
    if isinstance(v, plistlib.UID):
        return "u%d" % v.data
    if isinstance(v, list):
        return "(" + ",".join(canonical(x) for x in v) + ")"
    if isinstance(v, dict):
        entries = sorted(((canonical(k), canonical(x)) for k, x in v.items()),
                         key=lambda e: e[0].encode())
        return "{" + "".join("%s=%s;" % e for e in entries) + "}"
    raise TypeError("a value of type %s" % type(v).__name__)


def main():
    via_plistutil = "--plistutil" in sys.argv[1:]
    for line in sys.stdin:
        path = line.rstrip("\n")
        try:
            if via_plistutil:
                run = subprocess.run(["plistutil", "-i", path, "-f", "xml", "-o", "-"],
                                     capture_output=True, timeout=30)
                if run.returncode != 0 or not run.stdout:
                    raise ValueError("plistutil: " + run.stderr.decode("utf-8", "replace").strip())
                value = plistlib.loads(run.stdout)
            else:
                with open(path, "rb") as f:
                    value = plistlib.load(f)
            text = "OK " + canonical(value)
        except Exception as e:  # every failure is the reader's answer for this input
            text = "ERR %s %s" % (type(e).__name__, str(e).replace("\n", " ")[:200])
        sys.stdout.write(text + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
