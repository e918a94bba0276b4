#!/usr/bin/env python3
"""Writes the small-file benchmark's domain to each path given (folders made as needed): 68
keys of every type a preference file holds, FontSize among them, in binary (1.7 KB), as
prefs-bench's `Bench.smallDomain()` makes it. Used by Scripts/start-profile.sh and
Scripts/make-order-file.sh."""
import datetime
import os
import plistlib
import sys

values = {}
for i in range(67):
    values["Setting%02d" % i] = [
        f"value number {i}", i * 37, i % 2 == 0, i * 1.25, bytes(range(i % 16 + 1)),
        datetime.datetime(2014, 5, 2, 18, 30, i % 60), [f"a{i}", i],
    ][i % 7]
values["FontSize"] = 12
data = plistlib.dumps(values, fmt=plistlib.FMT_BINARY)
for path in sys.argv[1:]:
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
