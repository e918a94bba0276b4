#!/usr/bin/env python3
"""The baseline of prefs-bench's migration case: what a developer would write with python's
plistlib to do the same mapping file by file (read, coerce the three legacy keys as Apple's
getters read them, keep the others, write binary). Usage: plistlib_migrate.py IN_DIR OUT_DIR"""
import os
import plistlib
import re
import sys

src, dst = sys.argv[1], sys.argv[2]
os.makedirs(dst, exist_ok=True)
INT = re.compile(r"\s*([+-]?\d+)")


def as_bool(v):
    if isinstance(v, str):
        if v == "YES" or v.lower() in ("yes", "y", "true"):
            return True
        m = INT.match(v)
        return bool(m and int(m.group(1)))
    return bool(v)


def as_int(v):
    if isinstance(v, str):
        m = INT.match(v)
        return int(m.group(1)) if m else 0
    return int(v)


for name in sorted(os.listdir(src)):
    with open(os.path.join(src, name), "rb") as f:
        legacy = plistlib.load(f)
    out = {k: v for k, v in legacy.items()
           if k not in ("PREFS_SOUND_ENABLED", "PREFS_RANKING_SIZE", "colorMode")}
    if "PREFS_SOUND_ENABLED" in legacy:
        out["sound.enabled"] = as_bool(legacy["PREFS_SOUND_ENABLED"])
    if "PREFS_RANKING_SIZE" in legacy:
        out["ranking.size"] = as_int(legacy["PREFS_RANKING_SIZE"])
    if "colorMode" in legacy:
        mode = legacy["colorMode"]
        out["appearance.colorMode"] = mode if mode in ("Light", "Dark", "System") else "System"
    out["prefs.schemaVersion"] = 1
    with open(os.path.join(dst, name), "wb") as f:
        plistlib.dump(out, f, fmt=plistlib.FMT_BINARY)
