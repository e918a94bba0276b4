#!/usr/bin/env python3
"""Reads a property list with python's plistlib and prints its value as typed JSON (the form
of the fixtures' .expected.json files). Used by the tests to check that plistlib reads what
prefs writes. Usage: typed_json.py FILE"""
import base64, datetime, json, math, plistlib, sys

EPOCH = datetime.datetime(2001, 1, 1)


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
    if isinstance(v, plistlib.UID):
        return {"uid": str(v.data)}
    if isinstance(v, list):
        return {"array": [typed(x) for x in v]}
    if isinstance(v, dict):
        return {"dict": {k: typed(x) for k, x in v.items()}}
    raise TypeError(type(v))


with open(sys.argv[1], "rb") as f:
    value = plistlib.load(f)
print(json.dumps(typed(value), ensure_ascii=False, sort_keys=True))
