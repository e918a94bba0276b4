"""A property-list file as typed JSON, by python's plistlib (the tests' independent reader):
the format's table applied to what plistlib reads, not to what prefs prints."""

import base64
import datetime
import json
import math
import plistlib
import sys

TAGS = {"$date", "$data", "$real", "$uid", "$dict"}


def typed(v):
    if isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        if math.isnan(v):
            return {"$real": "nan"}
        if math.isinf(v):
            return {"$real": "inf" if v > 0 else "-inf"}
        return v
    if isinstance(v, bytes):
        return {"$data": base64.b64encode(v).decode()}
    if isinstance(v, datetime.datetime):
        text = v.strftime("%Y-%m-%dT%H:%M:%S")
        if v.microsecond:
            text += (".%06d" % v.microsecond).rstrip("0")
        return {"$date": text + "Z"}
    if isinstance(v, list):
        return [typed(x) for x in v]
    d = {k: typed(x) for k, x in v.items()}
    return {"$dict": d} if len(d) == 1 and next(iter(d)) in TAGS else d


with open(sys.argv[1], "rb") as f:
    print(json.dumps(typed(plistlib.load(f)), sort_keys=True))
